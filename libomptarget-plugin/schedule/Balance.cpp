//===-- Balance.cpp - Choosing and learning a loop's schedule -------------===//

#include "Balance.h"

#include "Devices.h"
#include "Machine.h"

#include "homp/SavedProfiles.h"
#include "homp/Scheduler.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <limits>
#include <map>
#include <mutex>
#include <optional>
#include <sstream>
#include <thread>
#include <tuple>

#include <dirent.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

namespace homp {

namespace {

struct ProfileKey {
  const ConstructInfo *Info;
  std::vector<int> Devices;
  int SizeClass; ///< the bit length of the trip count
  bool operator<(const ProfileKey &O) const {
    return std::tie(Info, Devices, SizeClass) <
           std::tie(O.Info, O.Devices, O.SizeClass);
  }
};

std::mutex ProfilesLock;
std::map<ProfileKey, LoopProfile> &profiles() {
  static auto *P = new std::map<ProfileKey, LoopProfile>(); // outlives exit
  return *P;
}

ProfileKey keyOf(const ConstructInfo &Info, const std::vector<int> &Devices,
                 int64_t Trips) {
  int Class = 0;
  for (uint64_t N = static_cast<uint64_t>(std::max<int64_t>(Trips, 0)); N;
       N >>= 1)
    ++Class;
  return {&Info, Devices, Class};
}

/// The profiles file: its path (HOMP_PROFILES, else the program's own in
/// the cache folder), the profiles it held at start (guarded by
/// ProfilesLock), and whether to write it at exit. Quiet: the program's
/// own file, whose troubles are not the user's (a file that does not read
/// back is replaced, one that cannot be written is left, both silently).
struct SavedFile {
  std::string Path;
  bool Quiet = false;
  std::vector<SavedProfile> Profiles;
  bool Write = false;
};

/// Writes every profile learned in this run, and those of the file that
/// this run did not touch, to HOMP_PROFILES (at exit).
void writeSavedProfiles();

/// The programs' own profiles files in the cache folder are at most this
/// many: a harness that builds its programs at a new path each time (a
/// test suite's temporary folders) would otherwise fill a home directory's
/// quota with files no run reads again.
constexpr size_t MostCachedProfiles = 256;

/// Removes the least recently written of the profiles files in Folder
/// (profiles-*.txt) beyond MostCachedProfiles.
void pruneCachedProfiles(const std::string &Folder) {
  DIR *D = opendir(Folder.empty() ? "." : Folder.c_str());
  if (!D)
    return;
  std::vector<std::pair<time_t, std::string>> Files;
  while (const dirent *E = readdir(D)) {
    std::string Name = E->d_name;
    if (Name.rfind("profiles-", 0) != 0 || Name.size() < 13 ||
        Name.compare(Name.size() - 4, 4, ".txt") != 0)
      continue;
    struct stat St;
    std::string Path = Folder + Name;
    if (stat(Path.c_str(), &St) == 0 && S_ISREG(St.st_mode))
      Files.emplace_back(St.st_mtime, std::move(Path));
  }
  closedir(D);
  if (Files.size() <= MostCachedProfiles)
    return;
  std::sort(Files.begin(), Files.end());
  for (size_t I = 0; I + MostCachedProfiles < Files.size(); ++I)
    std::remove(Files[I].second.c_str());
}

/// Reads the profiles file Path into Profiles; false with Error when it
/// cannot be read or is not one.
bool readProfilesFile(const std::string &Path,
                      std::vector<SavedProfile> &Profiles, std::string &Error) {
  std::ifstream In(Path);
  std::stringstream Text;
  Text << In.rdbuf();
  if (!In) {
    Error = std::string("cannot be read: ") + std::strerror(errno);
    return false;
  }
  return readProfiles(Text.str(), Profiles, Error);
}

SavedFile &savedFile() {
  static SavedFile *F = [] {
    auto *F = new SavedFile(); // outlives exit
    F->Path = settings().ProfilesPath;
    if (F->Path.empty() && settings().ProfilesByDefault) {
      std::string Ignored;
      F->Path = defaultProfilesPath(Ignored);
      F->Quiet = true;
    }
    const std::string &Path = F->Path;
    if (Path.empty())
      return F;
    if (access(Path.c_str(), F_OK) != 0 && errno == ENOENT) {
      F->Write = true; // the first run
    } else {
      struct stat St;
      bool Directory = stat(Path.c_str(), &St) == 0 && S_ISDIR(St.st_mode);
      std::string Error =
          Directory ? "is a directory; name a file in it, where AUTO's "
                      "profiles can be saved"
                    : "";
      if (Directory || !readProfilesFile(Path, F->Profiles, Error)) {
        if (!F->Quiet)
          message("homp: warning: HOMP_PROFILES='%s': %s; AUTO starts "
                  "without saved profiles, and the file is left as it "
                  "is\n",
                  Path.c_str(), Error.c_str());
        F->Profiles.clear();
        F->Write = F->Quiet && !Directory;
      } else {
        F->Write = true;
      }
    }
    if (F->Write)
      std::atexit(writeSavedProfiles);
    return F;
  }();
  return *F;
}

const SavedProfile *savedProfile(const ConstructInfo &Info,
                                 const ProfileKey &Key) {
  for (const SavedProfile &P : savedFile().Profiles)
    if (P.Region == Info.Location && P.Devices == Key.Devices &&
        P.SizeClass == Key.SizeClass)
      return &P;
  return nullptr;
}

void writeSavedProfiles() {
  const std::string &Path = savedFile().Path;
  const bool Quiet = savedFile().Quiet;
  std::vector<SavedProfile> Out;
  {
    // The program may exit while another thread schedules a loop; never
    // wait for it for long (a thread that called exit() from a device's
    // job while the lock's holder waits for that job would wait forever).
    std::unique_lock<std::mutex> Lock(ProfilesLock, std::defer_lock);
    for (int Try = 0; Try < 1000 && !Lock.try_lock(); ++Try)
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    if (!Lock.owns_lock()) {
      if (!Quiet)
        message("homp: warning: HOMP_PROFILES='%s': not written: a loop "
                "was being scheduled when the program ended\n",
                Path.c_str());
      return;
    }
    for (const auto &[Key, P] : profiles()) {
      if (!P.Split)
        continue;
      SavedProfile S;
      S.Region = Key.Info->Location;
      S.Devices = Key.Devices;
      S.SizeClass = Key.SizeClass;
      S.Learned = P.Learned;
      S.Split = P.Split->ratios();
      for (AutoTrial T : {AutoTrial::Balanced, AutoTrial::Model,
                          AutoTrial::Dynamic, AutoTrial::Alone})
        S.Trials[static_cast<int>(T)] =
            P.Trials ? P.Trials->typical(T)
                     : std::numeric_limits<double>::infinity();
      Out.push_back(std::move(S));
    }
  }
  // Runs that share the file (a job array, ranks on one node) take turns
  // at exit, each keeping what the others saved since it started: the
  // file is read again under a lock on its folder (a lock file would stay
  // behind), and only this run's own loops replace its lines.
  std::string Folder = Path.substr(0, Path.find_last_of('/') + 1);
  int Dir = open(Folder.empty() ? "." : Folder.c_str(), O_RDONLY | O_DIRECTORY);
  // (A file system without locks, such as some NFS mounts, gets none.)
  for (int Try = 0; Dir >= 0 && Try < 2000; ++Try) {
    if (flock(Dir, LOCK_EX | LOCK_NB) == 0 ||
        (errno != EWOULDBLOCK && errno != EINTR))
      break;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  std::vector<SavedProfile> Kept = savedFile().Profiles, Now;
  std::string Ignored;
  if (readProfilesFile(Path, Now, Ignored))
    Kept = std::move(Now);
  for (const SavedProfile &Old : Kept)
    if (std::none_of(Out.begin(), Out.end(), [&](const SavedProfile &N) {
          return N.Region == Old.Region && N.Devices == Old.Devices &&
                 N.SizeClass == Old.SizeClass;
        }))
      Out.push_back(Old);
  int Errno = 0;
  const bool Written =
      writeAtomically(Path, writeProfiles(Out), &Errno).empty();
  if (!Written && !Quiet)
    message("homp: warning: HOMP_PROFILES='%s': cannot be written (%s); "
            "AUTO's profiles of this run are lost\n",
            Path.c_str(), std::strerror(Errno));
  if (Written && Quiet)
    pruneCachedProfiles(Folder);
  if (Dir >= 0)
    close(Dir); // and with it the lock
}

/// The profile of Key; from the saved profiles when this run has none.
LoopProfile *profileOf(const ConstructInfo &Info, const ProfileKey &Key) {
  auto It = profiles().find(Key);
  if (It != profiles().end() && It->second.Split)
    return &It->second;
  const SavedProfile *Saved = savedProfile(Info, Key);
  if (!Saved)
    return nullptr;
  LoopProfile &P = profiles()[Key];
  // What a whole earlier run learned is a trusted prior: the split moves
  // only on what several executions show (Rebalancer, patient).
  P.Split.emplace(Saved->Split, /*Damping=*/2, /*Patient=*/true);
  P.Trials.emplace(static_cast<unsigned>(Key.Devices.size()));
  P.Trials->restore(Saved->Trials);
  P.Learned = Saved->Learned;
  P.Restored = true;
  return &P;
}

} // namespace

const PolicyContext &policyContext() {
  static const PolicyContext *Ctx = [] {
    auto *C = new PolicyContext(); // outlives exit
    C->Env = &settings();
    C->Loaded = &machineModel();
    std::vector<double> Factors(C->Loaded->Devices.size());
    for (size_t Id = 0; Id < Factors.size(); ++Id)
      Factors[Id] = emulationFactor(static_cast<int>(Id));
    C->Model = new MachineModel(emulatedModel(*C->Loaded, Factors));
    C->HostId = hostDevice();
    C->TypeOf = [](int D) { return static_cast<int>(deviceTypes().typeOf(D)); };
    return C;
  }();
  return *Ctx;
}

LoopSchedule scheduleLoop(const ConstructInfo &Info, const abi::Policy &P,
                          const std::vector<int> &Devices, int64_t Trips,
                          const LoopCost &C) {
  // The context before the lock: an error in the model ends the program,
  // and the profiles' writer at exit takes the lock.
  const PolicyContext &Ctx = policyContext();
  const ScheduleRequest R = scheduleRequest(
      Ctx, P, Info.Desc.Cut, static_cast<unsigned>(Devices.size()));
  std::lock_guard<std::mutex> Lock(ProfilesLock);
  LoopProfile *Profile = nullptr;
  if (!R.Block) {
    const ProfileKey Key = keyOf(Info, Devices, Trips);
    if (R.Kind == abi::SchedKind::Auto) {
      Profile = profileOf(Info, Key);
    } else {
      auto It = profiles().find(Key);
      if (It != profiles().end())
        Profile = &It->second;
    }
  }
  return chooseSchedule(Ctx, R, Devices, Trips, C, Profile);
}

void recordExecution(const ConstructInfo &Info, const LoopSchedule &S,
                     const std::vector<int> &Devices, int64_t Trips,
                     const std::vector<int64_t> &Iterations,
                     const std::vector<double> &Seconds, double Makespan) {
  const PolicyContext &Ctx = policyContext();
  std::lock_guard<std::mutex> Lock(ProfilesLock);
  learnExecution(Ctx, profiles()[keyOf(Info, Devices, Trips)], S, Devices,
                 Trips, Iterations, Seconds, Makespan);
}

void recordSampleBias(const ConstructInfo &Info,
                      const std::vector<int> &Devices, int64_t Trips,
                      const std::vector<double> &Observed,
                      const std::vector<double> &ObservedPieces, bool Spread,
                      bool Uneven) {
  std::lock_guard<std::mutex> Lock(ProfilesLock);
  LoopProfile &P = profiles()[keyOf(Info, Devices, Trips)];
  learnSampleCosts(P, Spread, Uneven);
  if (std::any_of(Observed.begin(), Observed.end(),
                  [](double O) { return O > 0; }))
    learnSampleBias(P, Observed, ObservedPieces);
}

double emulationFactor(int Device) {
  // A device that does not exist is the setting's mistake (a typo, or a
  // machine with fewer devices): said once, as for other bad values.
  static std::once_flag Checked;
  std::call_once(Checked, [] {
    std::string Why = emulatedDevicesProblem(settings().Emulate,
                                             deviceEnvironment().NumDevices);
    if (!Why.empty()) {
      message("homp: error: %s\n", Why.c_str());
      std::fflush(nullptr);
      std::_Exit(EXIT_FAILURE);
    }
  });
  int Host = hostDevice();
  for (const Emulation &E : settings().Emulate)
    if (E.Device == Device || (E.Device == -1 && Device == Host))
      return E.Factor;
  return 1;
}

void emulateSlowdown(int Device, double Seconds) {
  double F = emulationFactor(Device);
  if (F > 1 && Seconds > 0)
    std::this_thread::sleep_for(
        std::chrono::duration<double>((F - 1) * Seconds));
}

} // namespace homp
