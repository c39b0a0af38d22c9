//===-- RankKernelTest.cpp - A kernel run over ranks ----------------------===//
//
// The rank split of a kernel against brute force: walking every iteration
// of each rank's part, each element it touches lies in the section it maps,
// each element it writes in the box it sends, and the parts cover the loop
// once, in rank order; two ranks writing one element, or a write homp
// cannot bound, keep the kernel whole on every rank.
//
//===----------------------------------------------------------------------===//

#include "homp/KernelPlan.h"
#include "homp/RankPlan.h"

#include <gtest/gtest.h>

#include <random>
#include <set>

using namespace homp;

namespace {

homp::abi::Subscript linear(unsigned Loop, int64_t Min, int64_t Max) {
  homp::abi::Subscript S;
  S.Kind = homp::abi::Subscript::Linear;
  S.Loop = Loop;
  S.Min = Min;
  S.Max = Max;
  return S;
}

homp::abi::Subscript invariant(int64_t Min, int64_t Max) {
  homp::abi::Subscript S;
  S.Kind = homp::abi::Subscript::Invariant;
  S.Min = Min;
  S.Max = Max;
  return S;
}

LoopNest nest(std::vector<LoopBounds> Loops) {
  LoopNest N;
  N.Rank = static_cast<unsigned>(Loops.size());
  for (unsigned L = 0; L < N.Rank; ++L)
    N.Loops[L] = Loops[L];
  unsigned Bad;
  EXPECT_TRUE(N.computeTrips(Bad));
  return N;
}

RankKernelItem item(const std::string &Name, std::vector<int64_t> Extents,
                    bool ToFrom) {
  RankKernelItem I;
  I.Name = Name;
  I.ToFrom = ToFrom;
  I.Shape.Rank = static_cast<unsigned>(Extents.size());
  I.Shape.ElementSize = 8;
  I.Shape.Section.Rank = I.Shape.Rank;
  for (unsigned D = 0; D < I.Shape.Rank; ++D) {
    if (D > 0)
      I.Shape.Extent[D] = Extents[D];
    I.Shape.Section.Dims[D] = {0, Extents[D]};
  }
  return I;
}

bool inBox(const Box &B, const Index &I) {
  for (unsigned D = 0; D < B.Rank; ++D)
    if (!B.Dims[D].contains(I[D]))
      return false;
  return true;
}

/// Walks each rank's iterations (index tuples of the narrowed nest) and
/// checks every element each access touches.
void checkByWalking(const LoopNest &N,
                    const std::vector<homp::abi::Access> &Uses,
                    const std::vector<RankKernelItem> &Items, int Ranks,
                    const RankKernelSplit &S) {
  ASSERT_TRUE(S.Why.empty()) << S.Why;
  ASSERT_EQ(S.Iterations.size(), static_cast<size_t>(Ranks));
  int64_t Next = 0;
  for (int R = 0; R < Ranks; ++R) {
    EXPECT_EQ(S.Iterations[R].Begin, Next);
    Next = S.Iterations[R].End;
    const LoopNest P = narrowLoop(N, S.Loop, S.Iterations[R]);
    EXPECT_EQ(P.Trips[S.Loop], S.Iterations[R].size());
    for (unsigned L = 0; L < N.Rank; ++L) {
      // The narrowed loop's bounds give the same trip count.
      LoopNest Q = P;
      unsigned Bad;
      ASSERT_TRUE(Q.computeTrips(Bad));
      EXPECT_EQ(Q.Trips[L], P.Trips[L]);
    }
    // Every index tuple of the part.
    std::vector<int64_t> K(N.Rank, 0);
    bool Done = P.iterations() == 0;
    while (!Done) {
      for (size_t I = 0; I < Items.size(); ++I)
        for (const homp::abi::Access &A : Uses) {
          if (A.Name != Items[I].Name)
            continue;
          for (bool Write : {false, true}) {
            if (Write && !A.Written)
              continue;
            const auto &Subs = Write ? A.Writes : A.Subs;
            // Every element of the subscripts' ranges.
            std::vector<Range> Rs;
            for (unsigned D = 0; D < A.Rank; ++D) {
              const homp::abi::Subscript &X = Subs[D];
              const int64_t Base = X.Kind == homp::abi::Subscript::Linear
                                       ? indexOf(P.Loops[X.Loop], K[X.Loop])
                                       : 0;
              Rs.push_back({Base + X.Min, Base + X.Max + 1});
            }
            Index E{};
            for (unsigned D = 0; D < A.Rank; ++D)
              E[D] = Rs[D].Begin;
            while (true) {
              if (inBox(Items[I].Shape.Section, E)) {
                EXPECT_TRUE(inBox(S.Sections[I][R], E))
                    << "rank " << R << " item " << I;
                if (Write)
                  EXPECT_TRUE(inBox(S.Written[I][R], E))
                      << "rank " << R << " item " << I;
              }
              int D = static_cast<int>(A.Rank) - 1;
              for (; D >= 0; --D) {
                if (++E[D] < Rs[D].End)
                  break;
                E[D] = Rs[D].Begin;
              }
              if (D < 0)
                break;
            }
          }
        }
      int L = static_cast<int>(N.Rank) - 1;
      for (; L >= 0; --L) {
        if (++K[L] < P.Trips[L])
          break;
        K[L] = 0;
      }
      Done = L < 0;
    }
    // Sections lie within the items' sections.
    for (size_t I = 0; I < Items.size(); ++I)
      EXPECT_TRUE(Items[I].Shape.Section.contains(S.Sections[I][R]));
  }
  EXPECT_EQ(Next, N.Trips[S.Loop]);
}

} // namespace

