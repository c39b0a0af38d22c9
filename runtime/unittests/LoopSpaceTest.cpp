//===-- LoopSpaceTest.cpp - Iterations of a canonical loop ----------------===//
//
// Checks tripCount, chunkOf, iterationsIn, indexRange, indicesOf and LoopNest
// against loops that the test runs literally, one iteration at a time.
//
//===----------------------------------------------------------------------===//

#include "homp/LoopSpace.h"

#include "Reference.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <optional>
#include <set>
#include <string>
#include <vector>

using namespace homp;
using namespace homp::reference;

namespace {

constexpr int64_t Min64 = std::numeric_limits<int64_t>::min();
constexpr int64_t Max64 = std::numeric_limits<int64_t>::max();

const CompareOp AllOps[] = {CompareOp::Less, CompareOp::LessEqual,
                            CompareOp::Greater, CompareOp::GreaterEqual,
                            CompareOp::NotEqual};

std::string describe(const LoopBounds &L) {
  return "for (i = " + std::to_string(L.First) + "; i " + opName(L.Op) + " " +
         std::to_string(L.Bound) + "; i += " + std::to_string(L.Step) + ")";
}

/// The reference trip count: std::nullopt for a zero step, a step going the
/// wrong way for the comparison, or '!=' with a step other than +-1 (OpenMP
/// canonical loop form); otherwise the number of iterations the loop runs.
std::optional<int64_t> referenceTrip(const LoopBounds &L) {
  bool Up = L.Op == CompareOp::Less || L.Op == CompareOp::LessEqual;
  bool Down = L.Op == CompareOp::Greater || L.Op == CompareOp::GreaterEqual;
  if (L.Step == 0 || (Up && L.Step < 0) || (Down && L.Step > 0))
    return std::nullopt;
  if (L.Op == CompareOp::NotEqual) {
    if (L.Step != 1 && L.Step != -1)
      return std::nullopt;
    if ((L.Step == 1 && L.First > L.Bound) ||
        (L.Step == -1 && L.First < L.Bound))
      return std::nullopt;
  }
  std::optional<std::vector<int64_t>> Visited = runLoop(L, 1000);
  if (!Visited)
    return std::nullopt;
  return static_cast<int64_t>(Visited->size());
}

/// Every loop of the brute-force grid: First, Bound in [-10, 10], Step in
/// [-3, 3] (zero included, so invalid loops are there too), every operator.
std::vector<LoopBounds> gridLoops() {
  std::vector<LoopBounds> Loops;
  for (CompareOp Op : AllOps)
    for (int64_t Step = -3; Step <= 3; ++Step)
      for (int64_t First = -10; First <= 10; ++First)
        for (int64_t Bound = -10; Bound <= 10; ++Bound)
          Loops.push_back({First, Bound, Step, Op});
  return Loops;
}

LoopBounds loop(int64_t First, CompareOp Op, int64_t Bound, int64_t Step) {
  return {First, Bound, Step, Op};
}

} // namespace

//===----------------------------------------------------------------------===//
// tripCount
//===----------------------------------------------------------------------===//

TEST(TripCount, ConcreteLoops) {
  // for (i = 0; i < 10; ++i) and friends.
  EXPECT_EQ(tripCount(loop(0, CompareOp::Less, 10, 1)), 10);
  EXPECT_EQ(tripCount(loop(0, CompareOp::LessEqual, 10, 1)), 11);
  EXPECT_EQ(tripCount(loop(10, CompareOp::Greater, 0, -1)), 10);
  EXPECT_EQ(tripCount(loop(10, CompareOp::GreaterEqual, 0, -1)), 11);
  EXPECT_EQ(tripCount(loop(0, CompareOp::NotEqual, 10, 1)), 10);
  EXPECT_EQ(tripCount(loop(10, CompareOp::NotEqual, 0, -1)), 10);
  // Steps greater than one: 0 3 6 9 / 0 3 6 9 / 10 7 4 1 / 10 7 4 1.
  EXPECT_EQ(tripCount(loop(0, CompareOp::Less, 10, 3)), 4);
  EXPECT_EQ(tripCount(loop(0, CompareOp::LessEqual, 9, 3)), 4);
  EXPECT_EQ(tripCount(loop(0, CompareOp::Less, 9, 3)), 3);
  EXPECT_EQ(tripCount(loop(10, CompareOp::Greater, 0, -3)), 4);
  EXPECT_EQ(tripCount(loop(10, CompareOp::GreaterEqual, 1, -3)), 4);
  EXPECT_EQ(tripCount(loop(10, CompareOp::Greater, 1, -3)), 3);
  // Negative ranges.
  EXPECT_EQ(tripCount(loop(-7, CompareOp::Less, -2, 2)), 3);
  EXPECT_EQ(tripCount(loop(-2, CompareOp::GreaterEqual, -7, -2)), 3);
}

