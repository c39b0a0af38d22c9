//===-- Distribution.cpp - Which device holds which elements --------------===//

#include "homp/Distribution.h"

#include "homp/Partition.h"

#include <algorithm>

namespace homp {

int64_t ArrayShape::offset(const Index &I) const {
  int64_t Off = I[0];
  for (unsigned D = 1; D < Rank; ++D)
    Off = Off * Extent[D] + I[D];
  return Off;
}

Range ArrayShape::span(const ProductSet &S) const {
  if (S.empty())
    return {0, 0};
  Box H = S.hull();
  Index Lo{}, Hi{};
  for (unsigned D = 0; D < Rank; ++D) {
    Lo[D] = H.Dims[D].Begin;
    Hi[D] = H.Dims[D].End - 1;
  }
  return {offset(Lo), offset(Hi) + 1};
}

bool ArrayShape::contiguous(const Box &B) const {
  unsigned First = 0;
  while (First < Rank && B.Dims[First].size() <= 1)
    ++First;
  for (unsigned D = First + 1; D < Rank; ++D)
    if (B.Dims[D] != Range{0, Extent[D]})
      return false;
  return true;
}

/// Appends to Out the boxes of the offsets [B, E) from element Prefix
/// (indices of dimensions before D fixed), in dimensions D onwards.
static void boxesFrom(const ArrayShape &S, unsigned D, Box Prefix, int64_t B,
                      int64_t E, std::vector<Box> &Out) {
  if (B >= E)
    return;
  int64_t Inner = 1; // elements per index of dimension D
  for (unsigned K = D + 1; K < S.Rank; ++K)
    Inner *= S.Extent[K];
  auto Whole = [&](Box X, int64_t First, int64_t End) {
    X.Dims[D] = {First, End};
    for (unsigned K = D + 1; K < S.Rank; ++K)
      X.Dims[K] = {0, S.Extent[K]};
    Out.push_back(X);
  };
  // Floor division: offsets before element [0]...[0] have negative indices.
  auto Floor = [](int64_t A, int64_t M) {
    return A / M - ((A % M) < 0 ? 1 : 0);
  };
  const int64_t First = Floor(B, Inner), Last = Floor(E - 1, Inner);
  if (D + 1 == S.Rank) {
    Whole(Prefix, B, E);
    return;
  }
  Box X = Prefix;
  if (First == Last) {
    X.Dims[D] = {First, First + 1};
    boxesFrom(S, D + 1, X, B - First * Inner, E - First * Inner, Out);
    return;
  }
  // A partial first index, whole indices, a partial last one.
  int64_t WholeBegin = First, WholeEnd = Last + 1;
  if (B != First * Inner) {
    X.Dims[D] = {First, First + 1};
    boxesFrom(S, D + 1, X, B - First * Inner, Inner, Out);
    WholeBegin = First + 1;
  }
  const bool LastPartial = E != (Last + 1) * Inner;
  if (LastPartial)
    WholeEnd = Last;
  if (WholeBegin < WholeEnd)
    Whole(Prefix, WholeBegin, WholeEnd);
  if (LastPartial) {
    X.Dims[D] = {Last, Last + 1};
    boxesFrom(S, D + 1, X, 0, E - Last * Inner, Out);
  }
}

std::vector<Box> ArrayShape::boxesOf(Range Offsets) const {
  std::vector<Box> Out;
  Box Prefix;
  Prefix.Rank = Rank;
  boxesFrom(*this, 0, Prefix, Offsets.Begin, Offsets.End, Out);
  return Out;
}

std::optional<unsigned> Distribution::positionOf(int DeviceId) const {
  for (unsigned P = 0; P < Devices.size(); ++P)
    if (Devices[P] == DeviceId)
      return P;
  return std::nullopt;
}

ProductSet Distribution::held(unsigned Position) const {
  ProductSet H = Owned[Position];
  for (unsigned D = 0; D < Shape.Rank; ++D) {
    const abi::Halo &Hl = Halos[D];
    const Range &S = Shape.Section.Dims[D];
    bool Empty = H.Dims[D].empty();
    if (Split[D] && (Hl.Left != 0 || Hl.Right != 0) && !Empty) {
      Range Limit{S.Begin - (Hl.LeftEdge != abi::Edge::None ? Hl.Left : 0),
                  S.End + (Hl.RightEdge != abi::Edge::None ? Hl.Right : 0)};
      H.Dims[D] = H.Dims[D].widened(-Hl.Left, Hl.Right).intersect(Limit);
    }
    if (Whole)
      H.Dims[D] = Empty ? IndexSet(S) : H.Dims[D].unite(IndexSet(S));
  }
  return H;
}

bool Distribution::holdsPastEnds(unsigned Position) const {
  const ProductSet Held = held(Position);
  return Held.intersect(ProductSet::of(Shape.Section)).volume() !=
         Held.volume();
}

bool Distribution::duplicated() const {
  return std::none_of(Split.begin(), Split.end(), [](bool B) { return B; });
}

bool Distribution::everywhere() const {
  return duplicated() &&
         std::all_of(Owned.begin(), Owned.end(),
                     [&](const ProductSet &P) { return P == Owned.front(); });
}

namespace {

/// Sets dimension D of every position's part from a per-position source.
template <typename F>
bool fillDim(std::vector<ProductSet> &Owned, unsigned D, F &&Source) {
  for (unsigned P = 0; P < Owned.size(); ++P) {
    IndexSet S;
    if (!Source(P, S))
      return false;
    Owned[P].Dims[D] = std::move(S);
  }
  return true;
}

std::string dimName(const abi::Array &A, unsigned D) {
  return "dimension " + std::to_string(D) + " of '" + A.Name + "'";
}

/// Whether the halo past each end of a split dimension with a periodic or
/// reflecting edge finds its cells in the section: a periodic one at most
/// as wide as the section (a[-k] is a[n - k]), a reflecting one narrower
/// (a[-k] is a[k]). False with Error otherwise.
bool haloWithinSection(const Distribution &Dist, const abi::Array &A,
                       std::string &Error) {
  for (unsigned D = 0; D < Dist.Shape.Rank; ++D) {
    const abi::Halo &H = Dist.Halos[D];
    const int64_t N = Dist.Shape.Section.Dims[D].size();
    for (auto [Width, Edge] :
         {std::pair{H.Left, H.LeftEdge}, std::pair{H.Right, H.RightEdge}}) {
      if (!Dist.Split[D] || Edge == abi::Edge::None || Width == 0)
        continue;
      const bool Periodic = Edge == abi::Edge::Periodic;
      if (Width <= (Periodic ? N : N - 1))
        continue;
      Error = "the " + std::string(Periodic ? "periodic" : "reflecting") +
              " halo of " + dimName(A, D) + " is " + std::to_string(Width) +
              " wide, but the section has " + std::to_string(N) + " element" +
              (N == 1 ? "" : "s") + ": its cells would " +
              (Periodic ? "wrap around more than once"
                        : "reflect past the other end");
      return false;
    }
  }
  return true;
}

/// Whether each device's part of an inner dimension with its halo fits in
/// that dimension's length. A device keeps the array's layout, so a halo
/// cell past the end of a row (a periodic or reflecting edge) is the memory
/// of the next row's first elements: when the device also holds those, the
/// halo and the elements would overwrite each other. False with Error then.
bool haloFitsLayout(const Distribution &Dist, const abi::Array &A,
                    std::string &Error) {
  const ArrayShape &Shape = Dist.Shape;
  for (unsigned P = 0; P < Dist.Devices.size(); ++P) {
    if (Dist.Owned[P].empty())
      continue;
    ProductSet Held = Dist.held(P);
    for (unsigned D = 1; D < Shape.Rank; ++D) {
      // Two held elements share memory when dimension D spans more than
      // the distance between consecutive held indices of the nearest outer
      // dimension that has several.
      Range Hull = Held.Dims[D].hull();
      int64_t Apart = Shape.Extent[D];
      int Outer = static_cast<int>(D) - 1;
      for (; Outer > 0 && Held.Dims[Outer].hull().size() == 1; --Outer)
        Apart *= Shape.Extent[Outer];
      if (Held.Dims[Outer].hull().size() > 1 && Hull.size() > Apart) {
        Range Part = Dist.Owned[P].Dims[D].hull();
        Error = dimName(A, D) + " has " + std::to_string(Shape.Extent[D]) +
                " elements, but device " + std::to_string(Dist.Devices[P]) +
                "'s part [" + std::to_string(Part.Begin) + ", " +
                std::to_string(Part.End) + ") with its halo spans " +
                std::to_string(Hull.size()) +
                ": the device keeps the array's layout, where the halo "
                "cells past one end of a row are the elements of the next "
                "row; split the dimension over fewer devices or use a "
                "narrower halo";
        return false;
      }
    }
  }
  return true;
}

} // namespace

static std::optional<Distribution>
distributeOverAll(const abi::Array &A, const ArrayShape &Shape,
                  const std::array<int64_t, MaxRank> &Blocks,
                  const DistributionContext &Ctx, std::string &Error);

std::optional<Distribution>
distributeArray(const abi::Array &A, const ArrayShape &Shape,
                const std::array<int64_t, MaxRank> &Blocks,
                const DistributionContext &Ctx, std::string &Error,
                const ItemDevices &Own) {
  if (!Own.TopologyDims.empty()) {
    // The same devices in the item's own topology.
    DistributionContext Mine = Ctx;
    std::string Why;
    std::optional<Topology> T = makeTopology(
        static_cast<unsigned>(Ctx.Devices.size()), Own.TopologyDims, Why);
    if (!T) {
      Error = "the topology of '" + A.Name + "': " + Why;
      return std::nullopt;
    }
    Mine.Topo = *T;
    return distributeOverAll(A, Shape, Blocks, Mine, Error);
  }
  if (Own.Ids.empty())
    return distributeOverAll(A, Shape, Blocks, Ctx, Error);
  // The listed devices form a line; positions translate to Ctx's.
  std::vector<unsigned> Listed;
  for (unsigned Pos = 0; Pos < Ctx.Devices.size(); ++Pos)
    if (std::find(Own.Ids.begin(), Own.Ids.end(), Ctx.Devices[Pos]) !=
        Own.Ids.end())
      Listed.push_back(Pos);
  if (Listed.empty()) {
    std::string Ids;
    for (int64_t Id : Own.Ids)
      Ids += (Ids.empty() ? "" : ", ") + std::to_string(Id);
    bool One = Own.Ids.size() == 1;
    Error = "'" + A.Name + "' is distributed over device" + (One ? " " : "s ") +
            Ids + " (its topology(...)), " +
            (One ? "which does not run" : "none of which runs") +
            " this construct";
    return std::nullopt;
  }
  DistributionContext Sub;
  Sub.Topo = Topology::line(static_cast<unsigned>(Listed.size()));
  for (unsigned Pos : Listed)
    Sub.Devices.push_back(Ctx.Devices[Pos]);
  Sub.FindArray = Ctx.FindArray;
  Sub.LabelIndices = Ctx.LabelIndices;
  if (Ctx.LoopIndices)
    Sub.LoopIndices = [&](unsigned K, unsigned Pos, IndexSet &S) {
      return Ctx.LoopIndices(K, Listed[Pos], S);
    };
  abi::Array OnLine = A;
  OnLine.Axis.fill(-1);
  std::optional<Distribution> Part =
      distributeOverAll(OnLine, Shape, Blocks, Sub, Error);
  if (!Part)
    return std::nullopt;
  // Every device of the construct keeps its position; the others hold an
  // empty part.
  std::vector<ProductSet> Parts = std::move(Part->Owned);
  ProductSet Nothing;
  Nothing.Rank = Shape.Rank;
  Part->Devices = Ctx.Devices;
  Part->Owned.assign(Ctx.Devices.size(), Nothing);
  for (unsigned I = 0; I < Listed.size(); ++I)
    Part->Owned[Listed[I]] = std::move(Parts[I]);
  return Part;
}

static std::optional<Distribution>
distributeOverAll(const abi::Array &A, const ArrayShape &Shape,
                  const std::array<int64_t, MaxRank> &Blocks,
                  const DistributionContext &Ctx, std::string &Error) {
  Distribution Out;
  Out.Shape = Shape;
  Out.Devices = Ctx.Devices;
  Out.Owned.assign(Ctx.Devices.size(), ProductSet());
  for (ProductSet &P : Out.Owned)
    P.Rank = Shape.Rank;
  Out.Halos = A.Halos;

  unsigned NextAxis = 0, NextLoop = 0;
  // Per ALIGN target: how many of this array's dimensions align with it.
  std::vector<std::pair<std::string, unsigned>> AlignCount;
  for (unsigned D = 0; D < Shape.Rank; ++D) {
    const abi::Policy &P = A.Dims[D];
    const Range Section = Shape.Section.Dims[D];
    Out.Split[D] = P.distributed();
    Out.Kinds[D] = P.Kind;
    Out.Blocks[D] = P.Kind == abi::Policy::Cyclic ? Blocks[D] : 0;
    auto Clip = [&](const IndexSet &S) {
      return scaleIndices(S, P.RatioNum, P.RatioDen).intersect(Section);
    };
    switch (P.Kind) {
    case abi::Policy::Full:
      fillDim(Out.Owned, D, [&](unsigned, IndexSet &S) {
        S = IndexSet(Section);
        return true;
      });
      continue;
    case abi::Policy::Block:
    case abi::Policy::Cyclic:
    case abi::Policy::Auto: {
      unsigned Axis = A.Axis[D] >= 0 ? static_cast<unsigned>(A.Axis[D])
                                     : NextAxis++;
      if (Axis >= Ctx.Topo.rank()) {
        Error = dimName(A, D) + " is split over topology dimension " +
                std::to_string(Axis) + ", but the devices form a " +
                std::to_string(Ctx.Topo.rank()) + "-dimensional topology (" +
                Ctx.Topo.str() + ")";
        return std::nullopt;
      }
      fillDim(Out.Owned, D, [&](unsigned Pos, IndexSet &S) {
        S = partitionDim(Section, P.Kind, Blocks[D], Ctx.Topo.Dims[Axis],
                         Ctx.Topo.coords(Pos)[Axis]);
        return true;
      });
      continue;
    }
    case abi::Policy::Align:
      break;
    }
    if (P.ToLoop) {
      unsigned K = NextLoop++;
      bool Ok = Ctx.LoopIndices &&
                fillDim(Out.Owned, D, [&](unsigned Pos, IndexSet &S) {
                  if (!Ctx.LoopIndices(K, Pos, S))
                    return false;
                  S = Clip(S);
                  return true;
                });
      if (!Ok) {
        Error = dimName(A, D) + " is aligned with loop " + std::to_string(K) +
                " of the nest, which is not distributed";
        return std::nullopt;
      }
      continue;
    }
    // The K-th dimension aligned with Target follows Target's K-th split
    // dimension (or its label's K-th loop).
    unsigned K = 0;
    auto It = std::find_if(AlignCount.begin(), AlignCount.end(),
                           [&](const auto &E) { return E.first == P.Target; });
    if (It == AlignCount.end())
      AlignCount.push_back({P.Target, 1});
    else
      K = It->second++;
    if (const Distribution *X = Ctx.FindArray ? Ctx.FindArray(P.Target)
                                              : nullptr) {
      unsigned XD = 0, Seen = 0;
      for (; XD < X->Shape.Rank; ++XD)
        if (X->Split[XD] && Seen++ == K)
          break;
      if (XD == X->Shape.Rank) {
        Error = dimName(A, D) + " is aligned with '" + P.Target +
                "', which has no split dimension " + std::to_string(K);
        return std::nullopt;
      }
      fillDim(Out.Owned, D, [&](unsigned Pos, IndexSet &S) {
        if (std::optional<unsigned> Q = X->positionOf(Ctx.Devices[Pos]))
          S = Clip(X->Owned[*Q].Dims[XD]);
        return true;
      });
      continue;
    }
    bool Ok = Ctx.LabelIndices &&
              fillDim(Out.Owned, D, [&](unsigned Pos, IndexSet &S) {
                if (!Ctx.LabelIndices(P.Target, K, Ctx.Devices[Pos], S))
                  return false;
                S = Clip(S);
                return true;
              });
    if (!Ok) {
      Error = dimName(A, D) + " is aligned with '" + P.Target +
              "', which is neither a distributed array nor a labelled loop "
              "it can follow";
      return std::nullopt;
    }
  }
  if (!haloWithinSection(Out, A, Error) || !haloFitsLayout(Out, A, Error))
    return std::nullopt;
  return Out;
}

IndexSet giveRows(Distribution &Dist, unsigned Dim, const IndexSet &Rows,
                  unsigned From, unsigned To) {
  if (From == To || From >= Dist.Owned.size() || To >= Dist.Owned.size())
    return IndexSet();
  ProductSet &Src = Dist.Owned[From], &Dst = Dist.Owned[To];
  const IndexSet Moved = Src.Dims[Dim].intersect(Rows);
  if (Moved.empty() || Src.empty())
    return IndexSet();
  if (Dst.empty()) {
    Dst = Src;
    Dst.Dims[Dim] = IndexSet();
  }
  Src.Dims[Dim] = Src.Dims[Dim].minus(Moved);
  Dst.Dims[Dim] = Dst.Dims[Dim].unite(Moved);
  return Moved;
}

bool coverSection(Distribution &Dist, const std::string &Name,
                  std::string &Error) {
  const unsigned Rank = Dist.Shape.Rank;
  const size_t Parts = Dist.Owned.size();
  for (unsigned D = 0; D < Rank; ++D) {
    if (!Dist.Split[D])
      continue;
    // The positions holding a part, whatever they hold of dimension D.
    std::vector<bool> Live(Parts, true);
    for (size_t P = 0; P < Parts; ++P)
      for (unsigned E = 0; E < Rank; ++E)
        Live[P] = Live[P] && (E == D || !Dist.Owned[P].Dims[E].empty());
    const Range Section = Dist.Shape.Section.Dims[D];
    std::vector<IndexSet> Sets(Parts);
    for (size_t P = 0; P < Parts; ++P)
      Sets[P] = Dist.Owned[P].Dims[D];
    if (giveGapsToNeighbours(Sets, Section, Live)) {
      for (size_t P = 0; P < Parts; ++P)
        Dist.Owned[P].Dims[D] = Sets[P];
      continue;
    }
    // No part at all (aligned with an array resident on other devices):
    // the dimension goes whole to the first of each set of positions
    // holding the same of the other dimensions, as a loop's iterations go
    // to the first device when no part holds any.
    const std::vector<ProductSet> Before = Dist.Owned;
    for (size_t P = 0; P < Parts; ++P) {
      bool First = Live[P];
      for (size_t Q = 0; Q < P && First; ++Q)
        First = !(Live[Q] && Before[Q] == Before[P]);
      if (First)
        Dist.Owned[P].Dims[D] = IndexSet(Section);
    }
  }
  // Distinct parts that do not overlap must add up to the section.
  std::vector<const ProductSet *> Distinct;
  for (const ProductSet &Part : Dist.Owned)
    if (!Part.empty() &&
        std::none_of(Distinct.begin(), Distinct.end(),
                     [&](const ProductSet *S) { return *S == Part; }))
      Distinct.push_back(&Part);
  const ProductSet Whole = ProductSet::of(Dist.Shape.Section);
  int64_t Held = 0;
  for (size_t I = 0; I < Distinct.size(); ++I) {
    for (size_t J = I + 1; J < Distinct.size(); ++J)
      if (!Distinct[I]->intersect(*Distinct[J]).empty())
        return true; // overlapping parts: not for this count to judge
    Held += Distinct[I]->intersect(Whole).volume();
  }
  if (Held < Whole.volume()) {
    Error = "the parts of '" + Name + "' hold " + std::to_string(Held) +
            " of its " + std::to_string(Whole.volume()) +
            " elements: two of its dimensions follow splits along the same "
            "topology dimension, which leaves the rest on no device";
    return false;
  }
  return true;
}

} // namespace homp
