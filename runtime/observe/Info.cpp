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

std::string describeWork(const LoopNest &Nest,
                         const std::vector<ProductSet> &Parts) {
  std::vector<ProductSet> Merged;
  for (const ProductSet &P : Parts) {
    if (P.empty())
      continue;
    bool Joined = false;
    for (ProductSet &M : Merged) {
      unsigned Differ = 0, Dim = 0;
      for (unsigned L = 0; L < Nest.Rank; ++L)
        if (M.Dims[L] != P.Dims[L])
          ++Differ, Dim = L;
      if (Differ <= 1) {
        M.Dims[Dim] = M.Dims[Dim].unite(P.Dims[Dim]);
        Joined = true;
        break;
      }
    }
    if (!Joined)
      Merged.push_back(P);
  }
  if (Merged.empty())
    return "-";
  std::string S;
  for (const ProductSet &M : Merged)
    S += (S.empty() ? "" : " + ") + describeWork(Nest, M);
  return S;
}

std::string formatReport(const std::string &Title, double TotalSeconds,
                         bool Load, const std::vector<DeviceReport> &Devices) {
  std::string Out;
  char Line[512];
  // A device that took no chunk, or was cut off after its sample, waited
  // for the others by the schedule's choice: its short time would lower
  // the mean and read as imbalance among the devices that shared the work.
  // Nor is a failure, or the host's rerun after the others, a share.
  double Slowest = 0, Sum = 0;
  int Counted = 0, NoChunk = 0;
  for (const DeviceReport &D : Devices) {
    NoChunk += D.Share == DeviceReport::NoChunk;
    if (D.Share != DeviceReport::Counted)
      continue;
    Slowest = std::max(Slowest, D.Seconds - D.RerunSeconds);
    Sum += D.Seconds - D.RerunSeconds;
    ++Counted;
  }
  double Mean = Counted ? Sum / Counted : 0;
  std::snprintf(Line, sizeof Line, "homp: %s in %.3f ms", Title.c_str(),
                TotalSeconds * 1e3);
  Out += Line;
  if (Load) {
    std::snprintf(Line, sizeof Line, ", imbalance %.2f",
                  Mean > 0 ? Slowest / Mean : 1.0);
    Out += Line;
    if (NoChunk)
      Out += " (" + std::to_string(NoChunk) + " device" +
             (NoChunk == 1 ? "" : "s") + " took no chunk)";
  }
  Out += "\n";
  std::snprintf(Line, sizeof Line, "homp:   %-8s %-6s %-30s %8s %12s %12s %10s\n",
                "device", "type", "indices", "launches", "bytes in",
                "bytes out", "time ms");
  Out += Line;
  for (const DeviceReport &D : Devices) {
    std::string Work = D.Work.empty() ? "-" : D.Work;
    if (D.Failed)
      Work = Work == "-" ? "failed" : Work + ", then failed";
    char Dev[16];
    if (D.IsHost)
      std::snprintf(Dev, sizeof Dev, "host");
    else
      std::snprintf(Dev, sizeof Dev, "%d", D.Device);
    std::snprintf(Line, sizeof Line,
                  "homp:   %-8s %-6s %-30s %8lld %12lld %12lld %10.3f\n", Dev,
                  D.Type.c_str(), Work.c_str(),
                  static_cast<long long>(D.Launches),
                  static_cast<long long>(D.BytesIn),
                  static_cast<long long>(D.BytesOut), D.Seconds * 1e3);
    Out += Line;
  }
  return Out;
}

} // namespace homp
