//===-- IndexSetTest.cpp - Sets of indices and boxes of them --------------===//
//
// Every operation on ranges, index sets, boxes and product sets, checked
// against the same operation on plain lists of indices: exhaustively for
// the sets of a small window (every bitmask), and on random inputs beyond.
//
//===----------------------------------------------------------------------===//

#include "homp/IndexSet.h"

#include "Reference.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

using namespace homp;
using namespace homp::reference;

namespace {

using Indices = std::set<int64_t>;

Indices indicesOf(const IndexSet &S) {
  std::vector<int64_t> M = members(S);
  return Indices(M.begin(), M.end());
}

/// Every set within [Base, Base + Bits).
template <typename F> void forEveryMask(unsigned Bits, int64_t Base, F &&Fn) {
  for (uint64_t M = 0; M < (uint64_t(1) << Bits); ++M)
    Fn(M, maskSet(M, Base), bitsOf(M, Base));
}

std::string maskText(uint64_t M) {
  std::string S;
  for (unsigned B = 0; B < 16; ++B)
    S += (M >> B & 1) ? '#' : '.';
  return S;
}

Box box(std::vector<Range> Dims) {
  Box B;
  B.Rank = static_cast<unsigned>(Dims.size());
  for (unsigned I = 0; I < B.Rank; ++I)
    B.Dims[I] = Dims[I];
  return B;
}

/// A random box of Rank dimensions within [-2, 6) each, possibly empty.
/// The widest extent up to Width whose Rank-th power is at most 1000
/// (at least 2): the tests that list every point stay small at every rank.
int64_t widthFor(unsigned Rank, int64_t Width) {
  auto Points = [Rank](int64_t W) {
    int64_t P = 1;
    for (unsigned I = 0; I < Rank; ++I)
      P *= W;
    return P;
  };
  while (Width > 2 && Points(Width) > 1000)
    --Width;
  return Width;
}

Box randomBox(Random &R, unsigned Rank) {
  Box B;
  B.Rank = Rank;
  int64_t Width = widthFor(Rank, 5);
  for (unsigned I = 0; I < Rank; ++I) {
    int64_t Lo = R.between(-2, 5);
    B.Dims[I] = {Lo, Lo + R.between(-1, Width)};
  }
  return B;
}

/// A random product set of Rank dimensions within [-3, 7) each (narrower
/// from four dimensions on).
ProductSet randomProduct(Random &R, unsigned Rank) {
  ProductSet P;
  P.Rank = Rank;
  unsigned Width = static_cast<unsigned>(widthFor(Rank, 10));
  for (unsigned I = 0; I < Rank; ++I)
    P.Dims[I] = maskSet(R.bits(Width), -3);
  return P;
}

using Point = std::vector<int64_t>;

std::set<Point> pointSet(const Box &B) {
  std::vector<Point> P = points(B);
  return std::set<Point>(P.begin(), P.end());
}

std::set<Point> pointSet(const ProductSet &S) {
  std::vector<Point> P = points(S);
  return std::set<Point>(P.begin(), P.end());
}

} // namespace

//===----------------------------------------------------------------------===//
// Range
//===----------------------------------------------------------------------===//

TEST(Range, SizeAndEmptiness) {
  EXPECT_EQ((Range{2, 7}).size(), 5);
  EXPECT_EQ((Range{-3, -1}).size(), 2);
  EXPECT_EQ((Range{4, 4}).size(), 0);
  EXPECT_EQ((Range{5, 2}).size(), 0);
  EXPECT_TRUE((Range{5, 2}).empty());
  EXPECT_FALSE((Range{5, 6}).empty());
}

TEST(Range, AllEmptyRangesAreEqual) {
  EXPECT_EQ((Range{3, 3}), (Range{0, 0}));
  EXPECT_EQ((Range{9, -4}), (Range{1, 1}));
  EXPECT_NE((Range{0, 1}), (Range{0, 0}));
  EXPECT_NE((Range{0, 2}), (Range{1, 2}));
}

