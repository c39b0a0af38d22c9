//===-- PartitionTest.cpp - Splitting one dimension over parts ------------===//
//
// BLOCK, weighted BLOCK and CYCLIC splits, partitionDim and the ALIGN ratio
// scaling, against the papers' hand-written split and splits dealt one index
// at a time.
//
//===----------------------------------------------------------------------===//

#include "homp/Partition.h"

#include "Reference.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <set>
#include <vector>

using namespace homp;
using namespace homp::reference;

namespace {

using Policy = homp::abi::Policy;
using Indices = std::set<int64_t>;

Indices indicesOf(const IndexSet &S) {
  std::vector<int64_t> M = members(S);
  return Indices(M.begin(), M.end());
}

const Policy::KindTy AllKinds[] = {Policy::Full, Policy::Block, Policy::Cyclic,
                                   Policy::Align, Policy::Auto};

} // namespace

//===----------------------------------------------------------------------===//
// BLOCK
//===----------------------------------------------------------------------===//

// Every size up to a bound on every device count: the blocks are disjoint,
// cover [0, N) in order and differ in size by at most one, larger first.
TEST(BlockPartition, CoversDisjointBalanced) {
  for (unsigned Parts = 1; Parts <= 17; ++Parts)
    for (int64_t N = 0; N <= 300; ++N) {
      std::vector<Range> P = blockPartition(N, Parts);
      ASSERT_EQ(P.size(), Parts);
      int64_t Next = 0, Min = INT64_MAX, Max = 0;
      for (unsigned I = 0; I < Parts; ++I) {
        if (P[I].empty())
          continue;
        EXPECT_EQ(P[I].Begin, Next) << "N=" << N << " Parts=" << Parts;
        Next = P[I].End;
        Min = std::min(Min, P[I].size());
        Max = std::max(Max, P[I].size());
        if (I > 0)
          EXPECT_LE(P[I].size(), P[I - 1].size());
      }
      EXPECT_EQ(Next, N) << "N=" << N << " Parts=" << Parts;
      if (N >= Parts)
        EXPECT_LE(Max - Min, 1) << "N=" << N << " Parts=" << Parts;
    }
}

// The split of the papers' hand-written axpy_mdev_v1 (PMAM'15 Figure 1).
TEST(BlockPartition, MatchesHandWrittenSplit) {
  for (unsigned Devices = 1; Devices <= 8; ++Devices)
    for (int64_t N = 0; N <= 100; ++N)
      for (unsigned D = 0; D < Devices; ++D) {
        Range Want = handWrittenBlock(N, Devices, D);
        Range R = blockPart(N, Devices, D);
        EXPECT_EQ(R.size(), Want.size()) << "N=" << N << " D=" << D;
        if (!Want.empty())
          EXPECT_EQ(R, Want) << "N=" << N << " D=" << D;
      }
}

TEST(BlockPartition, FewerElementsThanParts) {
  std::vector<Range> P = blockPartition(3, 5);
  EXPECT_EQ(P[0], (Range{0, 1}));
  EXPECT_EQ(P[2], (Range{2, 3}));
  EXPECT_TRUE(P[3].empty());
  EXPECT_TRUE(P[4].empty());
}

TEST(BlockPartition, HugeRangesDoNotOverflow) {
  int64_t N = INT64_MAX - 7;
  Range Last = blockPart(N, 3, 2);
  EXPECT_EQ(Last.End, N);
}

TEST(BlockPartition, NothingToSplit) {
  for (int64_t N : {int64_t(0), int64_t(-5)})
    for (unsigned P = 0; P < 3; ++P)
      EXPECT_TRUE(blockPart(N, 3, P).empty()) << N;
}

//===----------------------------------------------------------------------===//
// Weighted BLOCK
//===----------------------------------------------------------------------===//

