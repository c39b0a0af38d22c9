//===-- Launch.cpp - Running a distributed kernel on its devices ----------===//

#include "Launch.h"

#include "DeviceArgs.h"
#include "Devices.h"
#include "Machine.h"
#include "Observe.h"
#include "ProxyPool.h"
#include "Residency.h"
#include "Transfers.h"

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

namespace {

using Clock = std::chrono::steady_clock;

/// A region whose last execution took this long (seconds) has long parts:
/// the program's thread hands them all to the proxies (runOnDevices).
constexpr double LongRegion = 1e-3;

double secondsSince(Clock::time_point T) {
  return std::chrono::duration<double>(Clock::now() - T).count();
}

/// Whether array A of D is split with the loop (ALIGN(loop), ALIGN of the
/// loop's label): its part follows the iterations a device runs.
bool followsLoop(const abi::Descriptor &D, const abi::Array &A) {
  for (unsigned Dm = 0; Dm < A.Rank; ++Dm)
    if (A.Dims[Dm].Kind == abi::Policy::Align &&
        (A.Dims[Dm].ToLoop || A.Dims[Dm].Target == D.Label))
      return true;
  return false;
}

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

/// The kernel-argument entries of the kernel's variables.
struct Entries {
  unsigned Chunk = 0;
  std::vector<std::optional<unsigned>> Items;
  /// Per array: mapped, but not a parameter of the kernel (its body does
  /// not use it), so no device needs it.
  std::vector<bool> Unused;
  std::vector<unsigned> Reductions;
  struct Resident {
    unsigned Entry;
    ResidentArray *Array;
  };
  std::vector<Resident> Residents;
};

/// One device's share of a launch and everything it points at.
struct Slot {
  unsigned Position = 0;
  int Device = 0;
  bool IsHost = false;
  /// Works on the host's memory: the host, or any device of a program that
  /// requires unified_shared_memory. Nothing is copied for it.
  bool InHostMemory = false;
  const DeviceWork *Work = nullptr;
  /// The plan Work belongs to: the kernel's, or the part's own (a chunk
  /// or a sample of a scheduled loop).
  const KernelPlan *Plan = nullptr;
  std::unique_ptr<KernelPlan> PartPlan;
  /// The loop its parts split: the scheduled loop, or the one its share of
  /// an owner-computes loop was cut along (Launcher::runShare).
  unsigned PartLoop = 0;
  IndexSet Ran; ///< in parts: the iteration numbers of PartLoop it ran
  /// In parts: the iterations of PartLoop of its part that failed before
  /// any of their results reached the host, and of the sub-parts of its
  /// share after it (the host runs them instead).
  IndexSet Failed;
  int64_t Parts = 0;
  /// Sampled loop: the cutoff gave it none of the rest, and it ran no piece
  /// of it either (HOMP_INFO leaves it out of the imbalance).
  bool CutOff = false;
  abi::Chunk Chunk{};
  std::vector<Storage> Items;             ///< per array: device storage
  std::vector<std::vector<char>> Staging; ///< per array: duplicates mapped back
  std::vector<std::vector<char>> Reductions;
  /// The arguments, made before an asynchronous launch returns.
  std::unique_ptr<DeviceArgs> Prebuilt;
  int64_t BytesIn = 0, BytesOut = 0, Launches = 0;
  double Seconds = 0;
  /// A device whose part the host ran again stays FailedBeforeResults.
  enum { Ok, FailedBeforeResults, FailedAfterResults, Fatal } Status = Ok;
  std::string Error;
};

class Launcher {
public:
  Launcher(std::unique_ptr<KernelInstance> Owned, KernelArgs &Args,
           HostThunk Thunk, void *Loc, int32_t NumTeams, int32_t ThreadLimit,
           void *HostPtr)
      : Owned(std::move(Owned)), K(*this->Owned), D(K.Info->Desc), Args(Args),
        Thunk(Thunk), Loc(Loc), NumTeams(NumTeams), ThreadLimit(ThreadLimit),
        HostPtr(HostPtr) {}

