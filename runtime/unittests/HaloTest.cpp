//===-- HaloTest.cpp - Which copies fill the halos
//-------------------------===//
//
// haloCopies against a cell-by-cell reference: every halo cell a device
// holds, selected by dimension and side, gets the value of the one cell its
// global index (wrapped or mirrored past the array's ends) names, from the
// device that owns it; nothing else is written, nothing twice. 1-D, 2-D and
// 3-D arrays over 1-D and 2-D topologies, every edge kind, uneven parts,
// halos wider than a part; the routes between device types.
//
//===----------------------------------------------------------------------===//

#include "homp/Halo.h"

#include "Reference.h"

#include <gtest/gtest.h>

#include <functional>
#include <map>
#include <optional>
#include <set>
#include <vector>

using namespace homp;

namespace {

using Policy = homp::abi::Policy;
using HaloSpec = homp::abi::Halo;
using Edge = homp::abi::Edge;
using Cell = std::array<int64_t, MaxRank>;

struct Case {
  std::vector<Range> Section;
  std::vector<Policy::KindTy> Kinds;
  std::vector<HaloSpec> Halos;
  std::vector<unsigned> Topo;
};

Distribution distribute(const Case &C) {
  homp::abi::Array A;
  A.Name = "a";
  A.Rank = static_cast<unsigned>(C.Section.size());
  ArrayShape S;
  S.Rank = A.Rank;
  S.ElementSize = 8;
  S.Section.Rank = A.Rank;
  for (unsigned D = 0; D < A.Rank; ++D) {
    A.Dims[D].Kind = C.Kinds[D];
    if (D < C.Halos.size())
      A.Halos[D] = C.Halos[D];
    S.Section.Dims[D] = C.Section[D];
    if (D > 0)
      S.Extent[D] = C.Section[D].End;
  }
  DistributionContext Ctx;
  Ctx.Topo.Dims = C.Topo;
  for (unsigned P = 0; P < Ctx.Topo.size(); ++P)
    Ctx.Devices.push_back(static_cast<int>(P));
  std::string Error;
  std::optional<Distribution> D = distributeArray(A, S, {1, 1, 1}, Ctx, Error);
  EXPECT_TRUE(D) << Error;
  return D ? *D : Distribution();
}

using Fill = std::map<std::pair<unsigned, Cell>, std::pair<unsigned, Cell>>;

/// What an update must do, cell by cell: (device, halo cell) -> (owner,
/// source cell).
Fill expected(const Distribution &Dist, unsigned Dims, unsigned Sides) {
  Fill Out;
  const unsigned Rank = Dist.Shape.Rank;
  for (unsigned P = 0; P < Dist.Owned.size(); ++P) {
    const ProductSet &Own = Dist.Owned[P];
    if (Own.empty())
      continue;
    ProductSet Held = Dist.held(P);
    Held.forEachBox([&](const Box &B) {
      Cell C{};
      std::function<void(unsigned)> Walk = [&](unsigned D) {
        if (D < Rank) {
          for (C[D] = B.Dims[D].Begin; C[D] < B.Dims[D].End; ++C[D])
            Walk(D + 1);
          return;
        }
        bool Owned = true, Wanted = true;
        Cell Src = C;
        for (unsigned E = 0; E < Rank; ++E) {
          Owned &= Own.Dims[E].contains(C[E]);
          Range Hull = Own.Dims[E].hull();
          bool Left = C[E] < Hull.Begin, Right = C[E] >= Hull.End;
          if ((Left || Right) &&
              (!(Dims >> E & 1) || !(Sides & (Left ? SideLeft : SideRight))))
            Wanted = false;
          Range Sec = Dist.Shape.Section.Dims[E];
          const HaloSpec &H = Dist.Halos[E];
          if (C[E] < Sec.Begin)
            Src[E] = H.LeftEdge == Edge::Periodic ? C[E] + Sec.size()
                                                  : 2 * Sec.Begin - C[E];
          else if (C[E] >= Sec.End)
            Src[E] = H.RightEdge == Edge::Periodic ? C[E] - Sec.size()
                                                   : 2 * (Sec.End - 1) - C[E];
        }
        if (Owned || !Wanted)
          return;
        for (unsigned Q = 0; Q < Dist.Owned.size(); ++Q) {
          bool Has = true;
          for (unsigned E = 0; E < Rank; ++E)
            Has &= Dist.Owned[Q].Dims[E].contains(Src[E]);
          if (Has)
            Out[{P, C}] = {Q, Src};
        }
      };
      Walk(0);
    });
  }
  return Out;
}

/// What the copies do, cell by cell; a cell written twice fails the test.
Fill performed(const std::vector<HaloCopy> &Copies, unsigned Rank) {
  Fill Out;
  for (const HaloCopy &H : Copies) {
    EXPECT_EQ(H.Src.volume(), H.Dst.volume());
    Cell C{};
    std::function<void(unsigned)> Walk = [&](unsigned D) {
      if (D < Rank) {
        for (C[D] = H.Dst.Dims[D].Begin; C[D] < H.Dst.Dims[D].End; ++C[D])
          Walk(D + 1);
        return;
      }
      Cell Src = C;
      for (unsigned E = 0; E < Rank; ++E)
        Src[E] += H.Src.Dims[E].Begin - H.Dst.Dims[E].Begin;
      bool Fresh = Out.insert({{H.To, C}, {H.From, Src}}).second;
      EXPECT_TRUE(Fresh) << "a cell of device " << H.To << " written twice";
    };
    Walk(0);
  }
  return Out;
}

void check(const Case &C, unsigned Dims, unsigned Sides) {
  Distribution Dist = distribute(C);
  Fill Want = expected(Dist, Dims, Sides);
  Fill Got = performed(haloCopies(Dist, Dims, Sides), Dist.Shape.Rank);
  EXPECT_EQ(Got.size(), Want.size());
  EXPECT_TRUE(Got == Want) << "dims " << Dims << " sides " << Sides;
}

void checkEverySelection(const Case &C) {
  unsigned All = (1u << C.Section.size()) - 1;
  for (unsigned Dims = 1; Dims <= All; ++Dims)
    for (unsigned Sides : {SideLeft, SideRight, SideBoth})
      check(C, Dims, Sides);
}

const Edge EdgeKinds[] = {Edge::None, Edge::Periodic, Edge::Reflecting};

} // namespace

