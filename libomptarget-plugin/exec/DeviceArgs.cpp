//===-- DeviceArgs.cpp - One device's copy of the kernel arguments --------===//

#include "DeviceArgs.h"

#include <algorithm>

namespace homp {

DeviceArgs::DeviceArgs(const KernelArgs &Original)
    : Args(Original), Entries(entriesSize(Original)) {
  copyEntries(Entries.data());
}

DeviceArgs::DeviceArgs(const KernelArgs &Original, int64_t *Room)
    : Args(Original) {
  copyEntries(Room);
}

void DeviceArgs::copyEntries(int64_t *Room) {
  size_t N = Args.NumArgs;
  BasePtrs = reinterpret_cast<void **>(Room);
  Ptrs = reinterpret_cast<void **>(Room + N);
  Sizes = Room + 2 * N;
  Types = Room + 3 * N;
  std::copy_n(Args.ArgBasePtrs, N, BasePtrs);
  std::copy_n(Args.ArgPtrs, N, Ptrs);
  std::copy_n(Args.ArgSizes, N, Sizes);
  std::copy_n(Args.ArgTypes, N, Types);
  Args.ArgBasePtrs = BasePtrs;
  Args.ArgPtrs = Ptrs;
  Args.ArgSizes = Sizes;
  Args.ArgTypes = Types;
}

void DeviceArgs::setEntry(unsigned K, void *Ptr) {
  BasePtrs[K] = Ptr;
  Ptrs[K] = Ptr;
}

void DeviceArgs::setEntry(unsigned K, const ArgEntry &E) {
  BasePtrs[K] = E.Base;
  Ptrs[K] = E.Ptr;
  Sizes[K] = E.Size;
  Types[K] = E.Type;
}

FirstprivateCopies::FirstprivateCopies(const KernelArgs &Args) {
  for (unsigned K = 0; K < Args.NumArgs; ++K) {
    int64_t T = Args.ArgTypes[K];
    if (!(T & MapPrivate) || (T & MapLiteral) || Args.ArgSizes[K] <= 0 ||
        !Args.ArgPtrs[K])
      continue;
    const char *From = static_cast<const char *>(Args.ArgPtrs[K]);
    Copies.push_back({K,
                      From - static_cast<const char *>(Args.ArgBasePtrs[K]),
                      std::vector<char>(From, From + Args.ArgSizes[K])});
  }
}

void FirstprivateCopies::apply(DeviceArgs &A) const {
  for (const Copy &C : Copies) {
    ArgEntry E = argEntry(A.args(), C.Entry);
    char *Data = const_cast<char *>(C.Bytes.data());
    E.Ptr = Data;
    E.Base = Data - C.Offset;
    A.setEntry(C.Entry, E);
  }
}

bool FirstprivateCopies::copies(unsigned K) const {
  for (const Copy &C : Copies)
    if (C.Entry == K)
      return true;
  return false;
}

ArgEntry argEntry(const KernelArgs &Args, unsigned K) {
  return {Args.ArgBasePtrs[K], Args.ArgPtrs[K], Args.ArgSizes[K],
          Args.ArgTypes[K]};
}

/// Whether an entry of type Type and base Base passes a pointer variable
/// (DeviceArgs::arrayBase).
static bool passesPointer(int64_t Type, void *Base) {
  return (Type & MapPtrAndObj) && !(Type & (MapLiteral | MapPrivate)) &&
         !(Type & MapMemberOfMask) && Base;
}

void *DeviceArgs::arrayBase(unsigned K) const {
  return passesPointer(Types[K], BasePtrs[K])
             ? *static_cast<void *const *>(BasePtrs[K])
             : BasePtrs[K];
}

void DeviceArgs::setLiteral(unsigned K, void *Value) {
  BasePtrs[K] = Value;
  Ptrs[K] = Value;
  Sizes[K] = 0;
  Types[K] = MapLiteral | MapTargetParam;
}

void DeviceArgs::ignoreEntry(unsigned K) {
  Sizes[K] = 0;
  Types[K] = MapLiteral;
}

static bool movesData(int64_t Type) {
  return !(Type & (MapLiteral | MapPrivate));
}

int64_t DeviceArgs::bytesIn() const {
  int64_t Bytes = 0;
  for (unsigned K = 0; K < Args.NumArgs; ++K)
    if (movesData(Types[K]) && (Types[K] & MapTo))
      Bytes += Sizes[K];
  return Bytes;
}

int64_t DeviceArgs::bytesOut() const {
  int64_t Bytes = 0;
  for (unsigned K = 0; K < Args.NumArgs; ++K)
    if (movesData(Types[K]) && (Types[K] & MapFrom))
      Bytes += Sizes[K];
  return Bytes;
}

std::vector<void *> DeviceArgs::hostParams() const {
  std::vector<void *> Params;
  for (unsigned K = 0; K < Args.NumArgs; ++K)
    if (Types[K] & MapTargetParam)
      Params.push_back(arrayBase(K)); // as libomptarget passes it
  return Params;
}

std::optional<unsigned> claimEntry(const KernelArgs &Args, const void *Ptr,
                                   std::vector<bool> &Claimed) {
  for (unsigned K = 0; K < Args.NumArgs; ++K)
    if (!Claimed[K] && Args.ArgPtrs[K] == Ptr) {
      Claimed[K] = true;
      return K;
    }
  return std::nullopt;
}

std::optional<unsigned> claimItemEntry(int32_t N, void *const *BasePtrs,
                                       void *const *Ptrs, const int64_t *Sizes,
                                       const int64_t *Types, const void *Base,
                                       const void *First,
                                       std::vector<bool> &Claimed) {
  auto Claim = [&](int32_t K) {
    Claimed[K] = true;
    return std::optional<unsigned>(static_cast<unsigned>(K));
  };
  for (int32_t K = 0; K < N; ++K)
    if (!Claimed[K] &&
        ((Types[K] & MapNonContig) ? BasePtrs[K] == Base : Ptrs[K] == First))
      return Claim(K);
  for (int32_t K = 0; K < N; ++K)
    if (!Claimed[K] && !(Types[K] & MapNonContig) &&
        (BasePtrs[K] == Base ||
         (passesPointer(Types[K], BasePtrs[K]) &&
          *static_cast<void *const *>(BasePtrs[K]) == Base)) &&
        Ptrs[K] <= First &&
        static_cast<const char *>(Ptrs[K]) + Sizes[K] >
            static_cast<const char *>(First))
      return Claim(K);
  return std::nullopt;
}

} // namespace homp