TEST(Range, ContainsAndIntersectAgainstIndices) {
  for (int64_t A = -3; A <= 3; ++A)
    for (int64_t B = -3; B <= 3; ++B)
      for (int64_t C = -3; C <= 3; ++C)
        for (int64_t D = -3; D <= 3; ++D) {
          Range X{A, B}, Y{C, D};
          bool Inside = true;
          Indices Both;
          for (int64_t I = C; I < D; ++I) {
            Inside &= A <= I && I < B;
            if (A <= I && I < B)
              Both.insert(I);
          }
          EXPECT_EQ(X.contains(Y), Inside);
          Range Z = X.intersect(Y);
          EXPECT_EQ(indicesOf(IndexSet(Z)), Both);
          EXPECT_FALSE(Z.Begin > Z.End) << "an empty result is [0, 0)";
        }
  EXPECT_TRUE((Range{0, 3}).contains(int64_t(0)));
  EXPECT_FALSE((Range{0, 3}).contains(int64_t(3)));
}

//===----------------------------------------------------------------------===//
// IndexSet
//===----------------------------------------------------------------------===//

TEST(IndexSet, AddMergesAdjacentAndOverlappingRanges) {
  IndexSet S;
  S.add({0, 3});
  S.add({3, 5}); // adjacent
  S.add({4, 6}); // overlapping the last
  S.add({8, 8}); // empty
  S.add({8, 9});
  EXPECT_EQ(S.ranges(), (std::vector<Range>{{0, 6}, {8, 9}}));
  EXPECT_EQ(S.size(), 7);
}

TEST(IndexSet, FromARange) {
  EXPECT_EQ(IndexSet(Range{2, 5}).ranges(), (std::vector<Range>{{2, 5}}));
  EXPECT_TRUE(IndexSet(Range{5, 2}).empty());
  EXPECT_TRUE(IndexSet().empty());
}

TEST(IndexSet, Text) {
  IndexSet S;
  S.add({0, 3});
  EXPECT_EQ(S.str(), "[0, 3)");
  S.add({5, 6});
  EXPECT_EQ(S.str(), "{[0, 3), [5, 6)}");
  EXPECT_EQ(IndexSet().str(), "{}");
  // Up to six ranges in full; more: the first three, the last three and
  // their number (an error message about a CYCLIC set stays one line).
  for (int64_t I = 2; I < 6; ++I)
    S.add({4 * I, 4 * I + 1});
  EXPECT_EQ(S.str(), "{[0, 3), [5, 6), [8, 9), [12, 13), [16, 17), [20, 21)}");
  S.add({24, 25});
  EXPECT_EQ(S.str(), "{[0, 3), [5, 6), [8, 9), ..., [16, 17), [20, 21), "
                     "[24, 25)} (7 ranges)");
  for (int64_t I = 7; I < 250000; ++I)
    S.add({4 * I, 4 * I + 1});
  EXPECT_EQ(S.str(), "{[0, 3), [5, 6), [8, 9), ..., [999988, 999989), "
                     "[999992, 999993), [999996, 999997)} (250000 ranges)");
}

// Built one index at a time, the set of every bitmask has the indices of
// the mask and no others, in its canonical form.
TEST(IndexSet, SizeHullAndMembershipOfEverySet) {
  forEveryMask(12, -4, [](uint64_t M, const IndexSet &S, const Indices &I) {
    ASSERT_TRUE(wellFormed(S)) << maskText(M);
    EXPECT_EQ(indicesOf(S), I) << maskText(M);
    EXPECT_EQ(S.size(), static_cast<int64_t>(I.size()));
    EXPECT_EQ(S.empty(), I.empty());
    if (I.empty())
      EXPECT_TRUE(S.hull().empty());
    else
      EXPECT_EQ(S.hull(), (Range{*I.begin(), *I.rbegin() + 1}));
    for (int64_t X = -6; X < 10; ++X)
      EXPECT_EQ(S.contains(X), I.count(X) == 1) << maskText(M) << " " << X;
  });
}

