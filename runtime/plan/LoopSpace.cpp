//===-- LoopSpace.cpp - Iterations of a canonical loop --------------------===//

#include "homp/LoopSpace.h"

#include <algorithm>

namespace homp {

using Wide = __int128;

static Wide ceilDiv(Wide A, Wide B) { // B > 0
  return A >= 0 ? (A + B - 1) / B : -((-A) / B);
}

static Wide floorDiv(Wide A, Wide B) { // B > 0
  return A >= 0 ? A / B : -((-A + B - 1) / B);
}

std::optional<int64_t> tripCount(const LoopBounds &L) {
  Wide First = L.First, Bound = L.Bound, Step = L.Step;
  switch (L.Op) {
  case CompareOp::Less:
    if (Step <= 0)
      return std::nullopt;
    return First < Bound ? static_cast<int64_t>(ceilDiv(Bound - First, Step))
                         : 0;
  case CompareOp::LessEqual:
    if (Step <= 0)
      return std::nullopt;
    return First <= Bound ? static_cast<int64_t>((Bound - First) / Step + 1)
                          : 0;
  case CompareOp::Greater:
    if (Step >= 0)
      return std::nullopt;
    return First > Bound ? static_cast<int64_t>(ceilDiv(First - Bound, -Step))
                         : 0;
  case CompareOp::GreaterEqual:
    if (Step >= 0)
      return std::nullopt;
    return First >= Bound ? static_cast<int64_t>((First - Bound) / -Step + 1)
                          : 0;
  case CompareOp::NotEqual:
    // OpenMP allows != only with a unit step.
    if (Step == 1 && First <= Bound)
      return static_cast<int64_t>(Bound - First);
    if (Step == -1 && First >= Bound)
      return static_cast<int64_t>(First - Bound);
    return std::nullopt;
  }
  return std::nullopt;
}

Range iterationsIn(const LoopBounds &L, int64_t Trip, Range Indices) {
  if (Indices.empty() || Trip <= 0)
    return {0, 0};
  Wide First = L.First, Lo = Indices.Begin, Hi = Indices.End;
  Wide Begin, End;
  if (L.Step > 0) {
    Begin = ceilDiv(Lo - First, L.Step);
    End = ceilDiv(Hi - First, L.Step);
  } else {
    Wide S = -static_cast<Wide>(L.Step);
    Begin = floorDiv(First - Hi, S) + 1;
    End = floorDiv(First - Lo, S) + 1;
  }
  // Clamp before narrowing: the quotients may not fit in 64 bits.
  int64_t B = static_cast<int64_t>(std::clamp<Wide>(Begin, 0, Trip));
  int64_t E = static_cast<int64_t>(std::clamp<Wide>(End, 0, Trip));
  return {B, std::max(B, E)};
}

IndexSet iterationsIn(const LoopBounds &L, int64_t Trip,
                      const IndexSet &Indices) {
  std::vector<Range> Its;
  for (const Range &R : Indices.ranges())
    Its.push_back(iterationsIn(L, Trip, R));
  // Iterations run in index order only for a positive step.
  if (L.Step < 0)
    std::reverse(Its.begin(), Its.end());
  IndexSet Out;
  for (const Range &R : Its)
    Out.add(R);
  return Out;
}

Range indexRange(const LoopBounds &L, Range K) {
  if (K.empty())
    return {0, 0};
  int64_t A = indexOf(L, K.Begin), B = indexOf(L, K.End - 1);
  return {std::min(A, B), std::max(A, B) + 1};
}

IndexSet indicesOf(const LoopBounds &L, const IndexSet &Iterations) {
  std::vector<Range> Idx;
  for (const Range &R : Iterations.ranges())
    Idx.push_back(indexRange(L, R));
  if (L.Step < 0)
    std::reverse(Idx.begin(), Idx.end());
  // Hulls of neighbouring runs may overlap when |step| > 1.
  std::sort(Idx.begin(), Idx.end(), [](const Range &A, const Range &B) {
    return A.Begin < B.Begin;
  });
  IndexSet Out;
  for (const Range &R : Idx)
    Out.add(R);
  return Out;
}

abi::ChunkLoop chunkOf(const LoopBounds &L, int64_t Trip, const Strided &Run) {
  int64_t First = indexOf(L, Run.Begin);
  int64_t Step = L.Step * Run.Stride;
  int64_t LastK = Run.last();
  int64_t Last = indexOf(L, LastK);
  bool ToEnd = Run.Stride == 1 && LastK + 1 == Trip;
  int64_t Bound = 0;
  switch (L.Op) {
  case CompareOp::Less:
    Bound = ToEnd ? L.Bound : Last + 1;
    break;
  case CompareOp::Greater:
    Bound = ToEnd ? L.Bound : Last - 1;
    break;
  case CompareOp::LessEqual:
  case CompareOp::GreaterEqual:
    Bound = Last;
    break;
  case CompareOp::NotEqual:
    // '!=' stops only on the bound itself: one chunk step past the last.
    Bound = ToEnd ? L.Bound : Last + Step;
    break;
  }
  return abi::chunkLoop(First, Bound, Step);
}

bool LoopNest::computeTrips(unsigned &Bad) {
  for (unsigned I = 0; I < Rank; ++I) {
    std::optional<int64_t> T = tripCount(Loops[I]);
    if (!T) {
      Bad = I;
      return false;
    }
    Trips[I] = *T;
  }
  return true;
}

int64_t LoopNest::iterations() const {
  int64_t N = 1;
  for (unsigned I = 0; I < Rank; ++I)
    N *= Trips[I];
  return N;
}

ProductSet LoopNest::all() const {
  ProductSet P;
  P.Rank = Rank;
  for (unsigned I = 0; I < Rank; ++I)
    P.Dims[I] = IndexSet(Range{0, Trips[I]});
  return P;
}

} // namespace homp
