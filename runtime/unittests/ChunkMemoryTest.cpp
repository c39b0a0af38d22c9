//===-- ChunkMemoryTest.cpp - The memorizing-dynamic scheduler ------------===//
//
// ChunkMemory driven by simulated devices in virtual time: each device
// takes a chunk when it is free (the earliest free first, as the devices'
// threads would), a chunk of iterations [b, e) taking the sum of their
// costs over the device's speed. Checked against what the scheduler
// promises: every chunk run exactly once an execution, own chunks first,
// owners becoming who ran them, kept executions balanced where the
// dynamic one was, moves only of what another device took, and drift
// detection.
//
//===----------------------------------------------------------------------===//

#include "homp/ChunkMemory.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <random>

namespace homp {
namespace {

using Cost = std::function<double(int64_t)>;

/// One execution following the chunks, simulated: per position, its
/// finishing time. Ran gets who ran each chunk.
std::vector<double> follow(ChunkMemory &M, const std::vector<double> &Speed,
                           const Cost &C, std::vector<int> &Ran) {
  const unsigned P = M.positions();
  M.beginFollow();
  std::vector<double> Free(P, 0);
  std::vector<bool> Done(P, false);
  Ran.assign(static_cast<size_t>(M.chunks()), -1);
  for (;;) {
    unsigned Next = P;
    for (unsigned Q = 0; Q < P; ++Q)
      if (!Done[Q] && (Next == P || Free[Q] < Free[Next]))
        Next = Q;
    if (Next == P)
      break;
    std::optional<ChunkMemory::Taken> T = M.next(Next);
    if (!T) {
      Done[Next] = true;
      continue;
    }
    EXPECT_EQ(Ran[static_cast<size_t>(T->Chunk)], -1) << "chunk handed twice";
    Ran[static_cast<size_t>(T->Chunk)] = static_cast<int>(Next);
    double Work = 0;
    for (int64_t I = M.chunk(T->Chunk).Begin; I < M.chunk(T->Chunk).End; ++I)
      Work += C(I);
    Free[Next] += Work / Speed[Next];
    M.ran(T->Chunk, Next);
  }
  for (int R : Ran)
    EXPECT_GE(R, 0) << "chunk never handed out";
  return Free;
}

/// A kept execution: each position runs the chunks it owns.
std::vector<double> keep(const ChunkMemory &M, const std::vector<double> &Speed,
                         const Cost &C) {
  std::vector<double> T(M.positions(), 0);
  for (unsigned P = 0; P < M.positions(); ++P) {
    const IndexSet Owned = M.owned(P);
    for (const Range &R : Owned.ranges())
      for (int64_t I = R.Begin; I < R.End; ++I)
        T[P] += C(I) / Speed[P];
  }
  return T;
}

double imbalance(const std::vector<double> &T) {
  double Sum = 0, Max = 0;
  for (double X : T) {
    Sum += X;
    Max = std::max(Max, X);
  }
  return Max / (Sum / static_cast<double>(T.size()));
}

TEST(ChunkMemoryTest, StartsWithBlocksOfWholeChunks) {
  ChunkMemory M(103, 10, 3); // 11 chunks, the last of 3 iterations
  EXPECT_EQ(M.chunks(), 11);
  EXPECT_EQ(M.chunk(10), (Range{100, 103}));
  EXPECT_EQ(M.owned(0), IndexSet(Range{0, 40}));
  EXPECT_EQ(M.owned(1), IndexSet(Range{40, 80}));
  EXPECT_EQ(M.owned(2), IndexSet(Range{80, 103}));
  EXPECT_TRUE(M.following());
  EXPECT_EQ(M.followWhy(), "its first execution");
  EXPECT_EQ(M.describe([](unsigned P) { return "d" + std::to_string(P); }),
            "d0: chunks 0-3; d1: chunks 4-7; d2: chunks 8-10");
}

TEST(ChunkMemoryTest, OwnChunksFirstThenTheEndOfTheMostLeft) {
  ChunkMemory M(60, 10, 2); // d0: 0-2, d1: 3-5
  M.beginFollow();
  EXPECT_EQ(M.next(0)->Chunk, 0);
  EXPECT_EQ(M.next(0)->Chunk, 1);
  EXPECT_EQ(M.next(0)->Chunk, 2);
  EXPECT_EQ(M.next(1)->Chunk, 3);
  // d0 is out of its own: it takes d1's last, which d1 owned.
  std::optional<ChunkMemory::Taken> T = M.next(0);
  ASSERT_TRUE(T);
  EXPECT_EQ(T->Chunk, 5);
  EXPECT_EQ(T->From, 1u);
  EXPECT_EQ(M.next(1)->Chunk, 4);
  EXPECT_FALSE(M.next(0));
  EXPECT_FALSE(M.next(1));
  for (int64_t C : {0, 1, 2, 5})
    M.ran(C, 0);
  for (int64_t C : {3, 4})
    M.ran(C, 1);
  uint64_t Before = M.generation();
  std::vector<ChunkMemory::Move> Moves = M.endFollow();
  ASSERT_EQ(Moves.size(), 1u);
  EXPECT_EQ(Moves[0].Chunk, 5);
  EXPECT_EQ(Moves[0].From, 1u);
  EXPECT_EQ(Moves[0].To, 0u);
  EXPECT_NE(M.generation(), Before);
  EXPECT_EQ(M.follows(), 1);
  EXPECT_EQ(M.owned(0), IndexSet(Range{0, 30}).unite(IndexSet(Range{50, 60})));
  EXPECT_FALSE(M.following());
}

TEST(ChunkMemoryTest, ADeviceThatTakesNoneGivesItsChunksAway) {
  ChunkMemory M(40, 10, 2);
  M.beginFollow({true, false});
  std::vector<int64_t> Got;
  while (std::optional<ChunkMemory::Taken> T = M.next(0)) {
    Got.push_back(T->Chunk);
    M.ran(T->Chunk, 0);
  }
  EXPECT_FALSE(M.next(1));
  std::sort(Got.begin(), Got.end());
  // Nor does it take any when others have chunks left.
  ChunkMemory N(40, 10, 3);
  N.beginFollow({true, false, true});
  EXPECT_FALSE(N.next(1));
  EXPECT_TRUE(N.next(0));
  EXPECT_EQ(Got, (std::vector<int64_t>{0, 1, 2, 3}));
  EXPECT_EQ(M.endFollow().size(), 2u);
  EXPECT_EQ(M.owned(1), IndexSet());
}

TEST(ChunkMemoryTest, AChunkNoDeviceRanKeepsItsOwner) {
  ChunkMemory M(40, 10, 2);
  M.beginFollow();
  M.next(0);
  M.ran(0, 0);
  EXPECT_TRUE(M.endFollow().empty());
  EXPECT_EQ(M.owned(1), IndexSet(Range{20, 40}));
}

// Uneven costs (NPB-MZ's zones 20x apart, growing along the loop) and
// unequal devices: the kept executions are as balanced as the dynamic one
// was, and later follows move little.
TEST(ChunkMemoryTest, KeptExecutionsStayBalanced) {
  std::mt19937 Rng(7);
  for (int Case = 0; Case < 50; ++Case) {
    const unsigned P = 2 + Rng() % 4;
    const int64_t N = 40 + Rng() % 300;
    const int64_t Chunk = 1 + Rng() % 4;
    std::vector<double> Speed(P);
    for (double &S : Speed)
      S = 1 + static_cast<double>(Rng() % 4);
    const double Growth = 1 + static_cast<double>(Rng() % 20);
    Cost C = [&](int64_t I) {
      return 1 + (Growth - 1) * static_cast<double>(I) / static_cast<double>(N);
    };
    ChunkMemory M(N, Chunk, P);
    std::vector<int> Ran;
    const std::vector<double> First = follow(M, Speed, C, Ran);
    M.endFollow();
    for (unsigned Q = 0; Q < P; ++Q) {
      const IndexSet Owned = M.owned(Q);
      for (const Range &R : Owned.ranges())
        for (int64_t I = R.Begin; I < R.End; ++I)
          EXPECT_EQ(Ran[static_cast<size_t>(I / Chunk)], static_cast<int>(Q));
    }
    // The largest chunk's time bounds a dynamic schedule's imbalance.
    double Largest = 0, Total = 0;
    for (int64_t K = 0; K < M.chunks(); ++K) {
      double W = 0;
      for (int64_t I = M.chunk(K).Begin; I < M.chunk(K).End; ++I)
        W += C(I);
      Largest = std::max(Largest, W);
      Total += W;
    }
    double SpeedSum = 0;
    for (double S : Speed)
      SpeedSum += S;
    const double Ideal = Total / SpeedSum;
    const std::vector<double> Kept = keep(M, Speed, C);
    double KeptMax = *std::max_element(Kept.begin(), Kept.end());
    EXPECT_LE(KeptMax,
              Ideal + Largest / *std::min_element(Speed.begin(), Speed.end()) +
                  1e-9)
        << "case " << Case;
    EXPECT_NEAR(KeptMax, *std::max_element(First.begin(), First.end()), 1e-9);
    // Costs unchanged: the kept executions never drift.
    for (int E = 0; E < 5; ++E)
      M.observe(Kept);
    EXPECT_FALSE(M.following());
  }
}

TEST(ChunkMemoryTest, DriftTwiceInARowFollowsAgainMovingLittle) {
  ChunkMemory M(200, 5, 4);
  std::vector<double> Speed{1, 1, 1, 1};
  Cost Flat = [](int64_t) { return 1.0; };
  std::vector<int> Ran;
  follow(M, Speed, Flat, Ran);
  M.endFollow();
  // One drifted execution is noise; two in a row are a drift.
  EXPECT_GT(M.observe({1.0, 1.0, 1.0, 2.0}), ChunkMemory::DriftRatio);
  EXPECT_FALSE(M.following());
  M.observe({1.0, 1.0, 1.0, 1.0});
  M.observe({1.0, 1.0, 1.0, 2.0});
  EXPECT_FALSE(M.following());
  M.observe({1.0, 1.0, 1.0, 2.0});
  EXPECT_TRUE(M.following());
  EXPECT_NE(M.followWhy().find("drifted apart"), std::string::npos);
  // Device 3 became 3x slower: the follow moves some of its chunks, and
  // leaves every other device's own where they are.
  Speed[3] = 1.0 / 3;
  std::vector<IndexSet> Before;
  for (unsigned P = 0; P < 4; ++P)
    Before.push_back(M.owned(P));
  follow(M, Speed, Flat, Ran);
  std::vector<ChunkMemory::Move> Moves = M.endFollow();
  EXPECT_FALSE(Moves.empty());
  for (const ChunkMemory::Move &Mv : Moves)
    EXPECT_EQ(Mv.From, 3u);
  // Within a chunk of the slowest device's time (15) of the ideal (60).
  const std::vector<double> Kept = keep(M, Speed, Flat);
  EXPECT_LE(*std::max_element(Kept.begin(), Kept.end()), 60 + 15 + 1e-9);
  EXPECT_LE(imbalance(Kept), 1.3);
}

} // namespace
} // namespace homp
