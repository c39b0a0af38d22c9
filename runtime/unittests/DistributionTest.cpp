//===-- DistributionTest.cpp - Which device holds which elements ----------===//
//
// distributeArray for every policy of 1-D, 2-D and 3-D arrays over 1-D, 2-D
// and 3-D topologies, checked element by element against the plain rules
// (BLOCK as the papers' hand-written split, CYCLIC dealt block by block,
// the k-th split dimension on the k-th topology axis); ALIGN to arrays,
// loops and labels; halos; the host layout.
//
//===----------------------------------------------------------------------===//

#include "homp/Distribution.h"

#include "Reference.h"

#include <gtest/gtest.h>

#include <functional>

#include <algorithm>
#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

using namespace homp;
using namespace homp::reference;

namespace {

using Policy = homp::abi::Policy;
using Halo = homp::abi::Halo;
using Edge = homp::abi::Edge;
using Point = std::vector<int64_t>;
using Blocks = std::array<int64_t, MaxRank>;

Policy policy(Policy::KindTy Kind) {
  Policy P;
  P.Kind = Kind;
  return P;
}
const Policy Full = policy(Policy::Full);
const Policy Block = policy(Policy::Block);
const Policy Cyclic = policy(Policy::Cyclic);
const Policy Auto = policy(Policy::Auto);

Policy alignTo(const std::string &Target, int64_t Num = 1, int64_t Den = 1) {
  Policy P = policy(Policy::Align);
  P.Target = Target;
  P.RatioNum = Num;
  P.RatioDen = Den;
  return P;
}

Policy alignToLoop(int64_t Num = 1, int64_t Den = 1) {
  Policy P = policy(Policy::Align);
  P.ToLoop = true;
  P.RatioNum = Num;
  P.RatioDen = Den;
  return P;
}

homp::abi::Array array(const std::string &Name, std::vector<Policy> Dims,
                       std::vector<int> Axis = {},
                       std::vector<Halo> Halos = {}) {
  homp::abi::Array A;
  A.Name = Name;
  A.Rank = static_cast<unsigned>(Dims.size());
  for (unsigned I = 0; I < A.Rank; ++I)
    A.Dims[I] = Dims[I];
  for (unsigned I = 0; I < Axis.size(); ++I)
    A.Axis[I] = Axis[I];
  for (unsigned I = 0; I < Halos.size(); ++I)
    A.Halos[I] = Halos[I];
  return A;
}

/// An array of 8-byte elements whose mapped section is Section; its rows
/// are as long as Extent says (by default, as long as the section reaches).
ArrayShape shape(std::vector<Range> Section, std::vector<int64_t> Extent = {}) {
  ArrayShape S;
  S.Rank = static_cast<unsigned>(Section.size());
  S.ElementSize = 8;
  S.Section.Rank = S.Rank;
  for (unsigned I = 0; I < S.Rank; ++I) {
    S.Section.Dims[I] = Section[I];
    if (I > 0)
      S.Extent[I] = I < Extent.size() ? Extent[I] : Section[I].End;
  }
  return S;
}

/// The devices of Topo, with ids 10, 11, ... so that ids and positions
/// differ.
DistributionContext context(const Topology &Topo) {
  DistributionContext C;
  C.Topo = Topo;
  for (unsigned P = 0; P < Topo.size(); ++P)
    C.Devices.push_back(10 + static_cast<int>(P));
  return C;
}

std::optional<Distribution> distribute(const homp::abi::Array &A,
                                       const ArrayShape &S,
                                       const DistributionContext &C,
                                       Blocks B = {2, 2, 2}) {
  std::string Error;
  std::optional<Distribution> D = distributeArray(A, S, B, C, Error);
  EXPECT_TRUE(D.has_value()) << Error;
  return D;
}

std::string refusal(const homp::abi::Array &A, const ArrayShape &S,
                    const DistributionContext &C) {
  std::string Error;
  EXPECT_FALSE(distributeArray(A, S, {2, 2, 2}, C, Error).has_value());
  return Error;
}

IndexSet set(std::vector<Range> Ranges) {
  IndexSet S;
  for (const Range &R : Ranges)
    S.add(R);
  return S;
}

/// The topology axis each dimension is split over (-1: not split), by the
/// rule of SPEC.md section 2: the k-th split dimension uses axis k unless
/// the array names one.
std::array<int, MaxRank> axesOf(const homp::abi::Array &A) {
  std::array<int, MaxRank> Axes = homp::abi::noAxes();
  int Next = 0;
  for (unsigned D = 0; D < A.Rank; ++D)
    if (A.Dims[D].Kind != Policy::Full)
      Axes[D] = A.Axis[D] >= 0 ? A.Axis[D] : Next++;
  return Axes;
}

/// Whether the device at Pos owns element P: along every split dimension,
/// the part that deals the element is the device's coordinate on the axis.
bool ownsByHand(const homp::abi::Array &A, const ArrayShape &S, const Blocks &B,
                const Topology &T, unsigned Pos, const Point &P) {
  std::array<unsigned, homp::abi::MaxTopologyRank> C = T.coords(Pos);
  std::array<int, MaxRank> Axes = axesOf(A);
  for (unsigned D = 0; D < A.Rank; ++D) {
    if (Axes[D] < 0)
      continue;
    int64_t I = P[D] - S.Section.Dims[D].Begin, N = S.Section.Dims[D].size();
    unsigned Parts = T.Dims[Axes[D]];
    unsigned Part = A.Dims[D].Kind == Policy::Cyclic
                        ? cyclicOwner(I, B[D], Parts)
                        : blockOwner(I, N, Parts);
    if (Part != C[Axes[D]])
      return false;
  }
  return true;
}

/// Calls F with every combination of FULL, BLOCK, CYCLIC(2), CYCLIC(1) and
/// AUTO over arrays of rank 1 to 5 and topologies of rank 1 to 3 that have
/// enough dimensions for the split ones.
template <typename F> void forEveryPolicyAndTopology(F &&Fn) {
  const std::vector<Topology> Topologies = {
      Topology{{1}},       Topology{{3}},      Topology{{4}},
      Topology{{2, 2}},    Topology{{2, 3}},   Topology{{3, 1}},
      Topology{{2, 2, 2}}, Topology{{1, 2, 3}}};
  const std::vector<std::pair<Policy, int64_t>> Choices = {
      {Full, 0}, {Block, 0}, {Cyclic, 2}, {Cyclic, 1}, {Auto, 0}};
  const std::vector<ArrayShape> Shapes = {
      shape({{2, 13}}), shape({{1, 6}, {0, 7}}, {0, 9}),
      shape({{0, 4}, {1, 5}, {2, 5}}, {0, 6, 7}),
      shape({{0, 3}, {1, 3}, {0, 2}, {2, 5}}, {0, 4, 2, 6}),
      shape({{0, 2}, {0, 2}, {1, 3}, {0, 2}, {0, 3}}, {0, 2, 3, 2, 4})};
  for (const ArrayShape &S : Shapes) {
    unsigned Combos = 1;
    for (unsigned D = 0; D < S.Rank; ++D)
      Combos *= Choices.size();
    for (unsigned C = 0; C < Combos; ++C) {
      std::vector<Policy> Dims;
      Blocks B{};
      unsigned Split = 0;
      for (unsigned D = 0, X = C; D < S.Rank; ++D, X /= Choices.size()) {
        Dims.push_back(Choices[X % Choices.size()].first);
        B[D] = Choices[X % Choices.size()].second;
        Split += Dims.back().Kind != Policy::Full;
      }
      homp::abi::Array A = array("a", Dims);
      for (const Topology &T : Topologies)
        if (Split <= T.rank())
          Fn(A, S, B, T);
    }
  }
}

std::string describe(const homp::abi::Array &A, const Blocks &B,
                     const Topology &T) {
  std::string S;
  for (unsigned D = 0; D < A.Rank; ++D) {
    const char *Names[] = {"FULL", "BLOCK", "CYCLIC", "ALIGN", "AUTO"};
    S += std::string(D ? ", " : "") + Names[A.Dims[D].Kind];
    if (A.Dims[D].Kind == Policy::Cyclic)
      S += "(" + std::to_string(B[D]) + ")";
  }
  return S + " over " + T.str();
}

} // namespace

