//===-- homp/Info.h - The HOMP_INFO report ----------------------*- C++ -*-===//
//
// Under HOMP_INFO=1 libhomp prints, after each distributed construct, a
// table of what each device did: the indices it ran, its launches, the
// bytes it moved in and out, and its time. The host's rerun of a failed
// device's part is the host's row, not the failed device's.
//
//===----------------------------------------------------------------------===//

#ifndef HOMP_INFO_H
#define HOMP_INFO_H

#include "homp/IndexSet.h"
#include "homp/LoopSpace.h"

#include <cstdint>
#include <string>
#include <vector>

namespace homp {

/// What one device did in one execution of a construct.
struct DeviceReport {
  int Device = 0;      ///< its id
  bool IsHost = false; ///< the initial device, running in place
  std::string Type;    ///< "CPU", "NVGPU", ...
  std::string Work;    ///< kernels: the indices it ran (describeWork)
  /// Kernels: how its time counts in the imbalance, which compares the
  /// devices' shares of the work. Left out: a device that took no chunk of
  /// a scheduled loop (NoChunk: the title counts these); one that the
  /// schedule cut off after its sample (a device cut off before the loop
  /// starts has no row), that failed before it ran any iteration, or that
  /// only ran failed devices' parts again (the host) (LeftOut).
  enum ShareKind { Counted, NoChunk, LeftOut } Share = Counted;
  /// Kernels: of Seconds, the host's time running failed devices' parts
  /// again, after the others: left out of the imbalance.
  double RerunSeconds = 0;
  /// Kernels: it failed, and the host ran the part that failed.
  bool Failed = false;
  int64_t Launches = 0;
  int64_t BytesIn = 0, BytesOut = 0;
  double Seconds = 0;
};

/// The indices of a device's iterations: per loop of the nest, its index
/// set, or for a set of many ranges its hull and their number.
std::string describeWork(const LoopNest &Nest, const ProductSet &Iterations);

/// The indices of several parts one device ran: parts that differ in one
/// loop only are described as one, the others joined by " + ".
std::string describeWork(const LoopNest &Nest,
                         const std::vector<ProductSet> &Parts);

/// The report: Title, then with Load the load imbalance (slowest / mean
/// time of the devices' shares: DeviceReport::Share) and how many devices
/// took no chunk, then one row per device.
std::string formatReport(const std::string &Title, double TotalSeconds,
                         bool Load, const std::vector<DeviceReport> &Devices);

} // namespace homp

#endif // HOMP_INFO_H
