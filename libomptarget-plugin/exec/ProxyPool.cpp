//===-- ProxyPool.cpp - One host thread per device ------------------------===//

#include "ProxyPool.h"

#include "CpuPlacement.h"
#include "Devices.h"
#include "Observe.h"

#include "homp/CoreShares.h"

#include <omp.h>

#include <cerrno>
#include <cstdlib>
#include <map>
#include <optional>
#include <tuple>

#include <algorithm>
#include <array>
#include <chrono>

#include <pthread.h>
#include <sched.h>

namespace homp {

using namespace placement;

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

/// How long a thread without a core to spare looks for what it waits for
/// before it sleeps (see jobSoon).
std::chrono::microseconds spinTime() { return std::chrono::microseconds(300); }

/// Changed when devices are about to run kernels of more than one thread
/// each on a machine without a core for every proxy: proxies looking for
/// their next job (jobSoon) sleep at once. A kernel's OpenMP workers wake
/// where the system finds an idle CPU; one taken by a looking proxy leaves
/// a worker on its own proxy's CPU, and the system keeps it there (it ran
/// there last) while the other CPU idles: a bm2d kernel alone on 2 cores
/// took 3.8 to 4.4 ms in such processes, 1.9 ms in the others (perf sched:
/// the worker waited 1.9 ms behind its proxy on one CPU, the other idle).
std::atomic<unsigned> QuietEpoch{0};

} // namespace

bool Completion::waitUntil(std::chrono::steady_clock::time_point Until) {
  std::unique_lock<std::mutex> Lock(M);
  return CV.wait_until(Lock, Until, [&] {
    return Pending.load(std::memory_order_acquire) == 0;
  });
}

void Completion::done() {
  // The decrement happens under the lock, so a waiter that saw zero and then
  // took the lock knows this call no longer touches the object.
  std::lock_guard<std::mutex> Lock(M);
  if (Pending.fetch_sub(1, std::memory_order_acq_rel) == 1)
    CV.notify_all();
}