TEST(TripCount, EmptyLoops) {
  EXPECT_EQ(tripCount(loop(5, CompareOp::Less, 5, 1)), 0);
  EXPECT_EQ(tripCount(loop(6, CompareOp::Less, 5, 1)), 0);
  EXPECT_EQ(tripCount(loop(6, CompareOp::LessEqual, 5, 2)), 0);
  EXPECT_EQ(tripCount(loop(5, CompareOp::Greater, 5, -1)), 0);
  EXPECT_EQ(tripCount(loop(4, CompareOp::GreaterEqual, 5, -3)), 0);
  EXPECT_EQ(tripCount(loop(5, CompareOp::NotEqual, 5, 1)), 0);
  EXPECT_EQ(tripCount(loop(5, CompareOp::NotEqual, 5, -1)), 0);
}

TEST(TripCount, InvalidSteps) {
  for (CompareOp Op : AllOps)
    EXPECT_EQ(tripCount(loop(0, Op, 10, 0)), std::nullopt) << opName(Op);
  // The step goes away from the bound.
  EXPECT_EQ(tripCount(loop(0, CompareOp::Less, 10, -1)), std::nullopt);
  EXPECT_EQ(tripCount(loop(0, CompareOp::LessEqual, 10, -2)), std::nullopt);
  EXPECT_EQ(tripCount(loop(10, CompareOp::Greater, 0, 1)), std::nullopt);
  EXPECT_EQ(tripCount(loop(10, CompareOp::GreaterEqual, 0, 3)), std::nullopt);
  EXPECT_EQ(tripCount(loop(10, CompareOp::NotEqual, 0, 1)), std::nullopt);
  EXPECT_EQ(tripCount(loop(0, CompareOp::NotEqual, 10, -1)), std::nullopt);
  // '!=' only with a unit step, even when the step would hit the bound.
  EXPECT_EQ(tripCount(loop(0, CompareOp::NotEqual, 10, 2)), std::nullopt);
  EXPECT_EQ(tripCount(loop(10, CompareOp::NotEqual, 0, -2)), std::nullopt);
  EXPECT_EQ(tripCount(loop(0, CompareOp::NotEqual, 9, 3)), std::nullopt);
}

TEST(TripCount, NearInt64Limits) {
  EXPECT_EQ(tripCount(loop(0, CompareOp::Less, Max64, 1)), Max64);
  EXPECT_EQ(tripCount(loop(Min64 + 1, CompareOp::Less, 0, 1)), Max64);
  EXPECT_EQ(tripCount(loop(Max64 - 10, CompareOp::LessEqual, Max64, 3)), 4);
  EXPECT_EQ(tripCount(loop(Max64 - 10, CompareOp::Less, Max64, 4)), 3);
  EXPECT_EQ(tripCount(loop(Max64 - 3, CompareOp::NotEqual, Max64, 1)), 3);
  EXPECT_EQ(tripCount(loop(Min64, CompareOp::LessEqual, Min64 + 3, 1)), 4);
  EXPECT_EQ(tripCount(loop(Max64, CompareOp::GreaterEqual, Max64 - 2, -1)), 3);
  EXPECT_EQ(tripCount(loop(Min64 + 10, CompareOp::Greater, Min64, -4)), 3);
  EXPECT_EQ(tripCount(loop(Min64 + 3, CompareOp::NotEqual, Min64, -1)), 3);
  // The whole int64 range with steps of 2^62: Min, Min+2^62, 0, 2^62.
  int64_t Q = int64_t(1) << 62;
  EXPECT_EQ(tripCount(loop(Min64, CompareOp::Less, Max64, Q)), 4);
  EXPECT_EQ(tripCount(loop(Min64, CompareOp::LessEqual, Max64, Q)), 4);
  EXPECT_EQ(tripCount(loop(Max64, CompareOp::Greater, Min64, -Q)), 4);
  EXPECT_EQ(tripCount(loop(Max64, CompareOp::GreaterEqual, Min64, -Q)), 4);
  // A huge step from near the bound: one iteration.
  EXPECT_EQ(tripCount(loop(Max64 - 1, CompareOp::Less, Max64, Max64)), 1);
  EXPECT_EQ(tripCount(loop(Min64 + 1, CompareOp::Greater, Min64, Min64)), 1);
}

