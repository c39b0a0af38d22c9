//===-- PartitionTest.cpp - BLOCK partition arithmetic --------------------===//

#include "homp/Partition.h"

#include "Reference.h"

#include <gtest/gtest.h>

using namespace homp;

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
        Range Want = reference::handWrittenBlock(N, Devices, D);
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
