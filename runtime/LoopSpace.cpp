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

void chunkBounds(const LoopBounds &L, int64_t Trip, Range K, int64_t &First,
                 int64_t &Bound) {
  First = indexOf(L, K.Begin);
  switch (L.Op) {
  case CompareOp::Less:
  case CompareOp::Greater:
  case CompareOp::NotEqual:
    Bound = K.End >= Trip ? L.Bound : indexOf(L, K.End);
    return;
  case CompareOp::LessEqual:
  case CompareOp::GreaterEqual:
    Bound = indexOf(L, K.End - 1);
    return;
  }
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

Range indexRange(const LoopBounds &L, Range K) {
  if (K.empty())
    return {0, 0};
  int64_t A = indexOf(L, K.Begin), B = indexOf(L, K.End - 1);
  return {std::min(A, B), std::max(A, B) + 1};
}

} // namespace homp
