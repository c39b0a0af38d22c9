

//===-- ProxyPool.cpp - One host thread per device ------------------------===//

#include "ProxyPool.h"

#include "Devices.h"
#include "Tracer.h"

#include "homp/CoreShares.h"

#include <omp.h>

#include <cerrno>
#include <cstdlib>
#include <optional>

#include <algorithm>
#include <chrono>

#include <pthread.h>
#include <sched.h>

namespace homp {

namespace {

/// Proxy threads made so far.
std::atomic<int> ProxyThreads{0};

/// Whether a waiting thread may spin before it sleeps: while every proxy
/// and the program's thread have a core of their own. On a machine with
/// fewer cores, a spinning proxy takes the core the thread it waits for
/// needs (measured: with 4 devices on 2 cores, 3 proxies spinning 100 us
/// after each job took 40% of a core each during a loop of halo
/// exchanges).
bool coresToSpare() {
  static const int Procs = omp_get_num_procs();
  return ProxyThreads.load(std::memory_order_relaxed) + 1 <= Procs;
}

} // namespace

void Completion::done() {
  // The decrement happens under the lock, so a waiter that saw zero and then
  // took the lock knows this call no longer touches the object.
  std::lock_guard<std::mutex> Lock(M);
  if (Pending.fetch_sub(1, std::memory_order_acq_rel) == 1)
    CV.notify_all();
}

void Completion::wait() {
  // Short waits are the common case for small regions: look a few times
  // before sleeping.
  for (int Spin = 0; Spin < 200 && coresToSpare(); ++Spin) {
    if (Pending.load(std::memory_order_acquire) == 0)
      break;
    std::this_thread::yield();
  }
  std::unique_lock<std::mutex> Lock(M);
  CV.wait(Lock, [&] { return Pending.load(std::memory_order_acquire) == 0; });
}

struct ProxyPool::Proxy {
  std::mutex M;
  std::condition_variable CV;
  std::deque<std::function<void()>> Jobs;
  std::atomic<unsigned> Queued{0}; ///< Jobs.size(), readable without M
  bool Sleeping = false;           ///< waiting on CV (guarded by M)
  bool Stop = false;
  bool Parked = false; ///< left its parallel region for good (guarded by M)
  std::condition_variable ParkedCV;
  std::thread::id Id;

  Proxy() {
    std::thread T([this] { run(); });
    Id = T.get_id();
    T.detach();
  }

  /// The proxy works as the first thread of a parallel region of two whose
  /// second thread waits, asleep, at its end: the OpenMP regions of the
  /// kernels it launches are then nested, so a device given one thread runs
  /// them on this thread alone. Launched from outside any parallel region,
  /// an x86 offload kernel costs 7 to 70 us (its teams wake other threads);
  /// nested it costs 3 us (measured on this project's 2-core machines).
  void run() {
    // Kernels of CPU offload devices run OpenMP teams on this thread. Their
    // workers must not spin after a kernel: they would take the cores the
    // other devices of the region are running on.
    kmp_set_blocktime(0);
#pragma omp parallel num_threads(2)
    if (omp_get_thread_num() == 0)
      loop();
    // Shut down: out of the parallel region, the thread stays (parked) to
    // the end of the process. Ending it would run libomp's thread clean-up
    // concurrently with libomp's own shut-down at exit, which can hang.
    {
      std::lock_guard<std::mutex> Lock(M);
      Parked = true;
    }
    ParkedCV.notify_all();
    while (true)
      std::this_thread::sleep_for(std::chrono::hours(24));
  }

  /// Regions often come back to back: look for the next job for a while
  /// before sleeping, yielding the core to whoever needs it meanwhile (when
  /// there are cores to spare).
  bool jobSoon() {
    // Without a core to spare only briefly: long enough for the program to
    // queue the next kernel of a loop or its next region (a wake-up costs
    // the program's thread a system call per device), short enough not to
    // take the core it needs for anything else. Measured with 4 devices on
    // 2 cores, medians of 5 alternating runs, 20 against 50 us: an AXPY
    // region of 1e3 elements 46 -> 27 us, of 1e5 70 -> 54 us; 100 resident
    // AXPYs of 1e5 1.36 -> 1.32 ms; Jacobi at 514 and 2050 rows 103 -> 95
    // and 385 -> 369 ms; its halo exchange alone 291 -> 299 us. 100 us was
    // no better than 50.
    auto Until = std::chrono::steady_clock::now() +
                 std::chrono::microseconds(coresToSpare() ? 100 : 50);
    do {
      if (Queued.load(std::memory_order_acquire))
        return true;
      std::this_thread::yield();
    } while (std::chrono::steady_clock::now() < Until);
    return false;
  }

