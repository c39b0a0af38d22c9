//===-- homp/Info.h - The HOMP_INFO report ----------------------*- C++ -*-===//
//
// Under HOMP_INFO=1 libhomp prints, after each distributed construct, a
// table of what each device did: the indices it ran, its launches, the
// bytes it moved in and out, and its time.
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
  int64_t Launches = 0;
  int64_t BytesIn = 0, BytesOut = 0;
  double Seconds = 0;
};

/// The indices of a device's iterations: per loop of the nest, its index
/// set, or for a set of many ranges its hull and their number.
std::string describeWork(const LoopNest &Nest, const ProductSet &Iterations);

/// The report: Title, then with Load the load imbalance (slowest / mean
/// device time), then one row per device.
std::string formatReport(const std::string &Title, double TotalSeconds,
                         bool Load, const std::vector<DeviceReport> &Devices);

} // namespace homp

#endif // HOMP_INFO_H