//===----------------------------------------------------------------------===//
// BLOCK, CYCLIC, FULL, AUTO
//===----------------------------------------------------------------------===//

// Element by element, each device owns what the plain rules give it.
TEST(Distribution, EveryPolicyOverEveryTopologyOwnsByThePlainRules) {
  unsigned Checked = 0;
  forEveryPolicyAndTopology([&](const homp::abi::Array &A, const ArrayShape &S,
                                const Blocks &B, const Topology &T) {
    std::optional<Distribution> D = distribute(A, S, context(T), B);
    ASSERT_TRUE(D) << describe(A, B, T);
    ASSERT_EQ(D->Owned.size(), T.size());
    ASSERT_EQ(D->Devices, context(T).Devices);
    for (unsigned Pos = 0; Pos < T.size(); ++Pos) {
      ASSERT_EQ(D->Owned[Pos].Rank, S.Rank);
      for (unsigned Dm = 0; Dm < S.Rank; ++Dm)
        ASSERT_TRUE(wellFormed(D->Owned[Pos].Dims[Dm]));
      ASSERT_TRUE(ProductSet::of(S.Section).contains(D->Owned[Pos]))
          << describe(A, B, T) << ": device " << Pos << " owns "
          << D->Owned[Pos].str() << " outside the section";
      for (const Point &P : points(S.Section))
        ASSERT_EQ(inSet(D->Owned[Pos], P), ownsByHand(A, S, B, T, Pos, P))
            << describe(A, B, T) << ": device " << Pos << ", element "
            << testing::PrintToString(P) << ", owns " << D->Owned[Pos].str();
      ++Checked;
    }
  });
  EXPECT_GT(Checked, 1000u);
}

// Devices that differ along an axis the array is split over own disjoint
// parts; together they own the section exactly; devices that differ only
// along other axes own the same.
TEST(Distribution, PartsAreDisjointCoverTheSectionAndRepeatAlongUnusedAxes) {
  forEveryPolicyAndTopology([&](const homp::abi::Array &A, const ArrayShape &S,
                                const Blocks &B, const Topology &T) {
    std::optional<Distribution> D = distribute(A, S, context(T), B);
    ASSERT_TRUE(D);
    std::array<int, MaxRank> Axes = axesOf(A);
    auto SameOnUsedAxes = [&](unsigned P, unsigned Q) {
      for (int Axis : Axes)
        if (Axis >= 0 && T.coords(P)[Axis] != T.coords(Q)[Axis])
          return false;
      return true;
    };
    for (unsigned P = 0; P < T.size(); ++P)
      for (unsigned Q = P + 1; Q < T.size(); ++Q) {
        if (SameOnUsedAxes(P, Q))
          ASSERT_EQ(D->Owned[P], D->Owned[Q]) << describe(A, B, T);
        else
          ASSERT_TRUE(D->Owned[P].intersect(D->Owned[Q]).empty())
              << describe(A, B, T) << ": devices " << P << " and " << Q;
      }
    // Every element is owned by one device of each class of devices that
    // agree on the used axes: count the owners of each element.
    unsigned Classes = 0;
    for (unsigned P = 0; P < T.size(); ++P) {
      bool First = true;
      for (unsigned Q = 0; Q < P; ++Q)
        First &= !SameOnUsedAxes(P, Q);
      Classes += First;
    }
    unsigned Copies = T.size() / Classes;
    for (const Point &Pt : points(S.Section)) {
      unsigned Owners = 0;
      for (unsigned P = 0; P < T.size(); ++P)
        Owners += inSet(D->Owned[P], Pt);
      ASSERT_EQ(Owners, Copies)
          << describe(A, B, T) << ", element " << testing::PrintToString(Pt);
    }
  });
}

TEST(Distribution, RecordsWhatIsSplitAndHow) {
  std::optional<Distribution> D = distribute(
      array("a", {Full, Cyclic, Block}), shape({{0, 4}, {0, 5}, {0, 6}}),
      context(Topology{{2, 2}}), {7, 3, 7});
  ASSERT_TRUE(D);
  EXPECT_EQ(D->Split, (std::array<bool, MaxRank>{false, true, true, false,
                                                 false, false, false, false}));
  EXPECT_EQ(D->Kinds[1], Policy::Cyclic);
  EXPECT_EQ(D->Kinds[2], Policy::Block);
  EXPECT_EQ(D->Blocks[1], 3);
  EXPECT_EQ(D->Blocks[2], 0) << "only CYCLIC dimensions have a block size";
  EXPECT_FALSE(D->duplicated());
  EXPECT_EQ(D->positionOf(12), 2u);
  EXPECT_EQ(D->positionOf(2), std::nullopt);
}

TEST(Distribution, FullArraysAreDuplicated) {
  ArrayShape S = shape({{3, 9}, {0, 4}});
  std::optional<Distribution> D =
      distribute(array("a", {Full, Full}), S, context(Topology{{2, 2}}));
  ASSERT_TRUE(D);
  EXPECT_TRUE(D->duplicated());
  for (const ProductSet &P : D->Owned)
    EXPECT_EQ(P, ProductSet::of(S.Section));
}

TEST(Distribution, BlockOfFourteenOverFour) {
  std::optional<Distribution> D =
      distribute(array("x", {Block}), shape({{1, 15}}), context(Topology{{4}}));
  ASSERT_TRUE(D);
  EXPECT_EQ(D->Owned[0].Dims[0], set({{1, 5}}));
  EXPECT_EQ(D->Owned[1].Dims[0], set({{5, 9}}));
  EXPECT_EQ(D->Owned[2].Dims[0], set({{9, 12}}));
  EXPECT_EQ(D->Owned[3].Dims[0], set({{12, 15}}));
}

//===----------------------------------------------------------------------===//
// coverSection: every element of a resident array on a device
//===----------------------------------------------------------------------===//

// 'b' twice as long as the 'a' it is aligned with: its second half goes to
// the owner of the element before it, the last device.
TEST(CoverSection, ElementsPastTheTargetGoToTheLastPart) {
  DistributionContext C = context(Topology{{4}});
  std::optional<Distribution> A =
      distribute(array("a", {Block}), shape({{0, 8}}), C);
  ASSERT_TRUE(A);
  C.FindArray = [&](const std::string &) { return &*A; };
  std::optional<Distribution> B =
      distribute(array("b", {alignTo("a")}), shape({{0, 16}}), C);
  ASSERT_TRUE(B);
  EXPECT_EQ(B->Owned[3].Dims[0], set({{6, 8}})) << "as 'a' before covering";
  std::string Error;
  ASSERT_TRUE(coverSection(*B, "b", Error)) << Error;
  EXPECT_EQ(B->Owned[0].Dims[0], set({{0, 2}}));
  EXPECT_EQ(B->Owned[2].Dims[0], set({{4, 6}}));
  EXPECT_EQ(B->Owned[3].Dims[0], set({{6, 16}}));
}

