//===-- homp/HostMemory.h - The host's memory -------------------*- C++ -*-===//
//
// How much memory the host has and how much a program can still take, from
// Linux's /proc/meminfo. homp-info shows it for the host and for the CPU
// offload devices, whose memory is the host's.
//
//===----------------------------------------------------------------------===//

#ifndef HOMP_HOSTMEMORY_H
#define HOMP_HOSTMEMORY_H

#include <cstdint>
#include <string>

namespace homp {

/// Bytes of memory; -1 where unknown.
struct HostMemory {
  int64_t TotalBytes = -1;
  int64_t FreeBytes = -1; ///< available to programs (MemAvailable)
};

/// Reads the text of /proc/meminfo: MemTotal and MemAvailable, in kB.
HostMemory parseMemInfo(const std::string &Text);

/// The host's memory now (unknown without /proc/meminfo).
HostMemory hostMemory();

/// Bytes for people: "23.4 GiB", "512 MiB", "-" when unknown.
std::string formatBytes(int64_t Bytes);

} // namespace homp

#endif // HOMP_HOSTMEMORY_H