  /// Runs the kernel; Self owns this launcher (asynchronous launches keep
  /// it alive until their last device is done).
  int run(std::shared_ptr<Launcher> Self);

private:
  /// The kernel on the host with the resident arrays it uses gathered
  /// there (KernelInstance::OnHost).
  int runGathered(Clock::time_point Start);
  /// The resident arrays the kernel uses, once each, and whether it may
  /// write them.
  std::vector<std::pair<ResidentArray *, bool>> residentsUsed() const;
  bool canRunAsync(const std::vector<Slot> &Slots) const;
  /// Points A's entries of the kernel's arrays where ItemAddress says (from
  /// the host's address) and those of the resident arrays the plugin did
  /// not describe where Resident says; unused items map nothing.
  void arrayEntries(
      DeviceArgs &A, const std::function<void *(size_t, void *)> &ItemAddress,
      const std::function<void *(const ResidentArray &, void *)> &Resident);
  /// map(always, ...) of arrays already on the devices: copies their parts
  /// in before the kernel, out after it.
  void copyAlways(Direction Dir);
  /// Queues the slots' work and returns; HOMP_INFO's report comes when the
  /// last device is done with the construct that began at Start.
  void runAsync(std::shared_ptr<Launcher> Self, Clock::time_point Start);
  void keepForReplay(void *Loc, int32_t NumTeams, int32_t ThreadLimit,
                     void *HostPtr) const;
  bool findEntries(std::string &Error);
  const Distribution &itemDist(size_t I) const { return K.Plan->Items[I]; }
  /// The type of reduction I's variable (checked when the kernel began).
  ScalarType reductionType(size_t I) const {
    return *decodeScalarType(K.Values.Reductions[I].TypeCode,
                             K.Values.Reductions[I].Size);
  }
  bool isDuplicateBack(size_t I) const {
    return itemDist(I).duplicated() && abi::copiesOut(D.Arrays[I].Map);
  }
  ProductSet itemHeld(const Slot &S, size_t I) const;
  void prepare(Slot &S);
  bool planPart(Slot &S, const IndexSet &Iterations);
  /// Makes Plan, of Iterations of S.PartLoop, S's next part.
  void adoptPart(Slot &S, std::unique_ptr<KernelPlan> Plan,
                 const IndexSet &Iterations);
  void runSlot(Slot &S);
  /// How many sub-parts S runs its share in, of Iterations iterations of
  /// S.PartLoop (1: whole; see SubPartBytes).
  int64_t subParts(const Slot &S, int64_t Iterations) const;
  /// Runs S's share of the loop: whole, or in sub-parts.
  void runShare(Slot &S);
  /// The plans of S's share of an owner-computes loop cut along S.PartLoop
  /// into Parts sub-parts of Share; none when it cannot be cut.
  std::vector<std::unique_ptr<KernelPlan>> cutShare(const Slot &S, Range Share,
                                                    int64_t Parts) const;
  /// Runs R of S.PartLoop on S in Parts parts, one after the other, planned
  /// by planPart, or taken from Cut. Once one failed before its results
  /// reached the host, the rest of R goes to the host with it
  /// (Slot::Failed).
  void runRange(Slot &S, Range R, int64_t Parts,
                std::vector<std::unique_ptr<KernelPlan>> *Cut = nullptr);
  /// Runs S's part (planPart, adoptPart); one that fails before its
  /// results reached the host is left for the host (Slot::Failed).
  void runPart(Slot &S, const IndexSet &Iterations);
  void runScheduled(const std::vector<int> &Ids);
  void runSampled(const std::vector<int> &Ids);
  std::optional<int64_t> pageOffset(const Slot &S, size_t I, Range Span) const;
  void copyIn(Slot &S);
  DeviceArgs argsFor(Slot &S);
  void launches(Slot &S, DeviceArgs &A);
  void copyOut(Slot &S);
  void rerunOnHost(Slot &S);
  /// The iterations S ran and brought back (none for a part that failed).
  ProductSet ranBy(const Slot &S) const;
  void combineReductions(std::vector<Slot *> &ById);
  void mergeDuplicates(std::vector<Slot *> &ById);
  /// HOMP_INFO's report, printed now or, of asynchronous work, when the
  /// program waits for its devices (Deferred: deferMessage).
  void report(std::vector<Slot *> &ById, double Seconds, bool Deferred = false);
  /// The first line of HOMP_INFO's report, on Devices devices.
  std::string reportTitle(size_t Devices) const;
  /// The devices' wait for each other at the region's end.
  WaitLabel regionEnd() const {
    return {"wait for the region's end", &K.Info->Location};
  }

  std::unique_ptr<KernelInstance> Owned;
  KernelInstance &K;
  const abi::Descriptor &D;
  KernelArgs &Args; ///< the caller's: not to be used once run() returns
  std::vector<Slot> Slots;
  /// The devices whose failed part the host ran again, for reports.
  std::string RerunOf;
  /// The host's runs of those parts: the host's row in reports.
  std::vector<Slot> HostReruns;
  HostThunk Thunk;
  void *Loc;
  int32_t NumTeams, ThreadLimit;
  void *HostPtr;
  Entries E;
  int HostId = hostDevice();
  /// An asynchronous launch's firstprivates passed by reference, as they
  /// were when it was queued.
  std::unique_ptr<FirstprivateCopies> Firstprivates;
};

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
                       K.Values.Arrays[I].first(), Claimed);
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

