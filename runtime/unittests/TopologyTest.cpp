//===-- TopologyTest.cpp - Devices arranged in a grid ---------------------===//
//
// makeTopology for every device count up to 64 and every shape of '*' and
// fixed dimensions, against every factorization of the count; coordinates
// against counting through the grid row-major.
//
//===----------------------------------------------------------------------===//

#include "homp/Topology.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

using namespace homp;

namespace {

using Shape = std::vector<std::optional<int64_t>>;
const std::optional<int64_t> Star = std::nullopt;

std::string shapeText(const Shape &S) {
  std::string T;
  for (const std::optional<int64_t> &D : S)
    T += "[" + (D ? std::to_string(*D) : std::string("*")) + "]";
  return T;
}

std::optional<Topology> make(unsigned N, const Shape &S) {
  std::string Error;
  std::optional<Topology> T = makeTopology(N, S, Error);
  EXPECT_TRUE(T.has_value()) << shapeText(S) << " of " << N << ": " << Error;
  return T;
}

std::string refusal(unsigned N, const Shape &S) {
  std::string Error;
  std::optional<Topology> T = makeTopology(N, S, Error);
  EXPECT_FALSE(T.has_value())
      << shapeText(S) << " of " << N << " gave " << (T ? T->str() : "");
  return Error;
}

/// Every way to write N as K factors, each sorted ascending.
std::vector<std::vector<unsigned>> factorizations(unsigned N, unsigned K) {
  if (K == 1)
    return {{N}};
  std::vector<std::vector<unsigned>> Out;
  for (unsigned D = 1; D <= N; ++D)
    if (N % D == 0)
      for (std::vector<unsigned> F : factorizations(N / D, K - 1)) {
        F.push_back(D);
        std::sort(F.begin(), F.end());
        Out.push_back(F);
      }
  return Out;
}

/// The most balanced grid of N devices in K dimensions: the smallest
/// largest side, then the largest smallest side.
std::vector<unsigned> mostBalanced(unsigned N, unsigned K) {
  std::vector<std::vector<unsigned>> All = factorizations(N, K);
  return *std::min_element(All.begin(), All.end(),
                           [](const auto &A, const auto &B) {
                             if (A.back() != B.back())
                               return A.back() < B.back();
                             return A.front() > B.front();
                           });
}

/// Every shape of up to MaxTopologyRank dimensions with '*' and the given fixed
/// sizes.
std::vector<Shape> shapesWith(const std::vector<int64_t> &Sizes) {
  std::vector<Shape> Out;
  std::vector<std::optional<int64_t>> Choices = {Star};
  for (int64_t S : Sizes)
    Choices.push_back(S);
  for (unsigned Rank = 1; Rank <= homp::abi::MaxTopologyRank; ++Rank) {
    std::vector<unsigned> At(Rank, 0);
    while (true) {
      Shape S;
      for (unsigned I = 0; I < Rank; ++I)
        S.push_back(Choices[At[I]]);
      Out.push_back(S);
      unsigned I = Rank;
      while (I > 0 && ++At[I - 1] == Choices.size())
        At[--I] = 0;
      if (I == 0)
        break;
    }
  }
  return Out;
}

} // namespace

// The fixed dimensions are kept, the '*' ones take the most balanced
// factorization of what is left in ascending order, and the grid holds every
// device; shapes that cannot arrange the devices are refused.
TEST(Topology, EveryCountAndShape) {
  std::vector<Shape> Shapes = shapesWith({1, 2, 3, 4, 6});
  unsigned Made = 0;
  for (unsigned N = 1; N <= 64; ++N)
    for (const Shape &S : Shapes) {
      int64_t Given = 1;
      unsigned Stars = 0;
      for (const std::optional<int64_t> &D : S)
        D ? Given *= *D : ++Stars;
      std::string What = shapeText(S) + " of " + std::to_string(N);
      bool Possible = N % Given == 0 && (Stars > 0 || Given == N);
      if (!Possible) {
        refusal(N, S);
        continue;
      }
      std::optional<Topology> T = make(N, S);
      ASSERT_TRUE(T) << What;
      ++Made;
      ASSERT_EQ(T->rank(), S.size()) << What;
      EXPECT_EQ(T->size(), N) << What;
      std::vector<unsigned> Free;
      for (unsigned I = 0; I < S.size(); ++I)
        if (S[I])
          EXPECT_EQ(T->Dims[I], *S[I]) << What;
        else
          Free.push_back(T->Dims[I]);
      if (Stars)
        EXPECT_EQ(Free, mostBalanced(N / Given, Stars))
            << What << " gave " << T->str();
    }
  EXPECT_GT(Made, 1000u);
}

