//===-- DeviceSelection.cpp - Resolving a device list ---------------------===//

#include "homp/DeviceSelection.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>

namespace homp {

using abi::DeviceSpec;

unsigned DeviceEnvironment::typeOf(int Id) const {
  if (Id == InitialDevice)
    return abi::TypeHost;
  if (Id >= 0 && Id < static_cast<int>(Types.size()))
    return Types[Id];
  return abi::TypeCPU;
}

bool DeviceFilter::admits(int Id, const DeviceEnvironment &Env) const {
  return std::find(Ids.begin(), Ids.end(), Id) != Ids.end() ||
         (Types & Env.typeOf(Id)) != 0;
}

const char *deviceTypeName(unsigned Type) {
  switch (Type) {
  case abi::TypeNVGPU:
    return "NVGPU";
  case abi::TypeAMDGPU:
    return "AMDGPU";
  case abi::TypeCPU:
    return "CPU";
  case abi::TypeHost:
    return "HOST";
  }
  return "?";
}

static std::string upper(std::string S) {
  std::transform(S.begin(), S.end(), S.begin(),
                 [](unsigned char C) { return std::toupper(C); });
  return S;
}

static std::string trim(const std::string &S) {
  size_t B = S.find_first_not_of(" \t"), E = S.find_last_not_of(" \t");
  return B == std::string::npos ? "" : S.substr(B, E - B + 1);
}

std::optional<DeviceFilter> parseDeviceFilter(const std::string &Text,
                                              std::string &Error) {
  DeviceFilter F;
  size_t Start = 0;
  while (true) {
    size_t Comma = Text.find(',', Start);
    std::string Item = trim(Text.substr(Start, Comma - Start));
    std::string U = upper(Item);
    if (U.rfind("HOMP_DEVICE_", 0) == 0)
      U = U.substr(12);
    else if (U.rfind("OMP_DEVICE_", 0) == 0)
      U = U.substr(11);
    char *End = nullptr;
    long Id = Item.empty() ? -1 : std::strtol(Item.c_str(), &End, 10);
    if (!Item.empty() && *End == '\0' && Id >= 0)
      F.Ids.push_back(static_cast<int>(Id));
    else if (U == "NVGPU")
      F.Types |= abi::TypeNVGPU;
    else if (U == "AMDGPU")
      F.Types |= abi::TypeAMDGPU;
    else if (U == "GPU")
      F.Types |= abi::TypeGPU;
    else if (U == "CPU")
      F.Types |= abi::TypeCPU;
    else if (U == "HOST")
      F.Types |= abi::TypeHost;
    else if (U == "ALL" || U == "*")
      F.Types |= abi::TypeNVGPU | abi::TypeAMDGPU | abi::TypeCPU;
    else {
      Error = "HOMP_DEVICES='" + Text + "' is not valid: '" + Item +
              "' is neither a device id, 'host' nor a device type; expected "
              "a comma-separated list such as '0,2', 'NVGPU,CPU' or "
              "'1,host'";
      return std::nullopt;
    }
    if (Comma == std::string::npos)
      break;
    Start = Comma + 1;
  }
  return F;
}

std::vector<int> resolveDevices(const std::vector<DeviceSpec> &Specs,
                                const std::vector<int64_t> &Values,
                                const DeviceEnvironment &Env,
                                const DeviceFilter *Filter) {
  std::vector<int> Ids;
  auto Add = [&](int64_t Id, unsigned Types) {
    bool Exists = (Id >= 0 && Id < Env.NumDevices) || Id == Env.InitialDevice;
    if (!Exists)
      return;
    int I = static_cast<int>(Id);
    if (Types && !(Types & Env.typeOf(I)))
      return;
    if (Filter && !Filter->admits(I, Env))
      return;
    if (std::find(Ids.begin(), Ids.end(), I) == Ids.end())
      Ids.push_back(I);
  };
  // A wildcard reaches the host only through an explicit HOST filter.
  auto AddFrom = [&](int64_t First, int64_t End, unsigned Types) {
    for (int64_t D = std::max<int64_t>(First, 0); D < End; ++D)
      Add(D, Types);
    if (Types & abi::TypeHost)
      Add(Env.InitialDevice, Types);
  };
  size_t V = 0;
  for (const DeviceSpec &S : Specs) {
    switch (S.Kind) {
    case DeviceSpec::Default:
      Add(Env.DefaultDevice, S.Types);
      break;
    case DeviceSpec::All:
      AddFrom(0, Env.NumDevices, S.Types);
      break;
    case DeviceSpec::Host:
      Add(Env.InitialDevice, 0);
      break;
    case DeviceSpec::One:
      Add(Values[V], S.Types);
      ++V;
      break;
    case DeviceSpec::From:
      AddFrom(Values[V], Env.NumDevices, S.Types);
      ++V;
      break;
    case DeviceSpec::Range: {
      // id:count counts offload devices only; it never reaches the host.
      int64_t First = std::max<int64_t>(Values[V], 0), Count = Values[V + 1];
      unsigned Types = S.Types & ~abi::TypeHost;
      if (S.Types && !Types) {
        // Only the host's type: no offload device qualifies.
      } else if (S.TypedCount && Types) {
        for (int64_t D = First; D < Env.NumDevices && Count > 0; ++D)
          if (Types & Env.typeOf(static_cast<int>(D))) {
            Add(D, Types);
            --Count;
          }
      } else {
        // The ids Values[V] .. Values[V] + Count - 1; those below 0 do not
        // exist.
        int64_t End = Count > 0 && Values[V] < Env.NumDevices
                          ? Values[V] + std::min<int64_t>(Count, Env.NumDevices)
                          : 0;
        AddFrom(First, std::min<int64_t>(End, Env.NumDevices), Types);
      }
      V += 2;
      break;
    }
    }
  }
  return Ids;
}

} // namespace homp