TEST(RankKernel, StencilRowsOverRanks) {
  // for (i = 1; i < n - 1; ++i) y[i] = x[i - 1] + x[i] + x[i + 1];
  const int64_t Size = 103;
  LoopNest N = nest({{1, Size - 1, 1, CompareOp::Less}});
  homp::abi::Access X{"x", 1, {linear(0, -1, 1)}, false, {}, ""};
  homp::abi::Access Y{"y", 1, {linear(0, 0, 0)}, true, {linear(0, 0, 0)}, ""};
  std::vector<RankKernelItem> Items = {item("x", {Size}, false),
                                       item("y", {Size}, true)};
  for (int Ranks : {1, 2, 3, 7, 101}) {
    RankKernelSplit S = splitKernelOverRanks(N, {true}, {X, Y}, Items, Ranks);
    checkByWalking(N, {X, Y}, Items, Ranks, S);
    // The written boxes are exactly the rows each rank computes.
    for (int R = 0; R < Ranks; ++R)
      EXPECT_EQ(S.Written[1][R].Dims[0].size(), S.Iterations[R].size());
  }
}

TEST(RankKernel, MoreRanksThanIterations) {
  LoopNest N = nest({{0, 40, 1, CompareOp::Less}});
  homp::abi::Access Y{"y", 1, {linear(0, 0, 0)}, true, {linear(0, 0, 0)}, ""};
  std::vector<RankKernelItem> Items = {item("y", {40}, true)};
  RankKernelSplit S = splitKernelOverRanks(N, {true}, {Y}, Items, 41);
  checkByWalking(N, {Y}, Items, 41, S);
  for (int R = 0; R < 41; ++R) {
    EXPECT_EQ(S.Iterations[R].size(), R < 40 ? 1 : 0);
    EXPECT_EQ(S.Written[0][R].volume(), R < 40 ? 1 : 0);
    EXPECT_FALSE(S.Sections[0][R].empty()); // one element, at least
  }
}

TEST(RankKernel, ToFromRowsAreWhole) {
  // out[i][j] for j in [1, 9): tofrom, each rank's box is its whole rows;
  // mapped from only, just what it writes.
  LoopNest N = nest({{1, 19, 1, CompareOp::Less}, {1, 9, 1, CompareOp::Less}});
  homp::abi::Access Out{"out",
                        2,
                        {linear(0, 0, 0), linear(1, 0, 0)},
                        true,
                        {linear(0, 0, 0), linear(1, 0, 0)},
                        ""};
  for (bool ToFrom : {true, false}) {
    std::vector<RankKernelItem> Items = {item("out", {20, 10}, ToFrom)};
    RankKernelSplit S = splitKernelOverRanks(N, {true, false}, {Out}, Items, 3);
    checkByWalking(N, {Out}, Items, 3, S);
    for (int R = 0; R < 3; ++R)
      EXPECT_EQ(S.Written[0][R].Dims[1], (ToFrom ? Range{0, 10} : Range{1, 9}));
  }
}

TEST(RankKernel, EveryComparisonAndStep) {
  for (auto [First, Bound, Step, Op] :
       std::vector<std::tuple<int64_t, int64_t, int64_t, CompareOp>>{
           {0, 50, 1, CompareOp::Less},
           {3, 50, 4, CompareOp::LessEqual},
           {49, 0, -1, CompareOp::Greater},
           {49, 2, -3, CompareOp::GreaterEqual},
           {0, 48, 1, CompareOp::NotEqual},
           {48, 3, -1, CompareOp::NotEqual}}) {
    LoopNest N = nest({{First, Bound, Step, Op}});
    homp::abi::Access Y{"y", 1, {linear(0, 0, 0)}, true, {linear(0, 0, 0)}, ""};
    std::vector<RankKernelItem> Items = {item("y", {64}, true)};
    for (int Ranks : {2, 3, 5})
      checkByWalking(N, {Y}, Items, Ranks,
                     splitKernelOverRanks(N, {true}, {Y}, Items, Ranks));
  }
}

