//===-- GpuInfo.cpp - What the GPU vendors' runtimes say ------------------===//
//
// The few entry points used are declared here with the types of cuda.h
// (CUDA 12/13) and hsa.h / hsa_ext_amd.h (ROCm 5), and looked up with
// dlsym: nothing of either is needed at build time.
//
//===----------------------------------------------------------------------===//

#include "GpuInfo.h"

#include "homp/Abi.h"
#include "homp/DeviceSelection.h"

#include <dlfcn.h>

#include <algorithm>
#include <cstddef>
#include <cstring>

namespace homp {

namespace {

/// Looks up Name in Lib as a function of type F; nullptr if absent.
template <typename F> F symbol(void *Lib, const char *Name) {
  return reinterpret_cast<F>(dlsym(Lib, Name));
}

// cuda.h: CUresult is an enum (0: CUDA_SUCCESS), CUdevice an int, CUcontext
// a pointer.
constexpr int CudaSuccess = 0;
constexpr int CudaMultiprocessorCount = 16; // CU_DEVICE_ATTRIBUTE_...
constexpr int CudaPageableMemoryAccess = 88; // CU_DEVICE_ATTRIBUTE_...
constexpr int CudaComputeCapabilityMajor = 75; // CU_DEVICE_ATTRIBUTE_...
constexpr int CudaComputeCapabilityMinor = 76;

std::vector<GpuFacts> askCuda() {
  std::vector<GpuFacts> Out;
  void *Lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!Lib)
    return Out;
  auto Init = symbol<int (*)(unsigned)>(Lib, "cuInit");
  auto Count = symbol<int (*)(int *)>(Lib, "cuDeviceGetCount");
  auto Get = symbol<int (*)(int *, int)>(Lib, "cuDeviceGet");
  auto Total = symbol<int (*)(size_t *, int)>(Lib, "cuDeviceTotalMem_v2");
  auto Attribute =
      symbol<int (*)(int *, int, int)>(Lib, "cuDeviceGetAttribute");
  auto Retain = symbol<int (*)(void **, int)>(Lib, "cuDevicePrimaryCtxRetain");
  auto Release = symbol<int (*)(int)>(Lib, "cuDevicePrimaryCtxRelease_v2");
  auto Push = symbol<int (*)(void *)>(Lib, "cuCtxPushCurrent_v2");
  auto Pop = symbol<int (*)(void **)>(Lib, "cuCtxPopCurrent_v2");
  auto MemInfo = symbol<int (*)(size_t *, size_t *)>(Lib, "cuMemGetInfo_v2");
  int N = 0;
  if (!Init || !Count || !Get || Init(0) != CudaSuccess ||
      Count(&N) != CudaSuccess)
    return Out; // the library stays loaded: libomptarget's plugin uses it
  for (int I = 0; I < N; ++I) {
    GpuFacts F;
    int Dev = 0;
    if (Get(&Dev, I) == CudaSuccess) {
      size_t Bytes = 0;
      if (Total && Total(&Bytes, Dev) == CudaSuccess)
        F.TotalBytes = static_cast<int64_t>(Bytes);
      int Units = 0;
      if (Attribute &&
          Attribute(&Units, CudaMultiprocessorCount, Dev) == CudaSuccess)
        F.ComputeUnits = Units;
      int Pageable = 0;
      if (Attribute &&
          Attribute(&Pageable, CudaPageableMemoryAccess, Dev) == CudaSuccess)
        F.PageableAccess = Pageable != 0;
      int Major = 0, Minor = 0;
      if (Attribute &&
          Attribute(&Major, CudaComputeCapabilityMajor, Dev) == CudaSuccess &&
          Attribute(&Minor, CudaComputeCapabilityMinor, Dev) == CudaSuccess)
        F.Arch = "sm_" + std::to_string(Major * 10 + Minor);
      // Free memory needs a context: the primary one, which the offload
      // plugin shares.
      void *Ctx = nullptr;
      if (Retain && Release && Push && Pop && MemInfo &&
          Retain(&Ctx, Dev) == CudaSuccess) {
        size_t Free = 0, All = 0;
        if (Push(Ctx) == CudaSuccess) {
          if (MemInfo(&Free, &All) == CudaSuccess)
            F.FreeBytes = static_cast<int64_t>(Free);
          void *Popped = nullptr;
          Pop(&Popped);
        }
        Release(Dev);
      }
    }
    Out.push_back(F);
  }
  return Out;
}

// hsa.h and hsa_ext_amd.h (ROCm 5).
struct HsaAgent {
  uint64_t Handle;
};
struct HsaPool {
  uint64_t Handle;
};
constexpr int HsaSuccess = 0;
constexpr int HsaAgentInfoName = 0;             // HSA_AGENT_INFO_NAME
constexpr int HsaAgentInfoDevice = 17;          // HSA_AGENT_INFO_DEVICE
constexpr int HsaDeviceTypeGpu = 1;             // HSA_DEVICE_TYPE_GPU
constexpr int HsaAmdComputeUnitCount = 0xA002;  // HSA_AMD_AGENT_INFO_...
constexpr int HsaPoolSegment = 0;               // HSA_AMD_MEMORY_POOL_INFO_...
constexpr int HsaPoolGlobalFlags = 1;
constexpr int HsaPoolSize = 2;
constexpr int HsaSegmentGlobal = 0;             // HSA_AMD_SEGMENT_GLOBAL
constexpr uint32_t HsaCoarseGrained = 4;        // ..._GLOBAL_FLAG_COARSE_GRAINED

struct HsaCalls {
  int (*AgentInfo)(HsaAgent, int, void *);
  int (*IteratePools)(HsaAgent, int (*)(HsaPool, void *), void *);
  int (*PoolInfo)(HsaPool, int, void *);
  std::vector<GpuFacts> *Out;
};

std::vector<GpuFacts> askHsa() {
  std::vector<GpuFacts> Out;
  void *Lib = dlopen("libhsa-runtime64.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!Lib)
    return Out;
  auto Init = symbol<int (*)()>(Lib, "hsa_init");
  auto ShutDown = symbol<int (*)()>(Lib, "hsa_shut_down");
  auto Iterate = symbol<int (*)(int (*)(HsaAgent, void *), void *)>(
      Lib, "hsa_iterate_agents");
  HsaCalls Calls{
      symbol<int (*)(HsaAgent, int, void *)>(Lib, "hsa_agent_get_info"),
      symbol<int (*)(HsaAgent, int (*)(HsaPool, void *), void *)>(
          Lib, "hsa_amd_agent_iterate_memory_pools"),
      symbol<int (*)(HsaPool, int, void *)>(Lib,
                                            "hsa_amd_memory_pool_get_info"),
      &Out};
  if (!Init || !ShutDown || !Iterate || !Calls.AgentInfo || Init() != HsaSuccess)
    return Out;
  Iterate(
      [](HsaAgent Agent, void *Data) {
        auto &C = *static_cast<HsaCalls *>(Data);
        int Type = -1;
        if (C.AgentInfo(Agent, HsaAgentInfoDevice, &Type) != HsaSuccess ||
            Type != HsaDeviceTypeGpu)
          return HsaSuccess;
        GpuFacts F;
        char Name[64] = {}; // gfx90a: the processor, as images name it
        if (C.AgentInfo(Agent, HsaAgentInfoName, Name) == HsaSuccess)
          F.Arch.assign(Name, strnlen(Name, sizeof Name));
        uint32_t Units = 0;
        if (C.AgentInfo(Agent, HsaAmdComputeUnitCount, &Units) == HsaSuccess)
          F.ComputeUnits = static_cast<int>(Units);
        // The device memory: the coarse-grained global pool, the one the
        // offload plugin allocates from.
        struct Found {
          HsaCalls *C;
          int64_t Bytes = -1;
        } Pools{&C};
        if (C.IteratePools && C.PoolInfo)
          C.IteratePools(
              Agent,
              [](HsaPool Pool, void *D) {
                auto &P = *static_cast<Found *>(D);
                int Segment = -1;
                uint32_t Flags = 0;
                size_t Size = 0;
                if (P.C->PoolInfo(Pool, HsaPoolSegment, &Segment) ==
                        HsaSuccess &&
                    Segment == HsaSegmentGlobal &&
                    P.C->PoolInfo(Pool, HsaPoolGlobalFlags, &Flags) ==
                        HsaSuccess &&
                    (Flags & HsaCoarseGrained) &&
                    P.C->PoolInfo(Pool, HsaPoolSize, &Size) == HsaSuccess)
                  P.Bytes = static_cast<int64_t>(Size);
                return HsaSuccess;
              },
              &Pools);
        F.TotalBytes = Pools.Bytes;
        C.Out->push_back(F);
        return HsaSuccess;
      },
      &Calls);
  ShutDown(); // HSA counts its users: the offload plugin keeps its own
  return Out;
}

constexpr int CuPointerAttributeMemoryType = 2; // CU_POINTER_ATTRIBUTE_...
constexpr unsigned CuMemoryTypeDevice = 2;      // CU_MEMORYTYPE_DEVICE
constexpr int HsaPointerTypeHsa = 1;            // HSA_EXT_POINTER_TYPE_HSA

/// hsa_amd_pointer_info_t, as far as the type.
struct HsaPointerInfo {
  uint32_t Size;
  int Type;
  void *AgentBase;
  void *HostBase;
  size_t Bytes;
  void *UserData;
  uint64_t AgentOwner;
  uint32_t GlobalFlags;
  bool Registered;
};

} // namespace

std::vector<unsigned> typesOfAllocations(const std::vector<const void *> &Ptrs,
                                         const OwnsPointer &Cuda,
                                         const OwnsPointer &Hsa) {
  std::vector<unsigned> Types;
  for (const void *P : Ptrs) {
    unsigned Type = abi::TypeCPU;
    if (P && Cuda && Cuda(P))
      Type = abi::TypeNVGPU;
    else if (P && Hsa && Hsa(P))
      Type = abi::TypeAMDGPU;
    Types.push_back(Type);
  }
  return Types;
}

std::vector<unsigned>
typesOfAllocations(const std::vector<const void *> &Ptrs) {
  OwnsPointer Cuda, Hsa;
  // The libraries stay loaded: libomptarget's plugins use them.
  if (void *Lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL)) {
    auto Init = symbol<int (*)(unsigned)>(Lib, "cuInit");
    auto Attribute =
        symbol<int (*)(void *, int, uint64_t)>(Lib, "cuPointerGetAttribute");
    if (Init && Attribute && Init(0) == CudaSuccess)
      Cuda = [Attribute](const void *P) {
        unsigned Kind = 0;
        return Attribute(&Kind, CuPointerAttributeMemoryType,
                         reinterpret_cast<uint64_t>(P)) == CudaSuccess &&
               Kind == CuMemoryTypeDevice;
      };
  }
  void *HsaLib = nullptr;
  int (*ShutDown)() = nullptr;
  if ((HsaLib = dlopen("libhsa-runtime64.so.1", RTLD_NOW | RTLD_LOCAL))) {
    auto Init = symbol<int (*)()>(HsaLib, "hsa_init");
    ShutDown = symbol<int (*)()>(HsaLib, "hsa_shut_down");
    auto Info =
        symbol<int (*)(const void *, HsaPointerInfo *, void *(*)(size_t),
                       uint32_t *, void *)>(HsaLib, "hsa_amd_pointer_info");
    if (Init && ShutDown && Info && Init() == HsaSuccess)
      Hsa = [Info](const void *P) {
        HsaPointerInfo I{};
        I.Size = sizeof(I);
        return Info(P, &I, nullptr, nullptr, nullptr) == HsaSuccess &&
               I.Type == HsaPointerTypeHsa;
      };
    else
      ShutDown = nullptr;
  }
  std::vector<unsigned> Types = typesOfAllocations(Ptrs, Cuda, Hsa);
  if (ShutDown)
    ShutDown(); // HSA counts its users: the offload plugin keeps its own
  return Types;
}

