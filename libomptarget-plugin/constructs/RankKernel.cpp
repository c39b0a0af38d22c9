//===-- RankKernel.cpp - A kernel run over the job's ranks ----------------===//

#include "RankKernel.h"

#include "Devices.h"
#include "Launch.h"
#include "Ranks.h"
#include "Residency.h"

#include "homp/Partition.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <omp.h>

namespace homp {

namespace {

/// Why K, launched with Args, runs whole on every rank whatever its loop
/// and arrays; empty when they decide (rankSplitOf).
std::string launchKeepsWhole(const KernelArgs &Args, bool HasHostVersion) {
  // Collectives must come in one order on every rank: a 'nowait' kernel's
  // task, or one of a parallel region's threads, runs when it runs.
  if (Args.Flags & 1)
    return "it is 'nowait'";
  // clang's own host fallback would run after homp's part of the launch.
  if (!HasHostVersion)
    return "the homp pass gave it no host version";
  if (omp_in_parallel())
    return "it runs inside a parallel region";
  return "";
}

/// What the ranks compare before they split a construct, as one number
/// (FNV-1a): its location, then what the caller mixes in.
struct ShapeHash {
  uint64_t H = 1469598103934665603ull;
  explicit ShapeHash(const std::string &Location) {
    for (char C : Location)
      mix(C);
  }
  void mix(int64_t V) {
    for (int B = 0; B < 8; ++B) {
      H ^= static_cast<uint64_t>(V >> (8 * B)) & 0xff;
      H *= 1099511628211ull;
    }
  }
  /// The arrays' shapes and sections.
  void mix(const std::vector<ConstructValues::ArrayValues> &Arrays) {
    for (const ConstructValues::ArrayValues &A : Arrays) {
      mix(A.Shape.Rank);
      mix(A.Shape.ElementSize);
      for (unsigned D = 0; D < A.Shape.Rank; ++D) {
        mix(A.Shape.Extent[D]);
        mix(A.Shape.Section.Dims[D].Begin);
        mix(A.Shape.Section.Dims[D].End);
      }
    }
  }
};

/// What the ranks compare before they split K: its construct, its loops'
/// bounds, its arrays' shapes and sections, its reductions.
uint64_t shapeOf(const KernelInstance &K) {
  ShapeHash H(K.Info->Location);
  H.mix(K.Nest.Rank);
  for (unsigned L = 0; L < K.Nest.Rank; ++L) {
    const LoopBounds &B = K.Nest.Loops[L];
    H.mix(B.First);
    H.mix(B.Bound);
    H.mix(B.Step);
    H.mix(static_cast<int64_t>(B.Op));
  }
  H.mix(K.Values.Arrays);
  for (const ConstructValues::ReductionValues &R : K.Values.Reductions) {
    H.mix(R.TypeCode);
    H.mix(R.Size);
  }
  return H.H;
}

} // namespace

namespace {

/// The ranks compare Shape (what each runs), whether each can split it
/// (Splits), and their devices (collective). Why: empty when every rank
/// runs the same and can split it; Capacity: per rank, its devices.
std::string voteOverRanks(const std::string &Where, uint64_t Shape,
                          const std::string &MyWhy, size_t Devices,
                          std::vector<double> &Capacity) {
  const RankWorld &W = rankWorld();
  struct Vote {
    uint64_t Shape;
    int64_t Splits;
    double Devices;
  };
  std::vector<Vote> Votes(W.Size);
  Votes[W.Rank] = {Shape, MyWhy.empty() ? 1 : 0, static_cast<double>(Devices)};
  std::vector<int64_t> Counts(W.Size, sizeof(Vote)), Displs(W.Size);
  for (int R = 0; R < W.Size; ++R)
    Displs[R] = R * static_cast<int64_t>(sizeof(Vote));
  rankAllGather(Where, Votes.data(), Counts, Displs);
  Capacity.clear();
  for (int R = 0; R < W.Size; ++R) {
    if (Votes[R].Shape != Shape)
      return "rank " + std::to_string(R) +
             " runs it over other bounds or sections (each rank runs its own "
             "alone)";
    if (!Votes[R].Splits)
      return !MyWhy.empty() ? MyWhy
                            : "rank " + std::to_string(R) + " cannot split it";
    Capacity.push_back(Votes[R].Devices);
  }
  return "";
}

/// Rows of dimension 0 of Shape's section as a box (the other dimensions
/// whole as mapped).
Box rowsBox(const ArrayShape &Shape, Range Rows) {
  Box B = Shape.Section;
  B.Dims[0] = B.Dims[0].intersect(Rows);
  return B;
}

} // namespace

RankKernelSplit rankSplitOf(const KernelInstance &K, int Ranks,
                            const std::vector<double> &Capacity) {
  const abi::Descriptor &D = K.Info->Desc;
  RankKernelSplit S;
  std::vector<RankKernelItem> Items;
  for (size_t I = 0; I < D.Arrays.size(); ++I)
    Items.push_back({D.Arrays[I].Name, K.Values.Arrays[I].Shape,
                     D.Arrays[I].Map == abi::MapType::ToFrom});
  // The resident arrays it uses: those a data region split over the ranks
  // it follows; any other keeps it whole on every rank (its data region
  // is).
  bool WholeResident = false, SplitResident = false;
  auto Resident = [&](const void *Base, RankKernelItem *Item,
                      const std::string &Name) {
    ResidentArray *R = acquireResidentByBase(Base);
    if (!R)
      return;
    if (R->Ranks) {
      SplitResident = true;
      RankKernelItem Mine;
      if (!Item) {
        Mine.Name = Name;
        Mine.Shape = R->Dist.Shape;
        Mine.Shape.Section = R->Ranks->Whole;
        Item = &Items.emplace_back(std::move(Mine));
      }
      Item->Resident = true;
      Item->Own = R->Ranks->Own;
      Item->Valid = R->Ranks->Valid;
      Item->Held = R->Ranks->Held;
    } else {
      WholeResident = true;
    }
    std::vector<int64_t> Bytes;
    std::string Error;
    releaseResident(R, false, false, Bytes, Error); // the lookup's
  };
  if (anyResident()) {
    for (size_t I = 0; I < D.Arrays.size(); ++I)
      Resident(K.Values.Arrays[I].Base, &Items[I], D.Arrays[I].Name);
    for (size_t I = 0;
         I < D.Accesses.size() && I < K.Values.AccessAddresses.size(); ++I)
      if (std::none_of(Items.begin(), Items.end(),
                       [&](const RankKernelItem &X) {
                         return X.Name == D.Accesses[I].Name;
                       }))
        Resident(K.Values.AccessAddresses[I], nullptr, D.Accesses[I].Name);
    if (WholeResident || !SplitResident)
      S.Why = WholeResident ? "its data region is whole on every rank"
                            : "it uses none of the arrays its data region "
                              "split over the ranks";
  }
  if (S.Why.empty() && !K.Info->PurePlans)
    S.Why = "it follows a labelled loop of a data region";
  for (const abi::Array &A : D.Arrays) {
    if (!S.Why.empty())
      break;
    if (A.Always || A.Present)
      S.Why = "'" + A.Name + "' is mapped 'always' or 'present'";
    for (const abi::Halo &H : A.Halos)
      if ((H.Left > 0 && H.LeftEdge != abi::Edge::None) ||
          (H.Right > 0 && H.RightEdge != abi::Edge::None))
        S.Why = "'" + A.Name + "' has a periodic or reflecting halo";
  }
  S.OverResidents = SplitResident;
  LoopNest Nest = K.Nest;
  unsigned Bad;
  if (!S.Why.empty() || !Nest.computeTrips(Bad)) {
    if (S.Why.empty())
      S.Why = "its loop does not terminate";
    return S;
  }
  std::vector<bool> Distributed;
  for (const abi::Loop &L : D.Loops)
    Distributed.push_back(L.Dist.distributed());
  return splitKernelOverRanks(Nest, Distributed,
                              withTerms(D.Accesses, K.Values.SubscriptTerms),
                              Items, Ranks, Capacity);
}

std::shared_ptr<RankRun>
splitOverRanks(KernelInstance &K, const KernelArgs &Args, bool HasHostVersion) {
  const RankWorld &W = rankWorld();
  if (!W.spans())
    return nullptr;
  const abi::Descriptor &D = K.Info->Desc;
  auto Run = std::make_shared<RankRun>();
  const RankKernelSplit Local = rankSplitOf(K, W.Size);
  // It runs on the host (no device of its list, ...): as any kernel that
  // cannot split, with the arrays a data region split over the ranks
  // gathered on every host first.
  if (!K.HostOnlyWhy.empty() && !Local.OverResidents)
    return nullptr;
  std::string Why = launchKeepsWhole(Args, HasHostVersion);
  const bool Collective = Why.empty();
  if (!K.HostOnlyWhy.empty() && Collective)
    Why = K.HostOnlyWhy;
  // Over a data region's rows, a kernel whose launch allows no collective
  // ('nowait', a parallel region's thread) is split without one where
  // nothing needs completing after it: its part follows the rows alone.
  bool Completes = !D.Reductions.empty();
  for (size_t I = 0; I < Local.Written.size() && I < D.Arrays.size(); ++I)
    for (const Box &B : Local.Written[I])
      Completes |= !B.empty();
  if (!Collective && K.HostOnlyWhy.empty() && Local.OverResidents &&
      Local.Why.empty() && !Completes && HasHostVersion) {
    Run->Split = Local;
    Why.clear();
  } else if (Collective && K.HostOnlyWhy.empty()) {
    // The ranks agree first: each says what it runs (the construct, its
    // bounds and sections), whether it could split it, and its devices. A
    // program that divides its work by rank itself runs each rank's kernel
    // alone; the others' parts go by their devices.
    std::vector<double> Capacity;
    Why = voteOverRanks(K.Info->Location, shapeOf(K), Local.Why,
                        K.Devices.size(), Capacity);
    // Over a data region's rows the loop follows them, whatever the
    // devices.
    if (Why.empty()) {
      Run->Split = rankSplitOf(K, W.Size, Capacity);
      Why = Run->Split.Why;
    }
  }
  // Its data region holds each rank's rows alone: to run whole, every
  // rank's host gathers them first (collective), runs the kernel itself,
  // and gives its devices their rows back after (gatherResidents).
  if (!Why.empty() && Local.OverResidents) {
    if (!Collective)
      constructFatal(*K.Info,
                     "cannot run over the ranks its data region split its "
                     "arrays over (" +
                         (Local.Why.empty()
                              ? std::string("its results need completing on "
                                            "every rank")
                              : Local.Why) +
                         "), and " + Why +
                         ": only a kernel the program waits for can gather "
                         "them (HOMP_MPI=0 runs every rank alone)");
    constructNote(*K.Info, "runs whole on every one of the " +
                               std::to_string(W.Size) +
                               " ranks' hosts, with the arrays its data "
                               "region split over them gathered there: " +
                               Why);
    if (!K.HostOnlyWhy.empty())
      constructError(*K.Info, K.HostOnlyWhy); // as on one node
    Run->OnHosts = true;
    gatherResidents(K, *Run);
    return Run;
  }
  for (size_t I = 0; I < D.Arrays.size(); ++I)
    Run->Items.push_back({K.Values.Arrays[I].Base, K.Values.Arrays[I].Shape});
  if (!Why.empty()) {
    constructNote(*K.Info, "runs whole on every one of the " +
                               std::to_string(W.Size) + " ranks: " + Why);
    return nullptr;
  }
  Run->Where = K.Info->Location;
  Run->Rank = W.Rank;
  Run->Size = W.Size;
  // This rank's part: the loop, the chunk variable (clang's host fallback
  // reads it), the sections.
  const unsigned L = Run->Split.Loop;
  const Range Its = Run->Split.Iterations[W.Rank];
  unsigned Bad;
  K.Nest.computeTrips(Bad);
  const int64_t Trips = K.Nest.Trips[L], All = K.Nest.iterations();
  const bool Nested = K.Nest.Rank > 1;
  K.Nest = narrowLoop(K.Nest, L, Its);
  K.Loops.Loops[L] = abi::chunkLoop(
      K.Nest.Loops[L].First, K.Nest.Loops[L].Bound, K.Nest.Loops[L].Step);
  K.ChunkVar->Loops[L] = K.Loops.Loops[L];
  for (size_t I = 0; I < D.Arrays.size(); ++I) {
    ConstructValues::ArrayValues &V = K.Values.Arrays[I];
    V.Mapped = V.first();
    V.Shape.Section = Run->Split.Sections[I][W.Rank];
  }
  for (size_t I = 0; I < D.Reductions.size(); ++I) {
    const ConstructValues::ReductionValues &V = K.Values.Reductions[I];
    RankRun::Reduction R{V.Address,
                         D.Reductions[I].Op,
                         *decodeScalarType(V.TypeCode, V.Size),
                         {}};
    const char *At = static_cast<const char *>(V.Address);
    R.Start.assign(At, At + R.Type.Size);
    reductionIdentity(R.Op, R.Type, V.Address);
    Run->Reductions.push_back(std::move(R));
  }
  constructNote(
      *K.Info,
      "over " + std::to_string(W.Size) + " ranks: this rank runs iterations [" +
          std::to_string(Its.Begin) + ", " + std::to_string(Its.End) + ") of " +
          (Nested ? "the " : "its ") + std::to_string(Trips) +
          (Nested ? " of its distributed loop" : ""));
  K.RankPart = "this rank's part of " + std::to_string(All) + " over " +
               std::to_string(W.Size) + " ranks";
  return Run;
}

void gatherResidents(const KernelInstance &K, RankRun &Run) {
  const abi::Descriptor &D = K.Info->Desc;
  std::vector<const void *> Bases;
  for (size_t I = 0; I < D.Arrays.size(); ++I)
    Bases.push_back(K.Values.Arrays[I].Base);
  for (size_t I = 0; I < K.Values.AccessAddresses.size(); ++I)
    Bases.push_back(K.Values.AccessAddresses[I]);
  for (const void *Base : Bases) {
    ResidentArray *R = acquireResidentByBase(Base);
    if (!R)
      continue;
    std::vector<int64_t> Bytes;
    std::string Error;
    if (std::find(Run.Gathered.begin(), Run.Gathered.end(), R) !=
        Run.Gathered.end()) {
      releaseResident(R, false, false, Bytes, Error); // the lookup's
      continue;
    }
    Run.Gathered.push_back(R);
    // Whole on this rank's devices: their parts to the host.
    if (!R->Ranks) {
      if (!updateResident(*R, Direction::FromDevice,
                          ProductSet::of(R->Dist.Shape.Section),
                          R->Dist.Devices, Bytes, Error))
        constructFatal(*K.Info, Error);
      continue;
    }
    // Its own rows to the host, then every rank's to every host.
    const Box Own = rowsBox(R->Dist.Shape, R->Ranks->Own[R->Ranks->Rank]);
    if (!updateResident(*R, Direction::FromDevice, ProductSet::of(Own),
                        R->Dist.Devices, Bytes, Error))
      constructFatal(*K.Info, Error);
    completeRows(K.Info->Location, *R->Ranks, R->HostBase, R->Dist.Shape,
                 R->Ranks->Whole);
  }
}

void scatterResidents(const ConstructInfo &Info, RankRun &Run) {
  for (ResidentArray *R : Run.Gathered) {
    std::vector<int64_t> Bytes;
    std::string Error;
    if (!updateResident(*R, Direction::ToDevice,
                        ProductSet::of(R->Dist.Shape.Section), R->Dist.Devices,
                        Bytes, Error))
      constructFatal(Info, Error);
    releaseResident(R, false, false, Bytes, Error);
  }
  Run.Gathered.clear();
}

void completeOverRanks(const RankRun &R) {
  // An array each rank wrote one run of (rows of a BLOCK split, whole
  // rows): gathered in place, in the host array. The rest in one buffer,
  // rank after rank: each rank's reduction results, then the elements it
  // wrote of the other arrays, in storage order.
  std::vector<bool> InPlace(R.Items.size(), false);
  for (size_t I = 0; I < R.Items.size(); ++I) {
    const RankRun::Item &It = R.Items[I];
    const int64_t Elem = It.Shape.ElementSize;
    bool OneRun = true, Any = false;
    std::vector<int64_t> Counts(R.Size, 0), Displs(R.Size, 0), Offsets;
    for (int Q = 0; Q < R.Size && OneRun; ++Q) {
      int Runs = 0;
      forEachRun(It.Shape, R.Split.Written[I][Q], [&](int64_t Off, int64_t N) {
        ++Runs;
        Counts[Q] = N * Elem;
        Displs[Q] = Off;
      });
      OneRun = Runs <= 1;
      Any |= Runs > 0;
    }
    if (!OneRun || !Any)
      continue;
    int64_t Lowest = INT64_MAX;
    for (int Q = 0; Q < R.Size; ++Q)
      if (Counts[Q] > 0)
        Lowest = std::min(Lowest, Displs[Q]);
    for (int Q = 0; Q < R.Size; ++Q)
      Displs[Q] = Counts[Q] > 0 ? (Displs[Q] - Lowest) * Elem : 0;
    rankAllGather(R.Where, It.Base + Lowest * Elem, Counts, Displs);
    InPlace[I] = true;
  }
  std::vector<int64_t> Counts(R.Size, 0), Displs(R.Size, 0);
  for (int Q = 0; Q < R.Size; ++Q) {
    for (const RankRun::Reduction &X : R.Reductions)
      Counts[Q] += X.Type.Size;
    for (size_t I = 0; I < R.Items.size(); ++I)
      if (!InPlace[I])
        Counts[Q] +=
            R.Split.Written[I][Q].volume() * R.Items[I].Shape.ElementSize;
    if (Q > 0)
      Displs[Q] = Displs[Q - 1] + Counts[Q - 1];
  }
  if (Displs.back() + Counts.back() == 0)
    return;
  std::vector<char> All(Displs.back() + Counts.back());
  auto Walk = [&](int Q, bool Pack) {
    char *At = All.data() + Displs[Q];
    for (const RankRun::Reduction &X : R.Reductions) {
      if (Pack)
        std::memcpy(At, X.Address, X.Type.Size);
      At += X.Type.Size;
    }
    for (size_t I = 0; I < R.Items.size(); ++I) {
      if (InPlace[I])
        continue;
      const RankRun::Item &It = R.Items[I];
      const int64_t Elem = It.Shape.ElementSize;
      forEachRun(It.Shape, R.Split.Written[I][Q], [&](int64_t Off, int64_t N) {
        char *Host = It.Base + Off * Elem;
        if (Pack)
          std::memcpy(At, Host, N * Elem);
        else
          std::memcpy(Host, At, N * Elem);
        At += N * Elem;
      });
    }
  };
  Walk(R.Rank, true);
  rankAllGather(R.Where, All.data(), Counts, Displs);
  for (int Q = 0; Q < R.Size; ++Q)
    if (Q != R.Rank)
      Walk(Q, false);
  // The reductions: rank 0's result, rank 1's, ..., then the value
  // before (as one node combines its devices').
  size_t Off = 0;
  for (const RankRun::Reduction &Red : R.Reductions) {
    std::vector<char> Acc(All.data() + Off, All.data() + Off + Red.Type.Size);
    for (int Q = 1; Q < R.Size; ++Q)
      reductionCombine(Red.Op, Red.Type, Acc.data(),
                       All.data() + Displs[Q] + Off);
    std::vector<char> Value = Red.Start;
    reductionCombine(Red.Op, Red.Type, Value.data(), Acc.data());
    std::memcpy(Red.Address, Value.data(), Red.Type.Size);
    Off += Red.Type.Size;
  }
}

std::vector<std::shared_ptr<const RankRows>>
splitRegionOverRanks(const ConstructInfo &Info, ConstructValues &V,
                     const std::vector<int> &Devices) {
  const RankWorld &W = rankWorld();
  const abi::Descriptor &D = Info.Desc;
  if (!W.spans() || D.Kind != abi::ConstructKind::Data || D.SharedMemory)
    return {};
  // Why the region is whole on every rank, alike on every rank.
  std::string Why;
  if (anyResident())
    Why = "it is inside another data region (or after 'target enter data')";
  else if (!D.DataLoops.empty())
    Why = "its arrays align to labelled loops";
  else if (std::find(Devices.begin(), Devices.end(), hostDevice()) !=
           Devices.end())
    Why = "the host is one of its devices";
  for (size_t I = 0; I < D.Arrays.size() && Why.empty(); ++I) {
    const abi::Array &A = D.Arrays[I];
    const ArrayShape &Sh = V.Arrays[I].Shape;
    bool Rows = A.Dims[0].Kind == abi::Policy::Block;
    for (unsigned Dm = 1; Dm < A.Rank; ++Dm)
      Rows = Rows && !A.Dims[Dm].distributed();
    const abi::Halo &H = A.Halos[0];
    if (!Rows || A.DeviceIds || A.Topo.Rank || A.Always || A.Present)
      Why = "'" + A.Name +
            "' is not split by BLOCK along its first dimension alone";
    else if ((H.Left > 0 && H.LeftEdge != abi::Edge::None) ||
             (H.Right > 0 && H.RightEdge != abi::Edge::None))
      Why = "'" + A.Name + "' has a periodic or reflecting halo";
    else if (Sh.Section.Dims[0].size() < W.Size)
      Why = "'" + A.Name + "' has fewer rows than there are ranks";
  }
  ShapeHash Shape(Info.Location);
  Shape.mix(V.Arrays);
  std::vector<double> Capacity;
  Why = voteOverRanks(Info.Location, Shape.H, Why, Devices.size(), Capacity);
  if (!Why.empty()) {
    constructNote(Info, "is whole on every one of the " +
                            std::to_string(W.Size) + " ranks: " + Why);
    return {};
  }
  // Every array stores its rows widened by the widest halo (its devices'
  // parts then line up with the others'); one with 'halo(*)' stores all.
  int64_t MaxL = 0, MaxU = 0;
  for (const abi::Array &A : D.Arrays) {
    if (A.Halos[0].Left != abi::Halo::All)
      MaxL = std::max(MaxL, A.Halos[0].Left);
    if (A.Halos[0].Right != abi::Halo::All)
      MaxU = std::max(MaxU, A.Halos[0].Right);
  }
  std::vector<std::shared_ptr<const RankRows>> Out;
  for (size_t I = 0; I < D.Arrays.size(); ++I) {
    ConstructValues::ArrayValues &A = V.Arrays[I];
    auto R = std::make_shared<RankRows>();
    R->Rank = W.Rank;
    R->Whole = A.Shape.Section;
    const Range All = A.Shape.Section.Dims[0];
    const abi::Halo &H = D.Arrays[I].Halos[0];
    const bool Everything =
        H.Left == abi::Halo::All || H.Right == abi::Halo::All;
    for (int Q = 0; Q < W.Size; ++Q) {
      const Range P = weightedBlockPart(All.size(), Capacity, Q);
      const Range Own{All.Begin + P.Begin, All.Begin + P.End};
      R->Own.push_back(Own);
      const int64_t L = std::min(H.Left, All.size()),
                    U = std::min(H.Right, All.size());
      R->Valid.push_back(Range{Own.Begin - L, Own.End + U}.intersect(All));
      R->Held.push_back(Everything
                            ? All
                            : Range{Own.Begin - std::min(MaxL, All.size()),
                                    Own.End + std::min(MaxU, All.size())}
                                  .intersect(All));
    }
    A.Mapped = A.first();
    A.Shape.Section.Dims[0] = R->Held[W.Rank];
    Out.push_back(std::move(R));
  }
  constructNote(Info, "over " + std::to_string(W.Size) +
                          " ranks: this rank holds rows [" +
                          std::to_string(Out.front()->Own[W.Rank].Begin) +
                          ", " + std::to_string(Out.front()->Own[W.Rank].End) +
                          ") of '" + D.Arrays.front().Name + "'");
  return Out;
}

void completeRows(const std::string &Where, const RankRows &R, char *HostBase,
                  const ArrayShape &Shape, const Box &Elements) {
  RankRun Run;
  Run.Where = Where;
  Run.Rank = R.Rank;
  Run.Size = static_cast<int>(R.Own.size());
  ArrayShape Whole = Shape;
  Whole.Section = R.Whole;
  Run.Items.push_back({HostBase, Whole});
  Run.Split.Written.emplace_back();
  for (const Range &Own : R.Own)
    Run.Split.Written[0].push_back(rowsBox(Whole, Own).intersect(Elements));
  completeOverRanks(Run);
}

void exchangeRankHalos(const ConstructInfo &Info, const ResidentArray &A,
                       bool Below, bool Above) {
  const RankRows &RR = *A.Ranks;
  const int Me = RR.Rank;
  const ArrayShape &Sh = A.Dist.Shape;
  const int64_t Elem = Sh.ElementSize;
  ArrayShape Whole = Sh;
  Whole.Section = RR.Whole;
  // Rank Q's halo rows that rank P owns: below Q's own rows when P < Q.
  auto Wanted = [&](int P, int Q) {
    if (P == Q || (P < Q && !Below) || (P > Q && !Above))
      return Box{Sh.Rank, {}};
    return rowsBox(Whole, RR.Own[P].intersect(RR.Valid[Q]));
  };
  struct Piece {
    Box Rows;
    std::vector<char> Bytes;
  };
  std::vector<Piece> Out, In;
  std::vector<RankMessageBuffer> Sends, Receives;
  // What the host's array holds there now, put back after: the host keeps
  // its own copy while the region runs.
  auto Keep = [&](const Box &B) {
    std::vector<char> Saved;
    forEachRun(Sh, B, [&](int64_t Off, int64_t N) {
      Saved.insert(Saved.end(), A.HostBase + Off * Elem,
                   A.HostBase + (Off + N) * Elem);
    });
    return Saved;
  };
  auto Restore = [&](const Box &B, const std::vector<char> &Saved) {
    size_t At = 0;
    forEachRun(Sh, B, [&](int64_t Off, int64_t N) {
      std::memcpy(A.HostBase + Off * Elem, Saved.data() + At, N * Elem);
      At += N * Elem;
    });
  };
  std::string Error;
  std::vector<int64_t> Bytes;
  for (int Q = 0; Q < static_cast<int>(RR.Own.size()); ++Q) {
    const Box B = Wanted(Me, Q);
    if (B.empty())
      continue;
    std::vector<char> Saved = Keep(B);
    if (!updateResident(A, Direction::FromDevice, ProductSet::of(B),
                        A.Dist.Devices, Bytes, Error))
      constructFatal(Info, Error);
    Out.push_back({B, Keep(B)});
    Restore(B, Saved);
    Sends.push_back({Q, Out.back().Bytes.data(),
                     static_cast<int64_t>(Out.back().Bytes.size())});
  }
  for (int P = 0; P < static_cast<int>(RR.Own.size()); ++P) {
    const Box B = Wanted(P, Me);
    if (B.empty())
      continue;
    In.push_back({B, std::vector<char>(B.volume() * Elem)});
  }
  for (size_t K = 0, P = 0; K < In.size(); ++P)
    if (!Wanted(static_cast<int>(P), Me).empty()) {
      Receives.push_back({static_cast<int>(P), In[K].Bytes.data(),
                          static_cast<int64_t>(In[K].Bytes.size())});
      ++K;
    }
  rankExchange(Info.Location, Sends, Receives);
  for (const Piece &P : In) {
    std::vector<char> Saved = Keep(P.Rows);
    Restore(P.Rows, P.Bytes);
    if (!updateResident(A, Direction::ToDevice, ProductSet::of(P.Rows),
                        A.Dist.Devices, Bytes, Error))
      constructFatal(Info, Error);
    Restore(P.Rows, Saved);
  }
}

} // namespace homp
