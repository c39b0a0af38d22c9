//===-- ProxyPool.h - One host thread per device ----------------*- C++ -*-===//
//
// Each device's launches and copies are issued by its own proxy thread, so
// the devices of a region work at the same time (DESIGN.md: plain threads,
// not OpenMP workers, because of the libomp trap with host-plugin kernels).
// Where the proxies of devices on the host's CPU run, and with how many
// OpenMP threads, is CpuPlacement.h's.
//
//===----------------------------------------------------------------------===//

#ifndef HOMP_LIBOMPTARGET_PLUGIN_PROXYPOOL_H
#define HOMP_LIBOMPTARGET_PLUGIN_PROXYPOOL_H

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace homp {

/// Counts outstanding jobs of one region; the issuing thread waits on it,
/// and may destroy it as soon as wait() returns.
class Completion {
public:
  explicit Completion(int Jobs) : Pending(Jobs) {}
  void done();
  void wait(bool OtherCores = false);
  /// Waits at most until Until; whether the jobs are done.
  bool waitUntil(std::chrono::steady_clock::time_point Until);

private:
  std::atomic<int> Pending; ///< written only with M held

  std::mutex M;
  std::condition_variable CV;
};

class ProxyPool {
public:
  ~ProxyPool();

  /// Runs Job on the proxy thread of Device, after the jobs queued before it;
  /// once the pool is shut down, on the calling thread.
  void run(int Device, std::function<void()> Job);

  /// Lets every proxy finish its queued jobs and leave its parallel region;
  /// its thread then sleeps to the end of the process. Runs at exit, before
  /// libomp shuts down: a proxy still inside its parallel region then would
  /// leave the workers of its kernels' teams to touch freed runtime state (a
  /// crash at exit, about one run in 300), and a proxy thread ending then
  /// can hang in libomp's thread clean-up.
  void shutDown();

  static ProxyPool &get();

private:
  struct Proxy;
  Proxy *proxy(int Device);

  std::mutex M;
  std::vector<std::unique_ptr<Proxy>> Proxies;
  bool Down = false; ///< guarded by M
};

/// What runOnDevices may assume of its jobs.
enum class DeviceJobs {
  /// Expected to be short (a small region, a data region's copies).
  Short,
  /// Expected to be long.
  Long,
  /// They take their work from one shared queue: each device needs a
  /// thread of its own while it runs.
  SharedQueue,
};

/// What a collective wait is for: What ("wait for the region's end")
/// before Where (the construct's location); no wait events without What.
struct WaitLabel {
  const char *What = nullptr;
  const std::string *Where = nullptr;
};

/// Runs Job(I) for every position I of Devices: on each offload device's
/// proxy, and on the calling thread for the host (the initial device
/// HostId) or, when the calling thread may launch kernels itself (the
/// program's main thread outside parallel regions, nothing queued on the
/// devices), for one device. Returns when every job is done. Devices on the
/// host's CPU share its cores: each job runs its OpenMP teams with its share
/// of them, on a proxy bound to that share (HOMP_BIND, CoreShares.h).
/// With a Wait label, each device's wait from the end of its job to the end
/// of the last one is published (a Wait event: HOMP_TRACE shows it).
///
/// Shared-queue jobs with one thread per device: the calling thread, when it
/// runs a device's job, is bound to that device's CPUs for it (and given back
/// its own after), as the device's proxy would be.
///
/// Short jobs: without a core for every proxy and the calling thread, the
/// calling thread runs a device's job only then: it saves a hand-off (5 to
/// 7 us, measured on a small AXPY), but a long job there leaves a core idle
/// while a proxy waits for the calling thread's core (measured: Jacobi
/// 2050 x 1026 on 4 devices and 2 cores, 690 against 660 ms). And when the
/// devices on the host's cores outnumber them, one thread per core runs the
/// jobs of the devices bound to that core, one after the other (the calling
/// thread those of the core it is on): no more threads wake than there are
/// cores to run them (measured with 4 devices on 2 cores: an AXPY region of
/// 1e5 elements 129 against 57 us, a data region of two such vectors
/// without kernels 98 against 44 us, Jacobi at 514 rows 135 against 132
/// ms). Not with HOMP_EMULATE, whose holds keep a device's thread. The
/// calling thread waits for short jobs looking, not asleep, for up to 300
/// us: waking it costs 20 to 40 us on a virtual machine.
///
/// Long jobs of proxies bound to the host's cores: from Expected (seconds
/// the jobs are expected to take) of 10 ms or more, or from 10 ms into the
/// run, once every job bound to some CPUs (the calling thread's among
/// them) is done while others still run, those may run on every CPU of the
/// process until their next job (TailRelease in ProxyPool.cpp).
///
/// A device with jobs still queued by runOnDevicesAsync has its job run
/// after them: a short job by the proxy that holds them; a long or shared
/// queue's job waits for them, then runs on the device's own proxy.
void runOnDevices(const std::vector<int> &Devices, int HostId,
                  const std::function<void(unsigned)> &Job, WaitLabel Wait = {},
                  DeviceJobs Kind = DeviceJobs::Short, double Expected = 0);

/// Queues Job(I) for every position I of Devices (offload devices only) on
/// the devices' proxies and returns at once; after the last job, Last runs
/// on the proxy that finished it. Jobs queued on a device later, by any
/// construct, run after these. When the devices on the host's cores
/// outnumber them, one proxy per core runs the jobs of the devices bound to
/// that core, as runOnDevices does with short jobs, and a device's later
/// jobs go to the same proxy while these are queued (measured with 4
/// devices on 2 cores, with the waits above: a data region of two vectors
/// of 1e5 and 100 AXPY kernels 1.88 against 1.71 ms, 1 kernel 200 against
/// 86 us).
void runOnDevicesAsync(const std::vector<int> &Devices,
                       std::function<void(unsigned)> Job,
                       std::function<void()> Last);

/// Whether jobs runOnDevicesAsync queued are still queued or running.
bool asyncWorkPending();

/// Before a standard construct (or copy) on device Id, or libhomp's own
/// call into libomptarget for it: homp's kernels queued on it that the
/// program did not wait for (asynchronous kernels) end first, as OpenMP
/// orders a construct after the ones before it.
void waitForQueued(int64_t Id);

/// The tasks the calling task created end first, as at '#pragma omp
/// taskwait': the 'nowait' target tasks before a collective halo update.
void waitForChildTasks();

/// Runs F, a region's host version, where libomp lets it fork teams: on the
/// calling thread when it is the first of its team, else (a task run by
/// another thread of the program's parallel region, where libomp 19 stops
/// the program: "Assertion failure at kmp_csupport.cpp(3588)") on a proxy
/// of its own, waiting for it.
void runHostVersionSafely(const std::function<void()> &F);

/// The CPUs the proxy of Devices[Position] is bound to while it works for a
/// construct over Devices (HOMP_BIND, CoreShares.h); empty when it is not
/// bound (binding is off, the device is a GPU or the host, or the process
/// has one CPU).
std::vector<int> proxyCpus(const std::vector<int> &Devices, unsigned Position);

/// The CPUs the process may run on, read when libhomp was loaded, before
/// any thread was bound (sched_getaffinity in a bound thread says less).
const std::vector<int> &processCpus();

} // namespace homp

#endif // HOMP_LIBOMPTARGET_PLUGIN_PROXYPOOL_H