// Every pair of sets within [0, 8) (and one shifted), for every binary
// operation.
TEST(IndexSet, BinaryOperationsOnEveryPair) {
  for (uint64_t MA = 0; MA < 256; ++MA)
    for (uint64_t MB = 0; MB < 512; ++MB) {
      IndexSet A = maskSet(MA), B = maskSet(MB, -1);
      Indices IA = bitsOf(MA), IB = bitsOf(MB, -1);
      Indices Inter, Union = IA, Minus;
      Union.insert(IB.begin(), IB.end());
      for (int64_t X : IA)
        (IB.count(X) ? Inter : Minus).insert(X);
      IndexSet I = A.intersect(B), U = A.unite(B), D = A.minus(B);
      ASSERT_TRUE(wellFormed(I) && wellFormed(U) && wellFormed(D))
          << A.str() << " " << B.str();
      ASSERT_EQ(indicesOf(I), Inter) << A.str() << " & " << B.str();
      ASSERT_EQ(indicesOf(U), Union) << A.str() << " | " << B.str();
      ASSERT_EQ(indicesOf(D), Minus) << A.str() << " - " << B.str();
      ASSERT_EQ(A.contains(B),
                std::includes(IA.begin(), IA.end(), IB.begin(), IB.end()))
          << A.str() << " contains " << B.str();
      ASSERT_EQ(A == B, IA == IB);
    }
}

TEST(IndexSet, BinaryOperationsOnRandomWideSets) {
  Random R(1);
  for (int N = 0; N < 3000; ++N) {
    uint64_t MA = R.bits(40), MB = R.bits(40);
    int64_t BaseA = R.between(-20, 20), BaseB = R.between(-20, 20);
    // Sparse sets as well as dense ones.
    if (N % 3 == 0)
      MA &= R.bits(40);
    if (N % 5 == 0)
      MB |= R.bits(40);
    IndexSet A = maskSet(MA, BaseA), B = maskSet(MB, BaseB);
    Indices IA = bitsOf(MA, BaseA), IB = bitsOf(MB, BaseB);
    Indices Inter, Union = IA, Minus;
    Union.insert(IB.begin(), IB.end());
    for (int64_t X : IA)
      (IB.count(X) ? Inter : Minus).insert(X);
    ASSERT_EQ(indicesOf(A.intersect(B)), Inter) << A.str() << " " << B.str();
    ASSERT_EQ(indicesOf(A.unite(B)), Union) << A.str() << " " << B.str();
    ASSERT_EQ(indicesOf(A.minus(B)), Minus) << A.str() << " " << B.str();
    ASSERT_EQ(A.contains(B),
              std::includes(IA.begin(), IA.end(), IB.begin(), IB.end()));
    ASSERT_TRUE(A.contains(A.intersect(B)));
    ASSERT_TRUE(A.unite(B).contains(B));
  }
}

TEST(IndexSet, WidenedByEveryLowAndHigh) {
  forEveryMask(10, -2, [](uint64_t M, const IndexSet &S, const Indices &I) {
    for (int64_t Lo = -3; Lo <= 3; ++Lo)
      for (int64_t Hi = -3; Hi <= 3; ++Hi) {
        Indices Want;
        for (int64_t X : I)
          for (int64_t D = Lo; D <= Hi; ++D)
            Want.insert(X + D);
        IndexSet W = S.widened(Lo, Hi);
        ASSERT_TRUE(wellFormed(W));
        ASSERT_EQ(indicesOf(W), Want)
            << maskText(M) << " widened by " << Lo << ".." << Hi;
      }
  });
}

// The runs enumerate exactly the set's indices, each once, and are never
// more than its ranges.
TEST(IndexSet, StridedRunsOfEverySet) {
  forEveryMask(14, -3, [](uint64_t M, const IndexSet &S, const Indices &I) {
    std::vector<Strided> Runs = S.stridedRuns();
    ASSERT_LE(Runs.size(), S.ranges().size()) << maskText(M);
    std::multiset<int64_t> Seen;
    for (const Strided &R : Runs) {
      ASSERT_GE(R.Count, 1) << maskText(M);
      ASSERT_GE(R.Stride, 1) << maskText(M);
      for (int64_t K = 0; K < R.Count; ++K)
        Seen.insert(R.Begin + K * R.Stride);
      EXPECT_EQ(R.last(), R.Begin + (R.Count - 1) * R.Stride);
    }
    ASSERT_EQ(Seen.size(), I.size()) << maskText(M) << ": an index twice";
    ASSERT_EQ(Indices(Seen.begin(), Seen.end()), I) << maskText(M);
  });
}

