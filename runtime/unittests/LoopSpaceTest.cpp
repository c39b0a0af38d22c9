//===-- LoopSpaceTest.cpp - Iterations of a canonical loop ----------------===//
//
// Checks tripCount, chunkBounds, iterationsIn and indexRange against loops
// that the test runs literally, one iteration at a time.
//
//===----------------------------------------------------------------------===//

#include "homp/LoopSpace.h"

#include "Reference.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

using namespace homp;
using namespace homp::reference;

namespace homp {
static void PrintTo(const Range &R, std::ostream *OS) {
  *OS << "[" << R.Begin << ", " << R.End << ")";
}
} // namespace homp

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
  std::optional<std::vector<int64_t>> Visited =
      runLoop(L.First, L.Op, L.Bound, L.Step, 1000);
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
// indexOf, chunkBounds
//===----------------------------------------------------------------------===//

TEST(IndexOf, FirstPlusKSteps) {
  EXPECT_EQ(indexOf(loop(3, CompareOp::Less, 100, 7), 0), 3);
  EXPECT_EQ(indexOf(loop(3, CompareOp::Less, 100, 7), 5), 38);
  EXPECT_EQ(indexOf(loop(3, CompareOp::Greater, -100, -7), 5), -32);
}

// Every sub-range [K0, K1) of every loop of the grid: the chunk loop, run
// literally with the original step and comparison, visits exactly the indices
// of iterations K0 .. K1-1; its first value and bound are indices the loop
// reaches or the loop's own bound.
TEST(ChunkBounds, BruteForceGrid) {
  unsigned Checked = 0;
  for (const LoopBounds &L : gridLoops()) {
    std::optional<int64_t> Trip = referenceTrip(L);
    if (!Trip)
      continue;
    std::vector<int64_t> All = *runLoop(L.First, L.Op, L.Bound, L.Step, 1000);
    for (int64_t K0 = 0; K0 < *Trip; ++K0)
      for (int64_t K1 = K0 + 1; K1 <= *Trip; ++K1) {
        int64_t First = 12345, Bound = 12345;
        chunkBounds(L, *Trip, {K0, K1}, First, Bound);
        std::optional<std::vector<int64_t>> Visited =
            runLoop(First, L.Op, Bound, L.Step, *Trip + 5);
        std::vector<int64_t> Expected(All.begin() + K0, All.begin() + K1);
        ASSERT_TRUE(Visited.has_value())
            << describe(L) << " [" << K0 << ", " << K1 << "): chunk " << First
            << " .. " << Bound << " does not terminate";
        EXPECT_EQ(*Visited, Expected)
            << describe(L) << " [" << K0 << ", " << K1 << "): chunk " << First
            << " .. " << Bound;
        auto Reached = [&](int64_t V) {
          return V == L.Bound ||
                 std::find(All.begin(), All.end(), V) != All.end();
        };
        EXPECT_TRUE(Reached(First)) << describe(L) << " first " << First;
        EXPECT_TRUE(Reached(Bound)) << describe(L) << " bound " << Bound;
        ++Checked;
      }
  }
  EXPECT_GT(Checked, 10000u);
}

TEST(ChunkBounds, NearInt64Limits) {
  int64_t First, Bound;
  // Max-10, Max-7, Max-4, Max-1.
  LoopBounds L = loop(Max64 - 10, CompareOp::LessEqual, Max64, 3);
  chunkBounds(L, 4, {2, 4}, First, Bound);
  EXPECT_EQ(First, Max64 - 4);
  EXPECT_EQ(Bound, Max64 - 1);
  chunkBounds(L, 4, {0, 1}, First, Bound);
  EXPECT_EQ(First, Max64 - 10);
  EXPECT_EQ(Bound, Max64 - 10);
  // Max-10, Max-6, Max-2: the last chunk keeps the loop's own bound.
  L = loop(Max64 - 10, CompareOp::Less, Max64, 4);
  chunkBounds(L, 3, {1, 3}, First, Bound);
  EXPECT_EQ(First, Max64 - 6);
  EXPECT_EQ(Bound, Max64);
  chunkBounds(L, 3, {0, 2}, First, Bound);
  EXPECT_EQ(First, Max64 - 10);
  EXPECT_EQ(Bound, Max64 - 2);
  // Min+10, Min+6, Min+2 going down.
  L = loop(Min64 + 10, CompareOp::Greater, Min64, -4);
  chunkBounds(L, 3, {2, 3}, First, Bound);
  EXPECT_EQ(First, Min64 + 2);
  EXPECT_EQ(Bound, Min64);
  L = loop(Min64 + 3, CompareOp::NotEqual, Min64, -1);
  chunkBounds(L, 3, {0, 3}, First, Bound);
  EXPECT_EQ(First, Min64 + 3);
  EXPECT_EQ(Bound, Min64);
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
