//===-- Transfers.cpp - Device storage and copies of array parts ----------===//

#include "Transfers.h"

#include "Devices.h"

#include "homp/Halo.h"

#include <omp.h>

#include <algorithm>
#include <deque>
#include <mutex>

namespace homp {

namespace {

/// The page storageColors places storage in.
constexpr size_t Page = 4096;

/// Placed storage (CPU offload devices: host memory) that was freed, kept
/// for the next allocation of the same size on the same device. Programs
/// make the same data region again and again (a solver's time steps): its
/// storage then comes back without a system call and without a page fault
/// on each page at its first touch (measured: copying a 4 MB part into
/// fresh storage took 2.7 ms, into storage used before 0.5 ms; the first
/// halo exchange of a 2050 x 1026 Jacobi grid on 4 devices took 80 us more
/// than the next ones; AUTO's trials of a rebalanced split, whose parts
/// change size a little, took 3 times as long as the same split with
/// storage used before). At most CacheLimit bytes are kept, the most
/// recently freed; an allocation that fails frees them all and tries again.
class StorageCache {
public:
  static constexpr size_t CacheLimit = size_t(256) << 20;

  /// A block of Device of at least Bytes and at most a quarter more (the
  /// smallest such), or nullptr; Bytes becomes the block's size. A loop
  /// whose split moves a little between executions gets its blocks back.
  void *take(int Device, size_t &Bytes) {
    std::lock_guard<std::mutex> Lock(M);
    auto Best = Blocks.end();
    for (auto It = Blocks.begin(); It != Blocks.end(); ++It)
      if (It->Device == Device && It->Bytes >= Bytes &&
          It->Bytes - Bytes <= Bytes / 4 &&
          (Best == Blocks.end() || It->Bytes < Best->Bytes))
        Best = It;
    if (Best == Blocks.end())
      return nullptr;
    void *Ptr = Best->Ptr;
    Bytes = Best->Bytes;
    Held -= Bytes;
    Blocks.erase(Best);
    return Ptr;
  }

  void give(int Device, size_t Bytes, void *Ptr) {
    std::vector<Block> Evicted;
    {
      std::lock_guard<std::mutex> Lock(M);
      if (Bytes > CacheLimit) {
        Evicted.push_back({Device, Bytes, Ptr});
      } else {
        Blocks.push_back({Device, Bytes, Ptr});
        Held += Bytes;
        while (Held > CacheLimit) {
          Held -= Blocks.front().Bytes;
          Evicted.push_back(Blocks.front());
          Blocks.pop_front();
        }
      }
    }
    for (const Block &B : Evicted)
      omp_target_free(B.Ptr, B.Device);
  }

