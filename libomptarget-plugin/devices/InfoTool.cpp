//===-- InfoTool.cpp - What homp-info prints ------------------------------===//
//
// homp_print_info(): the devices homp sees (id, type, memory, compute
// units, offload plugin), the
// route a copy takes between every two of them, the machine model, and
// every environment variable homp reads with its value, checked. homp-info
// (utils/homp-info.c) calls it; --json gives the same as one JSON object.
//
//===----------------------------------------------------------------------===//

#include "Calibrate.h"
#include "Devices.h"
#include "GpuInfo.h"
#include "Machine.h"
#include "ProxyPool.h"

#include "homp/DeviceSelection.h"
#include "homp/Environment.h"
#include "homp/Halo.h"
#include "homp/HostMemory.h"
#include "homp/Scheduler.h"
#include "homp/Trace.h"
#include "homp/Version.h"

#include <omp.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

namespace homp {
namespace {

const char *const Variables[] = {
    "HOMP_INFO",        "HOMP_DEVICES",       "HOMP_FAULT",
    "HOMP_HALO_ROUTE",  "HOMP_TRACE",         "HOMP_SCHEDULE",
    "LOOP_DIST_POLICY", "HOMP_CUTOFF",        "HOMP_EMULATE",
    "HOMP_MACHINE",     "OMP_DEV_SPEC_FILE",  "HOMP_PROFILES",
    "HOMP_BIND",        "OMP_TARGET_OFFLOAD", "OMP_NUM_THREADS"};

const char *pluginOf(unsigned Type) {
  switch (Type) {
  case abi::TypeNVGPU:
    return "cuda";
  case abi::TypeAMDGPU:
    return "amdgpu";
  case abi::TypeCPU:
    return "host (x86_64 offload)";
  default:
    return "none (the host itself)";
  }
}

struct Device {
  int Id = 0;
  unsigned Type = 0;
  HostMemory Memory;     ///< -1s where unknown
  int ComputeUnits = -1; ///< -1 where unknown
  std::string Arch;      ///< a GPU's (sm_90, gfx90a); empty where unknown
};

/// What a device has to compute with. The host and the CPU offload devices
/// (whose memory is the host's, allocated by the x86_64 plugin with malloc)
/// share the host's memory and cores. libomptarget 19 tells neither for a
/// GPU: the vendor's runtime does, when it is installed (GpuInfo.h).
Device describe(int Id, unsigned Type, const std::vector<unsigned> &Types) {
  Device D;
  D.Id = Id;
  D.Type = Type;
  if (Type == abi::TypeHost || Type == abi::TypeCPU) {
    D.Memory = hostMemory();
    D.ComputeUnits = omp_get_num_procs();
    return D;
  }
  if (std::optional<GpuFacts> F = gpuFacts(Types, Id, cudaGpus(), hsaGpus())) {
    D.Memory.TotalBytes = F->TotalBytes;
    D.Memory.FreeBytes = F->FreeBytes;
    D.ComputeUnits = F->ComputeUnits;
    D.Arch = F->Arch;
  }
  return D;
}

std::string jsonCount(int64_t N) { return N < 0 ? "null" : std::to_string(N); }

/// The problem with Name's value, or "" when it is valid (or unset).
std::string check(const char *Name) {
  std::string Error;
  readSettings(
      [&](const char *Asked) -> const char * {
        return std::string(Asked) == Name ? std::getenv(Name) : nullptr;
      },
      Error);
  // The trace file is created by the program's first event; say now what
  // would stop it then, without creating it.
  const char *Trace = std::getenv("HOMP_TRACE");
  if (Error.empty() && std::string(Name) == "HOMP_TRACE" && Trace && *Trace) {
    std::string Path = Trace;
    struct stat St;
    std::string Dir =
        Path.find('/') == std::string::npos
            ? "."
            : Path.substr(0, std::max<size_t>(Path.rfind('/'), 1));
    if (stat(Path.c_str(), &St) == 0 && S_ISDIR(St.st_mode))
      Error = "HOMP_TRACE='" + Path +
              "' is a directory; expected the path "
              "of a file to create";
    else if (access(Dir.c_str(), W_OK | X_OK) != 0)
      Error = "HOMP_TRACE='" + Path + "' cannot be written (" + Dir + ": " +
              std::strerror(errno) + "); expected the path of a file to create";
  }
  // A device the program does not have stops it at its first schedule.
  if (Error.empty() && std::string(Name) == "HOMP_EMULATE") {
    std::string Ignored;
    std::optional<Settings> S = readSettings(
        [](const char *Asked) -> const char * {
          return std::string(Asked) == "HOMP_EMULATE" ? std::getenv(Asked)
                                                      : nullptr;
        },
        Ignored);
    if (S)
      Error =
          emulatedDevicesProblem(S->Emulate, deviceEnvironment().NumDevices);
  }
  return Error;
}

/// A model number for people: "unknown" for 0 unless Zero is.
std::string shown(double V, bool Zero = false) {
  if (V <= 0 && !Zero)
    return "unknown";
  char Buf[32];
  std::snprintf(Buf, sizeof(Buf), "%.6g", V);
  return Buf;
}

/// A model number for JSON; Unknown for 0.
std::string json(double V, const char *Unknown = "null") {
  if (V <= 0)
    return Unknown;
  char Buf[32];
  std::snprintf(Buf, sizeof(Buf), "%.9g", V);
  return Buf;
}

} // namespace
} // namespace homp