  void loop() {
    while (true) {
      jobSoon();
      std::unique_lock<std::mutex> Lock(M);
      Sleeping = true;
      CV.wait(Lock, [&] { return Stop || !Jobs.empty(); });
      Sleeping = false;
      if (Jobs.empty())
        return;
      std::function<void()> Job = std::move(Jobs.front());
      Jobs.pop_front();
      Queued.fetch_sub(1, std::memory_order_release);
      Lock.unlock();
      Job();
    }
  }
};

ProxyPool::~ProxyPool() { shutDown(); }

void ProxyPool::shutDown() {
  std::vector<Proxy *> Running;
  {
    std::lock_guard<std::mutex> Lock(M);
    Down = true;
    for (std::unique_ptr<Proxy> &P : Proxies)
      if (P)
        Running.push_back(P.get());
  }
  for (Proxy *P : Running) {
    {
      std::lock_guard<std::mutex> Lock(P->M);
      P->Stop = true;
    }
    P->CV.notify_all();
  }
  // A job that called exit() runs this on its own proxy, which cannot park
  // while it does; the others finish their queued jobs and park.
  for (Proxy *P : Running) {
    if (P->Id == std::this_thread::get_id())
      continue;
    std::unique_lock<std::mutex> Lock(P->M);
    P->ParkedCV.wait(Lock, [P] { return P->Parked; });
  }
}

ProxyPool::Proxy *ProxyPool::proxy(int Device) {
  std::lock_guard<std::mutex> Lock(M);
  if (Down)
    return nullptr;
  if (Device >= static_cast<int>(Proxies.size()))
    Proxies.resize(Device + 1);
  if (!Proxies[Device]) {
    Proxies[Device] = std::make_unique<Proxy>();
    ProxyThreads.fetch_add(1, std::memory_order_relaxed);
  }
  return Proxies[Device].get();
}

void ProxyPool::run(int Device, std::function<void()> Job) {
  Proxy *Found = proxy(Device);
  if (!Found) {
    Job();
    return;
  }
  Proxy &P = *Found;
  bool Wake;
  {
    std::lock_guard<std::mutex> Lock(P.M);
    P.Jobs.push_back(std::move(Job));
    P.Queued.fetch_add(1, std::memory_order_release);
    Wake = P.Sleeping;
  }
  if (Wake)
    P.CV.notify_one();
}

namespace {

/// Jobs queued by runOnDevicesAsync that have not finished.
std::atomic<int> AsyncPending{0};

/// Whether this is the program's main thread (libhomp is loaded there).
pthread_t MainThread = pthread_self();
bool onMainThread() { return pthread_equal(pthread_self(), MainThread); }

/// The process's CPUs, read when libhomp is loaded (on the program's
/// thread, before any proxy is bound).
std::vector<int> readProcessCpus() {
  std::vector<int> Cpus;
  for (int Size = 1024; Size <= 1 << 18; Size *= 2) {
    cpu_set_t *Set = CPU_ALLOC(Size);
    const size_t Bytes = CPU_ALLOC_SIZE(Size);
    CPU_ZERO_S(Bytes, Set);
    const bool Read = sched_getaffinity(0, Bytes, Set) == 0;
    for (int C = 0; Read && C < Size; ++C)
      if (CPU_ISSET_S(C, Bytes, Set))
        Cpus.push_back(C);
    CPU_FREE(Set);
    if (Read || errno != EINVAL) // EINVAL: the set is too small
      break;
  }
  return Cpus;
}
const std::vector<int> ProcessCpus = readProcessCpus();

/// The CPUs of the Share-th of Shares shares of the process's CPUs
/// (CoreShares.h); empty when proxies are not bound: the device is not on
/// the host's cores (Share < 0), the process has one CPU, or HOMP_BIND says
/// not to.
std::vector<int> shareCpus(int Share, int Shares) {
  if (Share < 0 || ProcessCpus.size() < 2 || !settings().Bind)
    return {};
  return coreShare(Share, Shares, ProcessCpus);
}

/// On a proxy: binds its thread to shareCpus(Share, Shares), unless it is
/// bound there already or that is empty. The kernels' OpenMP workers are
/// libomp's to place. A binding the system refuses leaves the thread where
/// it was.
void bindToShare(int Share, int Shares) {
  thread_local std::pair<int, int> Bound{-1, 0};
  if (Bound == std::pair{Share, Shares})
    return;
  std::vector<int> Cpus = shareCpus(Share, Shares);
  if (Cpus.empty())
    return;
  Bound = {Share, Shares};
  const int Size = *std::max_element(Cpus.begin(), Cpus.end()) + 1;
  cpu_set_t *Set = CPU_ALLOC(Size);
  const size_t Bytes = CPU_ALLOC_SIZE(Size);
  CPU_ZERO_S(Bytes, Set);
  for (int C : Cpus)
    CPU_SET_S(C, Bytes, Set);
  pthread_setaffinity_np(pthread_self(), Bytes, Set);
  CPU_FREE(Set);
}

/// The OpenMP threads each of Devices devices uses when it runs on the
/// host's cores: an equal share of the processors, at most what the program
/// would use by default (OMP_NUM_THREADS).
int cpuThreadsPerDevice(int Devices) {
  static const int Procs = omp_get_num_procs();
  static const int Default = omp_get_max_threads();
  return std::max(1, std::min(Default, Procs / std::max(1, Devices)));
}

/// On a proxy (inside its parallel region): the kernels' regions get Threads
/// threads, nested regions being allowed only when there is more than one.
void useThreadsOnProxy(int Threads) {
  omp_set_num_threads(Threads);
  omp_set_max_active_levels(Threads > 1 ? 2 : 1);
}

} // namespace

void runOnDevices(const std::vector<int> &Devices, int HostId,
                  const std::function<void(unsigned)> &Job,
                  const std::string &WaitName, DeviceJobs Kind) {
  if (Devices.empty())
    return;
  const unsigned N = static_cast<unsigned>(Devices.size());
  std::optional<unsigned> Here;
  for (unsigned I = 0; I < N; ++I)
    if (Devices[I] == HostId)
      Here = I;
  // The calling thread runs a device's job only when nothing is queued
  // ahead of it on that device.
  const bool CallerMayRun = onMainThread() && omp_get_level() == 0 &&
                            AsyncPending.load(std::memory_order_acquire) == 0;
  if (!Here && (Kind != DeviceJobs::Long || coresToSpare()) && CallerMayRun)
    Here = N - 1;
  int Threads = cpuThreadsPerDevice(static_cast<int>(N));
  const DeviceEnvironment &Env = deviceTypes();
  int Shares = 0;
  const std::vector<int> Share = cpuShares(Devices, Env, Shares);
  // The position whose thread runs each position's job: its own, unless
  // the devices on the host's cores outnumber them (see the header).
  std::vector<unsigned> Runner(N);
  for (unsigned I = 0; I < N; ++I)
    Runner[I] = I;
  const int Cores = static_cast<int>(std::max<size_t>(1, ProcessCpus.size()));
  if (Kind == DeviceJobs::Short && Here && Devices[*Here] != HostId &&
      Share[*Here] >= 0 && Shares + 1 > Cores && settings().Emulate.empty()) {
    // Share S is bound to CPU S mod Cores (coreShare): the devices of one
    // residue share a core, and its first device's thread runs them all,
    // the calling thread those of its own device.
    const int Mine = Share[*Here] % Cores;
    std::vector<int> Leader(Cores, -1);
    Leader[Mine] = static_cast<int>(*Here);
    for (unsigned I = 0; I < N; ++I)
      if (Share[I] >= 0) {
        int &L = Leader[Share[I] % Cores];
        if (L < 0)
          L = static_cast<int>(I);
        Runner[I] = static_cast<unsigned>(L);
      }
  }
  int Handed = 0;
  for (unsigned I = 0; I < N; ++I)
    Handed += Runner[I] == I && !(Here && I == *Here);
  Completion Done(Handed);
  // When each job ended; written before done(), read after wait().
  const bool Traced = tracing() && !WaitName.empty();
  std::vector<std::chrono::steady_clock::time_point> Ended(Traced ? N : 0);
  // The jobs a thread runs: those whose runner is Lead, in order.
  auto RunAll = [&](unsigned Lead) {
    for (unsigned I = 0; I < N; ++I)
      if (Runner[I] == Lead) {
        Job(I);
        if (Traced)
          Ended[I] = std::chrono::steady_clock::now();
      }
  };
  for (unsigned I = 0; I < N; ++I) {
    if (Runner[I] != I || (Here && I == *Here))
      continue;
    ProxyPool::get().run(Devices[I], [&, I] {
      bindToShare(Share[I], Shares);
      useThreadsOnProxy(Threads);
      RunAll(I);
      Done.done();
    });
  }
  if (Here) {
    int Before = omp_get_max_threads();
    omp_set_num_threads(Threads);
    RunAll(*Here);
    omp_set_num_threads(Before);
  }
  Done.wait();
  if (Traced) {
    // Every device waits until the last one is done, and the caller sees it.
    auto End = std::chrono::steady_clock::now();
    for (unsigned I = 0; I < N; ++I)
      traceSpan(Devices[I], "wait", WaitName, Ended[I], End, {});
  }
}

void runOnDevicesAsync(const std::vector<int> &Devices,
                       std::function<void(unsigned)> Job,
                       std::function<void()> Last) {
  if (Devices.empty()) {
    Last();
    return;
  }
  // Deleted by the last job. Each device's job holds a plain pointer to it,
  // its position and its share of the host's cores: small enough for
  // std::function to keep in place, so queueing allocates nothing per
  // device (measured: a resident AXPY kernel on 4 devices spent a tenth of
  // its time in malloc and free before).
  const DeviceEnvironment &Env = deviceTypes();
  struct Shared {
    std::function<void(unsigned)> Job;
    std::function<void()> Last;
    std::atomic<int> Left;
    int Threads;
    int Shares; ///< devices on the host's cores
  };
  auto *S = new Shared{std::move(Job), std::move(Last),
                       {static_cast<int>(Devices.size())},
                       cpuThreadsPerDevice(static_cast<int>(Devices.size())),
                       hostCoreDevices(Devices, Env)};
  AsyncPending.fetch_add(static_cast<int>(Devices.size()),
                         std::memory_order_acq_rel);
  int NextShare = 0;
  for (unsigned I = 0; I < Devices.size(); ++I) {
    const int Share = onHostCores(Devices[I], Env) ? NextShare++ : -1;
    ProxyPool::get().run(Devices[I], [S, I, Share] {
      bindToShare(Share, S->Shares);
      useThreadsOnProxy(S->Threads);
      S->Job(I);
      if (S->Left.fetch_sub(1, std::memory_order_acq_rel) == 1) {
        S->Last();
        delete S;
      }
      AsyncPending.fetch_sub(1, std::memory_order_acq_rel);
    });
  }
}

std::vector<int> proxyCpus(const std::vector<int> &Devices, unsigned Position) {
  int Shares = 0;
  std::vector<int> Share = cpuShares(Devices, deviceTypes(), Shares);
  if (Position >= Devices.size() || Devices[Position] == hostDevice())
    return {};
  return shareCpus(Share[Position], Shares);
}

void waitForChildTasks() {
#pragma omp taskwait
}

void waitForQueued(int64_t Id) {
  if (!asyncWorkPending())
    return;
  if (Id == -1) // OFFLOAD_DEVICE_DEFAULT
    Id = omp_get_default_device();
  if (Id < 0 || Id >= omp_get_num_devices())
    return; // the host, or a device libomptarget reports
  runOnDevices({static_cast<int>(Id)}, hostDevice(), [](unsigned) {});
}

bool asyncWorkPending() {
  return AsyncPending.load(std::memory_order_acquire) != 0;
}

ProxyPool &ProxyPool::get() {
  // Never destroyed: after the shut-down at exit, jobs (from other
  // libraries' static destructors, say) run on the calling thread.
  static ProxyPool *Pool = [] {
    // libomp registers its own shut-down when it initialises; initialising
    // it first makes the handler below run before it (exit handlers run in
    // reverse order). The handler also lets asynchronous jobs finish.
    (void)omp_get_max_threads();
    auto *P = new ProxyPool();
    std::atexit([] { ProxyPool::get().shutDown(); });
    return P;
  }();
  return *Pool;
}

} // namespace homp