TEST(TripCount, BruteForceGrid) {
  for (const LoopBounds &L : gridLoops())
    EXPECT_EQ(tripCount(L), referenceTrip(L)) << describe(L);
}

//===----------------------------------------------------------------------===//
// indexOf, chunkOf
//===----------------------------------------------------------------------===//

TEST(IndexOf, FirstPlusKSteps) {
  EXPECT_EQ(indexOf(loop(3, CompareOp::Less, 100, 7), 0), 3);
  EXPECT_EQ(indexOf(loop(3, CompareOp::Less, 100, 7), 5), 38);
  EXPECT_EQ(indexOf(loop(3, CompareOp::Greater, -100, -7), 5), -32);
}

namespace {

/// Whether V is a value the loop's variable takes anyway: one of its
/// indices, its bound, or one step of 1 past an index toward the bound.
bool fitsTheLoop(const LoopBounds &L, const std::vector<int64_t> &All,
                 int64_t V) {
  if (V == L.Bound)
    return true;
  for (int64_t I : All)
    if (V == I || V == I + (L.Step > 0 ? 1 : -1))
      return true;
  return false;
}

} // namespace

// Every strided run of the iterations of every loop of the grid: the chunk,
// run literally as 'for (i = First; i OP Bound; i += Step)' with the loop's
// comparison, visits exactly the indices of the run's iterations, in order.
TEST(ChunkOf, EveryStridedRunOfEveryLoop) {
  unsigned Checked = 0;
  for (const LoopBounds &L : gridLoops()) {
    std::optional<int64_t> Trip = referenceTrip(L);
    if (!Trip)
      continue;
    std::vector<int64_t> All = *runLoop(L, 1000);
    for (int64_t Begin = 0; Begin < *Trip; ++Begin)
      for (int64_t Stride = 1; Stride <= *Trip; ++Stride)
        for (int64_t Count = 1; Begin + (Count - 1) * Stride < *Trip; ++Count) {
          Strided Run{Begin, Count, Stride};
          homp::abi::ChunkLoop C = chunkOf(L, *Trip, Run);
          std::vector<int64_t> Expected;
          for (int64_t K = 0; K < Count; ++K)
            Expected.push_back(All[Begin + K * Stride]);
          std::optional<std::vector<int64_t>> Visited =
              runLoop(C.First, L.Op, C.Bound, C.Step, Count + 5);
          std::string What =
              describe(L) + " run {" + std::to_string(Begin) + " +" +
              std::to_string(Stride) + " x" + std::to_string(Count) +
              "}: chunk " + std::to_string(C.First) + " " + opName(L.Op) + " " +
              std::to_string(C.Bound) + " step " + std::to_string(C.Step);
          ASSERT_TRUE(Visited.has_value()) << What << " does not terminate";
          ASSERT_EQ(*Visited, Expected) << What;
          EXPECT_TRUE(fitsTheLoop(L, All, C.First)) << What;
          // '!=' reaches its bound only by a multiple of the chunk's step.
          if (L.Op != CompareOp::NotEqual || Stride == 1)
            EXPECT_TRUE(fitsTheLoop(L, All, C.Bound)) << What;
          ++Checked;
        }
  }
  EXPECT_GT(Checked, 100000u);
}