using namespace homp;

extern "C" int homp_print_info(int Json) {
  const DeviceEnvironment &Env = deviceTypes();
  std::vector<Device> Devices;
  for (int D = 0; D < Env.NumDevices; ++D)
    Devices.push_back(describe(D, Env.typeOf(D), Env.Types));
  Devices.push_back(describe(Env.InitialDevice, abi::TypeHost, Env.Types));
  auto Name = [&](const Device &D) {
    return D.Type == abi::TypeHost ? std::string("host") : std::to_string(D.Id);
  };
  auto Route = [&](const Device &A, const Device &B) {
    return haloRouteName(haloRoute(A.Type, B.Type, A.Id == B.Id));
  };
  int Invalid = 0;
  std::vector<std::string> Errors;
  for (const char *V : Variables) {
    Errors.push_back(check(V));
    Invalid += !Errors.back().empty();
  }
  std::string ModelError;
  const MachineModel *Model = tryMachineModel(ModelError);
  Invalid += Model == nullptr;
  // Where each device's proxy works in a construct over every device
  // (libhomp's settings, which exist only when the environment is valid).
  const bool EnvValid =
      std::all_of(Errors.begin(), Errors.end(),
                  [](const std::string &E) { return E.empty(); });
  std::vector<int> Every;
  for (const Device &D : Devices)
    Every.push_back(D.Id);
  std::vector<std::vector<int>> Cpus(Every.size());
  bool AnyBound = false;
  for (unsigned P = 0; P < Every.size() && EnvValid; ++P) {
    Cpus[P] = proxyCpus(Every, P);
    AnyBound |= !Cpus[P].empty();
  }
  auto CpuList = [](const std::vector<int> &C, const char *Sep) {
    std::string Out;
    for (size_t I = 0; I < C.size(); ++I)
      Out += (I ? Sep : "") + std::to_string(C[I]);
    return Out;
  };

  // The probe library calibration loads (none under a machine file).
  std::string ProbeProblem = "the machine model is not calibrated";
  const std::string ProbePath =
      Model && Model->Calibrated ? probeLibraryPath(Env, ProbeProblem) : "";

  if (Json) {
    std::string Out = "{\"version\":" + traceString(Version) + ",\"devices\":[";
    for (size_t I = 0; I < Devices.size(); ++I)
      Out +=
          std::string(I ? "," : "") +
          "{\"id\":" + std::to_string(Devices[I].Id) +
          ",\"name\":" + traceString(Name(Devices[I])) +
          ",\"type\":" + traceString(deviceTypeName(Devices[I].Type)) +
          ",\"memory_bytes\":" + jsonCount(Devices[I].Memory.TotalBytes) +
          ",\"memory_free_bytes\":" + jsonCount(Devices[I].Memory.FreeBytes) +
          ",\"compute_units\":" + jsonCount(Devices[I].ComputeUnits) +
          ",\"arch\":" +
          (Devices[I].Arch.empty() ? "null" : traceString(Devices[I].Arch)) +
          ",\"plugin\":" + traceString(pluginOf(Devices[I].Type)) + "}";
    Out += "],\"copy_routes\":{";
    for (size_t I = 0; I < Devices.size(); ++I) {
      Out += std::string(I ? "," : "") + traceString(Name(Devices[I])) + ":{";
      for (size_t J = 0; J < Devices.size(); ++J)
        Out += std::string(J ? "," : "") + traceString(Name(Devices[J])) + ":" +
               traceString(Route(Devices[I], Devices[J]));
      Out += "}";
    }
    Out += "},\"machine_model\":{";
    if (!Model) {
      Out += "\"error\":" + traceString(ModelError);
    } else {
      Out += "\"source\":" + traceString(Model->Source) + ",\"devices\":[";
      for (size_t I = 0; I < Devices.size() && I < Model->Devices.size(); ++I) {
        const DeviceModel &D = Model->Devices[I];
        Out += std::string(I ? "," : "") +
               "{\"name\":" + traceString(Name(Devices[I])) +
               ",\"gflops\":" + json(D.Gflops) +
               ",\"bandwidth_mbs\":" + json(D.BandwidthMBs) +
               ",\"latency_us\":" + json(D.LatencyUs, "0") +
               ",\"memory_mb\":" + json(D.MemoryMB) +
               ",\"no_copies\":" + (D.NoCopies ? "true" : "false") +
               ",\"section\":" +
               (D.Group.empty() ? "null" : traceString(D.Group)) + "}";
      }
      Out += "],\"notes\":[";
      for (size_t I = 0; I < Model->Notes.size(); ++I)
        Out += std::string(I ? "," : "") + traceString(Model->Notes[I]);
      Out += "]";
    }
    Out += ",\"probe\":{\"kinds\":[";
    for (size_t I = 0; I < probeKinds().size(); ++I) {
      const ProbeKind &K = probeKinds()[I];
      std::string Archs = "\"" + K.Archs + "\"";
      for (size_t C = Archs.find(','); C != std::string::npos;
           C = Archs.find(',', C + 3))
        Archs.replace(C, 1, "\",\"");
      Out += std::string(I ? "," : "") +
             "{\"type\":" + traceString(deviceTypeName(K.Type)) +
             ",\"name\":" + traceString(K.Name) + ",\"archs\":[" + Archs + "]}";
    }
    Out += "],\"library\":" +
           (ProbePath.empty() ? "null" : traceString(ProbePath)) +
           ",\"problem\":" +
           (ProbePath.empty() ? traceString(ProbeProblem) : "null") + "}";
    Out += "},\"proxy_cpus\":{";
    for (size_t I = 0; I < Devices.size(); ++I)
      Out += std::string(I ? "," : "") + traceString(Name(Devices[I])) + ":" +
             (Cpus[I].empty() ? "null" : "[" + CpuList(Cpus[I], ",") + "]");
    Out += "},\"environment\":{";
    for (size_t I = 0; I < std::size(Variables); ++I) {
      const char *V = std::getenv(Variables[I]);
      Out += std::string(I ? "," : "") + traceString(Variables[I]) +
             ":{\"value\":" + (V ? traceString(V) : "null") + ",\"error\":" +
             (Errors[I].empty() ? "null" : traceString(Errors[I])) + "}";
    }
    Out += "}}\n";
    std::fputs(Out.c_str(), stdout);
    return Invalid ? 1 : 0;
  }

  std::printf("homp %s\n\ndevices:\n  %-6s %-7s %-10s %-10s %-6s %s\n", Version,
              "id", "type", "memory", "free", "units", "offload plugin");
  for (const Device &D : Devices)
    std::printf(
        "  %-6s %-7s %-10s %-10s %-6s %s\n", Name(D).c_str(),
        deviceTypeName(D.Type), formatBytes(D.Memory.TotalBytes).c_str(),
        formatBytes(D.Memory.FreeBytes).c_str(),
        D.ComputeUnits < 0 ? "-" : std::to_string(D.ComputeUnits).c_str(),
        (pluginOf(D.Type) + (D.Arch.empty() ? "" : " (" + D.Arch + ")"))
            .c_str());
  std::printf("\ncopies between devices (halo routes):\n  %-7s", "from\\to");
  for (const Device &D : Devices)
    std::printf(" %-7s", Name(D).c_str());
  std::printf("\n");
  for (const Device &A : Devices) {
    std::printf("  %-7s", Name(A).c_str());
    for (const Device &B : Devices)
      std::printf(" %-7s", Route(A, B));
    std::printf("\n");
  }
  if (!Model) {
    std::printf("\nmachine model: INVALID: %s\n", ModelError.c_str());
  } else {
    std::printf("\nmachine model: %s\n  %-6s %-9s %-11s %-11s %s\n",
                Model->Source.c_str(), "id", "GFLOP/s", "MB/s", "latency us",
                "section");
    for (size_t I = 0; I < Devices.size() && I < Model->Devices.size(); ++I) {
      const DeviceModel &D = Model->Devices[I];
      std::printf("  %-6s %-9s %-11s %-11s %s%s\n", Name(Devices[I]).c_str(),
                  shown(D.Gflops).c_str(),
                  D.NoCopies ? "no copies" : shown(D.BandwidthMBs).c_str(),
                  D.NoCopies ? "-" : shown(D.LatencyUs, true).c_str(),
                  D.Group.empty() ? "-" : ("[" + D.Group + "]").c_str(),
                  D.MemoryMB > 0
                      ? ("  memory " + shown(D.MemoryMB) + " MB").c_str()
                      : "");
    }
    for (const std::string &Note : Model->Notes)
      std::printf("  note: %s\n", Note.c_str());
    // What calibration times the offload devices with (Calibrate.h).
    std::string Images;
    for (const ProbeKind &K : probeKinds())
      Images += std::string(Images.empty() ? "" : "; ") +
                deviceTypeName(K.Type) + " " + K.Archs;
    if (Model->Calibrated)
      std::printf("  probe kernel: %s (images: %s)\n",
                  ProbePath.empty() ? ("none: " + ProbeProblem).c_str()
                                    : ProbePath.c_str(),
                  Images.empty() ? "none" : Images.c_str());
  }

  if (!EnvValid) {
    std::printf("\nproxy binding (HOMP_BIND): unknown (an invalid "
                "variable below)\n");
  } else if (!AnyBound) {
    std::printf("\nproxy binding (HOMP_BIND): off\n");
  } else {
    std::printf("\nproxy binding (HOMP_BIND), in a construct over every "
                "device:\n");
    for (size_t I = 0; I < Devices.size(); ++I)
      std::printf("  %-6s %s\n", Name(Devices[I]).c_str(),
                  Cpus[I].empty() ? (Devices[I].Type == abi::TypeHost
                                         ? "not bound (the program's thread)"
                                         : "not bound")
                                  : ("CPU " + CpuList(Cpus[I], ", ")).c_str());
  }
  // Where AUTO keeps what it learned (SavedProfiles.h).
  if (EnvValid) {
    const Settings &S = settings();
    std::string Why,
        Default = S.ProfilesByDefault ? defaultProfilesPath(Why) : "";
    std::printf("\nAUTO's profiles (HOMP_PROFILES): %s\n",
                !S.ProfilesPath.empty() ? S.ProfilesPath.c_str()
                : !S.ProfilesByDefault  ? "off: every run learns anew"
                : Default.empty()
                    ? ("none: " + Why).c_str()
                    : ("each program's own file in " +
                       Default.substr(0, Default.find_last_of('/')) +
                       " (profiles-NAME-HASH.txt)")
                          .c_str());
  }
  std::printf("\nenvironment:\n");
  for (size_t I = 0; I < std::size(Variables); ++I) {
    const char *V = std::getenv(Variables[I]);
    std::printf("  %-18s %s%s\n", Variables[I],
                V ? ("'" + std::string(V) + "'").c_str() : "(unset)",
                Errors[I].empty() ? "" : ("  INVALID: " + Errors[I]).c_str());
  }
  return Invalid ? 1 : 0;
}
