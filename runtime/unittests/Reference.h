//===-- Reference.h - Independent references for the runtime tests -*- C++
//-*-===//
//
// What the runtime computes, worked out the plain way: loops are run
// literally, BLOCK splits are taken from the papers' hand-written code.
//
//===----------------------------------------------------------------------===//

#ifndef HOMP_UNITTESTS_REFERENCE_H
#define HOMP_UNITTESTS_REFERENCE_H

#include "homp/Partition.h"
#include "homp/RegionDescriptor.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace homp::reference {

inline const char *opName(CompareOp Op) {
  switch (Op) {
  case CompareOp::Less:
    return "<";
  case CompareOp::LessEqual:
    return "<=";
  case CompareOp::Greater:
    return ">";
  case CompareOp::GreaterEqual:
    return ">=";
  case CompareOp::NotEqual:
    return "!=";
  }
  return "?";
}

/// 'I OP Bound', without overflow.
inline bool holds(__int128 I, CompareOp Op, __int128 Bound) {
  switch (Op) {
  case CompareOp::Less:
    return I < Bound;
  case CompareOp::LessEqual:
    return I <= Bound;
  case CompareOp::Greater:
    return I > Bound;
  case CompareOp::GreaterEqual:
    return I >= Bound;
  case CompareOp::NotEqual:
    return I != Bound;
  }
  return false;
}

/// Runs 'for (i = First; i OP Bound; i += Step)' and returns the indices it
/// visits, or std::nullopt when it runs more than Limit iterations.
inline std::optional<std::vector<int64_t>> runLoop(int64_t First, CompareOp Op,
                                                   int64_t Bound, int64_t Step,
                                                   size_t Limit = 100000) {
  std::vector<int64_t> Visited;
  for (__int128 I = First; holds(I, Op, Bound); I += Step) {
    if (Visited.size() == Limit)
      return std::nullopt;
    Visited.push_back(static_cast<int64_t>(I));
  }
  return Visited;
}

/// Part D of [0, N) over Devices devices as the hand-written axpy_mdev_v1 of
/// PMAM'15 Figure 1 computes it.
inline Range handWrittenBlock(int64_t N, unsigned Devices, unsigned D) {
  if (N <= 0)
    return {0, 0};
  int64_t Rem = N % Devices, Size = N / Devices, PSize, Start;
  if (D < Rem) {
    PSize = Size + 1;
    Start = PSize * D;
  } else {
    PSize = Size;
    Start = Size * D + Rem;
  }
  return {Start, Start + PSize};
}

} // namespace homp::reference

#endif // HOMP_UNITTESTS_REFERENCE_H