TEST(RankKernel, RandomNests) {
  std::mt19937 Gen(38);
  for (int Trial = 0; Trial < 200; ++Trial) {
    std::uniform_int_distribution<int64_t> Size(4, 30);
    const int64_t Rows = Size(Gen), Cols = Size(Gen);
    LoopNest N = nest(
        {{0, Rows, 1, CompareOp::Less}, {1, Cols - 1, 1, CompareOp::Less}});
    const bool Outer = Gen() % 2;
    homp::abi::Access A{"a",   2,  {linear(0, -1, 1), linear(1, -1, 1)},
                        false, {}, ""};
    homp::abi::Access B{"b",
                        2,
                        {linear(0, 0, 0), linear(1, 0, 0)},
                        true,
                        {linear(0, 0, 0), linear(1, 0, 0)},
                        ""};
    homp::abi::Access C{"c", 1, {invariant(0, 2)}, false, {}, ""};
    std::vector<RankKernelItem> Items = {item("a", {Rows, Cols}, false),
                                         item("b", {Rows, Cols}, true),
                                         item("c", {3}, false)};
    // Sometimes more ranks than iterations.
    const int Ranks = 1 + static_cast<int>(Gen() % 40);
    const std::vector<bool> Dist = {Outer, !Outer};
    RankKernelSplit S = splitKernelOverRanks(N, Dist, {A, B, C}, Items, Ranks);
    checkByWalking(N, {A, B, C}, Items, Ranks, S);
  }
}

TEST(RankKernel, WholeOnEveryRankWhenUnsure) {
  LoopNest N = nest({{0, 40, 1, CompareOp::Less}});
  std::vector<RankKernelItem> Items = {item("y", {40}, true)};
  // y[0] += ... in every iteration: every rank writes it.
  homp::abi::Access Same{"y", 1, {invariant(0, 0)}, true, {invariant(0, 0)},
                         ""};
  RankKernelSplit S = splitKernelOverRanks(N, {true}, {Same}, Items, 2);
  EXPECT_NE(S.Why.find("would both write elements"), std::string::npos)
      << S.Why;
  // y[idx[i]] = ...: homp cannot bound the write.
  homp::abi::Access Unknown{"y", 1, {}, true, {}, "subscript 'idx[i]'"};
  S = splitKernelOverRanks(N, {true}, {Unknown}, Items, 2);
  EXPECT_NE(S.Why.find("cannot bound where it writes 'y'"), std::string::npos)
      << S.Why;
  // A write to an array it does not map.
  homp::abi::Access Other{"z", 1, {linear(0, 0, 0)}, true, {linear(0, 0, 0)},
                          ""};
  S = splitKernelOverRanks(N, {true}, {Other}, Items, 2);
  EXPECT_NE(S.Why.find("'z', which it does not map"), std::string::npos)
      << S.Why;
  // A loop that runs no iteration.
  homp::abi::Access Y{"y", 1, {linear(0, 0, 0)}, true, {linear(0, 0, 0)}, ""};
  S = splitKernelOverRanks(nest({{0, 0, 1, CompareOp::Less}}), {true}, {Y},
                           Items, 2);
  EXPECT_EQ(S.Why, "its loop runs no iteration");
  // Neighbours' writes (y[i + 1] and y[i]) overlap at each boundary.
  homp::abi::Access Wide{"y", 1, {linear(0, 0, 1)}, true, {linear(0, 0, 1)},
                         ""};
  S = splitKernelOverRanks(nest({{0, 39, 1, CompareOp::Less}}), {true}, {Wide},
                           Items, 3);
  EXPECT_FALSE(S.Why.empty());
}

TEST(RankKernel, RunsCoverBoxesInStorageOrder) {
  std::mt19937 Gen(7);
  for (int Trial = 0; Trial < 300; ++Trial) {
    const unsigned Rank = 1 + Gen() % 4;
    ArrayShape Sh;
    Sh.Rank = Rank;
    Box B{Rank, {}};
    for (unsigned D = 0; D < Rank; ++D) {
      const int64_t E = 1 + Gen() % 5;
      if (D > 0)
        Sh.Extent[D] = E;
      const int64_t Lo = Gen() % E, Hi = Lo + Gen() % (E - Lo + 1);
      B.Dims[D] = Gen() % 3 == 0 ? Range{0, E} : Range{Lo, Hi};
    }
    std::vector<int64_t> Walked;
    forEachRun(Sh, B, [&](int64_t Off, int64_t N) {
      EXPECT_GT(N, 0);
      for (int64_t K = 0; K < N; ++K)
        Walked.push_back(Off + K);
    });
    std::vector<int64_t> Expected;
    if (!B.empty()) {
      Index I{};
      for (unsigned D = 0; D < Rank; ++D)
        I[D] = B.Dims[D].Begin;
      while (true) {
        Expected.push_back(Sh.offset(I));
        int D = static_cast<int>(Rank) - 1;
        for (; D >= 0; --D) {
          if (++I[D] < B.Dims[D].End)
            break;
          I[D] = B.Dims[D].Begin;
        }
        if (D < 0)
          break;
      }
    }
    EXPECT_EQ(Walked, Expected) << B.str();
  }
}