// The last run of a loop keeps the loop's own bound; the others stop one
// past their last index (or at it, for <= and >=).
TEST(ChunkOf, Concrete) {
  // for (i = 0; i < 10; i += 3): 0 3 6 9
  LoopBounds L = loop(0, CompareOp::Less, 10, 3);
  homp::abi::ChunkLoop C = chunkOf(L, 4, {2, 2, 1});
  EXPECT_EQ(C.First, 6);
  EXPECT_EQ(C.Bound, 10);
  EXPECT_EQ(C.Step, 3);
  C = chunkOf(L, 4, {0, 2, 1});
  EXPECT_EQ(C.First, 0);
  EXPECT_EQ(C.Bound, 4);
  // Every other iteration: 0 6 / 3 9.
  C = chunkOf(L, 4, {1, 2, 2});
  EXPECT_EQ(C.First, 3);
  EXPECT_EQ(C.Bound, 10);
  EXPECT_EQ(C.Step, 6);
  // for (i = 10; i >= 0; i -= 2): 10 8 6 4 2 0, iterations 1 and 4: 8 2.
  L = loop(10, CompareOp::GreaterEqual, 0, -2);
  C = chunkOf(L, 6, {1, 2, 3});
  EXPECT_EQ(C.First, 8);
  EXPECT_EQ(C.Bound, 2);
  EXPECT_EQ(C.Step, -6);
}

TEST(ChunkOf, NearInt64Limits) {
  // Max-10, Max-7, Max-4, Max-1.
  LoopBounds L = loop(Max64 - 10, CompareOp::LessEqual, Max64, 3);
  homp::abi::ChunkLoop C = chunkOf(L, 4, {2, 2, 1});
  EXPECT_EQ(C.First, Max64 - 4);
  EXPECT_EQ(C.Bound, Max64 - 1);
  C = chunkOf(L, 4, {0, 1, 1});
  EXPECT_EQ(C.First, Max64 - 10);
  EXPECT_EQ(C.Bound, Max64 - 10);
  C = chunkOf(L, 4, {0, 2, 3});
  EXPECT_EQ(C.First, Max64 - 10);
  EXPECT_EQ(C.Bound, Max64 - 1);
  EXPECT_EQ(C.Step, 9);
  // Max-10, Max-6, Max-2: the last chunk keeps the loop's own bound.
  L = loop(Max64 - 10, CompareOp::Less, Max64, 4);
  C = chunkOf(L, 3, {1, 2, 1});
  EXPECT_EQ(C.First, Max64 - 6);
  EXPECT_EQ(C.Bound, Max64);
  C = chunkOf(L, 3, {0, 2, 1});
  EXPECT_EQ(C.First, Max64 - 10);
  EXPECT_EQ(C.Bound, Max64 - 5);
  // Min+10, Min+6, Min+2 going down.
  L = loop(Min64 + 10, CompareOp::Greater, Min64, -4);
  C = chunkOf(L, 3, {2, 1, 1});
  EXPECT_EQ(C.First, Min64 + 2);
  EXPECT_EQ(C.Bound, Min64);
  L = loop(Min64 + 3, CompareOp::NotEqual, Min64, -1);
  C = chunkOf(L, 3, {0, 3, 1});
  EXPECT_EQ(C.First, Min64 + 3);
  EXPECT_EQ(C.Bound, Min64);
}

// A loop over a 32-bit variable reads the chunk's 32-bit copies: an unsigned
// loop above INT_MAX, run as the rewritten kernel runs it, visits the run's
// indices; the copies of an int loop's values are the values.
TEST(ChunkOf, ThirtyTwoBitCopies) {
  // for (unsigned u = 4000000000; u > 3999999980; u -= 3), every other
  // iteration from the second: 3999999997 3999999991 3999999985.
  LoopBounds L = loop(4000000000, CompareOp::Greater, 3999999980, -3);
  homp::abi::ChunkLoop C = chunkOf(L, 7, {1, 3, 2});
  std::vector<uint32_t> Visited;
  for (uint32_t U = static_cast<uint32_t>(C.First32);
       U > static_cast<uint32_t>(C.Bound32);
       U -= static_cast<uint32_t>(-static_cast<long long>(C.Step32)))
    Visited.push_back(U);
  EXPECT_EQ(Visited,
            (std::vector<uint32_t>{3999999997u, 3999999991u, 3999999985u}));
  C = chunkOf(loop(-5, CompareOp::LessEqual, 20, 2), 13, {3, 4, 1});
  EXPECT_EQ(C.First32, 1);
  EXPECT_EQ(C.Bound32, 7);
  EXPECT_EQ(C.Step32, 2);
}