// A CYCLIC part (blocks of B at a period) becomes B runs, one per position
// in the block, when it has more blocks than B.
TEST(IndexSet, StridedRunsOfACyclicPart) {
  IndexSet S;
  S.add({0, 2});
  S.add({6, 8});
  S.add({12, 14});
  S.add({18, 19}); // a shorter last block
  EXPECT_EQ(S.stridedRuns(), (std::vector<Strided>{{0, 4, 6}, {1, 3, 6}}));
  // Single indices at a period: one run.
  IndexSet T;
  for (int64_t I = 3; I < 40; I += 5)
    T.add({I, I + 1});
  EXPECT_EQ(T.stridedRuns(), (std::vector<Strided>{{3, 8, 5}}));
  // As many blocks as indices per block: one run per range.
  IndexSet U;
  U.add({0, 2});
  U.add({4, 6});
  EXPECT_EQ(U.stridedRuns(), (std::vector<Strided>{{0, 2, 1}, {4, 2, 1}}));
}

//===----------------------------------------------------------------------===//
// Box
//===----------------------------------------------------------------------===//

TEST(Box, VolumeOfEveryShape) {
  EXPECT_EQ(box({{0, 4}}).volume(), 4);
  EXPECT_EQ(box({{0, 4}, {1, 3}}).volume(), 8);
  EXPECT_EQ(box({{0, 4}, {1, 3}, {-2, 3}}).volume(), 40);
  EXPECT_EQ(box({{0, 4}, {3, 1}, {-2, 3}}).volume(), 0);
  EXPECT_EQ(Box().volume(), 0) << "a box of no dimensions holds nothing";
  EXPECT_TRUE(Box().empty());
}

TEST(Box, TextAndEquality) {
  EXPECT_EQ(box({{0, 4}, {1, 3}}).str(), "[0, 4)[1, 3)");
  EXPECT_EQ(box({{0, 4}, {1, 3}}), box({{0, 4}, {1, 3}}));
  EXPECT_FALSE(box({{0, 4}, {1, 3}}) == box({{0, 4}, {1, 4}}));
  EXPECT_FALSE(box({{0, 4}}) == box({{0, 4}, {0, 1}}));
  // Empty boxes are equal whatever their shape.
  EXPECT_EQ(box({{0, 0}, {1, 3}}), box({{5, 2}}));
}

TEST(Box, IntersectAndContainsAgainstPoints) {
  Random R(2);
  for (unsigned Rank = 1; Rank <= MaxRank; ++Rank)
    for (int N = 0; N < 1500; ++N) {
      Box A = randomBox(R, Rank), B = randomBox(R, Rank);
      std::set<Point> PA = pointSet(A), PB = pointSet(B), Both;
      for (const Point &P : PA)
        if (PB.count(P))
          Both.insert(P);
      Box I = A.intersect(B);
      ASSERT_EQ(pointSet(I), Both) << A.str() << " & " << B.str();
      ASSERT_EQ(I.volume(), static_cast<int64_t>(Both.size()));
      ASSERT_EQ(A.contains(B),
                std::includes(PA.begin(), PA.end(), PB.begin(), PB.end()))
          << A.str() << " contains " << B.str();
      ASSERT_EQ(A == B, PA == PB) << A.str() << " == " << B.str();
    }
}

// A \ B as disjoint non-empty boxes inside A, at most two per dimension,
// whose points are exactly those of A not in B: every pair of ranges of
// [0, 5) in one dimension, random boxes in two and three.
TEST(Box, SubtractGivesDisjointBoxesCoveringTheDifference) {
  auto Check = [](const Box &A, const Box &B) {
    std::vector<Box> Parts = subtract(A, B);
    std::string What = A.str() + " - " + B.str();
    ASSERT_LE(Parts.size(), 2 * A.Rank) << What;
    std::set<Point> Want, Got;
    for (const Point &P : points(A))
      if (!inBox(B, P))
        Want.insert(P);
    size_t Total = 0;
    for (const Box &Part : Parts) {
      ASSERT_FALSE(Part.empty()) << What;
      ASSERT_TRUE(A.contains(Part)) << What << ": " << Part.str();
      for (const Point &P : points(Part))
        Got.insert(P);
      Total += Part.volume();
    }
    ASSERT_EQ(Total, Got.size()) << What << ": boxes overlap";
    ASSERT_EQ(Got, Want) << What;
  };
  for (int64_t A0 = 0; A0 <= 5; ++A0)
    for (int64_t A1 = A0; A1 <= 5; ++A1)
      for (int64_t B0 = -1; B0 <= 6; ++B0)
        for (int64_t B1 = B0; B1 <= 6; ++B1)
          Check(box({{A0, A1}}), box({{B0, B1}}));
  Random R(3);
  for (unsigned Rank = 2; Rank <= MaxRank; ++Rank)
    for (int N = 0; N < 2000; ++N)
      Check(randomBox(R, Rank), randomBox(R, Rank));
}

