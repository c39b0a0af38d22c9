//===-- Api.cpp - libhomp's C interface -----------------------------------===//
//
// Every symbol libhomp.so exports is defined in this file; exports.map keeps
// everything else hidden. The __homp_* entry points are called by code the
// homp plugin and pass generate (homp/EntryPoints.def), never by users.
//
//===----------------------------------------------------------------------===//

#include "DataDirectives.h"
#include "DeviceArgs.h"
#include "Devices.h"
#include "HaloExchange.h"
#include "Handles.h"
#include "KernelArgs.h"
#include "Launch.h"
#include "Libomptarget.h"
#include "Observe.h"
#include "ProxyPool.h"
#include "Residency.h"

#include "homp/Version.h"

#include "homp.h"

#include <omp.h>

#include <algorithm>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

using namespace homp;

namespace {

/// The first device a construct compiled without the homp pass runs on.
int64_t firstDevice(ConstructInfo &Info, va_list Values) {
  ConstructValues V = readValues(Info, Values);
  std::vector<int> Devices = selectDevices(Info.Desc, V);
  int64_t Device = hostDevice();
  if (V.IfTrue && !Devices.empty())
    Device = Devices.front();
  if (!Info.WarnedNoPass.exchange(true))
    constructNote(Info, "compiled without the homp pass; it runs on device " +
                            std::to_string(Device) + " only");
  return Device;
}

/// The data construct behind a handle, or nullptr for a plain device id.
Instance *dataInstance(int64_t DeviceId) {
  Instance *I = instanceOf(DeviceId);
  return I && I->Kind == Instance::Data ? I : nullptr;
}

MapperArgs mapperArgs(void *Loc, int32_t N, void **Bases, void **Ptrs,
                      int64_t *Sizes, int64_t *Types, void **Names,
                      void **Mappers) {
  return MapperArgs{Loc, N, Bases, Ptrs, Sizes, Types, Names, Mappers};
}

void checkStandardCopiesOut(void *Loc, const char *What, int64_t DeviceId,
                            int32_t N, void **Ptrs, const int64_t *Sizes,
                            const int64_t *Types);

/// A standard kernel on device Id while homp holds arrays on devices.
int standardKernel(void *Loc, int64_t DeviceId, int64_t Id, int32_t NumTeams,
                   int32_t ThreadLimit, void *HostPtr, KernelArgs *Args) {
  {
    std::optional<DeviceArgs> Parts;
    for (unsigned K = 0; K < Args->NumArgs; ++K) {
      int64_t T = Args->ArgTypes[K];
      if (!(T & MapTargetParam) || (T & (MapLiteral | MapPrivate)) ||
          (T & MapMemberOfMask) || Args->ArgSizes[K] != 0)
        continue;
      void *Device = residentAddressFor(static_cast<int>(Id), Args->ArgPtrs[K]);
      if (!Device)
        continue;
      if (!Parts)
        Parts.emplace(*Args);
      Parts->setLiteral(K, Device);
    }
    if (Parts)
      return __tgt_target_kernel(Loc, DeviceId, NumTeams, ThreadLimit, HostPtr,
                                 &Parts->args());
  }
  return __tgt_target_kernel(Loc, DeviceId, NumTeams, ThreadLimit, HostPtr,
                             Args);
}


} // namespace