// The parts tile [0, N) in order, and every part is within one element of
// its exact share N * w / sum(w).
TEST(WeightedBlockPartition, TilesAndKeepsSharesWithinOne) {
  Random R(11);
  for (int Case = 0; Case < 3000; ++Case) {
    unsigned Parts = static_cast<unsigned>(R.between(1, 8));
    std::vector<double> W(Parts);
    double Total = 0;
    for (double &X : W) {
      // Zero weights, tiny and large ones, and fractions.
      switch (R.between(0, 3)) {
      case 0:
        X = 0;
        break;
      case 1:
        X = static_cast<double>(R.between(1, 10));
        break;
      case 2:
        X = static_cast<double>(R.between(1, 1000)) / 997.0;
        break;
      default:
        X = static_cast<double>(R.between(1, 1000000));
      }
      Total += X;
    }
    if (Total == 0) {
      W[0] = 1;
      Total = 1;
    }
    int64_t N = R.between(0, Case % 10 == 0 ? 10000000 : 200);
    int64_t Next = 0;
    for (unsigned P = 0; P < Parts; ++P) {
      Range Part = weightedBlockPart(N, W, P);
      double Exact = static_cast<double>(N) * W[P] / Total;
      ASSERT_EQ(Part.Begin, Next) << "N=" << N << " part " << P;
      ASSERT_GE(Part.End, Part.Begin) << "N=" << N << " part " << P;
      ASSERT_LT(std::fabs(static_cast<double>(Part.size()) - Exact), 1.0 + 1e-9)
          << "N=" << N << " part " << P << " of " << Parts;
      if (W[P] == 0)
        EXPECT_TRUE(Part.empty()) << "a part of weight 0 gets nothing";
      Next = Part.End;
    }
    ASSERT_EQ(Next, N);
  }
}

TEST(WeightedBlockPartition, ConcreteShares) {
  std::vector<double> W = {1, 3};
  EXPECT_EQ(weightedBlockPart(100, W, 0), (Range{0, 25}));
  EXPECT_EQ(weightedBlockPart(100, W, 1), (Range{25, 100}));
  W = {2, 0, 2};
  EXPECT_EQ(weightedBlockPart(9, W, 0), (Range{0, 5}));
  EXPECT_TRUE(weightedBlockPart(9, W, 1).empty());
  EXPECT_EQ(weightedBlockPart(9, W, 2), (Range{5, 9}));
}

TEST(WeightedBlockPartition, EqualOrNoWeightsSplitLikeBlock) {
  for (int64_t N = 0; N <= 40; ++N)
    for (unsigned Parts = 1; Parts <= 6; ++Parts)
      for (unsigned P = 0; P < Parts; ++P) {
        EXPECT_EQ(weightedBlockPart(N, std::vector<double>(Parts, 0.0), P),
                  blockPart(N, Parts, P))
            << N << " " << Parts;
        // Equal weights: the same sizes, rounded where the boundaries fall.
        EXPECT_LE(
            std::llabs(weightedBlockPart(N, std::vector<double>(Parts, 2.5), P)
                           .size() -
                       blockPart(N, Parts, P).size()),
            1)
            << N << " " << Parts;
      }
}

//===----------------------------------------------------------------------===//
// CYCLIC
//===----------------------------------------------------------------------===//

// Against dealing blocks of indices round-robin by hand.
TEST(CyclicPartition, DealsBlocksRoundRobin) {
  for (int64_t N = 0; N <= 60; ++N)
    for (int64_t Block = 1; Block <= 7; ++Block)
      for (unsigned Parts = 1; Parts <= 9; ++Parts) {
        std::vector<Indices> Dealt(Parts);
        for (int64_t I = 0, Next = 0; I < N;
             I += Block, Next = (Next + 1) % Parts)
          for (int64_t J = I; J < std::min(N, I + Block); ++J)
            Dealt[Next].insert(J);
        for (unsigned P = 0; P < Parts; ++P) {
          IndexSet S = cyclicPart(N, Block, Parts, P);
          ASSERT_TRUE(wellFormed(S));
          ASSERT_EQ(indicesOf(S), Dealt[P])
              << "N=" << N << " CYCLIC(" << Block << ") part " << P << " of "
              << Parts << ": " << S.str();
        }
      }
}

TEST(CyclicPartition, Concrete) {
  IndexSet S = cyclicPart(10, 2, 2, 1);
  EXPECT_EQ(S.ranges(), (std::vector<Range>{{2, 4}, {6, 8}}));
  // One part: CYCLIC is the whole range, merged into one.
  EXPECT_EQ(cyclicPart(10, 3, 1, 0).ranges(), (std::vector<Range>{{0, 10}}));
  // The last block is cut short at N.
  EXPECT_EQ(cyclicPart(7, 3, 2, 0).ranges(),
            (std::vector<Range>{{0, 3}, {6, 7}}));
}

//===----------------------------------------------------------------------===//
// partitionDim
//===----------------------------------------------------------------------===//