  /// Frees every block of Device; whether there was any.
  bool flush(int Device) {
    std::vector<Block> Mine;
    {
      std::lock_guard<std::mutex> Lock(M);
      for (auto It = Blocks.begin(); It != Blocks.end();)
        if (It->Device == Device) {
          Held -= It->Bytes;
          Mine.push_back(*It);
          It = Blocks.erase(It);
        } else {
          ++It;
        }
    }
    for (const Block &B : Mine)
      omp_target_free(B.Ptr, B.Device);
    return !Mine.empty();
  }

private:
  struct Block {
    int Device;
    size_t Bytes;
    void *Ptr;
  };
  std::mutex M;
  std::deque<Block> Blocks; ///< oldest first
  size_t Held = 0;
};

StorageCache &storageCache() {
  static auto *C = new StorageCache(); // outlives static destructors
  return *C;
}

} // namespace

bool placedInHostPages(int Device) {
  return (deviceTypes().typeOf(Device) & abi::TypeCPU) != 0;
}

bool allocateStorage(int Device, const ArrayShape &Shape, Range Span,
                     Storage &Out, std::string &Error,
                     std::optional<int64_t> PageOffset) {
  Out = Storage();
  Out.Device = Device;
  Out.Span = Span;
  size_t Bytes = static_cast<size_t>(Span.size() * Shape.ElementSize);
  if (Bytes == 0)
    return true;
  // Placed storage asks for a page more.
  size_t Asked = PageOffset ? Bytes + Page : Bytes;
  void *Got = nullptr;
  if (!injectedFault(Device, FaultSpec::Alloc)) {
    Got = PageOffset ? storageCache().take(Device, Asked) : nullptr;
    if (!Got)
      Got = omp_target_alloc(Asked, Device);
    if (!Got && PageOffset && storageCache().flush(Device))
      Got = omp_target_alloc(Asked, Device);
  }
  if (!Got) {
    Error = "device " + std::to_string(Device) + " cannot allocate " +
            std::to_string(Bytes) + " bytes";
    return false;
  }
  if (!PageOffset) {
    Out.Ptr = Got;
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

void freeStorage(Storage &S) {
  if (S.Ptr && S.Allocation)
    storageCache().give(S.Device, S.Bytes, S.Allocation);
  else if (S.Ptr)
    omp_target_free(S.Ptr, S.Device);
  S.Ptr = nullptr;
  S.Allocation = nullptr;
}

void *deviceAddress(const ArrayShape &Shape, const char *Host, const Storage &S,
                    const void *HostAddr) {
  intptr_t FromElement0 = static_cast<const char *>(HostAddr) - Host;
  return static_cast<char *>(S.Ptr) + FromElement0 -
         S.Span.Begin * Shape.ElementSize;
}

bool copyElements(Direction Dir, const ArrayShape &Shape, char *Host,
                  const Storage &S, const ProductSet &Elements,
                  int64_t &Bytes) {
  BoxEnd HostEnd{Host, hostDevice(), false};
  BoxEnd DevEnd{static_cast<char *>(deviceAddress(Shape, Host, S, Host)),
                S.Device, false};
  const BoxEnd &Dst = Dir == Direction::ToDevice ? DevEnd : HostEnd;
  const BoxEnd &Src = Dir == Direction::ToDevice ? HostEnd : DevEnd;
  bool Ok = Elements.empty() || !injectedFault(S.Device, FaultSpec::Copy);
  Elements.forEachBox([&](const Box &B) {
    if (!Ok || B.empty())
      return;
    Ok = copyBox(Shape, Dst, B, Src, B);
    if (Ok)
      Bytes += B.volume() * Shape.ElementSize;
  });
  return Ok;
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

bool runBoxCopy(const BoxCopy &C, ptrdiff_t DstShift, ptrdiff_t SrcShift) {
  // Integer arithmetic: a copy planned in a staging buffer holds offsets.
  auto Moved = [](char *P, ptrdiff_t By) {
    return reinterpret_cast<char *>(reinterpret_cast<uintptr_t>(P) + By);
  };
  char *Dst = Moved(C.Dst, DstShift), *Src = Moved(C.Src, SrcShift);
  if (C.Dims == 1)
    return omp_target_memcpy(Dst, Src, C.Volume[0] * C.ElementSize, 0, 0,
                             C.DstDevice, C.SrcDevice) == 0;
  const size_t Zero[MaxRank] = {};
  return omp_target_memcpy_rect(
             Dst, Src, C.ElementSize, static_cast<int>(C.Dims), C.Volume, Zero,
             Zero, C.DstDims, C.SrcDims, C.DstDevice, C.SrcDevice) == 0;
}

/// Copies the box SrcBox at Src to the box DstBox (same shape) at Dst.
bool copyBox(const ArrayShape &Shape, BoxEnd Dst, const Box &DstBox, BoxEnd Src,
             const Box &SrcBox) {
  return runBoxCopy(planBoxCopy(Shape, Dst, DstBox, Src, SrcBox));
}

std::string edgeHalosOnHost(const std::string &Name, bool SharedMemory) {
  if (SharedMemory)
    return "'" + Name +
           "' has a periodic or reflecting halo, but under "
           "'requires unified_shared_memory' every device works on the "
           "host's array in place, where cells past its ends do not exist";
  return "the host cannot take part in '" + Name +
         "': it works on the array in place, where its periodic or "
         "reflecting halo past the array's ends does not exist (leave the "
         "host out of the device list)";
}

bool fillEdgeHalos(const Distribution &Dist, unsigned Position, char *Host,
                   BoxEnd Device, int64_t &Bytes, const ProductSet &Sources) {
  // Most arrays have no periodic or reflecting edge: nothing to fill.
  if (std::none_of(Dist.Halos.begin(), Dist.Halos.end(),
                   [](const abi::Halo &H) {
                     return H.LeftEdge != abi::Edge::None ||
                            H.RightEdge != abi::Edge::None;
                   }))
    return true;
  const BoxEnd From{Host, hostDevice(), false};
  for (const HaloCopy &C : edgeHaloCopies(Dist, Position, Sources)) {
    if (!copyBox(Dist.Shape, Device, C.Dst, From, C.Src))
      return false;
    Bytes += C.Dst.volume() * Dist.Shape.ElementSize;
  }
  return true;
}

} // namespace homp
