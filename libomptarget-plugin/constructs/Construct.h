//===-- Construct.h - A distributed construct at run time -------*- C++ -*-===//
//
// Every construct the plugin rewrote calls a marker with its descriptor and
// run-time values (homp/Abi.h). This reads them: the descriptor once per
// construct, the values at every execution. It also reports a construct's
// errors, named by its source location.
//
//===----------------------------------------------------------------------===//

#ifndef HOMP_LIBOMPTARGET_PLUGIN_CONSTRUCT_H
#define HOMP_LIBOMPTARGET_PLUGIN_CONSTRUCT_H

#include "DeviceChunks.h"

#include "homp/Abi.h"
#include "homp/DeviceSelection.h"
#include "homp/Distribution.h"
#include "homp/KernelPlan.h"
#include "homp/LoopSpace.h"
#include "homp/Topology.h"

#include <atomic>
#include <cstdarg>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace homp {

struct PreparedLaunch;

/// One construct of the program, shared by all its executions.
struct ConstructInfo {
  abi::Descriptor Desc;
  std::vector<abi::ValueSlot> Layout;
  std::string Location; ///< FILE:LINE:COL
  std::atomic<bool> WarnedNoPass{false};
  /// Its kernel ran on the host with resident arrays gathered there, and
  /// said so (once per construct).
  std::atomic<bool> WarnedGathered{false};
  /// How long its last execution that waited for its devices took.
  std::atomic<double> LastSeconds{0};
  /// A kernel's last plan (KernelPlanCache), kept when PurePlans: its plans
  /// depend on nothing but their input (planIsPure).
  bool PurePlans = false;
  KernelPlanCache Plans;
  /// A kernel's chunk variable on each device.
  DeviceChunks Chunks;
  /// A kernel's last asynchronous launches, to repeat (Replay.h).
  std::mutex PreparedLock;
  std::shared_ptr<const PreparedLaunch> Prepared; ///< guarded by PreparedLock
};

/// The ConstructInfo of a descriptor string (parsed on first use; fatal if
/// the program was compiled by another homp version).
ConstructInfo &constructInfo(const char *Descriptor);

/// The run-time values of one execution, by meaning.
struct ConstructValues {
  std::vector<int64_t> DeviceValues; ///< for resolveDevices, in order
  std::vector<std::optional<int64_t>> TopologyDims;
  std::array<int64_t, abi::MaxLoops> LoopBlocks{};
  struct ArrayValues {
    char *Base = nullptr; ///< host address of element [0]...[0]
    ArrayShape Shape;
    std::array<int64_t, MaxRank> Blocks{};
    /// The devices its 'topology(...)' names.
    ItemDevices Own;
    /// Host address of the section's first element.
    char *first() const;
    /// That of the section clang mapped, where a rank's part narrowed the
    /// section since (RankKernel.h); nullptr: first().
    char *Mapped = nullptr;
  };
  std::vector<ArrayValues> Arrays;
  std::vector<void *> AccessAddresses;
  /// Per access: the run-time bounds of its subscripts with terms.
  std::vector<TermValues> SubscriptTerms;
  struct ReductionValues {
    void *Address = nullptr;
    int64_t Size = 0, TypeCode = 0;
  };
  std::vector<ReductionValues> Reductions;
  struct DataLoopValues {
    LoopNest Nest;
    std::array<int64_t, abi::MaxLoops> Blocks{};
  };
  std::vector<DataLoopValues> DataLoops;
  bool IfTrue = true;
  std::vector<void *> HaloAddresses;
  /// Per body loop of the descriptor: its bounds (counted loops only).
  std::vector<LoopBounds> BodyLoops;
};

/// The values of Info's layout, as the marker received them.
std::vector<long long> readRawValues(const ConstructInfo &Info,
                                     va_list Values);
/// Reads the values of Info's layout from Values.
ConstructValues readValues(const ConstructInfo &Info, va_list Values);
/// The values of Info's layout by meaning, from readRawValues's.
ConstructValues readValues(const ConstructInfo &Info,
                           const std::vector<long long> &Raw);

/// The devices a construct selects, HOMP_DEVICES applied.
std::vector<int> selectDevices(const abi::Descriptor &D,
                               const ConstructValues &V);

/// Why the construct D cannot run on Devices (see sharedMemoryRefusal):
/// empty unless D is compiled under 'requires unified_shared_memory' and
/// one of them is a GPU that cannot read the host's memory.
std::string sharedMemoryProblem(const abi::Descriptor &D,
                                const std::vector<int> &Devices);

/// The error when a construct's device list selects no device.
std::string noDevicesMessage();

/// The topology of N devices a construct asks for (one dimension without a
/// topology clause); std::nullopt with Error when it cannot be made.
std::optional<Topology> constructTopology(const abi::Descriptor &D,
                                          const ConstructValues &V,
                                          unsigned N, std::string &Error);

/// Reports a construct's run-time error after which it runs on the host:
/// a warning, or fatal under OMP_TARGET_OFFLOAD=MANDATORY or when the host
/// cannot run it (refuseHostFallback).
void constructError(const ConstructInfo &Info, const std::string &Message);

/// Stops the program when the construct is about to run on the host
/// because Why, but cannot: an array has a periodic or reflecting halo,
/// which the kernel reads past the host array's ends.
void refuseHostFallback(const ConstructInfo &Info, const std::string &Why);

/// Reports an error after which no result would be right, and stops.
[[noreturn]] void constructFatal(const ConstructInfo &Info,
                                 const std::string &Message);

/// A note printed only under HOMP_INFO.
void constructNote(const ConstructInfo &Info, const std::string &Message);

} // namespace homp

#endif // HOMP_LIBOMPTARGET_PLUGIN_CONSTRUCT_H
