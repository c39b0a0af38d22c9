//===-- DataDirectives.cpp - Distributed target data and friends ----------===//

#include "DataDirectives.h"

#include "Balance.h"

#include "Devices.h"
#include "KernelArgs.h"
#include "Libomptarget.h"
#include "Machine.h"
#include "Messages.h"
#include "Observe.h"
#include "ProxyPool.h"
#include "RankKernel.h"
#include "Residency.h"

#include "homp/Info.h"
#include "homp/Partition.h"
#include "homp/RankPlan.h"
#include "homp/Scheduler.h"

#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <memory>

namespace homp {

struct DataInstance : Instance {
  DataInstance() : Instance(Data) {}

  ConstructInfo *Info = nullptr;
  ConstructValues Values;
  std::vector<int> Devices;
  Topology Topo;
  std::shared_ptr<std::vector<LabelledSplit>> Labels;
  /// Per array: the resident array (one reference held by this construct).
  std::vector<ResidentArray *> Arrays;
  bool Entered = false; ///< a data region in progress (enterDataRegion)
};

namespace {

using Clock = std::chrono::steady_clock;
using abi::ConstructKind;

const char *constructWords(ConstructKind K) {
  switch (K) {
  case ConstructKind::Data:
    return "data region";
  case ConstructKind::EnterData:
    return "'target enter data'";
  case ConstructKind::ExitData:
    return "'target exit data'";
  case ConstructKind::Update:
    return "'target update'";
  case ConstructKind::HaloUpdate:
    return "halo update";
  case ConstructKind::Kernel:
    break;
  }
  return "region";
}

/// What the data region's arrays hold on a device, for the memory cap of
/// labelled loop Label's shares of Trips iterations: per iteration, the
/// arrays aligned to it; whole, those not distributed.
LoopCost heldBytes(const DataInstance &DI, const std::string &Label,
                   int64_t Trips) {
  const abi::Descriptor &D = DI.Info->Desc;
  std::vector<CostedArray> Arrays;
  for (size_t I = 0; I < D.Arrays.size() && I < DI.Values.Arrays.size(); ++I) {
    const abi::Array &A = D.Arrays[I];
    const ArrayShape &Sh = DI.Values.Arrays[I].Shape;
    CostedArray C;
    C.Bytes = static_cast<double>(Sh.ElementSize) *
              static_cast<double>(ProductSet::of(Sh.Section).volume());
    for (unsigned Dm = 0; Dm < A.Rank; ++Dm)
      C.FollowsLoop |=
          A.Dims[Dm].Kind == abi::Policy::Align && A.Dims[Dm].Target == Label;
    C.Distributed = A.distributed();
    Arrays.push_back(C); // held, not copied: Ways 0
  }
  return loopCost(/*FlopsPerIteration=*/1, Trips, Arrays);
}

/// Whether a labelled loop's kind is one the memorizing-dynamic scheduler
/// runs (SPEC 3): dynamic and profile kinds.
bool memorizes(abi::SchedKind K) {
  return K == abi::SchedKind::Dynamic || K == abi::SchedKind::Guided ||
         K == abi::SchedKind::Profile || K == abi::SchedKind::ModelProfile;
}

/// Why an array aligned along one dimension by P, with halo H along it,
/// and split along another dimension too or not, cannot follow a
/// memorizing loop's chunks (for HOMP_INFO, after the array's name); ""
/// when it can: only its rows along the loop may move.
std::string whyCannotFollow(const abi::Policy &P, const abi::Halo &H,
                            bool SplitElsewhere) {
  auto Moves = [](int64_t W) { return W == 0 || W == abi::Halo::All; };
  if (SplitElsewhere)
    return "is split along another dimension too";
  if (P.RatioNum != P.RatioDen)
    return "is aligned with a ratio";
  if (!Moves(H.Left) || !Moves(H.Right) || H.LeftEdge != abi::Edge::None ||
      H.RightEdge != abi::Edge::None)
    return "has a halo along the loop's dimension (only 'halo(*)' moves "
           "with the chunks)";
  return "";
}

/// Whether every array of D aligned to Label along one dimension could
/// follow its chunks (whyCannotFollow, as the descriptor says them).
bool arraysCanFollow(const abi::Descriptor &D, const std::string &Label) {
  for (const abi::Array &A : D.Arrays)
    for (unsigned Dm = 0; Dm < A.Rank; ++Dm) {
      const abi::Policy &P = A.Dims[Dm];
      if (P.Kind != abi::Policy::Align || P.ToLoop || P.Target != Label)
        continue;
      bool SplitElsewhere = false;
      for (unsigned E = 0; E < A.Rank; ++E)
        SplitElsewhere |= E != Dm && A.Dims[E].distributed();
      if (!whyCannotFollow(P, A.Halos[Dm], SplitElsewhere).empty())
        return false;
    }
  return true;
}

/// AUTO picks the memorizing scheduler for a labelled loop over resident
/// data where it would otherwise sample: no HOMP_SCHEDULE or
/// LOOP_DIST_POLICY kind replaces it, the model does not know every
/// device's speed (no machine file), and the arrays aligned to it can
/// follow its chunks. Elsewhere the data region splits it by the model
/// when it begins.
bool autoMemorizes(const DataInstance &DI, const std::string &Label) {
  const PolicyContext &Ctx = policyContext();
  return !Ctx.Env->Schedule && !modelKnowsSpeeds(*Ctx.Loaded, DI.Devices) &&
         arraysCanFollow(DI.Info->Desc, Label);
}

/// A labelled nest whose one distributed loop has a kind the memorizing
/// scheduler runs (or AUTO, autoMemorizes), over a line of devices: S
/// remembers the loop's chunks (the kind's chunk size; the profile kinds
/// and AUTO take SCHED_DYNAMIC's), each device owning a block of them at
/// first.
void memorize(LabelledSplit &S, const abi::LabelledLoop &LL,
              const LoopNest &Nest, const DataInstance &DI) {
  int Distributed = 0;
  for (const abi::Loop &L : LL.Loops)
    Distributed += L.Dist.distributed();
  if (Distributed != 1 || DI.Topo.rank() != 1)
    return;
  for (unsigned K = 0; K < Nest.Rank && K < LL.Loops.size(); ++K) {
    const abi::Policy &P = LL.Loops[K].Dist;
    if (P.Kind != abi::Policy::Auto)
      continue;
    const bool ByAuto = P.Sched == abi::SchedKind::Auto;
    if (ByAuto ? !autoMemorizes(DI, LL.Label) : !memorizes(P.Sched))
      continue;
    S.MemoryByAuto = ByAuto;
    const bool Queue =
        P.Sched == abi::SchedKind::Dynamic || P.Sched == abi::SchedKind::Guided;
    const abi::Amount Chunk =
        Queue && P.Chunk.given()
            ? P.Chunk
            : defaultAmount(Queue ? P.Sched : abi::SchedKind::Dynamic);
    S.Memory =
        std::make_shared<ChunkMemory>(Nest.Trips[K], Chunk.of(Nest.Trips[K]),
                                      static_cast<unsigned>(S.Devices.size()));
    S.MemoryLoop = K;
    S.MemoryBounds = Nest.Loops[K];
  }
}

/// The loop splits a data region decides for the labelled loops its arrays
/// align to: each loop split by its own policy, along the topology axis of
/// its turn among the nest's distributed loops.
bool splitLabelledLoops(DataInstance &DI, std::string &Error) {
  const abi::Descriptor &D = DI.Info->Desc;
  auto Labels = std::make_shared<std::vector<LabelledSplit>>();
  for (size_t L = 0; L < D.DataLoops.size(); ++L) {
    const abi::LabelledLoop &LL = D.DataLoops[L];
    LoopNest Nest = DI.Values.DataLoops[L].Nest;
    unsigned Bad;
    if (!Nest.computeTrips(Bad)) {
      Error = "loop '" + LL.Label + "' would not terminate";
      return false;
    }
    LabelledSplit S;
    S.Label = LL.Label;
    S.Devices = DI.Devices;
    if (DI.Info->Desc.Kind == abi::ConstructKind::Data)
      memorize(S, LL, Nest, DI);
    unsigned Axis = 0;
    for (unsigned K = 0; K < Nest.Rank; ++K) {
      const abi::Policy &P = LL.Loops[K].Dist;
      std::vector<IndexSet> Per(DI.Devices.size());
      unsigned A = P.distributed() ? Axis++ : 0;
      if (P.distributed() && A >= DI.Topo.rank()) {
        Error = "loop '" + LL.Label + "' splits more loops than the devices' "
                "topology (" + DI.Topo.str() + ") has dimensions";
        return false;
      }
      // An AUTO loop over one topology axis gets shares decided now.
      std::vector<double> Shares;
      if (S.Memory && K == S.MemoryLoop) {
        for (unsigned Pos = 0; Pos < DI.Devices.size(); ++Pos)
          Per[Pos] = indicesOf(Nest.Loops[K], S.Memory->owned(Pos));
        S.Indices.push_back(std::move(Per));
        continue;
      }
      if (P.Kind == abi::Policy::Auto && DI.Topo.rank() == 1)
        Shares = dataRegionShares(
            policyContext(), P, LL.Cut, DI.Devices, Nest.Trips[K],
            heldBytes(DI, LL.Label, Nest.Trips[K]), &S.Note);
      for (unsigned Pos = 0; Pos < DI.Devices.size(); ++Pos) {
        IndexSet Its =
            !Shares.empty()
                ? IndexSet(weightedBlockPart(Nest.Trips[K], Shares, Pos))
            : P.distributed()
                ? partitionDim({0, Nest.Trips[K]},
                               P.Kind == abi::Policy::Cyclic
                                   ? abi::Policy::Cyclic
                                   : abi::Policy::Block,
                               DI.Values.DataLoops[L].Blocks[K],
                               DI.Topo.Dims[A], DI.Topo.coords(Pos)[A])
                : IndexSet(Range{0, Nest.Trips[K]});
        Per[Pos] = indicesOf(Nest.Loops[K], Its);
      }
      S.Indices.push_back(std::move(Per));
    }
    Labels->push_back(std::move(S));
  }
  DI.Labels = std::move(Labels);
  return true;
}

/// Adds per-position byte counts of one array (by its own positions) to
/// the construct's (by the construct's positions).
void addBytes(std::vector<int64_t> &Total, const std::vector<int> &Devices,
              const std::vector<int> &ArrayDevices,
              const std::vector<int64_t> &Bytes) {
  Total.resize(Devices.size(), 0);
  for (size_t P = 0; P < Bytes.size(); ++P)
    for (size_t Q = 0; Q < Devices.size(); ++Q)
      if (Devices[Q] == ArrayDevices[P])
        Total[Q] += Bytes[P];
}

class DataRunner {
public:
  DataRunner(DataInstance &DI, const MapperArgs &A)
      : DI(DI), D(DI.Info->Desc), A(A) {}

