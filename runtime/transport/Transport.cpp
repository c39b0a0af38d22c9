//===-- Transport.cpp - Memories, the copies between them -----------------===//

#include "homp/Transport.h"

#include "homp/Halo.h"

#include <algorithm>
#include <cstring>

namespace homp {

namespace {

/// The page placed storage starts in.
constexpr size_t Page = 4096;

/// The byte strides of the Dims dimensions of memory DimsOf long, for
/// elements of ElementSize.
void strides(const BoxCopy &C, const size_t *DimsOf, size_t *Out) {
  size_t Stride = C.ElementSize;
  for (unsigned D = C.Dims; D-- > 0;) {
    Out[D] = Stride;
    Stride *= DimsOf[D];
  }
}

size_t extent(const BoxCopy &C, const size_t *DimsOf) {
  if (C.Dims == 1)
    return C.Volume[0] * C.ElementSize;
  for (unsigned D = 0; D < C.Dims; ++D)
    if (C.Volume[D] == 0)
      return 0;
  size_t S[MaxRank];
  strides(C, DimsOf, S);
  size_t Last = 0;
  for (unsigned D = 0; D + 1 < C.Dims; ++D)
    Last += (C.Volume[D] - 1) * S[D];
  return Last + C.Volume[C.Dims - 1] * C.ElementSize;
}

} // namespace

size_t BoxCopy::bytes() const {
  size_t N = ElementSize;
  for (unsigned D = 0; D < Dims; ++D)
    N *= Volume[D];
  return N;
}

size_t BoxCopy::dstExtent() const { return extent(*this, DstDims); }
size_t BoxCopy::srcExtent() const { return extent(*this, SrcDims); }

BoxCopy BoxCopy::shifted(ptrdiff_t DstShift, ptrdiff_t SrcShift) const {
  // Integer arithmetic: a copy planned in a staging buffer holds offsets.
  auto Moved = [](char *P, ptrdiff_t By) {
    return reinterpret_cast<char *>(reinterpret_cast<uintptr_t>(P) + By);
  };
  BoxCopy C = *this;
  C.Dst = Moved(Dst, DstShift);
  C.Src = Moved(Src, SrcShift);
  return C;
}

BoxCopy planBoxCopy(const ArrayShape &Shape, BoxEnd Dst, const Box &DstBox,
                    BoxEnd Src, const Box &SrcBox) {
  const unsigned Rank = Shape.Rank;
  auto First = [&](const BoxEnd &E, const Box &B) {
    if (E.Dense)
      return E.Base;
    Index I{};
    for (unsigned D = 0; D < Rank; ++D)
      I[D] = B.Dims[D].Begin;
    return E.Base + Shape.offset(I) * Shape.ElementSize;
  };
  BoxCopy C;
  C.Dst = First(Dst, DstBox);
  C.Src = First(Src, SrcBox);
  C.DstDevice = Dst.Device;
  C.SrcDevice = Src.Device;
  C.ElementSize = static_cast<size_t>(Shape.ElementSize);
  // Dimensions from Inner on are one run on both sides: every dimension
  // after Inner covers its whole row, so their elements lie back to back.
  // Several runs are one rectangular copy (libomptarget walks the rows; we
  // measured it as fast as a copy per row for long rows and twice as fast
  // for short ones).
  unsigned Inner = Rank - 1;
  while (Inner > 0 && SrcBox.Dims[Inner] == Range{0, Shape.Extent[Inner]} &&
         DstBox.Dims[Inner] == SrcBox.Dims[Inner])
    --Inner;
  C.Dims = Inner + 1;
  if (Inner == 0) {
    C.Volume[0] = static_cast<size_t>(SrcBox.volume());
    return C;
  }
  for (unsigned D = 0; D <= Inner; ++D) {
    C.Volume[D] = static_cast<size_t>(SrcBox.Dims[D].size());
    size_t Row = static_cast<size_t>(D == 0 ? C.Volume[0] : Shape.Extent[D]);
    C.DstDims[D] = Dst.Dense ? C.Volume[D] : Row;
    C.SrcDims[D] = Src.Dense ? C.Volume[D] : Row;
  }
  for (unsigned D = Inner + 1; D < Rank; ++D) {
    size_t Row = static_cast<size_t>(Shape.Extent[D]);
    C.Volume[Inner] *= Row;
    C.DstDims[Inner] *= Row;
    C.SrcDims[Inner] *= Row;
  }
  return C;
}

void copyWithMemcpy(const BoxCopy &C) {
  if (C.Dims == 1) {
    std::memmove(C.Dst, C.Src, C.Volume[0] * C.ElementSize);
    return;
  }
  for (unsigned D = 0; D < C.Dims; ++D)
    if (C.Volume[D] == 0)
      return;
  size_t DS[MaxRank], SS[MaxRank];
  strides(C, C.DstDims, DS);
  strides(C, C.SrcDims, SS);
  // Every run of the innermost dimension, in odometer order. (A column's
  // runs are an element each, a cache line apart or more: what bounds its
  // copy is the memory, one line read and one written per element.)
  size_t At[MaxRank] = {};
  const size_t Run = C.Volume[C.Dims - 1] * C.ElementSize;
  while (true) {
    size_t DO = 0, SO = 0;
    for (unsigned D = 0; D + 1 < C.Dims; ++D) {
      DO += At[D] * DS[D];
      SO += At[D] * SS[D];
    }
    std::memmove(C.Dst + DO, C.Src + SO, Run);
    unsigned D = C.Dims - 1;
    while (D-- > 0) {
      if (++At[D] < C.Volume[D])
        break;
      At[D] = 0;
    }
    if (D == static_cast<unsigned>(-1))
      return;
  }
}

BoxCopy bytesCopy(void *Dst, int DstDevice, const void *Src, int SrcDevice,
                  size_t Bytes) {
  BoxCopy C;
  C.Dst = static_cast<char *>(Dst);
  C.Src = static_cast<char *>(const_cast<void *>(Src));
  C.DstDevice = DstDevice;
  C.SrcDevice = SrcDevice;
  C.ElementSize = 1;
  C.Volume[0] = Bytes;
  return C;
}

bool CopyBatch::wait() {
  for (const auto &[K, I] : Pending)
    if (!T.wait(K))
      failed(I);
  Pending.clear();
  return !FirstFailed;
}

bool allocateStorage(Transport &T, int Device, const ArrayShape &Shape,
                     Range Span, Storage &Out, std::string &Error,
                     std::optional<int64_t> PageOffset) {
  Out = Storage();
  Out.Device = Device;
  Out.Span = Span;
  size_t Bytes = static_cast<size_t>(Span.size() * Shape.ElementSize);
  if (Bytes == 0)
    return true;
  // Placed storage asks for a page more.
  size_t Asked = PageOffset ? Bytes + Page : Bytes;
  void *Got = T.allocate(Device, Asked, PageOffset.has_value());
  if (!Got) {
    Error = "device " + std::to_string(Device) + " cannot allocate " +
            std::to_string(Bytes) + " bytes";
    return false;
  }
  if (!PageOffset) {
    Out.Ptr = Got;
    Out.Bytes = Asked;
    return true;
  }
  // The first page boundary past Got, then the offset: within the page
  // more than Bytes asked for.
  uintptr_t At = reinterpret_cast<uintptr_t>(Got);
  uintptr_t Start = ((At + Page - 1) & ~(Page - 1)) +
                    static_cast<uintptr_t>(*PageOffset % Page);
  if (Start >= At + Page)
    Start -= Page;
  Out.Ptr = reinterpret_cast<void *>(Start);
  Out.Allocation = Got;
  Out.Bytes = Asked;
  return true;
}

void freeStorage(Transport &T, Storage &S) {
  if (S.Ptr && S.Allocation)
    T.release(S.Device, S.Allocation, S.Bytes, /*Reusable=*/true);
  else if (S.Ptr)
    T.release(S.Device, S.Ptr, S.Bytes, /*Reusable=*/false);
  S.Ptr = nullptr;
  S.Allocation = nullptr;
}

void *deviceAddress(const ArrayShape &Shape, const char *Host, const Storage &S,
                    const void *HostAddr) {
  intptr_t FromElement0 = static_cast<const char *>(HostAddr) - Host;
  // Integer arithmetic: the address of element [0]...[0] may lie before
  // the storage.
  return reinterpret_cast<void *>(reinterpret_cast<uintptr_t>(S.Ptr) +
                                  FromElement0 -
                                  S.Span.Begin * Shape.ElementSize);
}

BoxEnd storageEnd(const ArrayShape &Shape, const Storage &S) {
  return {static_cast<char *>(deviceAddress(Shape, nullptr, S, nullptr)),
          S.Device, false};
}

bool copyBoxes(Transport &T, const ArrayShape &Shape, BoxEnd Dst, BoxEnd Src,
               const ProductSet &Elements, int64_t &Bytes) {
  CopyBatch Batch(T);
  int64_t Moved = 0;
  Elements.forEachBox([&](const Box &B) {
    if (B.empty())
      return;
    Batch.copy(planBoxCopy(Shape, Dst, B, Src, B));
    Moved += B.volume() * Shape.ElementSize;
  });
  if (!Batch.wait())
    return false;
  Bytes += Moved;
  return true;
}

bool copyElements(Transport &T, Direction Dir, const ArrayShape &Shape,
                  char *Host, const Storage &S, const ProductSet &Elements,
                  int64_t &Bytes) {
  const BoxEnd HostEnd{Host, T.host(), false};
  const BoxEnd DevEnd = storageEnd(Shape, S);
  return Dir == Direction::ToDevice
             ? copyBoxes(T, Shape, DevEnd, HostEnd, Elements, Bytes)
             : copyBoxes(T, Shape, HostEnd, DevEnd, Elements, Bytes);
}

bool fillEdgeHalos(Transport &T, const Distribution &Dist, unsigned Position,
                   char *Host, BoxEnd Device, int64_t &Bytes,
                   const ProductSet &Sources) {
  // Most arrays have no periodic or reflecting edge: nothing to fill.
  if (std::none_of(Dist.Halos.begin(), Dist.Halos.end(),
                   [](const abi::Halo &H) {
                     return H.LeftEdge != abi::Edge::None ||
                            H.RightEdge != abi::Edge::None;
                   }))
    return true;
  const BoxEnd From{Host, T.host(), false};
  CopyBatch Batch(T);
  int64_t Moved = 0;
  for (const HaloCopy &C : edgeHaloCopies(Dist, Position, Sources)) {
    Batch.copy(planBoxCopy(Dist.Shape, Device, C.Dst, From, C.Src));
    Moved += C.Dst.volume() * Dist.Shape.ElementSize;
  }
  if (!Batch.wait())
    return false;
  Bytes += Moved;
  return true;
}

// MemoryTransport

MemoryTransport::~MemoryTransport() {
  for (auto &B : Blocks)
    delete[] B.first;
}

void *MemoryTransport::allocate(int Device, size_t &Bytes, bool) {
  if (Device < 0 || Device >= Devices) {
    Errors.push_back("allocation on device " + std::to_string(Device) +
                     ", which does not exist");
    return nullptr;
  }
  char *P = new char[Bytes ? Bytes : 1];
  std::memset(P, Fill, Bytes);
  Blocks[P] = {Device, Bytes};
  return P;
}

void MemoryTransport::release(int Device, void *Ptr, size_t Bytes, bool) {
  auto It = Blocks.find(static_cast<const char *>(Ptr));
  if (It == Blocks.end() || It->second.Device != Device ||
      It->second.Bytes != Bytes) {
    Errors.push_back("release of " + std::to_string(Bytes) +
                     " bytes on device " + std::to_string(Device) +
                     " that it did not allocate");
    return;
  }
  delete[] It->first;
  Blocks.erase(It);
}

bool MemoryTransport::within(int Device, const char *P, size_t Extent) const {
  if (Device == Devices)
    return true; // the host's memory: the test's arrays, staging
  auto It = Blocks.upper_bound(P);
  if (It == Blocks.begin())
    return false;
  --It;
  return It->second.Device == Device && P >= It->first &&
         P + Extent <= It->first + It->second.Bytes;
}

Ticket MemoryTransport::copy(const BoxCopy &C) {
  auto Bad = [&](const char *Side, int Device) {
    Errors.push_back(std::string("a copy's ") + Side + " (" +
                     std::to_string(C.bytes()) + " bytes) lies outside " +
                     (Device == Devices ? std::string("the host")
                                        : "every allocation of device " +
                                              std::to_string(Device)));
    return Ticket{0, true};
  };
  if (C.DstDevice < 0 || C.DstDevice > Devices ||
      !within(C.DstDevice, C.Dst, C.dstExtent()))
    return Bad("destination", C.DstDevice);
  if (C.SrcDevice < 0 || C.SrcDevice > Devices ||
      !within(C.SrcDevice, C.Src, C.srcExtent()))
    return Bad("source", C.SrcDevice);
  Pending[++Next] = C;
  return {Next, false};
}

bool MemoryTransport::wait(Ticket T) {
  if (T.Id == 0)
    return !T.Failed;
  auto It = Pending.find(T.Id);
  if (It == Pending.end()) {
    Errors.push_back("copy " + std::to_string(T.Id) +
                     " waited for twice, or never started");
    return false;
  }
  const BoxCopy C = It->second;
  Pending.erase(It);
  if (FailAfter && Done >= *FailAfter)
    return false;
  ++Done;
  copyWithMemcpy(C);
  return true;
}

char *MemoryTransport::staging(size_t Bytes) {
  if (Stage.size() < Bytes)
    Stage.assign(Bytes, static_cast<char>(Fill));
  return Stage.data();
}

size_t MemoryTransport::heldBytes(int Device) const {
  size_t N = 0;
  for (const auto &B : Blocks)
    if (B.second.Device == Device)
      N += B.second.Bytes;
  return N;
}

} // namespace homp