void Completion::wait(bool OtherCores) {
  // Short waits are the common case for small regions: look a few times
  // before sleeping.
  // Seeing zero, it still takes the lock below: the last done() may not
  // have released it yet.
  for (int Spin = 0; Spin < 200 && coresToSpare(); ++Spin) {
    if (Pending.load(std::memory_order_acquire) == 0)
      break;
    std::this_thread::yield();
  }
  if (OtherCores && !coresToSpare()) {
    auto Until = std::chrono::steady_clock::now() + spinTime();
    while (Pending.load(std::memory_order_acquire) != 0 &&
           std::chrono::steady_clock::now() < Until)
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
    // no better than 50. With one thread per core for short jobs and
    // queued kernels (runOnDevices, runOnDevicesAsync), where mostly those
    // threads look for jobs, 300 us gave a data region of 100 AXPYs of 1e5
    // 1.88 -> 1.81 ms, an AXPY region of 1e3 38 -> 23 us, and no change to
    // Jacobi (a thread per device) or its halo exchange.
    auto Until = std::chrono::steady_clock::now() +
                 (coresToSpare() ? std::chrono::microseconds(100) : spinTime());
    const unsigned Epoch = QuietEpoch.load(std::memory_order_acquire);
    do {
      if (Queued.load(std::memory_order_acquire))
        return true;
      if (QuietEpoch.load(std::memory_order_acquire) != Epoch)
        return false;
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

/// The proxy (named by its device) that holds each device's queued
/// asynchronous jobs, while it holds any: the device's later jobs go to the
/// same proxy, so they run after them. Devices numbered from Size on are
/// not tracked: their jobs always go to their own proxy.
class AsyncRoutes {
public:
  static constexpr int Size = 256;
  static bool tracked(int Device) { return Device >= 0 && Device < Size; }
  /// The proxy holding Device's queued jobs, or -1.
  int proxyOf(int Device) const {
    if (!tracked(Device) ||
        Routes[Device].Jobs.load(std::memory_order_acquire) == 0)
      return -1;
    return Routes[Device].Proxy.load(std::memory_order_relaxed);
  }
  /// A job of Device is queued on Proxy.
  void queued(int Device, int Proxy) {
    if (!tracked(Device))
      return;
    Routes[Device].Proxy.store(Proxy, std::memory_order_relaxed);
    Routes[Device].Jobs.fetch_add(1, std::memory_order_release);
  }
  /// One of Device's queued jobs ended.
  void finished(int Device) {
    if (tracked(Device))
      Routes[Device].Jobs.fetch_sub(1, std::memory_order_release);
  }

private:
  struct Route {
    std::atomic<int> Proxy{-1};
    std::atomic<int> Jobs{0};
  };
  Route Routes[Size];
};
AsyncRoutes Routes;

/// Runner value: the calling thread runs the job.
constexpr int CallingThread = -1;

int processCores() {
  return static_cast<int>(std::max<size_t>(1, ProcessCpus.size()));
}

/// Which thread runs the job of each position of Devices: the proxy of a
/// device (its number) or the calling thread (CallingThread, for position
/// Here, which the caller gives only when nothing is queued). A device with
/// queued asynchronous jobs goes to the proxy that holds them. When
/// Grouped, the other devices on the host's cores bound to one core (share
/// S is bound to CPU S mod the cores, coreShare) go to one thread: the
/// calling thread for Here's core, for each other core the proxy of its
/// first such device.
std::vector<int> runnersFor(const std::vector<int> &Devices,
                            const std::vector<int> &Share,
                            std::optional<unsigned> Here, bool Grouped) {
  const unsigned N = static_cast<unsigned>(Devices.size());
  const int Cores = processCores();
  constexpr int None = -2;
  std::vector<int> Leader(Grouped ? Cores : 0, None);
  if (Grouped && Here && Share[*Here] >= 0)
    Leader[Share[*Here] % Cores] = CallingThread;
  const bool Queued = asyncWorkPending();
  std::vector<int> Runner(N);
  for (unsigned I = 0; I < N; ++I) {
    const int Route = Queued ? Routes.proxyOf(Devices[I]) : -1;
    if (Here && I == *Here)
      Runner[I] = CallingThread;
    else if (Route >= 0)
      Runner[I] = Route;
    else if (Grouped && Share[I] >= 0 && AsyncRoutes::tracked(Devices[I])) {
      int &L = Leader[Share[I] % Cores];
      if (L == None)
        L = Devices[I];
      Runner[I] = L;
    } else
      Runner[I] = Devices[I];
  }
  return Runner;
}

/// The position of Devices whose core is the one the calling thread is on
/// now (the last such), if it is one of the process's: taking those
/// devices, the calling thread does not wait for a proxy on its own core.
std::optional<unsigned> onThisCore(const std::vector<int> &Share) {
  const int Cpu = sched_getcpu();
  auto It = std::find(ProcessCpus.begin(), ProcessCpus.end(), Cpu);
  if (It == ProcessCpus.end())
    return std::nullopt;
  const int Core = static_cast<int>(It - ProcessCpus.begin());
  for (unsigned I = static_cast<unsigned>(Share.size()); I-- > 0;)
    if (Share[I] >= 0 && Share[I] % processCores() == Core)
      return I;
  return std::nullopt;
}

/// The share a proxy binds to while it runs the jobs of Runner's positions:
/// that of its own device when it has a job, else that of its first job.
int bindShare(int Proxy, const std::vector<int> &Devices,
              const std::vector<int> &Runner, const std::vector<int> &Share) {
  const auto Own = std::find(Devices.begin(), Devices.end(), Proxy);
  if (Own != Devices.end() && Runner[Own - Devices.begin()] == Proxy)
    return Share[Own - Devices.begin()];
  return Share[std::find(Runner.begin(), Runner.end(), Proxy) - Runner.begin()];
}

/// shareCpus(S, Shares) for each share S of Shares, worked out once per
/// thread while Shares stays the same: wakeOrder reads it for every region.
/// Never freed: regions may run from static destructors, after the
/// thread's thread_local objects are gone.
const std::vector<std::vector<int>> &shareTable(int Shares) {
  thread_local int For = -1;
  thread_local auto *Table = new std::vector<std::vector<int>>();
  if (For != Shares) {
    Table->clear();
    for (int S = 0; S < Shares; ++S)
      Table->push_back(shareCpus(S, Shares));
    For = Shares;
  }
  return *Table;
}

/// The distinct proxies of Runner, in order of first appearance.
std::vector<int> proxiesOf(const std::vector<int> &Runner) {
  std::vector<int> Out;
  for (int R : Runner)
    if (R != CallingThread && std::find(Out.begin(), Out.end(), R) == Out.end())
      Out.push_back(R);
  return Out;
}

/// How runOnDevicesAsync spreads the jobs of one list of devices: the same
/// for each kernel of a loop, so it is worked out once.
struct AsyncPlan {
  std::vector<int> Devices;
  std::vector<int> Share;   ///< per position (cpuShares)
  std::vector<int> Runner;  ///< per position (runnersFor)
  std::vector<int> Proxies; ///< proxiesOf(Runner)
  /// Per proxy: its first position, and the position after each of its
  /// positions (Devices.size() after its last).
  std::vector<unsigned> First, Next;
  std::vector<int> Bind; ///< per proxy: bindShare
  int Shares = 0;        ///< devices on the host's cores
  int Threads = 1;
};

std::shared_ptr<const AsyncPlan>
makeAsyncPlan(const std::vector<int> &Devices) {
  auto P = std::make_shared<AsyncPlan>();
  P->Devices = Devices;
  P->Share = cpuShares(Devices, deviceTypes(), P->Shares);
  // Nothing runs on the calling thread: one thread per core when the
  // devices on the host's cores outnumber the cores.
  P->Runner =
      runnersFor(Devices, P->Share, std::nullopt,
                 P->Shares > processCores() && settings().Emulate.empty());
  P->Proxies = proxiesOf(P->Runner);
  const unsigned N = static_cast<unsigned>(Devices.size());
  P->Next.assign(N, N);
  for (int Proxy : P->Proxies) {
    unsigned Last = N;
    for (unsigned I = 0; I < N; ++I)
      if (P->Runner[I] == Proxy) {
        if (Last == N)
          P->First.push_back(I);
        else
          P->Next[Last] = I;
        Last = I;
      }
  }
  for (int Proxy : P->Proxies)
    P->Bind.push_back(bindShare(Proxy, Devices, P->Runner, P->Share));
  P->Threads = cpuThreadsPerDevice(static_cast<int>(N));
  return P;
}

/// The plan for Devices: the last one made, while it is for the same
/// devices and the jobs queued on them are where it puts them.
std::shared_ptr<const AsyncPlan> asyncPlan(const std::vector<int> &Devices) {
  thread_local std::shared_ptr<const AsyncPlan> Last;
  bool Same = Last && Last->Devices == Devices;
  for (unsigned I = 0; Same && I < Devices.size(); ++I) {
    const int Route = Routes.proxyOf(Devices[I]);
    Same = Route < 0 || Route == Last->Runner[I];
  }
  if (!Same)
    Last = makeAsyncPlan(Devices);
  return Last;
}

} // namespace

void runHostVersionSafely(const std::function<void()> &F) {
  if (omp_get_thread_num() == 0) {
    runAtProxyLevel(omp_get_max_threads(), F);
    return;
  }
  Completion Done(1);
  ProxyPool::get().run(hostDevice(), [&] {
    F();
    Done.done();
  });
  Done.wait();
}

void runOnDevices(const std::vector<int> &Devices, int HostId,
                  const std::function<void(unsigned)> &Job, WaitLabel Wait,
                  DeviceJobs Kind, double Expected) {
  if (Devices.empty())
    return;
  if (Kind != DeviceJobs::Short && asyncWorkPending()) {
    // Jobs that want a thread per device do not follow queued ones onto
    // another device's proxy: those end first.
    std::vector<int> Moved;
    for (int D : Devices)
      if (const int R = Routes.proxyOf(D); R >= 0 && R != D)
        Moved.push_back(D);
    if (!Moved.empty())
      runOnDevices(Moved, HostId, [](unsigned) {});
  }
  const unsigned N = static_cast<unsigned>(Devices.size());
  std::optional<unsigned> Here;
  for (unsigned I = 0; I < N; ++I)
    if (Devices[I] == HostId)
      Here = I;
  const bool HostHere = Here.has_value();
  // The calling thread runs a device's job only when nothing is queued
  // ahead of it on that device.
  const bool CallerMayRun = onMainThread() && omp_get_level() == 0 &&
                            AsyncPending.load(std::memory_order_acquire) == 0;
  if (!Here && (Kind != DeviceJobs::Long || coresToSpare()) && CallerMayRun)
    Here = N - 1;
  int Threads = cpuThreadsPerDevice(static_cast<int>(N));
  // (With a core for every proxy, a looking proxy takes none the kernels
  // need, and sleeping would cost the next job a wake-up.)
  if (Threads > 1 && !coresToSpare())
    QuietEpoch.fetch_add(1, std::memory_order_acq_rel);
  const DeviceEnvironment &Env = deviceTypes();
  int Shares = 0;
  const std::vector<int> Share = cpuShares(Devices, Env, Shares);
  // One thread per core when the devices on the host's cores outnumber
  // them (see the header); the calling thread takes those of its core.
  const bool Grouped = Kind == DeviceJobs::Short && Here && !HostHere &&
                       Share[*Here] >= 0 && Shares + 1 > processCores() &&
                       settings().Emulate.empty();
  if (Grouped)
    if (std::optional<unsigned> Mine = onThisCore(Share))
      Here = Mine;
  const std::vector<int> Runner = runnersFor(Devices, Share, Here, Grouped);
  const std::vector<int> Proxies = proxiesOf(Runner);
  Completion Done(static_cast<int>(Proxies.size()));
  // When each job ended; written before done(), read after wait().
  const bool Traced = Wait.What != nullptr;
  // (In place for the usual few devices: no allocation per region.)
  std::array<std::chrono::steady_clock::time_point, 8> FewEnded;
  std::vector<std::chrono::steady_clock::time_point> ManyEnded(
      Traced && N > FewEnded.size() ? N : 0);
  std::chrono::steady_clock::time_point *Ended =
      ManyEnded.empty() ? FewEnded.data() : ManyEnded.data();
  // The jobs a thread runs: those whose runner is By, in order.
  auto RunAll = [&](int By) {
    for (unsigned I = 0; I < N; ++I)
      if (Runner[I] == By) {
        Job(I);
        if (Traced)
          Ended[I] = std::chrono::steady_clock::now();
      }
  };
  std::vector<int> Binds;
  for (int P : Proxies)
    Binds.push_back(bindShare(P, Devices, Runner, Share));
  // Long jobs of bound proxies: released at the tail (TailRelease), the
  // jobs grouped by the first CPU of their share.
  std::optional<TailRelease> Tail;
  if (Kind == DeviceJobs::Long && settings().Emulate.empty()) {
    auto FirstCpu = [&](int S) {
      const std::vector<int> Cpus = shareCpus(S, Shares);
      return Cpus.empty() ? -1 : Cpus.front();
    };
    std::vector<int> Group;
    for (int B : Binds)
      Group.push_back(FirstCpu(B));
    const int CallerGroup = Here ? FirstCpu(Share[*Here]) : -1;
    const auto Bound =
        std::count_if(Group.begin(), Group.end(), [](int G) { return G >= 0; });
    if (Bound > 1 || (Bound == 1 && CallerGroup >= 0))
      Tail.emplace(std::move(Group), CallerGroup, Expected);
  }
  for (size_t K : wakeOrder(Binds, shareTable(Shares), sched_getcpu())) {
    const int P = Proxies[K], Bind = Binds[K];
    ProxyPool::get().run(P, [&, K, P, Bind] {
      if (Tail)
        Tail->started(K, Bind, Shares);
      else
        bindToShare(Bind, Shares);
      useThreadsOnProxy(Threads);
      RunAll(P);
      if (Tail)
        Tail->finished(K);
      Done.done();
    });
  }
  if (Here) {
    int Before = omp_get_max_threads();
    omp_set_num_threads(Threads);
    // Jobs that take from one queue: the calling thread works on its
    // device's CPUs, as that device's proxy would. Left where it was, it may
    // sit on the CPUs of another device's bound proxy, which then waits for
    // a time slice while other CPUs idle (measured: AUTO's dynamic loop over
    // two devices on two cores, 1.4 to 1.5 ms in the processes whose calling
    // thread was on the other device's core, 0.83 to 0.93 ms in all 8 once
    // bound). Only with one thread per device: a kernel of more would start
    // libomp workers on the bound thread, and they might keep its CPUs.
    std::optional<CallerCpus> Kept;
    if (Kind == DeviceJobs::SharedQueue && !HostHere && Threads == 1)
      if (std::vector<int> Cpus = shareCpus(Share[*Here], Shares);
          !Cpus.empty())
        Kept.emplace(Cpus);
    runAtProxyLevel(Threads, [&] { RunAll(CallingThread); });
    Kept.reset();
    omp_set_num_threads(Before);
    if (Tail)
      Tail->callerDone();
  }
  if (Tail && !Done.waitUntil(Tail->from()))
    Tail->check();
  // Short jobs end soon: sleeping would cost a wake-up (measured: 35 us of
  // a 97 us data region's start, 40 of its 86 us end after one kernel).
  Done.wait(Kind == DeviceJobs::Short);
  if (Traced) {
    // Every device waits until the last one is done, and the caller sees it.
    Event E;
    E.Kind = EventKind::Wait;
    E.What = Wait.What;
    E.Name = Wait.Where;
    E.End = std::chrono::steady_clock::now();
    for (unsigned I = 0; I < N; ++I) {
      E.Device = Devices[I];
      E.Start = Ended[I];
      publish(E);
    }
  }
  // Reports of the asynchronous work these jobs waited for.
  printDeferred();
}

void runOnDevicesAsync(const std::vector<int> &Devices,
                       std::function<void(unsigned)> Job,
                       std::function<void()> Last) {
  if (Devices.empty()) {
    Last();
    return;
  }
  // Deleted by the last job. Each proxy's job holds a plain pointer to it
  // and its first position: small enough for std::function to keep in
  // place, so queueing allocates nothing per device (measured: a resident
  // AXPY kernel on 4 devices spent a tenth of its time in malloc and free
  // before).
  struct Shared {
    std::function<void(unsigned)> Job;
    std::function<void()> Last;
    std::shared_ptr<const AsyncPlan> Plan;
    std::atomic<int> Left;
  };
  // From reading the routes to recording them: a device's jobs queued by
  // two threads at once go to one proxy.
  static std::mutex Posting;
  std::lock_guard<std::mutex> Lock(Posting);
  std::shared_ptr<const AsyncPlan> Plan = asyncPlan(Devices);
  auto *S = new Shared{std::move(Job),
                       std::move(Last),
                       Plan,
                       {static_cast<int>(Devices.size())}};
  AsyncPending.fetch_add(static_cast<int>(Devices.size()),
                         std::memory_order_acq_rel);
  for (unsigned I = 0; I < Devices.size(); ++I)
    Routes.queued(Devices[I], Plan->Runner[I]);
  for (size_t K :
       wakeOrder(Plan->Bind, shareTable(Plan->Shares), sched_getcpu())) {
    const unsigned First = Plan->First[K];
    const int Bind = Plan->Bind[K];
    ProxyPool::get().run(Plan->Proxies[K], [S, First, Bind] {
      // Everything read from S before a job is counted: the last proxy to
      // count one deletes it.
      const AsyncPlan &P = *S->Plan;
      bindToShare(Bind, P.Shares);
      useThreadsOnProxy(P.Threads);
      const unsigned N = static_cast<unsigned>(P.Devices.size());
      for (unsigned I = First; I < N;) {
        const unsigned Next = P.Next[I];
        const int Device = P.Devices[I];
        S->Job(I);
        Routes.finished(Device);
        if (S->Left.fetch_sub(1, std::memory_order_acq_rel) == 1) {
          S->Last();
          delete S;
        }
        AsyncPending.fetch_sub(1, std::memory_order_acq_rel);
        I = Next;
      }
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
    std::atexit([] {
      ProxyPool::get().shutDown();
      printDeferred();
    });
    return P;
  }();
  return *Pool;
}

const std::vector<int> &processCpus() { return ProcessCpus; }

} // namespace homp
