//===-- Devices.cpp - The devices of this process -------------------------===//

#include "Devices.h"

#include <omp.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <fcntl.h>
#include <unistd.h>

extern "C" {
void __tgt_rtl_init(void);
void __tgt_rtl_deinit(void);
// libomptarget's interop entry points (OpenMP 5.1 'interop' construct).
void __tgt_interop_init(void *Loc, int Gtid, omp_interop_t *Interop,
                        int Type, int Device, int NumDeps, void *Deps,
                        int Nowait);
void __tgt_interop_destroy(void *Loc, int Gtid, omp_interop_t *Interop,
                           int Device, int NumDeps, void *Deps, int Nowait);
}

namespace homp {

namespace {

/// kmp_interop_type_device: an interop object describing a device.
constexpr int InteropDevice = 1;

/// The type of an offload device, from what its plugin says through the
/// interop interface: the host plugin (x86_64 offload devices) has none,
/// the AMDGPU plugin describes a device without a context, the CUDA plugin
/// one with its CUcontext.
unsigned probeType(int Device) {
  omp_interop_t Obj = omp_interop_none;
  __tgt_interop_init(nullptr, 0, &Obj, InteropDevice, Device, 0, nullptr, 0);
  if (Obj == omp_interop_none)
    return abi::TypeCPU;
  int Err = 0;
  void *Context = omp_get_interop_ptr(Obj, omp_ipr_device_context, &Err);
  __tgt_interop_destroy(nullptr, 0, &Obj, Device, 0, nullptr, 0);
  return Context ? abi::TypeNVGPU : abi::TypeAMDGPU;
}

/// Runs F with stderr going nowhere: plugins that cannot describe their
/// devices (the host plugin) say so on stderr, which is no error here.
template <typename F> void quietly(F &&Fn) {
  std::fflush(stderr);
  int Saved = dup(STDERR_FILENO);
  int Null = open("/dev/null", O_WRONLY | O_CLOEXEC);
  if (Saved >= 0 && Null >= 0)
    dup2(Null, STDERR_FILENO);
  Fn();
  if (Saved >= 0) {
    dup2(Saved, STDERR_FILENO);
    close(Saved);
  }
  if (Null >= 0)
    close(Null);
}

} // namespace

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
    DeviceEnvironment E = deviceEnvironment();
    quietly([&] {
      for (int D = 0; D < E.NumDevices; ++D)
        E.Types.push_back(probeType(D));
    });
    return E;
  }();
  return Env;
}

} // namespace homp