//===----------------------------------------------------------------------===//
// iterationsIn
//===----------------------------------------------------------------------===//

// For every loop of the grid and every index range [Lo, Hi) (empty and
// inverted ones included), the result is exactly the set of iterations whose
// index lies in [Lo, Hi).
TEST(IterationsIn, BruteForceGrid) {
  for (const LoopBounds &L : gridLoops()) {
    std::optional<int64_t> Trip = referenceTrip(L);
    if (!Trip)
      continue;
    for (int64_t Lo = -15; Lo <= 15; ++Lo)
      for (int64_t Hi = -15; Hi <= 15; ++Hi) {
        std::vector<int64_t> Expected;
        for (int64_t K = 0; K < *Trip; ++K) {
          int64_t I = L.First + K * L.Step;
          if (Lo <= I && I < Hi)
            Expected.push_back(K);
        }
        Range R = iterationsIn(L, *Trip, {Lo, Hi});
        std::string What = describe(L) + " indices [" + std::to_string(Lo) +
                           ", " + std::to_string(Hi) + ")";
        if (Expected.empty()) {
          EXPECT_TRUE(R.empty())
              << What << " gave [" << R.Begin << ", " << R.End << ")";
          continue;
        }
        EXPECT_EQ(R.Begin, Expected.front()) << What;
        EXPECT_EQ(R.End, Expected.back() + 1) << What;
        EXPECT_EQ(R.size(), static_cast<int64_t>(Expected.size())) << What;
      }
  }
}

TEST(IterationsIn, ZeroTripLoop) {
  LoopBounds L = loop(5, CompareOp::Less, 5, 1);
  EXPECT_TRUE(iterationsIn(L, 0, {0, 10}).empty());
  EXPECT_TRUE(iterationsIn(L, 0, {Min64, Max64}).empty());
}

TEST(IterationsIn, LargeValues) {
  // Index ranges reaching the int64 limits, far from the loop's indices.
  LoopBounds L = loop(0, CompareOp::Less, 10, 1);
  EXPECT_EQ(iterationsIn(L, 10, {Min64, Max64}), (Range{0, 10}));
  EXPECT_EQ(iterationsIn(L, 10, {Min64, 3}), (Range{0, 3}));
  EXPECT_EQ(iterationsIn(L, 10, {7, Max64}), (Range{7, 10}));
  EXPECT_TRUE(iterationsIn(L, 10, {Min64, 0}).empty());
  EXPECT_TRUE(iterationsIn(L, 10, {10, Max64}).empty());
  L = loop(9, CompareOp::GreaterEqual, 0, -1);
  EXPECT_EQ(iterationsIn(L, 10, {7, Max64}), (Range{0, 3}));
  EXPECT_EQ(iterationsIn(L, 10, {-5, 3}), (Range{7, 10}));
  // Loops near the int64 limits with ranges near the same limit.
  L = loop(Max64 - 5, CompareOp::Less, Max64, 1);
  EXPECT_EQ(iterationsIn(L, 5, {Max64 - 3, Max64}), (Range{2, 5}));
  EXPECT_EQ(iterationsIn(L, 5, {Max64 - 100, Max64 - 2}), (Range{0, 3}));
  L = loop(Min64 + 5, CompareOp::Greater, Min64, -1);
  EXPECT_EQ(iterationsIn(L, 5, {Min64, Min64 + 3}), (Range{3, 5}));
  EXPECT_EQ(iterationsIn(L, 5, {Min64 + 3, Min64 + 100}), (Range{0, 3}));
}

