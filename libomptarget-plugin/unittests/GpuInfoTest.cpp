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
  // Every context it made current, it made current no more.
  auto Balanced = reinterpret_cast<int (*)()>(
      dlsym(dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD), "fakeCudaBalanced"));
  ASSERT_NE(Balanced, nullptr);
  EXPECT_TRUE(Balanced());
}

TEST(GpuInfo, ReadsTheHsaRuntimeForGpuAgentsOnly) {
  const std::vector<GpuFacts> &G = hsaGpus();
  ASSERT_EQ(G.size(), 2u) << "the CPU agent is not a GPU";
  EXPECT_EQ(G[0].TotalBytes, int64_t(1) << 36) << "the coarse-grained pool";
  EXPECT_EQ(G[0].ComputeUnits, 110);
  EXPECT_EQ(G[1].TotalBytes, int64_t(2) << 36);
  EXPECT_EQ(G[1].ComputeUnits, 104);
  EXPECT_EQ(G[0].FreeBytes, -1) << "HSA 5 does not say";
}

} // namespace
} // namespace homp
