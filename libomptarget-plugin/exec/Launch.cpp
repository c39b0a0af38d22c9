//===-- Launch.cpp - Running a distributed kernel on its devices ----------===//

#include "Launch.h"
#include "Launcher.h"

#include "DeviceArgs.h"
#include "Devices.h"
#include "Machine.h"
#include "Observe.h"
#include "OffloadTransport.h"
#include "ProxyPool.h"
#include "RankKernel.h"
#include "Residency.h"

#include "homp/CoreShares.h"
#include "homp/Info.h"
#include "homp/Partition.h"
#include "homp/Reduction.h"
#include "homp/Scheduler.h"
#include "homp/Trace.h"

#include <omp.h>
#include <sched.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <memory>

namespace homp {

namespace launch {

/// Runs K's host version in place, on the host's memory, as clang's host
/// fallback would, but with K's own copy of the loop bounds: the chunk
/// variable lives in the block around the construct, which a 'nowait'
/// kernel's task may outlive. Returns 0, or 1 when only clang's fallback
/// can run it (no host version).
int runHostVersion(KernelInstance &K, KernelArgs &Args, HostThunk Thunk) {
  std::vector<bool> Claimed(Args.NumArgs, false);
  std::optional<unsigned> C = claimEntry(Args, K.ChunkVar, Claimed);
  if (!Thunk || !C || Args.Version != SupportedKernelArgsVersion)
    return 1;
  abi::Chunk Loops = K.Loops;
  DeviceArgs A(Args);
  A.setEntry(*C, &Loops);
  std::vector<void *> Params = A.hostParams();
  int Rc = 0;
  runHostVersionSafely(
      [&] { Rc = Thunk(Params.data(), static_cast<int64_t>(Params.size())); });
  if (Rc != 0)
    constructFatal(*K.Info,
                   "the homp pass's host entry does not match the region");
  return 0;
}

/// Whether entry K of Args is a kernel parameter libomptarget maps (the
/// kind homp can take over for a resident array).
bool isMappedParam(const KernelArgs &Args, unsigned K) {
  int64_t T = Args.ArgTypes[K];
  return (T & MapTargetParam) && !(T & (MapLiteral | MapPrivate)) &&
         !(T & MapMemberOfMask);
}

bool Launcher::findEntries(std::string &Error) {
  std::vector<bool> Claimed(Args.NumArgs, false);
  std::optional<unsigned> C = claimEntry(Args, K.ChunkVar, Claimed);
  if (!C) {
    Error = "the region's kernel does not take homp's chunk variable (was it "
            "compiled by another homp version?)";
    return false;
  }
  E.Chunk = *C;
  for (size_t I = 0; I < D.Arrays.size(); ++I) {
    std::optional<unsigned> AK =
        claimItemEntry(Args.NumArgs, Args.ArgBasePtrs, Args.ArgPtrs,
                       Args.ArgSizes, Args.ArgTypes, K.Values.Arrays[I].Base,
                       K.Values.Arrays[I].Mapped ? K.Values.Arrays[I].Mapped
                                                 : K.Values.Arrays[I].first(),
                       Claimed);
    bool Unused = AK && !(Args.ArgTypes[*AK] & MapTargetParam);
    if (AK && !Unused && !isMappedParam(Args, *AK)) {
      Error = "'" + D.Arrays[I].Name +
              "' is not passed to the kernel as a mapped parameter";
      return false;
    }
    E.Items.push_back(AK);
    E.Unused.push_back(Unused);
  }
  for (size_t I = 0; I < D.Reductions.size(); ++I) {
    std::optional<unsigned> RK =
        claimEntry(Args, K.Values.Reductions[I].Address, Claimed);
    if (!RK) {
      Error = "reduction variable '" + D.Reductions[I].Name +
              "' is not among the region's mapped arguments";
      return false;
    }
    E.Reductions.push_back(*RK);
  }
  // Everything else that points into a resident array uses its parts.
  if (!anyResident())
    return true;
  for (unsigned I = 0; I < Args.NumArgs; ++I) {
    if (Claimed[I] || !isMappedParam(Args, I))
      continue;
    ResidentArray *A = nullptr;
    for (ResidentArray *R : K.AccessResidents)
      if (R &&
          (Args.ArgPtrs[I] == R->HostBase ||
           (R->hostBegin() <= reinterpret_cast<uintptr_t>(Args.ArgPtrs[I]) &&
            reinterpret_cast<uintptr_t>(Args.ArgPtrs[I]) <
                std::max(R->hostEnd(), R->hostBegin() + 1))))
        A = R;
    if (!A) {
      A = acquireResidentByBase(Args.ArgPtrs[I]);
      if (!A)
        continue;
      K.AccessResidents.push_back(A); // released with the instance
      // Owner computes and the footprint check need its subscripts: without
      // them the devices' iterations cannot be matched with its parts, and
      // the host runs the kernel with the array gathered there.
      if (!A->Dist.duplicated() && K.Devices.size() > 1 && !K.OnHost) {
        K.OnHost = true;
        K.OnHostWhy = "'" + A->Name + "' (distributed by " + A->Where +
                      ") is used by the kernel, but the homp plugin did not "
                      "know it as an array where the kernel's pragma is (a "
                      "local of a member function defined in its class?), "
                      "so homp cannot bound the elements the loop uses: name "
                      "it in the kernel's map clause";
      }
    }
    E.Residents.push_back({I, A});
  }
  return true;
}

/// Plans S's next part: Iterations of a scheduled loop on S's device, with
/// the arrays aligned to the loop holding what they need; or, of a share
/// cut in sub-parts (only the host's run of a failed one comes here), the
/// sub-part's iterations, a run of S.PartLoop.
bool Launcher::planPart(Slot &S, const IndexSet &Iterations) {
  auto Plan = std::make_unique<KernelPlan>();
  std::string Error;
  bool Planned;
  if (K.Plan->ScheduledLoop >= 0) {
    KernelPlanInput In = K.PlanIn;
    In.Scheduled.assign(K.Devices.size(), IndexSet());
    In.Scheduled[S.Position] = Iterations;
    Planned = planKernel(In, *Plan, Error);
  } else {
    Planned = planSubPart(K.PlanIn, *K.Plan, S.Position, S.PartLoop,
                          Iterations.hull(), std::vector<bool>(), *Plan, Error);
  }
  if (!Planned) {
    S.Status = Slot::Fatal;
    S.Error = Error;
    return false;
  }
  adoptPart(S, std::move(Plan), Iterations);
  return true;
}

void Launcher::adoptPart(Slot &S, std::unique_ptr<KernelPlan> Plan,
                         const IndexSet &Iterations) {
  S.PartPlan = std::move(Plan);
  S.Plan = S.PartPlan.get();
  S.Work = &S.Plan->Work[S.Position];
  S.Ran = S.Ran.unite(Iterations);
  ++S.Parts;
}

void Launcher::prepare(Slot &S) {
  S.Items.assign(D.Arrays.size(), Storage());
  S.Staging.resize(D.Arrays.size());
  // A duplicate mapped back starts as the host's data on every device, so
  // elements a device leaves alone compare equal when they are merged.
  for (size_t I = 0; I < D.Arrays.size(); ++I) {
    if (!isDuplicateBack(I) || K.ItemIsResident[I])
      continue;
    const ConstructValues::ArrayValues &V = K.Values.Arrays[I];
    Range Span = V.Shape.span(ProductSet::of(V.Shape.Section));
    const char *From = V.Base + Span.Begin * V.Shape.ElementSize;
    S.Staging[I].assign(From, From + Span.size() * V.Shape.ElementSize);
  }
  S.Reductions.resize(D.Reductions.size());
  for (size_t I = 0; I < D.Reductions.size(); ++I) {
    ScalarType T = reductionType(I);
    S.Reductions[I].assign(T.Size, 0);
    reductionIdentity(D.Reductions[I].Op, T, S.Reductions[I].data());
  }
}

void Launcher::arrayEntries(
    DeviceArgs &A,
    const std::function<void *(size_t, void *)> &ItemAddress,
    const std::function<void *(const ResidentArray &, void *)> &Resident) {
  for (size_t I = 0; I < D.Arrays.size(); ++I) {
    if (!E.Items[I])
      continue;
    unsigned Ent = *E.Items[I];
    if (E.Unused[I])
      A.ignoreEntry(Ent);
    else
      A.setLiteral(Ent, ItemAddress(I, A.arrayBase(Ent)));
  }
  for (const Entries::Resident &R : E.Residents)
    A.setLiteral(R.Entry, Resident(*R.Array, A.arrayBase(R.Entry)));
}

DeviceArgs Launcher::argsFor(Slot &S) {
  DeviceArgs A(Args);
  A.setEntry(E.Chunk, &S.Chunk);
  auto InResident = [&](const ResidentArray &R, void *Base) {
    std::optional<unsigned> Q = R.Dist.positionOf(S.Device);
    return Q ? R.deviceAddress(*Q, Base) : Base;
  };
  arrayEntries(
      A,
      [&](size_t I, void *Base) {
        const ConstructValues::ArrayValues &V = K.Values.Arrays[I];
        // runAsync builds the arguments before it gives ItemResidents back.
        if (ResidentArray *R = K.ItemResidents[I])
          return InResident(*R, Base);
        if (!S.Staging[I].empty() && S.InHostMemory) {
          Storage Host{HostId, S.Staging[I].data(),
                       V.Shape.span(ProductSet::of(V.Shape.Section))};
          return deviceAddress(V.Shape, V.Base, Host, Base);
        }
        if (S.Items[I].Ptr)
          return deviceAddress(V.Shape, V.Base, S.Items[I], Base);
        return Base; // the host's own memory, or nothing held
      },
      InResident);
  for (size_t I = 0; I < D.Reductions.size(); ++I)
    A.setEntry(E.Reductions[I], S.Reductions[I].data());
  return A;
}

void Launcher::rerunOnHost(Slot &S) {
  message("homp: warning: region %s: %s; running its part on the host\n",
          K.Info->Location.c_str(), S.Error.c_str());
  Slot Again;
  Again.Position = S.Position;
  Again.Device = S.Device;
  Again.IsHost = true;
  Again.InHostMemory = true;
  Again.Work = S.Work;
  Again.Plan = S.Plan;
  Again.PartLoop = S.PartLoop;
  prepare(Again);
  Again.Items.assign(D.Arrays.size(), Storage());
  // Of a scheduled loop, the part that failed; the parts before it brought
  // their results back.
  if (S.Parts && !planPart(Again, S.Failed))
    constructFatal(*K.Info, Again.Error);
  runSlot(Again);
  if (Again.Status != Slot::Ok)
    constructFatal(*K.Info, Again.Error);
  S.Staging = std::move(Again.Staging);
  if (S.Parts) {
    for (size_t I = 0; I < D.Reductions.size(); ++I)
      reductionCombine(D.Reductions[I].Op, reductionType(I),
                       S.Reductions[I].data(), Again.Reductions[I].data());
    S.Ran = S.Ran.minus(S.Failed);
  } else {
    // A launch of the part may have brought a reduction back before another
    // failed: the host's run of the whole part replaces it.
    S.Reductions = std::move(Again.Reductions);
  }
  HostReruns.push_back(std::move(Again));
}

/// A kernel that only works on data resident on its devices, passed by
/// value or as device addresses, with nothing to combine or copy back,
/// runs asynchronously: each device's launches are queued behind the work
/// already queued on it, and the program goes on. Whatever later reads
/// that data (a kernel, 'target update', the end of the data region)
/// queues behind it on the same device.
bool Launcher::canRunAsync(const std::vector<Slot> &Slots) const {
  // A scheduled loop runs in parts or learns from its times: it waits.
  if (!D.Reductions.empty() || Slots.empty() || K.Sched || K.Memory)
    return false;
  for (const abi::Array &A : D.Arrays)
    if (A.Always)
      return false; // its copies wait for the devices
  for (const Slot &S : Slots)
    if (S.IsHost)
      return false; // the host works in place, on memory the program sees
  for (size_t I = 0; I < D.Arrays.size(); ++I)
    if (!K.ItemIsResident[I] && !E.Unused[I])
      return false;
  for (unsigned I = 0; I < Args.NumArgs; ++I) {
    if (I == E.Chunk ||
        (Args.ArgTypes[I] & (MapLiteral | MapPrivate)) ||
        std::any_of(E.Residents.begin(), E.Residents.end(),
                    [&](const Entries::Resident &R) { return R.Entry == I; }) ||
        std::find(E.Items.begin(), E.Items.end(), std::optional<unsigned>(I)) !=
            E.Items.end())
      continue;
    return false; // something libomptarget maps from host memory
  }
  return true;
}

void Launcher::copyAlways(Direction Dir) {
  for (size_t I = 0; I < D.Arrays.size(); ++I) {
    const abi::Array &A = D.Arrays[I];
    ResidentArray *R = K.ItemResidents[I];
    if (!R || !A.Always ||
        !(Dir == Direction::ToDevice ? abi::copiesIn(A.Map)
                                     : abi::copiesOut(A.Map)))
      continue;
    std::vector<int64_t> Bytes;
    std::string Error;
    if (!updateResident(*R, Dir,
                        ProductSet::of(K.Values.Arrays[I].Shape.Section),
                        R->Dist.Devices, Bytes, Error))
      constructFatal(*K.Info, Error);
  }
}

void Launcher::runAsync(std::shared_ptr<Launcher> Self,
                        Clock::time_point Start) {
  std::vector<int> Ids;
  Firstprivates = std::make_unique<FirstprivateCopies>(Args);
  for (Slot &S : Slots) {
    S.Prebuilt = std::make_unique<DeviceArgs>(argsFor(S));
    Firstprivates->apply(*S.Prebuilt);
    Ids.push_back(S.Device);
  }
  if (K.Info->PurePlans && replayAllowed())
    keepForReplay(Loc, NumTeams, ThreadLimit, HostPtr);
  runOnDevicesAsync(
      Ids,
      [Self](unsigned I) {
        Slot &S = Self->Slots[I];
        Self->runSlot(S);
        if (S.Status != Slot::Ok)
          constructFatal(*Self->K.Info, S.Error);
      },
      [Self, Start] {
        publishReport(
            Self->K.Info->Location,
            [&] {
              std::vector<Slot *> ById = Self->slotsById();
              return Self->reportText(ById, secondsSince(Start));
            },
            /*Queued=*/true);
      });
  // Work queued later on these devices runs after this kernel, so the
  // references to the resident arrays can go now: the end of their data
  // region copies them back and frees them behind it.
  std::vector<int64_t> Bytes;
  std::string Error;
  for (std::vector<ResidentArray *> *List :
       {&K.AccessResidents, &K.ItemResidents})
    for (ResidentArray *&R : *List) {
      if (R && !releaseResident(R, abi::copiesOut(R->Map), false, Bytes, Error))
        constructFatal(*K.Info, Error);
      R = nullptr;
    }
}

/// Keeps this asynchronous execution's launches for the construct's next
/// executions to repeat (Replay.h).
void Launcher::keepForReplay(void *Loc, int32_t NumTeams,
                             int32_t ThreadLimit, void *HostPtr) const {
  auto P = std::make_shared<PreparedLaunch>();
  P->Info = K.Info;
  P->Values = K.RawValues;
  P->Loops = K.Loops;
  P->Generation = K.Generation;
  P->Loc = Loc;
  P->HostPtr = HostPtr;
  P->NumTeams = NumTeams;
  P->ThreadLimit = ThreadLimit;
  for (unsigned I = 0; I < Args.NumArgs; ++I)
    P->Entries.push_back(argEntry(Args, I));
  P->ChunkEntry = E.Chunk;
  for (const Slot &S : Slots) {
    PreparedLaunch::Device Dev;
    Dev.Id = S.Device;
    Dev.InHostMemory = S.InHostMemory;
    Dev.Work = S.Work;
    // (A replay copies the firstprivates of its own launch.)
    for (unsigned I = 0; I < Args.NumArgs; ++I) {
      ArgEntry Now = argEntry(S.Prebuilt->args(), I);
      if (I != E.Chunk && !Firstprivates->copies(I) && Now != P->Entries[I])
        Dev.Changed.push_back({I, Now});
    }
    P->Devices.push_back(std::move(Dev));
  }
  P->Plan = K.Plan;
  P->Nest = K.Nest;
  P->ReportTitle = reportTitle(Slots.size());
  std::lock_guard<std::mutex> Lock(K.Info->PreparedLock);
  K.Info->Prepared = std::move(P);
}

std::vector<std::pair<ResidentArray *, bool>> Launcher::residentsUsed() const {
  std::vector<std::pair<ResidentArray *, bool>> Used;
  auto Add = [&](ResidentArray *R, bool Written) {
    if (!R)
      return;
    for (auto &[A, W] : Used)
      if (A == R) {
        W |= Written;
        return;
      }
    Used.push_back({R, Written});
  };
  auto WrittenName = [&](const std::string &Name) {
    for (const abi::Access &A : D.Accesses)
      if (A.Name == Name && A.Written)
        return true;
    return false;
  };
  for (size_t I = 0; I < K.ItemResidents.size(); ++I)
    Add(K.ItemResidents[I], WrittenName(D.Arrays[I].Name));
  for (size_t I = 0; I < K.AccessResidents.size(); ++I)
    Add(K.AccessResidents[I], I < D.Accesses.size() ? D.Accesses[I].Written
                                                     : true);
  // Arrays the plugin did not know: anything may happen to them.
  for (const Entries::Resident &R : E.Residents)
    Add(R.Array, std::none_of(K.AccessResidents.begin(),
                              K.AccessResidents.begin() +
                                  std::min(K.AccessResidents.size(),
                                           D.Accesses.size()),
                              [&](ResidentArray *A) { return A == R.Array; }));
  return Used;
}

int Launcher::runGathered(Clock::time_point Start) {
  const std::string &Why = K.OnHostWhy;
  if (!Thunk)
    constructFatal(*K.Info, Why + "; the host cannot run the kernel instead: "
                                  "the homp pass found no host version of "
                                  "the region");
  refuseHostFallback(*K.Info, Why);
  if (settings().Offload == OffloadPolicy::Mandatory)
    constructFatal(*K.Info, Why + " (OMP_TARGET_OFFLOAD=MANDATORY)");
  if (!K.Info->WarnedGathered.exchange(true))
    message("homp: warning: region %s: %s; running it on the host, with "
            "the resident arrays it uses gathered there\n",
            K.Info->Location.c_str(), Why.c_str());
  // One shadow per array: its resident parts (or sections) together.
  std::vector<std::pair<ResidentArray *, bool>> Used = residentsUsed();
  std::vector<std::unique_ptr<HostShadow>> Shadows;
  std::vector<bool> Written;
  auto ShadowOf = [&](const ResidentArray *R) -> HostShadow * {
    for (std::unique_ptr<HostShadow> &Sh : Shadows)
      if (Sh->HostBase == R->HostBase)
        return Sh.get();
    return nullptr;
  };
  for (const auto &[R, W] : Used) {
    bool Known = false;
    for (size_t I = 0; I < Shadows.size(); ++I)
      if (Shadows[I]->HostBase == R->HostBase) {
        Written[I] = Written[I] || W;
        Known = true;
      }
    if (Known)
      continue;
    auto Sh = std::make_unique<HostShadow>();
    std::string Error;
    if (!gatherShadow(*R, *Sh, Error))
      constructFatal(*K.Info, Error);
    Shadows.push_back(std::move(Sh));
    Written.push_back(W);
  }
  DeviceArgs A(Args);
  abi::Chunk Chunk = K.Loops; // the whole nest
  A.setEntry(E.Chunk, &Chunk);
  auto InShadow = [&](const ResidentArray &R, void *Base) {
    HostShadow *Sh = ShadowOf(&R);
    return Sh ? Sh->addressOf(Base) : Base;
  };
  arrayEntries(
      A,
      [&](size_t I, void *Base) {
        return K.ItemResidents[I] ? InShadow(*K.ItemResidents[I], Base) : Base;
      },
      InShadow);
  std::vector<std::vector<char>> Reductions(D.Reductions.size());
  for (size_t I = 0; I < D.Reductions.size(); ++I) {
    ScalarType T = reductionType(I);
    Reductions[I].assign(T.Size, 0);
    reductionIdentity(D.Reductions[I].Op, T, Reductions[I].data());
    A.setEntry(E.Reductions[I], Reductions[I].data());
  }
  LoopNest Nest = K.Nest;
  unsigned Bad;
  const bool Trips = Nest.computeTrips(Bad);
  Clock::time_point Began = Clock::now();
  std::vector<void *> Params = A.hostParams();
  int Rc = 0;
  runHostVersionSafely(
      [&] { Rc = Thunk(Params.data(), static_cast<int64_t>(Params.size())); });
  if (Rc != 0)
    constructFatal(*K.Info,
                   "the homp pass's host entry does not match the region");
  double Ran = secondsSince(Began);
  publishKernel(HostId, K.Info->Location, Began,
                static_cast<int64_t>(Trips ? Nest.iterations() : 0), 1, 0, 0,
                /*Queued=*/false);
  for (size_t I = 0; I < Shadows.size(); ++I) {
    std::string Error;
    if (!scatterShadow(*Shadows[I], Written[I], Error))
      constructFatal(*K.Info, Error);
  }
  for (size_t I = 0; I < D.Reductions.size(); ++I)
    reductionCombine(D.Reductions[I].Op, reductionType(I),
                     K.Values.Reductions[I].Address, Reductions[I].data());
  // A memorizing loop that kept its chunks' owners: its devices' times say
  // whether they drifted apart.
  if (K.Memory && !K.Follow && RerunOf.empty()) {
    std::vector<double> Secs(K.Devices.size(), 0);
    for (const Slot &S : Slots)
      Secs[S.Position] = S.Seconds;
    K.Memory->observe(Secs);
  }
  K.Info->LastSeconds.store(secondsSince(Start), std::memory_order_relaxed);
  publishReport(K.Info->Location, [&] {
    DeviceReport Row;
    Row.Device = HostId;
    Row.IsHost = true;
    Row.Type = deviceTypeName(deviceTypes().typeOf(HostId));
    if (Trips) {
      ProductSet All;
      All.Rank = Nest.Rank;
      for (unsigned L = 0; L < Nest.Rank; ++L)
        All.Dims[L] = IndexSet(Range{0, Nest.Trips[L]});
      Row.Work = describeWork(Nest, All);
    }
    Row.Launches = 1;
    Row.Seconds = Ran;
    std::string Title = "region " + K.Info->Location + ": " +
                        std::to_string(Trips ? Nest.iterations() : 0) +
                        " iterations on the host, with the resident arrays it "
                        "uses gathered there (" +
                        Why + ")";
    return formatReport(Title, secondsSince(Start), /*Load=*/true, {Row});
  });
  return 0;
}

int Launcher::run(std::shared_ptr<Launcher> Self) {
  Clock::time_point Start = Clock::now();
  std::string Error;
  bool UsesResidents =
      std::any_of(K.AccessResidents.begin(), K.AccessResidents.end(),
                  [](ResidentArray *R) { return R != nullptr; }) ||
      std::any_of(K.ItemResidents.begin(), K.ItemResidents.end(),
                  [](ResidentArray *R) { return R != nullptr; });
  if (Args.Version != SupportedKernelArgsVersion) {
    Error = "clang passed kernel arguments of version " +
            std::to_string(Args.Version) + "; homp supports version " +
            std::to_string(SupportedKernelArgsVersion);
  } else {
    bool Found = findEntries(Error);
    UsesResidents |= !E.Residents.empty();
    if (Found)
      Error.clear();
  }
  if (!Error.empty()) {
    if (UsesResidents)
      constructFatal(*K.Info, Error);
    constructError(*K.Info, Error);
    return runHostVersion(K, Args, Thunk);
  }
  if (K.OnHost) {
    if (!K.HostOnlyWhy.empty() && residentsUsed().empty()) {
      constructError(*K.Info, K.HostOnlyWhy);
      return runHostVersion(K, Args, Thunk);
    }
    return runGathered(Start);
  }

  copyAlways(Direction::ToDevice);

  // A loop scheduled in parts runs on every device the schedule keeps.
  bool InParts = K.Sched && K.Sched->Mode != LoopSchedule::Shares;
  std::vector<int> Ids;
  Slots.reserve(K.Devices.size());
  for (unsigned P = 0; P < K.Devices.size(); ++P) {
    if (InParts ? K.Sched->Weights[P] <= 0
                : K.Plan->Work[P].Iterations.empty())
      continue;
    Slot S;
    S.Position = P;
    S.Device = K.Devices[P];
    S.IsHost = S.Device == HostId;
    S.InHostMemory = S.IsHost || D.SharedMemory;
    S.Plan = K.Plan.get();
    S.Work = InParts ? nullptr : &K.Plan->Work[P];
    if (K.Plan->ScheduledLoop >= 0)
      S.PartLoop = static_cast<unsigned>(K.Plan->ScheduledLoop);
    if (S.InHostMemory)
      for (size_t I = 0; I < D.Arrays.size(); ++I)
        if (!K.ItemIsResident[I] && !E.Unused[I] &&
            !ProductSet::of(itemDist(I).Shape.Section)
                 .contains(itemDist(I).held(P)))
          constructFatal(*K.Info,
                         edgeHalosOnHost(D.Arrays[I].Name, D.SharedMemory));
    if (S.IsHost && !Thunk) {
      Error = "the host cannot take part: the homp pass found no host version "
              "of the region";
      if (UsesResidents)
        constructFatal(*K.Info, Error);
      constructError(*K.Info, Error);
      return 1;
    }
    prepare(S);
    Slots.push_back(std::move(S));
    Ids.push_back(Slots.back().Device);
  }
  // Duplicated resident arrays: each device that runs uses a current copy,
  // and the one that writes makes the others stale. (A loop in parts may
  // give any of its devices the iterations: written there, their copies
  // would differ, so it runs on the host, the array gathered there.)
  std::vector<std::pair<ResidentArray *, bool>> Duplicates;
  for (const auto &[R, W] : residentsUsed())
    if (R->Dist.duplicated() && W && Ids.size() > 1) {
      K.OnHostWhy = "'" + R->Name + "' is whole on every device of " +
                    R->Where + " (DUPLICATE), and this kernel writes it in " +
                    "parts that any of its devices may run";
      return runGathered(Start);
    }
  for (const auto &[R, W] : residentsUsed())
    if (R->Dist.duplicated()) {
      if (!refreshCopies(*R, Ids, Error))
        constructFatal(*K.Info, Error);
      if (W && !Ids.empty())
        Duplicates.push_back({R, W});
    }
  auto CopiesChanged = [&] {
    for (const auto &[R, W] : Duplicates)
      copyChanged(*R, Ids.front());
  };
  if (canRunAsync(Slots)) {
    CopiesChanged();
    runAsync(std::move(Self), Start);
    return 0;
  }
  CopiesChanged();
  if (InParts)
    runScheduled(Ids);
  else {
    const double Last = K.Info->LastSeconds.load(std::memory_order_relaxed);
    runOnDevices(
        Ids, HostId, [&](unsigned I) { runShare(Slots[I]); }, regionEnd(),
        Last < LongRegion ? DeviceJobs::Short : DeviceJobs::Long, Last);
  }

  // A device whose part failed before any result reached the host runs it
  // again, on the host, when that is safe: no data lives on the devices.
  // Of a scheduled loop, only the chunk or sample that failed runs again
  // (the device took no more), unless duplicates come back: the host's copy
  // would have to be merged with the device's earlier parts.
  // Nor when the part holds halo cells past the array's ends (periodic,
  // reflecting): the host's own array has none.
  bool DuplicatesBack = false;
  for (size_t I = 0; I < D.Arrays.size(); ++I)
    DuplicatesBack |= isDuplicateBack(I);
  // (Of a loop in parts, the plan of the iterations that failed: not the
  // last part's, which may not be among them or may not reach the edge.)
  auto EdgeHalos = [&](const Slot &S) {
    const KernelPlan *Plan = S.Plan;
    KernelPlan FailedPlan;
    if (S.Parts && K.Plan->ScheduledLoop < 0) {
      Plan = K.Plan.get(); // a share with such halo cells is never cut
    } else if (S.Parts) {
      KernelPlanInput In = K.PlanIn;
      In.Scheduled.assign(K.Devices.size(), IndexSet());
      In.Scheduled[S.Position] = S.Failed;
      std::string Ignored;
      if (!planKernel(In, FailedPlan, Ignored))
        return true; // no rerun; the device's error stops the program
      Plan = &FailedPlan;
    }
    for (size_t I = 0; I < D.Arrays.size(); ++I) {
      const Distribution &X = Plan->Items[I];
      if (!K.ItemIsResident[I] && !E.Unused[I] &&
          !ProductSet::of(X.Shape.Section).contains(X.held(S.Position)))
        return true;
    }
    return false;
  };
  for (Slot &S : Slots) {
    if (S.Status == Slot::Ok)
      continue;
    bool CanRerun = S.Status == Slot::FailedBeforeResults && Thunk &&
                    !UsesResidents && !(InParts && DuplicatesBack) &&
                    !EdgeHalos(S) &&
                    settings().Offload != OffloadPolicy::Mandatory;
    if (!CanRerun)
      constructFatal(*K.Info, S.Error);
    rerunOnHost(S);
    RerunOf += (RerunOf.empty() ? "" : ", ") + std::to_string(S.Device);
  }

  std::vector<Slot *> ById = slotsById();
  if (!ById.empty()) {
    combineReductions(ById);
    mergeDuplicates(ById);
  }
  copyAlways(Direction::FromDevice);
  // AUTO learns from executions that ran as planned (a host rerun's time
  // would count for the device that failed).
  if (K.Sched && K.Sched->ChoseAuto && RerunOf.empty()) {
    std::vector<int64_t> Its(K.Devices.size(), 0);
    std::vector<double> Secs(K.Devices.size(), 0);
    for (const Slot &S : Slots) {
      if (S.Parts)
        Its[S.Position] = S.Ran.size();
      else if (S.Work)
        Its[S.Position] =
            S.Work->Iterations.Dims[K.Plan->ScheduledLoop].size();
      Secs[S.Position] = S.Seconds;
    }
    recordExecution(*K.Info, *K.Sched, K.Devices, K.SchedTrips, Its, Secs,
                    secondsSince(Start));
  }
  K.Info->LastSeconds.store(secondsSince(Start), std::memory_order_relaxed);
  publishReport(K.Info->Location,
                [&] { return reportText(ById, secondsSince(Start)); });
  return 0;
}

} // namespace launch

using namespace launch;

/// launchKernel, on this rank's part (all of the kernel on one node).
static int launchPart(std::unique_ptr<KernelInstance> K, void *Loc,
                      int32_t NumTeams, int32_t ThreadLimit, void *HostPtr,
                      KernelArgs *Args, HostThunk Thunk) {
  // What is resident, and the launches to repeat, as they are now.
  K->Generation = residencyGeneration();
  {
    std::lock_guard<std::mutex> Lock(K->Info->PreparedLock);
    if (K->Info->Prepared &&
        K->Info->Prepared->matches(K->RawValues, K->Loops, K->Generation))
      K->Replay = K->Info->Prepared;
  }
  if (K->Replay) {
    if (replay(K->Replay, *Args, Loc, NumTeams, ThreadLimit, HostPtr))
      return 0;
    // Clang's arguments are not those of the last launches: plan anew.
    K->Replay.reset();
  }
  if (!planInstance(*K))
    return runHostVersion(*K, *Args, Thunk);
  auto L = std::make_shared<Launcher>(std::move(K), *Args, Thunk, Loc,
                                      NumTeams, ThreadLimit, HostPtr);
  return L->run(L);
}

int launchKernel(KernelInstance *Instance, void *Loc, int32_t NumTeams,
                 int32_t ThreadLimit, void *HostPtr, KernelArgs *Args,
                 HostThunk Thunk) {
  std::unique_ptr<KernelInstance> K(Instance);
  if (K->HostAsAsked)
    return runHostVersion(*K, *Args, Thunk);
  // Over an MPI job's ranks: this rank's part, then every rank completed.
  if (std::shared_ptr<RankRun> Ranks =
          splitOverRanks(*K, *Args, Thunk != nullptr)) {
    const ConstructInfo &Info = *K->Info;
    if (Ranks->OnHosts) {
      if (runHostVersion(*K, *Args, Thunk) != 0)
        constructFatal(Info, "it has no host version to run on the ranks' "
                             "hosts");
      scatterResidents(Info, *Ranks);
      return 0;
    }
    if (launchPart(std::move(K), Loc, NumTeams, ThreadLimit, HostPtr, Args,
                   Thunk) != 0)
      constructFatal(Info, "clang's host fallback would run it after the "
                           "ranks completed their parts");
    completeOverRanks(*Ranks);
    return 0;
  }
  return launchPart(std::move(K), Loc, NumTeams, ThreadLimit, HostPtr, Args,
                    Thunk);
}

} // namespace homp
