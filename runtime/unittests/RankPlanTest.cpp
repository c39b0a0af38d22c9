//===-- RankPlanTest.cpp - A construct split over ranks
//--------------------===//
//
// The rank plan against a brute-force reference: every row a rank's halo
// needs (its part widened, wrapped where an edge is periodic) arrives once,
// from the rank that owns it, and nothing else arrives; the iterations and
// rows are contiguous, in rank order, by capacity; up to 1024 ranks.
//
//===----------------------------------------------------------------------===//

#include "homp/RankPlan.h"

#include <gtest/gtest.h>

#include <map>
#include <random>
#include <set>

using namespace homp;

namespace {

/// Per rank, the rows (from, row) it must receive: each row of its part
/// widened by the halo, wrapped where periodic, that another rank owns.
std::vector<std::set<std::pair<int, int64_t>>>
expected(const RankArray &A, const std::vector<Range> &Owned) {
  auto Owner = [&](int64_t Row) {
    for (size_t R = 0; R < Owned.size(); ++R)
      if (Owned[R].contains(Row))
        return static_cast<int>(R);
    return -1;
  };
  const int64_t Size = A.Rows.size();
  std::vector<std::set<std::pair<int, int64_t>>> Out(Owned.size());
  for (size_t R = 0; R < Owned.size(); ++R) {
    if (Owned[R].empty())
      continue;
    const int64_t L = std::min(A.Halo.Left, Size),
                  U = std::min(A.Halo.Right, Size);
    for (int64_t Row = Owned[R].Begin - L; Row < Owned[R].End + U; ++Row) {
      int64_t At = Row;
      if (At < A.Rows.Begin) {
        if (A.Halo.LeftEdge != homp::abi::Edge::Periodic)
          continue;
        At += Size;
      } else if (At >= A.Rows.End) {
        if (A.Halo.RightEdge != homp::abi::Edge::Periodic)
          continue;
        At -= Size;
      }
      int From = Owner(At);
      if (From >= 0 && From != static_cast<int>(R))
        Out[R].insert({From, At});
    }
  }
  return Out;
}

void check(const RankPlanInput &In) {
  RankPlan P = planRanks(In);
  ASSERT_EQ(P.Iterations.size(), static_cast<size_t>(In.Ranks));
  // Contiguous, in rank order, covering the loop.
  int64_t Next = 0;
  for (const Range &R : P.Iterations) {
    EXPECT_EQ(R.Begin, Next);
    Next = std::max(Next, R.End);
  }
  EXPECT_EQ(Next, In.Trips);
  for (size_t A = 0; A < In.Arrays.size(); ++A) {
    const RankArray &Arr = In.Arrays[A];
    std::vector<std::set<std::pair<int, int64_t>>> Got(In.Ranks);
    int64_t Bytes = 0;
    for (const RankMessage &M : P.Messages) {
      if (M.Array != A)
        continue;
      EXPECT_NE(M.From, M.To);
      EXPECT_TRUE(P.Rows[A][M.From].contains(M.Rows)) << "the sender owns them";
      EXPECT_EQ(M.Bytes, M.Rows.size() * Arr.RowBytes);
      for (int64_t Row = M.Rows.Begin; Row < M.Rows.End; ++Row)
        EXPECT_TRUE(Got[M.To].insert({M.From, Row}).second)
            << "row " << Row << " twice to rank " << M.To;
      Bytes += M.Bytes;
    }
    if (Arr.Split)
      EXPECT_EQ(Got, expected(Arr, P.Rows[A])) << Arr.Name;
    else
      EXPECT_EQ(Bytes, 0) << "a whole array sends nothing";
  }
}

RankArray array(const std::string &Name, int64_t Rows, int64_t L, int64_t R,
                bool Periodic = false) {
  RankArray A;
  A.Name = Name;
  A.Rows = {0, Rows};
  A.RowBytes = 8 * 10;
  A.Split = true;
  A.Halo.Left = L;
  A.Halo.Right = R;
  if (Periodic)
    A.Halo.LeftEdge = A.Halo.RightEdge = homp::abi::Edge::Periodic;
  A.CopiesOut = true;
  return A;
}

} // namespace

TEST(RankPlan, JacobiOverThreeRanks) {
  // PMAM'15 Figure 2's rows, halo(1,): rank 1 gets a row from each side.
  RankPlanInput In;
  In.Ranks = 3;
  In.Trips = 1024;
  In.Arrays = {array("u", 1026, 1, 1)};
  RankPlan P = planRanks(In);
  EXPECT_EQ(P.Rows[0][0].End, 342);
  ASSERT_EQ(P.Messages.size(), 4u) << "0<->1, 1<->2";
  for (const RankMessage &M : P.Messages)
    EXPECT_EQ(M.Rows.size(), 1);
  // Each rank's host copy is completed with the 2/3 it does not own.
  EXPECT_EQ(P.GatherBytes[1], (1026 - P.Rows[0][1].size()) * 80);
  std::string Text = describeRankPlan(In, P, "region a.c:3:1: 1024 iterations");
  EXPECT_NE(Text.find("region a.c:3:1: 1024 iterations over 3 ranks"),
            std::string::npos)
      << Text;
  EXPECT_NE(Text.find("after the region, completing the arrays it copies "
                      "out: "),
            std::string::npos)
      << Text;
  // Without a loop (a data region, a halo update): rows only.
  In.Loop = false;
  Text = describeRankPlan(In, P, "data region a.c:1:1 begins: 1 array",
                          "at the region's end");
  EXPECT_NE(Text.find("rank 0: 'u' rows [0, 342)\n"), std::string::npos)
      << Text;
  EXPECT_NE(Text.find("at the region's end, completing"), std::string::npos)
      << Text;
  EXPECT_NE(Text.find("halo exchange: 4 messages, 320 bytes ('u' 320 bytes); "
                      "rank 1 receives the most: 2 messages, 160 bytes"),
            std::string::npos)
      << Text;
  check(In);
}