// Every policy over ranges that do not start at 0: the split of [0, size)
// moved to the range's start.
TEST(PartitionDim, EveryPolicyOverAnOffsetRange) {
  for (int64_t Begin : {int64_t(-7), int64_t(0), int64_t(5)})
    for (int64_t N = 0; N <= 25; ++N)
      for (unsigned Parts = 1; Parts <= 5; ++Parts)
        for (unsigned P = 0; P < Parts; ++P)
          for (int64_t Block = 1; Block <= 3; ++Block)
            for (Policy::KindTy Kind : AllKinds) {
              Range Extent{Begin, Begin + N};
              Indices Want;
              for (int64_t I = Begin; I < Begin + N; ++I) {
                bool Mine = true;
                if (Kind == Policy::Block || Kind == Policy::Auto)
                  Mine = blockOwner(I - Begin, N, Parts) == P;
                else if (Kind == Policy::Cyclic)
                  Mine = cyclicOwner(I - Begin, Block, Parts) == P;
                if (Mine)
                  Want.insert(I);
              }
              IndexSet S = partitionDim(Extent, Kind, Block, Parts, P);
              ASSERT_TRUE(wellFormed(S));
              ASSERT_EQ(indicesOf(S), Want)
                  << "kind " << Kind << " [" << Begin << ", " << Begin + N
                  << ") block " << Block << " part " << P << "/" << Parts;
            }
}

//===----------------------------------------------------------------------===//
// ALIGN ratios
//===----------------------------------------------------------------------===//

// With a ratio r = Num / Den, index k of the aligned array goes with index
// floor(k / r) of what it is aligned with: the scaled set holds exactly the
// k whose floor(k * Den / Num) is in the set.
TEST(ScaleIndices, MatchesTheDefinitionOnEverySet) {
  auto FloorDiv = [](int64_t A, int64_t B) {
    return A / B - ((A % B != 0) && ((A < 0) != (B < 0)));
  };
  for (uint64_t M = 0; M < 1024; ++M)
    for (int64_t Num = 1; Num <= 4; ++Num)
      for (int64_t Den = 1; Den <= 4; ++Den) {
        Indices In = bitsOf(M, -5), Want;
        for (int64_t K = -40; K <= 40; ++K)
          if (In.count(FloorDiv(K * Den, Num)))
            Want.insert(K);
        IndexSet S = scaleIndices(maskSet(M, -5), Num, Den);
        ASSERT_TRUE(wellFormed(S));
        ASSERT_EQ(indicesOf(S), Want) << maskSet(M, -5).str() << " * " << Num
                                      << "/" << Den << " gave " << S.str();
      }
}

TEST(ScaleIndices, Concrete) {
  // ALIGN(x, 2): elements 6 .. 9 go with x's 3 and 4.
  EXPECT_EQ(scaleIndices(IndexSet(Range{3, 5}), 2, 1).ranges(),
            (std::vector<Range>{{6, 10}}));
  // ALIGN(x, 1/2): element 2 goes with x's 4 (and 5); x's 3 has no partner.
  EXPECT_EQ(scaleIndices(IndexSet(Range{3, 5}), 1, 2).ranges(),
            (std::vector<Range>{{2, 3}}));
  EXPECT_TRUE(scaleIndices(IndexSet(Range{1, 2}), 1, 2).empty());
  EXPECT_EQ(scaleIndices(IndexSet(Range{0, 1}), 1, 2).ranges(),
            (std::vector<Range>{{0, 1}}));
  EXPECT_EQ(scaleIndices(IndexSet(Range{-3, -1}), 3, 2).ranges(),
            (std::vector<Range>{{-4, -1}}));
}

// Scaling every part of a partition of [Lo, Hi) gives a partition of the
// scaled range.
TEST(ScaleIndices, PartsOfAPartitionStayAPartition) {
  for (int64_t Lo : {int64_t(-6), int64_t(0), int64_t(3)})
    for (int64_t N = 0; N <= 20; ++N)
      for (unsigned Parts = 1; Parts <= 4; ++Parts)
        for (Policy::KindTy Kind : {Policy::Block, Policy::Cyclic})
          for (int64_t Num = 1; Num <= 3; ++Num)
            for (int64_t Den = 1; Den <= 3; ++Den) {
              IndexSet Whole =
                  scaleIndices(IndexSet(Range{Lo, Lo + N}), Num, Den);
              std::multiset<int64_t> Seen;
              for (unsigned P = 0; P < Parts; ++P)
                for (int64_t I : members(scaleIndices(
                         partitionDim({Lo, Lo + N}, Kind, 2, Parts, P), Num,
                         Den)))
                  Seen.insert(I);
              std::vector<int64_t> All = members(Whole);
              ASSERT_EQ(std::vector<int64_t>(Seen.begin(), Seen.end()), All)
                  << "[" << Lo << ", " << Lo + N << ") kind " << Kind << " * "
                  << Num << "/" << Den;
            }
}