// Aligned with a loop over the interior [1, 9) of [0, 10), by rows over
// 2 x 2 devices, the columns split too: the ends go to the devices of the
// first and the last rows, every copy of a row's part alike.
TEST(CoverSection, TheEndsOfAnInteriorLoopGoToTheOuterParts) {
  Topology T{{2, 2}};
  DistributionContext C = context(T);
  C.LoopIndices = [&](unsigned, unsigned Pos, IndexSet &S) {
    S = T.coords(Pos)[0] == 0 ? set({{1, 5}}) : set({{5, 9}});
    return true;
  };
  std::optional<Distribution> D = distribute(
      array("u", {alignToLoop(), Block}, {0, 1}), shape({{0, 10}, {0, 6}}), C);
  ASSERT_TRUE(D);
  std::string Error;
  ASSERT_TRUE(coverSection(*D, "u", Error)) << Error;
  for (unsigned Pos = 0; Pos < T.size(); ++Pos) {
    std::array<unsigned, homp::abi::MaxTopologyRank> At = T.coords(Pos);
    EXPECT_EQ(D->Owned[Pos].Dims[0],
              At[0] == 0 ? set({{0, 5}}) : set({{5, 10}}))
        << "device " << Pos;
    EXPECT_EQ(D->Owned[Pos].Dims[1], At[1] == 0 ? set({{0, 3}}) : set({{3, 6}}))
        << "device " << Pos;
  }
}

// Random parts along one dimension (a CYCLIC target's, a loop's, with
// gaps anywhere), over a line of devices and repeated along a second axis:
// afterwards every element has exactly one owner among the devices of a
// row, each keeps what it had, and a gap went to the owner of the element
// before it (of the first part, for a gap at the start).
TEST(CoverSection, EveryElementGetsTheOwnerOfItsNeighbour) {
  Random R(36);
  for (int Case = 0; Case < 500; ++Case) {
    const unsigned Parts = static_cast<unsigned>(R.between(1, 4));
    Topology T{{Parts, 2}};
    const int64_t Begin = R.between(0, 3), End = Begin + R.between(1, 24);
    Distribution D;
    D.Shape = shape({{Begin, End}, {0, 3}});
    D.Split[0] = true;
    for (unsigned Pos = 0; Pos < T.size(); ++Pos)
      D.Devices.push_back(static_cast<int>(Pos));
    // Each index of the section (and a few beyond) to one part, or none.
    std::vector<IndexSet> Row(Parts);
    for (int64_t I = Begin - 2; I < End + 2; ++I) {
      int64_t To = R.between(-1, Parts - 1);
      if (To >= 0)
        Row[To].add({I, I + 1});
    }
    IndexSet Held;
    for (const IndexSet &S : Row)
      Held = Held.unite(S);
    if (Held.intersect(IndexSet(Range{Begin, End})).empty())
      Row[0] = Row[0].unite(IndexSet(Range{Begin, Begin + 1}));
    for (unsigned Pos = 0; Pos < T.size(); ++Pos) {
      ProductSet P;
      P.Rank = 2;
      P.Dims[0] = Row[T.coords(Pos)[0]];
      P.Dims[1] = IndexSet(Range{0, 3});
      D.Owned.push_back(P);
    }
    const Distribution Before = D;
    std::string Error;
    ASSERT_TRUE(coverSection(D, "x", Error)) << Error;
    // Element by element, the owner the rule gives.
    auto OwnerBefore = [&](int64_t I) -> int {
      for (unsigned Q = 0; Q < Parts; ++Q)
        if (Row[Q].contains(I))
          return static_cast<int>(Q);
      return -1;
    };
    int First = -1;
    for (int64_t I = Begin; I < End && First < 0; ++I)
      First = OwnerBefore(I);
    int Owner = First;
    for (int64_t I = Begin; I < End; ++I) {
      if (OwnerBefore(I) >= 0)
        Owner = OwnerBefore(I);
      for (unsigned Pos = 0; Pos < T.size(); ++Pos)
        ASSERT_EQ(D.Owned[Pos].Dims[0].contains(I),
                  static_cast<int>(T.coords(Pos)[0]) == Owner)
            << "case " << Case << ", element " << I << ", device " << Pos;
    }
    for (unsigned Pos = 0; Pos < T.size(); ++Pos) {
      ASSERT_TRUE(D.Owned[Pos].contains(Before.Owned[Pos]));
      ASSERT_EQ(D.Owned[Pos].Dims[1], Before.Owned[Pos].Dims[1]);
    }
  }
}

// Aligned with an array none of whose parts is on these devices (resident
// on others): the whole array goes to the first device, the others hold
// nothing of it.
TEST(CoverSection, WithoutAnyPartTheFirstDeviceHoldsAll) {
  Distribution D;
  D.Shape = shape({{0, 16}, {0, 3}});
  D.Devices = {10, 11, 12};
  D.Split[0] = true;
  for (unsigned Pos = 0; Pos < 3; ++Pos) {
    ProductSet P;
    P.Rank = 2;
    P.Dims[1] = IndexSet(Range{0, 3});
    D.Owned.push_back(P);
  }
  std::string Error;
  ASSERT_TRUE(coverSection(D, "v", Error)) << Error;
  EXPECT_EQ(D.Owned[0], ProductSet::of(D.Shape.Section));
  EXPECT_TRUE(D.Owned[1].empty());
  EXPECT_TRUE(D.Owned[2].empty());
}

// Two dimensions aligned with splits over the same axis leave a diagonal:
// covering each dimension cannot mend that, and it says so.
TEST(CoverSection, ADiagonalIsRefused) {
  DistributionContext C = context(Topology{{2}});
  std::optional<Distribution> X =
      distribute(array("x", {Block}), shape({{0, 4}}), C);
  ASSERT_TRUE(X);
  C.FindArray = [&](const std::string &) { return &*X; };
  // 'y' is found as 'x' too: both dimensions follow x's one split.
  std::optional<Distribution> D = distribute(
      array("d", {alignTo("x"), alignTo("y")}), shape({{0, 4}, {0, 4}}), C);
  ASSERT_TRUE(D);
  std::string Error;
  EXPECT_FALSE(coverSection(*D, "d", Error));
  EXPECT_NE(Error.find("hold 8 of its 16 elements"), std::string::npos)
      << Error;
}

//===----------------------------------------------------------------------===//
// Topology axes
//===----------------------------------------------------------------------===//

// topology(1, 0) after dist_data: the first dimension over the second axis.
TEST(Distribution, ExplicitAxesSwapTheSplit) {
  Topology T{{2, 3}};
  homp::abi::Array A = array("a", {Block, Block}, {1, 0});
  ArrayShape S = shape({{0, 9}, {0, 4}});
  std::optional<Distribution> D = distribute(A, S, context(T));
  ASSERT_TRUE(D);
  for (unsigned Pos = 0; Pos < T.size(); ++Pos) {
    std::array<unsigned, homp::abi::MaxTopologyRank> C = T.coords(Pos);
    EXPECT_EQ(D->Owned[Pos].Dims[0], IndexSet(handWrittenBlock(9, 3, C[1])));
    EXPECT_EQ(D->Owned[Pos].Dims[1], IndexSet(handWrittenBlock(4, 2, C[0])));
  }
}

// A 1-D array over the second axis of a 2x2 grid: devices in the same
// column own the same part.
TEST(Distribution, ExplicitAxisOfAOneDimensionalArray) {
  Topology T{{2, 2}};
  std::optional<Distribution> D =
      distribute(array("a", {Block}, {1}), shape({{0, 10}}), context(T));
  ASSERT_TRUE(D);
  EXPECT_EQ(D->Owned[0].Dims[0], set({{0, 5}}));
  EXPECT_EQ(D->Owned[1].Dims[0], set({{5, 10}}));
  EXPECT_EQ(D->Owned[2].Dims[0], set({{0, 5}}));
  EXPECT_EQ(D->Owned[3].Dims[0], set({{5, 10}}));
}

