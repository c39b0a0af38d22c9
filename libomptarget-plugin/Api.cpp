//===-- Api.cpp - libhomp's C interface -----------------------------------===//
//
// Every symbol libhomp.so exports is defined in this file; exports.map keeps
// everything else hidden. The __homp_* entry points are called by code the
// homp plugin and pass generate, never by users.
//
//===----------------------------------------------------------------------===//

#include "KernelArgs.h"
#include "Launch.h"
#include "Region.h"

#include "homp/Version.h"

#include <omp.h>

#include <cstdarg>

using namespace homp;

namespace {

/// Device id that makes the launch fall back to the host (clang's own path).
constexpr int64_t HostFallback = static_cast<int64_t>(0x4850ULL << 48);

/// Creates the instance and its plan; on any problem the region runs on the
/// host (or the program stops, under OMP_TARGET_OFFLOAD=MANDATORY).
int64_t beginDistributed(const char *Descriptor, void *ChunkVar,
                         va_list Values) {
  RegionInfo &Info = regionInfo(Descriptor);
  const RegionDescriptor &D = Info.Desc;
  // OMP_TARGET_OFFLOAD=DISABLED: every region runs on the host, silently.
  if (settings().Offload == OffloadPolicy::Disabled)
    return HostFallback;
  RegionInstance *R = createInstance(Info, ChunkVar, Values);
  if (!R)
    return HostFallback;
  if (!R->IfTrue) {
    delete R;
    return HostFallback;
  }
  if (R->Devices.empty()) {
    regionError(D, "none of the devices of its 'device' clause exists");
    delete R;
    return HostFallback;
  }
  std::vector<ArrayExtent> Extents;
  for (const ArrayValues &A : R->Arrays)
    Extents.push_back({A.Lower, A.Length});
  PlanError Err;
  if (!planRegion(D, R->Devices.size(), R->Loop, Extents, R->Plan, Err)) {
    int Device =
        Err.Kind == PlanError::OutsidePart ? R->Devices[Err.Device] : 0;
    regionError(D, describePlanError(D, Err, Device));
    delete R;
    return HostFallback;
  }
  return handleOf(R);
}

} // namespace

extern "C" {

/// The homp version, e.g. "0.1.0".
const char *homp_version(void) { return homp::Version; }

/// The marker of a region compiled without the homp pass: the region runs,
/// whole, on the first device of its list.
long long __homp_region(const char *Descriptor, void *ChunkVar, ...) {
  RegionInfo &Info = regionInfo(Descriptor);
  va_list Values;
  va_start(Values, ChunkVar);
  RegionInstance *R = createInstance(Info, ChunkVar, Values);
  va_end(Values);
  int64_t Device = omp_get_initial_device();
  if (R && R->IfTrue && !R->Devices.empty())
    Device = R->Devices.front();
  delete R;
  if (!Info.WarnedNoPass.exchange(true))
    regionNote(Info.Desc, "compiled without the homp pass; it runs on device " +
                              std::to_string(Device) + " only");
  return Device;
}

/// The marker of a region the homp pass saw: returns the handle the launch
/// receives as device id.
long long __homp_region_distributed(const char *Descriptor, void *ChunkVar,
                                    ...) {
  va_list Values;
  va_start(Values, ChunkVar);
  int64_t Handle = beginDistributed(Descriptor, ChunkVar, Values);
  va_end(Values);
  return Handle;
}

/// Replaces __tgt_target_kernel in modules the homp pass transformed.
int __homp_target_kernel(void *Loc, int64_t DeviceId, int32_t NumTeams,
                         int32_t ThreadLimit, void *HostPtr, KernelArgs *Args,
                         HostThunk Thunk) {
  if (RegionInstance *R = instanceOf(DeviceId))
    return launchRegion(R, Loc, NumTeams, ThreadLimit, HostPtr, Args, Thunk);
  if (DeviceId == HostFallback)
    return 1;
  return __tgt_target_kernel(Loc, DeviceId, NumTeams, ThreadLimit, HostPtr,
                             Args);
}

} // extern "C"
