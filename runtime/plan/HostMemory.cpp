//===-- HostMemory.cpp - The host's memory --------------------------------===//

#include "homp/HostMemory.h"

#include <cstdio>
#include <fstream>
#include <iterator>
#include <sstream>

namespace homp {

HostMemory parseMemInfo(const std::string &Text) {
  HostMemory M;
  std::istringstream In(Text);
  std::string Key, Unit;
  int64_t Value;
  // Lines are "Key:   value kB"; a line that does not read so is skipped.
  std::string Line;
  while (std::getline(In, Line)) {
    std::istringstream Fields(Line);
    if (!(Fields >> Key >> Value) || Value < 0)
      continue;
    int64_t Scale = (Fields >> Unit) && Unit == "kB" ? 1024 : 1;
    if (Key == "MemTotal:")
      M.TotalBytes = Value * Scale;
    else if (Key == "MemAvailable:")
      M.FreeBytes = Value * Scale;
  }
  return M;
}

HostMemory hostMemory() {
  std::ifstream File("/proc/meminfo");
  if (!File)
    return {};
  std::stringstream Text;
  Text << File.rdbuf();
  return parseMemInfo(Text.str());
}

std::string formatBytes(int64_t Bytes) {
  if (Bytes < 0)
    return "-";
  const char *Units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  double Value = static_cast<double>(Bytes);
  unsigned U = 0;
  while (Value >= 1024 && U + 1 < std::size(Units)) {
    Value /= 1024;
    ++U;
  }
  char Buf[32];
  std::snprintf(Buf, sizeof Buf, U && Value < 100 ? "%.1f %s" : "%.0f %s",
                Value, Units[U]);
  return Buf;
}

} // namespace homp
