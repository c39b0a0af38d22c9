//===-- Transfers.h - Device storage and copies of array parts --*- C++ -*-===//
//
// Each device keeps its part of an array in storage homp allocates itself
// (so a failure is homp's to report, not a libomptarget abort), laid out
// like the host array from the first to the last element the device holds:
// global indices stay valid there. Copies move boxes of elements between
// host memory and that storage in as few contiguous runs as the layout
// allows.
//
//===----------------------------------------------------------------------===//

#ifndef HOMP_LIBOMPTARGET_PLUGIN_TRANSFERS_H
#define HOMP_LIBOMPTARGET_PLUGIN_TRANSFERS_H

#include "homp/Distribution.h"

#include <cstdint>
#include <optional>
#include <string>

namespace homp {

/// One array's storage on one device: elements Span of the array (offsets
/// from element [0]...[0]) at Ptr.
struct Storage {
  int Device = 0;
  void *Ptr = nullptr;
  Range Span;
  /// What the device allocated, when Ptr was placed inside it; else null.
  /// Placed storage, once freed, is kept for reuse (see Transfers.cpp).
  void *Allocation = nullptr;
  size_t Bytes = 0; ///< of Allocation
};

/// Whether Device's storage lies in the host's pages (a CPU offload device),
/// where homp places it (allocateStorage's PageOffset, storageColors).
bool placedInHostPages(int Device);

/// Allocates storage for the elements Span of an array of Shape on Device.
/// With PageOffset (see storageColors), the storage starts that many bytes
/// past the start of a page. Returns false when the device cannot provide
/// it (Error says why).
bool allocateStorage(int Device, const ArrayShape &Shape, Range Span,
                     Storage &Out, std::string &Error,
                     std::optional<int64_t> PageOffset = std::nullopt);
void freeStorage(Storage &S);

enum class Direction { ToDevice, FromDevice };

/// Copies the elements Elements of an array of Shape, whose element
/// [0]...[0] is at Host in host memory, to or from S. Adds the bytes moved
/// to Bytes; returns false when a copy fails.
bool copyElements(Direction Dir, const ArrayShape &Shape, char *Host,
                  const Storage &S, const ProductSet &Elements, int64_t &Bytes);

/// The device address standing for the host address HostAddr of an array
/// whose element [0]...[0] is at Host, in storage S.
void *deviceAddress(const ArrayShape &Shape, const char *Host, const Storage &S,
                    const void *HostAddr);

/// One side of a box copy: memory holding the array in its layout, as the
/// address of element [0]...[0] there, or a dense buffer of just the box.
struct BoxEnd {
  char *Base = nullptr;
  int Device = 0;
  bool Dense = false; ///< Base holds the box alone, row after row
};

/// Copies the box SrcBox at Src to the box DstBox (the same shape, anywhere)
/// at Dst, in as few contiguous runs as the layout allows.
bool copyBox(const ArrayShape &Shape, BoxEnd Dst, const Box &DstBox,
             BoxEnd Src, const Box &SrcBox);

/// copyBox's copy, worked out once (for copies that repeat): one
/// omp_target_memcpy when Dims is 1, else one omp_target_memcpy_rect.
struct BoxCopy {
  char *Dst = nullptr, *Src = nullptr;
  int DstDevice = 0, SrcDevice = 0;
  size_t ElementSize = 0;
  unsigned Dims = 1;
  size_t Volume[MaxRank] = {}, DstDims[MaxRank] = {}, SrcDims[MaxRank] = {};
};
BoxCopy planBoxCopy(const ArrayShape &Shape, BoxEnd Dst, const Box &DstBox,
                    BoxEnd Src, const Box &SrcBox);
/// Runs C with its destination and source moved by DstShift and SrcShift
/// bytes (a staging buffer's address, for copies planned at offsets in it).
bool runBoxCopy(const BoxCopy &C, ptrdiff_t DstShift = 0,
                ptrdiff_t SrcShift = 0);

/// The error for a host that would hold halo cells past the ends of Name:
/// it works on the array in place.
std::string edgeHalosOnHost(const std::string &Name, bool SharedMemory = false);

/// Fills the halo cells past the array's ends (periodic and reflecting
/// edges) that the device at Position of Dist holds and whose sources lie
/// in Sources, at Device, from the host's array at Host. Adds the bytes to
/// Bytes; false when a copy fails.
bool fillEdgeHalos(const Distribution &Dist, unsigned Position, char *Host,
                   BoxEnd Device, int64_t &Bytes, const ProductSet &Sources);

} // namespace homp

#endif // HOMP_LIBOMPTARGET_PLUGIN_TRANSFERS_H