TEST(Topology, StarsAreBalancedInAscendingOrder) {
  EXPECT_EQ(make(8, {Star, Star})->Dims, (std::vector<unsigned>{2, 4}));
  EXPECT_EQ(make(8, {Star, Star, Star})->Dims,
            (std::vector<unsigned>{2, 2, 2}));
  EXPECT_EQ(make(12, {Star, Star, Star})->Dims,
            (std::vector<unsigned>{2, 2, 3}));
  EXPECT_EQ(make(7, {Star, Star})->Dims, (std::vector<unsigned>{1, 7}));
  EXPECT_EQ(make(12, {Star, 2, Star})->Dims, (std::vector<unsigned>{2, 2, 3}));
  EXPECT_EQ(make(6, {3, Star})->Dims, (std::vector<unsigned>{3, 2}));
  EXPECT_EQ(make(4, {Star})->Dims, (std::vector<unsigned>{4}));
}

// Beyond 64 devices a greedy choice of the first factor is no longer the
// most balanced grid.
TEST(Topology, StarsAreBalancedForLargeCounts) {
  EXPECT_EQ(make(68, {Star, Star, Star})->Dims,
            (std::vector<unsigned>{2, 2, 17}));
  EXPECT_EQ(make(108, {Star, Star, Star})->Dims,
            (std::vector<unsigned>{3, 6, 6}));
  EXPECT_EQ(make(1024, {Star, Star, Star})->Dims,
            (std::vector<unsigned>{8, 8, 16}));
}

TEST(Topology, NonPositiveSizesAreRefused) {
  EXPECT_EQ(refusal(4, {0}), "topology dimension 0 is not positive");
  EXPECT_EQ(refusal(4, {Star, -2}), "topology dimension -2 is not positive");
  EXPECT_EQ(refusal(4, {2, -1, Star}), "topology dimension -1 is not positive");
}

TEST(Topology, SizesThatDoNotDivideAreRefused) {
  EXPECT_EQ(refusal(4, {3}), "topology [3] does not arrange 4 devices");
  EXPECT_EQ(refusal(4, {3, Star}),
            "topology [3][*] does not arrange 4 devices");
  EXPECT_EQ(refusal(8, {2, 2}), "topology [2][2] does not arrange 8 devices");
  EXPECT_EQ(refusal(1, {2, Star}), "topology [2][*] does not arrange 1 device");
  EXPECT_EQ(refusal(6, {4, Star, 2}),
            "topology [4][*][2] does not arrange 6 devices");
  // Sizes whose product overflows are refused, not wrapped around.
  EXPECT_EQ(refusal(4, {int64_t(1) << 32, int64_t(1) << 32, Star}),
            "topology [4294967296][4294967296][*] does not arrange 4 devices");
}

TEST(Topology, LineHoldsEveryDevice) {
  Topology T = Topology::line(5);
  EXPECT_EQ(T.rank(), 1u);
  EXPECT_EQ(T.size(), 5u);
  EXPECT_EQ(T.str(), "5");
  EXPECT_EQ(T, *make(5, {Star}));
}

TEST(Topology, TextAndSize) {
  EXPECT_EQ((Topology{{2, 4}}).str(), "2x4");
  EXPECT_EQ((Topology{{2, 1, 3}}).str(), "2x1x3");
  EXPECT_EQ((Topology{{2, 1, 3}}).size(), 6u);
  EXPECT_EQ(Topology().size(), 0u);
}

// Positions count through the grid row-major: the last coordinate fastest.
TEST(Topology, CoordinatesAreRowMajor) {
  for (unsigned A = 1; A <= 4; ++A)
    for (unsigned B = 1; B <= 4; ++B)
      for (unsigned C = 1; C <= 4; ++C) {
        for (const Topology &T :
             {Topology{{A}}, Topology{{A, B}}, Topology{{A, B, C}}}) {
          unsigned P = 0;
          std::array<unsigned, homp::abi::MaxTopologyRank> X{};
          for (X[0] = 0; X[0] < A; ++X[0])
            for (X[1] = 0; X[1] < (T.rank() > 1 ? B : 1); ++X[1])
              for (X[2] = 0; X[2] < (T.rank() > 2 ? C : 1); ++X[2], ++P) {
                EXPECT_EQ(T.coords(P), X) << T.str() << " position " << P;
                EXPECT_EQ(T.position(X), P) << T.str() << " position " << P;
              }
          EXPECT_EQ(P, T.size());
        }
      }
}

TEST(Topology, CoordinatesOfATwoByTwo) {
  Topology T{{2, 2}};
  using C = std::array<unsigned, homp::abi::MaxTopologyRank>;
  EXPECT_EQ(T.coords(0), (C{0, 0, 0}));
  EXPECT_EQ(T.coords(1), (C{0, 1, 0}));
  EXPECT_EQ(T.coords(2), (C{1, 0, 0}));
  EXPECT_EQ(T.coords(3), (C{1, 1, 0}));
}