extern "C" {

const char *homp_version(void) { return homp::Version; }

int homp_get_counters(int Device, homp_counters_t *Out, size_t Size) {
  if (!Out || Device < 0 || Device > omp_get_num_devices())
    return -1;
  homp::waitForQueued(Device);
  homp::DeviceCounters C = homp::counters().of(Device);
  homp_counters_t All{};
  All.kernels = C.Kernels;
  All.queued_kernels = C.QueuedKernels;
  All.iterations = C.Iterations;
  All.bytes_in = C.BytesIn;
  All.bytes_out = C.BytesOut;
  All.halo_bytes = C.HaloBytes;
  std::memcpy(Out, &All, std::min(Size, sizeof All));
  return 0;
}

void homp_reset_counters(void) {
  for (int D = 0; D < omp_get_num_devices(); ++D)
    homp::waitForQueued(D);
  homp::counters().reset();
}

/// The marker of a kernel compiled without the homp pass: it runs, whole,
/// on the first device of its list.
long long __homp_region(const char *Descriptor, void *ChunkVar, ...) {
  (void)ChunkVar;
  va_list Values;
  va_start(Values, ChunkVar);
  int64_t Device = firstDevice(constructInfo(Descriptor), Values);
  va_end(Values);
  return Device;
}

/// The marker of a kernel the homp pass saw: returns the handle the launch
/// receives as device id.
long long __homp_region_distributed(const char *Descriptor, void *ChunkVar,
                                    ...) {
  va_list Values;
  va_start(Values, ChunkVar);
  KernelInstance *K = beginKernel(constructInfo(Descriptor), ChunkVar, Values);
  va_end(Values);
  return K ? handleOf(K) : HostFallback;
}

/// The marker of a data construct compiled without the homp pass: it maps
/// its items, whole, on the first device of its list.
long long __homp_data(const char *Descriptor, ...) {
  va_list Values;
  va_start(Values, Descriptor);
  int64_t Device = firstDevice(constructInfo(Descriptor), Values);
  va_end(Values);
  return Device;
}

/// The marker of a data construct the homp pass saw.
long long __homp_data_distributed(const char *Descriptor, ...) {
  va_list Values;
  va_start(Values, Descriptor);
  Instance *DI = beginDataConstruct(constructInfo(Descriptor), Values);
  va_end(Values);
  return DI ? handleOf(DI) : HostFallback;
}

/// 'halo_exchange' / 'halo_update': fills the halos of the arrays that are
/// distributed on devices (with or without the homp pass: without it,
/// nothing is, and there is nothing to do).
void __homp_halo(const char *Descriptor, ...) {
  // Collective: the program's 'nowait' kernels before it (target tasks,
  // perhaps not started yet) write the arrays first (SPEC section 5).
  waitForChildTasks();
  const ConstructInfo &Info = constructInfo(Descriptor);
  va_list Values;
  va_start(Values, Descriptor);
  ConstructValues V = readValues(Info, Values);
  va_end(Values);
  haloUpdate(Info, V);
}

/// Replaces __tgt_target_kernel in modules the homp pass transformed.
int __homp_target_kernel(void *Loc, int64_t DeviceId, int32_t NumTeams,
                         int32_t ThreadLimit, void *HostPtr, KernelArgs *Args,
                         HostThunk Thunk) {
  if (Instance *I = instanceOf(DeviceId))
    if (I->Kind == Instance::Kernel)
      return launchKernel(static_cast<KernelInstance *>(I), Loc, NumTeams,
                          ThreadLimit, HostPtr, Args, Thunk);
  if (DeviceId == HostFallback)
    return 1;
  waitForQueued(DeviceId);
  if (!anyResident() || !Args)
    return __tgt_target_kernel(Loc, DeviceId, NumTeams, ThreadLimit, HostPtr,
                               Args);
  int64_t Id = DeviceId == -1 ? omp_get_default_device() : DeviceId;
  checkStandardCopiesOut(Loc, "'target'", Id,
                         static_cast<int32_t>(Args->NumArgs), Args->ArgPtrs,
                         Args->ArgSizes, Args->ArgTypes);
  // A duplicated array homp holds on every device: this device's copy is
  // brought up to date, and the kernel may change it (the others are stale
  // then).
  std::vector<ResidentArray *> Duplicates = duplicatesUsed(
      static_cast<int>(Id), static_cast<int32_t>(Args->NumArgs), Args->ArgPtrs,
      /*Refresh=*/true);
  int Rc = standardKernel(Loc, DeviceId, Id, NumTeams, ThreadLimit, HostPtr,
                          Args);
  doneWithDuplicates(Duplicates, static_cast<int>(Id), /*Changed=*/true);
  return Rc;
}

} // extern "C"

