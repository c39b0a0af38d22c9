//===-- ProxyPool.cpp - One host thread per device ------------------------===//

#include "ProxyPool.h"

namespace homp {

void Completion::done() {
  if (Pending.fetch_sub(1, std::memory_order_acq_rel) == 1) {
    std::lock_guard<std::mutex> Lock(M);
    CV.notify_all();
  }
}

void Completion::wait() {
  // Short waits are the common case for small regions: spin a little before
  // sleeping.
  for (int Spin = 0; Spin < 2000; ++Spin) {
    if (Pending.load(std::memory_order_acquire) == 0)
      return;
    std::this_thread::yield();
  }
  std::unique_lock<std::mutex> Lock(M);
  CV.wait(Lock, [&] { return Pending.load(std::memory_order_acquire) == 0; });
}

struct ProxyPool::Proxy {
  std::mutex M;
  std::condition_variable CV;
  std::deque<std::function<void()>> Jobs;
  bool Stop = false;
  std::thread Thread;

  Proxy() : Thread([this] { loop(); }) {}

  void loop() {
    std::unique_lock<std::mutex> Lock(M);
    while (true) {
      CV.wait(Lock, [&] { return Stop || !Jobs.empty(); });
      if (Jobs.empty())
        return;
      std::function<void()> Job = std::move(Jobs.front());
      Jobs.pop_front();
      Lock.unlock();
      Job();
      Lock.lock();
    }
  }
};

ProxyPool::~ProxyPool() {
  for (std::unique_ptr<Proxy> &P : Proxies) {
    if (!P)
      continue;
    {
      std::lock_guard<std::mutex> Lock(P->M);
      P->Stop = true;
    }
    P->CV.notify_one();
    P->Thread.join();
  }
}

ProxyPool::Proxy &ProxyPool::proxy(int Device) {
  std::lock_guard<std::mutex> Lock(M);
  if (Device >= static_cast<int>(Proxies.size()))
    Proxies.resize(Device + 1);
  if (!Proxies[Device])
    Proxies[Device] = std::make_unique<Proxy>();
  return *Proxies[Device];
}

void ProxyPool::run(int Device, std::function<void()> Job) {
  Proxy &P = proxy(Device);
  {
    std::lock_guard<std::mutex> Lock(P.M);
    P.Jobs.push_back(std::move(Job));
  }
  P.CV.notify_one();
}

ProxyPool &ProxyPool::get() {
  // Never destroyed: proxies may still be needed by other libraries' static
  // destructors, and joining threads at exit is not required.
  static ProxyPool *Pool = new ProxyPool();
  return *Pool;
}

} // namespace homp
