//===-- ProbeLibrary.cpp - Which probe library calibration may load -------===//

#include "ProbeLibrary.h"

#include "homp/Abi.h"
#include "homp/DeviceSelection.h"

#include <algorithm>

namespace homp {

namespace {

bool hasType(const std::vector<unsigned> &Types, unsigned Type) {
  return std::find(Types.begin(), Types.end(), Type) != Types.end();
}

/// The kind of Built for devices of Type; nullptr if none was built.
const ProbeKind *kindOf(const std::vector<ProbeKind> &Built, unsigned Type) {
  auto K = std::find_if(Built.begin(), Built.end(),
                        [Type](const ProbeKind &P) { return P.Type == Type; });
  return K == Built.end() ? nullptr : &*K;
}

} // namespace

std::string probeLibraryName(const std::vector<ProbeKind> &Built,
                             const std::vector<unsigned> &Types) {
  std::string Kinds;
  for (const ProbeKind &K : Built)
    if (hasType(Types, K.Type))
      Kinds += (Kinds.empty() ? "" : "+") + K.Name;
  for (unsigned Type : Types)
    if (!kindOf(Built, Type))
      return "";
  return Kinds.empty() ? "" : "libhomp-probe-" + Kinds + ".so";
}

std::string chooseProbeLibrary(const std::vector<unsigned> &Types,
                               const std::vector<ProbeKind> &Built,
                               const std::vector<GpuFacts> &Cuda,
                               const std::vector<GpuFacts> &Hsa,
                               std::string &Why) {
  if (Types.empty()) {
    Why = "no offload devices";
    return "";
  }
  for (unsigned Type : Types)
    if (!kindOf(Built, Type)) {
      Why = std::string("homp was built without a probe kernel for ") +
            deviceTypeName(Type) + " devices";
      return "";
    }
  for (unsigned Vendor : {abi::TypeNVGPU, abi::TypeAMDGPU}) {
    const std::vector<GpuFacts> &Gpus = Vendor == abi::TypeNVGPU ? Cuda : Hsa;
    size_t Used = std::count(Types.begin(), Types.end(), Vendor);
    if (Used && Used != Gpus.size()) {
      Why = std::string(Vendor == abi::TypeNVGPU ? "the CUDA driver"
                                                 : "the HSA runtime") +
            " lists " + std::to_string(Gpus.size()) + " " +
            deviceTypeName(Vendor) + " GPUs and the program uses " +
            std::to_string(Used) +
            ": the probe's images could add the others as devices";
      return "";
    }
  }
  for (size_t Id = 0; Id < Types.size(); ++Id) {
    if (Types[Id] == abi::TypeCPU)
      continue;
    const ProbeKind *Kind = kindOf(Built, Types[Id]);
    std::optional<GpuFacts> F =
        gpuFacts(Types, static_cast<int>(Id), Cuda, Hsa);
    std::string Device = "device " + std::to_string(Id);
    if (!F || F->Arch.empty()) {
      Why = Device + "'s architecture is unknown";
      return "";
    }
    if (imageFor(Kind->Archs, F->Arch).empty()) {
      Why = "the probe kernel has no image for " + Device + " (" + F->Arch +
            "; it has " + Kind->Archs +
            ": HOMP_PROBE_GPU_ARCHS when building homp), and loading it "
            "would leave that device without one";
      return "";
    }
  }
  return probeLibraryName(Built, Types);
}

} // namespace homp