TEST(Distribution, EveryExplicitAxisAgainstThePlainRules) {
  const Topology T{{2, 3, 2}};
  ArrayShape S = shape({{0, 5}, {2, 9}, {0, 3}}, {0, 9, 3});
  for (int A0 = 0; A0 < 3; ++A0)
    for (int A1 = 0; A1 < 3; ++A1)
      for (int A2 = 0; A2 < 3; ++A2) {
        if (A0 == A1 || A1 == A2 || A0 == A2)
          continue;
        homp::abi::Array A = array("a", {Block, Cyclic, Block}, {A0, A1, A2});
        Blocks B{0, 2, 0};
        std::optional<Distribution> D = distribute(A, S, context(T), B);
        ASSERT_TRUE(D);
        for (unsigned Pos = 0; Pos < T.size(); ++Pos)
          for (const Point &P : points(S.Section))
            ASSERT_EQ(inSet(D->Owned[Pos], P), ownsByHand(A, S, B, T, Pos, P))
                << A0 << A1 << A2 << " device " << Pos;
      }
}

TEST(Distribution, MoreSplitDimensionsThanAxesAreRefused) {
  EXPECT_EQ(refusal(array("a", {Block, Block}), shape({{0, 4}, {0, 4}}),
                    context(Topology{{4}})),
            "dimension 1 of 'a' is split over topology dimension 1, but the "
            "devices form a 1-dimensional topology (4)");
  EXPECT_EQ(refusal(array("b", {Cyclic, Full, Block}),
                    shape({{0, 4}, {0, 4}, {0, 4}}), context(Topology{{3}})),
            "dimension 2 of 'b' is split over topology dimension 1, but the "
            "devices form a 1-dimensional topology (3)");
}

TEST(Distribution, AnAxisBeyondTheTopologyIsRefused) {
  EXPECT_EQ(refusal(array("a", {Block}, {2}), shape({{0, 4}}),
                    context(Topology{{2, 2}})),
            "dimension 0 of 'a' is split over topology dimension 2, but the "
            "devices form a 2-dimensional topology (2x2)");
}

//===----------------------------------------------------------------------===//
// ALIGN to an array
//===----------------------------------------------------------------------===//

namespace {

/// A context in which the arrays of Known can be aligned with.
DistributionContext withArrays(const Topology &T,
                               std::map<std::string, Distribution> &Known) {
  DistributionContext C = context(T);
  C.FindArray = [&Known](const std::string &Name) -> const Distribution * {
    auto It = Known.find(Name);
    return It == Known.end() ? nullptr : &It->second;
  };
  return C;
}

} // namespace

TEST(DistributionAlign, ToAnArrayTakesItsParts) {
  Topology T{{3}};
  std::map<std::string, Distribution> Known;
  Known["x"] = *distribute(array("x", {Block}), shape({{0, 12}}), context(T));
  std::optional<Distribution> Y = distribute(
      array("y", {alignTo("x")}), shape({{0, 12}}), withArrays(T, Known));
  ASSERT_TRUE(Y);
  for (unsigned P = 0; P < 3; ++P)
    EXPECT_EQ(Y->Owned[P], Known["x"].Owned[P]) << P;
  EXPECT_TRUE(Y->Split[0]);
  EXPECT_FALSE(Y->duplicated());
}

TEST(DistributionAlign, RatiosScaleTheIndices) {
  Topology T{{3}};
  std::map<std::string, Distribution> Known;
  // x: [0, 4) [4, 8) [8, 12)
  Known["x"] = *distribute(array("x", {Block}), shape({{0, 12}}), context(T));
  std::optional<Distribution> Twice = distribute(
      array("y", {alignTo("x", 2)}), shape({{0, 24}}), withArrays(T, Known));
  ASSERT_TRUE(Twice);
  EXPECT_EQ(Twice->Owned[0].Dims[0], set({{0, 8}}));
  EXPECT_EQ(Twice->Owned[1].Dims[0], set({{8, 16}}));
  EXPECT_EQ(Twice->Owned[2].Dims[0], set({{16, 24}}));
  std::optional<Distribution> Half = distribute(
      array("z", {alignTo("x", 1, 2)}), shape({{0, 6}}), withArrays(T, Known));
  ASSERT_TRUE(Half);
  EXPECT_EQ(Half->Owned[0].Dims[0], set({{0, 2}}));
  EXPECT_EQ(Half->Owned[1].Dims[0], set({{2, 4}}));
  EXPECT_EQ(Half->Owned[2].Dims[0], set({{4, 6}}));
}

// The aligned array owns only what lies in its own section.
TEST(DistributionAlign, PartsAreClippedToTheSection) {
  Topology T{{3}};
  std::map<std::string, Distribution> Known;
  Known["x"] = *distribute(array("x", {Block}), shape({{0, 12}}), context(T));
  std::optional<Distribution> Y = distribute(
      array("y", {alignTo("x")}), shape({{2, 10}}), withArrays(T, Known));
  ASSERT_TRUE(Y);
  EXPECT_EQ(Y->Owned[0].Dims[0], set({{2, 4}}));
  EXPECT_EQ(Y->Owned[1].Dims[0], set({{4, 8}}));
  EXPECT_EQ(Y->Owned[2].Dims[0], set({{8, 10}}));
}

// The k-th dimension aligned with x follows x's k-th split dimension.
TEST(DistributionAlign, DimensionsFollowTheSplitDimensionsInOrder) {
  Topology T{{2, 2}};
  std::map<std::string, Distribution> Known;
  Known["x"] = *distribute(array("x", {Block, Cyclic}), shape({{0, 6}, {0, 8}}),
                           context(T), {0, 1, 0});
  std::optional<Distribution> Y =
      distribute(array("y", {alignTo("x"), Full, alignTo("x")}),
                 shape({{0, 6}, {0, 3}, {0, 8}}), withArrays(T, Known));
  ASSERT_TRUE(Y);
  for (unsigned P = 0; P < T.size(); ++P) {
    EXPECT_EQ(Y->Owned[P].Dims[0], Known["x"].Owned[P].Dims[0]) << P;
    EXPECT_EQ(Y->Owned[P].Dims[1], IndexSet(Range{0, 3})) << P;
    EXPECT_EQ(Y->Owned[P].Dims[2], Known["x"].Owned[P].Dims[1]) << P;
  }
  // x's FULL dimensions are skipped: a 1-D y follows x's only split one.
  Known["w"] = *distribute(array("w", {Full, Block}), shape({{0, 5}, {0, 8}}),
                           context(Topology{{4}}));
  std::optional<Distribution> Z =
      distribute(array("z", {alignTo("w")}), shape({{0, 8}}),
                 withArrays(Topology{{4}}, Known));
  ASSERT_TRUE(Z);
  for (unsigned P = 0; P < 4; ++P)
    EXPECT_EQ(Z->Owned[P].Dims[0], Known["w"].Owned[P].Dims[1]) << P;
}

// Devices are matched by id: x may list them in another order, or not all.
TEST(DistributionAlign, DevicesAreMatchedById) {
  std::map<std::string, Distribution> Known;
  DistributionContext XCtx;
  XCtx.Topo = Topology{{3}};
  XCtx.Devices = {12, 10, 11};
  Known["x"] = *distribute(array("x", {Block}), shape({{0, 9}}), XCtx);
  std::optional<Distribution> Y =
      distribute(array("y", {alignTo("x")}), shape({{0, 9}}),
                 withArrays(Topology{{4}}, Known)); // devices 10 .. 13
  ASSERT_TRUE(Y);
  EXPECT_EQ(Y->Owned[0].Dims[0], set({{3, 6}})); // device 10
  EXPECT_EQ(Y->Owned[1].Dims[0], set({{6, 9}})); // device 11
  EXPECT_EQ(Y->Owned[2].Dims[0], set({{0, 3}})); // device 12
  EXPECT_TRUE(Y->Owned[3].Dims[0].empty()) << "device 13 holds no part of x";
}

