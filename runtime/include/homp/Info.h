//===-- homp/Info.h - The HOMP_INFO report of a region ----------*- C++ -*-===//

#ifndef HOMP_INFO_H
#define HOMP_INFO_H

#include "homp/Partition.h"

#include <cstdint>
#include <string>
#include <vector>

namespace homp {

/// What one device did in one execution of a region.
struct DeviceReport {
  int Device = 0;         ///< its id
  bool IsHost = false;    ///< the initial device, running in place
  Range Iterations;       ///< iterations k it ran
  int64_t FirstIndex = 0; ///< index of its first and last iteration
  int64_t LastIndex = 0;
  int64_t BytesIn = 0, BytesOut = 0;
  double Seconds = 0;
};

/// The HOMP_INFO table: source location, devices, each device's iterations,
/// bytes moved, time, and the load imbalance (slowest / mean time).
std::string formatRegionReport(const std::string &Location, int64_t TripCount,
                               double TotalSeconds,
                               const std::vector<DeviceReport> &Devices);

} // namespace homp

#endif // HOMP_INFO_H
