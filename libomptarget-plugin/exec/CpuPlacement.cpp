//===-- CpuPlacement.cpp - Where proxies and kernels run on the host ------===//

#include "CpuPlacement.h"

#include "Devices.h"

#include "homp/CoreShares.h"

#include <omp.h>

#include <cerrno>
#include <tuple>

namespace homp {
namespace placement {

namespace {

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
} // namespace

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

/// Lets Thread run on Cpus only (not empty). The system may refuse.
void setCpus(pthread_t Thread, const std::vector<int> &Cpus) {
  const int Size = *std::max_element(Cpus.begin(), Cpus.end()) + 1;
  cpu_set_t *Set = CPU_ALLOC(Size);
  const size_t Bytes = CPU_ALLOC_SIZE(Size);
  CPU_ZERO_S(Bytes, Set);
  for (int C : Cpus)
    CPU_SET_S(C, Bytes, Set);
  pthread_setaffinity_np(Thread, Bytes, Set);
  CPU_FREE(Set);
}

/// Counts the releases of bound proxies (TailRelease): a proxy binds itself
/// again at its next job after one.
std::atomic<unsigned> Releases{0};

/// On a proxy: binds its thread to shareCpus(Share, Shares), unless it is
/// bound there already or that is empty. The kernels' OpenMP workers are
/// libomp's to place. A binding the system refuses leaves the thread where
/// it was.
thread_local std::tuple<int, int, unsigned> Bound{-1, 0, 0};
void bindToShare(int Share, int Shares) {
  const std::tuple<int, int, unsigned> Wanted{
      Share, Shares, Releases.load(std::memory_order_acquire)};
  if (Bound == Wanted)
    return;
  std::vector<int> Cpus = shareCpus(Share, Shares);
  if (Cpus.empty())
    return;
  Bound = Wanted;
  setCpus(pthread_self(), Cpus);
}

/// On a proxy: lets its thread run on every CPU of the process; its next
/// bindToShare binds it again.
void unbindSelf() {
  Bound = {-1, 0, 0};
  setCpus(pthread_self(), ProcessCpus);
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

/// Runs F as a proxy runs its jobs, one level deep in OpenMP's nesting:
/// kernels of CPU offload devices, and regions' host versions, fork teams,
/// and libomp 19 keeps a worker's record of the teams it last served.
/// Forked at the outermost level by the program's thread after a proxy's
/// had been, such a worker took the inner parallel region's reduction for
/// a teams reduction and stopped the program ("Assertion failure at
/// kmp_csupport.cpp(3588)"; found by the differential tester).
void runAtProxyLevel(int Threads, const std::function<void()> &F) {
  if (omp_get_level() != 0) {
    F();
    return;
  }
#pragma omp parallel num_threads(1)
  {
    useThreadsOnProxy(Threads);
    F();
  }
}

} // namespace placement
} // namespace homp