TEST(Box, SubtractOfACentreLeavesTheFrame) {
  // A 3x3 block out of a 5x5 box: the rows above and below, then the
  // columns left and right of the middle rows.
  std::vector<Box> Parts =
      subtract(box({{0, 5}, {0, 5}}), box({{1, 4}, {1, 4}}));
  EXPECT_EQ(Parts,
            (std::vector<Box>{box({{0, 1}, {0, 5}}), box({{4, 5}, {0, 5}}),
                              box({{1, 4}, {0, 1}}), box({{1, 4}, {4, 5}})}));
  EXPECT_EQ(subtract(box({{0, 5}}), box({{0, 5}})), std::vector<Box>{});
  EXPECT_EQ(subtract(box({{0, 5}}), box({{7, 9}})),
            std::vector<Box>{box({{0, 5}})});
}

//===----------------------------------------------------------------------===//
// ProductSet
//===----------------------------------------------------------------------===//

TEST(ProductSet, OfABoxHasItsPoints) {
  Box B = box({{1, 3}, {-2, 0}, {5, 6}});
  ProductSet P = ProductSet::of(B);
  EXPECT_EQ(P.Rank, 3u);
  EXPECT_EQ(pointSet(P), pointSet(B));
  EXPECT_EQ(P.volume(), 4);
  EXPECT_EQ(P.hull(), B);
  EXPECT_EQ(P.boxCount(), 1u);
}

TEST(ProductSet, Text) {
  ProductSet P;
  P.Rank = 2;
  P.Dims[0] = IndexSet(Range{0, 2});
  P.Dims[1].add({1, 2});
  P.Dims[1].add({4, 6});
  EXPECT_EQ(P.str(), "[0, 2) x {[1, 2), [4, 6)}");
}

TEST(ProductSet, OperationsAgainstPoints) {
  Random R(4);
  for (unsigned Rank = 1; Rank <= MaxRank; ++Rank)
    for (int N = 0; N < 400; ++N) {
      ProductSet A = randomProduct(R, Rank), B = randomProduct(R, Rank);
      if (N % 4 == 0) // make containment likely
        B = A.intersect(randomProduct(R, Rank));
      std::set<Point> PA = pointSet(A), PB = pointSet(B), Both;
      for (const Point &P : PA)
        if (PB.count(P))
          Both.insert(P);
      std::string What = A.str() + " / " + B.str();
      ASSERT_EQ(A.volume(), static_cast<int64_t>(PA.size())) << What;
      ASSERT_EQ(A.empty(), PA.empty()) << What;
      ASSERT_EQ(pointSet(A.intersect(B)), Both) << What;
      ASSERT_EQ(A.contains(B),
                std::includes(PA.begin(), PA.end(), PB.begin(), PB.end()))
          << What;
      ASSERT_EQ(A == B, PA == PB) << What;

      // The hull is the smallest box holding every point.
      Box H = A.hull();
      if (PA.empty()) {
        ASSERT_TRUE(H.empty()) << What;
        continue;
      }
      for (unsigned D = 0; D < Rank; ++D) {
        int64_t Lo = INT64_MAX, Hi = INT64_MIN;
        for (const Point &P : PA) {
          Lo = std::min(Lo, P[D]);
          Hi = std::max(Hi, P[D]);
        }
        ASSERT_EQ(H.Dims[D], (Range{Lo, Hi + 1})) << What;
      }
    }
}