namespace {

/// N of "sm_N"; -1 when Arch is not of that form.
int smNumber(std::string_view Arch) {
  if (Arch.substr(0, 3) != "sm_" || Arch.size() < 5 || Arch.size() > 6)
    return -1;
  int N = 0;
  for (char C : Arch.substr(3)) {
    if (C < '0' || C > '9')
      return -1;
    N = N * 10 + (C - '0');
  }
  return N;
}

} // namespace

bool imageRunsOn(std::string_view ImageArch, std::string_view DeviceArch) {
  int Image = smNumber(ImageArch), Device = smNumber(DeviceArch);
  if (Image >= 0 || Device >= 0)
    return Image >= 0 && Device >= 0 && Image / 10 == Device / 10 &&
           Image % 10 <= Device % 10;
  return ImageArch.substr(0, 3) == "gfx" && ImageArch == DeviceArch;
}

std::string imageFor(std::string_view Archs, std::string_view DeviceArch) {
  while (!Archs.empty()) {
    size_t Comma = Archs.find(',');
    std::string_view Arch = Archs.substr(0, Comma);
    if (imageRunsOn(Arch, DeviceArch))
      return std::string(Arch);
    Archs = Comma == std::string_view::npos ? "" : Archs.substr(Comma + 1);
  }
  return "";
}