namespace {

/// " at FILE:LINE:COL" for a standard construct, from clang's ident_t (its
/// psource is ";file;function;line;column;;", "unknown" for each without
/// -g); empty when it tells nothing.
std::string sourceOf(void *Loc) {
  struct Ident {
    int32_t Reserved1, Flags, Reserved2, Reserved3;
    const char *Source;
  };
  const char *Source = Loc ? static_cast<Ident *>(Loc)->Source : nullptr;
  std::string Text = Source ? Source : "";
  std::vector<std::string> Fields; // "", file, function, line, column, ...
  for (size_t Start = 0, Semi;
       (Semi = Text.find(';', Start)) != std::string::npos; Start = Semi + 1)
    Fields.push_back(Text.substr(Start, Semi - Start));
  if (Fields.size() < 5 || Fields[1].empty() || Fields[1] == "unknown")
    return "";
  return " at " + Fields[1] + ":" + Fields[3] + ":" + Fields[4];
}

/// A standard construct's 'always, from' maps on one device of an array
/// homp holds on several: one that reaches the device's halo would copy
/// stale values back, so that is an error. (Without 'always' nothing is
/// copied while homp holds the array.)
void checkStandardCopiesOut(void *Loc, const char *What, int64_t DeviceId,
                            int32_t N, void **Ptrs, const int64_t *Sizes,
                            const int64_t *Types) {
  if (!anyResident())
    return;
  if (DeviceId == -1) // OFFLOAD_DEVICE_DEFAULT
    DeviceId = omp_get_default_device();
  for (int32_t K = 0; K < N; ++K) {
    if ((Types[K] & MapNonContig) || !(Types[K] & MapFrom) ||
        !(Types[K] & MapAlways))
      continue;
    std::string Why =
        haloCopiedOut(static_cast<int>(DeviceId), Ptrs[K], Sizes[K]);
    if (Why.empty())
      continue;
    message("homp: error: %s%s: %s\n", What, sourceOf(Loc).c_str(),
            Why.c_str());
    std::fflush(nullptr);
    std::_Exit(EXIT_FAILURE);
  }
}

/// A standard 'target update' on one device of an array homp holds on
/// several: libomptarget moves nothing for a section that reaches past the
/// device's part, so that is an error rather than silence.
void checkStandardUpdate(void *Loc, int64_t DeviceId, int32_t N, void **Ptrs,
                         int64_t *Sizes, int64_t *Types) {
  if (!anyResident())
    return;
  if (DeviceId == -1) // OFFLOAD_DEVICE_DEFAULT
    DeviceId = omp_get_default_device();
  for (int32_t K = 0; K < N; ++K) {
    if (Types[K] & MapNonContig)
      continue;
    std::string Why =
        partialUpdate(static_cast<int>(DeviceId), Ptrs[K], Sizes[K]);
    if (Why.empty())
      continue;
    message("homp: error: 'target update'%s: %s\n", sourceOf(Loc).c_str(),
            Why.c_str());
    std::fflush(nullptr);
    std::_Exit(EXIT_FAILURE);
  }
}

/// A standard 'target update' on one device of duplicated arrays homp
/// holds on every device: a copy read from ('from') is brought up to date
/// first; one written to ('to') makes the other devices' copies stale.
class StandardUpdate {
public:
  StandardUpdate(MapperCall Call, int64_t DeviceId, int32_t N, void **Ptrs,
                 const int64_t *Sizes, const int64_t *Types)
      : Device(static_cast<int>(DeviceId == -1 ? omp_get_default_device()
                                               : DeviceId)) {
    if (Call != MapperCall::Update || !anyResident())
      return;
    for (int32_t K = 0; K < N; ++K) {
      if (Types[K] & MapNonContig)
        continue;
      std::vector<ResidentArray *> Used = duplicatesUsed(
          Device, 1, &Ptrs[K], /*Refresh=*/(Types[K] & MapFrom) != 0);
      if (Types[K] & MapTo)
        Written.insert(Written.end(), Used.begin(), Used.end());
      else
        doneWithDuplicates(Used, Device, /*Changed=*/false);
      if (Types[K] & MapTo)
        Sent.push_back({Ptrs[K], Sizes[K]});
    }
  }
  /// After libomptarget's copies: the halo cells past the ends of the
  /// arrays it updated come from the values it copied.
  ~StandardUpdate() {
    for (const auto &[Ptr, Size] : Sent) {
      std::string Error;
      if (!refillEdgeHalos(Device, Ptr, Size, Error)) {
        message("homp: error: 'target update': %s\n", Error.c_str());
        std::fflush(nullptr);
        std::_Exit(EXIT_FAILURE);
      }
    }
    doneWithDuplicates(Written, Device, /*Changed=*/true);
  }

private:
  int Device;
  std::vector<ResidentArray *> Written;
  std::vector<std::pair<const void *, int64_t>> Sent;
};

} // namespace

