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

#include <algorithm>
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

/// Where the value of cell C is: C itself inside the section, past its
/// ends through the edge's rule.
Cell sourceOf(const Distribution &Dist, Cell C) {
  for (unsigned E = 0; E < Dist.Shape.Rank; ++E) {
    Range Sec = Dist.Shape.Section.Dims[E];
    const HaloSpec &H = Dist.Halos[E];
    if (C[E] < Sec.Begin)
      C[E] = H.LeftEdge == Edge::Periodic ? C[E] + Sec.size()
                                          : 2 * Sec.Begin - C[E];
    else if (C[E] >= Sec.End)
      C[E] = H.RightEdge == Edge::Periodic ? C[E] - Sec.size()
                                           : 2 * (Sec.End - 1) - C[E];
  }
  return C;
}

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
        Cell Src = sourceOf(Dist, C);
        for (unsigned E = 0; E < Rank; ++E) {
          Owned &= Own.Dims[E].contains(C[E]);
          Range Hull = Own.Dims[E].hull();
          bool Left = C[E] < Hull.Begin, Right = C[E] >= Hull.End;
          if ((Left || Right) &&
              (!(Dims >> E & 1) || !(Sides & (Left ? SideLeft : SideRight))))
            Wanted = false;
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

// The cells past the array's ends that a part holds are filled from the
// whole array, whoever owns their sources (a part of a scheduled loop is
// the only one owning anything): brute force over 1-D and 2-D arrays.
TEST(Halo, EdgeCellsOfAPartComeFromTheWholeArray) {
  for (unsigned Devices : {1u, 2u, 3u, 4u})
    for (Edge LE : {Edge::Periodic, Edge::Reflecting, Edge::None})
      for (Edge RE : {Edge::Periodic, Edge::Reflecting})
        for (unsigned Rank : {1u, 2u}) {
          Case C{{{0, 11}}, {Policy::Block}, {{2, 1, LE, RE}}, {Devices}};
          if (Rank == 2) {
            C.Section.push_back({3, 9});
            C.Kinds.push_back(Policy::Full);
            C.Halos.push_back({1, 1, RE, LE});
          }
          const Distribution Whole = distribute(C);
          for (unsigned P = 0; P < Devices; ++P) {
            // Position P's part alone is owned, as in a part's plan.
            Distribution Dist = Whole;
            for (unsigned Q = 0; Q < Devices; ++Q)
              if (Q != P)
                for (unsigned D = 0; D < Rank; ++D)
                  Dist.Owned[Q].Dims[D] = IndexSet();
            Fill Want;
            Dist.held(P).forEachBox([&](const Box &B) {
              Cell X{};
              std::function<void(unsigned)> Walk = [&](unsigned D) {
                if (D < Rank) {
                  for (X[D] = B.Dims[D].Begin; X[D] < B.Dims[D].End; ++X[D])
                    Walk(D + 1);
                  return;
                }
                bool Past = false;
                for (unsigned E = 0; E < Rank; ++E)
                  Past |= !Dist.Shape.Section.Dims[E].contains(X[E]);
                if (Past)
                  Want[{P, X}] = {P, sourceOf(Dist, X)};
              };
              Walk(0);
            });
            Fill Got = performed(edgeHaloCopies(Dist, P), Rank);
            EXPECT_TRUE(Got == Want)
                << Devices << " devices, position " << P << ", rank " << Rank;
            // After an update of some elements, the cells whose sources
            // they are, and no others.
            for (Range Updated : {Range{0, 11}, Range{0, 3}, Range{9, 11},
                                  Range{4, 6}, Range{10, 11}}) {
              Box U = Dist.Shape.Section;
              U.Dims[0] = Updated;
              const ProductSet Sources = ProductSet::of(U);
              Fill Some;
              for (const auto &Filled : Want) {
                const Cell &Src = Filled.second.second;
                Box One;
                One.Rank = Rank;
                for (unsigned D = 0; D < Rank; ++D)
                  One.Dims[D] = {Src[D], Src[D] + 1};
                if (Sources.contains(ProductSet::of(One)))
                  Some.insert(Filled);
              }
              EXPECT_TRUE(performed(edgeHaloCopies(Dist, P, Sources), Rank) ==
                          Some)
                  << Devices << " devices, position " << P << ", rank " << Rank
                  << ", updated [" << Updated.Begin << ", " << Updated.End
                  << ")";
            }
          }
        }
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

TEST(Halo, WholeHaloGathersEveryElementAPositionDoesNotOwn) {
  // halo(*): each device holds the whole section and gets every element
  // it does not own from its owner, one copy per other owner (rows of a
  // 2-D array are contiguous: one box each), never an owned one.
  const int64_t W = HaloSpec::All;
  for (int64_t N : {1, 3, 10, 17})
    for (unsigned Devices : {1u, 2u, 3u, 4u}) {
      Case C{{{2, 2 + N}, {0, 4}},
             {Policy::Block, Policy::Full},
             {{W, W, Edge::None, Edge::None}},
             {Devices}};
      check(C, 1, SideBoth);
      check(C, 1, SideLeft);
      check(C, 1, SideRight);
      Distribution Dist = distribute(C);
      std::vector<HaloCopy> Copies = haloCopies(Dist, 1, SideBoth);
      std::map<unsigned, int64_t> Received;
      std::set<std::pair<unsigned, unsigned>> Pairs;
      for (const HaloCopy &H : Copies) {
        EXPECT_TRUE(Pairs.insert({H.From, H.To}).second)
            << "two copies from " << H.From << " to " << H.To;
        Received[H.To] += H.Dst.volume();
      }
      unsigned Owners = 0;
      for (unsigned P = 0; P < Devices; ++P) {
        ProductSet Held = Dist.held(P);
        if (Dist.Owned[P].empty())
          continue;
        ++Owners;
        EXPECT_EQ(Held.volume(), N * 4) << "position " << P;
        EXPECT_EQ(Received[P], (N - Dist.Owned[P].volume() / 4) * 4);
      }
      EXPECT_EQ(Copies.size(), size_t(Owners) * (Owners - 1));
    }
  // A whole halo on one side only, and on the columns of a 2-D split.
  checkEverySelection(
      {{{0, 9}}, {Policy::Block}, {{W, 1, Edge::None, Edge::Periodic}}, {3}});
  checkEverySelection(
      {{{0, 7}, {0, 9}},
       {Policy::Block, Policy::Block},
       {{1, 1, Edge::None, Edge::None}, {W, W, Edge::None, Edge::None}},
       {2, 2}});
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

/// Checks P, Copies' program over devices of Types, against what a program
/// must be: each copy's route that of its ends, staged copies at disjoint
/// places of a buffer just large enough, each copy received once by its
/// receiver and, staged, sent once by its sender before any receive, and
/// the positions' totals their copies' bytes.
void checkProgram(const Distribution &Dist, const std::vector<HaloCopy> &Copies,
                  const std::vector<unsigned> &Types, const HaloProgram &P,
                  HaloRouteSetting Route) {
  const int64_t ES = Dist.Shape.ElementSize;
  const size_t N = Dist.Devices.size();
  std::vector<int64_t> In(N, 0), Out(N, 0);
  size_t Staged = 0, Direct = 0;
  std::vector<std::pair<size_t, size_t>> Places;
  ASSERT_EQ(P.Routes.size(), Copies.size());
  for (size_t C = 0; C < Copies.size(); ++C) {
    const HaloCopy &H = Copies[C];
    HaloRoute R = haloRoute(Types[H.From], Types[H.To], H.From == H.To,
                            Route == HaloRouteSetting::Peer);
    if (Route == HaloRouteSetting::Staged && R == HaloRoute::Peer)
      R = HaloRoute::Staged;
    EXPECT_EQ(P.Routes[C], R) << "copy " << C;
    const size_t Bytes = static_cast<size_t>(H.Src.volume() * ES);
    In[H.To] += Bytes;
    Out[H.From] += Bytes;
    if (R == HaloRoute::Staged) {
      Staged += Bytes;
      Places.push_back({P.Offsets[C], P.Offsets[C] + Bytes});
    } else {
      Direct += Bytes;
    }
  }
  EXPECT_EQ(P.Staged, Staged);
  EXPECT_EQ(P.Direct, Direct);
  std::sort(Places.begin(), Places.end());
  for (size_t I = 0; I < Places.size(); ++I) {
    EXPECT_LE(Places[I].second, Staged);
    if (I > 0)
      EXPECT_LE(Places[I - 1].second, Places[I].first);
  }
  std::vector<int> Sent(Copies.size(), 0), Received(Copies.size(), 0);
  bool Receiving = false;
  for (const HaloProgram::Group &G : P.Groups) {
    EXPECT_FALSE(Receiving && G.Send) << "a send after a receive";
    Receiving |= !G.Send;
    int64_t Bytes = 0;
    for (size_t I = G.Begin; I < G.End; ++I) {
      const size_t C = P.Order[I];
      EXPECT_EQ(G.Send ? Copies[C].From : Copies[C].To, G.Position);
      ++(G.Send ? Sent : Received)[C];
      Bytes += Copies[C].Src.volume() * ES;
    }
    EXPECT_EQ(G.Bytes, Bytes);
  }
  for (size_t C = 0; C < Copies.size(); ++C) {
    EXPECT_EQ(Received[C], 1) << "copy " << C;
    EXPECT_EQ(Sent[C], P.Routes[C] == HaloRoute::Staged ? 1 : 0)
        << "copy " << C;
  }
  EXPECT_EQ(P.In, In);
  EXPECT_EQ(P.Out, Out);
}

TEST(Halo, ProgramsRouteStageAndOrderTheCopies) {
  using namespace homp::abi;
  // Jacobi by rows over two CPU offload devices, a GPU and the host: rows
  // of 1026 doubles go peer to peer between the CPU devices, through the
  // host's buffer between a CPU device and the GPU, in one copy to and
  // from the host.
  Case C{{{0, 2050}, {0, 1026}},
         {Policy::Block, Policy::Full},
         {{1, 1, Edge::None, Edge::None}},
         {4}};
  Distribution Dist = distribute(C);
  std::vector<HaloCopy> Copies = haloCopies(Dist, 3, SideBoth);
  const std::vector<unsigned> Types = {TypeCPU, TypeCPU, TypeNVGPU, TypeHost};
  for (HaloRouteSetting R : {HaloRouteSetting::Auto, HaloRouteSetting::Peer,
                             HaloRouteSetting::Staged}) {
    HaloProgram P = haloProgram(Dist, Copies, Types, R);
    checkProgram(Dist, Copies, Types, P, R);
    if (R == HaloRouteSetting::Auto) {
      EXPECT_EQ(P.Staged, 2u * 1026 * 8); // 1 <-> 2
      EXPECT_EQ(P.RoutesIn[1], (1u << unsigned(HaloRoute::Peer)) |
                                   (1u << unsigned(HaloRoute::Staged)));
      EXPECT_EQ(P.RoutesIn[3], 1u << unsigned(HaloRoute::Host));
    }
  }
  // HOMP_HALO_ROUTE=staged: the CPU devices' rows go through the buffer
  // too; peer: nothing does.
  EXPECT_EQ(haloProgram(Dist, Copies, Types, HaloRouteSetting::Staged).Staged,
            4u * 1026 * 8);
  EXPECT_EQ(haloProgram(Dist, Copies, Types, HaloRouteSetting::Peer).Staged,
            0u);
}

TEST(Halo, ProgramsOfPeriodicBlocks) {
  using namespace homp::abi;
  // 2-D blocks with corners and periodic edges over 2 x 2 devices of mixed
  // types; and one device whose periodic halo is a copy within it.
  Case C{{{0, 9}, {0, 7}},
         {Policy::Block, Policy::Block},
         {{1, 1, Edge::Periodic, Edge::Periodic},
          {2, 1, Edge::Periodic, Edge::Periodic}},
         {2, 2}};
  Distribution Dist = distribute(C);
  std::vector<HaloCopy> Copies = haloCopies(Dist, 3, SideBoth);
  const std::vector<unsigned> Types = {TypeNVGPU, TypeAMDGPU, TypeCPU,
                                       TypeNVGPU};
  checkProgram(Dist, Copies, Types,
               haloProgram(Dist, Copies, Types, HaloRouteSetting::Auto),
               HaloRouteSetting::Auto);
  Case One{{{0, 10}},
           {Policy::Block},
           {{2, 2, Edge::Periodic, Edge::Periodic}},
           {1}};
  Distribution D1 = distribute(One);
  std::vector<HaloCopy> Own = haloCopies(D1, 1, SideBoth);
  HaloProgram P = haloProgram(D1, Own, {TypeCPU}, HaloRouteSetting::Auto);
  checkProgram(D1, Own, {TypeCPU}, P, HaloRouteSetting::Auto);
  for (HaloRoute R : P.Routes)
    EXPECT_EQ(R, HaloRoute::Local);
}

namespace {

/// Runs the halo program of Dist's update (Dims, Sides) on a memory
/// transport, every device's storage holding its owned cells of an array
/// whose every cell holds its own offset, and checks each device's storage
/// cell by cell: owned cells unchanged, each halo cell the update fills
/// holding its source's value (expected()), every other cell never
/// written.
void runOnTransport(const Distribution &Dist, unsigned Dims, unsigned Sides,
                    const std::vector<unsigned> &Types, HaloRouteSetting R) {
  const ArrayShape &Sh = Dist.Shape;
  const unsigned N = static_cast<unsigned>(Dist.Devices.size());
  MemoryTransport T(static_cast<int>(N));
  const Range All = Sh.span(ProductSet::of(Sh.Section));
  std::vector<int64_t> Host(static_cast<size_t>(All.End));
  for (int64_t O = 0; O < All.End; ++O)
    Host[static_cast<size_t>(O)] = O;
  char *Zero = reinterpret_cast<char *>(Host.data());
  std::vector<Storage> St(N);
  std::vector<BoxEnd> Ends(N);
  for (unsigned P = 0; P < N; ++P) {
    std::string Error;
    ASSERT_TRUE(allocateStorage(T, Dist.Devices[P], Sh, Sh.span(Dist.held(P)),
                                St[P], Error))
        << Error;
    int64_t Bytes = 0;
    ASSERT_TRUE(copyElements(T, Direction::ToDevice, Sh, Zero, St[P],
                             Dist.Owned[P], Bytes));
    Ends[P] = storageEnd(Sh, St[P]);
  }
  const std::vector<HaloCopy> Copies = haloCopies(Dist, Dims, Sides);
  const HaloProgram Pr = haloProgram(Dist, Copies, Types, R);
  const std::vector<PlannedHaloCopy> Planned =
      planHaloCopies(Sh, Copies, Pr, Ends, T.host());
  const char *Stage = T.staging(Pr.Staged);
  for (size_t G = 0; G < Pr.Groups.size(); ++G) {
    size_t Failed = 0;
    ASSERT_TRUE(runHaloGroup(T, Pr, Planned, G, Stage, Failed))
        << "copy " << Failed;
  }
  EXPECT_TRUE(T.errors().empty()) << T.errors().front();
  EXPECT_EQ(T.unwaited(), 0u);
  const Fill Want = expected(Dist, Dims, Sides);
  for (unsigned P = 0; P < N; ++P) {
    const int64_t *Dev = static_cast<const int64_t *>(St[P].Ptr);
    Dist.held(P).forEachBox([&](const Box &B) {
      Cell C{};
      std::function<void(unsigned)> Walk = [&](unsigned D) {
        if (D < Sh.Rank) {
          for (C[D] = B.Dims[D].Begin; C[D] < B.Dims[D].End; ++C[D])
            Walk(D + 1);
          return;
        }
        const int64_t Got = Dev[Sh.offset(C) - St[P].Span.Begin];
        bool Owned = true;
        for (unsigned E = 0; E < Sh.Rank; ++E)
          Owned &= Dist.Owned[P].Dims[E].contains(C[E]);
        auto It = Want.find({P, C});
        if (Owned)
          EXPECT_EQ(Got, Sh.offset(C));
        else if (It != Want.end())
          EXPECT_EQ(Got, Sh.offset(It->second.second))
              << "device " << P << " cell " << Sh.offset(C);
        else
          EXPECT_EQ(static_cast<uint64_t>(Got), 0xA5A5A5A5A5A5A5A5u)
              << "device " << P << " cell " << Sh.offset(C)
              << " written, though the update does not fill it";
      };
      Walk(0);
    });
    freeStorage(T, St[P]);
  }
  EXPECT_TRUE(T.errors().empty());
}

} // namespace

TEST(Halo, ProgramsRunOnATransportFillExactlyTheHalos) {
  using namespace homp::abi;
  const std::vector<Case> Cases = {
      {{{0, 23}},
       {Policy::Block},
       {{2, 1, Edge::Periodic, Edge::Reflecting}},
       {4}},
      {{{3, 40}}, {Policy::Block}, {{3, 3, Edge::None, Edge::Periodic}}, {3}},
      {{{0, 12}, {0, 9}},
       {Policy::Block, Policy::Full},
       {{1, 1, Edge::None, Edge::None}},
       {4}},
      {{{0, 9}, {0, 7}},
       {Policy::Block, Policy::Block},
       {{1, 1, Edge::Periodic, Edge::Periodic},
        {2, 1, Edge::Periodic, Edge::Reflecting}},
       {2, 2}},
      {{{0, 6}, {0, 9}, {0, 8}},
       {Policy::Block, Policy::Block, Policy::Full},
       {{1, 1, Edge::Periodic, Edge::None}, {1, 2, Edge::None, Edge::None}},
       {2, 2}},
      {{{0, 10}},
       {Policy::Block},
       {{2, 2, Edge::Periodic, Edge::Periodic}},
       {1}},
  };
  for (const Case &C : Cases) {
    const Distribution Dist = distribute(C);
    const unsigned N = static_cast<unsigned>(Dist.Devices.size());
    // CPU offload devices (peer to peer), and GPUs of two vendors (staged
    // between them).
    std::vector<unsigned> Cpus(N, TypeCPU), Mixed(N);
    for (unsigned P = 0; P < N; ++P)
      Mixed[P] = P % 2 ? TypeAMDGPU : TypeNVGPU;
    const unsigned AllDims = (1u << C.Section.size()) - 1;
    for (unsigned Dims = 1; Dims <= AllDims; ++Dims)
      for (unsigned Sides : {SideLeft, SideRight, SideBoth})
        for (HaloRouteSetting R :
             {HaloRouteSetting::Auto, HaloRouteSetting::Staged,
              HaloRouteSetting::Peer})
          for (const std::vector<unsigned> *Types : {&Cpus, &Mixed}) {
            SCOPED_TRACE("dims " + std::to_string(Dims) + " sides " +
                         std::to_string(Sides) + " route " +
                         std::to_string(int(R)));
            runOnTransport(Dist, Dims, Sides, *Types, R);
          }
  }
}

// storageColors: the addresses each copy reads and writes, worked out from
// the placement, element by element as the layout puts them.
namespace {

std::vector<Range> spansOf(const Distribution &Dist) {
  std::vector<Range> Spans;
  for (unsigned P = 0; P < Dist.Owned.size(); ++P)
    Spans.push_back(Dist.Shape.span(Dist.held(P)));
  return Spans;
}

/// The halo copies, and the copies in and out, that would be slow with
/// position P's storage at page offset Colors[P] (the host's array at
/// HostZero for HostMemory positions).
int slowCopies(const Distribution &Dist, const std::vector<HaloCopy> &Copies,
               const std::vector<int64_t> &Colors,
               const std::vector<PartMemory> &Memory, int64_t HostZero) {
  std::vector<Range> Spans = spansOf(Dist);
  const int64_t ES = Dist.Shape.ElementSize;
  auto Address = [&](unsigned P, const Box &B) {
    Index I{};
    for (unsigned D = 0; D < B.Rank; ++D)
      I[D] = B.Dims[D].Begin;
    int64_t Element = Dist.Shape.offset(I);
    if (Memory[P] == PartMemory::HostMemory)
      return HostZero + ES * Element;
    return Colors[P] + ES * (Element - Spans[P].Begin);
  };
  int Slow = 0;
  for (const HaloCopy &H : Copies)
    if (H.From != H.To && Memory[H.From] != PartMemory::Elsewhere &&
        Memory[H.To] != PartMemory::Elsewhere)
      Slow += slowCopyDistance(Address(H.To, H.Dst) - Address(H.From, H.Src));
  for (unsigned P = 0; P < Memory.size(); ++P)
    if (Memory[P] == PartMemory::Colored && !Spans[P].empty()) {
      Box First = Dist.held(P).hull();
      int64_t Device = Address(P, First);
      int64_t Host = HostZero + ES * Spans[P].Begin;
      Slow += slowCopyDistance(Device - Host) + slowCopyDistance(Host - Device);
    }
  return Slow;
}

} // namespace

TEST(StorageColors, SlowDistancesAreOneTo63BytesAheadInAPage) {
  EXPECT_FALSE(slowCopyDistance(0));
  EXPECT_TRUE(slowCopyDistance(1));
  EXPECT_TRUE(slowCopyDistance(16));
  EXPECT_TRUE(slowCopyDistance(63));
  EXPECT_FALSE(slowCopyDistance(64));
  EXPECT_TRUE(slowCopyDistance(3 * 4096 + 16));
  EXPECT_FALSE(slowCopyDistance(-16)); // behind: fast
  EXPECT_TRUE(slowCopyDistance(-4096 + 8));
}

TEST(StorageColors, JacobiHaloRowsAvoidTheSlowCopies) {
  // 2050 rows of 1026 doubles on 4 devices: 513 rows a part, a row being
  // 16 bytes past two pages. Storage starting at one place of a page (as
  // malloc's) puts each halo row 16 bytes past its source.
  Case C{{{0, 2050}, {0, 1026}},
         {Policy::Block, Policy::Full},
         {{1, 1, Edge::None, Edge::None}},
         {4}};
  Distribution Dist = distribute(C);
  std::vector<HaloCopy> Copies = haloCopies(Dist, 1, SideBoth);
  std::vector<PartMemory> Colored(4, PartMemory::Colored);
  EXPECT_GT(slowCopies(Dist, Copies, {0, 0, 0, 0}, Colored, 0), 0);
  for (int64_t Host : {0, 16, 2048, 4080}) {
    std::vector<int64_t> Colors =
        storageColors(Dist.Shape, spansOf(Dist), Copies, Colored, Host);
    ASSERT_EQ(Colors.size(), 4u);
    for (int64_t Color : Colors) {
      EXPECT_GE(Color, 0);
      EXPECT_LT(Color, 4096);
      EXPECT_EQ(Color % 64, 0);
    }
    EXPECT_EQ(slowCopies(Dist, Copies, Colors, Colored, Host), 0)
        << "host array at " << Host;
  }
}

TEST(StorageColors, EveryPartSizeAndTopology) {
  // Row lengths and part sizes that hit the slow distances in many ways;
  // 2-D blocks with corners; the host as one of the devices; a GPU whose
  // copies the host's memcpy never makes.
  for (int64_t Rows : {130, 514, 1026, 2050, 4098})
    for (int64_t Cols : {7, 512, 514, 1026})
      for (std::vector<unsigned> Topo :
           {std::vector<unsigned>{4}, std::vector<unsigned>{2, 2}}) {
        Case C{{{0, Rows}, {0, Cols}},
               {Policy::Block, Topo.size() == 2 ? Policy::Block : Policy::Full},
               {{1, 1, Edge::None, Edge::None},
                {Topo.size() == 2 ? 1 : 0, Topo.size() == 2 ? 1 : 0,
                 Edge::None, Edge::None}},
               Topo};
        Distribution Dist = distribute(C);
        std::vector<HaloCopy> Copies = haloCopies(Dist, 3, SideBoth);
        for (std::vector<PartMemory> Memory :
             {std::vector<PartMemory>(4, PartMemory::Colored),
              std::vector<PartMemory>{PartMemory::HostMemory,
                                      PartMemory::Colored, PartMemory::Colored,
                                      PartMemory::Elsewhere}}) {
          std::vector<int64_t> Colors =
              storageColors(Dist.Shape, spansOf(Dist), Copies, Memory, 16);
          EXPECT_EQ(slowCopies(Dist, Copies, Colors, Memory, 16), 0)
              << Rows << " x " << Cols << " on " << Topo.size() << "-D";
          for (unsigned P = 0; P < 4; ++P)
            if (Memory[P] != PartMemory::Colored)
              EXPECT_EQ(Colors[P], 0);
        }
      }
}

TEST(StorageColors, ArraysOnOneDeviceStartApartInThePage) {
  // Two arrays already on the device, with element [0] at 0 and 2048 in a
  // page: the third goes to the first place at least 128 bytes from both.
  Distribution Dist = distribute({{{0, 1000}}, {Policy::Block}, {}, {1}});
  std::vector<int64_t> Colors =
      storageColors(Dist.Shape, spansOf(Dist), {}, {PartMemory::Colored},
                    /*HostZero=*/512, {{0, 4096 * 7 + 2048}});
  ASSERT_EQ(Colors.size(), 1u);
  EXPECT_EQ(Colors[0] % 4096, 128);
  // Beside arrays at 0 and 128, the first place 128 bytes from both.
  EXPECT_EQ(storageColors(Dist.Shape, spansOf(Dist), {}, {PartMemory::Colored},
                          512, {{4096, 4096 * 3 + 128}})[0] %
                4096,
            256);
  // Alone on its device, the first place that copies fast.
  EXPECT_EQ(storageColors(Dist.Shape, spansOf(Dist), {}, {PartMemory::Colored},
                          512)[0],
            0);
}