TEST(DistributionAlign, ArrayWithoutThatManySplitDimensionsIsRefused) {
  Topology T{{2}};
  std::map<std::string, Distribution> Known;
  Known["x"] = *distribute(array("x", {Block}), shape({{0, 4}}), context(T));
  EXPECT_EQ(refusal(array("y", {alignTo("x"), alignTo("x")}),
                    shape({{0, 4}, {0, 4}}), withArrays(T, Known)),
            "dimension 1 of 'y' is aligned with 'x', which has no split "
            "dimension 1");
}

//===----------------------------------------------------------------------===//
// ALIGN to the loop and to a label
//===----------------------------------------------------------------------===//

namespace {

/// Loop K's indices per position, as a kernel plan would give them.
const std::vector<std::vector<IndexSet>> LoopParts = {
    {set({{0, 2}}), set({{2, 9}}), set({{9, 12}})},
    {set({{0, 1}, {4, 5}}), set({{1, 2}, {5, 6}}), set({{2, 4}})}};

DistributionContext withLoops(const Topology &T) {
  DistributionContext C = context(T);
  C.LoopIndices = [](unsigned K, unsigned Pos, IndexSet &S) {
    if (K >= LoopParts.size())
      return false;
    S = LoopParts[K][Pos];
    return true;
  };
  return C;
}

} // namespace

TEST(DistributionAlign, ToTheLoopHoldsItsIndices) {
  std::optional<Distribution> D = distribute(
      array("y", {alignToLoop()}), shape({{0, 12}}), withLoops(Topology{{3}}));
  ASSERT_TRUE(D);
  for (unsigned P = 0; P < 3; ++P)
    EXPECT_EQ(D->Owned[P].Dims[0], LoopParts[0][P]) << P;
}

TEST(DistributionAlign, ToTheLoopScaledAndClipped) {
  std::optional<Distribution> D = distribute(
      array("y", {alignToLoop(2)}), shape({{1, 20}}), withLoops(Topology{{3}}));
  ASSERT_TRUE(D);
  EXPECT_EQ(D->Owned[0].Dims[0], set({{1, 4}}));
  EXPECT_EQ(D->Owned[1].Dims[0], set({{4, 18}}));
  EXPECT_EQ(D->Owned[2].Dims[0], set({{18, 20}}));
}

// The k-th dimension aligned with the loop follows the k-th loop.
TEST(DistributionAlign, ToTheLoopDimensionByDimension) {
  std::optional<Distribution> D =
      distribute(array("y", {alignToLoop(), Full, alignToLoop()}),
                 shape({{0, 12}, {0, 2}, {0, 6}}), withLoops(Topology{{3}}));
  ASSERT_TRUE(D);
  for (unsigned P = 0; P < 3; ++P) {
    EXPECT_EQ(D->Owned[P].Dims[0], LoopParts[0][P]) << P;
    EXPECT_EQ(D->Owned[P].Dims[2], LoopParts[1][P]) << P;
  }
}

TEST(DistributionAlign, ToALoopThatIsNotThereIsRefused) {
  EXPECT_EQ(refusal(array("y", {alignToLoop()}), shape({{0, 4}}),
                    context(Topology{{2}})),
            "dimension 0 of 'y' is aligned with loop 0 of the nest, which is "
            "not distributed");
  EXPECT_EQ(refusal(array("y", {alignToLoop(), alignToLoop(), alignToLoop()}),
                    shape({{0, 4}, {0, 4}, {0, 4}}), withLoops(Topology{{3}})),
            "dimension 2 of 'y' is aligned with loop 2 of the nest, which is "
            "not distributed");
}

TEST(DistributionAlign, ToALabelAsksForItsLoopsByDeviceId) {
  Topology T{{2}};
  DistributionContext C = context(T);
  std::vector<std::string> Asked;
  C.LabelIndices = [&](const std::string &Label, unsigned K, int Id,
                       IndexSet &S) {
    Asked.push_back(Label + " " + std::to_string(K) + " " + std::to_string(Id));
    if (Label != "loop1")
      return false;
    S = Id == 10 ? set({{0, 3 + K}}) : set({{3 + K, 8}});
    return true;
  };
  std::optional<Distribution> D =
      distribute(array("y", {alignTo("loop1"), alignTo("loop1", 2)}),
                 shape({{0, 8}, {0, 16}}), C);
  ASSERT_TRUE(D);
  EXPECT_EQ(Asked, (std::vector<std::string>{"loop1 0 10", "loop1 0 11",
                                             "loop1 1 10", "loop1 1 11"}));
  EXPECT_EQ(D->Owned[0].Dims[0], set({{0, 3}}));
  EXPECT_EQ(D->Owned[1].Dims[0], set({{3, 8}}));
  EXPECT_EQ(D->Owned[0].Dims[1], set({{0, 8}}));
  EXPECT_EQ(D->Owned[1].Dims[1], set({{8, 16}}));
}

TEST(DistributionAlign, ToNeitherArrayNorLabelIsRefused) {
  DistributionContext C = context(Topology{{2}});
  C.FindArray = [](const std::string &) { return nullptr; };
  C.LabelIndices = [](const std::string &, unsigned, int, IndexSet &) {
    return false;
  };
  const char *Why = "dimension 0 of 'y' is aligned with 'nowhere', which is "
                    "neither a distributed array nor a labelled loop it can "
                    "follow";
  EXPECT_EQ(refusal(array("y", {alignTo("nowhere")}), shape({{0, 4}}), C), Why);
  EXPECT_EQ(refusal(array("y", {alignTo("nowhere")}), shape({{0, 4}}),
                    context(Topology{{2}})),
            Why);
}

//===----------------------------------------------------------------------===//
// Device lists: 'topology(0, 1)' after the distribution
//===----------------------------------------------------------------------===//

namespace {
std::optional<Distribution> distributeOver(const homp::abi::Array &A,
                                           const ArrayShape &S,
                                           const DistributionContext &C,
                                           std::vector<int64_t> Ids) {
  std::string Error;
  std::optional<Distribution> D =
      distributeArray(A, S, {3, 3, 3}, C, Error, {Ids, {}});
  EXPECT_TRUE(D.has_value()) << Error;
  return D;
}
} // namespace

// The listed devices (ids 11 and 13 of 10..13) form a line in the
// construct's order, whatever order the list has; the others hold nothing.
TEST(DistributionDevices, ListedDevicesSplitTheArrayAsALine) {
  ArrayShape S = shape({{1, 12}, {0, 5}});
  for (std::vector<int64_t> Ids : {std::vector<int64_t>{11, 13},
                                   std::vector<int64_t>{13, 11, 13}}) {
    std::optional<Distribution> D = distributeOver(
        array("a", {Block, Full}), S, context(Topology{{2, 2}}), Ids);
    ASSERT_TRUE(D);
    EXPECT_EQ(D->Devices, (std::vector<int>{10, 11, 12, 13}));
    EXPECT_TRUE(D->Owned[0].empty());
    EXPECT_TRUE(D->Owned[2].empty());
    EXPECT_EQ(D->Owned[1].Dims[0], set({{1, 7}}));
    EXPECT_EQ(D->Owned[3].Dims[0], set({{7, 12}}));
    EXPECT_EQ(D->Owned[1].Dims[1], set({{0, 5}}));
    EXPECT_TRUE(D->held(0).empty());
    EXPECT_FALSE(D->duplicated());
    EXPECT_FALSE(D->everywhere());
  }
}

