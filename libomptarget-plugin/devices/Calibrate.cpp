//===-- Calibrate.cpp - Measuring the devices -----------------------------===//

#include "Calibrate.h"

#include "Devices.h"
#include "GpuInfo.h"
#include "OffloadTransport.h"
#include "Probe.h"
#include "ProbeLibrary.h"

#include "homp/Abi.h"

#include <dlfcn.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace homp {

namespace {

constexpr size_t SmallBytes = 8;
constexpr size_t LargeBytes = 8 << 20;

double seconds(std::chrono::steady_clock::time_point Start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - Start)
      .count();
}

/// Times one copy of Bytes; a negative time when it fails.
double timeCopy(void *Dst, const void *Src, size_t Bytes, int DstDevice,
                int SrcDevice) {
  auto Start = std::chrono::steady_clock::now();
  Transport &T = offloadTransport();
  if (!T.wait(T.copy(bytesCopy(Dst, DstDevice, Src, SrcDevice, Bytes))))
    return -1;
  return seconds(Start);
}

/// Fills D's latency and bandwidth; "" or what went wrong.
std::string measure(int Device, int Host, DeviceModel &D) {
  std::vector<char> Buffer(LargeBytes, 1);
  size_t Bytes = LargeBytes;
  void *Storage = offloadTransport().allocate(Device, Bytes, false);
  if (!Storage)
    return "cannot allocate 8 MiB";
  std::string Problem;
  // The first copy may set the device up; it is not timed.
  if (timeCopy(Storage, Buffer.data(), SmallBytes, Device, Host) < 0)
    Problem = "a copy failed";
  std::vector<double> Small;
  for (int I = 0; I < 9 && Problem.empty(); ++I)
    Small.push_back(timeCopy(Storage, Buffer.data(), SmallBytes, Device, Host));
  double ToDevice = 1e300, FromDevice = 1e300;
  for (int I = 0; I < 3 && Problem.empty(); ++I) {
    ToDevice = std::min(
        ToDevice, timeCopy(Storage, Buffer.data(), LargeBytes, Device, Host));
    FromDevice = std::min(
        FromDevice, timeCopy(Buffer.data(), Storage, LargeBytes, Host, Device));
  }
  offloadTransport().release(Device, Storage, Bytes, false);
  if (!Problem.empty() || ToDevice < 0 || FromDevice < 0 ||
      std::any_of(Small.begin(), Small.end(), [](double T) { return T < 0; }))
    return "a copy failed";
  std::nth_element(Small.begin(), Small.begin() + Small.size() / 2,
                   Small.end());
  double Latency = Small[Small.size() / 2];
  D.LatencyUs = Latency * 1e6;
  // Hockney: a copy of n bytes takes latency + n / bandwidth.
  double Transfer = std::max(ToDevice + FromDevice - 2 * Latency, 1e-9);
  // Whole MB/s: the measurement is not finer than that.
  D.BandwidthMBs = std::max(1.0, std::round(2.0 * LargeBytes / Transfer / 1e6));
  return "";
}

#ifndef HOMP_PROBE_CPU_ARCHS
#define HOMP_PROBE_CPU_ARCHS ""
#endif
#ifndef HOMP_PROBE_NVPTX_ARCHS
#define HOMP_PROBE_NVPTX_ARCHS ""
#endif
#ifndef HOMP_PROBE_AMDGCN_ARCHS
#define HOMP_PROBE_AMDGCN_ARCHS ""
#endif

/// The probe kernel of the library at Path; nullptr with Why if it cannot
/// be loaded.
HompProbeKernel *loadProbe(const std::string &Path, std::string &Why) {
  // Never unloaded: unloading would unregister the images while the
  // devices may still hold them.
  void *Library = dlopen(Path.c_str(), RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
  auto *Probe = reinterpret_cast<HompProbeKernel *>(
      Library ? dlsym(Library, HOMP_PROBE_SYMBOL) : nullptr);
  if (!Probe) {
    const char *Error = dlerror();
    Why = std::string("cannot load the probe kernel: ") +
          (Error ? Error : Path.c_str());
  }
  return Probe;
}

/// Launches Probe on Device once to load it there, then sizes the timed
/// launches to about 2 ms each: their elements, or 0 with Why if the probe
/// did not run on Device.
long sizeLaunches(HompProbeKernel *Probe, int Device, std::string &Why) {
  if (!Probe(Device, 1 << 10)) {
    Why = "the probe kernel ran on the host instead";
    return 0;
  }
  return probeLaunchElements(
      [&](long Elements) {
        auto Start = std::chrono::steady_clock::now();
        Probe(Device, Elements);
        return seconds(Start);
      },
      2e-3);
}

/// One device's timed launches of the probe kernel.
struct RateProbe {
  int Index; ///< in the model's devices
  HompProbeKernel *Probe;
  int Device;
  long Elements;
  double Best = 1e300; ///< the fastest launch (s)
};

} // namespace

std::string libhompFolder() {
  Dl_info Self;
  if (!dladdr(reinterpret_cast<void *>(&libhompFolder), &Self) ||
      !Self.dli_fname)
    return "";
  // Its real folder: libhomp may be loaded through a link elsewhere.
  char *Real = realpath(Self.dli_fname, nullptr);
  std::string Path = Real ? Real : Self.dli_fname;
  std::free(Real);
  return Path.substr(0, Path.rfind('/') + 1);
}