TEST(Halo, OneDimensionEveryWidthAndEdge) {
  for (int64_t N : {10, 17, 40})
    for (unsigned Devices : {1u, 2u, 3u, 4u})
      for (int64_t Left : {0, 1, 2})
        for (int64_t Right : {0, 1, 3})
          for (Edge LE : EdgeKinds)
            for (Edge RE : EdgeKinds)
              checkEverySelection({{{0, N}},
                                   {Policy::Block},
                                   {{Left, Right, LE, RE}},
                                   {Devices}});
}

TEST(Halo, SectionNotAtZero) {
  checkEverySelection({{{5, 23}},
                       {Policy::Block},
                       {{2, 1, Edge::Periodic, Edge::Reflecting}},
                       {3}});
}

TEST(Halo, HaloWiderThanAPartReachesTwoNeighbours) {
  // 10 rows over 4 devices: parts of 3, 3, 2, 2 rows; a width of 3 takes
  // cells from two devices on each side.
  Case C{{{0, 10}}, {Policy::Block}, {{3, 3, Edge::None, Edge::None}}, {4}};
  check(C, 1, SideBoth);
  Distribution Dist = distribute(C);
  bool TwoSources = false;
  for (unsigned To = 0; To < 4; ++To) {
    std::set<unsigned> From;
    for (const HaloCopy &H : haloCopies(Dist, 1, SideLeft))
      if (H.To == To)
        From.insert(H.From);
    TwoSources |= From.size() == 2;
  }
  EXPECT_TRUE(TwoSources);
}

TEST(Halo, RowsOfAGridMoveAsOneCopyPerNeighbour) {
  // Jacobi by rows (PMAM'15 Figure 2): halo(1,) over 4 devices is one copy
  // of one whole row per neighbour pair and direction.
  Case C{{{0, 2050}, {0, 1026}},
         {Policy::Block, Policy::Full},
         {{1, 1, Edge::None, Edge::None}},
         {4}};
  check(C, 3, SideBoth);
  Distribution Dist = distribute(C);
  std::vector<HaloCopy> Copies = haloCopies(Dist, 3, SideBoth);
  ASSERT_EQ(Copies.size(), 6u);
  for (const HaloCopy &H : Copies) {
    EXPECT_EQ(H.Dst.Dims[0].size(), 1);
    EXPECT_EQ(H.Dst.Dims[1], (Range{0, 1026}));
  }
  EXPECT_EQ(haloDimensions(Dist), 1u);
}

