//===-- DeviceSelection.cpp - Resolving a device list ---------------------===//

#include "homp/DeviceSelection.h"

#include <algorithm>

namespace homp {

unsigned deviceSpecValues(DeviceSpecKind Kind) {
  switch (Kind) {
  case DeviceSpecKind::One:
  case DeviceSpecKind::From:
    return 1;
  case DeviceSpecKind::Range:
    return 2;
  default:
    return 0;
  }
}

std::vector<int> resolveDevices(const std::vector<DeviceSpecKind> &Specs,
                                const std::vector<int64_t> &Values,
                                const DeviceEnvironment &Env) {
  std::vector<int> Ids;
  auto Add = [&](int64_t Id) {
    bool Exists = (Id >= 0 && Id < Env.NumDevices) || Id == Env.InitialDevice;
    if (Exists && std::find(Ids.begin(), Ids.end(), Id) == Ids.end())
      Ids.push_back(static_cast<int>(Id));
  };
  size_t V = 0;
  for (DeviceSpecKind K : Specs) {
    switch (K) {
    case DeviceSpecKind::Default:
      Add(Env.DefaultDevice);
      break;
    case DeviceSpecKind::All:
      for (int D = 0; D < Env.NumDevices; ++D)
        Add(D);
      break;
    case DeviceSpecKind::Host:
      Add(Env.InitialDevice);
      break;
    case DeviceSpecKind::One:
      Add(Values[V]);
      break;
    case DeviceSpecKind::From:
      for (int64_t D = std::max<int64_t>(Values[V], 0); D < Env.NumDevices; ++D)
        Add(D);
      break;
    case DeviceSpecKind::Range: {
      // Only offload devices are counted: id:count never reaches the host.
      int64_t First = std::max<int64_t>(Values[V], 0);
      int64_t Last =
          Values[V + 1] > 0 && Values[V] < Env.NumDevices
              ? std::min<int64_t>(Env.NumDevices,
                                  Values[V] + std::min<int64_t>(Values[V + 1],
                                                                Env.NumDevices))
              : 0;
      for (int64_t D = First; D < Last; ++D)
        Add(D);
      break;
    }
    }
    V += deviceSpecValues(K);
  }
  return Ids;
}

} // namespace homp