TEST(DistributionDevices, ADuplicateOnSomeDevicesIsNotEverywhere) {
  ArrayShape S = shape({{0, 6}});
  std::optional<Distribution> D =
      distributeOver(array("x", {Full}), S, context(Topology{{3}}), {12});
  ASSERT_TRUE(D);
  EXPECT_TRUE(D->duplicated());
  EXPECT_FALSE(D->everywhere());
  EXPECT_TRUE(D->Owned[0].empty());
  EXPECT_TRUE(D->Owned[1].empty());
  EXPECT_EQ(D->Owned[2], ProductSet::of(S.Section));
  std::optional<Distribution> All =
      distribute(array("x", {Full}), S, context(Topology{{3}}));
  ASSERT_TRUE(All);
  EXPECT_TRUE(All->everywhere());
  std::optional<Distribution> Empty =
      distribute(array("x", {Full}), shape({{0, 0}}), context(Topology{{3}}));
  ASSERT_TRUE(Empty);
  EXPECT_TRUE(Empty->everywhere()) << "nobody is left out of nothing";
}

// CYCLIC(3) over the listed devices deals the blocks among them only.
TEST(DistributionDevices, CyclicDealsAmongTheListedDevices) {
  std::optional<Distribution> D = distributeOver(
      array("c", {Cyclic}), shape({{0, 12}}), context(Topology{{4}}), {10, 12});
  ASSERT_TRUE(D);
  EXPECT_EQ(D->Owned[0].Dims[0], set({{0, 3}, {6, 9}}));
  EXPECT_EQ(D->Owned[2].Dims[0], set({{3, 6}, {9, 12}}));
  EXPECT_TRUE(D->Owned[1].empty());
  EXPECT_TRUE(D->Owned[3].empty());
}

// Halos of the listed devices: neighbours among them, none for the others.
TEST(DistributionDevices, HalosReachTheNeighbouringListedDevice) {
  std::optional<Distribution> D =
      distributeOver(array("u", {Block}, {}, {Halo{1, 1}}), shape({{0, 10}}),
                     context(Topology{{3}}), {10, 12});
  ASSERT_TRUE(D);
  EXPECT_EQ(D->held(0).Dims[0], set({{0, 6}}));
  EXPECT_EQ(D->held(2).Dims[0], set({{4, 10}}));
  EXPECT_TRUE(D->held(1).empty());
}

// Aligned dimensions follow the loop as the listed devices run it.
TEST(DistributionDevices, AlignedToTheLoopTakesTheListedDevicesParts) {
  std::optional<Distribution> D = distributeOver(
      array("y", {alignToLoop()}), shape({{0, 12}}), withLoops(Topology{{3}}),
      {12});
  ASSERT_TRUE(D);
  EXPECT_EQ(D->Owned[2].Dims[0], LoopParts[0][2]);
  EXPECT_TRUE(D->Owned[0].empty());
}

// 'topology([2][*])' after dist_data: the construct's line of four
// devices as a 2x2 grid for this array only.
TEST(DistributionDevices, AnItemsOwnTopologyArrangesTheSameDevices) {
  ArrayShape S = shape({{0, 8}, {0, 6}});
  std::string Error;
  std::optional<Distribution> D =
      distributeArray(array("a", {Block, Block}), S, {1, 1, 1},
                      context(Topology::line(4)), Error,
                      {{}, {int64_t{2}, std::nullopt}});
  ASSERT_TRUE(D) << Error;
  Topology Grid{{2, 2}};
  for (unsigned Pos = 0; Pos < 4; ++Pos) {
    std::array<unsigned, homp::abi::MaxTopologyRank> C = Grid.coords(Pos);
    EXPECT_EQ(D->Owned[Pos].Dims[0], IndexSet(handWrittenBlock(8, 2, C[0])));
    EXPECT_EQ(D->Owned[Pos].Dims[1], IndexSet(handWrittenBlock(6, 2, C[1])));
  }
  EXPECT_FALSE(distributeArray(array("a", {Block, Block}), S, {1, 1, 1},
                               context(Topology::line(4)), Error,
                               {{}, {int64_t{3}}})
                   .has_value());
  EXPECT_EQ(Error.rfind("the topology of 'a': topology [3] does not arrange "
                        "4 devices",
                        0),
            0u)
      << Error;
}

TEST(DistributionDevices, NoListedDeviceIsRefused) {
  std::string Error;
  EXPECT_FALSE(distributeArray(array("y", {Block}), shape({{0, 4}}),
                               {1, 1, 1}, context(Topology{{2}}), Error,
                               {{3}, {}})
                   .has_value());
  EXPECT_EQ(Error, "'y' is distributed over device 3 (its topology(...)), "
                   "which does not run this construct");
  EXPECT_FALSE(distributeArray(array("y", {Block}), shape({{0, 4}}),
                               {1, 1, 1}, context(Topology{{2}}), Error,
                               {{3, 4}, {}})
                   .has_value());
  EXPECT_EQ(Error, "'y' is distributed over devices 3, 4 (its "
                   "topology(...)), none of which runs this construct");
}

//===----------------------------------------------------------------------===//
// Halos
//===----------------------------------------------------------------------===//

// A device holds its part widened by the halo; at the section's ends the
// halo stops there for 'none' and goes past for 'periodic' and
// 'reflecting'.
TEST(DistributionHalo, EveryWidthAndEdgeAgainstIndices) {
  const Edge Edges[] = {Edge::None, Edge::Periodic, Edge::Reflecting};
  const Range Section{3, 23};
  for (unsigned Devices : {1u, 3u, 4u})
    for (int64_t Left = 0; Left <= 3; ++Left)
      for (int64_t Right = 0; Right <= 3; ++Right)
        for (Edge LE : Edges)
          for (Edge RE : Edges) {
            homp::abi::Array A =
                array("a", {Block}, {}, {Halo{Left, Right, LE, RE}});
            std::optional<Distribution> D =
                distribute(A, shape({Section}), context(Topology{{Devices}}));
            ASSERT_TRUE(D);
            for (unsigned P = 0; P < Devices; ++P) {
              std::set<int64_t> Want;
              for (int64_t J : members(D->Owned[P].Dims[0]))
                for (int64_t I = J - Left; I <= J + Right; ++I) {
                  bool PastLeft = I < Section.Begin,
                       PastRight = I >= Section.End;
                  if ((PastLeft && LE == Edge::None) ||
                      (PastRight && RE == Edge::None))
                    continue;
                  Want.insert(I);
                }
              ProductSet H = D->held(P);
              ASSERT_EQ(H.Rank, 1u);
              ASSERT_EQ(H.Dims[0], setOf(Want))
                  << "halo " << Left << ":" << Right << " edges " << int(LE)
                  << int(RE) << " device " << P << " of " << Devices;
              ASSERT_TRUE(H.contains(D->Owned[P]));
            }
          }
}