TEST(Halo, TwoDimensionalBlocksWithCorners) {
  for (Edge E : EdgeKinds)
    for (std::vector<unsigned> Topo :
         {std::vector<unsigned>{2, 2}, std::vector<unsigned>{1, 4},
          std::vector<unsigned>{3, 2}})
      checkEverySelection({{{0, 13}, {0, 9}},
                           {Policy::Block, Policy::Block},
                           {{1, 1, E, E}, {2, 1, E, E}},
                           Topo});
}

TEST(Halo, CornersNeedBothDimensions) {
  // A 9-point stencil on a [2][2] topology: device 0's corner cell (5, 5)
  // comes from device 3 with both dimensions selected, and not with one.
  Case C{{{0, 10}, {0, 10}},
         {Policy::Block, Policy::Block},
         {{1, 1, Edge::None, Edge::None}, {1, 1, Edge::None, Edge::None}},
         {2, 2}};
  Distribution Dist = distribute(C);
  auto FillsCorner = [&](unsigned Dims) {
    for (const HaloCopy &H : haloCopies(Dist, Dims, SideBoth))
      if (H.To == 0 && H.Dst.Dims[0].contains(5) && H.Dst.Dims[1].contains(5))
        return H.From == 3;
    return false;
  };
  EXPECT_TRUE(FillsCorner(3));
  EXPECT_FALSE(FillsCorner(1));
  EXPECT_FALSE(FillsCorner(2));
}

TEST(Halo, ThreeDimensions) {
  checkEverySelection({{{0, 6}, {0, 5}, {0, 4}},
                       {Policy::Block, Policy::Block, Policy::Full},
                       {{1, 1, Edge::Periodic, Edge::None},
                        {1, 2, Edge::None, Edge::Reflecting}},
                       {2, 2}});
}

TEST(Halo, NoHaloNoCopies) {
  Distribution Dist = distribute({{{0, 20}}, {Policy::Block}, {}, {4}});
  EXPECT_TRUE(haloCopies(Dist, 1, SideBoth).empty());
  EXPECT_EQ(haloDimensions(Dist), 0u);
}

TEST(Halo, PeriodicOnOneDeviceCopiesWithinIt) {
  Distribution Dist = distribute({{{0, 8}},
                                  {Policy::Block},
                                  {{1, 1, Edge::Periodic, Edge::Periodic}},
                                  {1}});
  std::vector<HaloCopy> Copies = haloCopies(Dist, 1, SideBoth);
  ASSERT_EQ(Copies.size(), 2u);
  EXPECT_EQ(Copies[0].From, 0u);
  EXPECT_EQ(Copies[0].Dst.Dims[0], (Range{-1, 0}));
  EXPECT_EQ(Copies[0].Src.Dims[0], (Range{7, 8}));
  EXPECT_EQ(Copies[1].Dst.Dims[0], (Range{8, 9}));
  EXPECT_EQ(Copies[1].Src.Dims[0], (Range{0, 1}));
}

TEST(Halo, Routes) {
  using namespace homp::abi;
  EXPECT_EQ(haloRoute(TypeNVGPU, TypeNVGPU, false), HaloRoute::Peer);
  EXPECT_EQ(haloRoute(TypeAMDGPU, TypeAMDGPU, false), HaloRoute::Peer);
  EXPECT_EQ(haloRoute(TypeNVGPU, TypeAMDGPU, false), HaloRoute::Staged);
  EXPECT_EQ(haloRoute(TypeCPU, TypeCPU, false), HaloRoute::Peer);
  EXPECT_EQ(haloRoute(TypeCPU, TypeNVGPU, false), HaloRoute::Staged);
  EXPECT_EQ(haloRoute(TypeHost, TypeNVGPU, false), HaloRoute::Host);
  EXPECT_EQ(haloRoute(TypeCPU, TypeHost, false), HaloRoute::Host);
  EXPECT_EQ(haloRoute(TypeCPU, TypeCPU, true), HaloRoute::Local);
  EXPECT_EQ(haloRoute(TypeCPU, TypeAMDGPU, false, /*ForcePeer=*/true),
            HaloRoute::Peer);
  EXPECT_EQ(haloRoute(TypeHost, TypeCPU, false, /*ForcePeer=*/true),
            HaloRoute::Host);
  EXPECT_STREQ(haloRouteName(HaloRoute::Staged), "staged");
}