// The distance between the loop's first index and an end of the index range
// may exceed int64 (both are int64); the result is still a range of
// iterations in [0, Trip].
TEST(IterationsIn, DistancesBeyondInt64) {
  // for (i = 9; i >= 0; i--): 9 - INT64_MIN does not fit int64.
  LoopBounds L = loop(9, CompareOp::GreaterEqual, 0, -1);
  EXPECT_EQ(iterationsIn(L, 10, {Min64, Max64}), (Range{0, 10}));
  EXPECT_EQ(iterationsIn(L, 10, {Min64, 3}), (Range{7, 10}));
  // for (i = INT64_MAX-5; i < INT64_MAX; i++): INT64_MIN - First neither.
  L = loop(Max64 - 5, CompareOp::Less, Max64, 1);
  EXPECT_EQ(iterationsIn(L, 5, {Min64, Max64}), (Range{0, 5}));
  EXPECT_EQ(iterationsIn(L, 5, {Min64, Max64 - 2}), (Range{0, 3}));
  // for (i = INT64_MIN+5; i > INT64_MIN; i--): First - INT64_MAX neither.
  L = loop(Min64 + 5, CompareOp::Greater, Min64, -1);
  EXPECT_EQ(iterationsIn(L, 5, {Min64, Max64}), (Range{0, 5}));
  EXPECT_EQ(iterationsIn(L, 5, {Min64 + 3, Max64}), (Range{0, 3}));
}

//===----------------------------------------------------------------------===//
// indexRange
//===----------------------------------------------------------------------===//

TEST(IndexRange, BruteForceGrid) {
  for (const LoopBounds &L : gridLoops()) {
    std::optional<int64_t> Trip = referenceTrip(L);
    if (!Trip)
      continue;
    for (int64_t K0 = 0; K0 <= *Trip; ++K0)
      for (int64_t K1 = K0; K1 <= *Trip; ++K1) {
        Range R = indexRange(L, {K0, K1});
        if (K0 == K1) {
          EXPECT_TRUE(R.empty()) << describe(L);
          continue;
        }
        int64_t Lo = Max64, Hi = Min64;
        for (int64_t K = K0; K < K1; ++K) {
          Lo = std::min(Lo, L.First + K * L.Step);
          Hi = std::max(Hi, L.First + K * L.Step);
        }
        EXPECT_EQ(R, (Range{Lo, Hi + 1}))
            << describe(L) << " [" << K0 << ", " << K1 << ") gave [" << R.Begin
            << ", " << R.End << ")";
      }
  }
}

TEST(IndexRange, Concrete) {
  EXPECT_EQ(indexRange(loop(0, CompareOp::Less, 10, 3), {1, 3}), (Range{3, 7}));
  EXPECT_EQ(indexRange(loop(10, CompareOp::Greater, 0, -3), {1, 3}),
            (Range{4, 8}));
  EXPECT_EQ(indexRange(loop(Max64 - 10, CompareOp::Less, Max64, 4), {0, 3}),
            (Range{Max64 - 10, Max64 - 1}));
}

//===----------------------------------------------------------------------===//
// iterationsIn and indicesOf on sets
//===----------------------------------------------------------------------===//

// For every loop of the grid and sets of indices around its indices, the
// iterations whose index is in the set, and nothing else.
TEST(IterationsIn, SetsOfIndices) {
  Random R(31);
  for (const LoopBounds &L : gridLoops()) {
    std::optional<int64_t> Trip = referenceTrip(L);
    if (!Trip)
      continue;
    std::vector<int64_t> All = *runLoop(L, 1000);
    for (int N = 0; N < 8; ++N) {
      uint64_t Mask = R.bits(26);
      IndexSet Indices = maskSet(Mask, -13);
      std::set<int64_t> In = bitsOf(Mask, -13), Want;
      for (int64_t K = 0; K < *Trip; ++K)
        if (In.count(All[K]))
          Want.insert(K);
      IndexSet Got = iterationsIn(L, *Trip, Indices);
      ASSERT_TRUE(wellFormed(Got)) << describe(L) << " " << Indices.str();
      ASSERT_EQ(Got, setOf(Want))
          << describe(L) << " indices " << Indices.str();
    }
  }
}

