//===-- Launcher.h - One execution of a distributed kernel ------*- C++ -*-===//
//
// libhomp's private view of a kernel's execution (Launch.h's launchKernel):
// the devices' slots and the Launcher that runs them. KernelInstance.cpp
// reads the kernel's values and plans it; LaunchSteps.cpp runs each
// device's part as the steps the core lowers it to (homp/Steps.h:
// allocations, copies, launches); Launch.cpp builds the kernel's
// arguments, reruns failed parts on the host, runs the devices' parts
// together or asynchronously; LaunchParts.cpp runs loops in parts
// (scheduled loops, sub-parts, their number the core's subPartCount);
// LaunchResults.cpp combines what the devices brought back and reports it
// (HOMP_INFO).
//
//===----------------------------------------------------------------------===//

#ifndef HOMP_LIBOMPTARGET_PLUGIN_LAUNCHER_H
#define HOMP_LIBOMPTARGET_PLUGIN_LAUNCHER_H

#include "DeviceArgs.h"
#include "Devices.h"
#include "Launch.h"
#include "OffloadTransport.h"
#include "ProxyPool.h"
#include "Residency.h"

#include "homp/Executor.h"
#include "homp/IndexSet.h"
#include "homp/KernelPlan.h"
#include "homp/Reduction.h"
#include "homp/Steps.h"

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace homp {
namespace launch {

using Clock = std::chrono::steady_clock;

/// A region whose last execution took this long (seconds) has long parts:
/// the program's thread hands them all to the proxies (runOnDevices).
constexpr double LongRegion = 1e-3;

inline double secondsSince(Clock::time_point T) {
  return std::chrono::duration<double>(Clock::now() - T).count();
}

/// Whether array A of D is split with the loop (ALIGN(loop), ALIGN of the
/// loop's label): its part follows the iterations a device runs.
inline bool followsLoop(const abi::Descriptor &D, const abi::Array &A) {
  for (unsigned Dm = 0; Dm < A.Rank; ++Dm)
    if (A.Dims[Dm].Kind == abi::Policy::Align &&
        (A.Dims[Dm].ToLoop || A.Dims[Dm].Target == D.Label))
      return true;
  return false;
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

/// One device's share of a launch and everything it points at; its status,
/// error and bytes are the executor's (homp/Executor.h) over the parts it
/// ran. A device whose part the host ran again stays FailedBeforeResults.
struct Slot : PartState {
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
  /// A memorizing loop's chunk: the parts of the arrays that follow the
  /// chunks as PartPlan was made from them (the device owning the chunk).
  std::vector<std::unique_ptr<Distribution>> PartDists;
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
  int64_t Launches = 0;
  double Seconds = 0;
  Clock::time_point Began; ///< of the part it runs
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
  void runFollowing(const std::vector<int> &Ids);
  bool moveChunk(Slot &S, int64_t Chunk, unsigned From, int64_t &Bytes);
  bool planChunk(Slot &S, const IndexSet &Iterations);
  void runSampled(const std::vector<int> &Ids);
  std::optional<int64_t> pageOffset(const Slot &S, size_t I, Range Span) const;
  /// The steps of S's part (homp/Steps.h's lowerPart).
  std::vector<Step> stepsOf(const Slot &S) const;
  /// Whether array I moves, and which ways (lowerPart, subPartCount).
  StepArray stepArray(size_t I) const;
  /// What S's steps act on: its arrays, their storage and staging copies.
  PartData partData(Slot &S) const;
  class SlotActions;
  bool allocate(Slot &S, const Step &St);
  DeviceArgs argsFor(Slot &S);
  void launch(Slot &S, DeviceArgs &A, const LaunchPiece &P);
  void hold(Slot &S);
  void rerunOnHost(Slot &S);
  /// The iterations S ran and brought back (none for a part that failed).
  ProductSet ranBy(const Slot &S) const;
  void combineReductions(std::vector<Slot *> &ById);
  void mergeDuplicates(std::vector<Slot *> &ById);
  /// The slots in the order of their devices' ids (combining, reports).
  std::vector<Slot *> slotsById();
  /// HOMP_INFO's report of an execution that took Seconds (publishReport).
  std::string reportText(std::vector<Slot *> &ById, double Seconds);
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

/// Plans K now that it runs (launchKernel): its schedule, its plan, the
/// resident arrays it uses (KernelInstance.cpp). Returns false when it runs
/// on the host instead (clang's host fallback), after saying why.
bool planInstance(KernelInstance &K);

/// Plans chunk Iterations of K's memorizing loop on the device at Position
/// (KernelInstance::Follow), from the parts of the arrays that follow the
/// chunks as they are with that device owning it (kept in Dists, which the
/// plan's input points to). False with Error when it cannot run there.
bool planChunkOn(const KernelInstance &K, unsigned Position,
                 const IndexSet &Iterations, KernelPlan &Out,
                 std::vector<std::unique_ptr<Distribution>> &Dists,
                 std::string &Error);

} // namespace launch
} // namespace homp

#endif // HOMP_LIBOMPTARGET_PLUGIN_LAUNCHER_H
