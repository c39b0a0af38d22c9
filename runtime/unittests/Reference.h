//===-- Reference.h - What the core computes, the plain way -----*- C++ -*-===//
//
// What the runtime computes, worked out the plain way: loops are run
// literally, sets are lists of their indices, BLOCK splits are taken from the
// papers' hand-written code, CYCLIC splits are dealt one index at a time.
//
//===----------------------------------------------------------------------===//

#ifndef HOMP_UNITTESTS_REFERENCE_H
#define HOMP_UNITTESTS_REFERENCE_H

#include "homp/IndexSet.h"
#include "homp/LoopSpace.h"

#include <cstdint>
#include <optional>
#include <ostream>
#include <random>
#include <set>
#include <vector>

namespace homp {

// How GoogleTest prints the core's geometry in failure messages.
inline void PrintTo(const Range &R, std::ostream *OS) {
  *OS << "[" << R.Begin << ", " << R.End << ")";
}
inline void PrintTo(const IndexSet &S, std::ostream *OS) { *OS << S.str(); }
inline void PrintTo(const Box &B, std::ostream *OS) {
  *OS << (B.Rank ? B.str() : "<rank 0>");
}
inline void PrintTo(const ProductSet &S, std::ostream *OS) {
  *OS << (S.Rank ? S.str() : "<rank 0>");
}
inline void PrintTo(const Strided &S, std::ostream *OS) {
  *OS << "{" << S.Begin << " +" << S.Stride << " x" << S.Count << "}";
}

namespace reference {

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

inline std::optional<std::vector<int64_t>> runLoop(const LoopBounds &L,
                                                   size_t Limit = 100000) {
  return runLoop(L.First, L.Op, L.Bound, L.Step, Limit);
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

/// The part that index I of [0, N) goes to when blocks of Block indices are
/// dealt round-robin to Parts parts, one block at a time.
inline unsigned cyclicOwner(int64_t I, int64_t Block, unsigned Parts) {
  return static_cast<unsigned>((I / Block) % Parts);
}

/// The part of the hand-written BLOCK split of [0, N) that holds I.
inline unsigned blockOwner(int64_t I, int64_t N, unsigned Parts) {
  for (unsigned P = 0; P < Parts; ++P)
    if (handWrittenBlock(N, Parts, P).contains(I))
      return P;
  return Parts;
}

/// Every index of S, ascending.
inline std::vector<int64_t> members(const IndexSet &S) {
  std::vector<int64_t> M;
  for (const Range &R : S.ranges())
    for (int64_t I = R.Begin; I < R.End; ++I)
      M.push_back(I);
  return M;
}

/// The set of the given indices (any order, repeats allowed), built one
/// index at a time.
inline IndexSet setOf(const std::set<int64_t> &Indices) {
  IndexSet S;
  for (int64_t I : Indices)
    S.add({I, I + 1});
  return S;
}

/// The indices Base + b for every bit b set in Mask.
inline std::set<int64_t> bitsOf(uint64_t Mask, int64_t Base = 0) {
  std::set<int64_t> M;
  for (int64_t B = 0; B < 64; ++B)
    if (Mask >> B & 1)
      M.insert(Base + B);
  return M;
}

inline IndexSet maskSet(uint64_t Mask, int64_t Base = 0) {
  return setOf(bitsOf(Mask, Base));
}

/// Whether S keeps the representation IndexSet promises: sorted, disjoint,
/// non-adjacent, non-empty ranges.
inline bool wellFormed(const IndexSet &S) {
  const std::vector<Range> &R = S.ranges();
  for (size_t I = 0; I < R.size(); ++I) {
    if (R[I].empty())
      return false;
    if (I && R[I].Begin <= R[I - 1].End)
      return false;
  }
  return true;
}

/// Every point of a product set, in row-major order.
inline std::vector<std::vector<int64_t>> points(const ProductSet &S) {
  std::vector<std::vector<int64_t>> Out;
  if (S.Rank == 0)
    return Out;
  std::vector<int64_t> P(S.Rank);
  std::vector<std::vector<int64_t>> Dims;
  for (unsigned D = 0; D < S.Rank; ++D)
    Dims.push_back(members(S.Dims[D]));
  std::vector<size_t> At(S.Rank, 0);
  for (unsigned D = 0; D < S.Rank; ++D)
    if (Dims[D].empty())
      return Out;
  while (true) {
    for (unsigned D = 0; D < S.Rank; ++D)
      P[D] = Dims[D][At[D]];
    Out.push_back(P);
    unsigned D = S.Rank;
    while (D > 0 && ++At[D - 1] == Dims[D - 1].size())
      At[--D] = 0;
    if (D == 0)
      return Out;
  }
}

inline std::vector<std::vector<int64_t>> points(const Box &B) {
  return points(ProductSet::of(B));
}

/// Whether the point lies in S, asked one dimension at a time.
inline bool inSet(const ProductSet &S, const std::vector<int64_t> &P) {
  if (S.Rank == 0)
    return false;
  for (unsigned D = 0; D < S.Rank; ++D)
    if (!S.Dims[D].contains(P[D]))
      return false;
  return true;
}

inline bool inBox(const Box &B, const std::vector<int64_t> &P) {
  if (B.Rank == 0)
    return false;
  for (unsigned D = 0; D < B.Rank; ++D)
    if (!(B.Dims[D].Begin <= P[D] && P[D] < B.Dims[D].End))
      return false;
  return true;
}

/// A reproducible source of random test inputs.
class Random {
public:
  explicit Random(uint32_t Seed) : Gen(Seed) {}
  int64_t between(int64_t Lo, int64_t Hi) { // inclusive
    return std::uniform_int_distribution<int64_t>(Lo, Hi)(Gen);
  }
  uint64_t bits(unsigned N) {
    return std::uniform_int_distribution<uint64_t>(0,
                                                   (uint64_t(1) << N) - 1)(Gen);
  }

private:
  std::mt19937 Gen;
};

} // namespace reference
} // namespace homp

#endif // HOMP_UNITTESTS_REFERENCE_H
