//===-- DeviceChunks.h - Each device's copy of a kernel's chunk -*- C++ -*-===//
//
// A distributed kernel reads its part of the loop from homp's chunk variable
// (homp/Abi.h), which clang maps 'to' the device. Mapped at every launch, it
// costs libomptarget a lookup, an allocation, a copy and a free per device:
// more than an AXPY part of 25,000 elements takes to run on a CPU offload
// device. homp instead keeps a copy of the chunk on each device, per
// construct, passes its address as it is, and copies the chunk only when it
// changes: a kernel repeated over the same loop copies nothing.
//
//===----------------------------------------------------------------------===//

#ifndef HOMP_LIBOMPTARGET_PLUGIN_DEVICECHUNKS_H
#define HOMP_LIBOMPTARGET_PLUGIN_DEVICECHUNKS_H

#include "DeviceArgs.h"

#include "homp/Abi.h"

#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

namespace homp {

class DeviceChunks {
  struct Copy;

public:
  DeviceChunks();
  ~DeviceChunks();
  DeviceChunks(const DeviceChunks &) = delete;
  DeviceChunks &operator=(const DeviceChunks &) = delete;

  /// A device's copy of the chunk, held for one launch: no other launch of
  /// the construct changes it meanwhile.
  class Lease {
  public:
    Lease() = default;
    explicit operator bool() const { return Held.owns_lock(); }
    /// The copy's device address, to pass to the kernel as it is.
    void *address() const { return Address; }

  private:
    friend class DeviceChunks;
    std::unique_lock<std::mutex> Held;
    void *Address = nullptr;
  };

  /// Device's copy holding C (copied there first if it held something else;
  /// BytesIn counts the bytes). An empty lease when the copy is held by
  /// another launch of the construct running on Device at the same time,
  /// or cannot be made: the caller then lets libomptarget map the chunk.
  Lease acquire(int Device, const abi::Chunk &C, int64_t &BytesIn);

  /// Makes entry Entry of A, the chunk variable's, pass Device's copy
  /// holding C (acquire), or, without one (or InHostMemory: the device
  /// works on the host's memory), map C itself, which must then outlive the
  /// launch. The lease must be held until the launch returns.
  Lease pass(DeviceArgs &A, unsigned Entry, int Device, bool InHostMemory,
             const abi::Chunk &C, int64_t &BytesIn);

private:
  std::once_flag Made;
  std::vector<std::unique_ptr<Copy>> Copies; ///< per device id
};

} // namespace homp

#endif // HOMP_LIBOMPTARGET_PLUGIN_DEVICECHUNKS_H
