//===-- GpuInfoTest.cpp - GPUs as their vendors' runtimes describe them ---===//

#include "GpuInfo.h"

#include "homp/Abi.h"

#include <gtest/gtest.h>

#include <dlfcn.h>

namespace homp {
namespace {

TEST(GpuInfo, VendorOrdinalsCountDevicesOfTheSameTypeBefore) {
  const unsigned C = abi::TypeCPU, N = abi::TypeNVGPU, A = abi::TypeAMDGPU;
  // Plugins lay their devices out one after the other, in any order.
  std::vector<unsigned> Types = {N, N, A, C, C, A, N};
  std::vector<int> Want = {0, 1, 0, 0, 1, 1, 2};
  for (int Id = 0; Id < static_cast<int>(Types.size()); ++Id)
    EXPECT_EQ(vendorOrdinal(Types, Id), Want[Id]) << "device " << Id;
  EXPECT_EQ(vendorOrdinal(Types, -1), -1);
  EXPECT_EQ(vendorOrdinal(Types, 7), -1);
  EXPECT_EQ(vendorOrdinal({}, 0), -1);
}

// The tests find stand-ins for the vendors' runtimes first (fake/): two
// NVIDIA GPUs and two AMD ones with known numbers.
TEST(GpuInfo, ReadsTheCudaDriver) {
  const std::vector<GpuFacts> &G = cudaGpus();
  ASSERT_EQ(G.size(), 2u);
  EXPECT_EQ(G[0].TotalBytes, int64_t(1) << 30);
  EXPECT_EQ(G[0].FreeBytes, int64_t(1) << 28);
  EXPECT_EQ(G[0].ComputeUnits, 132);
  EXPECT_EQ(G[1].TotalBytes, int64_t(2) << 30);
  EXPECT_EQ(G[1].FreeBytes, int64_t(2) << 28);
  EXPECT_EQ(G[1].ComputeUnits, 108);
  EXPECT_EQ(G[0].PageableAccess, 1);
  EXPECT_EQ(G[1].PageableAccess, 0);
  EXPECT_EQ(G[0].Arch, "sm_90") << "compute capability 9.0";
  EXPECT_EQ(G[1].Arch, "sm_86");
  // Every context it made current, it made current no more.
  auto Balanced = reinterpret_cast<int (*)()>(
      dlsym(dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD), "fakeCudaBalanced"));
  ASSERT_NE(Balanced, nullptr);
  EXPECT_TRUE(Balanced());
}

TEST(GpuInfo, AnAllocationsOwnerGivesItsDevicesType) {
  const unsigned C = abi::TypeCPU, N = abi::TypeNVGPU, A = abi::TypeAMDGPU;
  auto At = [](uintptr_t Address) {
    return reinterpret_cast<const void *>(Address);
  };
  int Host = 0;
  // CUDA device memory, HSA GPU memory, host memory, a failed allocation,
  // and the two runtimes' page-locked host memory (not a GPU's).
  std::vector<const void *> Ptrs = {At(0x1800), At(0x5800), &Host,
                                    nullptr,    At(0x3800), At(0x7800)};
  std::vector<unsigned> Want = {N, A, C, C, C, C};
  EXPECT_EQ(typesOfAllocations(Ptrs), Want);
  auto Balanced = reinterpret_cast<int (*)()>(dlsym(
      dlopen("libhsa-runtime64.so.1", RTLD_NOW | RTLD_NOLOAD), "fakeHsaUsers"));
  ASSERT_NE(Balanced, nullptr);
  EXPECT_EQ(Balanced(), 0) << "HSA was shut down after the question";

  // Without a runtime, its devices' memory is nobody's: a CPU's.
  OwnsPointer Cuda = [](const void *P) {
    return P == reinterpret_cast<const void *>(0x10);
  };
  EXPECT_EQ(typesOfAllocations({At(0x10), At(0x20)}, Cuda, {}),
            (std::vector<unsigned>{N, C}));
  EXPECT_EQ(typesOfAllocations({At(0x10)}, {}, {}), std::vector<unsigned>{C});
}

TEST(GpuInfo, SharedMemoryNeedsGpusThatReadTheHostsMemory) {
  // Devices 0-1 CPU offload devices, 2 and 3 NVIDIA (CUDA 0 and 1), 4 AMD.
  const unsigned C = abi::TypeCPU, N = abi::TypeNVGPU, A = abi::TypeAMDGPU;
  std::vector<unsigned> Types = {C, C, N, N, A};
  std::vector<GpuFacts> Cuda(2), Hsa(1);
  Cuda[0].PageableAccess = 1;
  Cuda[1].PageableAccess = 0;
  EXPECT_EQ(sharedMemoryRefusal({0, 1, 2, 4}, Types, Cuda, Hsa), "")
      << "the AMD GPU's runtime does not say: it is not refused";
  std::string Why = sharedMemoryRefusal({0, 3, 2}, Types, Cuda, Hsa);
  EXPECT_NE(Why.find("device 3 (NVGPU) cannot read the host's memory"),
            std::string::npos)
      << Why;
  EXPECT_NE(Why.find("HOMP_DEVICES"), std::string::npos) << Why;
  EXPECT_EQ(sharedMemoryRefusal({0, 3}, Types, {}, Hsa), "")
      << "without the driver's word, nothing is refused";
}

TEST(GpuInfo, ReadsTheHsaRuntimeForGpuAgentsOnly) {
  const std::vector<GpuFacts> &G = hsaGpus();
  ASSERT_EQ(G.size(), 2u) << "the CPU agent is not a GPU";
  EXPECT_EQ(G[0].TotalBytes, int64_t(1) << 36) << "the coarse-grained pool";
  EXPECT_EQ(G[0].ComputeUnits, 110);
  EXPECT_EQ(G[1].TotalBytes, int64_t(2) << 36);
  EXPECT_EQ(G[1].ComputeUnits, 104);
  EXPECT_EQ(G[0].FreeBytes, -1) << "HSA 5 does not say";
  EXPECT_EQ(G[0].Arch, "gfx90a") << "the agent's name";
  EXPECT_EQ(G[1].Arch, "gfx1030");
}

TEST(GpuInfo, GpusFreeMemoryCapsTheModel) {
  // Devices 0 and 2 NVIDIA (CUDA 0 and 1), 1 AMD (HSA 0), 3 a CPU offload
  // device, then the host. The machine file gave device 2 its memsize.
  const unsigned C = abi::TypeCPU, N = abi::TypeNVGPU, A = abi::TypeAMDGPU;
  std::vector<unsigned> Types = {N, A, N, C};
  std::vector<GpuFacts> Cuda = {{int64_t(80) << 30, 40'000'000'000, 132},
                                {int64_t(80) << 30, 70'000'000'000, 132}};
  std::vector<GpuFacts> Hsa = {{64'000'000'000, -1, 110}};
  MachineModel M;
  M.Devices.resize(5);
  M.Devices[2].MemoryMB = 1000;
  addGpuMemory(M, Types, Cuda, Hsa);
  EXPECT_EQ(M.Devices[0].MemoryMB, 40'000) << "free memory, in MB";
  EXPECT_EQ(M.Devices[1].MemoryMB, 64'000) << "HSA tells no free memory";
  EXPECT_EQ(M.Devices[2].MemoryMB, 1000) << "the machine file's stays";
  EXPECT_EQ(M.Devices[3].MemoryMB, 0) << "a CPU device: unknown";
  EXPECT_EQ(M.Devices[4].MemoryMB, 0) << "the host: unknown";

  // A GPU the vendor's runtime does not list (no driver) stays unknown.
  MachineModel Bare;
  Bare.Devices.resize(5);
  addGpuMemory(Bare, Types, {}, {});
  for (const DeviceModel &D : Bare.Devices)
    EXPECT_EQ(D.MemoryMB, 0);
  ASSERT_TRUE(gpuFacts(Types, 2, Cuda, Hsa).has_value());
  EXPECT_EQ(gpuFacts(Types, 2, Cuda, Hsa)->FreeBytes, 70'000'000'000);
  EXPECT_FALSE(gpuFacts(Types, 3, Cuda, Hsa).has_value());
  EXPECT_FALSE(gpuFacts(Types, 4, Cuda, Hsa).has_value());
}

TEST(GpuInfo, AVendorsRuntimeIsAskedOnlyWhereItsGpusAreUsed) {
  constexpr unsigned C = abi::TypeCPU, N = abi::TypeNVGPU, A = abi::TypeAMDGPU;
  EXPECT_TRUE(gpusUsed(N, {C, C}).empty());
  EXPECT_TRUE(gpusUsed(A, {C, N}).empty());
  EXPECT_EQ(&gpusUsed(N, {C, N}), &cudaGpus());
  EXPECT_EQ(&gpusUsed(A, {A}), &hsaGpus());
}

TEST(GpuInfo, ImagesRunWhereLlvmsPluginsLoadThem) {
  // A cubin: the same major compute capability, a minor at least its own.
  EXPECT_TRUE(imageRunsOn("sm_90", "sm_90"));
  EXPECT_TRUE(imageRunsOn("sm_80", "sm_86"));
  EXPECT_TRUE(imageRunsOn("sm_80", "sm_89"));
  EXPECT_FALSE(imageRunsOn("sm_86", "sm_80"));
  EXPECT_FALSE(imageRunsOn("sm_80", "sm_90"))
      << "no cubin runs on a newer major";
  EXPECT_FALSE(imageRunsOn("sm_90", "sm_80"));
  EXPECT_TRUE(imageRunsOn("sm_100", "sm_100"));
  EXPECT_FALSE(imageRunsOn("sm_90", "sm_100"));
  // An AMD image: its processor only.
  EXPECT_TRUE(imageRunsOn("gfx90a", "gfx90a"));
  EXPECT_FALSE(imageRunsOn("gfx908", "gfx90a"));
  EXPECT_FALSE(imageRunsOn("gfx90", "gfx90a"));
  // Across vendors, and what is no architecture.
  EXPECT_FALSE(imageRunsOn("sm_90", "gfx90a"));
  EXPECT_FALSE(imageRunsOn("gfx90a", "sm_90"));
  EXPECT_FALSE(imageRunsOn("x86_64", "x86_64"));
  EXPECT_FALSE(imageRunsOn("", ""));
  EXPECT_FALSE(imageRunsOn("sm_9x", "sm_9x"));
  EXPECT_FALSE(imageRunsOn("sm_90a", "sm_90"));

  EXPECT_EQ(imageFor("sm_75,sm_80,sm_90", "sm_86"), "sm_80");
  EXPECT_EQ(imageFor("sm_75,sm_80,sm_90", "sm_90"), "sm_90");
  EXPECT_EQ(imageFor("sm_75,sm_80,sm_90", "sm_70"), "");
  EXPECT_EQ(imageFor("gfx906,gfx908,gfx90a", "gfx90a"), "gfx90a");
  EXPECT_EQ(imageFor("gfx906,gfx908,gfx90a", "gfx942"), "");
  EXPECT_EQ(imageFor("", "sm_90"), "");
  EXPECT_EQ(imageFor("sm_90", ""), "");
}

} // namespace
} // namespace homp
