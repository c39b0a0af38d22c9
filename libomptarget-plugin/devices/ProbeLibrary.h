//===-- ProbeLibrary.h - Which probe library to load ------------*- C++ -*-===//
//
// Calibration times the offload devices with the probe kernel (Probe.h) of
// a library of its own, loaded when the program's devices are known. What
// libomptarget 19 does when a library with offload images is loaded decides
// which library that may be (offload/src/PluginManager.cpp, registerLib,
// and omptarget.cpp, initLibrary, in LLVM 19.1):
// - every GPU that any of its images runs on becomes an OpenMP device, so
//   an image for a GPU the program does not use would add a device;
// - the new library's table takes, for each device, the last image
//   registered so far that runs there, its own or the program's; and the
//   next target region on any device loads every table for that device,
//   failing when a table got no image, or the program's image, whose
//   entries are not the library's ("Host and Target tables mismatch"):
//   the program ends, under the default OMP_TARGET_OFFLOAD too, which is
//   mandatory once there are devices (test/Runtime/probe-library-trap.c).
// So the library must have an image for every device of the program and
// for no GPU that is not one: homp builds one library per set of kinds of
// devices, libhomp-probe-cpu.so, libhomp-probe-cpu+nvptx.so, and so on, and
// loads the one for exactly the program's kinds, only when each of its
// GPUs has an image and every GPU of its vendors is a device already.
// What the rule cannot exclude: registering takes the program's image into
// the library's table first and its own after, so a target region that
// another thread starts on a device in that window (microseconds, while
// the library loads) would meet the mismatch; an offload library the
// program closed (dlclose) leaves its images registered, and registering
// reads them. (A GPU whose test allocation failed is typed CPU,
// typesOfAllocations: calibration loads no library where a device's copies
// fail.)
//
//===----------------------------------------------------------------------===//

#ifndef HOMP_LIBOMPTARGET_PLUGIN_PROBELIBRARY_H
#define HOMP_LIBOMPTARGET_PLUGIN_PROBELIBRARY_H

#include "GpuInfo.h"

#include <string>
#include <vector>

namespace homp {

/// A kind of offload device the probe kernel was built for.
struct ProbeKind {
  unsigned Type;     ///< abi::TypeCPU, abi::TypeNVGPU or abi::TypeAMDGPU
  std::string Name;  ///< in the libraries' names: cpu, nvptx, amdgcn
  std::string Archs; ///< of its images, separated by commas
};

/// The probe libraries' file for offload devices of Types (one type bit per
/// device): libhomp-probe-KIND[+KIND...].so, the kinds in Built's order;
/// "" when a type is not in Built.
std::string probeLibraryName(const std::vector<ProbeKind> &Built,
                             const std::vector<unsigned> &Types);

/// The probe library calibration may load for offload devices of Types,
/// given what the build made (Built) and what the CUDA driver (Cuda) and
/// the HSA runtime (Hsa) tell of the node's GPUs (as cudaGpus(),
/// hsaGpus()); "" with Why when none may be loaded (see above).
std::string chooseProbeLibrary(const std::vector<unsigned> &Types,
                               const std::vector<ProbeKind> &Built,
                               const std::vector<GpuFacts> &Cuda,
                               const std::vector<GpuFacts> &Hsa,
                               std::string &Why);

} // namespace homp

#endif // HOMP_LIBOMPTARGET_PLUGIN_PROBELIBRARY_H
