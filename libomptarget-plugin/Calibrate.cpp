//===-- Calibrate.cpp - Measuring the devices -----------------------------===//

#include "Calibrate.h"

#include "Probe.h"

#include <dlfcn.h>
#include <omp.h>

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
  if (omp_target_memcpy(Dst, Src, Bytes, 0, 0, DstDevice, SrcDevice) != 0)
    return -1;
  return seconds(Start);
}

/// Fills D's latency and bandwidth; "" or what went wrong.
std::string measure(int Device, int Host, DeviceModel &D) {
  std::vector<char> Buffer(LargeBytes, 1);
  void *Storage = omp_target_alloc(LargeBytes, Device);
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
  omp_target_free(Storage, Device);
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

/// The probe of libhomp-probe.so, loaded from libhomp's folder; nullptr
/// with Why if it cannot be. Loading it registers its x86_64 image, which
/// adds no devices only where the x86_64 plugin has some already (Probe.h):
/// the caller loads it only then.
HompProbeKernel *offloadProbe(std::string &Why) {
  if (!*HOMP_PROBE_LIBRARY) {
    Why = "homp has no probe image for this host's CPU";
    return nullptr;
  }
  Dl_info Self;
  if (!dladdr(reinterpret_cast<void *>(&offloadProbe), &Self) ||
      !Self.dli_fname) {
    Why = "libhomp's folder is unknown";
    return nullptr;
  }
  // Its real folder: libhomp may be loaded through a link elsewhere.
  char *Real = realpath(Self.dli_fname, nullptr);
  std::string Path = Real ? Real : Self.dli_fname;
  std::free(Real);
  Path = Path.substr(0, Path.rfind('/') + 1) + HOMP_PROBE_LIBRARY;
  // Never unloaded: unloading would unregister the image while the devices
  // may still hold it.
  void *Library = dlopen(Path.c_str(), RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
  void *Probe = Library ? dlsym(Library, HOMP_PROBE_SYMBOL) : nullptr;
  if (!Probe) {
    const char *Error = dlerror();
    Why = std::string("cannot load the probe kernel: ") +
          (Error ? Error : Path.c_str());
  }
  return reinterpret_cast<HompProbeKernel *>(Probe);
}

/// Launches Probe on Device once to load it there and once to size the
/// timed launches to about 2 ms each: their elements, or 0 with Why if the
/// probe did not run on Device.
long sizeLaunches(HompProbeKernel *Probe, int Device, std::string &Why) {
  if (!Probe(Device, 1 << 10)) {
    Why = "the probe kernel ran on the host instead";
    return 0;
  }
  constexpr double TargetSeconds = 2e-3;
  constexpr long Sizing = 1 << 12;
  auto Start = std::chrono::steady_clock::now();
  Probe(Device, Sizing);
  double Scale = TargetSeconds / std::max(seconds(Start), 1e-6);
  return std::clamp<long>(std::lround(Sizing * Scale), Sizing, Sizing * 1024);
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

MachineModel calibrate(const DeviceEnvironment &Env) {
  MachineModel M;
  M.Calibrated = true;
  bool AnyCpu = false;
  for (int Id = 0; Id < Env.NumDevices; ++Id) {
    DeviceModel D;
    D.Type = deviceTypeName(Env.typeOf(Id));
    AnyCpu |= Env.typeOf(Id) == abi::TypeCPU;
    std::string Problem = measure(Id, Env.InitialDevice, D);
    if (!Problem.empty())
      M.Notes.push_back("device " + std::to_string(Id) + ": " + Problem +
                        "; its copy costs are unknown");
    M.Devices.push_back(D);
  }
  DeviceModel Host;
  Host.Type = "HOST";
  Host.NoCopies = true;
  M.Devices.push_back(Host);

  // The host runs libhomp's own probe; CPU devices the probe library's,
  // loaded only where the x86_64 plugin has devices (CPU devices) already.
  // Other devices are not launched on: with OMP_TARGET_OFFLOAD=mandatory a
  // launch without an image for the device would end the program.
  std::string Why;
  HompProbeKernel *Offload = AnyCpu ? offloadProbe(Why) : nullptr;
  std::vector<RateProbe> Probes;
  for (int Id = 0; Id <= Env.NumDevices; ++Id) {
    bool IsHost = Id == Env.NumDevices;
    bool IsCpu = !IsHost && Env.typeOf(Id) == abi::TypeCPU;
    HompProbeKernel *Probe = IsHost  ? homp_probe_kernel
                             : IsCpu ? Offload
                                     : nullptr;
    std::string Problem =
        IsHost || IsCpu ? Why : "the probe kernel has an x86_64 image only";
    int Device = IsHost ? Env.InitialDevice : Id;
    if (long Elements = Probe ? sizeLaunches(Probe, Device, Problem) : 0) {
      Probes.push_back({Id, Probe, Device, Elements});
      continue;
    }
    M.Notes.push_back(
        (IsHost ? std::string("host") : "device " + std::to_string(Id)) + ": " +
        Problem + "; its compute rate is unknown");
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
