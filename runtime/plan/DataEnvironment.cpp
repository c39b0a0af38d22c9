//===-- DataEnvironment.cpp - Arrays resident on devices ------------------===//

#include "homp/DataEnvironment.h"

#include <algorithm>

namespace homp {

bool CopyCurrency::changedOn(unsigned P, unsigned Positions) {
  bool Changed = stale(P);
  for (unsigned Q = 0; Q < Positions; ++Q)
    Changed |= Q != P && !stale(Q);
  Stale.assign(Positions, 1);
  if (P < Positions)
    Stale[P] = 0;
  return Changed;
}

bool CopyCurrency::updatedOnly(const std::vector<bool> &Listed) {
  // The listed copies were brought up to date before the update
  // (staleAmong, refreshed); an update of no copy changes none.
  if (std::find(Listed.begin(), Listed.end(), true) == Listed.end())
    return false;
  bool Changed = false;
  Stale.resize(Listed.size(), 0);
  for (unsigned P = 0; P < Listed.size(); ++P)
    if (!Listed[P] && !Stale[P]) {
      Stale[P] = 1;
      Changed = true;
    }
  return Changed;
}

unsigned CopyCurrency::current() const {
  for (unsigned P = 0; P < Stale.size(); ++P)
    if (!Stale[P])
      return P;
  return 0;
}

std::vector<unsigned>
CopyCurrency::staleAmong(const std::vector<bool> &Wanted) const {
  std::vector<unsigned> Out;
  for (unsigned P = 0; P < Stale.size() && P < Wanted.size(); ++P)
    if (Stale[P] && Wanted[P])
      Out.push_back(P);
  return Out;
}

uintptr_t ResidentArray::hostBegin() const {
  Range S = Dist.Shape.span(ProductSet::of(Dist.Shape.Section));
  return reinterpret_cast<uintptr_t>(HostBase) +
         S.Begin * Dist.Shape.ElementSize;
}

uintptr_t ResidentArray::hostEnd() const {
  Range S = Dist.Shape.span(ProductSet::of(Dist.Shape.Section));
  return reinterpret_cast<uintptr_t>(HostBase) + S.End * Dist.Shape.ElementSize;
}

void *ResidentArray::deviceAddress(unsigned Position, const void *Host) const {
  if (!Storage[Position])
    return const_cast<void *>(Host);
  // Storage holds the element at offset Spans[P].Begin; any other host
  // address keeps its distance from it.
  intptr_t FromBase = static_cast<const char *>(Host) - HostBase;
  intptr_t FromStorage =
      FromBase - Spans[Position].Begin * Dist.Shape.ElementSize;
  return static_cast<char *>(Storage[Position]) + FromStorage;
}

ResidentArray *ResidentTable::find(const void *Addr) const {
  uintptr_t A = reinterpret_cast<uintptr_t>(Addr);
  auto It = Arrays.upper_bound(A);
  if (It == Arrays.begin())
    return nullptr;
  ResidentArray *R = std::prev(It)->second.get();
  return A < R->hostEnd() || A == R->hostBegin() ? R : nullptr;
}

ResidentArray *ResidentTable::findByBase(const void *Base) const {
  for (const auto &[Begin, A] : Arrays)
    if (A->HostBase == Base)
      return A.get();
  return find(Base);
}

std::vector<ResidentArray *>
ResidentTable::findAllByBase(const void *Base) const {
  std::vector<ResidentArray *> Out;
  for (const auto &[Begin, A] : Arrays)
    if (A->HostBase == Base)
      Out.push_back(A.get());
  if (Out.empty())
    if (ResidentArray *A = find(Base))
      Out.push_back(A);
  return Out;
}

ResidentArray *ResidentTable::insert(std::unique_ptr<ResidentArray> A) {
  uintptr_t B = A->hostBegin(), E = std::max(A->hostEnd(), B + 1);
  auto Next = Arrays.lower_bound(B);
  if (Next != Arrays.end() && Next->first < E)
    return nullptr;
  if (Next != Arrays.begin() &&
      std::max(std::prev(Next)->second->hostEnd(), std::prev(Next)->first + 1) >
          B)
    return nullptr;
  A->RefCount = 1;
  A->Id = ++LastId;
  ResidentArray *R = A.get();
  Arrays.emplace(B, std::move(A));
  return R;
}

std::unique_ptr<ResidentArray> ResidentTable::take(ResidentArray *A) {
  auto It = Arrays.find(A->hostBegin());
  if (It == Arrays.end() || It->second.get() != A)
    return nullptr;
  std::unique_ptr<ResidentArray> Out = std::move(It->second);
  Arrays.erase(It);
  return Out;
}

bool LabelledSplit::indices(unsigned K, int Id, IndexSet &Out) const {
  if (K >= Indices.size())
    return false;
  auto It = std::find(Devices.begin(), Devices.end(), Id);
  if (It == Devices.end()) {
    Out = IndexSet();
    return true;
  }
  const auto Position = static_cast<unsigned>(It - Devices.begin());
  if (Memory && K == MemoryLoop) {
    Out = indicesOf(MemoryBounds, Memory->owned(Position));
    return true;
  }
  Out = Indices[K][Position];
  return true;
}

} // namespace homp
