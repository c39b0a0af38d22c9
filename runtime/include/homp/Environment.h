//===-- homp/Environment.h - homp's environment variables -------*- C++ -*-===//
//
// The run-time settings of SPEC.md section 7. Invalid values are errors that
// name the variable and the accepted forms.
//
//===----------------------------------------------------------------------===//

#ifndef HOMP_ENVIRONMENT_H
#define HOMP_ENVIRONMENT_H

#include "homp/DeviceSelection.h"

#include <functional>
#include <optional>
#include <string>

namespace homp {

enum class OffloadPolicy { Default, Mandatory, Disabled };

struct Settings {
  bool Info = false;                              ///< HOMP_INFO
  OffloadPolicy Offload = OffloadPolicy::Default; ///< OMP_TARGET_OFFLOAD
  std::optional<DeviceFilter> Devices;            ///< HOMP_DEVICES
};

/// Reads the settings through GetEnv (getenv in libhomp, a map in tests).
/// Returns std::nullopt with a message in Error for an invalid value.
std::optional<Settings>
readSettings(const std::function<const char *(const char *)> &GetEnv,
             std::string &Error);

} // namespace homp

#endif // HOMP_ENVIRONMENT_H
