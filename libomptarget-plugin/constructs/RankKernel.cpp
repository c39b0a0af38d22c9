//===-- RankKernel.cpp - A kernel run over the job's ranks ----------------===//

#include "RankKernel.h"

#include "Launch.h"
#include "Ranks.h"
#include "Residency.h"

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

/// What the ranks compare before they split K: its construct, its loops'
/// bounds, its arrays' shapes and sections, its reductions (FNV-1a).
uint64_t shapeOf(const KernelInstance &K) {
  uint64_t H = 1469598103934665603ull;
  auto Mix = [&](int64_t V) {
    for (int B = 0; B < 8; ++B) {
      H ^= static_cast<uint64_t>(V >> (8 * B)) & 0xff;
      H *= 1099511628211ull;
    }
  };
  for (char C : K.Info->Location)
    Mix(C);
  Mix(K.Nest.Rank);
  for (unsigned L = 0; L < K.Nest.Rank; ++L) {
    const LoopBounds &B = K.Nest.Loops[L];
    Mix(B.First);
    Mix(B.Bound);
    Mix(B.Step);
    Mix(static_cast<int64_t>(B.Op));
  }
  for (const ConstructValues::ArrayValues &A : K.Values.Arrays) {
    Mix(A.Shape.Rank);
    Mix(A.Shape.ElementSize);
    for (unsigned D = 0; D < A.Shape.Rank; ++D) {
      Mix(A.Shape.Extent[D]);
      Mix(A.Shape.Section.Dims[D].Begin);
      Mix(A.Shape.Section.Dims[D].End);
    }
  }
  for (const ConstructValues::ReductionValues &R : K.Values.Reductions) {
    Mix(R.TypeCode);
    Mix(R.Size);
  }
  return H;
}

} // namespace

RankKernelSplit rankSplitOf(const KernelInstance &K, int Ranks,
                            const std::vector<double> &Capacity) {
  const abi::Descriptor &D = K.Info->Desc;
  RankKernelSplit S;
  // Resident data lies on every rank's devices whole, as its data region
  // put it there (data regions do not span ranks yet).
  if (anyResident())
    S.Why = "data regions do not span ranks yet";
  else if (!K.Info->PurePlans)
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
  std::vector<RankKernelItem> Items;
  for (size_t I = 0; I < D.Arrays.size(); ++I)
    Items.push_back({D.Arrays[I].Name, K.Values.Arrays[I].Shape,
                     D.Arrays[I].Map == abi::MapType::ToFrom});
  return splitKernelOverRanks(Nest, Distributed,
                              withTerms(D.Accesses, K.Values.SubscriptTerms),
                              Items, Ranks, Capacity);
}

std::shared_ptr<RankRun>
splitOverRanks(KernelInstance &K, const KernelArgs &Args, bool HasHostVersion) {
  const RankWorld &W = rankWorld();
  if (!W.spans() || !K.HostOnlyWhy.empty())
    return nullptr;
  const abi::Descriptor &D = K.Info->Desc;
  auto Run = std::make_shared<RankRun>();
  std::string Why = launchKeepsWhole(Args, HasHostVersion);
  if (Why.empty()) {
    // The ranks agree first: each says what it runs (the construct, its
    // bounds and sections), whether it could split it, and its devices. A
    // program that divides its work by rank itself runs each rank's kernel
    // alone; the others' parts go by their devices.
    const RankKernelSplit Local = rankSplitOf(K, W.Size);
    struct Vote {
      uint64_t Shape;
      int64_t Splits;
      double Devices;
    };
    std::vector<Vote> Votes(W.Size);
    Votes[W.Rank] = {shapeOf(K), Local.Why.empty() ? 1 : 0,
                     static_cast<double>(K.Devices.size())};
    std::vector<int64_t> Counts(W.Size, sizeof(Vote)), Displs(W.Size);
    for (int R = 0; R < W.Size; ++R)
      Displs[R] = R * static_cast<int64_t>(sizeof(Vote));
    rankAllGather(K.Info->Location, Votes.data(), Counts, Displs);
    std::vector<double> Capacity;
    for (int R = 0; R < W.Size && Why.empty(); ++R) {
      if (Votes[R].Shape != Votes[W.Rank].Shape)
        Why = "rank " + std::to_string(R) +
              " runs it over other bounds or sections (each rank runs its "
              "own alone)";
      else if (!Votes[R].Splits)
        Why = !Local.Why.empty()
                  ? Local.Why
                  : "rank " + std::to_string(R) + " cannot split it";
      Capacity.push_back(Votes[R].Devices);
    }
    if (Why.empty()) {
      Run->Split = rankSplitOf(K, W.Size, Capacity);
      Why = Run->Split.Why;
    }
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

} // namespace homp
