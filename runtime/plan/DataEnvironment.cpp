//===-- DataEnvironment.cpp - Arrays resident on devices ------------------===//

#include "homp/DataEnvironment.h"

#include <algorithm>

namespace homp {

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
  Out = Indices[K][It - Devices.begin()];
  return true;
}

} // namespace homp
