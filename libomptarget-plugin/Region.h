//===-- Region.h - A distributed region at run time -------------*- C++ -*-===//
//
// The marker call of a region execution creates a RegionInstance: the
// region's parsed descriptor, the values the marker received, the resolved
// device list and the plan. Its handle is what the offload call receives as
// device id; the launch consumes it.
//
//===----------------------------------------------------------------------===//

#ifndef HOMP_LIBOMPTARGET_PLUGIN_REGION_H
#define HOMP_LIBOMPTARGET_PLUGIN_REGION_H

#include "homp/DeviceSelection.h"
#include "homp/Environment.h"
#include "homp/Reduction.h"
#include "homp/RegionDescriptor.h"
#include "homp/RegionPlan.h"

#include <atomic>
#include <cstdarg>
#include <cstdint>
#include <string>
#include <vector>

namespace homp {

/// The layout of the plugin's chunk variable.
struct Chunk {
  long long First, Bound, Step;
};

/// One region of the program, shared by all its executions.
struct RegionInfo {
  RegionDescriptor Desc;
  std::atomic<bool> WarnedNoPass{false};
};

struct ArrayValues {
  char *Begin = nullptr; ///< address of element Lower
  int64_t Lower = 0, Length = 0, ElemSize = 1;
};

struct ReductionValues {
  void *Address = nullptr;
  ScalarType Type{ScalarType::Signed, 4};
};

struct RegionInstance {
  static constexpr uint64_t Magic = 0x686f6d7072656769ULL;
  uint64_t Check = Magic;
  RegionInfo *Info = nullptr;
  Chunk *ChunkVar = nullptr;
  LoopBounds Loop;
  std::vector<int> Devices; ///< resolved ids; the host is the initial device
  std::vector<ArrayValues> Arrays;
  std::vector<ReductionValues> Reductions;
  bool IfTrue = true;
  RegionPlan Plan;
};

/// The devices that exist (counted once; the set does not change).
const DeviceEnvironment &deviceEnvironment();

/// The settings of the environment, read once (fatal on invalid values).
const Settings &settings();

/// The RegionInfo for a descriptor string (parsed on first use; fatal if it
/// is from another homp version).
RegionInfo &regionInfo(const char *Descriptor);

/// Reads the marker's values for Info from Values into a new instance and
/// resolves its devices.
RegionInstance *createInstance(RegionInfo &Info, void *ChunkVar,
                               va_list Values);

/// Handles: device ids that name an instance. libomptarget never sees them.
int64_t handleOf(RegionInstance *R);
RegionInstance *instanceOf(int64_t DeviceId);

/// Reports a region's run-time error. Under OMP_TARGET_OFFLOAD=MANDATORY it
/// is fatal; otherwise it is a warning that the region runs on the host.
void regionError(const RegionDescriptor &Desc, const std::string &Message);

/// Reports an error after which no result would be right, and stops.
[[noreturn]] void regionFatal(const RegionDescriptor &Desc,
                              const std::string &Message);

/// A note printed only under HOMP_INFO.
void regionNote(const RegionDescriptor &Desc, const std::string &Message);

} // namespace homp

#endif // HOMP_LIBOMPTARGET_PLUGIN_REGION_H