TEST(DistributionHalo, FirstAndLastDevicesOfAPeriodicArray) {
  // halo(1:periodic): the first device also holds a[-1], the last a[n].
  homp::abi::Array A =
      array("a", {Block}, {}, {Halo{1, 1, Edge::Periodic, Edge::Periodic}});
  std::optional<Distribution> D =
      distribute(A, shape({{0, 20}}), context(Topology{{4}}));
  ASSERT_TRUE(D);
  EXPECT_EQ(D->held(0).Dims[0], set({{-1, 6}}));
  EXPECT_EQ(D->held(1).Dims[0], set({{4, 11}}));
  EXPECT_EQ(D->held(3).Dims[0], set({{14, 21}}));
  A.Halos[0].LeftEdge = A.Halos[0].RightEdge = Edge::None;
  D = distribute(A, shape({{0, 20}}), context(Topology{{4}}));
  EXPECT_EQ(D->held(0).Dims[0], set({{0, 6}}));
  EXPECT_EQ(D->held(3).Dims[0], set({{14, 20}}));
}

TEST(DistributionHalo, OnlySplitDimensionsHaveHalos) {
  homp::abi::Array A = array("u", {Block, Full}, {},
                             {Halo{1, 1, Edge::None, Edge::None},
                              Halo{2, 2, Edge::Periodic, Edge::Periodic}});
  std::optional<Distribution> D =
      distribute(A, shape({{0, 8}, {0, 5}}), context(Topology{{2}}));
  ASSERT_TRUE(D);
  EXPECT_EQ(D->held(0).Dims[0], set({{0, 5}}));
  EXPECT_EQ(D->held(1).Dims[0], set({{3, 8}}));
  EXPECT_EQ(D->held(0).Dims[1], set({{0, 5}}));
  EXPECT_EQ(D->held(1).Dims[1], set({{0, 5}}));
}

TEST(DistributionHalo, DevicesThatOwnNothingHoldNothing) {
  homp::abi::Array A =
      array("a", {Block}, {}, {Halo{1, 1, Edge::Periodic, Edge::Periodic}});
  std::optional<Distribution> D =
      distribute(A, shape({{0, 2}}), context(Topology{{4}}));
  ASSERT_TRUE(D);
  EXPECT_EQ(D->held(0).Dims[0], set({{-1, 2}}));
  EXPECT_EQ(D->held(1).Dims[0], set({{0, 3}}));
  EXPECT_TRUE(D->held(2).empty());
  EXPECT_TRUE(D->held(3).empty());
}

// Past the ends, a periodic halo wraps once (a[-k] is a[n - k], k <= n)
// and a reflecting one mirrors once (a[-k] is a[k], k <= n - 1): wider
// ones are refused, on either side, whatever the number of devices.
TEST(DistributionHalo, EdgeHalosWiderThanTheSectionAreRefused) {
  for (int64_t N = 1; N <= 5; ++N)
    for (int64_t Width = 1; Width <= 6; ++Width)
      for (Edge E : {Edge::Periodic, Edge::Reflecting})
        for (bool Left : {false, true})
          for (unsigned Devices : {1u, 2u, 4u}) {
            Halo H{Left ? Width : 0, Left ? 0 : Width, Left ? E : Edge::None,
                   Left ? Edge::None : E};
            std::string Error;
            std::optional<Distribution> D = distributeArray(
                array("a", {Block}, {}, {H}), shape({{2, 2 + N}}), {2, 2, 2},
                context(Topology{{Devices}}), Error);
            bool Fits = Width <= (E == Edge::Periodic ? N : N - 1);
            EXPECT_EQ(D.has_value(), Fits)
                << N << " elements, width " << Width << ", edge " << int(E)
                << (Left ? " left" : " right") << ": " << Error;
            if (!Fits)
              EXPECT_NE(Error.find("halo of dimension 0 of 'a' is " +
                                   std::to_string(Width) + " wide"),
                        std::string::npos)
                  << Error;
          }
}

// A device keeps the array's layout: a halo past the end of a row lies in
// the next row's memory. The distribution is refused exactly when two
// elements a device holds would share memory (brute force over the held
// points of 2-D and 3-D arrays with periodic, reflecting and no edges on
// their split inner dimension).
TEST(DistributionHalo, RefusedExactlyWhenHeldElementsShareMemory) {
  const Edge Edges[] = {Edge::None, Edge::Periodic, Edge::Reflecting};
  int Refused = 0, Accepted = 0;
  for (unsigned Rank : {2u, 3u})
    for (int64_t Rows = 1; Rows <= 3; ++Rows)
      for (int64_t Length = 1; Length <= 6; ++Length)
        for (unsigned Devices = 1; Devices <= 4; ++Devices)
          for (int64_t Width = 1; Width <= 2; ++Width)
            for (Edge E : Edges) {
              // Wider than the section: refused for that (test above).
              if (E != Edge::None &&
                  Width > (E == Edge::Periodic ? Length : Length - 1))
                continue;
              std::vector<Policy> Dims(Rank, Full);
              Dims[Rank - 1] = Block;
              std::vector<Halo> Halos(Rank);
              Halos[Rank - 1] = Halo{Width, Width, E, E};
              homp::abi::Array A = array("u", Dims, {}, Halos);
              // Rank 3: one middle index, so the rows lie Length apart.
              std::vector<Range> Section{{0, Rows}, {0, Length}};
              if (Rank == 3)
                Section = {{0, Rows}, {1, 2}, {0, Length}};
              ArrayShape S = shape(Section);
              std::string Error;
              std::optional<Distribution> D = distributeArray(
                  A, S, {2, 2, 2}, context(Topology{{Devices}}), Error);
              bool Shared = false;
              Distribution Ref;
              Ref.Shape = S;
              Ref.Halos = A.Halos;
              Ref.Split[Rank - 1] = true;
              for (unsigned P = 0; P < Devices && !Shared; ++P) {
                // The held points, from the BLOCK parts written by hand.
                Ref.Owned.assign(1, ProductSet::of(S.Section));
                Ref.Owned[0].Dims[Rank - 1] =
                    IndexSet(handWrittenBlock(Length, Devices, P));
                Ref.Devices = {0};
                if (Ref.Owned[0].empty())
                  continue;
                std::set<int64_t> Offsets;
                for (const Point &X : points(Ref.held(0))) {
                  Index I{};
                  for (unsigned K = 0; K < Rank; ++K)
                    I[K] = X[K];
                  Shared |= !Offsets.insert(S.offset(I)).second;
                }
              }
              ASSERT_EQ(D.has_value(), !Shared)
                  << "rank " << Rank << ", " << Rows << " rows of " << Length
                  << " on " << Devices << " devices, halo " << Width
                  << " edge " << int(E) << ": " << Error;
              (D ? Accepted : Refused) += 1;
              if (!D)
                EXPECT_NE(Error.find("dimension " + std::to_string(Rank - 1) +
                                     " of 'u' has"),
                          std::string::npos)
                    << Error;
            }
  // Both outcomes occur.
  EXPECT_GT(Refused, 0);
  EXPECT_GT(Accepted, 0);
}

TEST(DistributionHalo, WithoutAHaloHeldIsOwned) {
  forEveryPolicyAndTopology([](const homp::abi::Array &A, const ArrayShape &S,
                               const Blocks &B, const Topology &T) {
    std::optional<Distribution> D = distribute(A, S, context(T), B);
    ASSERT_TRUE(D);
    for (unsigned P = 0; P < T.size(); ++P)
      ASSERT_EQ(D->held(P), D->Owned[P]);
  });
}

//===----------------------------------------------------------------------===//
// The host layout
//===----------------------------------------------------------------------===//

namespace {

/// Every element's offset in an array of S's rank and extents (the section's
/// end in dimension 0), found by counting through it row-major.
std::map<Point, int64_t> rowMajorOffsets(const ArrayShape &S) {
  Box Whole;
  Whole.Rank = S.Rank;
  Whole.Dims[0] = {0, S.Section.Dims[0].End};
  for (unsigned D = 1; D < S.Rank; ++D)
    Whole.Dims[D] = {0, S.Extent[D]};
  std::map<Point, int64_t> Offsets;
  int64_t Next = 0;
  for (const Point &P : points(Whole))
    Offsets[P] = Next++;
  return Offsets;
}

Index indexOf(const Point &P) {
  Index I{};
  for (size_t D = 0; D < P.size(); ++D)
    I[D] = P[D];
  return I;
}

} // namespace