// forEachBox visits boxCount() disjoint boxes that together hold exactly
// the set's points.
TEST(ProductSet, BoxesTileTheSet) {
  Random R(5);
  for (unsigned Rank = 1; Rank <= MaxRank; ++Rank)
    for (int N = 0; N < 400; ++N) {
      ProductSet A = randomProduct(R, Rank);
      std::set<Point> Got;
      size_t Boxes = 0;
      int64_t Total = 0;
      A.forEachBox([&](const Box &B) {
        ++Boxes;
        EXPECT_EQ(B.Rank, Rank);
        EXPECT_FALSE(B.empty());
        Total += B.volume();
        for (const Point &P : points(B))
          Got.insert(P);
      });
      ASSERT_EQ(Boxes, A.boxCount()) << A.str();
      ASSERT_EQ(Total, static_cast<int64_t>(Got.size())) << A.str();
      ASSERT_EQ(Got, pointSet(A)) << A.str();
    }
}

TEST(ProductSet, EmptyInOneDimensionIsEmpty) {
  ProductSet P;
  P.Rank = 2;
  P.Dims[0] = IndexSet(Range{0, 5});
  EXPECT_TRUE(P.empty());
  EXPECT_EQ(P.boxCount(), 0u);
  unsigned Calls = 0;
  P.forEachBox([&](const Box &) { ++Calls; });
  EXPECT_EQ(Calls, 0u);
  EXPECT_EQ(P, ProductSet()) << "empty sets are equal whatever their rank";
  ProductSet Q = ProductSet::of(box({{0, 1}, {0, 1}}));
  EXPECT_TRUE(Q.contains(P));
  EXPECT_FALSE(P.contains(Q));
}

TEST(IndexSet, GapsGoToTheirNeighboursIndexByIndex) {
  // Random sets of [0, 12) over 4 positions, some equal, some not live:
  // every index no live set holds goes, with its whole run of such
  // indices, to the live sets equal to the first live one holding the
  // index after the run (a run at the start) or before it.
  std::mt19937 Rng(7);
  for (int Case = 0; Case < 2000; ++Case) {
    const Range Whole{2, 12};
    std::vector<IndexSet> Sets(4);
    std::vector<bool> Live(4);
    for (unsigned P = 0; P < 4; ++P) {
      Live[P] = Rng() % 4 != 0;
      if (P > 0 && Rng() % 4 == 0) {
        Sets[P] = Sets[P - 1];
        continue;
      }
      for (int64_t I = 0; I < 14; ++I)
        if (Rng() % 5 == 0)
          Sets[P] = Sets[P].unite(IndexSet(Range{I, I + 1}));
    }
    std::vector<IndexSet> Got = Sets;
    bool Any = false;
    for (unsigned P = 0; P < 4; ++P)
      Any |= Live[P] && !Sets[P].intersect(IndexSet(Whole)).empty();
    ASSERT_EQ(giveGapsToNeighbours(Got, Whole, Live), Any);
    if (!Any) {
      EXPECT_EQ(Got, Sets) << "nothing changes";
      continue;
    }
    auto Held = [&](int64_t I) {
      for (unsigned P = 0; P < 4; ++P)
        if (Live[P] && Sets[P].contains(I))
          return true;
      return false;
    };
    for (unsigned P = 0; P < 4; ++P) {
      if (!Live[P]) {
        EXPECT_EQ(Got[P], Sets[P]) << "a position not live keeps its set";
        continue;
      }
      for (int64_t I = Whole.Begin; I < Whole.End; ++I) {
        if (Held(I)) {
          EXPECT_EQ(Got[P].contains(I), Sets[P].contains(I));
          continue;
        }
        // The run's neighbour: before it, else (at the start) after it.
        int64_t B = I, E = I;
        while (B > Whole.Begin && !Held(B - 1))
          --B;
        while (E < Whole.End && !Held(E))
          ++E;
        const int64_t Next = B > Whole.Begin ? B - 1 : E;
        int Owner = -1;
        for (unsigned Q = 0; Q < 4 && Owner < 0; ++Q)
          if (Live[Q] && Sets[Q].contains(Next))
            Owner = static_cast<int>(Q);
        ASSERT_GE(Owner, 0);
        EXPECT_EQ(Got[P].contains(I), Sets[P] == Sets[Owner])
            << "index " << I << " position " << P;
      }
    }
  }
}
