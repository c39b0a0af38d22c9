//===-- ProbeLibraryTest.cpp - Which probe library calibration may load ---===//
//
// The rule of ProbeLibrary.h on made-up nodes: the library for exactly the
// program's kinds of devices, and none where loading it would leave a
// device without an image or add a GPU as a device.
//
//===----------------------------------------------------------------------===//

#include "ProbeLibrary.h"

#include "homp/Abi.h"

#include <gtest/gtest.h>

namespace homp {
namespace {

constexpr unsigned C = abi::TypeCPU, N = abi::TypeNVGPU, A = abi::TypeAMDGPU;

const std::vector<ProbeKind> Built = {{C, "cpu", "x86_64"},
                                      {N, "nvptx", "sm_75,sm_80,sm_90"},
                                      {A, "amdgcn", "gfx908,gfx90a"}};

GpuFacts gpu(const char *Arch) {
  GpuFacts F;
  F.Arch = Arch;
  return F;
}

std::string choose(const std::vector<unsigned> &Types,
                   const std::vector<GpuFacts> &Cuda,
                   const std::vector<GpuFacts> &Hsa, std::string &Why,
                   const std::vector<ProbeKind> &Kinds = Built) {
  Why.clear();
  return chooseProbeLibrary(Types, Kinds, Cuda, Hsa, Why);
}

TEST(ProbeLibrary, NamesTheLibraryOfExactlyTheProgramsKinds) {
  EXPECT_EQ(probeLibraryName(Built, {C, C, C, C}), "libhomp-probe-cpu.so");
  EXPECT_EQ(probeLibraryName(Built, {N}), "libhomp-probe-nvptx.so");
  EXPECT_EQ(probeLibraryName(Built, {N, C, C}), "libhomp-probe-cpu+nvptx.so")
      << "the kinds in Built's order, whatever the devices' order";
  EXPECT_EQ(probeLibraryName(Built, {A, N, C}),
            "libhomp-probe-cpu+nvptx+amdgcn.so");
  EXPECT_EQ(probeLibraryName(Built, {A, A}), "libhomp-probe-amdgcn.so");
  EXPECT_EQ(probeLibraryName(Built, {}), "");
  EXPECT_EQ(probeLibraryName({{C, "cpu", "x86_64"}}, {C, N}), "")
      << "no library has an image for the NVIDIA GPU";
}

TEST(ProbeLibrary, LoadsOnlyWhereEveryDeviceHasAnImage) {
  std::string Why;
  // CPU devices alone; an H100 beside them; a node whose GPUs the program
  // does not use: the CPU library, whose image adds no GPU.
  EXPECT_EQ(choose({C, C, C, C}, {}, {}, Why), "libhomp-probe-cpu.so");
  EXPECT_EQ(choose({C, C, C, C, N}, {gpu("sm_90")}, {}, Why),
            "libhomp-probe-cpu+nvptx.so");
  EXPECT_EQ(choose({N, N}, {gpu("sm_90"), gpu("sm_86")}, {}, Why),
            "libhomp-probe-nvptx.so")
      << "sm_86 runs the sm_80 image";
  EXPECT_EQ(choose({A, C}, {}, {gpu("gfx90a")}, Why),
            "libhomp-probe-cpu+amdgcn.so");
  EXPECT_EQ(Why, "");

  // A GPU no image runs on: the program's own image would take its place
  // in the library's table, and every later region on it would fail.
  EXPECT_EQ(choose({C, N}, {gpu("sm_70")}, {}, Why), "");
  EXPECT_NE(Why.find("no image for device 1 (sm_70; it has sm_75,sm_80,sm_90"),
            std::string::npos)
      << Why;
  EXPECT_EQ(choose({A}, {}, {gpu("gfx942")}, Why), "");
  EXPECT_NE(Why.find("gfx942"), std::string::npos) << Why;
  EXPECT_EQ(choose({N}, {gpu("")}, {}, Why), "");
  EXPECT_EQ(Why, "device 0's architecture is unknown");
  EXPECT_EQ(choose({N}, {}, {}, Why), "") << "no CUDA driver answered";

  // A kind homp has no probe kernel for.
  EXPECT_EQ(choose({C, N}, {gpu("sm_90")}, {}, Why, {{C, "cpu", "x86_64"}}),
            "");
  EXPECT_EQ(Why, "homp was built without a probe kernel for NVGPU devices");
  EXPECT_EQ(choose({}, {}, {}, Why), "");
  EXPECT_EQ(Why, "no offload devices");

  // Devices of several types in any order: the k-th NVIDIA device is CUDA
  // GPU k, whose architecture decides (here the second, an sm_70).
  EXPECT_EQ(
      choose({N, C, N, A}, {gpu("sm_90"), gpu("sm_86")}, {gpu("gfx90a")}, Why),
      "libhomp-probe-cpu+nvptx+amdgcn.so");
  EXPECT_EQ(choose({N, C, N}, {gpu("sm_90"), gpu("sm_70")}, {}, Why), "");
  EXPECT_NE(Why.find("device 2 (sm_70"), std::string::npos) << Why;
}

TEST(ProbeLibrary, AddsNoGpuAsADevice) {
  std::string Why;
  // Two NVIDIA GPUs, of which the program's image ran on one only (built
  // for sm_80 on a node with an sm_80 and an sm_90): the sm_90 image would
  // make the other a device, renumbering nothing but adding one.
  EXPECT_EQ(choose({C, N}, {gpu("sm_80"), gpu("sm_90")}, {}, Why), "");
  EXPECT_EQ(Why, "the CUDA driver lists 2 NVGPU GPUs and the program uses 1: "
                 "the probe's images could add the others as devices");
  EXPECT_EQ(choose({A}, {}, {gpu("gfx90a"), gpu("gfx90a")}, Why), "");
  EXPECT_NE(Why.find("the HSA runtime lists 2 AMDGPU GPUs"), std::string::npos);
  // GPUs of a vendor the program does not use stay out of its library.
  EXPECT_EQ(choose({C, C}, {gpu("sm_90")}, {gpu("gfx90a")}, Why),
            "libhomp-probe-cpu.so");
}

} // namespace
} // namespace homp
