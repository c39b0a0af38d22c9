//===-- homp/CoreShares.h - Devices on the host's cores ---------*- C++ -*-===//
//
// CPU offload devices and the host run on the host's cores. Each device's
// proxy thread is bound to a share of them (HOMP_BIND), so the devices of
// a region do not take turns on one core while another is idle, and a
// device's data stays in the caches of the core that works on it.
// Measured with 4 CPU offload devices on 2 cores (medians of 3 to 5
// alternating runs): PMAM'15's Jacobi at 2050 x 1026 640 -> 576 ms (the
// cores busy 1.77 -> 1.91 of 2, 204 -> 10 thread migrations), an AXPY
// region of 1e5 elements 185 -> 141 us, of 1e7 23.7 -> 21.4 ms.
//
//===----------------------------------------------------------------------===//

#ifndef HOMP_CORESHARES_H
#define HOMP_CORESHARES_H

#include "homp/DeviceSelection.h"

#include <vector>

namespace homp {

/// The CPUs of Cpus (the process's, in order) in the Share-th of Shares
/// equal shares: Cpus.size() / Shares consecutive ones (at least one),
/// wrapping around when there are more shares than CPUs.
std::vector<int> coreShare(int Share, int Shares, const std::vector<int> &Cpus);

/// Whether Device runs on the host's cores: a CPU offload device or the
/// host (Env.typeOf).
bool onHostCores(int Device, const DeviceEnvironment &Env);

/// How many of Devices run on the host's cores: the number of shares.
int hostCoreDevices(const std::vector<int> &Devices,
                    const DeviceEnvironment &Env);

/// For each position of Devices, the share of the host's cores it runs on:
/// its position among the devices that run there (CPU offload devices and
/// the host, Env.typeOf), or -1 for a GPU. Shares is set to their number.
std::vector<int> cpuShares(const std::vector<int> &Devices,
                           const DeviceEnvironment &Env, int &Shares);

/// The order in which a thread running on CPU Cpu hands jobs to proxies
/// bound to the shares Binds (-1: not bound), share S being on the CPUs
/// ShareCpus[S]: the others first, in their order, then those bound to
/// Cpu. A proxy woken on the handing thread's
/// CPU may take it at once, and the proxies not yet handed their jobs would
/// wait for its whole job while other CPUs idle (perf sched, matvec of 1536
/// over 4 devices on 2 cores with a fixed split: in about a third of the
/// processes the program's thread sat on a proxy's CPU, and their regions
/// took 2.2 to 2.4 ms against 1.6).
std::vector<size_t> wakeOrder(const std::vector<int> &Binds,
                              const std::vector<std::vector<int>> &ShareCpus,
                              int Cpu);

} // namespace homp

#endif // HOMP_CORESHARES_H