ProductSet Launcher::itemHeld(const Slot &S, size_t I) const {
  const Distribution &X = S.Plan->Items[I];
  return X.held(S.Position).intersect(ProductSet::of(X.Shape.Section));
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

/// Where in a page array I's storage on S's device starts (storageColors):
/// on CPU offload devices, away from the kernel's other arrays there, and
/// so that its copies run at full speed. Other devices take what they get.
std::optional<int64_t> Launcher::pageOffset(const Slot &S, size_t I,
                                            Range Span) const {
  if (S.InHostMemory || !placedInHostPages(S.Device))
    return std::nullopt;
  std::vector<std::vector<intptr_t>> Others(1);
  for (size_t J = 0; J < I; ++J)
    if (S.Items[J].Ptr)
      Others[0].push_back(reinterpret_cast<intptr_t>(
          deviceAddress(K.Values.Arrays[J].Shape, K.Values.Arrays[J].Base,
                        S.Items[J], K.Values.Arrays[J].Base)));
  const ConstructValues::ArrayValues &V = K.Values.Arrays[I];
  return storageColors(V.Shape, {Span}, {}, {PartMemory::Colored},
                       reinterpret_cast<uintptr_t>(V.Base), Others)[0];
}

void Launcher::copyIn(Slot &S) {
  for (size_t I = 0; I < D.Arrays.size() && S.Status == Slot::Ok; ++I) {
    if (K.ItemIsResident[I] || E.Unused[I])
      continue;
    const ConstructValues::ArrayValues &V = K.Values.Arrays[I];
    ProductSet Held = itemHeld(S, I);
    if (Held.empty())
      continue;
    const Distribution &X = S.Plan->Items[I];
    if (E.Items[I]) {
      // An array a single-device 'target data' already maps there would
      // keep that copy and overwrite the other devices' results later; a
      // duplicate's copy there (perhaps changed on the device) would be
      // passed over for the host's values.
      Index First{};
      for (unsigned Dm = 0; Dm < V.Shape.Rank; ++Dm)
        First[Dm] = X.Owned[S.Position].Dims[Dm].hull().Begin;
      if (omp_target_is_present(V.Base + V.Shape.offset(First) *
                                             V.Shape.ElementSize,
                                S.Device)) {
        S.Status = Slot::Fatal;
        S.Error = "'" + D.Arrays[I].Name + "' is already mapped on device " +
                  std::to_string(S.Device) +
                  " (by an enclosing 'target data'?); the arrays of a "
                  "multi-device construct must not be mapped when it starts "
                  "(homp copies them itself and would not see that copy)";
        return;
      }
    }
    // Halo cells past the array's ends (periodic, reflecting) are held too.
    Range Span = V.Shape.span(X.held(S.Position));
    if (!allocateStorage(S.Device, V.Shape, Span, S.Items[I], S.Error,
                         pageOffset(S, I, Span))) {
      S.Error += " for its part of '" + D.Arrays[I].Name + "'";
      S.Status = Slot::FailedBeforeResults;
      return;
    }
    bool In = abi::copiesIn(D.Arrays[I].Map) || isDuplicateBack(I);
    if (In && (!copyElements(Direction::ToDevice, V.Shape, V.Base, S.Items[I],
                             Held, S.BytesIn) ||
               !fillEdgeHalos(X, S.Position, V.Base,
                              {static_cast<char *>(deviceAddress(
                                   V.Shape, V.Base, S.Items[I], V.Base)),
                               S.Device, false},
                              S.BytesIn))) {
      S.Error = "copying '" + D.Arrays[I].Name + "' to device " +
                std::to_string(S.Device) + " failed";
      S.Status = Slot::FailedBeforeResults;
    }
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

void Launcher::launches(Slot &S, DeviceArgs &A) {
  for (const LaunchPiece &P : S.Work->Pieces) {
    Clock::time_point Began = Clock::now();
    uint64_t Trip = chunkOfPiece(K.Nest, P, S.Chunk);
    const int64_t In = S.BytesIn, Out = S.BytesOut;
    int Rc;
    if (S.IsHost) {
      std::vector<void *> Params = A.hostParams();
      runHostVersionSafely([&] {
        Rc = Thunk(Params.data(), static_cast<int64_t>(Params.size()));
      });
      if (Rc != 0) {
        S.Status = Slot::Fatal;
        S.Error = "the homp pass's host entry does not match the region";
        return;
      }
    } else {
      // libomptarget may rewrite the argument arrays it is given; what it
      // copies (the chunk, scalars) is counted before.
      DeviceArgs Launch(A.args());
      Launch.args().Tripcount = Trip;
      DeviceChunks::Lease Chunk = K.Info->Chunks.pass(
          Launch, E.Chunk, S.Device, S.InHostMemory, S.Chunk, S.BytesIn);
      S.BytesIn += Launch.bytesIn();
      S.BytesOut += Launch.bytesOut();
      Rc = injectedFault(S.Device, FaultSpec::Launch)
               ? 1
               : __tgt_target_kernel(Loc, S.Device, NumTeams, ThreadLimit,
                                     HostPtr, &Launch.args());
    }
    ++S.Launches;
    publishKernel(S.Device, K.Info->Location, Began, static_cast<int64_t>(Trip),
                  S.Launches, S.BytesIn - In, S.BytesOut - Out,
                  /*Queued=*/S.Prebuilt != nullptr);
    if (Rc != 0) {
      S.Status = Slot::FailedBeforeResults;
      S.Error = "device " + std::to_string(S.Device) + " failed to run its part";
      return;
    }
  }
}

void Launcher::copyOut(Slot &S) {
  for (size_t I = 0; I < D.Arrays.size(); ++I) {
    if (!S.Items[I].Ptr)
      continue;
    const ConstructValues::ArrayValues &V = K.Values.Arrays[I];
    bool Ok = true;
    if (isDuplicateBack(I)) {
      Range Span = V.Shape.span(ProductSet::of(V.Shape.Section));
      char *Stage =
          S.Staging[I].data() - Span.Begin * V.Shape.ElementSize;
      Ok = copyElements(Direction::FromDevice, V.Shape, Stage, S.Items[I],
                        ProductSet::of(V.Shape.Section), S.BytesOut);
    } else if (abi::copiesOut(D.Arrays[I].Map) && !itemDist(I).duplicated()) {
      const KernelPlan &Pl = *S.Plan;
      const Distribution &X = Pl.Items[I];
      std::optional<unsigned> Q = X.positionOf(S.Device);
      const ProductSet &Back =
          I < Pl.CopyBack.size() && !Pl.CopyBack[I].empty() && Q
              ? Pl.CopyBack[I][*Q]
              : X.Owned[S.Position];
      Ok = copyElements(Direction::FromDevice, V.Shape, V.Base, S.Items[I],
                        Back, S.BytesOut);
    }
    if (!Ok && S.Status == Slot::Ok) {
      S.Status = Slot::FailedAfterResults;
      S.Error = "copying '" + D.Arrays[I].Name + "' back from device " +
                std::to_string(S.Device) + " failed";
    }
  }
}

void Launcher::runSlot(Slot &S) {
  Clock::time_point T = Clock::now();
  if (!S.InHostMemory) {
    // (A scheduled loop's slot runs several parts: the bytes of this one.)
    int64_t Before = S.BytesIn;
    copyIn(S);
    publishCopy(EventKind::CopyIn, S.Device, K.Info->Location, T,
                S.BytesIn - Before);
  }
  if (S.Status == Slot::Ok) {
    if (S.Prebuilt) {
      launches(S, *S.Prebuilt);
    } else {
      DeviceArgs A = argsFor(S);
      launches(S, A);
    }
  }
  if (S.Status == Slot::Ok && !S.InHostMemory) {
    Clock::time_point Out = Clock::now();
    int64_t Before = S.BytesOut;
    copyOut(S);
    publishCopy(EventKind::CopyOut, S.Device, K.Info->Location, Out,
                S.BytesOut - Before);
  }
  for (Storage &St : S.Items)
    freeStorage(St);
  // HOMP_EMULATE: the device stays busy as if it were slower.
  double Part = secondsSince(T);
  if (emulationFactor(S.Device) != 1) {
    Event E;
    E.Kind = EventKind::Hold;
    E.Device = S.Device;
    E.Name = &K.Info->Location;
    E.Start = Clock::now();
    emulateSlowdown(S.Device, Part);
    E.End = Clock::now();
    const std::vector<std::pair<std::string, std::string>> Args = {
        {"part_us", traceNumber(static_cast<int64_t>(Part * 1e6))},
        {"factor", traceString(std::to_string(emulationFactor(S.Device)))}};
    E.Args = &Args;
    publish(E);
  }
  S.Seconds += secondsSince(T);
}

/// Operations per byte copied from which a loop counts as compute-bound
/// (bm2d 96, matmul 32; a 13-point stencil 1.2, matvec 0.25, AXPY 0.08).
constexpr double ComputeBound = 8;

void Launcher::runPart(Slot &S, const IndexSet &Iterations) {
  // A launch of the part that failed may have brought a reduction back.
  std::vector<std::vector<char>> Before = S.Reductions;
  runSlot(S);
  // A compute-bound loop's device gives its core up between parts: another
  // device's thread waiting for that core (devices outnumbering the cores)
  // runs now, not at the end of the system's time slice, which can be as
  // long as the loop: a profile kind's device would finish its sample last
  // (bm2d over 4 devices on 2 cores, device 0 4 times slower,
  // SCHED_PROFILE_AUTO: 2.4 to 2.9 ms an execution, 2.2 to 2.3 with the
  // yield). A data-bound loop's device keeps it: its next part finds the
  // core's cache its own (a sum of 4e6 took 2.3 ms yielding, 1.9 without);
  // but see runSampled for AUTO's first execution.
  if (K.Sched &&
      K.Sched->Cost.FlopsPerIteration >=
          ComputeBound * std::max(1.0, K.Sched->Cost.BytesPerIteration))
    sched_yield();
  if (S.Status == Slot::FailedBeforeResults) {
    S.Failed = S.Failed.unite(Iterations);
    S.Reductions = std::move(Before);
  }
}

/// A CPU offload device runs its share of a scheduled loop (BLOCK, the
/// model kinds, AUTO's splits) or of an owner-computes loop in sub-parts
/// of about this many bytes copied in and out, one after the other: each
/// sub-part's data is still in the core's cache when its kernel reads it and
/// when it is copied back, and its storage comes back from the storage cache,
/// each page already touched. Copied whole, a share of megabytes goes through
/// memory three times and, whenever its size changes (AUTO's learning), faults
/// in every page of fresh storage.
constexpr double SubPartBytes = 1 << 20;

int64_t Launcher::subParts(const Slot &S, int64_t Iterations) const {
  const bool Scheduled = K.Plan->ScheduledLoop >= 0;
  if (S.InHostMemory || !placedInHostPages(S.Device) ||
      (Scheduled && K.Sched->Mode == LoopSchedule::Queue))
    return 1;
  // A scheduled loop's arrays aligned to it are cut with it (planPart); an
  // owner-computes loop's arrays split along the loop (cutShare).
  auto Cut = [&](size_t I) {
    return Scheduled ? followsLoop(D, D.Arrays[I])
                     : cutAlongLoop(D, K.PlanIn.Accesses, I, itemDist(I),
                                    S.PartLoop);
  };
  double Bytes = Scheduled ? K.Sched->Cost.BytesPerIteration *
                                 static_cast<double>(Iterations)
                           : 0;
  // What each sub-part copies again: the arrays not cut, whole, and the
  // halo cells of those that are. An array not cut that is copied back (a
  // duplicate, merged once per device, or one with a split of its own)
  // would be copied back by each sub-part, over what the ones before
  // wrote: never in sub-parts.
  double Again = 0;
  for (size_t I = 0; I < D.Arrays.size(); ++I) {
    if (K.ItemIsResident[I] || E.Unused[I])
      continue;
    const Distribution &X = S.Plan->Items[I];
    const ArrayShape &Sh = K.Values.Arrays[I].Shape;
    const double Element = static_cast<double>(Sh.ElementSize);
    if (Cut(I)) {
      const double Held = static_cast<double>(X.held(S.Position).volume());
      const double Own = static_cast<double>(X.Owned[S.Position].volume());
      if (abi::copiesIn(D.Arrays[I].Map))
        Again += Element * (Held - Own);
      if (!Scheduled)
        Bytes += Element * (abi::copiesIn(D.Arrays[I].Map) * Held +
                            abi::copiesOut(D.Arrays[I].Map) * Own);
      continue;
    }
    if (abi::copiesOut(D.Arrays[I].Map))
      return 1;
    Again += Element * static_cast<double>(X.held(S.Position).volume());
  }
  double Parts = std::floor(Bytes / SubPartBytes);
  // Copied again, they may add an eighth to the share's copies; sub-parts
  // that would then be much larger than SubPartBytes gain nothing.
  if (Again > 0)
    Parts = std::min(Parts, 1 + Bytes / (8 * Again));
  if (Parts < 2 || Bytes / Parts > 2 * SubPartBytes)
    return 1;
  return std::min<int64_t>(Iterations, static_cast<int64_t>(Parts));
}

/// Sub-part P of Parts of R.
static Range subPart(Range R, int64_t P, int64_t Parts) {
  return {R.Begin + R.size() * P / Parts, R.Begin + R.size() * (P + 1) / Parts};
}

void Launcher::runRange(Slot &S, Range R, int64_t Parts,
                        std::vector<std::unique_ptr<KernelPlan>> *Cut) {
  for (int64_t P = 0; P < Parts; ++P) {
    IndexSet Part(subPart(R, P, Parts));
    if (Part.empty())
      continue;
    if (S.Status == Slot::FailedBeforeResults) {
      S.Failed = S.Failed.unite(Part);
    } else if (S.Status == Slot::Ok) {
      if (Cut)
        adoptPart(S, std::move((*Cut)[P]), Part);
      if (Cut || planPart(S, Part))
        runPart(S, Part);
    }
  }
}

std::vector<std::unique_ptr<KernelPlan>>
Launcher::cutShare(const Slot &S, Range Share, int64_t Parts) const {
  std::vector<bool> Copied(D.Arrays.size());
  for (size_t I = 0; I < D.Arrays.size(); ++I)
    Copied[I] = !K.ItemIsResident[I] && !E.Unused[I];
  std::vector<std::unique_ptr<KernelPlan>> Plans;
  std::string Why;
  for (int64_t P = 0; P < Parts; ++P) {
    auto Plan = std::make_unique<KernelPlan>();
    if (!planSubPart(K.PlanIn, *K.Plan, S.Position, S.PartLoop,
                     subPart(Share, P, Parts), Copied, *Plan, Why))
      return {};
    Plans.push_back(std::move(Plan));
  }
  return Plans;
}

void Launcher::runShare(Slot &S) {
  if (K.Plan->ScheduledLoop < 0) {
    // Owner computes: cut along the nest's first distributed loop (not
    // FULL), when the device runs consecutive iterations of it (cutShare
    // says whether its arrays can follow).
    const ProductSet &Its = S.Work->Iterations;
    unsigned L = 0;
    while (L < K.Nest.Rank && !D.Loops[L].Dist.distributed())
      ++L;
    if (L == K.Nest.Rank || Its.Dims[L].size() < 2 ||
        Its.Dims[L].ranges().size() != 1) {
      runSlot(S);
      return;
    }
    S.PartLoop = L;
  }
  const Range Share = S.Work->Iterations.Dims[S.PartLoop].hull();
  const int64_t Parts = subParts(S, Share.size());
  std::vector<std::unique_ptr<KernelPlan>> Cut;
  if (Parts > 1 && K.Plan->ScheduledLoop < 0)
    Cut = cutShare(S, Share, Parts);
  if (Parts <= 1 || (K.Plan->ScheduledLoop < 0 && Cut.empty()))
    runSlot(S);
  else
    runRange(S, Share, Parts, Cut.empty() ? nullptr : &Cut);
}

/// A loop a scheduler splits into parts at run time: chunks from a shared
/// queue that each device takes as it finishes the last, or a sample by
/// weights and then the rest by the rates the sample measured.
void Launcher::runScheduled(const std::vector<int> &Ids) {
  const LoopSchedule &Sch = *K.Sched;
  int64_t N = K.SchedTrips;
  if (Sch.Mode == LoopSchedule::Queue) {
    ChunkQueue Queue(N, Sch.Kind, Sch.Chunk,
                     static_cast<unsigned>(Slots.size()));
    runOnDevices(
        Ids, HostId,
        [&](unsigned I) {
          Slot &S = Slots[I];
          while (S.Status == Slot::Ok) {
            std::optional<Range> C = Queue.next();
            if (!C || !planPart(S, IndexSet(*C)))
              break;
            runPart(S, IndexSet(*C));
          }
        },
        regionEnd(), DeviceJobs::SharedQueue);
    // When every device failed, what they left of the queue goes to the
    // host with the first failed part.
    for (Slot &S : Slots)
      if (S.Status == Slot::FailedBeforeResults) {
        while (std::optional<Range> C = Queue.next())
          S.Failed = S.Failed.unite(IndexSet(*C));
        break;
      }
    return;
  }
  runSampled(Ids);
}

/// The profile kinds: a sample [0, Chunk) split by the weights, then the
/// rest [Chunk, N) by the rates measured. HOMP'16 waits for the whole
/// sample before splitting the rest: the devices done first sit idle until
/// the slowest is done (one device of two 4 times slower: 1.15 to 1.25
/// times the ideal). Here a device done with its sample while others still
/// run theirs takes the next piece of the rest, as large as its sample
/// part, and the last device to finish its sample splits what is left by
/// the rates measured so far, each device's share counted from when it
/// will be free (sharesWhenFree). A device's sample part counts in its
/// rate for what the region's earlier executions found it worth
/// (SampleBias: the device's rate on the rest over its rate on its sample
/// part); its pieces count as they are, being the rest's iterations.
void Launcher::runSampled(const std::vector<int> &Ids) {
  const LoopSchedule &Sch = *K.Sched;
  const int64_t N = K.SchedTrips;
  const size_t Count = Slots.size();
  std::vector<double> Weights;
  std::vector<int> SlotIds;
  for (const Slot &S : Slots) {
    Weights.push_back(Sch.Weights[S.Position]);
    SlotIds.push_back(S.Device);
  }
  // Guarded by M. Per slot (every slot has a weight above 0: the others
  // take no part): iterations and seconds of the parts it has finished;
  // the piece it runs (size 0: none) and when it began.
  std::mutex M;
  int64_t Next = std::min(Sch.Chunk, N); // the rest not handed out yet
  size_t Sampling = Count;               // devices still in their sample
  std::vector<int64_t> Done(Count, 0), Piece(Count, 0);
  std::vector<double> Seconds(Count, 0);
  std::vector<Clock::time_point> PieceBegan(Count);
  std::vector<bool> Out(Count, false); // a part failed: no more for it
  std::optional<std::vector<Range>> Rest;
  int64_t Unclaimed = N; // every device failed: what is left of the rest
  std::vector<bool> CutOff(Count, false), TookPieces(Count, false);
  // Per slot: the iterations and seconds of its sample part, and of its
  // part of the rest (the pieces and its share), which tell the region's
  // next executions how far the sample's rate was from the rest's.
  std::vector<int64_t> SampleDone(Count, 0), RestDone(Count, 0);
  std::vector<double> SampleSeconds(Count, 0), RestSeconds(Count, 0);
  std::vector<double> SlotBias; // none learned yet: 1 (correctedSampleRates)
  // The pieces' correction only where each device on the host's cores has
  // one of its own: on shared cores, pieces run time-sliced while other
  // devices sample, and their rate says little of the share's (learning it
  // made bm2d over 4 devices on 2 cores, one 4x slower, 13% slower; with a
  // core each, 4% faster).
  const bool OwnCores =
      static_cast<size_t>(hostCoreDevices(SlotIds, deviceTypes())) <=
      processCpus().size();
  std::vector<double> SlotPieceBias;
  for (const Slot &S : Slots) {
    SlotBias.push_back(
        S.Position < Sch.SampleBias.size() ? Sch.SampleBias[S.Position] : 1.0);
    SlotPieceBias.push_back(OwnCores && S.Position < Sch.PieceBias.size()
                                ? Sch.PieceBias[S.Position]
                                : 1.0);
  }
  // Per slot: the iterations and seconds of the pieces it ran.
  std::vector<int64_t> PieceDone(Count, 0);
  std::vector<double> PieceSeconds(Count, 0);

  // Under M, once the last sample is done: each working device's share of
  // [Next, N), by its rate and when it will be free.
  auto SplitRest = [&] {
    std::vector<Range> Parts(Count, Range{Next, Next});
    const int64_t Left = N - Next;
    // The sample parts and the pieces count for what the region's earlier
    // executions found them worth against the share (SampleBias,
    // PieceBias): a sample's first iterations may cost less than the
    // loop's, and small parts run slower than a share (each copies and
    // launches on its own).
    std::vector<double> Rates = correctedSampleRates(
        Done, SampleDone, Seconds, Weights, SlotBias, SlotPieceBias);
    std::vector<double> Working;
    {
      std::vector<double> Measured = sampleRates(Done, Seconds, Weights);
      for (size_t I = 0; I < Count; ++I)
        if (!Out[I])
          Working.push_back(Measured[I]);
    }
    if (Working.empty()) {
      Unclaimed = Next;
      Rest = std::move(Parts);
      return;
    }
    // The cutoff compares the devices' rates as measured (also when the
    // pieces left nothing to split, not when the sample was the whole
    // loop): a device it cuts runs nothing of the rest, so a correction
    // that cut it could never be learned again. sampleRates predicts a
    // device that finished nothing from its weight; with nothing measured
    // at all, the rates are equal.
    std::vector<double> Kept = sharesByRates(Working, Sch.Cutoff.value_or(0));
    std::vector<double> Use(Count, 0), Busy(Count, 0);
    Clock::time_point Now = Clock::now();
    for (size_t I = 0, W = 0; I < Count; ++I) {
      if (Out[I])
        continue;
      double Rate = Rates[I] > 0 ? Rates[I] : 1;
      if (!(Kept[W++] > 0)) {
        CutOff[I] = Sch.Chunk < N;
        continue;
      }
      Use[I] = Rate;
      if (Piece[I] > 0)
        Busy[I] = static_cast<double>(Piece[I]) / Rate -
                  std::chrono::duration<double>(Now - PieceBegan[I]).count();
    }
    if (Left <= 0) {
      Rest = std::move(Parts);
      return;
    }
    std::vector<double> Shares =
        capByMemory(SlotIds, sharesWhenFree(Use, Busy, Left), Left, Sch.Cost);
    for (size_t I = 0; I < Count; ++I) {
      if (Use[I] > 0 && !(Shares[I] > 0) && Busy[I] <= 0)
        CutOff[I] = true; // the memory cap left it none
      Range P = weightedBlockPart(Left, Shares, I);
      Parts[I] = {Next + P.Begin, Next + P.End};
    }
    Next = N;
    Rest = std::move(Parts);
  };

  runOnDevices(
      Ids, HostId,
      [&](unsigned I) {
        Slot &S = Slots[I];
        // The sample part and the pieces. A range given to a device that
        // failed goes to the host with the part that failed (runRange: no
        // more of the loop runs there). AUTO's first execution measures
        // every device: until the rest is split, each gives its core up
        // after each part whatever the loop (runPart does only for
        // compute-bound loops), or a device that got no time slice until
        // the others were done would be measured late, on a part the wait
        // made look slow (AUTO's stencil2d over 4 devices on 2 cores, 5
        // processes each: a median of 1.03 ms an execution after learning,
        // 0.91 with the yield).
        auto Run = [&](Range R) {
          runRange(S, R, 1);
          if (Sch.ChoseAuto)
            sched_yield();
        };
        // Under M: what a part that ran tells of the device's rate.
        auto Finished = [&](Range R, Clock::time_point Began) {
          Out[I] = S.Status != Slot::Ok;
          if (!Out[I]) {
            Done[I] += R.size();
            Seconds[I] += secondsSince(Began);
          }
        };
        Range Sample = weightedBlockPart(std::min(Sch.Chunk, N), Weights, I);
        Clock::time_point Began = Clock::now();
        Run(Sample);
        const int64_t PieceSize = std::max<int64_t>(1, Sample.size());
        std::unique_lock<std::mutex> Lock(M);
        Finished(Sample, Began);
        SampleDone[I] = Done[I];
        SampleSeconds[I] = Seconds[I];
        if (--Sampling == 0)
          SplitRest();
        while (!Rest && !Out[I] && Next < N) {
          Range R{Next, std::min(N, Next + PieceSize)};
          Next = R.End;
          Piece[I] = R.size();
          TookPieces[I] = true;
          PieceBegan[I] = Began = Clock::now();
          Lock.unlock();
          Run(R);
          Lock.lock();
          Piece[I] = 0;
          Finished(R, Began);
        }
        PieceDone[I] = Done[I] - SampleDone[I];
        PieceSeconds[I] = Seconds[I] - SampleSeconds[I];
        if (!Rest)
          return;
        Range Mine = (*Rest)[I];
        Lock.unlock();
        Began = Clock::now();
        runRange(S, Mine, subParts(S, Mine.size()));
        if (S.Status == Slot::Ok && Mine.size() > 0) {
          RestDone[I] += Mine.size();
          RestSeconds[I] += secondsSince(Began);
        }
      },
      regionEnd(), DeviceJobs::SharedQueue);
  // What the rest found of the sample parts, for the next execution of a
  // profile kind (not AUTO's first: its parts give their cores up, its
  // share does not, and AUTO does not sample again).
  if (!Sch.ChoseAuto) {
    std::vector<double> Observed(K.Devices.size(), 0),
        ObservedPieces(K.Devices.size(), 0);
    for (size_t I = 0; I < Count; ++I)
      if (Slots[I].Status == Slot::Ok) {
        Observed[Slots[I].Position] = sampleBiasObservation(
            SampleDone[I], SampleSeconds[I], RestDone[I], RestSeconds[I]);
        ObservedPieces[Slots[I].Position] = sampleBiasObservation(
            PieceDone[I], PieceSeconds[I], RestDone[I], RestSeconds[I]);
      }
    recordSampleBias(*K.Info, K.Devices, N, Observed, ObservedPieces);
  }

  // The cutoff may leave a device only its sample: HOMP_INFO says so, and
  // leaves it out of the imbalance unless it ran pieces of the rest too.
  for (size_t I = 0; I < Count; ++I)
    if (CutOff[I] && Slots[I].Status == Slot::Ok) {
      K.CutOff += (K.CutOff.empty() ? "" : ", ") + deviceLabel(Slots[I].Device);
      Slots[I].CutOff = !TookPieces[I];
    }
  // When every device failed, what no device took goes to the host with
  // the first failed part.
  if (Unclaimed < N)
    for (Slot &S : Slots)
      if (S.Status == Slot::FailedBeforeResults) {
        S.Failed = S.Failed.unite(IndexSet(Range{Unclaimed, N}));
        break;
      }
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

ProductSet Launcher::ranBy(const Slot &S) const {
  if (!S.Work || (!S.Parts && S.Status == Slot::FailedBeforeResults))
    return ProductSet{K.Nest.Rank, {}};
  ProductSet Ran = S.Work->Iterations;
  if (S.Parts)
    Ran.Dims[S.PartLoop] = S.Ran;
  return Ran;
}

void Launcher::combineReductions(std::vector<Slot *> &ById) {
  for (size_t I = 0; I < D.Reductions.size(); ++I) {
    ScalarType T = reductionType(I);
    std::vector<char> Acc(ById.front()->Reductions[I]);
    for (size_t S = 1; S < ById.size(); ++S)
      reductionCombine(D.Reductions[I].Op, T, Acc.data(),
                       ById[S]->Reductions[I].data());
    reductionCombine(D.Reductions[I].Op, T, K.Values.Reductions[I].Address,
                     Acc.data());
  }
}

/// Puts the devices' copies of duplicate arrays mapped back together: an
/// element one device changed takes that value; two devices changing it to
/// different values is an error, since no single answer is right.
void Launcher::mergeDuplicates(std::vector<Slot *> &ById) {
  for (size_t A = 0; A < D.Arrays.size(); ++A) {
    if (!isDuplicateBack(A) || K.ItemIsResident[A])
      continue;
    const ConstructValues::ArrayValues &V = K.Values.Arrays[A];
    Range Span = V.Shape.span(ProductSet::of(V.Shape.Section));
    int64_t Elem = V.Shape.ElementSize;
    char *Host = V.Base + Span.Begin * Elem;
    int64_t Count = Span.size();
    std::vector<char> Original(Host, Host + Count * Elem);
    std::vector<int> Writer(Count, -1);
    for (Slot *S : ById) {
      if (S->Staging[A].empty())
        continue;
      const char *Copy = S->Staging[A].data();
      for (int64_t I = 0; I < Count; ++I) {
        const char *Mine = Copy + I * Elem;
        if (std::memcmp(Mine, Original.data() + I * Elem, Elem) == 0)
          continue;
        if (Writer[I] >= 0 && std::memcmp(Mine, Host + I * Elem, Elem) != 0)
          constructFatal(*K.Info,
                         "devices " + std::to_string(Writer[I]) + " and " +
                             std::to_string(S->Device) +
                             " wrote different values to element " +
                             std::to_string(Span.Begin + I) + " of '" +
                             D.Arrays[A].Name +
                             "', which is not distributed; distribute it or "
                             "use a reduction");
        std::memcpy(Host + I * Elem, Mine, Elem);
        Writer[I] = S->Device;
      }
    }
  }
}

void Launcher::report(std::vector<Slot *> &ById, double Seconds,
                      bool Deferred) {
  const DeviceEnvironment &Env = deviceTypes();
  std::vector<DeviceReport> Rows;
  auto RowOf = [&](const Slot &S, const ProductSet &Ran) {
    DeviceReport Row;
    Row.Device = S.Device;
    Row.IsHost = S.Device == HostId;
    Row.Type = deviceTypeName(Env.typeOf(S.Device));
    Row.Work = describeWork(K.Nest, Ran);
    Row.Failed = S.Status == Slot::FailedBeforeResults;
    if (S.CutOff || (Ran.empty() && Row.Failed))
      Row.Share = DeviceReport::LeftOut;
    else if (Ran.empty())
      Row.Share = DeviceReport::NoChunk;
    Row.Launches = S.Launches;
    Row.BytesIn = S.BytesIn;
    Row.BytesOut = S.BytesOut;
    Row.Seconds = S.Seconds;
    return Row;
  };
  for (Slot *S : ById)
    Rows.push_back(RowOf(*S, ranBy(*S)));
  // The host's reruns of failed parts are the host's row (its id is the
  // last), after its own part when it took part.
  if (!HostReruns.empty()) {
    DeviceReport Host;
    std::vector<ProductSet> Ran;
    if (!ById.empty() && ById.back()->Device == HostId) {
      Host = Rows.back();
      Ran.push_back(ranBy(*ById.back()));
      Rows.pop_back();
    } else {
      Host.Device = HostId;
      Host.IsHost = true;
      Host.Type = deviceTypeName(Env.typeOf(HostId));
      Host.Share = DeviceReport::LeftOut;
    }
    for (const Slot &Again : HostReruns) {
      Ran.push_back(ranBy(Again));
      Host.Launches += Again.Launches;
      Host.Seconds += Again.Seconds;
      Host.RerunSeconds += Again.Seconds;
    }
    Host.Work = describeWork(K.Nest, Ran);
    Rows.push_back(Host);
  }
  std::string Text =
      formatReport(reportTitle(ById.size()), Seconds, /*Load=*/true, Rows);
  if (Deferred)
    deferMessage(std::move(Text));
  else
    message("%s", Text.c_str());
}

std::string Launcher::reportTitle(size_t Devices) const {
  std::string Title = "region " + K.Info->Location + ": " +
                      std::to_string(K.Nest.iterations()) + " iterations on " +
                      std::to_string(Devices) + " device" +
                      (Devices == 1 ? "" : "s");
  if (K.Topo.rank() > 1)
    Title += " (topology " + K.Topo.str() + ")";
  if (D.SharedMemory)
    Title += "; unified shared memory: no copies";
  if (K.Sched) {
    Title += "; schedule " + K.Sched->describe();
    if (!K.CutOff.empty())
      Title += "; cut off: " + K.CutOff;
  } else if (!K.NotScheduled.empty()) {
    Title += "; " + K.NotScheduled;
  }
  if (!K.OneDeviceWhy.empty())
    Title += "; on device " + deviceLabel(K.Devices.front()) +
             " alone, where every array is whole: " + K.OneDeviceWhy;
  for (const std::string &Note : K.Plan->WholeNotes)
    Title += "; " + Note;
  if (!RerunOf.empty())
    Title += "; the host ran the failed part of " + RerunOf;
  if (!Slots.empty() && Slots.front().Prebuilt)
    Title += "; asynchronous: the program went on while it ran";
  return Title;
}

/// A kernel that only works on data resident on its devices, passed by
/// value or as device addresses, with nothing to combine or copy back,
/// runs asynchronously: each device's launches are queued behind the work
/// already queued on it, and the program goes on. Whatever later reads
/// that data (a kernel, 'target update', the end of the data region)
/// queues behind it on the same device.
bool Launcher::canRunAsync(const std::vector<Slot> &Slots) const {
  // A scheduled loop runs in parts or learns from its times: it waits.
  if (!D.Reductions.empty() || Slots.empty() || K.Sched)
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
        if (!settings().Info)
          return;
        std::vector<Slot *> ById;
        for (Slot &S : Self->Slots)
          ById.push_back(&S);
        std::sort(ById.begin(), ById.end(), [](const Slot *A, const Slot *B) {
          return A->Device < B->Device;
        });
        Self->report(ById, secondsSince(Start), /*Deferred=*/true);
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
  K.Info->LastSeconds.store(secondsSince(Start), std::memory_order_relaxed);
  if (settings().Info) {
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
    message(
        "%s",
        formatReport(Title, secondsSince(Start), /*Load=*/true, {Row}).c_str());
  }
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

  std::vector<Slot *> ById;
  for (Slot &S : Slots)
    ById.push_back(&S);
  std::sort(ById.begin(), ById.end(),
            [](const Slot *A, const Slot *B) { return A->Device < B->Device; });
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
  if (settings().Info)
    report(ById, secondsSince(Start));
  return 0;
}

} // namespace

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
  auto Loop = std::find_if(D.Loops.begin(), D.Loops.end(), [](const abi::Loop &L) {
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
  K.Sched = scheduleLoop(*K.Info, Loop->Dist, K.Devices, K.SchedTrips,
                         kernelLoopCost(K, L, Nest));
  // A duplicated array mapped back is merged once per device: its parts
  // must not come in pieces.
  for (size_t I = 0; I < D.Arrays.size(); ++I)
    if (K.Sched->Mode != LoopSchedule::Shares && !D.Arrays[I].distributed() &&
        abi::copiesOut(D.Arrays[I].Map) && !K.ItemIsResident[I]) {
      inOneSharePerDevice(*K.Sched, K.Devices, K.SchedTrips,
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
    K.OnHostWhy = "'" + Use.Name + "' is resident in " +
                  std::to_string(All.size()) +
                  " sections made resident apart, and " +
                  (Uses ? "the loop uses elements " + Uses->str() +
                              ", which no one of them holds"
                        : "homp cannot bound the elements the loop uses (" +
                              (Use.Why.empty() ? std::string("no subscript")
                                               : Use.Why) +
                              ")");
  }
  return Chosen;
}

/// Plans K now that it runs (launchKernel). Returns false when it runs on
/// the host instead (clang's host fallback), after saying why.
static bool planInstance(KernelInstance &K) {
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
  if (K.Sched && K.Plan->ScheduledLoop < 0) {
    // Resident data never moves: the loop's own kind gives way.
    std::string Kind = K.Sched->ChoseAuto || K.Sched->Block
                           ? std::string("AUTO")
                           : abi::schedKindSpelling(K.Sched->Kind);
    std::string Note = D.Label.empty() ? "" : labelNote(D.Label);
    K.NotScheduled =
        !D.Label.empty()
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

int launchKernel(KernelInstance *Instance, void *Loc, int32_t NumTeams,
                 int32_t ThreadLimit, void *HostPtr, KernelArgs *Args,
                 HostThunk Thunk) {
  std::unique_ptr<KernelInstance> K(Instance);
  if (K->HostAsAsked)
    return runHostVersion(*K, *Args, Thunk);
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

} // namespace homp
