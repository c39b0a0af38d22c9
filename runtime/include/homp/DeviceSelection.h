//===-- homp/DeviceSelection.h - Resolving a device list --------*- C++ -*-===//
//
// A region's device list (SPEC.md section 1) is resolved at run time against
// the devices that exist: duplicates are dropped, ids that do not exist are
// dropped, order is kept. The host is the initial device; it takes part only
// when named.
//
//===----------------------------------------------------------------------===//

#ifndef HOMP_DEVICESELECTION_H
#define HOMP_DEVICESELECTION_H

#include "homp/RegionDescriptor.h"

#include <cstdint>
#include <vector>

namespace homp {

struct DeviceEnvironment {
  int NumDevices = 0;    ///< offload devices 0 .. NumDevices-1
  int InitialDevice = 0; ///< the host's id (omp_get_initial_device())
  int DefaultDevice = 0; ///< omp_get_default_device()
};

/// Resolves Specs, whose run-time values are Values (consumed in order, as
/// RegionDescriptor.h lists them). Returns the device ids; the host appears as
/// Env.InitialDevice.
std::vector<int> resolveDevices(const std::vector<DeviceSpecKind> &Specs,
                                const std::vector<int64_t> &Values,
                                const DeviceEnvironment &Env);

/// How many run-time values a device specifier takes.
unsigned deviceSpecValues(DeviceSpecKind Kind);

} // namespace homp

#endif // HOMP_DEVICESELECTION_H