  void begin();
  void end();
  void update();

private:
  std::vector<std::optional<unsigned>> claimItems();
  void forward(MapperCall Call);
  bool planItem(size_t I, const std::vector<const Distribution *> &Before,
                std::unique_ptr<ResidentArray> &Fresh, std::string &Error);
  /// HOMP_MPI_DRY_RUN: the region's arrays planned for that many ranks.
  void printRankPlan() const;
  void followChunks(std::vector<std::unique_ptr<ResidentArray>> &Fresh,
                    const std::vector<size_t> &Items);
  /// Publishes HOMP_INFO's report of the construct (What: "begins",
  /// "ends" or nothing), which began at Start.
  void report(const char *What, Clock::time_point Start);
  std::string reportText(const char *What, double Seconds) const;
  [[noreturn]] void fail(const std::string &Message) {
    constructFatal(*DI.Info, Message);
  }

  DataInstance &DI;
  const abi::Descriptor &D;
  const MapperArgs &A;
  std::vector<bool> Claimed;
  std::vector<int64_t> In, Out; ///< bytes per position of DI.Devices
  DeviceSeconds Took;           ///< each device's time on its copies
};

std::vector<std::optional<unsigned>> DataRunner::claimItems() {
  Claimed.assign(A.NumArgs, false);
  std::vector<std::optional<unsigned>> Items;
  for (const ConstructValues::ArrayValues &V : DI.Values.Arrays)
    Items.push_back(claimItemEntry(A.NumArgs, A.ArgBasePtrs, A.ArgPtrs,
                                   A.ArgSizes, A.ArgTypes, V.Base,
                                   V.Mapped ? V.Mapped : V.first(), Claimed));
  return Items;
}

/// Maps the entries homp does not handle on every offload device of the
/// construct, as the standard construct would on one.
void DataRunner::forward(MapperCall Call) {
  std::vector<int32_t> NewIndex(A.NumArgs, -1);
  std::vector<void *> Bases, Ptrs, Names, Mappers;
  std::vector<int64_t> Sizes, Types;
  for (int32_t K = 0; K < A.NumArgs; ++K) {
    if (Claimed[K])
      continue;
    int64_t T = A.ArgTypes[K];
    if (uint64_t Parent = static_cast<uint64_t>(T & MapMemberOfMask) >> 48) {
      if (NewIndex[Parent - 1] < 0)
        fail("a distributed array is a member of a mapped structure or class "
             "(such as 'this->u' in a member function); distributing members "
             "is not supported yet: distribute a pointer to it instead");
      T = (T & ~MapMemberOfMask) |
          (static_cast<int64_t>(NewIndex[Parent - 1] + 1) << 48);
    }
    NewIndex[K] = static_cast<int32_t>(Bases.size());
    Bases.push_back(A.ArgBasePtrs[K]);
    Ptrs.push_back(A.ArgPtrs[K]);
    Sizes.push_back(A.ArgSizes[K]);
    Types.push_back(T);
    Names.push_back(A.ArgNames ? A.ArgNames[K] : nullptr);
    Mappers.push_back(A.ArgMappers ? A.ArgMappers[K] : nullptr);
  }
  if (Bases.empty())
    return;
  int32_t N = static_cast<int32_t>(Bases.size());
  int Host = hostDevice();
  for (int Dev : DI.Devices) {
    if (Dev == Host)
      continue;
    // Entries may point into arrays homp holds there (libomptarget knows
    // their parts): the kernels queued on the device go first.
    waitForQueued(Dev);
    void **NamesP = A.ArgNames ? Names.data() : nullptr;
    void **MappersP = A.ArgMappers ? Mappers.data() : nullptr;
    switch (Call) {
    case MapperCall::Begin:
      __tgt_target_data_begin_mapper(A.Loc, Dev, N, Bases.data(), Ptrs.data(),
                                     Sizes.data(), Types.data(), NamesP,
                                     MappersP);
      break;
    case MapperCall::End:
      __tgt_target_data_end_mapper(A.Loc, Dev, N, Bases.data(), Ptrs.data(),
                                   Sizes.data(), Types.data(), NamesP,
                                   MappersP);
      break;
    case MapperCall::Update:
      __tgt_target_data_update_mapper(A.Loc, Dev, N, Bases.data(), Ptrs.data(),
                                      Sizes.data(), Types.data(), NamesP,
                                      MappersP);
      break;
    }
  }
}

/// Array I of the construct: the resident array it already is (in
/// DI.Arrays[I], a reference taken), or one to make resident (in Fresh),
/// distributed over the construct's devices. Before: the distributions of
/// the arrays before it, which it may be aligned with.
bool DataRunner::planItem(size_t I,
                          const std::vector<const Distribution *> &Before,
                          std::unique_ptr<ResidentArray> &Fresh,
                          std::string &Error) {
  const ConstructValues::ArrayValues &V = DI.Values.Arrays[I];
  const abi::Array &Arr = D.Arrays[I];
  if (ResidentArray *R = acquireResident(V.first())) {
    // Already resident (an enclosing data region): OpenMP counts one more
    // reference and copies nothing, if this construct asks for no more.
    ProductSet Mine = ProductSet::of(V.Shape.Section);
    if (!ProductSet::of(R->Dist.Shape.Section).contains(Mine)) {
      std::vector<int64_t> Ignored;
      releaseResident(R, false, false, Ignored, Error);
      Error = "'" + Arr.Name + "' is already distributed by " + R->Where +
              ", which maps fewer of its elements";
      return false;
    }
    DI.Arrays[I] = R;
    // map(always, to: ...): copied in even so.
    if (Arr.Always && abi::copiesIn(Arr.Map)) {
      std::vector<int64_t> Bytes;
      if (!updateResident(*R, Direction::ToDevice, Mine, R->Dist.Devices, Bytes,
                          Error, &Took))
        return false;
      addBytes(In, DI.Devices, R->Dist.Devices, Bytes);
    }
    return true;
  }
  if (Arr.Present) {
    Error = notPresent(Arr.Name);
    return false;
  }
  DistributionContext Ctx;
  Ctx.Devices = DI.Devices;
  Ctx.Topo = DI.Topo;
  Ctx.FindArray = [&](const std::string &Name) -> const Distribution * {
    for (size_t J = 0; J < I; ++J)
      if (D.Arrays[J].Name == Name && Before[J])
        return Before[J];
    return nullptr;
  };
  Ctx.LabelIndices = [&](const std::string &Label, unsigned K, int Id,
                         IndexSet &S) {
    for (const LabelledSplit &L : *DI.Labels)
      if (L.Label == Label)
        return L.indices(K, Id, S);
    return labelIndices(Label, K, Id, S);
  };
  std::optional<Distribution> Dist =
      distributeArray(Arr, V.Shape, V.Blocks, Ctx, Error, V.Own);
  if (!Dist || !coverSection(*Dist, Arr.Name, Error))
    return false;
  Fresh = std::make_unique<ResidentArray>();
  Fresh->Name = Arr.Name;
  Fresh->Where = std::string("the ") + constructWords(D.Kind) + " at " +
                 DI.Info->Location;
  Fresh->HostBase = V.Base;
  Fresh->Dist = std::move(*Dist);
  Fresh->Map = Arr.Map;
  return true;
}

/// The fresh arrays aligned to a memorizing loop (ALIGN(label), or ALIGN
/// of such an array of this construct along the same dimension) follow its
/// chunks. A label with one that cannot (split along another dimension
/// too, a halo along it other than '*', an ALIGN ratio) keeps its first
/// split: its memory is dropped, and HOMP_INFO says why.
void DataRunner::followChunks(
    std::vector<std::unique_ptr<ResidentArray>> &Fresh,
    const std::vector<size_t> &Items) {
  if (!DI.Labels)
    return;
  std::vector<LabelledSplit *> Of(Fresh.size(), nullptr);
  std::vector<std::pair<LabelledSplit *, std::string>> Refused;
  for (size_t F = 0; F < Fresh.size(); ++F) {
    const abi::Array &Arr = D.Arrays[Items[F]];
    ResidentArray &R = *Fresh[F];
    for (unsigned Dm = 0; Dm < Arr.Rank && !Of[F]; ++Dm) {
      const abi::Policy &P = Arr.Dims[Dm];
      if (P.Kind != abi::Policy::Align || P.ToLoop)
        continue;
      LabelledSplit *L = nullptr;
      for (LabelledSplit &S : *DI.Labels)
        if (S.Label == P.Target && S.Memory)
          L = &S;
      for (size_t G = 0; G < F && !L; ++G)
        if (D.Arrays[Items[G]].Name == P.Target && Of[G] &&
            Fresh[G]->FollowsDim == Dm)
          L = Of[G];
      if (!L)
        continue;
      bool SplitElsewhere = false;
      for (unsigned E = 0; E < R.Dist.Shape.Rank; ++E)
        SplitElsewhere |= E != Dm && R.Dist.Split[E];
      const std::string Why =
          whyCannotFollow(P, R.Dist.Halos[Dm], SplitElsewhere);
      if (!Why.empty())
        Refused.emplace_back(L, "'" + Arr.Name + "' " + Why);
      Of[F] = L;
      R.FollowsDim = Dm;
    }
  }
  // Each device holds every array that follows whole: they must fit in
  // the memory the model gives it (memsize, a GPU's free memory).
  const MachineModel &Model = *policyContext().Model;
  for (LabelledSplit &L : *DI.Labels) {
    if (!L.Memory)
      continue;
    double Whole = 0;
    for (size_t F = 0; F < Fresh.size(); ++F)
      if (Of[F] == &L)
        Whole += static_cast<double>(Fresh[F]->Dist.Shape.ElementSize) *
                 static_cast<double>(
                     ProductSet::of(Fresh[F]->Dist.Shape.Section).volume());
    for (int Id : DI.Devices)
      if (Id >= 0 && static_cast<size_t>(Id) < Model.Devices.size() &&
          Model.Devices[Id].MemoryMB > 0 &&
          Whole > Model.Devices[Id].MemoryMB * 1e6) {
        Refused.emplace_back(&L, "device " + deviceLabel(Id) +
                                     " cannot hold the arrays that would "
                                     "follow its chunks whole");
        break;
      }
  }
  for (auto &[L, Why] : Refused)
    if (L->Memory) {
      L->Memory.reset();
      L->Note += (L->Note.empty() ? "" : "; ") +
                 std::string("not memorizing dynamic: ") + Why;
    }
  for (size_t F = 0; F < Fresh.size(); ++F)
    if (Of[F] && Of[F]->Memory)
      Fresh[F]->Follows = Of[F]->Memory;
}

void DataRunner::report(const char *What, Clock::time_point Start) {
  publishReport(DI.Info->Location, [&] {
    return reportText(
        What, std::chrono::duration<double>(Clock::now() - Start).count());
  });
}

std::string DataRunner::reportText(const char *What, double Seconds) const {
  const DeviceEnvironment &Env = deviceTypes();
  std::vector<DeviceReport> Rows;
  int Host = hostDevice();
  for (size_t P = 0; P < DI.Devices.size(); ++P) {
    DeviceReport R;
    R.Device = DI.Devices[P];
    R.IsHost = R.Device == Host;
    R.Type = deviceTypeName(Env.typeOf(R.Device));
    R.BytesIn = P < In.size() ? In[P] : 0;
    R.BytesOut = P < Out.size() ? Out[P] : 0;
    for (const auto &[Device, Seconds] : Took)
      if (Device == R.Device)
        R.Seconds += Seconds;
    Rows.push_back(R);
  }
  std::string Title =
      std::string(constructWords(D.Kind)) + " " + DI.Info->Location +
      (*What ? " " : "") + What + ": " + std::to_string(D.Arrays.size()) +
      " distributed array" + (D.Arrays.size() == 1 ? "" : "s") + " on " +
      std::to_string(Rows.size()) + " device" + (Rows.size() == 1 ? "" : "s");
  if (DI.Topo.rank() > 1)
    Title += " (topology " + DI.Topo.str() + ")";
  if (D.SharedMemory)
    Title += "; unified shared memory: the devices use the host's copy";
  if (DI.Labels && std::strcmp(What, "begins") == 0)
    for (const LabelledSplit &L : *DI.Labels)
      if (L.Memory)
        Title += "; loop '" + L.Label + "' in " +
                 std::to_string(L.Memory->chunks()) + " chunks of " +
                 std::to_string(L.Memory->chunkSize()) +
                 (L.MemoryByAuto ? " (memorizing dynamic, AUTO's pick: no "
                                   "machine file gives the devices' speeds)"
                                 : " (memorizing dynamic)");
  return formatReport(Title, Seconds, /*Load=*/false, Rows);
}

void DataRunner::begin() {
  Clock::time_point Start = Clock::now();
  std::vector<std::optional<unsigned>> Items = claimItems();
  DI.Arrays.assign(D.Arrays.size(), nullptr);
  // Over an MPI job's ranks: each rank holds its rows alone.
  const std::vector<std::shared_ptr<const RankRows>> Ranks =
      splitRegionOverRanks(*DI.Info, DI.Values, DI.Devices);
  // unified_shared_memory: every device uses the host's copy.
  // The arrays not yet resident are made resident together: each device
  // copies in its parts of all of them at once.
  std::vector<const Distribution *> Dists(D.Arrays.size(), nullptr);
  std::vector<std::unique_ptr<ResidentArray>> Fresh;
  std::vector<size_t> FreshItems;
  std::vector<bool> CopyIn;
  std::string Error;
  for (size_t I = 0; I < D.Arrays.size() && !D.SharedMemory; ++I) {
    std::unique_ptr<ResidentArray> New;
    if (!planItem(I, Dists, New, Error))
      fail(Error);
    if (!New) {
      Dists[I] = &DI.Arrays[I]->Dist;
      continue;
    }
    Dists[I] = &New->Dist;
    FreshItems.push_back(I);
    CopyIn.push_back(abi::copiesIn(D.Arrays[I].Map));
    Fresh.push_back(std::move(New));
  }
  followChunks(Fresh, FreshItems);
  if (!Fresh.empty()) {
    std::vector<std::vector<int64_t>> Bytes;
    std::vector<ResidentArray *> Made =
        makeResidents(std::move(Fresh), CopyIn, Bytes, Error, &Took);
    if (Made.empty())
      fail(Error);
    for (size_t K = 0; K < Made.size(); ++K) {
      DI.Arrays[FreshItems[K]] = Made[K];
      if (!Ranks.empty())
        Made[K]->Ranks = Ranks[FreshItems[K]];
      addBytes(In, DI.Devices, Made[K]->Dist.Devices, Bytes[K]);
    }
  }
  forward(MapperCall::Begin);
  if (D.Kind == ConstructKind::Data) {
    enterDataRegion(DI.Labels);
    DI.Entered = true;
  }
  report("begins", Start);
  printRankPlan();
}

void DataRunner::printRankPlan() const {
  if (settings().MpiDryRun <= 0 || !firstDryRun(DI.Info->Location))
    return;
  // Each rank makes its rows resident from its own host copy; the region's
  // end (a data region's, or 'target exit data') completes every rank's
  // host copy of the arrays it copies back.
  RankPlanInput In;
  In.Ranks = settings().MpiDryRun;
  In.Loop = false;
  int Held = 0;
  for (size_t I = 0; I < D.Arrays.size() && I < DI.Arrays.size(); ++I)
    if (const ResidentArray *R = DI.Arrays[I]) {
      In.Arrays.push_back(rankArrayOf(D.Arrays[I].Name, R->Dist,
                                      abi::copiesOut(D.Arrays[I].Map)));
      In.Arrays.back().Halo = abi::Halo();
      ++Held;
    }
  if (Held == 0)
    return;
  message("%s", describeRankPlan(In, planRanks(In),
                                 std::string(constructWords(D.Kind)) + " " +
                                     DI.Info->Location +
                                     " begins: " + std::to_string(Held) +
                                     " array" + (Held == 1 ? "" : "s"),
                                 D.Kind == ConstructKind::Data
                                     ? "at the region's end"
                                     : "when they leave the devices")
                    .c_str());
}

void DataRunner::end() {
  Clock::time_point Start = Clock::now();
  claimItems();
  if (DI.Entered)
    leaveDataRegion(DI.Labels.get());
  forward(MapperCall::End);
  std::vector<Release> Releases;
  std::vector<std::vector<int>> Devices;
  // The arrays split over the ranks that come back: every rank's host
  // completed with the others' rows after the copies out.
  struct Completion {
    std::shared_ptr<const RankRows> Ranks;
    char *HostBase;
    ArrayShape Shape;
  };
  std::vector<Completion> Completions;
  for (size_t I = D.SharedMemory ? 0 : D.Arrays.size(); I-- > 0;) {
    ResidentArray *R = DI.Arrays.empty() ? nullptr : DI.Arrays[I];
    if (R && R->Ranks && abi::copiesOut(D.Arrays[I].Map))
      Completions.push_back({R->Ranks, R->HostBase, R->Dist.Shape});
    if (!R) {
      // 'target exit data': the array some earlier construct made resident.
      R = acquireResident(DI.Values.Arrays[I].first());
      if (!R) {
        // Not on the devices (its 'target enter data' ran on the host, say,
        // and warned): OpenMP's exit of what is not present does nothing.
        constructNote(*DI.Info, "'" + D.Arrays[I].Name +
                                    "' is not on the devices: its 'target "
                                    "exit data' does nothing");
        continue;
      }
      std::vector<int64_t> Ignored;
      std::string Error;
      releaseResident(R, false, false, Ignored, Error); // the lookup's
    }
    abi::MapType M = D.Arrays[I].Map;
    bool CopyOut = abi::copiesOut(M);
    // 'exit data map(from: x[2:4])' of an array made resident as x[0:n]:
    // at the last reference OpenMP copies the list item back, not the
    // whole array (the host's other elements keep its values).
    const ProductSet Item = ProductSet::of(DI.Values.Arrays[I].Shape.Section);
    if (CopyOut && !D.Arrays[I].Always && R->RefCount == 1 &&
        !Item.contains(ProductSet::of(R->Dist.Shape.Section))) {
      std::vector<int64_t> Bytes;
      std::string Error;
      if (!updateResident(*R, Direction::FromDevice, Item, R->Dist.Devices,
                          Bytes, Error, &Took))
        fail(Error);
      addBytes(Out, DI.Devices, R->Dist.Devices, Bytes);
      CopyOut = false;
    }
    if (CopyOut && D.Arrays[I].Always) {
      // map(always, from: ...): copied out even when an enclosing region
      // keeps the array.
      std::vector<int64_t> Bytes;
      std::string Error;
      if (!updateResident(*R, Direction::FromDevice,
                          ProductSet::of(DI.Values.Arrays[I].Shape.Section),
                          R->Dist.Devices, Bytes, Error, &Took))
        fail(Error);
      addBytes(Out, DI.Devices, R->Dist.Devices, Bytes);
      CopyOut = false;
    }
    Releases.push_back({R, CopyOut, M == abi::MapType::Delete});
    Devices.push_back(R->Dist.Devices); // R may be gone after the release
  }
  // Each device copies out and frees its parts of all of them at once.
  std::vector<std::vector<int64_t>> Bytes;
  std::string Error;
  if (!releaseResidents(Releases, Bytes, Error, &Took))
    fail(Error);
  for (size_t K = 0; K < Releases.size(); ++K)
    addBytes(Out, DI.Devices, Devices[K], Bytes[K]);
  for (const Completion &C : Completions)
    completeRows(DI.Info->Location, *C.Ranks, C.HostBase, C.Shape,
                 C.Ranks->Whole);
  report("ends", Start);
}

void DataRunner::update() {
  Clock::time_point Start = Clock::now();
  std::vector<std::optional<unsigned>> Entries = claimItems();
  std::vector<ResidentArray *> Resident(D.Arrays.size(), nullptr);
  for (size_t I = 0; I < D.Arrays.size() && !D.SharedMemory; ++I) {
    Resident[I] = acquireResident(DI.Values.Arrays[I].first());
    if (!Resident[I] && anyResident()) {
      // Split over the ranks, this rank may not hold the section's first
      // row: found by its base.
      ResidentArray *R = acquireResidentByBase(DI.Values.Arrays[I].Base);
      std::vector<int64_t> Ignored;
      std::string Error;
      if (R && R->Ranks)
        Resident[I] = R;
      else if (R)
        releaseResident(R, false, false, Ignored, Error);
    }
    if (Resident[I])
      continue;
    if (D.Arrays[I].Present)
      fail("'target update' of '" + D.Arrays[I].Name +
           "', which is not on the devices (to(present: ...)): no data "
           "region or 'target enter data' distributes it");
    // Not homp's: libomptarget updates each device's copy where it maps
    // one, and copies nothing where none is present, as OpenMP says (a
    // data region whose 'if' was false, say).
    if (Entries[I])
      Claimed[*Entries[I]] = false;
    constructNote(*DI.Info, "'target update' of '" + D.Arrays[I].Name +
                                "', which homp does not hold on the devices: "
                                "left to libomptarget");
  }
  forward(MapperCall::Update);
  for (size_t I = 0; I < D.Arrays.size(); ++I) {
    ResidentArray *R = Resident[I];
    if (!R)
      continue;
    Direction Dir = D.Arrays[I].Map == abi::MapType::From
                        ? Direction::FromDevice
                        : Direction::ToDevice;
    std::vector<int64_t> Bytes;
    std::string Error;
    // Split over the ranks: this rank's rows, then (from) every rank's host
    // completed with the others'.
    const Box Asked = DI.Values.Arrays[I].Shape.Section;
    if (!updateResident(
            *R, Dir,
            ProductSet::of(R->Ranks ? Asked.intersect(R->Dist.Shape.Section)
                                    : Asked),
            DI.Devices, Bytes, Error, &Took))
      fail(Error);
    addBytes(Dir == Direction::ToDevice ? In : Out, DI.Devices, R->Dist.Devices,
             Bytes);
    if (R->Ranks && Dir == Direction::FromDevice)
      completeRows(DI.Info->Location, *R->Ranks, R->HostBase, R->Dist.Shape,
                   Asked);
    std::vector<int64_t> Ignored;
    if (!releaseResident(R, false, false, Ignored, Error))
      fail(Error);
  }
  report("", Start);
}

} // namespace

Instance *beginDataConstruct(ConstructInfo &Info, va_list Values) {
  if (settings().Offload == OffloadPolicy::Disabled) {
    refuseHostFallback(Info, "OMP_TARGET_OFFLOAD=DISABLED runs it on the host");
    return nullptr;
  }
  checkMachineFile();
  auto DI = std::make_unique<DataInstance>();
  DI->Info = &Info;
  DI->Values = readValues(Info, Values);
  if (!DI->Values.IfTrue) {
    refuseHostFallback(Info, "its 'if' clause is false");
    constructNote(Info, "its 'if' clause is false: it runs on the host");
    return nullptr;
  }
  DI->Devices = selectDevices(Info.Desc, DI->Values);
  if (DI->Devices.empty()) {
    constructError(Info, noDevicesMessage());
    return nullptr;
  }
  if (std::string Why = sharedMemoryProblem(Info.Desc, DI->Devices);
      !Why.empty()) {
    constructError(Info, Why);
    return nullptr;
  }
  std::string Error;
  std::optional<Topology> Topo = constructTopology(
      Info.Desc, DI->Values, static_cast<unsigned>(DI->Devices.size()), Error);
  if (!Topo) {
    constructError(Info, Error);
    return nullptr;
  }
  DI->Topo = *Topo;
  if (!splitLabelledLoops(*DI, Error)) {
    constructError(Info, Error);
    return nullptr;
  }
  return DI.release();
}

void runDataConstruct(Instance *I, MapperCall Call, const MapperArgs &A) {
  auto *DI = static_cast<DataInstance *>(I);
  DataRunner R(*DI, A);
  ConstructKind K = DI->Info->Desc.Kind;
  switch (Call) {
  case MapperCall::Begin:
    R.begin();
    if (K == ConstructKind::EnterData)
      delete DI; // no end comes; the arrays stay resident
    return;
  case MapperCall::End:
    R.end();
    delete DI;
    return;
  case MapperCall::Update:
    R.update();
    delete DI;
    return;
  }
}

} // namespace homp
