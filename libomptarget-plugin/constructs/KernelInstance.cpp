//===-- KernelInstance.cpp - A kernel's values, devices and plan ----------===//
//
// What a distributed kernel's marker begins (beginKernel): its values read
// when the construct is encountered and its devices selected; and, when it
// runs (launchKernel), its schedule decided and its plan made, with the
// resident arrays it uses. Launch.cpp then runs the plan.
//
//===----------------------------------------------------------------------===//

#include "Launch.h"
#include "Launcher.h"

#include "Devices.h"
#include "Machine.h"
#include "Messages.h"
#include "Observe.h"
#include "RankKernel.h"

#include "homp/Info.h"
#include "homp/Partition.h"
#include "homp/RankPlan.h"
#include "homp/Scheduler.h"
#include "homp/Trace.h"

#include <algorithm>
#include <mutex>

namespace homp {

using namespace launch;

KernelInstance::~KernelInstance() {
  std::vector<int64_t> Bytes;
  std::string Error;
  for (std::vector<ResidentArray *> *List : {&AccessResidents, &ItemResidents})
    for (ResidentArray *R : *List)
      if (R && !releaseResident(R, abi::copiesOut(R->Map), false, Bytes, Error))
        constructFatal(*Info, Error);
}

/// What one iteration of loop L costs, for the model (homp/Model.h's
/// loopCost): the arrays aligned with the loop and the duplicated ones
/// (resident arrays never move), and the operations the plugin counted in
/// the body, once per iteration of the loops inside L.
static LoopCost kernelLoopCost(const KernelInstance &K, unsigned L,
                               const LoopNest &Nest) {
  const abi::Descriptor &D = K.Info->Desc;
  double Flops = bodyOperations(D, K.Values.BodyLoops);
  for (unsigned I = 0; I < Nest.Rank; ++I)
    if (I != L)
      Flops *= static_cast<double>(std::max<int64_t>(1, Nest.Trips[I]));
  std::vector<CostedArray> Arrays;
  for (size_t I = 0; I < D.Arrays.size(); ++I) {
    if (K.ItemIsResident[I])
      continue; // never moved
    const abi::Array &A = D.Arrays[I];
    const ArrayShape &Sh = K.Values.Arrays[I].Shape;
    CostedArray C;
    C.Bytes = static_cast<double>(Sh.ElementSize) *
              static_cast<double>(ProductSet::of(Sh.Section).volume());
    C.Ways = abi::copiesIn(A.Map) + abi::copiesOut(A.Map);
    C.FollowsLoop = followsLoop(D, A);
    C.Distributed = A.distributed();
    Arrays.push_back(C);
  }
  return loopCost(Flops, Nest.Trips[L], Arrays);
}

/// Decides the schedule of the nest's first AUTO loop, if it has one, and
/// gives the planner the split: the shares, or for a loop that runs in
/// parts the sample's weights over the whole loop (to check the plan).
static void scheduleKernel(KernelInstance &K, KernelPlanInput &In) {
  const abi::Descriptor &D = K.Info->Desc;
  auto Loop =
      std::find_if(D.Loops.begin(), D.Loops.end(), [](const abi::Loop &L) {
        return L.Dist.Kind == abi::Policy::Auto;
      });
  if (Loop == D.Loops.end())
    return;
  LoopNest Nest = K.Nest;
  unsigned Bad;
  if (!Nest.computeTrips(Bad))
    return; // the planner reports it
  unsigned L = static_cast<unsigned>(Loop - D.Loops.begin());
  Clock::time_point Began = Clock::now();
  K.SchedTrips = Nest.Trips[L];
  // An AUTO loop whose data region memorizes it for AUTO runs SCHED_DYNAMIC
  // over the region's chunks (rememberChunks), learning nothing as AUTO.
  abi::Policy Policy = Loop->Dist;
  std::optional<LabelMemory> Memorized =
      D.Label.empty() || Policy.Sched != abi::SchedKind::Auto
          ? std::nullopt
          : labelMemory(D.Label);
  const bool ByAuto = Policy.Sched == abi::SchedKind::Auto && Memorized &&
                      Memorized->ByAuto && Memorized->Devices == K.Devices;
  if (ByAuto) {
    Policy.Sched = abi::SchedKind::Dynamic;
    Policy.Chunk = abi::Amount{Memorized->Memory->chunkSize(), 0};
  }
  K.Sched = scheduleLoop(*K.Info, Policy, K.Devices, K.SchedTrips,
                         kernelLoopCost(K, L, Nest));
  K.MemoryByAuto = ByAuto;
  if (ByAuto)
    K.Sched->Why = "AUTO over resident data, memorizing";
  // A duplicated array mapped back is merged once per device: its parts
  // must not come in pieces.
  for (size_t I = 0; I < D.Arrays.size(); ++I)
    if (K.Sched->Mode != LoopSchedule::Shares && !D.Arrays[I].distributed() &&
        abi::copiesOut(D.Arrays[I].Map) && !K.ItemIsResident[I]) {
      inOneSharePerDevice(policyContext(), *K.Sched, K.Devices, K.SchedTrips,
                          "'" + D.Arrays[I].Name +
                              "' is duplicated and mapped back");
      break;
    }
  std::string Shares;
  for (unsigned P = 0; P < K.Devices.size(); ++P) {
    Range R = weightedBlockPart(K.SchedTrips, K.Sched->Weights, P);
    In.Scheduled.push_back(R.Begin < R.End ? IndexSet(R) : IndexSet());
    std::string Id = deviceLabel(K.Devices[P]);
    if (K.Sched->Weights[P] <= 0)
      K.CutOff += (K.CutOff.empty() ? "" : ", ") + Id;
    if (K.Sched->Mode == LoopSchedule::Shares)
      Shares += (Shares.empty() ? "" : ",") + Id + ":" +
                std::to_string(R.End - R.Begin);
  }
  const std::vector<std::pair<std::string, std::string>> Args = {
      {"schedule", traceString(K.Sched->describe())},
      {"iterations", traceNumber(K.SchedTrips)},
      {"shares", traceString(Shares)},
      {"cut off", traceString(K.CutOff)}};
  Event E;
  E.Kind = EventKind::Schedule;
  E.Device = hostDevice();
  E.Name = &K.Info->Location;
  E.Start = Began;
  E.End = Clock::now();
  E.Args = &Args;
  publish(E);
}

/// Reads K's values and selects its devices (beginKernel): what the
/// construct says when it is encountered. nullptr when it runs on the host.
static KernelInstance *selectInstance(std::unique_ptr<KernelInstance> K) {
  ConstructInfo &Info = *K->Info;
  const abi::Descriptor &D = Info.Desc;
  K->Values = readValues(Info, K->RawValues);
  K->Nest.Rank = static_cast<unsigned>(D.Loops.size());
  for (unsigned L = 0; L < K->Nest.Rank; ++L) {
    const abi::ChunkLoop &C = K->Loops.Loops[L];
    K->Nest.Loops[L] = {C.First, C.Bound, C.Step, D.Loops[L].Op};
  }
  if (!K->Values.IfTrue) {
    // OpenMP's host fallback, on the host's own data.
    refuseHostFallback(Info, "its 'if' clause is false");
    constructNote(Info, "its 'if' clause is false: it runs on the host");
    K->HostOnlyWhy = "its 'if' clause is false";
    K->HostAsAsked = true;
    return K.release();
  }
  // A kernel that cannot run on its devices runs on the host: through
  // clang's host fallback, or, when it uses arrays resident on the devices
  // (known only when it runs), with them gathered there (launchKernel).
  auto OnHost = [&](std::string Why) {
    K->HostOnlyWhy = std::move(Why);
    return K.release();
  };
  for (size_t I = 0; I < D.Reductions.size(); ++I) {
    const ConstructValues::ReductionValues &R = K->Values.Reductions[I];
    std::optional<ScalarType> T = decodeScalarType(R.TypeCode, R.Size);
    if (!T || !reductionApplies(D.Reductions[I].Op, *T))
      return OnHost("cannot reduce '" + D.Reductions[I].Name + "' with '" +
                    abi::reductionOpName(D.Reductions[I].Op) +
                    "' across devices: unsupported type");
  }
  K->Devices = selectDevices(D, K->Values);
  if (K->Devices.empty())
    return OnHost(noDevicesMessage());
  if (std::string Why = sharedMemoryProblem(D, K->Devices); !Why.empty())
    return OnHost(Why);
  std::string Error;
  std::optional<Topology> Topo = constructTopology(
      D, K->Values, static_cast<unsigned>(K->Devices.size()), Error);
  if (!Topo)
    return OnHost(Error);
  K->Topo = *Topo;
  return K.release();
}

/// The resident array access I of K uses, among those at its address (one
/// array's sections made resident apart): the one whose section holds all
/// the elements the access may touch. nullptr when none is resident there;
/// K.OnHost when no single one holds them.
static ResidentArray *accessResident(KernelInstance &K, size_t I,
                                     const abi::Access &Use) {
  void *Addr = K.Values.AccessAddresses[I];
  std::vector<ResidentArray *> All =
      Addr ? acquireResidentsByBase(Addr) : std::vector<ResidentArray *>();
  if (All.size() <= 1)
    return All.empty() ? nullptr : All[0];
  LoopNest Nest = K.Nest;
  unsigned Bad;
  std::optional<Box> Uses =
      Nest.computeTrips(Bad) ? footprintOf(Use, Nest) : std::nullopt;
  ResidentArray *Chosen = nullptr;
  for (ResidentArray *R : All)
    if (!Chosen && Uses && Uses->Rank == R->Dist.Shape.Rank &&
        (Uses->empty() || R->Dist.Shape.Section.contains(*Uses)))
      Chosen = R;
  std::vector<int64_t> Ignored;
  std::string Error;
  for (ResidentArray *R : All)
    if (R != Chosen)
      releaseResident(R, false, false, Ignored, Error);
  if (!Chosen && !K.OnHost) {
    K.OnHost = true;
    K.OnHostWhy =
        "'" + Use.Name + "' is resident in " + std::to_string(All.size()) +
        " sections made resident apart, and " +
        (Uses ? "the loop uses elements " + Uses->str() +
                    ", which no one of them holds"
              : "homp cannot bound the elements the loop uses (" +
                    (Use.Why.empty() ? std::string("no subscript") : Use.Why) +
                    ")");
  }
  return Chosen;
}

/// The loop labelled for a data region that remembers its chunks
/// (SPEC 3, memorizing dynamic): K keeps their owners, or follows them
/// when its memory says so (its first execution, a drift) and it can: its
/// schedule runs in parts, every split resident array it uses follows
/// the chunks over the region's devices, and no other construct holds one.
/// HOMP_MPI_DRY_RUN: K's construct planned for that many ranks (RankPlan.h),
/// printed at its first execution. The loop split over the ranks is the
/// first distributed one. Every rank has the program's host arrays, so a
/// kernel's parts and halos come from its own host memory: its halos need
/// no messages (a resident array's come at halo updates).
static void printRankPlan(const KernelInstance &K) {
  if (settings().MpiDryRun <= 0 || !K.Plan ||
      K.Plan->Placement != KernelPlan::Split || !firstDryRun(K.Info->Location))
    return;
  const abi::Descriptor &D = K.Info->Desc;
  RankPlanInput In;
  In.Ranks = settings().MpiDryRun;
  const std::string Title = "region " + K.Info->Location + ": ";
  // A kernel over no resident data: the split a job of that many ranks
  // would run (RankKernel.h).
  if (std::none_of(K.ItemResidents.begin(), K.ItemResidents.end(),
                   [](const ResidentArray *R) { return R; }) &&
      std::none_of(K.AccessResidents.begin(), K.AccessResidents.end(),
                   [](const ResidentArray *R) { return R; }) &&
      !anyResident()) {
    const RankKernelSplit S = rankSplitOf(K, In.Ranks);
    if (!S.Why.empty()) {
      message("homp: dry run (HOMP_MPI_DRY_RUN): %s%lld iterations run whole "
              "on every one of the %d ranks: %s\n",
              Title.c_str(), static_cast<long long>(K.Nest.iterations()),
              In.Ranks, S.Why.c_str());
      return;
    }
    In.Trips = K.Nest.Trips[S.Loop];
    RankPlan P;
    P.Iterations = S.Iterations;
    P.GatherBytes.assign(In.Ranks, 0);
    for (size_t I = 0; I < D.Arrays.size(); ++I) {
      const ArrayShape &Sh = K.Values.Arrays[I].Shape;
      RankArray A;
      A.Name = D.Arrays[I].Name;
      A.Rows = Sh.Section.Dims[0];
      A.Split = true; // its rows: those each rank maps
      A.CopiesOut = abi::copiesOut(D.Arrays[I].Map);
      In.Arrays.push_back(A);
      std::vector<Range> Rows;
      int64_t Written = 0;
      for (int R = 0; R < In.Ranks; ++R) {
        Rows.push_back(S.Sections[I][R].Dims[0]);
        Written += S.Written[I][R].volume() * Sh.ElementSize;
      }
      for (int R = 0; R < In.Ranks; ++R)
        P.GatherBytes[R] += Written - S.Written[I][R].volume() * Sh.ElementSize;
      P.Rows.push_back(std::move(Rows));
    }
    message("%s", describeRankPlan(
                      In, P, Title + std::to_string(In.Trips) + " iterations")
                      .c_str());
    return;
  }
  for (unsigned L = 0; L < D.Loops.size() && L < K.Nest.Rank; ++L)
    if (D.Loops[L].Dist.distributed()) {
      In.Trips = K.Nest.Trips[L];
      In.First = K.Nest.Loops[L].First;
      In.Step = K.Nest.Loops[L].Step;
      break;
    }
  // The kernel's arrays (a resident one as its data region split it, and
  // copied back at the region's end), then the resident arrays it uses
  // without mapping them.
  std::vector<const ResidentArray *> Seen;
  for (size_t I = 0; I < D.Arrays.size() && I < K.Plan->Items.size(); ++I) {
    const ResidentArray *R =
        I < K.ItemResidents.size() ? K.ItemResidents[I] : nullptr;
    In.Arrays.push_back(rankArrayOf(D.Arrays[I].Name,
                                    R ? R->Dist : K.Plan->Items[I],
                                    !R && abi::copiesOut(D.Arrays[I].Map)));
    Seen.push_back(R);
  }
  for (const ResidentArray *R : K.AccessResidents)
    if (R && std::find(Seen.begin(), Seen.end(), R) == Seen.end()) {
      In.Arrays.push_back(rankArrayOf(R->Name, R->Dist, false));
      Seen.push_back(R);
    }
  for (RankArray &A : In.Arrays)
    A.Halo = abi::Halo();
  // Over a split resident array the loop is owner computes: it follows the
  // first such array's rows.
  if (K.Plan->ScheduledLoop < 0)
    for (size_t I = 0; I < Seen.size() && In.Follow < 0; ++I)
      if (Seen[I] && In.Arrays[I].Split)
        In.Follow = static_cast<int>(I);
  message("%s", describeRankPlan(In, planRanks(In),
                                 "region " + K.Info->Location + ": " +
                                     std::to_string(In.Trips) + " iterations")
                    .c_str());
}

static void rememberChunks(KernelInstance &K) {
  const abi::Descriptor &D = K.Info->Desc;
  std::optional<LabelMemory> L = labelMemory(D.Label);
  if (!L)
    return;
  K.Memory = L->Memory;
  K.MemoryBounds = L->Bounds;
  std::string Why;
  auto Loop =
      std::find_if(D.Loops.begin(), D.Loops.end(), [](const abi::Loop &X) {
        return X.Dist.Kind == abi::Policy::Auto;
      });
  if (static_cast<unsigned>(Loop - D.Loops.begin()) != L->Loop ||
      L->Loop >= K.Nest.Rank || K.Nest.Trips[L->Loop] != K.Memory->trips() ||
      K.Nest.Loops[L->Loop].First != L->Bounds.First ||
      K.Nest.Loops[L->Loop].Step != L->Bounds.Step)
    Why = "its bounds are not those its data region split";
  else if (K.Devices != L->Devices)
    Why = "it runs on other devices than its data region";
  else if (K.Sched->Block || K.Sched->Mode == LoopSchedule::Shares)
    Why = "its schedule (" + K.Sched->describe() + ") runs no chunks";
  for (const std::vector<ResidentArray *> *List :
       {&K.ItemResidents, &K.AccessResidents})
    for (ResidentArray *R : *List) {
      if (!R || R->Dist.duplicated() ||
          std::find(K.Followers.begin(), K.Followers.end(), R) !=
              K.Followers.end())
        continue;
      if (R->Follows != K.Memory || R->Dist.Devices != K.Devices) {
        Why = "'" + R->Name + "' (distributed by " + R->Where +
              ") does not follow its chunks";
        continue;
      }
      K.Followers.push_back(R);
    }
  // An array the kernel splits itself, other than with the loop, stays
  // where its split puts it, away from chunks that move.
  for (size_t I = 0; I < D.Arrays.size(); ++I)
    if (!K.ItemIsResident[I] && D.Arrays[I].distributed() &&
        !followsLoop(D, D.Arrays[I]))
      Why = "'" + D.Arrays[I].Name +
            "' is split by the kernel itself, not with its chunks";
  // The data region's reference and this kernel's own.
  for (ResidentArray *R : K.Followers) {
    long Own = 1;
    for (const std::vector<ResidentArray *> *List :
         {&K.ItemResidents, &K.AccessResidents})
      Own += std::count(List->begin(), List->end(), R);
    if (residentReferences(*R) > Own)
      Why = "another construct holds '" + R->Name + "' too";
  }
  // A chunk whose elements reach past its rows (a write of x[i + 1])
  // cannot run away from its owner: one in the middle, planned on the next
  // device, tells.
  if (K.Memory->following() && Why.empty() && K.Memory->chunks() > 1 &&
      K.Devices.size() > 1) {
    const int64_t C = K.Memory->chunks() / 2;
    const auto To =
        static_cast<unsigned>((K.Memory->owner(C) + 1) % K.Devices.size());
    KernelPlan Plan;
    std::vector<std::unique_ptr<Distribution>> Dists;
    std::string Error;
    if (!planChunkOn(K, To, IndexSet(K.Memory->chunk(C)), Plan, Dists, Error))
      Why = Error;
  }
  K.Follow = K.Memory->following() && Why.empty();
  if (K.Follow)
    K.MemoryNote = "memorizing dynamic, as " + K.Memory->followWhy() +
                   " follows its chunks";
  else if (K.Memory->following())
    K.MemoryNote = "it cannot follow them: " + Why;
}

bool launch::planInstance(KernelInstance &K) {
  ConstructInfo &Info = *K.Info;
  const abi::Descriptor &D = Info.Desc;
  if (K.HostAsAsked)
    return false;
  if (!K.HostOnlyWhy.empty()) {
    // Only resident arrays need homp on the host; else the host version.
    KernelPlanInput In;
    In.Accesses = withTerms(D.Accesses, K.Values.SubscriptTerms);
    bool UsesResidents = false;
    for (const ConstructValues::ArrayValues &A : K.Values.Arrays) {
      ResidentArray *R = acquireResident(A.first());
      K.ItemResidents.push_back(R);
      K.ItemIsResident.push_back(R != nullptr);
      UsesResidents |= R != nullptr;
    }
    for (size_t I = 0; I < In.Accesses.size(); ++I) {
      ResidentArray *R = accessResident(K, I, In.Accesses[I]);
      K.AccessResidents.push_back(R);
      UsesResidents |= R != nullptr;
    }
    if (!UsesResidents && !anyResident()) {
      constructError(Info, K.HostOnlyWhy);
      return false;
    }
    // (Any resident array: the kernel may use one the plugin did not see,
    // findEntries looks.)
    K.OnHost = true;
    if (K.OnHostWhy.empty())
      K.OnHostWhy = K.HostOnlyWhy;
    return true;
  }
  KernelPlanInput In;
  In.Desc = &D;
  In.Devices = K.Devices;
  In.Topo = K.Topo;
  In.Nest = K.Nest;
  In.LoopBlocks = K.Values.LoopBlocks;
  In.Accesses = withTerms(D.Accesses, K.Values.SubscriptTerms);
  bool UsesResidents = false;
  for (const ConstructValues::ArrayValues &A : K.Values.Arrays) {
    In.ItemShapes.push_back(A.Shape);
    In.ItemBlocks.push_back(A.Blocks);
    In.ItemOwnDevices.push_back(A.Own);
    ResidentArray *R = acquireResident(A.first());
    const abi::Array &Item = D.Arrays[K.ItemResidents.size()];
    if (!R && Item.Present)
      constructFatal(Info, notPresent(Item.Name));
    // OpenMP: an item present in part is an error, not a mapping of the
    // rest.
    if (R && !ProductSet::of(R->Dist.Shape.Section)
                  .contains(ProductSet::of(A.Shape.Section)))
      constructFatal(Info, "'" + Item.Name + "' is already distributed by " +
                               R->Where + ", which maps fewer of its elements");
    K.ItemResidents.push_back(R);
    K.ItemIsResident.push_back(R != nullptr);
    In.ItemResidents.push_back(R ? &R->Dist : nullptr);
    UsesResidents |= R != nullptr;
  }
  // An access's address is its array's element [0]...[0], which a section
  // starting later ('a[0:n][1:m - 1]') does not hold: found by its base.
  for (size_t I = 0; I < In.Accesses.size(); ++I) {
    ResidentArray *R = accessResident(K, I, In.Accesses[I]);
    K.AccessResidents.push_back(R);
    In.AccessResidents.push_back(
        {R ? &R->Dist : nullptr, R ? R->Where : std::string()});
    UsesResidents |= R != nullptr;
  }
  if (K.OnHost)
    return true;
  In.LabelIndices = labelIndices;
  scheduleKernel(K, In);
  std::vector<uint64_t> ResidentIds;
  for (const std::vector<ResidentArray *> *List :
       {&K.ItemResidents, &K.AccessResidents})
    for (const ResidentArray *R : *List)
      ResidentIds.push_back(R ? R->Id : 0);
  if (Info.PurePlans)
    K.Plan = Info.Plans.find(In, ResidentIds);
  if (!K.Plan) {
    auto Plan = std::make_shared<KernelPlan>();
    std::string Error;
    if (!planKernel(In, *Plan, Error)) {
      // Data lives on the devices: the host runs the kernel with it
      // gathered there.
      if (UsesResidents) {
        K.OnHost = true;
        K.OnHostWhy = Error;
        return true;
      }
      constructError(Info, Error);
      return false;
    }
    if (Plan->Placement == KernelPlan::OneDevice) {
      // Every array is whole on one device: the first.
      K.OneDeviceWhy = Plan->Why;
      K.Devices.resize(1);
      K.Topo = Topology::line(1);
      K.Sched.reset();
      K.CutOff.clear();
      In.Devices = K.Devices;
      In.Topo = K.Topo;
      In.Scheduled.clear();
      Plan = std::make_shared<KernelPlan>();
      if (!planKernel(In, *Plan, Error) ||
          Plan->Placement != KernelPlan::Split) {
        constructError(Info, Error.empty() ? Plan->Why : Error);
        return false;
      }
    } else if (Plan->Placement == KernelPlan::OnHost) {
      K.OnHost = true;
      K.OnHostWhy = Plan->Why;
      return true;
    }
    K.Plan = std::move(Plan);
    if (Info.PurePlans && K.OneDeviceWhy.empty())
      Info.Plans.store(In, std::move(ResidentIds), K.Plan);
  }
  K.PlanIn = std::move(In);
  unsigned Bad;
  K.Nest.computeTrips(Bad);
  printRankPlan(K);
  if (K.Sched && K.Plan->ScheduledLoop < 0 && !D.Label.empty())
    rememberChunks(K);
  if (K.Follow)
    return true;
  if (K.Sched && K.Plan->ScheduledLoop < 0 && K.Memory) {
    // Its chunks stay where they ran (the report names their owners).
    K.NotScheduled =
        std::string("the ") +
        (K.MemoryByAuto ? "AUTO" : abi::schedKindSpelling(K.Sched->Kind)) +
        " loop '" + D.Label + "' " +
        (K.Memory->follows() == 0
             ? "keeps the split its data region gave it"
             : "runs its chunks where they ran before (memorizing dynamic)") +
        (K.MemoryNote.empty() ? "" : " (" + K.MemoryNote + ")");
    K.Sched.reset();
  } else if (K.Sched && K.Plan->ScheduledLoop < 0) {
    // Resident data never moves: the loop's own kind gives way.
    std::string Kind = K.Sched->ChoseAuto || K.Sched->Block
                           ? std::string("AUTO")
                           : abi::schedKindSpelling(K.Sched->Kind);
    std::string Note = D.Label.empty() ? "" : labelNote(D.Label);
    // A label no data region split ('loop1' that no array aligns to):
    // the arrays' parts gave the split.
    IndexSet Ignored;
    const bool RegionSplit =
        !D.Label.empty() &&
        labelIndices(D.Label, 0, K.Devices.front(), Ignored);
    K.NotScheduled =
        RegionSplit
            ? "the " + Kind + " loop '" + D.Label +
                  "' keeps the split its data region gave it" +
                  (Note.empty() ? "" : " (" + Note + ")")
            : "the " + Kind +
                  " loop follows the parts of the arrays it uses (owner "
                  "computes)";
    K.Sched.reset();
  }
  return true;
}

KernelInstance *beginKernel(ConstructInfo &Info, void *ChunkVar,
                            va_list Values) {
  auto K = std::make_unique<KernelInstance>();
  K->Info = &Info;
  K->ChunkVar = static_cast<abi::Chunk *>(ChunkVar);
  K->Loops = *K->ChunkVar;
  // OMP_TARGET_OFFLOAD=DISABLED: every region runs on the host, silently.
  if (settings().Offload == OffloadPolicy::Disabled) {
    refuseHostFallback(Info, "OMP_TARGET_OFFLOAD=DISABLED runs it on the host");
    K->HostOnlyWhy = "OMP_TARGET_OFFLOAD=DISABLED";
    K->HostAsAsked = true;
    return K.release();
  }
  checkMachineFile();
  K->RawValues = readRawValues(Info, Values);
  return selectInstance(std::move(K));
}

} // namespace homp
