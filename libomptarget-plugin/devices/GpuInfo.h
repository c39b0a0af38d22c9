//===-- GpuInfo.h - What the GPU vendors' runtimes say ----------*- C++ -*-===//
//
// libomptarget 19 has no API for a device's memory or multiprocessors. For
// homp-info, the vendors' own runtimes answer, loaded at run time (homp
// needs neither to build or to run): the CUDA driver API (libcuda.so.1)
// for NVIDIA GPUs, the HSA runtime (libhsa-runtime64.so.1) for AMD ones.
// libomptarget numbers the devices of each plugin in its vendor's order
// (CUDA ordinals; HSA's GPU agents as hsa_iterate_agents lists them), so
// the k-th NVIDIA device id is CUDA device k, where the program's images
// run on every GPU (a GPU no image runs on is no device: ProbeLibrary.h).
//
//===----------------------------------------------------------------------===//

#ifndef HOMP_LIBOMPTARGET_PLUGIN_GPUINFO_H
#define HOMP_LIBOMPTARGET_PLUGIN_GPUINFO_H

#include "homp/MachineModel.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace homp {

/// What a vendor's runtime tells of one GPU; -1 where it does not.
struct GpuFacts {
  int64_t TotalBytes = -1;
  int64_t FreeBytes = -1;
  int ComputeUnits = -1; ///< streaming multiprocessors, compute units
  /// 1 when kernels can read the host's ordinary (pageable) memory, as
  /// 'requires unified_shared_memory' needs (HMM or ATS); 0 when they
  /// cannot.
  int PageableAccess = -1;
  /// The architecture offload images name: sm_90 from the compute
  /// capability, gfx90a from HSA's agent name; empty when not told.
  std::string Arch;
};

/// Whether an offload image built for ImageArch runs on a GPU of DeviceArch
/// (GpuFacts::Arch), as LLVM's offload plugins decide: a cubin (sm_XY) on
/// GPUs of its compute capability's major version and a minor at least its
/// own (sm_80 on sm_86, not on sm_90); an AMD image (gfx90a, built for no
/// particular target features) on its processor only.
bool imageRunsOn(std::string_view ImageArch, std::string_view DeviceArch);

/// The first of Archs (separated by commas) whose image runs on
/// DeviceArch; empty if none does. (Of two that run there, LLVM's runtime
/// loads the library's last: this says whether one runs, not which.)
std::string imageFor(std::string_view Archs, std::string_view DeviceArch);

/// The NVIDIA GPUs in CUDA's order; empty without a CUDA driver.
const std::vector<GpuFacts> &cudaGpus();

/// The AMD GPUs in HSA's order; empty without an HSA runtime. HSA 5 tells
/// no free memory.
const std::vector<GpuFacts> &hsaGpus();

/// cudaGpus() (Vendor abi::TypeNVGPU) or hsaGpus() (abi::TypeAMDGPU) where
/// some offload device of Types is of that type, else none: a program that
/// does not use a vendor's GPUs does not set up its runtime (the CUDA
/// driver's context, which cudaGpus() makes to read free memory, costs time
/// and GPU memory).
const std::vector<GpuFacts> &gpusUsed(unsigned Vendor,
                                      const std::vector<unsigned> &Types);

/// Which vendor's runtime owns memory an offload device allocated: the
/// type of that device (abi::TypeNVGPU, abi::TypeAMDGPU), or abi::TypeCPU
/// when no GPU runtime claims it (the host plugin allocates host memory).
/// Cuda and Hsa answer whether their runtime owns a pointer; an empty
/// function stands for a runtime that is not there.
using OwnsPointer = std::function<bool(const void *)>;
std::vector<unsigned> typesOfAllocations(const std::vector<const void *> &Ptrs,
                                         const OwnsPointer &Cuda,
                                         const OwnsPointer &Hsa);

/// typesOfAllocations asking the CUDA driver and the HSA runtime, loaded
/// for the question (a null pointer is a device that could not allocate:
/// CPU).
std::vector<unsigned> typesOfAllocations(const std::vector<const void *> &Ptrs);

/// The vendor's number of device Id: how many devices before it have its
/// type (Types: per device id, its type bit); -1 for an unknown id.
int vendorOrdinal(const std::vector<unsigned> &Types, int Id);

/// What the vendor's runtime (Cuda: cudaGpus(), Hsa: hsaGpus()) tells of
/// device Id, when it is a GPU the runtime knows.
std::optional<GpuFacts> gpuFacts(const std::vector<unsigned> &Types, int Id,
                                 const std::vector<GpuFacts> &Cuda,
                                 const std::vector<GpuFacts> &Hsa);

/// Why a construct under 'requires unified_shared_memory' cannot run on
/// Devices (whose kernels would read the host's memory in place): the
/// first GPU among them that its vendor's runtime says cannot read the
/// host's pageable memory; empty when none.
std::string sharedMemoryRefusal(const std::vector<int> &Devices,
                                const std::vector<unsigned> &Types,
                                const std::vector<GpuFacts> &Cuda,
                                const std::vector<GpuFacts> &Hsa);

/// Gives each GPU of M whose memory the machine file does not give (memsize)
/// the memory its vendor's runtime says is free when the program starts
/// (else its total): AUTO and the model and profile kinds keep each
/// device's share within it.
void addGpuMemory(MachineModel &M, const std::vector<unsigned> &Types,
                  const std::vector<GpuFacts> &Cuda,
                  const std::vector<GpuFacts> &Hsa);

} // namespace homp

#endif // HOMP_LIBOMPTARGET_PLUGIN_GPUINFO_H
