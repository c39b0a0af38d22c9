//===-- Region.cpp - A distributed region at run time ---------------------===//

#include "Region.h"

#include "homp/DeviceSelection.h"

#include <omp.h>

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <unordered_map>

extern "C" {
void __tgt_rtl_init(void);
void __tgt_rtl_deinit(void);
}

namespace homp {

const Settings &settings() {
  static const Settings S = [] {
    std::string Error;
    std::optional<Settings> Read =
        readSettings([](const char *Name) { return std::getenv(Name); }, Error);
    if (!Read) {
      std::fprintf(stderr, "homp: error: %s\n", Error.c_str());
      std::exit(EXIT_FAILURE);
    }
    return *Read;
  }();
  return S;
}

RegionInfo &regionInfo(const char *Descriptor) {
  static std::mutex M;
  static auto *Cache =
      new std::unordered_map<const char *, std::unique_ptr<RegionInfo>>();
  std::lock_guard<std::mutex> Lock(M);
  std::unique_ptr<RegionInfo> &Slot = (*Cache)[Descriptor];
  if (!Slot) {
    auto Info = std::make_unique<RegionInfo>();
    std::string Error;
    if (!parseRegionDescriptor(Descriptor, Info->Desc, Error)) {
      std::fprintf(stderr, "homp: error: %s\n", Error.c_str());
      std::exit(EXIT_FAILURE);
    }
    Slot = std::move(Info);
  }
  return *Slot;
}

const DeviceEnvironment &deviceEnvironment() {
  static const DeviceEnvironment Env = [] {
    // libomptarget 19 initialises itself when the program registers its
    // offload images; a program without any (compiled with no offload
    // target) would crash in omp_get_num_devices. Holding a reference
    // makes it safe in both cases.
    __tgt_rtl_init();
    std::atexit(__tgt_rtl_deinit);
    return DeviceEnvironment{omp_get_num_devices(), omp_get_initial_device(),
                             omp_get_default_device()};
  }();
  return Env;
}

RegionInstance *createInstance(RegionInfo &Info, void *ChunkVar,
                               va_list Values) {
  const RegionDescriptor &D = Info.Desc;
  auto *R = new RegionInstance();
  R->Info = &Info;
  R->ChunkVar = static_cast<Chunk *>(ChunkVar);
  R->Loop = {R->ChunkVar->First, R->ChunkVar->Bound, R->ChunkVar->Step, D.Op};

  std::vector<int64_t> DeviceValues;
  for (DeviceSpecKind K : D.Devices)
    for (unsigned I = 0; I < deviceSpecValues(K); ++I)
      DeviceValues.push_back(va_arg(Values, long long));
  for (size_t A = 0; A < D.Arrays.size(); ++A) {
    ArrayValues V;
    V.Begin = static_cast<char *>(va_arg(Values, void *));
    V.Lower = va_arg(Values, long long);
    V.Length = va_arg(Values, long long);
    V.ElemSize = va_arg(Values, long long);
    R->Arrays.push_back(V);
  }
  for (const ReductionDesc &RD : D.Reductions) {
    ReductionValues V;
    V.Address = va_arg(Values, void *);
    long long Size = va_arg(Values, long long);
    long long Code = va_arg(Values, long long);
    std::optional<ScalarType> T = decodeScalarType(Code, Size);
    if (!T || !reductionApplies(RD.Op, *T)) {
      regionError(D, "cannot reduce '" + RD.Name + "' with '" +
                         reductionOpName(RD.Op) +
                         "' across devices: unsupported type");
      delete R;
      return nullptr;
    }
    V.Type = *T;
    R->Reductions.push_back(V);
  }
  if (D.HasIf)
    R->IfTrue = va_arg(Values, long long) != 0;

  DeviceEnvironment Env = deviceEnvironment();
  R->Devices = resolveDevices(D.Devices, DeviceValues, Env);
  return R;
}

// A handle is the instance's address with a tag in the (unused) top bits;
// it is a positive number no device id comes near.
static constexpr uint64_t HandleTag = 0x4850ULL << 48;
static constexpr uint64_t HandleMask = 0xffffULL << 48;

int64_t handleOf(RegionInstance *R) {
  return static_cast<int64_t>(reinterpret_cast<uintptr_t>(R) | HandleTag);
}

RegionInstance *instanceOf(int64_t DeviceId) {
  uint64_t Bits = static_cast<uint64_t>(DeviceId);
  if ((Bits & HandleMask) != HandleTag)
    return nullptr;
  auto *R = reinterpret_cast<RegionInstance *>(Bits & ~HandleMask);
  return R && R->Check == RegionInstance::Magic ? R : nullptr;
}

void regionError(const RegionDescriptor &Desc, const std::string &Message) {
  if (settings().Offload == OffloadPolicy::Mandatory) {
    std::fprintf(stderr,
                 "homp: error: region %s: %s (OMP_TARGET_OFFLOAD=MANDATORY)\n",
                 Desc.Location.c_str(), Message.c_str());
    std::exit(EXIT_FAILURE);
  }
  std::fprintf(stderr, "homp: warning: region %s: %s; running it on the host\n",
               Desc.Location.c_str(), Message.c_str());
}

void regionFatal(const RegionDescriptor &Desc, const std::string &Message) {
  std::fprintf(stderr, "homp: error: region %s: %s\n", Desc.Location.c_str(),
               Message.c_str());
  std::exit(EXIT_FAILURE);
}

void regionNote(const RegionDescriptor &Desc, const std::string &Message) {
  if (settings().Info)
    std::fprintf(stderr, "homp: region %s: %s\n", Desc.Location.c_str(),
                 Message.c_str());
}

} // namespace homp
