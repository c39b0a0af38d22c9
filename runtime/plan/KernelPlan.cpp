//===-- KernelPlan.cpp - Which device runs and holds what -----------------===//

#include "homp/KernelPlan.h"

#include "KernelPlanner.h"

#include "homp/Partition.h"

#include <algorithm>
#include <functional>
#include <optional>
#include <type_traits>

namespace homp {

uint64_t chunkOfPiece(const LoopNest &Nest, const LaunchPiece &Piece,
                      abi::Chunk &C) {
  uint64_t Trip = 1;
  for (unsigned L = 0; L < Nest.Rank; ++L) {
    C.Loops[L] = chunkOf(Nest.Loops[L], Nest.Trips[L], Piece.Loops[L]);
    Trip *= static_cast<uint64_t>(Piece.Loops[L].Count);
  }
  return Trip;
}

namespace planning {

const abi::Access *Planner::useOf(const std::string &Name) const {
  for (const abi::Access &A : Uses)
    if (A.Name == Name)
      return &A;
  return nullptr;
}

const Distribution *Planner::findArray(const std::string &Name) {
  for (size_t I = 0; I < D.Arrays.size(); ++I)
    if (D.Arrays[I].Name == Name) {
      if (!Items[I])
        Blocked = true;
      return Items[I] ? &*Items[I] : nullptr;
    }
  for (size_t I = 0; I < Uses.size(); ++I)
    if (Uses[I].Name == Name && In.AccessResidents[I].Dist)
      return In.AccessResidents[I].Dist;
  return nullptr;
}

bool Planner::distributeItems(bool Final) {
  static const ItemDevices Construct;
  DistributionContext Ctx;
  Ctx.Devices = In.Devices;
  Ctx.Topo = In.Topo;
  Ctx.FindArray = [this](const std::string &N) { return findArray(N); };
  Ctx.LoopIndices = [this](unsigned K, unsigned Pos, IndexSet &S) {
    if (!LoopsReady) {
      Blocked = true;
      return false;
    }
    for (unsigned L = 0; L < D.Loops.size(); ++L)
      if (D.Loops[L].Dist.distributed() && !D.Loops[L].Implicit && K-- == 0) {
        S = indicesOf(Nest.Loops[L], LoopSets[L][Pos]);
        return true;
      }
    return false;
  };
  Ctx.LabelIndices = In.LabelIndices;
  // Arrays may align with each other in any order: repeat until no array
  // gets its distribution any more.
  for (bool Progress = true; Progress;) {
    Progress = false;
    for (size_t I = 0; I < D.Arrays.size(); ++I) {
      if (Items[I])
        continue;
      if (I < In.ItemResidents.size() && In.ItemResidents[I]) {
        Items[I] = *In.ItemResidents[I];
        Progress = true;
        continue;
      }
      Blocked = false;
      std::string Why;
      Items[I] = distributeArray(
          D.Arrays[I], In.ItemShapes[I], In.ItemBlocks[I], Ctx, Why,
          I < In.ItemOwnDevices.size() ? In.ItemOwnDevices[I] : Construct);
      if (Items[I]) {
        Progress = true;
      } else if (!Blocked || Final) {
        Error = Why;
        return false;
      }
    }
  }
  return true;
}

/// Whether a loop can follow dimension Dim of X: a loop without a policy,
/// or one a scheduler would share out, follows any split; a CYCLIC loop the
/// same round-robin, a BLOCK loop blocks.
static bool kindsMatch(const abi::Loop &Loop, int64_t LoopBlock,
                       const Distribution &X, unsigned Dim) {
  if (Loop.NoPolicy || Loop.Dist.Kind == Policy::Auto)
    return true;
  if (Loop.Dist.Kind == Policy::Cyclic)
    return X.Kinds[Dim] == Policy::Cyclic && X.Blocks[Dim] == LoopBlock;
  return X.Kinds[Dim] != Policy::Cyclic;
}

std::optional<Source> Planner::ownerOf(unsigned L) {
  // Among the arrays the body subscripts with this loop's variable plus a
  // constant in a dimension split like the loop: first one written, else
  // the first one; the kernel's own arrays before resident ones.
  std::optional<Source> Best;
  int BestScore = 3;
  auto Consider = [&](const Distribution &X, const abi::Access *Use) {
    if (!Use || Use->Rank != X.Shape.Rank)
      return;
    for (unsigned Dm = 0; Dm < Use->Rank; ++Dm) {
      const Subscript &S = Use->Subs[Dm];
      if (S.Kind != Subscript::Linear || S.Loop != L || !X.Split[Dm] ||
          !kindsMatch(D.Loops[L], In.LoopBlocks[L], X, Dm))
        continue;
      bool Single = S.Min == S.Max;
      int Score = Single ? (Use->Written ? 0 : 1) : 2;
      if (Score < BestScore) {
        BestScore = Score;
        Best = Source{&X, Dm, Single ? S.Min : 0};
      }
    }
  };
  // A one-loop kernel whose subscript of an array split along one
  // dimension only cannot be read ('p[i + d]' for an inner 'd' with
  // variable bounds, 'p[i + W]' for a template's W): the loop follows that
  // dimension's parts, with their halos, as SPEC's owner computes says,
  // where splitting it by its own policy would have each device read
  // another's elements.
  auto ConsiderUnread = [&](const Distribution &X, const abi::Access *Use) {
    if (Best || D.Loops.size() != 1 || !Use || Use->Rank != X.Shape.Rank)
      return;
    unsigned Split = 0, Dim = 0;
    for (unsigned Dm = 0; Dm < X.Shape.Rank; ++Dm)
      if (X.Split[Dm]) {
        ++Split;
        Dim = Dm;
      }
    if (Split == 1 && Use->Subs[Dim].Kind == Subscript::Unknown &&
        kindsMatch(D.Loops[L], In.LoopBlocks[L], X, Dim))
      Best = Source{&X, Dim, 0};
  };
  // The kernel's own arrays, then resident ones; subscripts read first.
  for (const auto &Try :
       {std::function<void(const Distribution &, const abi::Access *)>(
            Consider),
        std::function<void(const Distribution &, const abi::Access *)>(
            ConsiderUnread)}) {
    for (size_t I = 0; I < D.Arrays.size(); ++I)
      if (Items[I])
        Try(*Items[I], useOf(D.Arrays[I].Name));
    for (size_t I = 0; I < Uses.size(); ++I)
      if (In.AccessResidents[I].Dist)
        Try(*In.AccessResidents[I].Dist, &Uses[I]);
  }
  return Best;
}

std::optional<Source> Planner::alignedTo(unsigned L, const std::string &Name,
                                         unsigned K) {
  const Distribution *X = findArray(Name);
  if (!X)
    return std::nullopt;
  Source S{X, 0, 0};
  if (const abi::Access *Use = useOf(Name); Use && Use->Rank == X->Shape.Rank)
    for (unsigned Dm = 0; Dm < Use->Rank; ++Dm)
      if (Use->Subs[Dm].Kind == Subscript::Linear && Use->Subs[Dm].Loop == L &&
          X->Split[Dm]) {
        S.Dim = Dm;
        S.Offset = Use->Subs[Dm].Min == Use->Subs[Dm].Max ? Use->Subs[Dm].Min
                                                           : 0;
        return S;
      }
  // Not subscripted by this loop: its K-th split dimension.
  for (unsigned Dm = 0, Seen = 0; Dm < X->Shape.Rank; ++Dm)
    if (X->Split[Dm] && Seen++ == K) {
      S.Dim = Dm;
      return S;
    }
  return std::nullopt;
}

void Planner::fromSource(unsigned L, const Source &S) {
  const Policy &Pol = D.Loops[L].Dist;
  for (unsigned Pos = 0; Pos < P; ++Pos) {
    IndexSet Indices;
    if (std::optional<unsigned> Q = S.X->positionOf(In.Devices[Pos]))
      Indices = S.X->Owned[*Q].Dims[S.Dim].widened(-S.Offset, -S.Offset);
    if (Pol.Kind == Policy::Align)
      Indices = scaleIndices(Indices, Pol.RatioNum, Pol.RatioDen);
    LoopSets[L][Pos] =
        iterationsIn(Nest.Loops[L], Nest.Trips[L], Indices);
  }
}

void Planner::coverGaps(unsigned L) {
  // Iterations beyond every part go to the device holding the iterations
  // next to them; with no part at all, to the first device.
  std::vector<IndexSet> &Sets = LoopSets[L];
  const Range All{0, Nest.Trips[L]};
  if (!giveGapsToNeighbours(Sets, All, std::vector<bool>(Sets.size(), true)))
    Sets.front() = IndexSet(All);
}

bool Planner::splitLoop(unsigned L, unsigned &NextAxis) {
  const Policy &Pol = D.Loops[L].Dist;
  const LoopBounds &Lp = Nest.Loops[L];
  int64_t Trip = Nest.Trips[L];
  std::vector<IndexSet> &Sets = LoopSets[L];
  if (Pol.Kind == Policy::Full) {
    Sets.assign(P, IndexSet(Range{0, Trip}));
    return true;
  }
  // A loop the program gave no policy follows the arrays split along it;
  // without one it runs whole, taking no axis of the topology. Loop 0 runs
  // whole only when another loop follows an array (else every device would
  // run every iteration): otherwise it is BLOCK, as without the plugin's
  // mark.
  if (D.Loops[L].Implicit) {
    if (std::optional<Source> S = ownerOf(L)) {
      fromSource(L, *S);
      coverGaps(L);
      return true;
    }
    bool OtherFollows = false;
    for (unsigned K = 1; K < D.Loops.size() && L == 0 && !OtherFollows; ++K)
      OtherFollows = D.Loops[K].Implicit && ownerOf(K).has_value();
    if (L > 0 || OtherFollows) {
      Sets.assign(P, IndexSet(Range{0, Trip}));
      return true;
    }
  }
  unsigned Axis = NextAxis++;
  auto FromLabel = [&](const std::string &Label, unsigned K) {
    std::vector<IndexSet> Found(P);
    bool Any = false;
    for (unsigned Pos = 0; Pos < P; ++Pos) {
      IndexSet Indices;
      if (In.LabelIndices && In.LabelIndices(Label, K, In.Devices[Pos], Indices)) {
        Any = true;
        Found[Pos] = iterationsIn(Lp, Trip, Indices);
      }
    }
    if (Any)
      Sets = std::move(Found);
    return Any;
  };
  if (Pol.Kind == Policy::Align) {
    if (Pol.ToLoop) {
      Error = "loop " + std::to_string(L) + " of the nest is aligned with itself";
      return false;
    }
    unsigned K = 0;
    for (unsigned I = 0; I < L; ++I)
      K += D.Loops[I].Dist.Kind == Policy::Align &&
           D.Loops[I].Dist.Target == Pol.Target;
    if (std::optional<Source> S = alignedTo(L, Pol.Target, K)) {
      fromSource(L, *S);
    } else if (!FromLabel(Pol.Target, K)) {
      Error = "the loop is aligned with '" + Pol.Target +
              "', which is neither a distributed array it can follow nor a "
              "labelled loop of an enclosing data region";
      return false;
    }
    coverGaps(L);
    return true;
  }
  if (In.ChunkOfLabel && !D.Label.empty() && Pol.Kind == Policy::Auto &&
      !In.Scheduled.empty() && Out.ScheduledLoop < 0) {
    Sets = In.Scheduled;
    Sets.resize(P);
    Out.ScheduledLoop = static_cast<int>(L);
    return true;
  }
  // The loop a data region's arrays are aligned with keeps its split.
  if (!D.Label.empty() && FromLabel(D.Label, L)) {
    coverGaps(L);
    return true;
  }
  if (std::optional<Source> S = ownerOf(L)) {
    fromSource(L, *S);
    coverGaps(L);
    return true;
  }
  if (Pol.Kind == Policy::Auto && !In.Scheduled.empty() &&
      Out.ScheduledLoop < 0) {
    Sets = In.Scheduled;
    Sets.resize(P);
    Out.ScheduledLoop = static_cast<int>(L);
    return true;
  }
  if (Axis >= In.Topo.rank()) {
    Error = "the loop nest splits " + std::to_string(Axis + 1) +
            " loops over a " + std::to_string(In.Topo.rank()) +
            "-dimensional topology (" + In.Topo.str() + ")";
    return false;
  }
  for (unsigned Pos = 0; Pos < P; ++Pos)
    Sets[Pos] = partitionDim({0, Trip}, Pol.Kind, In.LoopBlocks[L],
                             In.Topo.Dims[Axis], In.Topo.coords(Pos)[Axis]);
  return true;
}

bool Planner::splitLoops() {
  LoopSets.assign(Nest.Rank, std::vector<IndexSet>(P));
  unsigned NextAxis = 0;
  for (unsigned L = 0; L < Nest.Rank; ++L)
    if (!splitLoop(L, NextAxis))
      return false;
  // A scheduler shares its loop out over all the devices: another loop
  // split as well would give each device a diagonal of the nest's blocks,
  // and leave the rest unrun.
  if (Out.ScheduledLoop >= 0)
    for (unsigned L = 0; L < Nest.Rank; ++L) {
      if (static_cast<int>(L) == Out.ScheduledLoop)
        continue;
      IndexSet Whole(Range{0, Nest.Trips[L]});
      for (const IndexSet &Set : LoopSets[L])
        if (Set != Whole) {
          Error = "loop " + std::to_string(L) +
                  " of the nest is split as well as loop " +
                  std::to_string(Out.ScheduledLoop) +
                  ", which a scheduler shares out over all the devices: the "
                  "other loops must run whole (FULL, or no policy over "
                  "arrays not split along them)";
          return false;
        }
    }
  Out.Work.assign(P, DeviceWork());
  for (unsigned Pos = 0; Pos < P; ++Pos) {
    ProductSet &It = Out.Work[Pos].Iterations;
    It.Rank = Nest.Rank;
    for (unsigned L = 0; L < Nest.Rank; ++L)
      It.Dims[L] = LoopSets[L][Pos];
  }
  LoopsReady = true;
  return true;
}

bool Planner::checkDisjoint() {
  int64_t Sum = 0;
  for (const DeviceWork &W : Out.Work)
    Sum += W.Iterations.volume();
  for (unsigned A = 0; A < P; ++A)
    for (unsigned B = A + 1; B < P; ++B)
      if (!Out.Work[A].Iterations.intersect(Out.Work[B].Iterations).empty()) {
        unsigned SplitLoops = 0;
        for (const abi::Loop &L : D.Loops)
          SplitLoops += L.Dist.distributed();
        Error = "devices " + std::to_string(In.Devices[A]) + " and " +
                std::to_string(In.Devices[B]) +
                " would both run some iterations: " +
                (SplitLoops < In.Topo.rank()
                     ? "the loop nest splits fewer loops than the devices' "
                       "topology (" +
                           In.Topo.str() + ") has dimensions"
                     : std::string("the arrays its loops follow are split "
                                   "in more dimensions than the nest "
                                   "splits loops (a FULL loop over a split "
                                   "dimension?)"));
        return false;
      }
  // A scheduler's chunk covers part of the loop on purpose.
  if (Sum != Nest.iterations() && Out.ScheduledLoop < 0) {
    Error = std::to_string(Nest.iterations() - Sum) +
            " iterations would run on no device";
    // Loops split (by their policies or the arrays they follow) along
    // fewer topology dimensions than there are of them meet on a diagonal.
    std::vector<unsigned> Split;
    for (unsigned L = 0; L < Nest.Rank; ++L) {
      const IndexSet Whole(Range{0, Nest.Trips[L]});
      if (std::any_of(LoopSets[L].begin(), LoopSets[L].end(),
                      [&](const IndexSet &S) { return S != Whole; }))
        Split.push_back(L);
    }
    if (Split.size() > In.Topo.rank()) {
      std::string Loops;
      for (size_t I = 0; I < Split.size(); ++I)
        Loops += (I == 0                  ? ""
                  : I + 1 == Split.size() ? " and "
                                          : ", ") +
                 std::to_string(Split[I]);
      Error += ": loops " + Loops + " of the nest are " +
               (Split.size() == 2 ? "both" : "all") +
               " split (by their policies or the arrays they follow) over a " +
               std::to_string(In.Topo.rank()) + "-dimensional topology (" +
               In.Topo.str() +
               "), so each device runs only the iterations "
               "where its parts of them meet";
    }
    return false;
  }
  return true;
}

void Planner::makePieces() {
  for (DeviceWork &W : Out.Work) {
    if (W.Iterations.empty())
      continue;
    std::array<std::vector<Strided>, abi::MaxLoops> Runs;
    for (unsigned L = 0; L < Nest.Rank; ++L) {
      if (!D.Loops[L].Strided || Nest.Loops[L].Op == CompareOp::NotEqual) {
        for (const Range &R : W.Iterations.Dims[L].ranges())
          Runs[L].push_back({R.Begin, R.size(), 1});
      } else {
        Runs[L] = W.Iterations.Dims[L].stridedRuns();
      }
    }
    LaunchPiece Piece;
    std::function<void(unsigned)> Walk = [&](unsigned L) {
      if (L == Nest.Rank) {
        W.Pieces.push_back(Piece);
        return;
      }
      for (const Strided &S : Runs[L]) {
        Piece.Loops[L] = S;
        Walk(L + 1);
      }
    };
    Walk(0);
  }
}

bool Planner::run() {
  unsigned Bad = 0;
  if (!Nest.computeTrips(Bad)) {
    Error = "loop " + std::to_string(Bad) +
            " of the nest would not terminate: its step is zero or goes away "
            "from its bound";
    return false;
  }
  Items.assign(D.Arrays.size(), std::nullopt);
  Out.ScheduledLoop = -1;
  return distributeItems(/*Final=*/false) && splitLoops() &&
         distributeItems(/*Final=*/true) && checkDisjoint() && finish();
}

/// The elements Use writes in the iterations It (whose trip counts are
/// Nest's), per dimension of X; std::nullopt when not exactly known (a
/// strided loop, whose spans include indices it skips).
static std::optional<ProductSet> writtenBy(const abi::Access &Use,
                                           const Distribution &X,
                                           const LoopNest &Nest,
                                           const ProductSet &It) {
  if (Use.Rank != X.Shape.Rank)
    return std::nullopt;
  ProductSet W;
  W.Rank = X.Shape.Rank;
  for (unsigned Dm = 0; Dm < Use.Rank; ++Dm) {
    const Subscript &S = Use.Writes[Dm];
    IndexSet Sec(X.Shape.Section.Dims[Dm]);
    if (S.Kind == Subscript::Invariant) {
      W.Dims[Dm] = IndexSet(Range{S.Min, S.Max + 1}).intersect(Sec);
    } else if (S.Kind == Subscript::Linear && S.Loop < Nest.Rank &&
               (Nest.Loops[S.Loop].Step == 1 || Nest.Loops[S.Loop].Step == -1)) {
      W.Dims[Dm] = indicesOf(Nest.Loops[S.Loop], It.Dims[S.Loop])
                       .widened(S.Min, S.Max)
                       .intersect(Sec);
    } else {
      return std::nullopt;
    }
  }
  return W;
}

bool Planner::sharedParts() {
  Out.CopyBack.assign(D.Arrays.size(), {});
  auto Shared = [](const Distribution &X) {
    for (size_t A = 0; A < X.Owned.size(); ++A)
      for (size_t B = A + 1; B < X.Owned.size(); ++B)
        if (!X.Owned[A].intersect(X.Owned[B]).empty())
          return true;
    return false;
  };
  auto Fail = [&](KernelPlan::PlacementKind Where, std::string Why) {
    Out.Placement = Where;
    Out.Why = std::move(Why);
    return true;
  };
  bool UsesResidents = false;
  for (size_t I = 0; I < D.Arrays.size(); ++I)
    UsesResidents |= I < In.ItemResidents.size() && In.ItemResidents[I];
  for (const KernelPlanInput::Resident &R : In.AccessResidents)
    UsesResidents |= R.Dist != nullptr;
  // Arrays of the kernel: each device copies back what it writes, and two
  // devices must not write the same element.
  for (size_t I = 0; I < D.Arrays.size(); ++I) {
    const Distribution &X = *Items[I];
    const abi::Access *Use = useOf(D.Arrays[I].Name);
    bool Resident = I < In.ItemResidents.size() && In.ItemResidents[I];
    if (!Use || !Use->Written || X.duplicated() || !Shared(X))
      continue;
    std::string Why = "several devices hold the same part of '" +
                      Use->Name + "' (it is split along fewer topology axes "
                      "than the loop), and the loop writes it";
    if (Resident)
      return Fail(KernelPlan::OnHost, Why);
    std::vector<ProductSet> Back(X.Owned.size());
    for (size_t Q = 0; Q < X.Owned.size(); ++Q)
      Back[Q] = ProductSet{X.Shape.Rank, {}};
    for (unsigned Pos = 0; Pos < P; ++Pos) {
      const ProductSet &It = Out.Work[Pos].Iterations;
      std::optional<unsigned> Q = X.positionOf(In.Devices[Pos]);
      if (It.empty() || !Q)
        continue;
      std::optional<ProductSet> W = writtenBy(*Use, X, Nest, It);
      if (!W)
        return Fail(UsesResidents ? KernelPlan::OnHost : KernelPlan::OneDevice,
                    Why + " in a strided loop");
      ProductSet Mine = W->intersect(X.Owned[*Q]);
      for (size_t R = 0; R < Back.size(); ++R)
        if (!Back[R].intersect(Mine).empty())
          return Fail(UsesResidents ? KernelPlan::OnHost
                                    : KernelPlan::OneDevice,
                      Why + " on two of them at the same elements");
      Back[*Q] = Mine;
    }
    Out.CopyBack[I] = std::move(Back);
  }
  // Resident arrays: their copies must stay alike.
  for (size_t I = 0; I < Uses.size(); ++I) {
    const KernelPlanInput::Resident &R = In.AccessResidents[I];
    if (R.Dist && Uses[I].Written && !R.Dist->duplicated() && Shared(*R.Dist))
      return Fail(KernelPlan::OnHost,
                  "several devices hold the same part of '" + Uses[I].Name +
                      "' (distributed by " + R.Where +
                      "), and the loop writes it");
  }
  return true;
}

bool Planner::finish() {
  Out.Placement = KernelPlan::Split;
  Out.Why.clear();
  Out.WidenedNotes.clear();
  if (!checkFootprints())
    return false;
  if (Out.Placement == KernelPlan::Split)
    sharedParts();
  if (Out.Placement != KernelPlan::Split) {
    Out.Items.clear();
    Out.Work.clear();
    return true;
  }
  makePieces();
  Out.Items.clear();
  for (std::optional<Distribution> &I : Items)
    Out.Items.push_back(std::move(*I));
  return true;
}

bool Planner::cutItem(Distribution &X, const abi::Array &A, unsigned Q,
                      unsigned Loop, Range Its, Range Share) {
  const abi::Access *Use = useOf(A.Name);
  const LoopBounds &Lp = Nest.Loops[Loop];
  const bool Back = abi::copiesOut(A.Map) && Use && Use->Written;
  if (abi::copiesOut(A.Map) &&
      !cutAlongLoop(D, Uses, &A - D.Arrays.data(), X, Loop)) {
    // Each sub-part would copy its whole part back, over what the ones
    // before wrote (map(from): without having copied it in).
    Error = "'" + A.Name + "' is copied back but not split along loop " +
            std::to_string(Loop);
    return false;
  }
  for (unsigned Dm = 0; Dm < X.Shape.Rank; ++Dm) {
    if (!X.Split[Dm])
      continue;
    const std::string Dim =
        "dimension " + std::to_string(Dm) + " of '" + A.Name + "'";
    if (X.Halos[Dm].LeftEdge != abi::Edge::None ||
        X.Halos[Dm].RightEdge != abi::Edge::None) {
      Error = Dim + " has halo cells past the array's ends";
      return false;
    }
    if (!Use || Use->Rank != X.Shape.Rank ||
        Use->Subs[Dm].Kind != Subscript::Linear) {
      Error = "the body uses " + Dim + " with a subscript other than a " +
              "loop's variable plus a constant";
      return false;
    }
    const Subscript &S = Use->Subs[Dm];
    if (S.Loop != Loop)
      continue; // the device's part along another loop: all of it
    // Cut along an inner dimension, each sub-part would copy short pieces
    // of every row and span as much memory as the whole part (columns of a
    // matrix: twice as slow).
    for (unsigned Outer = 0; Outer < Dm; ++Outer)
      if (X.held(Q).Dims[Outer].size() > 1) {
        Error = "a sub-part of '" + A.Name + "' would be a stretch of " +
                "dimension " + std::to_string(Dm) + " of each of its rows";
        return false;
      }
    IndexSet &Own = X.Owned[Q].Dims[Dm];
    const Range Hull = Own.hull();
    if (Hull.empty())
      continue;
    Range Window;
    if (Back) {
      if (S.Min != S.Max) {
        Error = "the body writes " + Dim + " and uses it at several " +
                "offsets of the loop's variable";
        return false;
      }
      // From the sub-part's first index to the next one's, shifted by c.
      const int64_t From = indexOf(Lp, Its.Begin) + S.Min,
                    To = indexOf(Lp, Its.End) + S.Min;
      Window = Lp.Step > 0 ? Range{From, To} : Range{To + 1, From + 1};
      const bool Low =
          Lp.Step > 0 ? Its.Begin == Share.Begin : Its.End == Share.End;
      const bool High =
          Lp.Step > 0 ? Its.End == Share.End : Its.Begin == Share.Begin;
      if (Low)
        Window.Begin = std::min(Window.Begin, Hull.Begin);
      if (High)
        Window.End = std::max(Window.End, Hull.End);
    } else {
      Window = indexRange(Lp, Its);
      Window = {Window.Begin + S.Min, Window.End + S.Max};
    }
    Own = Own.intersect(IndexSet(Window));
  }
  return true;
}

bool Planner::cut(const KernelPlan &Whole, unsigned Pos, unsigned Loop,
                  Range Its, const std::vector<bool> &Copied) {
  unsigned Bad = 0;
  if (!Nest.computeTrips(Bad) || Pos >= P || Loop >= Nest.Rank ||
      Whole.Work.size() != P || Whole.Items.size() != D.Arrays.size()) {
    Error = "the plan does not belong to the kernel";
    return false;
  }
  const IndexSet &Share = Whole.Work[Pos].Iterations.Dims[Loop];
  if (Its.empty() || !Share.contains(IndexSet(Its)) ||
      Share.ranges().size() != 1) {
    Error = "the iterations are not a run of the device's share";
    return false;
  }
  Items.assign(Whole.Items.begin(), Whole.Items.end());
  for (size_t I = 0; I < D.Arrays.size(); ++I) {
    if (I >= Copied.size() || !Copied[I])
      continue;
    std::optional<unsigned> Q = Items[I]->positionOf(In.Devices[Pos]);
    if (Q && !cutItem(*Items[I], D.Arrays[I], *Q, Loop, Its, Share.hull()))
      return false;
  }
  Out.ScheduledLoop = Whole.ScheduledLoop;
  Out.Work.assign(P, DeviceWork());
  Out.Work[Pos].Iterations = Whole.Work[Pos].Iterations;
  Out.Work[Pos].Iterations.Dims[Loop] = IndexSet(Its);
  return finish();
}

} // namespace planning

using abi::Subscript;
using planning::Planner;

bool planKernel(const KernelPlanInput &In, KernelPlan &Out,
                std::string &Error) {
  return Planner(In, Out, Error).run();
}

bool planSubPart(const KernelPlanInput &In, const KernelPlan &Whole,
                 unsigned Pos, unsigned Loop, Range Iterations,
                 const std::vector<bool> &Copied, KernelPlan &Out,
                 std::string &Why) {
  return Planner(In, Out, Why).cut(Whole, Pos, Loop, Iterations, Copied);
}

bool cutAlongLoop(const abi::Descriptor &Desc,
                  const std::vector<abi::Access> &Accesses, size_t Item,
                  const Distribution &X, unsigned Loop) {
  const abi::Array &A = Desc.Arrays[Item];
  for (const abi::Access &Use : Accesses) {
    if (Use.Name != A.Name || Use.Rank != X.Shape.Rank)
      continue;
    for (unsigned Dm = 0; Dm < Use.Rank; ++Dm)
      if (X.Split[Dm] && Use.Subs[Dm].Kind == Subscript::Linear &&
          Use.Subs[Dm].Loop == Loop)
        return true;
  }
  return false;
}

std::vector<abi::Access> withTerms(const std::vector<abi::Access> &Accesses,
                                   const std::vector<TermValues> &Values) {
  std::vector<abi::Access> Out = Accesses;
  for (size_t I = 0; I < Out.size() && I < Values.size(); ++I)
    for (unsigned Dm = 0; Dm < 2 * MaxRank; ++Dm) {
      Subscript &S =
          Dm < MaxRank ? Out[I].Subs[Dm] : Out[I].Writes[Dm - MaxRank];
      if (!S.Term || S.Kind == Subscript::Unknown)
        continue;
      S.Min = Values[I][Dm].first;
      S.Max = Values[I][Dm].second;
      S.Term = false;
    }
  return Out;
}

std::optional<Box> footprintOf(const abi::Access &Use, const LoopNest &Nest) {
  if (Use.Rank == 0)
    return std::nullopt;
  Box B;
  B.Rank = Use.Rank;
  for (unsigned Dm = 0; Dm < Use.Rank; ++Dm) {
    const Subscript &S = Use.Subs[Dm];
    if (S.Kind == Subscript::Unknown || S.Term ||
        (S.Kind == Subscript::Linear && S.Loop >= Nest.Rank))
      return std::nullopt;
    if (S.Min > S.Max) {
      B.Dims[Dm] = Range{0, 0};
      continue;
    }
    if (S.Kind == Subscript::Invariant) {
      B.Dims[Dm] = Range{S.Min, S.Max + 1};
      continue;
    }
    const Range Its{0, Nest.Trips[S.Loop]};
    if (Its.empty()) {
      B.Dims[Dm] = Range{0, 0};
      continue;
    }
    Range Indices = indexRange(Nest.Loops[S.Loop], Its);
    B.Dims[Dm] = Range{Indices.Begin + S.Min, Indices.End + S.Max};
  }
  return B;
}

bool planIsPure(const abi::Descriptor &Desc) {
  auto FollowsLabel = [&](const abi::Policy &P) {
    return P.Kind == abi::Policy::Align && !P.ToLoop &&
           std::none_of(Desc.Arrays.begin(), Desc.Arrays.end(),
                        [&](const abi::Array &A) { return A.Name == P.Target; });
  };
  for (const abi::Loop &L : Desc.Loops)
    if (FollowsLabel(L.Dist))
      return false;
  for (const abi::Array &A : Desc.Arrays)
    for (unsigned D = 0; D < A.Rank; ++D)
      if (FollowsLabel(A.Dims[D]))
        return false;
  return true;
}

} // namespace homp
