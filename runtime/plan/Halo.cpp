//===-- Halo.cpp - Which copies fill the halos ----------------------------===//

#include "homp/Halo.h"

#include <algorithm>
#include <limits>
#include <optional>

namespace homp {

namespace {

constexpr int64_t Far = std::numeric_limits<int64_t>::max() / 4;

/// storageColors' page, the steps it places storage at, and how far apart in
/// a page the arrays on one device are kept.
constexpr int64_t PageBytes = 4096, ColorStep = 64, ApartEnough = 128;

/// A run of cells to fill in one dimension and where their values are:
/// Dst gets the values of Src, a translation of it.
struct DimCopy {
  Range Dst, Src;
};

/// The copies of one dimension's range R of halo cells: inside the section
/// from the same indices, past its ends through the edge's rule.
std::vector<DimCopy> dimCopies(Range R, Range Section, const abi::Halo &H) {
  std::vector<DimCopy> Out;
  const int64_t N = Section.size();
  auto Beyond = [&](Range Part, abi::Edge E, bool Low) {
    if (Part.empty())
      return;
    if (E == abi::Edge::Periodic) {
      int64_t Shift = Low ? N : -N;
      Range Src{Part.Begin + Shift, Part.End + Shift};
      if (Section.contains(Src))
        Out.push_back({Part, Src});
      return;
    }
    if (E == abi::Edge::Reflecting) {
      // Mirrored about the edge element, one layer per copy: a[-k] is
      // a[k], a[n-1+k] is a[n-1-k].
      for (int64_t I = Part.Begin; I < Part.End; ++I) {
        int64_t M = Low ? 2 * Section.Begin - I : 2 * (Section.End - 1) - I;
        if (Section.contains(M))
          Out.push_back({{I, I + 1}, {M, M + 1}});
      }
    }
  };
  Beyond(R.intersect({-Far, Section.Begin}), H.LeftEdge, true);
  Range In = R.intersect(Section);
  if (!In.empty())
    Out.push_back({In, In});
  Beyond(R.intersect({Section.End, Far}), H.RightEdge, false);
  return Out;
}

/// Calls Fn(Dst, Src) for each box of the cells B of Dist and the box their
/// values are in (inside the section: themselves; past its ends: through
/// the edge's rule): every combination of one run per dimension.
template <typename F>
void forEachSource(const Distribution &Dist, const Box &B, F &&Fn) {
  const unsigned Rank = Dist.Shape.Rank;
  std::array<std::vector<DimCopy>, MaxRank> PerDim;
  for (unsigned D = 0; D < Rank; ++D) {
    PerDim[D] = dimCopies(B.Dims[D], Dist.Shape.Section.Dims[D], Dist.Halos[D]);
    if (PerDim[D].empty())
      return;
  }
  std::array<unsigned, MaxRank> Pick{};
  while (true) {
    Box Dst, Src;
    Dst.Rank = Src.Rank = Rank;
    for (unsigned D = 0; D < Rank; ++D) {
      Dst.Dims[D] = PerDim[D][Pick[D]].Dst;
      Src.Dims[D] = PerDim[D][Pick[D]].Src;
    }
    Fn(Dst, Src);
    unsigned D = Rank;
    while (D > 0 && ++Pick[D - 1] == PerDim[D - 1].size())
      Pick[--D] = 0;
    if (D == 0)
      return;
  }
}

/// Adds the copies filling the cells B of the device at position To.
void fillBox(const Distribution &Dist, unsigned To, const Box &B,
             std::vector<HaloCopy> &Out) {
  const unsigned Rank = Dist.Shape.Rank;
  forEachSource(Dist, B, [&](const Box &Dst, const Box &Src) {
    // Each owner of some of the source sends its cells.
    ProductSet SrcSet = ProductSet::of(Src);
    for (unsigned From = 0; From < Dist.Owned.size(); ++From)
      SrcSet.intersect(Dist.Owned[From]).forEachBox([&](const Box &S) {
        HaloCopy C;
        C.From = From;
        C.To = To;
        C.Src = S;
        C.Dst = S;
        for (unsigned D = 0; D < Rank; ++D) {
          int64_t Shift = Dst.Dims[D].Begin - Src.Dims[D].Begin;
          C.Dst.Dims[D] = {S.Dims[D].Begin + Shift, S.Dims[D].End + Shift};
        }
        Out.push_back(C);
      });
  });
}

} // namespace

std::vector<HaloCopy> edgeHaloCopies(const Distribution &Dist,
                                     unsigned Position) {
  std::vector<HaloCopy> Out;
  const Box &Sec = Dist.Shape.Section;
  Dist.held(Position).forEachBox([&](const Box &B) {
    if (Sec.contains(B))
      return;
    forEachSource(Dist, B, [&](const Box &Dst, const Box &Src) {
      if (!Sec.contains(Dst))
        Out.push_back({Position, Position, Src, Dst});
    });
  });
  return Out;
}

std::vector<HaloCopy> edgeHaloCopies(const Distribution &Dist,
                                     unsigned Position,
                                     const ProductSet &Sources) {
  std::vector<HaloCopy> Out;
  for (const HaloCopy &C : edgeHaloCopies(Dist, Position)) {
    const ProductSet Src = ProductSet::of(C.Src);
    if (Sources.contains(Src)) {
      Out.push_back(C);
      continue;
    }
    // Dst is Src translated, or mirrored in a layer one cell thick: each
    // cell of Src keeps its offset from Src's first in Dst.
    Src.intersect(Sources).forEachBox([&](const Box &B) {
      HaloCopy Part = C;
      Part.Src = B;
      for (unsigned D = 0; D < B.Rank; ++D)
        Part.Dst.Dims[D] = {
            C.Dst.Dims[D].Begin + (B.Dims[D].Begin - C.Src.Dims[D].Begin),
            C.Dst.Dims[D].Begin + (B.Dims[D].End - C.Src.Dims[D].Begin)};
      Out.push_back(Part);
    });
  }
  return Out;
}

std::vector<HaloCopy> haloCopies(const Distribution &Dist, unsigned Dims,
                                 unsigned Sides) {
  std::vector<HaloCopy> Out;
  const unsigned Rank = Dist.Shape.Rank;
  for (unsigned P = 0; P < Dist.Owned.size(); ++P) {
    const ProductSet &Own = Dist.Owned[P];
    if (Own.empty())
      continue;
    ProductSet Held = Dist.held(P);
    // Per dimension, the index sets a halo cell can lie in: the part's own
    // indices (0), its left halo (1), its right halo (2).
    std::array<std::array<IndexSet, 3>, MaxRank> Sets;
    for (unsigned D = 0; D < Rank; ++D) {
      Sets[D][0] = Own.Dims[D];
      if (!(Dims >> D & 1) || !Dist.Split[D])
        continue;
      IndexSet Halo = Held.Dims[D].minus(Own.Dims[D]);
      Range Hull = Own.Dims[D].hull();
      if (Sides & SideLeft)
        Sets[D][1] = Halo.intersect(IndexSet(Range{-Far, Hull.Begin}));
      if (Sides & SideRight)
        Sets[D][2] = Halo.intersect(IndexSet(Range{Hull.End, Far}));
      // Gaps between a part's blocks are on both sides.
      if (Sides == SideBoth)
        Sets[D][1] = Sets[D][1].unite(Halo.intersect(IndexSet(Hull)));
    }
    std::array<unsigned, MaxRank> Pick{};
    while (true) {
      bool Halo = false, Empty = false;
      ProductSet Cells;
      Cells.Rank = Rank;
      for (unsigned D = 0; D < Rank; ++D) {
        Halo |= Pick[D] != 0;
        Cells.Dims[D] = Sets[D][Pick[D]];
        Empty |= Cells.Dims[D].empty();
      }
      if (Halo && !Empty)
        Cells.forEachBox([&](const Box &B) { fillBox(Dist, P, B, Out); });
      unsigned D = Rank;
      while (D > 0 && ++Pick[D - 1] == 3)
        Pick[--D] = 0;
      if (D == 0)
        break;
    }
  }
  return Out;
}

const std::vector<HaloCopy> &HaloPlanCache::get(const Distribution &Dist,
                                                unsigned Dims, unsigned Sides) {
  std::lock_guard<std::mutex> Lock(M);
  auto [It, New] = Plans.try_emplace({Dims, Sides});
  if (New)
    It->second = haloCopies(Dist, Dims, Sides);
  return It->second;
}

unsigned haloDimensions(const Distribution &Dist) {
  unsigned Mask = 0;
  for (unsigned D = 0; D < Dist.Shape.Rank; ++D)
    if (Dist.Split[D] && (Dist.Halos[D].Left || Dist.Halos[D].Right))
      Mask |= 1u << D;
  return Mask;
}

HaloRoute haloRoute(unsigned FromType, unsigned ToType, bool SameDevice,
                    bool ForcePeer) {
  if (SameDevice)
    return HaloRoute::Local;
  if ((FromType | ToType) & abi::TypeHost)
    return HaloRoute::Host;
  if (ForcePeer)
    return HaloRoute::Peer;
  // One offload plugin on both ends copies between its devices: CUDA's and
  // AMDGPU's device to device, the host plugin's (CPU) with one memcpy, as
  // all its devices' memory is the host's (a host buffer in between took
  // twice as long here: 25 against 13 us for a Jacobi exchange of 2050 x
  // 1026 doubles on 4 devices).
  if (FromType == ToType && (FromType == abi::TypeNVGPU ||
                             FromType == abi::TypeAMDGPU ||
                             FromType == abi::TypeCPU))
    return HaloRoute::Peer;
  return HaloRoute::Staged;
}

const char *haloRouteName(HaloRoute R) {
  switch (R) {
  case HaloRoute::Local:
    return "local";
  case HaloRoute::Host:
    return "host";
  case HaloRoute::Peer:
    return "peer";
  case HaloRoute::Staged:
    return "staged";
  }
  return "?";
}

HaloProgram haloProgram(const Distribution &Dist,
                        const std::vector<HaloCopy> &Copies,
                        const std::vector<unsigned> &Types,
                        HaloRouteSetting Route) {
  const size_t N = Dist.Devices.size();
  const int64_t ES = Dist.Shape.ElementSize;
  HaloProgram P;
  P.Routes.resize(Copies.size());
  P.Offsets.assign(Copies.size(), 0);
  for (size_t C = 0; C < Copies.size(); ++C) {
    const unsigned From = Copies[C].From, To = Copies[C].To;
    HaloRoute R = haloRoute(Types[From], Types[To],
                            Dist.Devices[From] == Dist.Devices[To],
                            Route == HaloRouteSetting::Peer);
    if (Route == HaloRouteSetting::Staged && R == HaloRoute::Peer)
      R = HaloRoute::Staged;
    P.Routes[C] = R;
    const size_t Bytes = static_cast<size_t>(Copies[C].Src.volume() * ES);
    if (R == HaloRoute::Staged) {
      P.Offsets[C] = P.Staged;
      P.Staged += Bytes;
    } else {
      P.Direct += Bytes;
    }
  }
  P.In.assign(N, 0);
  P.Out.assign(N, 0);
  P.RoutesIn.assign(N, 0);
  P.SendGroup.assign(N, -1);
  P.ReceiveGroup.assign(N, -1);
  for (bool Send : {true, false})
    for (unsigned Pos = 0; Pos < N; ++Pos) {
      HaloProgram::Group G{Send, Pos, P.Order.size(), 0, 0};
      for (size_t C = 0; C < Copies.size(); ++C) {
        const HaloCopy &H = Copies[C];
        const bool Via = P.Routes[C] == HaloRoute::Staged;
        if ((Send ? H.From : H.To) != Pos || (Send && !Via))
          continue;
        const int64_t Bytes = H.Src.volume() * ES;
        G.Bytes += Bytes;
        if (Send) {
          P.Out[Pos] += Bytes;
        } else {
          P.In[Pos] += Bytes;
          P.RoutesIn[Pos] |= haloRouteBit(P.Routes[C]);
          if (!Via)
            P.Out[H.From] += Bytes;
        }
        P.Order.push_back(C);
      }
      G.End = P.Order.size();
      if (G.End == G.Begin)
        continue;
      (Send ? P.SendGroup : P.ReceiveGroup)[Pos] =
          static_cast<int>(P.Groups.size());
      P.Groups.push_back(G);
    }
  return P;
}

std::vector<PlannedHaloCopy> planHaloCopies(const ArrayShape &Shape,
                                            const std::vector<HaloCopy> &Copies,
                                            const HaloProgram &Program,
                                            const std::vector<BoxEnd> &Ends,
                                            int Host) {
  // Staged ends are planned at their offsets in the buffer.
  auto StageAt = [&](size_t C) {
    return BoxEnd{reinterpret_cast<char *>(Program.Offsets[C]), Host, true};
  };
  std::vector<PlannedHaloCopy> Planned;
  Planned.reserve(Program.Order.size());
  for (const HaloProgram::Group &G : Program.Groups)
    for (size_t I = G.Begin; I < G.End; ++I) {
      const size_t C = Program.Order[I];
      const HaloCopy &H = Copies[C];
      const bool Via = Program.Routes[C] == HaloRoute::Staged;
      PlannedHaloCopy O;
      if (G.Send) {
        O.Copy = planBoxCopy(Shape, StageAt(C), H.Src, Ends[H.From], H.Src);
        O.DstStaged = true;
      } else {
        O.Copy = planBoxCopy(Shape, Ends[H.To], H.Dst,
                             Via ? StageAt(C) : Ends[H.From], H.Src);
        O.SrcStaged = Via;
      }
      Planned.push_back(O);
    }
  return Planned;
}

bool runHaloGroup(Transport &T, const HaloProgram &Program,
                  const std::vector<PlannedHaloCopy> &Planned, size_t G,
                  const char *Stage, size_t &Failed) {
  const HaloProgram::Group &Gr = Program.Groups[G];
  const ptrdiff_t At =
      static_cast<ptrdiff_t>(reinterpret_cast<uintptr_t>(Stage));
  CopyBatch Batch(T);
  for (size_t I = Gr.Begin; I < Gr.End && !Batch.failedYet(); ++I) {
    const PlannedHaloCopy &O = Planned[I];
    Batch.copy(O.Copy.shifted(O.DstStaged ? At : 0, O.SrcStaged ? At : 0));
  }
  if (Batch.wait())
    return true;
  Failed = Program.Order[Gr.Begin + *Batch.firstFailed()];
  return false;
}

bool slowCopyDistance(int64_t Distance) {
  int64_t D = ((Distance % PageBytes) + PageBytes) % PageBytes;
  return D > 0 && D < ColorStep;
}

std::vector<int64_t> storageColors(const ArrayShape &Shape,
                                   const std::vector<Range> &Spans,
                                   const std::vector<HaloCopy> &Copies,
                                   const std::vector<PartMemory> &Memory,
                                   uintptr_t HostZero,
                                   const std::vector<std::vector<intptr_t>> &Others) {
  const size_t N = Memory.size();
  const int64_t ES = Shape.ElementSize;
  const int64_t Host = static_cast<int64_t>(HostZero % PageBytes);
  std::vector<int64_t> Colors(N, 0);
  // Where in a page element [0]...[0] of position P's layout falls, once
  // known: the storage begins with element Spans[P].Begin.
  std::vector<std::optional<int64_t>> Zero(N);
  for (size_t P = 0; P < N; ++P)
    if (Memory[P] == PartMemory::HostMemory)
      Zero[P] = Host;
  auto lo = [](const Box &B) {
    Index I{};
    for (unsigned D = 0; D < B.Rank; ++D)
      I[D] = B.Dims[D].Begin;
    return I;
  };
  auto apart = [](int64_t A, int64_t B) {
    int64_t D = (((A - B) % PageBytes) + PageBytes) % PageBytes;
    return std::min(D, PageBytes - D);
  };
  for (size_t P = 0; P < N; ++P) {
    if (Memory[P] != PartMemory::Colored)
      continue;
    int64_t Best = 0, BestSlow = -1, BestApart = -1;
    for (int64_t C = 0; C < PageBytes; C += ColorStep) {
      int64_t Mine = C - ES * Spans[P].Begin;
      // The copies in from and out to the host's array.
      int64_t Slow =
          slowCopyDistance(Mine - Host) + slowCopyDistance(Host - Mine);
      for (const HaloCopy &H : Copies) {
        if (H.From == H.To || (H.From != P && H.To != P))
          continue;
        std::optional<int64_t> From = H.From == P ? Mine : Zero[H.From];
        std::optional<int64_t> To = H.To == P ? Mine : Zero[H.To];
        if (From && To)
          Slow += slowCopyDistance(*To - *From +
                                   ES * (Shape.offset(lo(H.Dst)) -
                                         Shape.offset(lo(H.Src))));
      }
      int64_t Apart = ApartEnough;
      if (P < Others.size())
        for (intptr_t O : Others[P])
          Apart = std::min(Apart, apart(Mine, static_cast<int64_t>(O)));
      if (BestSlow < 0 || Slow < BestSlow ||
          (Slow == BestSlow && Apart > BestApart)) {
        Best = C;
        BestSlow = Slow;
        BestApart = Apart;
      }
      if (Slow == 0 && Apart == ApartEnough)
        break; // the nearest place far enough from the others
    }
    Colors[P] = Best;
    Zero[P] = Best - ES * Spans[P].Begin;
  }
  return Colors;
}

} // namespace homp