const std::vector<ProbeKind> &probeKinds() {
  static const std::vector<ProbeKind> Kinds = [] {
    std::vector<ProbeKind> K;
    for (ProbeKind P :
         {ProbeKind{abi::TypeCPU, "cpu", HOMP_PROBE_CPU_ARCHS},
          ProbeKind{abi::TypeNVGPU, "nvptx", HOMP_PROBE_NVPTX_ARCHS},
          ProbeKind{abi::TypeAMDGPU, "amdgcn", HOMP_PROBE_AMDGCN_ARCHS}})
      if (!P.Archs.empty())
        K.push_back(P);
    return K;
  }();
  return Kinds;
}

std::string probeLibraryPath(const DeviceEnvironment &Env, std::string &Why) {
  std::string File = chooseProbeLibrary(
      Env.Types, probeKinds(), gpusUsed(abi::TypeNVGPU, Env.Types),
      gpusUsed(abi::TypeAMDGPU, Env.Types), Why);
  if (File.empty())
    return "";
  std::string Folder = libhompFolder();
  if (Folder.empty())
    Why = "libhomp's folder is unknown";
  return Folder.empty() ? "" : Folder + File;
}

MachineModel calibrate(const DeviceEnvironment &Env) {
  MachineModel M;
  M.Calibrated = true;
  int Failed = -1; ///< an offload device whose copies failed
  for (int Id = 0; Id < Env.NumDevices; ++Id) {
    DeviceModel D;
    D.Type = deviceTypeName(Env.typeOf(Id));
    std::string Problem = measure(Id, Env.InitialDevice, D);
    if (!Problem.empty()) {
      M.Notes.push_back("device " + std::to_string(Id) + ": " + Problem +
                        "; its copy costs are unknown");
      Failed = Id;
    }
    M.Devices.push_back(D);
  }
  DeviceModel Host;
  Host.Type = "HOST";
  Host.NoCopies = true;
  M.Devices.push_back(Host);

  // The host runs libhomp's own probe; offload devices that of the probe
  // library for the program's kinds of devices (ProbeLibrary.h), if any
  // may be loaded. None is where a device cannot allocate: it may not be of
  // the type it was given (a failed test allocation types a device CPU,
  // Devices.cpp), and a library without an image for it would end the
  // program.
  std::string Why, Path;
  if (Failed >= 0)
    Why = "device " + std::to_string(Failed) +
          "'s copies failed, so its type is uncertain and no probe library "
          "is loaded";
  else
    Path = probeLibraryPath(Env, Why);
  // Loading the probe library registers its offload images, under the
  // dynamic loader's lock, and registering takes libomptarget's lock of
  // its image tables. A device's first construct takes that lock and, with
  // it held, loads the program's images onto the device, which on CPU
  // offload devices is a dlopen: a kernel of the program starting on
  // another thread meanwhile waited for the loader's lock and we for
  // libomptarget's (a hang found by the differential tester, utils/
  // fuzz-runtime: a nowait kernel's first launch while an AUTO loop
  // calibrated). With every device's images loaded first, no construct
  // takes that lock to load anything while the library is loaded.
  if (!Path.empty())
    loadRegisteredImages();
  HompProbeKernel *Offload = Path.empty() ? nullptr : loadProbe(Path, Why);
  std::vector<RateProbe> Probes;
  for (int Id = 0; Id <= Env.NumDevices; ++Id) {
    bool IsHost = Id == Env.NumDevices;
    std::string Problem = Why;
    HompProbeKernel *Probe = IsHost ? homp_probe_kernel : Offload;
    int Device = IsHost ? Env.InitialDevice : Id;
    if (long Elements = Probe ? sizeLaunches(Probe, Device, Problem) : 0) {
      Probes.push_back({Id, Probe, Device, Elements});
      continue;
    }
    bool IsCpu = !IsHost && Env.typeOf(Id) == abi::TypeCPU;
    M.Notes.push_back(
        (IsHost ? std::string("host") : "device " + std::to_string(Id)) + ": " +
        Problem +
        (IsCpu ? "; it takes the host's rate (it runs on the host's cores)"
               : "; its compute rate is unknown"));
  }
  // The best of 3 launches each, in rounds over the devices: load that
  // comes and goes meanwhile slows every device alike, not one.
  for (int Round = 0; Round < 3; ++Round)
    for (RateProbe &P : Probes) {
      auto Start = std::chrono::steady_clock::now();
      P.Probe(P.Device, P.Elements);
      P.Best = std::min(P.Best, seconds(Start));
    }
  for (const RateProbe &P : Probes)
    M.Devices[P.Index].Gflops =
        P.Elements * HOMP_PROBE_FLOPS_PER_ELEMENT / P.Best / 1e9;
  // Taken as they come, the rates of alike devices differ by a few percent
  // (10 to 20% while other programs run), and MODEL_1_AUTO would give them
  // uneven shares, different in every cache (model-operations.c's even
  // split of four CPU devices failed 4 times in 20 runs beside other
  // tests). The devices on the host's cores run on the same cores: one
  // rate, the best measured; the CPU offload devices copy within the host's
  // memory: one bandwidth and latency, the best measured (their copies
  // differed by up to 9%, and MODEL_2_AUTO split matvec's 1536 rows over
  // four of them 390/378/385/383).
  oneModelOnTheHostsCores(M.Devices);
  // Three digits: the measurement is not finer than that.
  auto ThreeDigits = [](double &V) {
    char Rounded[32];
    std::snprintf(Rounded, sizeof Rounded, "%.3g", V);
    V = std::strtod(Rounded, nullptr);
  };
  for (DeviceModel &D : M.Devices) {
    ThreeDigits(D.Gflops);
    ThreeDigits(D.LatencyUs);
  }
  return M;
}

} // namespace homp