// The indices of a set of iterations: the smallest range holding each run
// of consecutive iterations, together; exactly the iterations' indices for
// unit steps.
TEST(IndicesOf, SetsOfIterations) {
  Random R(32);
  for (const LoopBounds &L : gridLoops()) {
    std::optional<int64_t> Trip = referenceTrip(L);
    if (!Trip || *Trip == 0)
      continue;
    std::vector<int64_t> All = *runLoop(L, 1000);
    for (int N = 0; N < 8; ++N) {
      IndexSet Its = maskSet(R.bits(static_cast<unsigned>(*Trip)));
      std::set<int64_t> Want, Exact;
      for (const Range &Run : Its.ranges()) {
        int64_t Lo = std::min(All[Run.Begin], All[Run.End - 1]);
        int64_t Hi = std::max(All[Run.Begin], All[Run.End - 1]);
        for (int64_t I = Lo; I <= Hi; ++I)
          Want.insert(I);
        for (int64_t K = Run.Begin; K < Run.End; ++K)
          Exact.insert(All[K]);
      }
      IndexSet Got = indicesOf(L, Its);
      ASSERT_TRUE(wellFormed(Got)) << describe(L) << " " << Its.str();
      ASSERT_EQ(Got, setOf(Want)) << describe(L) << " iterations " << Its.str();
      if (L.Step == 1 || L.Step == -1)
        ASSERT_EQ(Got, setOf(Exact)) << describe(L) << " " << Its.str();
    }
  }
}

TEST(IndicesOf, Concrete) {
  // for (i = 9; i >= 0; i--): iterations {0, 1} and {5, 6, 7} run indices
  // 8..9 and 2..4.
  IndexSet Its;
  Its.add({0, 2});
  Its.add({5, 8});
  IndexSet Got = indicesOf(loop(9, CompareOp::GreaterEqual, 0, -1), Its);
  EXPECT_EQ(Got.ranges(), (std::vector<Range>{{2, 5}, {8, 10}}));
  // for (i = 0; i < 20; i += 3), iterations 0, 1 and 3: 0 3 | 9.
  Its = IndexSet();
  Its.add({0, 2});
  Its.add({3, 4});
  Got = indicesOf(loop(0, CompareOp::Less, 20, 3), Its);
  EXPECT_EQ(Got.ranges(), (std::vector<Range>{{0, 4}, {9, 10}}));
}

//===----------------------------------------------------------------------===//
// LoopNest
//===----------------------------------------------------------------------===//

TEST(LoopNest, TripsIterationsAndAll) {
  LoopNest N;
  N.Rank = 3;
  N.Loops[0] = loop(0, CompareOp::Less, 4, 1);
  N.Loops[1] = loop(10, CompareOp::GreaterEqual, 0, -5);
  N.Loops[2] = loop(-3, CompareOp::NotEqual, 3, 1);
  unsigned Bad = 99;
  ASSERT_TRUE(N.computeTrips(Bad));
  EXPECT_EQ(Bad, 99u);
  EXPECT_EQ(N.Trips, (std::array<int64_t, homp::abi::MaxLoops>{4, 3, 6}));
  EXPECT_EQ(N.iterations(), 72);
  ProductSet A = N.all();
  EXPECT_EQ(A.Rank, 3u);
  EXPECT_EQ(A.volume(), 72);
  EXPECT_EQ(A.hull().str(), "[0, 4)[0, 3)[0, 6)");
}

TEST(LoopNest, OnlyTheFirstRankLoopsCount) {
  LoopNest N;
  N.Rank = 1;
  N.Loops[0] = loop(0, CompareOp::Less, 4, 1);
  N.Loops[1] = loop(0, CompareOp::Less, 4, 0); // would not terminate
  unsigned Bad = 99;
  ASSERT_TRUE(N.computeTrips(Bad));
  EXPECT_EQ(N.iterations(), 4);
  EXPECT_EQ(N.all().Rank, 1u);
}

TEST(LoopNest, ALoopThatDoesNotTerminateIsNamed) {
  LoopNest N;
  N.Rank = 3;
  N.Loops[0] = loop(0, CompareOp::Less, 4, 1);
  N.Loops[1] = loop(0, CompareOp::Less, 4, -1);
  N.Loops[2] = loop(0, CompareOp::Less, 4, 0);
  unsigned Bad = 99;
  EXPECT_FALSE(N.computeTrips(Bad));
  EXPECT_EQ(Bad, 1u);
}

TEST(LoopNest, AnEmptyLoopEmptiesTheNest) {
  LoopNest N;
  N.Rank = 2;
  N.Loops[0] = loop(0, CompareOp::Less, 4, 1);
  N.Loops[1] = loop(5, CompareOp::Less, 5, 1);
  unsigned Bad = 0;
  ASSERT_TRUE(N.computeTrips(Bad));
  EXPECT_EQ(N.iterations(), 0);
  EXPECT_TRUE(N.all().empty());
}
