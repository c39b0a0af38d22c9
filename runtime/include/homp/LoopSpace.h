//===-- homp/LoopSpace.h - Iterations of a canonical loop -------*- C++ -*-===//
//
// A distributed loop 'for (i = First; i OP Bound; i += Step)' as libhomp sees
// it: iteration k (0 <= k < trip count) has index First + k * Step. A nest
// of collapsed loops has one such loop per dimension, bounds independent of
// each other.
//
//===----------------------------------------------------------------------===//

#ifndef HOMP_LOOPSPACE_H
#define HOMP_LOOPSPACE_H

#include "homp/Abi.h"
#include "homp/IndexSet.h"

#include <optional>

namespace homp {

using abi::CompareOp;

struct LoopBounds {
  int64_t First = 0;
  int64_t Bound = 0;
  int64_t Step = 1;
  CompareOp Op = CompareOp::Less;
};

/// The number of iterations, or std::nullopt when the step is zero or goes
/// the wrong way for the comparison (the loop would not terminate).
std::optional<int64_t> tripCount(const LoopBounds &L);

/// The index of iteration K.
inline int64_t indexOf(const LoopBounds &L, int64_t K) {
  return L.First + K * L.Step;
}

/// The iterations of [0, Trip) whose index lies in Indices, a contiguous
/// range (possibly empty).
Range iterationsIn(const LoopBounds &L, int64_t Trip, Range Indices);
/// The same for every range of a set.
IndexSet iterationsIn(const LoopBounds &L, int64_t Trip,
                      const IndexSet &Indices);

/// The smallest range of indices holding the indices of iterations K.
Range indexRange(const LoopBounds &L, Range K);
/// The same for every range of a set of iterations (sorted by index).
IndexSet indicesOf(const LoopBounds &L, const IndexSet &Iterations);

/// The chunk that makes the loop run exactly the iterations of Run (a
/// non-empty run of [0, Trip)): 'for (i = First; i OP Bound; i += Step)'.
/// First and Bound only take values the loop's own indices or bound take,
/// or one past an index it reaches, so they fit the loop variable's type;
/// except for '!=' with a Stride above 1, whose Bound is one chunk step past
/// the run's last index (planKernel launches '!=' loops in unit strides).
abi::ChunkLoop chunkOf(const LoopBounds &L, int64_t Trip, const Strided &Run);

/// A nest of collapsed loops, outermost first.
struct LoopNest {
  unsigned Rank = 1;
  std::array<LoopBounds, abi::MaxLoops> Loops{};
  std::array<int64_t, abi::MaxLoops> Trips{};

  /// Fills Trips; false when a loop would not terminate (its index in Bad).
  bool computeTrips(unsigned &Bad);
  int64_t iterations() const;
  /// Every iteration of the nest.
  ProductSet all() const;
};

} // namespace homp

#endif // HOMP_LOOPSPACE_H
