//===-- CpuPlacement.h - Where proxies and kernels run on the host -*- C++
//-*-===//
//
// The placement side of the devices' proxies (ProxyPool.cpp): devices on
// the host's CPU get equal shares of its cores (CoreShares.h) and their
// proxies are bound there (HOMP_BIND); long runs release the proxies still
// running once some cores are idle (TailRelease); a device's kernels get
// its share of OpenMP threads, one level deep in OpenMP's nesting. The
// proxies themselves (in-order queues of jobs) know nothing of this.
//
//===----------------------------------------------------------------------===//

#ifndef HOMP_LIBOMPTARGET_PLUGIN_CPUPLACEMENT_H
#define HOMP_LIBOMPTARGET_PLUGIN_CPUPLACEMENT_H

#include <algorithm>
#include <atomic>
#include <chrono>
#include <functional>
#include <map>
#include <mutex>
#include <vector>

#include <pthread.h>
#include <sched.h>

namespace homp {
namespace placement {

/// The process's CPUs, read when libhomp is loaded (on the program's
/// thread, before any proxy is bound).
extern const std::vector<int> ProcessCpus;

/// The CPUs of the Share-th of Shares shares of the process's CPUs
/// (CoreShares.h); empty when proxies are not bound: the device is not on
/// the host's cores (Share < 0), the process has one CPU, or HOMP_BIND says
/// not to.
std::vector<int> shareCpus(int Share, int Shares);

/// Lets Thread run on Cpus only (not empty). The system may refuse.
void setCpus(pthread_t Thread, const std::vector<int> &Cpus);

/// Binds the calling thread to Cpus while it lives, then gives it back the
/// CPUs it had (the program's own binding, if any).
class CallerCpus {
public:
  explicit CallerCpus(const std::vector<int> &Cpus) {
    Saved = pthread_getaffinity_np(pthread_self(), sizeof Before, &Before) == 0;
    if (Saved)
      setCpus(pthread_self(), Cpus);
  }
  ~CallerCpus() {
    if (Saved)
      pthread_setaffinity_np(pthread_self(), sizeof Before, &Before);
  }
  CallerCpus(const CallerCpus &) = delete;
  CallerCpus &operator=(const CallerCpus &) = delete;

private:
  cpu_set_t Before;
  bool Saved = false;
};

/// Counts the releases of bound proxies (TailRelease): a proxy binds itself
/// again at its next job after one.
extern std::atomic<unsigned> Releases;

/// On a proxy: binds its thread to shareCpus(Share, Shares), unless it is
/// bound there already or that is empty. The kernels' OpenMP workers are
/// libomp's to place. A binding the system refuses leaves the thread where
/// it was.
void bindToShare(int Share, int Shares);

/// On a proxy: lets its thread run on every CPU of the process; its next
/// bindToShare binds it again.
void unbindSelf();

/// The proxies of one long run bound to shares of the host's cores: once
/// the jobs bound to some CPUs are all done while others still run, the
/// threads still running may run on every CPU of the process, so the idle
/// CPUs take a part of their work. Bound devices of equal work do not end
/// together: their copies of the same array sit differently in the caches
/// (measured: a matmul of 1024 on 4 devices and 2 cores, two devices on one
/// core took 4.0 s, the other core's 2.4 and 1.4 s). Only in runs expected
/// to take 10 ms or more, or from 10 ms into a run: the threads move back
/// at their next job, and in a loop of kernels of a few ms that cost more
/// than it gained (Jacobi 2050 x 1026 on 4 devices and 2 cores, 510 against
/// 522 ms). Only the proxies' threads are let go: a device's other OpenMP
/// threads (when the devices are fewer than the CPUs) stay where libomp put
/// them.
class TailRelease {
public:
  /// Group[K]: the first CPU of the share proxy K is bound to, -1 when not
  /// bound; CallerGroup: that of the device whose jobs the calling thread
  /// runs, -1 when it runs none or not a bound device's. Expected: how long
  /// the run is expected to take.
  TailRelease(std::vector<int> Group, int CallerGroup, double Expected)
      : Group(std::move(Group)), CallerGroup(CallerGroup),
        Thread(this->Group.size()), State(this->Group.size(), Waiting),
        From(std::chrono::steady_clock::now() +
             (Expected >= 0.01 ? std::chrono::milliseconds(0)
                               : std::chrono::milliseconds(10))) {
    for (int G : this->Group)
      if (G >= 0)
        ++Left[G];
    if (CallerGroup >= 0)
      ++Left[CallerGroup];
  }
  /// When the jobs still running may be released.
  std::chrono::steady_clock::time_point from() const { return From; }
  /// On proxy K as its job starts: binds it to Share of Shares, or to every
  /// CPU once the others are released. Under the lock, so that a release
  /// comes before or after it, never in between.
  void started(size_t K, int Share, int Shares) {
    std::lock_guard<std::mutex> Lock(M);
    Thread[K] = pthread_self();
    State[K] = Running;
    if (Released)
      unbindSelf();
    else
      bindToShare(Share, Shares);
  }
  /// On proxy K as its job ends.
  void finished(size_t K) {
    std::lock_guard<std::mutex> Lock(M);
    State[K] = Done;
    if (Group[K] >= 0)
      --Left[Group[K]];
    releaseIfIdle();
  }
  /// On the calling thread when its own jobs end.
  void callerDone() {
    std::lock_guard<std::mutex> Lock(M);
    if (CallerGroup >= 0)
      --Left[CallerGroup];
    releaseIfIdle();
  }
  /// On the calling thread from from() on: the CPUs done before then.
  void check() {
    std::lock_guard<std::mutex> Lock(M);
    releaseIfIdle();
  }

private:
  enum Step { Waiting, Running, Done };

