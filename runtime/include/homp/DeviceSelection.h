//===-- homp/DeviceSelection.h - Resolving a device list --------*- C++ -*-===//
//
// A construct's device list (SPEC.md section 1) is resolved at run time
// against the devices that exist: ids that do not exist and devices of
// other types than a filter asks for are dropped, duplicates are dropped,
// order is kept, and HOMP_DEVICES may narrow the result. The host is the
// initial device; it takes part only when named.
//
//===----------------------------------------------------------------------===//

#ifndef HOMP_DEVICESELECTION_H
#define HOMP_DEVICESELECTION_H

#include "homp/Abi.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace homp {

struct DeviceEnvironment {
  int NumDevices = 0;    ///< offload devices 0 .. NumDevices-1
  int InitialDevice = 0; ///< the host's id (omp_get_initial_device())
  int DefaultDevice = 0; ///< omp_get_default_device()
  /// Per offload device, its abi::DeviceType (one bit).
  std::vector<unsigned> Types;

  unsigned typeOf(int Id) const;
};

/// HOMP_DEVICES: the devices a program may use.
struct DeviceFilter {
  std::vector<int> Ids;
  unsigned Types = 0; ///< abi::DeviceType bits; TypeHost admits the host
  bool admits(int Id, const DeviceEnvironment &Env) const;
};

/// Parses HOMP_DEVICES ('0,2', 'NVGPU,CPU', 'host', mixed; types also as
/// HOMP_DEVICE_X or OMP_DEVICE_X, any case). std::nullopt with a message
/// in Error when Text is not valid.
std::optional<DeviceFilter> parseDeviceFilter(const std::string &Text,
                                              std::string &Error);

/// The name of a device type bit ("NVGPU", "CPU", ...).
const char *deviceTypeName(unsigned Type);

/// Resolves Specs, whose run-time values are Values (consumed in order, as
/// abi::valueLayout lists them), keeping only devices Filter admits (if
/// any). Returns the device ids; the host appears as Env.InitialDevice.
std::vector<int> resolveDevices(const std::vector<abi::DeviceSpec> &Specs,
                                const std::vector<int64_t> &Values,
                                const DeviceEnvironment &Env,
                                const DeviceFilter *Filter = nullptr);

} // namespace homp

#endif // HOMP_DEVICESELECTION_H
