//===-- Environment.cpp - homp's environment variables --------------------===//

#include "homp/Environment.h"

#include <algorithm>
#include <cctype>

namespace homp {

static std::string lower(std::string S) {
  std::transform(S.begin(), S.end(), S.begin(),
                 [](unsigned char C) { return std::tolower(C); });
  return S;
}

std::optional<Settings>
readSettings(const std::function<const char *(const char *)> &GetEnv,
             std::string &Error) {
  Settings S;
  if (const char *V = GetEnv("HOMP_INFO")) {
    std::string Value = lower(V);
    if (Value == "1" || Value == "true" || Value == "on" || Value == "yes")
      S.Info = true;
    else if (Value == "0" || Value == "false" || Value == "off" ||
             Value == "no" || Value.empty())
      S.Info = false;
    else {
      Error = "HOMP_INFO='" + std::string(V) +
              "' is not valid; expected 1 (print each region's devices, "
              "ranges, bytes and times) or 0";
      return std::nullopt;
    }
  }
  if (const char *V = GetEnv("HOMP_DEVICES")) {
    S.Devices = parseDeviceFilter(V, Error);
    if (!S.Devices)
      return std::nullopt;
  }
  // OpenMP's own variable; libomptarget rejects bad values itself.
  if (const char *V = GetEnv("OMP_TARGET_OFFLOAD")) {
    std::string Value = lower(V);
    if (Value == "mandatory")
      S.Offload = OffloadPolicy::Mandatory;
    else if (Value == "disabled")
      S.Offload = OffloadPolicy::Disabled;
  }
  return S;
}

} // namespace homp