extern "C" {

#define HOMP_DATA_ENTRY(Name, Call, Real)                                      \
  void Name(void *Loc, int64_t DeviceId, int32_t N, void **Bases, void **Ptrs, \
            int64_t *Sizes, int64_t *Types, void **Names, void **Mappers) {    \
    if (Instance *DI = dataInstance(DeviceId))                                 \
      return runDataConstruct(                                                 \
          DI, Call,                                                            \
          mapperArgs(Loc, N, Bases, Ptrs, Sizes, Types, Names, Mappers));      \
    if (DeviceId == HostFallback)                                              \
      return;                                                                  \
    if (Call == MapperCall::Update)                                            \
      checkStandardUpdate(Loc, DeviceId, N, Ptrs, Sizes, Types);               \
    if (Call == MapperCall::End)                                               \
      checkStandardCopiesOut(Loc, "'target exit data' or 'target data'",       \
                             DeviceId, N, Ptrs, Sizes, Types);                 \
    waitForQueued(DeviceId);                                                   \
    StandardUpdate Copies(Call, DeviceId, N, Ptrs, Sizes, Types);              \
    Real(Loc, DeviceId, N, Bases, Ptrs, Sizes, Types, Names, Mappers);         \
  }

/// Replace the data mapping entry points in modules the pass transformed.
HOMP_DATA_ENTRY(__homp_target_data_begin_mapper, MapperCall::Begin,
                __tgt_target_data_begin_mapper)
HOMP_DATA_ENTRY(__homp_target_data_end_mapper, MapperCall::End,
                __tgt_target_data_end_mapper)
HOMP_DATA_ENTRY(__homp_target_data_update_mapper, MapperCall::Update,
                __tgt_target_data_update_mapper)
#undef HOMP_DATA_ENTRY

// The nowait forms run inside the target task clang made for them; homp's
// part runs synchronously there.
#define HOMP_DATA_NOWAIT_ENTRY(Name, Call, Real)                               \
  void Name(void *Loc, int64_t DeviceId, int32_t N, void **Bases, void **Ptrs, \
            int64_t *Sizes, int64_t *Types, void **Names, void **Mappers,      \
            int32_t DepNum, void *DepList, int32_t NoAliasNum,                 \
            void *NoAliasList) {                                               \
    if (Instance *DI = dataInstance(DeviceId))                                 \
      return runDataConstruct(                                                 \
          DI, Call,                                                            \
          mapperArgs(Loc, N, Bases, Ptrs, Sizes, Types, Names, Mappers));      \
    if (DeviceId == HostFallback)                                              \
      return;                                                                  \
    if (Call == MapperCall::Update)                                            \
      checkStandardUpdate(Loc, DeviceId, N, Ptrs, Sizes, Types);               \
    if (Call == MapperCall::End)                                               \
      checkStandardCopiesOut(Loc, "'target exit data' or 'target data'",       \
                             DeviceId, N, Ptrs, Sizes, Types);                 \
    waitForQueued(DeviceId);                                                   \
    StandardUpdate Copies(Call, DeviceId, N, Ptrs, Sizes, Types);              \
    Real(Loc, DeviceId, N, Bases, Ptrs, Sizes, Types, Names, Mappers, DepNum,  \
         DepList, NoAliasNum, NoAliasList);                                    \
  }

HOMP_DATA_NOWAIT_ENTRY(__homp_target_data_begin_nowait_mapper,
                       MapperCall::Begin,
                       __tgt_target_data_begin_nowait_mapper)
HOMP_DATA_NOWAIT_ENTRY(__homp_target_data_end_nowait_mapper, MapperCall::End,
                       __tgt_target_data_end_nowait_mapper)
HOMP_DATA_NOWAIT_ENTRY(__homp_target_data_update_nowait_mapper,
                       MapperCall::Update,
                       __tgt_target_data_update_nowait_mapper)
#undef HOMP_DATA_NOWAIT_ENTRY

/// Replace the program's device copies in modules the pass transformed:
/// they come after homp's kernels queued on their devices.
int __homp_omp_target_memcpy(void *Dst, const void *Src, size_t Length,
                             size_t DstOffset, size_t SrcOffset, int DstDevice,
                             int SrcDevice) {
  waitForQueued(DstDevice);
  waitForQueued(SrcDevice);
  return omp_target_memcpy(Dst, Src, Length, DstOffset, SrcOffset, DstDevice,
                           SrcDevice);
}

int __homp_omp_target_memcpy_rect(
    void *Dst, const void *Src, size_t ElementSize, int NumDims,
    const size_t *Volume, const size_t *DstOffsets, const size_t *SrcOffsets,
    const size_t *DstDimensions, const size_t *SrcDimensions, int DstDevice,
    int SrcDevice) {
  // Dst and Src null: a query of the dimensions supported.
  if (Dst || Src) {
    waitForQueued(DstDevice);
    waitForQueued(SrcDevice);
  }
  return omp_target_memcpy_rect(Dst, Src, ElementSize, NumDims, Volume,
                                DstOffsets, SrcOffsets, DstDimensions,
                                SrcDimensions, DstDevice, SrcDevice);
}

} // extern "C"
