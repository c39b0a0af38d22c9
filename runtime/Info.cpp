//===-- Info.cpp - The HOMP_INFO report of a region -----------------------===//

#include "homp/Info.h"

#include <algorithm>
#include <cstdio>

namespace homp {

std::string formatRegionReport(const std::string &Location, int64_t TripCount,
                               double TotalSeconds,
                               const std::vector<DeviceReport> &Devices) {
  std::string Out;
  char Line[256];
  double Slowest = 0, Sum = 0;
  for (const DeviceReport &D : Devices) {
    Slowest = std::max(Slowest, D.Seconds);
    Sum += D.Seconds;
  }
  double Mean = Devices.empty() ? 0 : Sum / Devices.size();
  std::snprintf(Line, sizeof Line,
                "homp: region %s: %lld iterations on %zu devices in %.3f ms, "
                "imbalance %.2f\n",
                Location.c_str(), static_cast<long long>(TripCount),
                Devices.size(), TotalSeconds * 1e3,
                Mean > 0 ? Slowest / Mean : 1.0);
  Out += Line;
  std::snprintf(Line, sizeof Line, "homp:   %-8s %-24s %-26s %12s %12s %10s\n",
                "device", "iterations", "indices", "bytes in", "bytes out",
                "time ms");
  Out += Line;
  for (const DeviceReport &D : Devices) {
    char Dev[16], Its[48], Idx[64];
    if (D.IsHost)
      std::snprintf(Dev, sizeof Dev, "host");
    else
      std::snprintf(Dev, sizeof Dev, "%d", D.Device);
    std::snprintf(Its, sizeof Its, "[%lld, %lld)",
                  static_cast<long long>(D.Iterations.Begin),
                  static_cast<long long>(D.Iterations.End));
    if (D.Iterations.empty())
      std::snprintf(Idx, sizeof Idx, "-");
    else
      std::snprintf(Idx, sizeof Idx, "%lld .. %lld",
                    static_cast<long long>(D.FirstIndex),
                    static_cast<long long>(D.LastIndex));
    std::snprintf(Line, sizeof Line,
                  "homp:   %-8s %-24s %-26s %12lld %12lld %10.3f\n", Dev, Its,
                  Idx, static_cast<long long>(D.BytesIn),
                  static_cast<long long>(D.BytesOut), D.Seconds * 1e3);
    Out += Line;
  }
  return Out;
}

} // namespace homp
