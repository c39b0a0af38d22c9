//===-- Info.cpp - The HOMP_INFO report -----------------------------------===//

#include "homp/Info.h"

#include <algorithm>
#include <cstdio>

namespace homp {

std::string describeWork(const LoopNest &Nest, const ProductSet &Iterations) {
  if (Iterations.empty())
    return "-";
  std::string S;
  for (unsigned L = 0; L < Nest.Rank; ++L) {
    IndexSet Idx = indicesOf(Nest.Loops[L], Iterations.Dims[L]);
    if (L)
      S += " x ";
    Range H = Idx.hull();
    S += "[" + std::to_string(H.Begin) + ", " + std::to_string(H.End) + ")";
    if (Idx.ranges().size() > 1)
      S += "/" + std::to_string(Idx.ranges().size());
  }
  return S;
}

std::string formatReport(const std::string &Title, double TotalSeconds,
                         bool Load, const std::vector<DeviceReport> &Devices) {
  std::string Out;
  char Line[512];
  double Slowest = 0, Sum = 0;
  for (const DeviceReport &D : Devices) {
    Slowest = std::max(Slowest, D.Seconds);
    Sum += D.Seconds;
  }
  double Mean = Devices.empty() ? 0 : Sum / Devices.size();
  std::snprintf(Line, sizeof Line, "homp: %s in %.3f ms", Title.c_str(),
                TotalSeconds * 1e3);
  Out += Line;
  if (Load) {
    std::snprintf(Line, sizeof Line, ", imbalance %.2f",
                  Mean > 0 ? Slowest / Mean : 1.0);
    Out += Line;
  }
  Out += "\n";
  std::snprintf(Line, sizeof Line, "homp:   %-8s %-6s %-30s %8s %12s %12s %10s\n",
                "device", "type", "indices", "launches", "bytes in",
                "bytes out", "time ms");
  Out += Line;
  for (const DeviceReport &D : Devices) {
    char Dev[16];
    if (D.IsHost)
      std::snprintf(Dev, sizeof Dev, "host");
    else
      std::snprintf(Dev, sizeof Dev, "%d", D.Device);
    std::snprintf(Line, sizeof Line,
                  "homp:   %-8s %-6s %-30s %8lld %12lld %12lld %10.3f\n", Dev,
                  D.Type.c_str(), D.Work.empty() ? "-" : D.Work.c_str(),
                  static_cast<long long>(D.Launches),
                  static_cast<long long>(D.BytesIn),
                  static_cast<long long>(D.BytesOut), D.Seconds * 1e3);
    Out += Line;
  }
  return Out;
}

} // namespace homp