TEST(RankPlan, OwnerComputesFollowsTheRows) {
  // Jacobi's i = 1 .. n - 2 over u's rows [0, 34) on 3 ranks: each rank
  // runs the i of its rows ([0, 12), [12, 23), [23, 34)).
  RankPlanInput In;
  In.Ranks = 3;
  In.Trips = 32;
  In.Arrays = {array("u", 34, 1, 1)};
  In.Follow = 0;
  In.First = 1;
  In.Step = 1;
  RankPlan P = planRanks(In);
  EXPECT_EQ(P.Iterations[0].Begin, 0);
  EXPECT_EQ(P.Iterations[0].End, 11) << "i = 1 .. 11";
  EXPECT_EQ(P.Iterations[1].Begin, 11);
  EXPECT_EQ(P.Iterations[1].End, 22) << "i = 12 .. 22";
  EXPECT_EQ(P.Iterations[2].End, 32);
  // A loop down the rows, by 2: i = 33, 31, ..., 1.
  In.Trips = 17;
  In.First = 33;
  In.Step = -2;
  P = planRanks(In);
  EXPECT_EQ(P.Iterations[0].Begin, 11) << "i = 11 first in rank 0";
  EXPECT_EQ(P.Iterations[0].End, 17);
  EXPECT_EQ(P.Iterations[2].Begin, 0);
  EXPECT_EQ(P.Iterations[2].End, 6) << "i = 33 .. 23";
  EXPECT_EQ(P.Iterations[1].Begin, 6);
  EXPECT_EQ(P.Iterations[1].End, 11);
  for (int64_t T = 0; T < 17; ++T) {
    int64_t I = 33 - 2 * T;
    int Owner = I < 12 ? 0 : I < 23 ? 1 : 2;
    EXPECT_TRUE(P.Iterations[Owner].contains(T)) << T;
  }
}

TEST(RankPlan, AllGatherHaloAndPeriodicEdges) {
  RankPlanInput In;
  In.Ranks = 5;
  In.Trips = 97;
  In.Arrays = {array("pos", 97, homp::abi::Halo::All, homp::abi::Halo::All),
               array("ring", 97, 2, 3, /*Periodic=*/true)};
  RankPlan P = planRanks(In);
  int ToZero = 0;
  for (const RankMessage &M : P.Messages)
    ToZero += M.Array == 0 && M.To == 0;
  EXPECT_EQ(ToZero, 4) << "halo(*): one from every other rank";
  check(In);
}

TEST(RankPlan, ByCapacity) {
  RankPlanInput In;
  In.Ranks = 2;
  In.Trips = 300;
  In.Capacity = {1, 2};
  In.Arrays = {array("x", 300, 0, 0)};
  RankPlan P = planRanks(In);
  EXPECT_EQ(P.Iterations[0].size(), 100);
  EXPECT_EQ(P.Rows[0][1].size(), 200);
  EXPECT_TRUE(P.Messages.empty());
  // A capacity list that does not fit counts as equal.
  In.Capacity = {1};
  EXPECT_EQ(planRanks(In).Iterations[0].size(), 150);
  In.Capacity = {0, 0};
  EXPECT_EQ(planRanks(In).Iterations[0].size(), 150);
}

TEST(RankPlan, MoreRanksThanRowsAndWideHalos) {
  // Ranks without rows send and receive nothing; a halo wider than a
  // neighbour's part reaches past it.
  for (int Ranks : {1, 2, 7, 40})
    for (int64_t Halo :
         {int64_t(0), int64_t(1), int64_t(5), homp::abi::Halo::All})
      for (bool Periodic : {false, true}) {
        RankPlanInput In;
        In.Ranks = Ranks;
        In.Trips = 23;
        In.Arrays = {array("a", 23, Halo, Halo == 5 ? 2 : Halo, Periodic)};
        SCOPED_TRACE(std::to_string(Ranks) + " ranks, halo " +
                     std::to_string(Halo));
        check(In);
      }
}

TEST(RankPlan, RandomPlans) {
  std::mt19937 Rng(36);
  for (int Case = 0; Case < 200; ++Case) {
    RankPlanInput In;
    In.Ranks = 1 + Rng() % 12;
    In.Trips = Rng() % 60;
    for (int R = 0; R < In.Ranks; ++R)
      In.Capacity.push_back(Rng() % 4);
    In.Arrays = {array("a", In.Trips, Rng() % 4, Rng() % 4, Rng() % 2),
                 array("b", In.Trips, homp::abi::Halo::All, 0)};
    In.Arrays[1].Split = Rng() % 3 != 0;
    SCOPED_TRACE("case " + std::to_string(Case));
    check(In);
  }
}

TEST(RankPlan, AThousandRanks) {
  RankPlanInput In;
  In.Ranks = 1024;
  In.Trips = 1 << 20;
  In.Arrays = {array("u", 1 << 20, 1, 1)};
  RankPlan P = planRanks(In);
  EXPECT_EQ(P.Messages.size(), 2u * 1023);
  EXPECT_EQ(P.Iterations[1023].End, 1 << 20);
  std::string Text =
      describeRankPlan(In, P, "region j.c:1:1: 1048576 iterations");
  EXPECT_NE(Text.find("... (ranks 4 to 1022)"), std::string::npos) << Text;
  EXPECT_NE(Text.find("rank 1023: iterations [1047552, 1048576)"),
            std::string::npos)
      << Text;
}