const std::vector<GpuFacts> &cudaGpus() {
  static const std::vector<GpuFacts> G = askCuda();
  return G;
}

const std::vector<GpuFacts> &hsaGpus() {
  static const std::vector<GpuFacts> G = askHsa();
  return G;
}

const std::vector<GpuFacts> &gpusUsed(unsigned Vendor,
                                      const std::vector<unsigned> &Types) {
  static const std::vector<GpuFacts> None;
  if (std::find(Types.begin(), Types.end(), Vendor) == Types.end())
    return None;
  return Vendor == abi::TypeNVGPU    ? cudaGpus()
         : Vendor == abi::TypeAMDGPU ? hsaGpus()
                                     : None;
}

int vendorOrdinal(const std::vector<unsigned> &Types, int Id) {
  if (Id < 0 || Id >= static_cast<int>(Types.size()))
    return -1;
  int K = 0;
  for (int I = 0; I < Id && I < static_cast<int>(Types.size()); ++I)
    K += Types[I] == Types[Id];
  return K;
}

std::optional<GpuFacts> gpuFacts(const std::vector<unsigned> &Types, int Id,
                                 const std::vector<GpuFacts> &Cuda,
                                 const std::vector<GpuFacts> &Hsa) {
  if (Id < 0 || Id >= static_cast<int>(Types.size()))
    return std::nullopt;
  const std::vector<GpuFacts> *Gpus = Types[Id] == abi::TypeNVGPU    ? &Cuda
                                      : Types[Id] == abi::TypeAMDGPU ? &Hsa
                                                                     : nullptr;
  int K = vendorOrdinal(Types, Id);
  if (!Gpus || K < 0 || K >= static_cast<int>(Gpus->size()))
    return std::nullopt;
  return (*Gpus)[K];
}

