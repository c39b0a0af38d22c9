//===-- CoreShares.cpp - Devices on the host's cores ----------------------===//

#include "homp/CoreShares.h"

#include <algorithm>

namespace homp {

std::vector<int> coreShare(int Share, int Shares,
                           const std::vector<int> &Cpus) {
  std::vector<int> Out;
  if (Cpus.empty() || Share < 0 || Shares <= Share)
    return Out;
  const int N = static_cast<int>(Cpus.size());
  const int Each = std::max(1, N / Shares);
  for (int I = 0; I < Each; ++I)
    Out.push_back(Cpus[(static_cast<long long>(Share) * Each + I) % N]);
  return Out;
}

bool onHostCores(int Device, const DeviceEnvironment &Env) {
  return (Env.typeOf(Device) & (abi::TypeCPU | abi::TypeHost)) != 0;
}

int hostCoreDevices(const std::vector<int> &Devices,
                    const DeviceEnvironment &Env) {
  return static_cast<int>(std::count_if(
      Devices.begin(), Devices.end(),
      [&](int Device) { return onHostCores(Device, Env); }));
}

std::vector<int> cpuShares(const std::vector<int> &Devices,
                           const DeviceEnvironment &Env, int &Shares) {
  std::vector<int> Out(Devices.size(), -1);
  Shares = 0;
  for (size_t I = 0; I < Devices.size(); ++I)
    if (onHostCores(Devices[I], Env))
      Out[I] = Shares++;
  return Out;
}

std::vector<size_t> wakeOrder(const std::vector<int> &Binds,
                              const std::vector<std::vector<int>> &ShareCpus,
                              int Cpu) {
  auto OnCpu = [&](int S) {
    if (S < 0 || S >= static_cast<int>(ShareCpus.size()))
      return false;
    const std::vector<int> &C = ShareCpus[static_cast<size_t>(S)];
    return std::find(C.begin(), C.end(), Cpu) != C.end();
  };
  std::vector<size_t> Order;
  Order.reserve(Binds.size());
  for (bool Last : {false, true})
    for (size_t K = 0; K < Binds.size(); ++K)
      if (OnCpu(Binds[K]) == Last)
        Order.push_back(K);
  return Order;
}

} // namespace homp
