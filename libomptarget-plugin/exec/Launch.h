//===-- Launch.h - Running a distributed kernel on its devices --*- C++ -*-===//

#ifndef HOMP_LIBOMPTARGET_PLUGIN_LAUNCH_H
#define HOMP_LIBOMPTARGET_PLUGIN_LAUNCH_H

#include "Balance.h"
#include "Construct.h"
#include "Handles.h"
#include "KernelArgs.h"
#include "Replay.h"

#include "homp/DataEnvironment.h"
#include "homp/KernelPlan.h"

#include <cstdarg>

namespace homp {

/// The host version of a region's kernel, built by the homp pass: it calls
/// the region's host fallback with the given kernel parameters, after
/// checking their number; it returns non-zero when the number is wrong.
using HostThunk = int (*)(void **Params, int64_t NumParams);

/// One execution of a distributed kernel, from its marker call to its
/// launch.
struct KernelInstance : Instance {
  KernelInstance() : Instance(Kernel) {}
  ~KernelInstance() override;

  ConstructInfo *Info = nullptr;
  abi::Chunk *ChunkVar = nullptr;
  /// What the marker received: its values (readRawValues), the loops the
  /// chunk variable held, and the residency generation at the time.
  std::vector<long long> RawValues;
  abi::Chunk Loops{};
  uint64_t Generation = 0;
  /// The construct's last launches, when this execution repeats them (and
  /// nothing below is filled in yet).
  std::shared_ptr<const PreparedLaunch> Replay;
  ConstructValues Values;
  std::vector<int> Devices;
  Topology Topo;
  LoopNest Nest;
  /// What Plan was made from: a scheduler's parts and a share's sub-parts
  /// are planned from it.
  KernelPlanInput PlanIn;
  /// Shared with the construct's plan cache and with asynchronous launches.
  std::shared_ptr<const KernelPlan> Plan;
  /// The schedule of the nest's AUTO loop when a scheduler splits it
  /// (Plan.ScheduledLoop), and that loop's trip count.
  std::optional<LoopSchedule> Sched;
  int64_t SchedTrips = 0;
  std::string CutOff; ///< the devices Sched gives nothing, for reports
  /// What a profile kind's sample found of the iterations' costs where
  /// they are uneven (RateSplit::costs), for reports.
  std::string SampleCosts;
  /// Why an AUTO loop is not scheduled (owner computes), for HOMP_INFO.
  std::string NotScheduled;
  /// The labelled loop of a data region that remembers its chunks
  /// (LabelledSplit::Memory): whether this execution follows them (Sched
  /// kept: hands them out as devices become free, moving the elements of
  /// those another device takes) or keeps their owners; the resident
  /// arrays it uses that follow them; for HOMP_INFO, what it did.
  std::shared_ptr<ChunkMemory> Memory;
  bool Follow = false;
  LoopBounds MemoryBounds;
  std::vector<ResidentArray *> Followers;
  std::string MemoryNote;
  /// The loop is AUTO, and its data region memorizes it for AUTO
  /// (LabelledSplit::MemoryByAuto): it runs SCHED_DYNAMIC over the chunks.
  bool MemoryByAuto = false;
  /// Per access: the resident array it uses (a reference held), or nullptr.
  std::vector<ResidentArray *> AccessResidents;
  /// Per array: the resident array it is (a reference held), or nullptr.
  std::vector<ResidentArray *> ItemResidents;
  /// Per array: whether it is resident. An asynchronous launch gives its
  /// references (ItemResidents) back before its devices run it.
  std::vector<bool> ItemIsResident;
  /// The kernel runs on the host with the resident arrays it uses gathered
  /// there (KernelPlan::OnHost, or a resident array the plan cannot place),
  /// and why.
  bool OnHost = false;
  std::string OnHostWhy;
  /// Why the kernel runs on its first device alone (KernelPlan::OneDevice);
  /// empty when it does not.
  std::string OneDeviceWhy;
  /// Why the kernel cannot run on its devices (no device of its list, a
  /// topology that does not arrange them, ...), found by its marker; empty
  /// when it can.
  std::string HostOnlyWhy;
  /// It runs on the host as the program asked ('if' false, or
  /// OMP_TARGET_OFFLOAD=DISABLED): on the host's own data, as OpenMP says.
  bool HostAsAsked = false;
  /// Under an MPI job, when the kernel runs over its ranks: 'of 1000 over 2
  /// ranks' (this execution is this rank's part), for HOMP_INFO.
  std::string RankPart;
};

/// The marker of a kernel: reads its values and selects its devices, as
/// they are when the construct is encountered. Returns the instance, or
/// nullptr when the kernel runs on the host (after reporting why, if
/// something is wrong).
KernelInstance *beginKernel(ConstructInfo &Info, void *ChunkVar,
                            va_list Values);

/// Plans the kernel K (consumed), now that it runs (a 'nowait' kernel's
/// task may run long after its marker: the data it depends on is resident
/// only now), and runs it with clang's kernel arguments Args: each device
/// runs its launches on its proxy thread, the host (if it takes part) in
/// place through Thunk; reductions and duplicates are combined afterwards.
/// Returns 0, or non-zero when the kernel must run on the host instead
/// (clang then calls the host fallback).
int launchKernel(KernelInstance *K, void *Loc, int32_t NumTeams,
                 int32_t ThreadLimit, void *HostPtr, KernelArgs *Args,
                 HostThunk Thunk);

} // namespace homp

#endif // HOMP_LIBOMPTARGET_PLUGIN_LAUNCH_H