std::string sharedMemoryRefusal(const std::vector<int> &Devices,
                                const std::vector<unsigned> &Types,
                                const std::vector<GpuFacts> &Cuda,
                                const std::vector<GpuFacts> &Hsa) {
  for (int Id : Devices) {
    std::optional<GpuFacts> F = gpuFacts(Types, Id, Cuda, Hsa);
    if (F && F->PageableAccess == 0)
      return "device " + std::to_string(Id) + " (" + deviceTypeName(Types[Id]) +
             ") cannot read the host's memory, which 'requires "
             "unified_shared_memory' has every device work on (its driver "
             "reports no pageable memory access: no HMM or ATS); leave it "
             "out with HOMP_DEVICES";
  }
  return "";
}

void addGpuMemory(MachineModel &M, const std::vector<unsigned> &Types,
                  const std::vector<GpuFacts> &Cuda,
                  const std::vector<GpuFacts> &Hsa) {
  for (size_t Id = 0; Id < M.Devices.size() && Id < Types.size(); ++Id) {
    std::optional<GpuFacts> F =
        gpuFacts(Types, static_cast<int>(Id), Cuda, Hsa);
    if (!F || M.Devices[Id].MemoryMB > 0)
      continue;
    int64_t Bytes = F->FreeBytes >= 0 ? F->FreeBytes : F->TotalBytes;
    if (Bytes > 0)
      M.Devices[Id].MemoryMB = static_cast<double>(Bytes) / 1e6;
  }
}

} // namespace homp
