//===-- Environment.cpp - homp's environment variables --------------------===//

#include "homp/Environment.h"

#include <algorithm>
#include <cctype>
#include <cstdio>

namespace homp {

static std::string lower(std::string S) {
  std::transform(S.begin(), S.end(), S.begin(),
                 [](unsigned char C) { return std::tolower(C); });
  return S;
}

std::optional<std::vector<FaultSpec>> parseFaults(const std::string &Text,
                                                  std::string &Error) {
  std::vector<FaultSpec> Out;
  auto Bad = [&](const std::string &Item) {
    Error = "HOMP_FAULT='" + Text + "' is not valid: '" + Item +
            "' is not 'device:alloc', 'device:copy' or 'device:launch', "
            "optionally followed by ':after=N'";
    return std::nullopt;
  };
  size_t Start = 0;
  while (Start <= Text.size()) {
    size_t Comma = Text.find(',', Start);
    std::string Item = Text.substr(Start, Comma - Start);
    FaultSpec F;
    char Op[16] = {};
    long long Dev = -1, After = 0;
    int Used = 0;
    int N = std::sscanf(Item.c_str(), "%lld:%15[a-z]%n", &Dev, Op, &Used);
    if (N != 2 || Dev < 0)
      return Bad(Item);
    std::string Rest = Item.substr(static_cast<size_t>(Used));
    if (!Rest.empty()) {
      int Used2 = 0;
      if (std::sscanf(Rest.c_str(), ":after=%lld%n", &After, &Used2) != 1 ||
          static_cast<size_t>(Used2) != Rest.size() || After < 0)
        return Bad(Item);
    }
    std::string O = Op;
    if (O == "alloc")
      F.Op = FaultSpec::Alloc;
    else if (O == "copy")
      F.Op = FaultSpec::Copy;
    else if (O == "launch")
      F.Op = FaultSpec::Launch;
    else
      return Bad(Item);
    F.Device = static_cast<int>(Dev);
    F.After = After;
    Out.push_back(F);
    if (Comma == std::string::npos)
      break;
    Start = Comma + 1;
  }
  return Out;
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
  if (const char *V = GetEnv("HOMP_FAULT")) {
    std::optional<std::vector<FaultSpec>> F = parseFaults(V, Error);
    if (!F)
      return std::nullopt;
    S.Faults = std::move(*F);
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
