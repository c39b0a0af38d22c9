//===-- KernelPlanCache.cpp - Plans reused while their input stays --------===//

#include "homp/KernelPlan.h"

namespace homp {

namespace {

bool sameShape(const ArrayShape &A, const ArrayShape &B) {
  // Bound by bound: Box's and Range's == take any two empty ones as equal.
  return A.Rank == B.Rank && A.ElementSize == B.ElementSize &&
         A.Extent == B.Extent && A.Section.Rank == B.Section.Rank &&
         std::equal(A.Section.Dims.begin(), A.Section.Dims.end(),
                    B.Section.Dims.begin(), [](const Range &X, const Range &Y) {
                      return X.Begin == Y.Begin && X.End == Y.End;
                    });
}

bool sameNest(const LoopNest &A, const LoopNest &B) {
  if (A.Rank != B.Rank)
    return false;
  for (unsigned L = 0; L < A.Rank; ++L) {
    const LoopBounds &X = A.Loops[L], &Y = B.Loops[L];
    if (X.First != Y.First || X.Bound != Y.Bound || X.Step != Y.Step ||
        X.Op != Y.Op)
      return false;
  }
  return true;
}

} // namespace

bool samePlanInput(const KernelPlanInput &A, const KernelPlanInput &B) {
  auto SameResidents = [](const auto &X, const auto &Y) {
    return X.size() == Y.size() &&
           std::equal(X.begin(), X.end(), Y.begin(), [](auto &P, auto &Q) {
             if constexpr (std::is_pointer_v<std::decay_t<decltype(P)>>)
               return P == Q;
             else
               return P.Dist == Q.Dist;
           });
  };
  return A.Desc == B.Desc && A.Devices == B.Devices && A.Topo == B.Topo &&
         sameNest(A.Nest, B.Nest) && A.LoopBlocks == B.LoopBlocks &&
         A.ItemShapes.size() == B.ItemShapes.size() &&
         std::equal(A.ItemShapes.begin(), A.ItemShapes.end(),
                    B.ItemShapes.begin(), sameShape) &&
         A.ItemBlocks == B.ItemBlocks && A.ItemOwnDevices == B.ItemOwnDevices &&
         SameResidents(A.ItemResidents, B.ItemResidents) &&
         SameResidents(A.AccessResidents, B.AccessResidents) &&
         A.Accesses == B.Accesses && A.Scheduled == B.Scheduled;
}

std::shared_ptr<const KernelPlan>
KernelPlanCache::find(const KernelPlanInput &In,
                      const std::vector<uint64_t> &ResidentIds) {
  std::lock_guard<std::mutex> Lock(M);
  if (Plan && Ids == ResidentIds && samePlanInput(Input, In))
    return Plan;
  return nullptr;
}

void KernelPlanCache::store(const KernelPlanInput &In,
                            std::vector<uint64_t> ResidentIds,
                            std::shared_ptr<const KernelPlan> P) {
  std::lock_guard<std::mutex> Lock(M);
  Input = In;
  Input.LabelIndices = nullptr; // not kept: the data regions own it
  Ids = std::move(ResidentIds);
  Plan = std::move(P);
}

} // namespace homp
