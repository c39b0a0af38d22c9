//===-- Devices.cpp - The devices of this process -------------------------===//

#include "Devices.h"

#include "GpuInfo.h"
#include "Libomptarget.h"

#include <omp.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>

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
      message("homp: error: %s\n", Error.c_str());
      std::exit(EXIT_FAILURE);
    }
    return *Read;
  }();
  return S;
}

const DeviceEnvironment &deviceEnvironment() {
  static const DeviceEnvironment Env = [] {
    // libomptarget 19 initialises itself when the program registers its
    // offload images; a program without any (compiled with no offload
    // target) would crash in omp_get_num_devices. Holding a reference
    // makes it safe in both cases.
    __tgt_rtl_init();
    std::atexit(__tgt_rtl_deinit);
    DeviceEnvironment E;
    E.NumDevices = omp_get_num_devices();
    E.InitialDevice = omp_get_initial_device();
    E.DefaultDevice = omp_get_default_device();
    return E;
  }();
  return Env;
}

void loadRegisteredImages() {
  // libomptarget 19's ident_t: flags (KMP_IDENT_KMPC), then the source as
  // ";file;function;line;column;;".
  struct Ident {
    int32_t Reserved1, Flags, Reserved2, Reserved3;
    const char *Source;
  };
  static Ident Loc{0, 2, 0, 0, ";libhomp;loadRegisteredImages;0;0;;"};
  // A data construct of nothing: libomptarget's check of the device before
  // any construct loads what is pending.
  for (int D = 0; D < deviceEnvironment().NumDevices; ++D)
    __tgt_target_data_begin_mapper(&Loc, D, 0, nullptr, nullptr, nullptr,
                                   nullptr, nullptr, nullptr);
}

bool injectedFault(int Device, FaultSpec::OpKind Op) {
  const std::vector<FaultSpec> &Faults = settings().Faults;
  if (Faults.empty())
    return false;
  static std::atomic<int64_t> *Counts = new std::atomic<int64_t>[64]();
  for (size_t I = 0; I < Faults.size() && I < 64; ++I)
    if (Faults[I].Device == Device && Faults[I].Op == Op &&
        Counts[I].fetch_add(1) >= Faults[I].After)
      return true;
  return false;
}

const DeviceEnvironment &deviceTypes() {
  static const DeviceEnvironment Env = [] {
    // Each device allocates a little memory, and the GPU vendors' runtimes
    // say whose it is (the host plugin's is plain host memory). libomptarget
    // 19 has no API for a device's plugin, and its interop entry point
    // passes the global device number to the plugin: for any device but the
    // first plugin's it reads past the plugin's devices (seen: a GPU after
    // the 4 x86 offload devices crashed in __tgt_interop_init).
    DeviceEnvironment E = deviceEnvironment();
    std::vector<const void *> Probes;
    for (int D = 0; D < E.NumDevices; ++D)
      Probes.push_back(omp_target_alloc(64, D));
    // A GPU runtime with no GPU of its own to talk to may say so on
    // stderr, which is no error here.
    quietly([&] { E.Types = typesOfAllocations(Probes); });
    for (int D = 0; D < E.NumDevices; ++D)
      if (Probes[D])
        omp_target_free(const_cast<void *>(Probes[D]), D);
    return E;
  }();
  return Env;
}

int32_t teamsFor(const abi::Descriptor &D, int Device, int32_t NumTeams,
                 KernelArgs &Args) {
  if (!D.GpuTeams || !(deviceTypes().typeOf(Device) & abi::TypeGPU))
    return NumTeams;
  Args.NumTeams[0] = 0;
  return 0;
}

} // namespace homp