  /// With M held: releases the jobs not done once some CPUs have none.
  void releaseIfIdle() {
    if (Released || std::chrono::steady_clock::now() < from() ||
        std::none_of(Left.begin(), Left.end(),
                     [](const auto &G) { return G.second == 0; }))
      return;
    Released = std::find(State.begin(), State.end(), Waiting) != State.end();
    for (size_t J = 0; J < State.size(); ++J)
      if (State[J] == Running) {
        Released = true;
        setCpus(Thread[J], ProcessCpus);
      }
    if (Released)
      Releases.fetch_add(1, std::memory_order_release);
  }

  std::mutex M;
  std::vector<int> Group;
  const int CallerGroup;
  std::vector<pthread_t> Thread;
  std::vector<Step> State;
  std::map<int, int> Left; ///< per group, the jobs not done
  const std::chrono::steady_clock::time_point From;
  bool Released = false;
};

/// The OpenMP threads each of Devices devices uses when it runs on the
/// host's cores: an equal share of the processors, at most what the program
/// would use by default (OMP_NUM_THREADS).
int cpuThreadsPerDevice(int Devices);

/// On a proxy (inside its parallel region): the kernels' regions get Threads
/// threads, nested regions being allowed only when there is more than one.
void useThreadsOnProxy(int Threads);

/// Runs F as a proxy runs its jobs, one level deep in OpenMP's nesting:
/// kernels of CPU offload devices, and regions' host versions, fork teams,
/// and libomp 19 keeps a worker's record of the teams it last served.
/// Forked at the outermost level by the program's thread after a proxy's
/// had been, such a worker took the inner parallel region's reduction for
/// a teams reduction and stopped the program ("Assertion failure at
/// kmp_csupport.cpp(3588)"; found by the differential tester).
void runAtProxyLevel(int Threads, const std::function<void()> &F);

} // namespace placement
} // namespace homp

#endif // HOMP_LIBOMPTARGET_PLUGIN_CPUPLACEMENT_H
