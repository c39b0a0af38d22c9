//===-- homp/LoopSpace.h - Iterations of a canonical loop -------*- C++ -*-===//
//
// A distributed loop 'for (i = First; i OP Bound; i += Step)' as libhomp sees
// it: iteration k (0 <= k < trip count) has index First + k * Step. Devices get
// contiguous ranges of iterations.
//
//===----------------------------------------------------------------------===//

#ifndef HOMP_LOOPSPACE_H
#define HOMP_LOOPSPACE_H

#include "homp/Partition.h"
#include "homp/RegionDescriptor.h"

#include <optional>

namespace homp {

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

/// The first value and the test bound of a loop running iterations [K.Begin,
/// K.End) of L, whose trip count is Trip; K must not be empty. Written with
/// L's comparison, they only take values of indices L itself reaches (or L's
/// own bound), so they fit the loop variable's type.
void chunkBounds(const LoopBounds &L, int64_t Trip, Range K, int64_t &First,
                 int64_t &Bound);

/// The iterations of [0, Trip) whose index lies in [Lo, Hi), a contiguous
/// range (possibly empty).
Range iterationsIn(const LoopBounds &L, int64_t Trip, Range Indices);

/// The smallest range of indices holding the indices of iterations K.
Range indexRange(const LoopBounds &L, Range K);

} // namespace homp

#endif // HOMP_LOOPSPACE_H
