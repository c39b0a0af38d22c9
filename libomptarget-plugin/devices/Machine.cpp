//===-- Machine.cpp - The machine model in use ----------------------------===//

#include "Machine.h"

#include "Calibrate.h"
#include "Devices.h"
#include "GpuInfo.h"
#include "ProxyPool.h"

#include "homp/Abi.h"
#include "homp/SavedProfiles.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fstream>
#include <future>
#include <initializer_list>
#include <optional>
#include <sstream>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

namespace homp {

namespace {

std::vector<std::string> deviceTypeNames(const DeviceEnvironment &Env) {
  std::vector<std::string> Types;
  for (int Id = 0; Id < Env.NumDevices; ++Id)
    Types.push_back(deviceTypeName(Env.typeOf(Id)));
  Types.push_back("HOST");
  return Types;
}

bool readFile(const std::string &Path, std::string &Text) {
  struct stat St;
  if (stat(Path.c_str(), &St) == 0 && S_ISDIR(St.st_mode)) {
    errno = EISDIR; // an ifstream opens a directory and reads nothing
    return false;
  }
  std::ifstream In(Path, std::ios::binary);
  if (!In)
    return false;
  std::ostringstream S;
  S << In.rdbuf();
  Text = S.str();
  return !In.bad();
}

/// Reads a machine file into M for Types; "" or what is wrong.
std::string load(const std::string &Path, const std::vector<std::string> &Types,
                 MachineModel &M) {
  std::string Text, Error;
  if (!readFile(Path, Text))
    return Path + ": cannot be read: " + std::strerror(errno);
  std::vector<DeviceGroup> Groups;
  if (!parseMachineFile(Text, Path, Groups, Error))
    return Error;
  if (!assignDevices(Groups, Types, M, Error))
    return Path + ": " + Error;
  return "";
}

/// The calibration cache's folder, made if need be; "" with Why if none.
std::string cacheFolder(std::string &Why) {
  std::string Base;
  if (const char *X = std::getenv("XDG_CACHE_HOME"); X && *X)
    Base = X;
  else if (const char *H = std::getenv("HOME"); H && *H)
    Base = std::string(H) + "/.cache";
  else {
    Why = "neither XDG_CACHE_HOME nor HOME is set";
    return "";
  }
  std::string Folder = Base + "/homp";
  for (size_t Slash = 1; Slash != std::string::npos;) {
    Slash = Folder.find('/', Slash + 1);
    std::string Part = Folder.substr(0, Slash);
    if (mkdir(Part.c_str(), 0755) != 0 && errno != EEXIST) {
      Why = "cannot create " + Part + ": " + std::strerror(errno);
      return "";
    }
  }
  return Folder;
}

/// The settings of the variables Names only, so that homp-info can show
/// the model while other variables are invalid.
std::optional<Settings> readOnly(std::initializer_list<std::string> Names,
                                 std::string &Error) {
  return readSettings(
      [&](const char *Name) -> const char * {
        for (const std::string &N : Names)
          if (N == Name)
            return std::getenv(Name);
        return nullptr;
      },
      Error);
}

struct Loaded {
  MachineModel Model;
  std::string Error;
};

/// What calibrated rates depend on besides the device types: the host's
/// processor, the cores the program may use and OMP_NUM_THREADS (the
/// host's and the CPU offload devices' rates), and each GPU the program
/// uses (its architecture, units and memory). The cache is named after it.
std::string nodeFacts(const DeviceEnvironment &Env) {
  // The processor: x86's model name; elsewhere (aarch64) the first
  // core's implementer and part.
  std::string Facts;
  std::ifstream Cpu("/proc/cpuinfo");
  for (std::string Line; std::getline(Cpu, Line);) {
    size_t Colon = Line.find(':');
    std::string Key = Line.substr(0, Line.find_first_of("\t:"));
    if (Colon == std::string::npos ||
        (Key != "model name" && Key != "CPU implementer" && Key != "CPU part"))
      continue;
    if (Key == "model name" || Facts.find(Key) == std::string::npos)
      Facts += (Facts.empty() ? "" : ", ") + Key + Line.substr(Colon);
    if (Key == "model name" || Key == "CPU part")
      break;
  }
  // The process's CPUs, as read before any thread was bound; the threads
  // without spaces (unset, "4" and " 4 " differ: libomp reads them alike
  // only where they are set alike).
  std::string Threads;
  if (const char *T = std::getenv("OMP_NUM_THREADS"))
    for (const char *C = T; *C; ++C)
      if (!std::isspace(static_cast<unsigned char>(*C)))
        Threads += *C;
  Facts += "; cores " + std::to_string(processCpus().size()) + "; threads " +
           (Threads.empty() ? "unset" : Threads);
  for (unsigned Vendor : {abi::TypeNVGPU, abi::TypeAMDGPU})
    for (const GpuFacts &G : gpusUsed(Vendor, Env.Types))
      Facts += "; " + G.Arch + " " + std::to_string(G.ComputeUnits) +
               " units " + std::to_string(G.TotalBytes >> 20) + " MiB";
  return Facts;
}

Loaded loadModel() {
  Loaded L;
  std::optional<Settings> S =
      readOnly({"HOMP_MACHINE", "OMP_DEV_SPEC_FILE"}, L.Error);
  if (!S)
    return L;
  std::string Ignored;
  std::optional<Settings> Info = readOnly({"HOMP_INFO"}, Ignored);
  const DeviceEnvironment &Env = deviceTypes();
  std::vector<std::string> Types = deviceTypeNames(Env);
  if (!S->MachineFile.empty()) {
    std::string Error = load(S->MachineFile, Types, L.Model);
    if (!Error.empty())
      L.Error = S->MachineVariable + "='" + S->MachineFile + "': " + Error;
    L.Model.Source = "file " + S->MachineFile + " (" + S->MachineVariable + ")";
    return L;
  }

  std::string Why;
  std::string Folder = cacheFolder(Why);
  std::string Node = nodeFacts(Env);
  std::string Path =
      Folder.empty() ? "" : Folder + "/" + machineCacheName(Types, Node);
  // A cache that does not read back cleanly is calibrated again, as is one
  // with an unknown rate on the host's cores: calibration times the host
  // and the CPU offload devices, older homp wrote caches whose rates were
  // all unknown, and a probe that could not run then (its library missing)
  // may run now.
  auto HostCoresRated = [](const MachineModel &M) {
    return std::all_of(
        M.Devices.begin(), M.Devices.end(),
        [](const DeviceModel &D) { return D.Gflops > 0 || !onHostsCores(D); });
  };
  // So is a cache with a GPU of unknown rate that is older than the probe
  // library that would time it now (homp before it timed GPUs, or built
  // for fewer architectures); a probe that cannot run there leaves a newer
  // cache, which is kept.
  auto ProbeIsNewer = [&](const MachineModel &M) {
    if (std::all_of(M.Devices.begin(), M.Devices.end(),
                    [](const DeviceModel &D) {
                      return D.Gflops > 0 || onHostsCores(D);
                    }))
      return false;
    std::string Ignored;
    std::string Probe = probeLibraryPath(Env, Ignored);
    // A library dated in the future (unpacked from a machine whose clock
    // runs ahead) would have every run measure again: it counts as old.
    struct stat Cache, Library;
    return !Probe.empty() && stat(Path.c_str(), &Cache) == 0 &&
           stat(Probe.c_str(), &Library) == 0 &&
           Cache.st_mtime < Library.st_mtime &&
           Library.st_mtime <= time(nullptr);
  };
  if (!Path.empty() && access(Path.c_str(), R_OK) == 0 &&
      load(Path, Types, L.Model).empty() && L.Model.Notes.empty() &&
      HostCoresRated(L.Model) && !ProbeIsNewer(L.Model)) {
    L.Model.Source = "calibrated (cache " + Path + ")";
    L.Model.Calibrated = true;
    return L;
  }
  // On a thread of its own: the first use of the model may come from
  // inside a parallel region (the program's or a proxy's), where the
  // probe's OpenMP regions would be nested and run on one thread. The
  // thread never ends: libomp's clean-up of an ending thread that ran
  // OpenMP regions waits for the program's parallel region to end, so a
  // first AUTO loop in a task of one hung (found by the differential
  // tester, utils/fuzz-runtime). It sleeps to the end of the process, as
  // the devices' proxies do.
  std::promise<MachineModel> Measured;
  std::future<MachineModel> Model = Measured.get_future();
  std::thread([Measured = std::move(Measured), &Env]() mutable {
    Measured.set_value(calibrate(Env));
    for (;;)
      std::this_thread::sleep_for(std::chrono::hours(24));
  }).detach();
  L.Model = Model.get();
  if (!Path.empty())
    Why = writeAtomically(
        Path, writeMachineFile(L.Model, "homp's calibration of " + Path +
                                            "\nnode: " + Node +
                                            "\nflopss = 0: the probe kernel "
                                            "could not run on the device; "
                                            "delete this file to measure "
                                            "again"));
  if (Why.empty()) {
    L.Model.Source = "calibrated now (cached in " + Path + ")";
  } else {
    L.Model.Source = "calibrated now (not cached: " + Why + ")";
    if (Info && Info->Info)
      message("homp: info: the machine model is not cached: %s\n", Why.c_str());
  }
  return L;
}

/// The model of the machine file or the calibration, with the GPUs' free
/// memory (never cached: it is the memory free now).
Loaded makeModel() {
  Loaded L = loadModel();
  if (L.Error.empty())
    addGpuMemory(L.Model, deviceTypes().Types,
                 gpusUsed(abi::TypeNVGPU, deviceTypes().Types),
                 gpusUsed(abi::TypeAMDGPU, deviceTypes().Types));
  return L;
}

} // namespace

std::string defaultProfilesPath(std::string &Why) {
  std::string Folder = cacheFolder(Why);
  if (Folder.empty())
    return "";
  char Exe[4096];
  ssize_t N = readlink("/proc/self/exe", Exe, sizeof Exe);
  if (N <= 0 || N == static_cast<ssize_t>(sizeof Exe)) {
    Why = std::string("the program's path is unknown: /proc/self/exe: ") +
          (N < 0 ? std::strerror(errno) : "too long");
    return "";
  }
  return Folder + "/" +
         profilesCacheName(std::string(Exe, static_cast<size_t>(N)),
                           nodeFacts(deviceTypes()));
}

std::string writeAtomically(const std::string &Path, const std::string &Text,
                            int *Errno) {
  std::string Temporary = Path + "." + std::to_string(getpid()) + ".tmp";
  auto Failed = [&](const std::string &File) {
    int E = errno;
    if (Errno)
      *Errno = E;
    std::remove(Temporary.c_str());
    return "cannot write " + File + ": " + std::strerror(E);
  };
  std::FILE *F = std::fopen(Temporary.c_str(), "w");
  if (!F)
    return Failed(Temporary);
  bool Written = std::fwrite(Text.data(), 1, Text.size(), F) == Text.size();
  Written &= std::fclose(F) == 0;
  if (!Written || std::rename(Temporary.c_str(), Path.c_str()) != 0)
    return Failed(Path);
  return "";
}

const MachineModel *tryMachineModel(std::string &Error) {
  static const Loaded L = makeModel();
  Error = L.Error;
  return L.Error.empty() ? &L.Model : nullptr;
}

void checkMachineFile() {
  static const bool Checked = [] {
    if (!settings().MachineFile.empty())
      machineModel();
    return true;
  }();
  (void)Checked;
}

const MachineModel &machineModel() {
  std::string Error;
  const MachineModel *M = tryMachineModel(Error);
  if (!M) {
    message("homp: error: %s\n", Error.c_str());
    std::exit(EXIT_FAILURE);
  }
  return *M;
}

} // namespace homp