TEST(ArrayShape, OffsetsAreRowMajor) {
  for (const ArrayShape &S : {shape({{0, 7}}), shape({{0, 3}, {0, 4}}, {0, 6}),
                              shape({{0, 3}, {0, 4}, {0, 5}}, {0, 4, 5}),
                              shape({{1, 3}, {2, 4}, {0, 2}}, {0, 5, 3})})
    for (const auto &[P, Offset] : rowMajorOffsets(S))
      EXPECT_EQ(S.offset(indexOf(P)), Offset) << testing::PrintToString(P);
  // Indices below 0 (a halo past the array's start) keep counting.
  ArrayShape U = shape({{0, 30}});
  EXPECT_EQ(U.offset({-4, 0, 0}), -4);
  ArrayShape V = shape({{0, 3}, {0, 10}});
  EXPECT_EQ(V.offset({-1, 2, 0}), -8);
}

// A copy of a set spans from its first to its last element.
TEST(ArrayShape, SpanGoesFromTheFirstToTheLastElement) {
  Random R(21);
  for (unsigned Rank = 1; Rank <= MaxRank; ++Rank) {
    std::vector<Range> Dims = {{0, 6}, {0, 5}, {0, 4}};
    Dims.resize(Rank);
    ArrayShape S = shape(Dims);
    std::map<Point, int64_t> Offsets = rowMajorOffsets(S);
    for (int N = 0; N < 300; ++N) {
      ProductSet P;
      P.Rank = Rank;
      for (unsigned D = 0; D < Rank; ++D)
        P.Dims[D] = maskSet(R.bits(static_cast<unsigned>(Dims[D].End)), 0);
      int64_t Lo = INT64_MAX, Hi = INT64_MIN;
      for (const Point &Pt : points(P)) {
        Lo = std::min(Lo, Offsets.at(Pt));
        Hi = std::max(Hi, Offsets.at(Pt));
      }
      Range Span = S.span(P);
      if (P.empty())
        EXPECT_TRUE(Span.empty()) << P.str();
      else
        EXPECT_EQ(Span, (Range{Lo, Hi + 1})) << P.str();
    }
  }
}

// A box is contiguous when its elements' offsets are consecutive: every
// non-empty box of a 3x4 and a 2x3x3 array.
TEST(ArrayShape, ContiguousWhenTheOffsetsAreConsecutive) {
  for (const ArrayShape &S :
       {shape({{0, 3}, {0, 4}}), shape({{0, 2}, {0, 3}, {0, 3}})}) {
    std::map<Point, int64_t> Offsets = rowMajorOffsets(S);
    std::vector<Range> Ranges[MaxRank];
    for (unsigned D = 0; D < S.Rank; ++D)
      for (int64_t B = 0; B < S.Section.Dims[D].End; ++B)
        for (int64_t E = B + 1; E <= S.Section.Dims[D].End; ++E)
          Ranges[D].push_back({B, E});
    if (S.Rank < 3)
      Ranges[2] = {Range{0, 1}};
    unsigned Contiguous = 0, Total = 0;
    for (const Range &R0 : Ranges[0])
      for (const Range &R1 : Ranges[1])
        for (const Range &R2 : Ranges[2]) {
          Box B;
          B.Rank = S.Rank;
          B.Dims = {R0, R1, R2};
          std::vector<int64_t> Offs;
          for (const Point &P : points(B))
            Offs.push_back(Offsets.at(P));
          bool Consecutive = Offs.back() - Offs.front() + 1 ==
                             static_cast<int64_t>(Offs.size());
          EXPECT_EQ(S.contiguous(B), Consecutive) << B.str();
          Contiguous += Consecutive;
          ++Total;
        }
    EXPECT_GT(Contiguous, 0u);
    EXPECT_LT(Contiguous, Total);
  }
}

namespace {

/// Every element of B, by offset.
void offsetsOf(const ArrayShape &S, const Box &B, std::vector<int64_t> &Out) {
  Index I{};
  std::function<void(unsigned)> Walk = [&](unsigned D) {
    if (D == S.Rank) {
      Out.push_back(S.offset(I));
      return;
    }
    for (I[D] = B.Dims[D].Begin; I[D] < B.Dims[D].End; ++I[D])
      Walk(D + 1);
  };
  Walk(0);
}

} // namespace

TEST(ArrayShape, BoxesOfARunOfMemoryHoldExactlyItsElements) {
  // Every run of offsets in [-30, 70) of arrays of rank 1 to 3.
  for (const std::vector<int64_t> &Extents : std::vector<std::vector<int64_t>>{
           {0}, {0, 7}, {0, 1}, {0, 3, 4}, {0, 1, 5}, {0, 4, 1}}) {
    ArrayShape S;
    S.Rank = static_cast<unsigned>(Extents.size());
    for (unsigned D = 1; D < S.Rank; ++D)
      S.Extent[D] = Extents[D];
    for (int64_t B = -30; B < 70; B += 3)
      for (int64_t E = B; E <= 70; E += 5) {
        std::vector<Box> Boxes = S.boxesOf({B, E});
        EXPECT_LE(Boxes.size(), 2 * S.Rank - 1);
        std::vector<int64_t> Got;
        for (const Box &X : Boxes) {
          EXPECT_FALSE(X.empty());
          for (unsigned D = 1; D < S.Rank; ++D) {
            EXPECT_GE(X.Dims[D].Begin, 0);
            EXPECT_LE(X.Dims[D].End, S.Extent[D]);
          }
          offsetsOf(S, X, Got);
        }
        std::vector<int64_t> Want;
        for (int64_t O = B; O < E; ++O)
          Want.push_back(O);
        // In order, each once: the boxes are disjoint and cover the run.
        EXPECT_EQ(Got, Want)
            << "rank " << S.Rank << ", [" << B << ", " << E << ")";
      }
  }
}

namespace homp {
namespace {

// A memorizing loop's chunk changing device: the rows leave their owner,
// and a device that owned nothing gets the owner's extent in the other
// dimensions (an empty part's other dimensions are empty too).
TEST(GiveRowsTest, MovesRowsAndShapesAnEmptyPart) {
  Distribution D;
  D.Shape.Rank = 2;
  D.Devices = {0, 1};
  D.Owned.resize(2);
  Box Part;
  Part.Rank = 2;
  Part.Dims[0] = {0, 10};
  Part.Dims[1] = {0, 4};
  D.Owned[0] = ProductSet::of(Part);
  EXPECT_TRUE(D.Owned[1].empty());
  EXPECT_EQ(giveRows(D, 0, IndexSet(Range{3, 5}), 0, 1), IndexSet(Range{3, 5}));
  EXPECT_EQ(D.Owned[1].volume(), 8);
  EXPECT_EQ(D.Owned[1].Dims[1], IndexSet(Range{0, 4}));
  EXPECT_EQ(D.Owned[0].Dims[0],
            IndexSet(Range{0, 3}).unite(IndexSet(Range{5, 10})));
  // Rows the giver does not own move nowhere.
  EXPECT_TRUE(giveRows(D, 0, IndexSet(Range{3, 4}), 0, 1).empty());
  EXPECT_EQ(D.Owned[1].volume(), 8);
  EXPECT_TRUE(giveRows(D, 0, IndexSet(Range{4, 5}), 1, 1).empty());
}

} // namespace
} // namespace homp
