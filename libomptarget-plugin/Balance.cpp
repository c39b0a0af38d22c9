//===-- Balance.cpp - Choosing and learning a loop's schedule -------------===//

#include "Balance.h"

#include "Devices.h"
#include "Machine.h"

#include "homp/Rebalancer.h"
#include "homp/SavedProfiles.h"
#include "homp/Scheduler.h"

#include <omp.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <limits>
#include <map>
#include <mutex>
#include <numeric>
#include <optional>
#include <sstream>
#include <thread>
#include <tuple>

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

namespace homp {

namespace {

/// The split of one region over one device set at one size class, learned
/// from its executions: first the sample's rates, then damped rebalancing.
struct Profile {
  std::optional<Rebalancer> Split;
  std::optional<AutoTrials> Trials; ///< from the execution after the sample
  int Executions = 0;
  int Learned = 0;       ///< executions the split learned from
  bool Restored = false; ///< started from a saved profile (HOMP_PROFILES)
  /// The device (position) that runs the trial of the fastest device alone.
  std::optional<unsigned> Alone;
  /// Per position: a profile kind's rest rate over its sample rate, and
  /// the executions it learned from (updateSampleBias).
  std::vector<double> SampleBias, PieceBias;
  int BiasLearned = 0;
};

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
std::map<ProfileKey, Profile> &profiles() {
  static auto *P = new std::map<ProfileKey, Profile>(); // outlives exit
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

/// HOMP_PROFILES: the profiles the file held at start (guarded by
/// ProfilesLock), and whether to write the file at exit.
struct SavedFile {
  std::vector<SavedProfile> Profiles;
  bool Write = false;
};

/// Writes every profile learned in this run, and those of the file that
/// this run did not touch, to HOMP_PROFILES (at exit).
void writeSavedProfiles();

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
    const std::string &Path = settings().ProfilesPath;
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
        message("homp: warning: HOMP_PROFILES='%s': %s; AUTO starts "
                "without saved profiles, and the file is left as it "
                "is\n",
                Path.c_str(), Error.c_str());
        F->Profiles.clear();
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
  const std::string &Path = settings().ProfilesPath;
  std::vector<SavedProfile> Out;
  {
    // The program may exit while another thread schedules a loop; never
    // wait for it for long (a thread that called exit() from a device's
    // job while the lock's holder waits for that job would wait forever).
    std::unique_lock<std::mutex> Lock(ProfilesLock, std::defer_lock);
    for (int Try = 0; Try < 1000 && !Lock.try_lock(); ++Try)
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    if (!Lock.owns_lock()) {
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
  if (!writeAtomically(Path, writeProfiles(Out), &Errno).empty())
    message("homp: warning: HOMP_PROFILES='%s': cannot be written (%s); "
            "AUTO's profiles of this run are lost\n",
            Path.c_str(), std::strerror(Errno));
  if (Dir >= 0)
    close(Dir); // and with it the lock
}

/// The profile of Key; from the saved profiles when this run has none.
Profile *profileOf(const ConstructInfo &Info, const ProfileKey &Key) {
  auto It = profiles().find(Key);
  if (It != profiles().end() && It->second.Split)
    return &It->second;
  const SavedProfile *Saved = savedProfile(Info, Key);
  if (!Saved)
    return nullptr;
  Profile &P = profiles()[Key];
  P.Split.emplace(Saved->Split);
  P.Trials.emplace(static_cast<unsigned>(Key.Devices.size()));
  P.Trials->restore(Saved->Trials);
  P.Learned = Saved->Learned;
  P.Restored = true;
  return &P;
}

/// The machine model, with the devices HOMP_EMULATE slows down slower.
/// With any device slowed, every unknown compute rate first becomes the
/// known devices' mean (or the nominal rate): the slowed device's rate
/// alone would otherwise be the only one known, and the model would take
/// the others to be as slow.
MachineModel emulatedModel() {
  MachineModel M = machineModel();
  bool Emulated = false;
  for (size_t Id = 0; Id < M.Devices.size(); ++Id)
    Emulated |= emulationFactor(static_cast<int>(Id)) != 1;
  if (!Emulated)
    return M;
  double Known = 0;
  unsigned NKnown = 0;
  for (const DeviceModel &D : M.Devices)
    if (D.Gflops > 0)
      Known += D.Gflops, ++NKnown;
  for (size_t Id = 0; Id < M.Devices.size(); ++Id) {
    DeviceModel &D = M.Devices[Id];
    if (!(D.Gflops > 0))
      D.Gflops = NKnown ? Known / NKnown : NominalGflops;
    double F = emulationFactor(static_cast<int>(Id));
    D.Gflops /= F;
    D.BandwidthMBs /= F;
  }
  return M;
}

/// Whether the model knows every device's compute rate (a machine file).
/// Calibrated rates do not count: they are a probe kernel's, and a sample of
/// the loop itself says more of how fast each device runs it.
bool modelKnowsSpeeds(const std::vector<int> &Devices) {
  const MachineModel &M = machineModel();
  if (M.Calibrated)
    return false;
  for (int D : Devices)
    if (D < 0 || static_cast<size_t>(D) >= M.Devices.size() ||
        !(M.Devices[D].Gflops > 0))
      return false;
  return true;
}

std::vector<double> modelWeights(const std::vector<int> &Devices,
                                 const LoopCost &C, int64_t Trips,
                                 bool WithData) {
  return modelShares(emulatedModel(), Devices, C, Trips, WithData);
}

/// CUTOFF (HOMP'16 IV.E) of Shares of a loop of Trips iterations: the
/// devices whose copies cost more than their share saves (cutUnprofitable,
/// by Costs), then the shares under Ratio (cutoff(0) cuts by the copies
/// alone). No cutoff: Shares, normalized.
std::vector<double> cutoff(std::vector<double> Shares,
                           std::optional<double> Ratio,
                           const DeviceCosts &Costs, int64_t Trips) {
  if (!Ratio)
    return applyCutoff(std::move(Shares), 0);
  // The copies first: the ratio keeps the largest share (the first of
  // equals), which may be the device whose copies cost the most.
  Shares = cutUnprofitable(std::move(Shares), Costs, Trips);
  return applyCutoff(std::move(Shares), *Ratio);
}

/// What each device's share of a loop costing C per iteration costs it,
/// by the machine model (MODEL_2_AUTO's a_i and c_i).
DeviceCosts modelCostsOf(const std::vector<int> &Devices, const LoopCost &C) {
  return modelCosts(emulatedModel(), Devices, C);
}

/// What the model's split of a loop was computed from, for HOMP_INFO.
std::string modelInputs(const LoopCost &C) {
  char Text[128];
  std::snprintf(Text, sizeof Text,
                "model: %.4g operations, %.4g bytes copied per iteration",
                C.FlopsPerIteration, C.BytesPerIteration);
  return Text;
}

/// Adds a clause to an explanation ("a; b").
void explain(std::string &Why, const std::string &More) {
  Why += (Why.empty() ? "" : "; ") + More;
}

std::string milliseconds(double Seconds) {
  char Text[32];
  std::snprintf(Text, sizeof Text, "%.3g ms", Seconds * 1e3);
  return Text;
}

/// AUTO after its sample: the execution runs P's next trial.
void chooseTrial(Profile &P, const std::vector<int> &Devices, int64_t Trips,
                 const LoopCost &C, LoopSchedule &S) {
  const std::vector<double> &Split = P.Split->ratios();
  unsigned N = static_cast<unsigned>(Split.size());
  // The device the split rates highest.
  const unsigned Top = static_cast<unsigned>(
      std::max_element(Split.begin(), Split.end()) - Split.begin());
  // Every trial runs over the devices the split keeps: a cutoff holds.
  auto OnlyKept = [&](std::vector<double> W) {
    for (unsigned I = 0; I < N; ++I)
      if (!(Split[I] > 0))
        W[I] = 0;
    return W;
  };
  AutoTrial T = P.Trials->next();
  S.Trial = T;
  S.Kind = abi::SchedKind::ModelProfile;
  S.Mode = LoopSchedule::Shares;
  switch (T) {
  case AutoTrial::Balanced:
    S.Weights = Split;
    S.Why = "learned in " + std::to_string(P.Learned) + " execution" +
            (P.Learned == 1 ? "" : "s") +
            (P.Split->converged() ? ", calibrated" : "");
    break;
  case AutoTrial::Model:
    S.Kind = abi::SchedKind::Model2;
    S.Weights =
        OnlyKept(cutoff(modelWeights(Devices, C, Trips, /*WithData=*/true),
                        S.Cutoff, modelCostsOf(Devices, C), Trips));
    S.Why = modelInputs(C);
    if (std::none_of(S.Weights.begin(), S.Weights.end(),
                     [](double W) { return W > 0; }))
      S.Weights = Split;
    break;
  case AutoTrial::Dynamic:
    S.Kind = abi::SchedKind::Dynamic;
    S.Mode = LoopSchedule::Queue;
    S.Chunk = defaultAmount(abi::SchedKind::Dynamic).of(Trips);
    S.Weights = OnlyKept(std::vector<double>(N, 1.0));
    // A device whose share of the split is under two chunks could not run
    // two while the others run the loop: its first chunk alone would end
    // last, and any delay to it (a busy core) shows in the loop's time
    // (measured: a sum over 4 devices, one 20 times slower, 2.0 to 8.3 ms
    // an execution with it, 2.0 to 2.4 ms without).
    if (Trips > 0) {
      bool Left = false;
      // (Only a device slower than the fastest: with many equal devices,
      // or few iterations, every share may be under two chunks.)
      for (unsigned I = 0; I < N; ++I)
        if (I != Top && S.Weights[I] > 0 && Split[I] < 0.5 * Split[Top] &&
            Split[I] * static_cast<double>(Trips) < 2.0 * S.Chunk)
          S.Weights[I] = 0, Left = true;
      if (Left)
        S.Why = "without devices whose share of the split is under two chunks";
    }
    break;
  case AutoTrial::Alone: {
    // The device the split rates highest, or the host when the model rates
    // it highest (a sum of 4e6 over 4 CPU devices and the host: alone on the
    // host 1.1 ms, on the device the sample rated first 1.6 to 1.9 ms, in
    // half the processes), or the device it ran on before (bm2d alone, 2.4
    // ms the first time on a device, 1.9 the next; a median of times from
    // two devices kept AUTO from the fastest way in some runs): aloneDevice.
    // (The model only where the host takes part: a trial that wins runs
    // every execution, and the model is not free.)
    std::optional<unsigned> HostByModel;
    if (std::find(Devices.begin(), Devices.end(), hostDevice()) !=
        Devices.end()) {
      std::vector<double> Model = modelWeights(Devices, C, Trips, true);
      unsigned ByModel = static_cast<unsigned>(
          std::max_element(Model.begin(), Model.end()) - Model.begin());
      if (Devices[ByModel] == hostDevice())
        HostByModel = ByModel;
    }
    // Kinds: the host, or an offload device's type.
    std::vector<int> Kinds;
    for (int D : Devices)
      Kinds.push_back(D == hostDevice() ? -1 : deviceTypes().typeOf(D));
    const unsigned Fastest = aloneDevice(Split, HostByModel, P.Alone, Kinds);
    P.Alone = Fastest;
    S.Weights.assign(N, 0.0);
    S.Weights[Fastest] = 1;
    S.Why = "";
    break;
  }
  }
  std::string Times;
  for (AutoTrial A : {AutoTrial::Balanced, AutoTrial::Model,
                      AutoTrial::Dynamic, AutoTrial::Alone})
    if (std::isfinite(P.Trials->typical(A)))
      Times += std::string(Times.empty() ? "" : ", ") + autoTrialName(A) +
               " " + milliseconds(P.Trials->typical(A));
  int Done = P.Trials->executions();
  constexpr int Opening = AutoTrials::Opening;
  std::string Choice;
  if (Done < Opening)
    Choice = "trial " + std::to_string(Done + 1) + " of " +
             std::to_string(Opening) + (Times.empty() ? "" : ", so far ");
  else
    switch (P.Trials->repeatingNext()) {
    case AutoTrials::Repeat::Warm:
      Choice = "trial again, warm; so far ";
      break;
    case AutoTrials::Repeat::Confirm:
      Choice = "trial again, to confirm; so far ";
      break;
    case AutoTrials::Repeat::None:
      Choice = "fastest of the trials: ";
      break;
    }
  Choice += Times;
  explain(S.Why, Choice);
}

} // namespace

std::string LoopSchedule::describe() const {
  // AUTO's balanced split and its fastest device alone are no kind of
  // HOMP'16's: they are named as the trials.
  bool NamedTrial =
      ChoseAuto && Trial &&
      (*Trial == AutoTrial::Balanced || *Trial == AutoTrial::Alone);
  std::string S = Block        ? "BLOCK"
                  : NamedTrial ? autoTrialName(*Trial)
                               : abi::schedKindSpelling(Kind);
  if (Mode == Queue)
    S += ", chunks of " + std::to_string(Chunk);
  else if (Mode == Sampled)
    S += ", sample of " + std::to_string(Chunk);
  if (ChoseAuto)
    S = "AUTO: " + S;
  if (!Why.empty())
    S += " (" + Why + ")";
  return S;
}

namespace {

LoopSchedule chooseSchedule(const ConstructInfo &Info, const abi::Policy &P,
                            const std::vector<int> &Devices, int64_t Trips,
                            const LoopCost &C) {
  LoopSchedule S;
  const Settings &Env = settings();
  unsigned N = static_cast<unsigned>(Devices.size());
  abi::SchedKind Kind = P.Sched;
  abi::Amount Amount = P.Chunk;
  abi::Cutoff Cut = Info.Desc.Cut;
  if (Kind == abi::SchedKind::Auto && Env.Schedule) {
    const ScheduleSetting &E = *Env.Schedule;
    S.Why = Env.ScheduleVariable;
    if (E.Block) {
      S.Block = true;
      S.Weights.assign(N, 1.0);
      return S;
    }
    Kind = E.Kind;
    Amount = E.Chunk;
    if (E.Cut.Kind != abi::Cutoff::None)
      Cut = E.Cut;
  }
  if (Cut.Kind != abi::Cutoff::None || Env.Cut.Kind != abi::Cutoff::None)
    S.Cutoff = cutoffRatio(Cut, Env.Cut, N);
  if (Kind == abi::SchedKind::Auto) {
    S.ChoseAuto = true;
    // The model before the lock: an error in it ends the program, and the
    // profiles' writer at exit takes the lock.
    (void)machineModel();
    std::lock_guard<std::mutex> Lock(ProfilesLock);
    if (Profile *P = profileOf(Info, keyOf(Info, Devices, Trips))) {
      chooseTrial(*P, Devices, Trips, C, S);
      if (P->Restored && P->Executions == 0)
        S.Why = "saved profile, HOMP_PROFILES; " + S.Why;
      return S;
    }
    // A machine file that knows every device: its model; else a sample
    // split by the model measures the devices.
    if (modelKnowsSpeeds(Devices)) {
      Kind = abi::SchedKind::Model2;
      S.Why = "first execution: machine model";
    } else {
      Kind = abi::SchedKind::ModelProfile;
      S.Why = "first execution: sampling";
    }
  }
  S.Kind = Kind;
  abi::Amount Given = Amount.given() ? Amount : defaultAmount(Kind);
  switch (Kind) {
  case abi::SchedKind::Dynamic:
  case abi::SchedKind::Guided:
    S.Mode = LoopSchedule::Queue;
    S.Chunk = Given.of(Trips);
    S.Weights.assign(N, 1.0);
    break;
  case abi::SchedKind::Model1:
  case abi::SchedKind::Model2:
    S.Mode = LoopSchedule::Shares;
    S.Weights =
        cutoff(modelWeights(Devices, C, Trips, Kind == abi::SchedKind::Model2),
               S.Cutoff, modelCostsOf(Devices, C), Trips);
    explain(S.Why, modelInputs(C));
    break;
  case abi::SchedKind::Profile:
  case abi::SchedKind::ModelProfile:
  case abi::SchedKind::Auto:
    S.Mode = LoopSchedule::Sampled;
    S.Chunk = std::min(Trips, Given.of(Trips));
    // The model's shares of the whole loop: a small sample alone would be
    // all latency, and leave devices out of the measurement. AUTO's sample
    // measures every device: its shares leave the fixed costs out, which
    // in a short loop would drop a device on a few tenths of a microsecond
    // of copy latency that calibration measured (AUTO's trials then find
    // out whether fewer devices are faster).
    S.Weights = Kind == abi::SchedKind::ModelProfile
                    ? modelWeights(Devices, C, S.ChoseAuto ? 0 : Trips,
                                   /*WithData=*/true)
                    : std::vector<double>(N, 1.0);
    if (Kind == abi::SchedKind::ModelProfile)
      explain(S.Why, modelInputs(C));
    // What the region's earlier executions found of the sample's rates
    // (a profile kind's; AUTO samples once).
    if (!S.ChoseAuto) {
      std::lock_guard<std::mutex> Lock(ProfilesLock);
      auto It = profiles().find(keyOf(Info, Devices, Trips));
      if (It != profiles().end() && It->second.BiasLearned > 0) {
        S.SampleBias = It->second.SampleBias;
        S.PieceBias = It->second.PieceBias;
        int Learned = It->second.BiasLearned;
        explain(S.Why, "rates corrected by " + std::to_string(Learned) +
                           " earlier execution" + (Learned == 1 ? "" : "s"));
      }
    }
    break;
  }
  return S;
}

} // namespace

LoopSchedule scheduleLoop(const ConstructInfo &Info, const abi::Policy &P,
                          const std::vector<int> &Devices, int64_t Trips,
                          const LoopCost &C) {
  LoopSchedule S = chooseSchedule(Info, P, Devices, Trips, C);
  S.Cost = C;
  // BLOCK is an even split by request; a queue's chunks are small.
  if (S.Block || S.Mode == LoopSchedule::Queue)
    return S;
  bool Fits = true;
  std::vector<double> Capped = capByMemory(
      Devices, S.Weights, S.Mode == LoopSchedule::Sampled ? S.Chunk : Trips, C,
      &S.Why, &Fits, &S.Capped);
  if (!Fits && S.Trial == AutoTrial::Alone) {
    // The fastest device cannot hold the loop: the fastest that can, else
    // the split.
    std::vector<double> Split;
    {
      std::lock_guard<std::mutex> Lock(ProfilesLock);
      Split = profiles()[keyOf(Info, Devices, Trips)].Split->ratios();
    }
    std::vector<size_t> Order(Split.size());
    std::iota(Order.begin(), Order.end(), 0);
    // Largest first; equal shares in device order.
    std::sort(Order.begin(), Order.end(), [&](size_t A, size_t B) {
      return Split[A] > Split[B] || (Split[A] == Split[B] && A < B);
    });
    for (size_t P : Order) {
      std::vector<double> One(Split.size(), 0.0);
      One[P] = 1;
      capByMemory(Devices, One, Trips, C, nullptr, &Fits);
      if (Fits) {
        S.Weights = std::move(One);
        S.Capped.clear();
        return S;
      }
    }
    S.Weights = Split;
    S.Trial = AutoTrial::Balanced;
    S.Why = "no device alone can hold the loop";
    Capped =
        capByMemory(Devices, S.Weights, Trips, C, &S.Why, nullptr, &S.Capped);
  }
  S.Weights = std::move(Capped);
  return S;
}

void inOneSharePerDevice(LoopSchedule &S, const std::vector<int> &Devices,
                         int64_t Trips, const std::string &Reason) {
  if (S.Mode == LoopSchedule::Sampled && S.ChoseAuto)
    S.FromSample = true;
  else if (S.Mode == LoopSchedule::Sampled)
    S.Weights = cutoff(std::move(S.Weights), S.Cutoff,
                       modelCostsOf(Devices, S.Cost), Trips);
  S.Mode = LoopSchedule::Shares;
  explain(S.Why, "in one share per device: " + Reason);
  S.Weights = capByMemory(Devices, std::move(S.Weights), Trips, S.Cost, &S.Why,
                          nullptr, &S.Capped);
}

std::vector<double> capByMemory(const std::vector<int> &Devices,
                                std::vector<double> Shares, int64_t Trips,
                                const LoopCost &C, std::string *Why, bool *Fits,
                                std::vector<bool> *Capped) {
  if (Fits)
    *Fits = true;
  if (Capped)
    Capped->clear();
  const MachineModel &M = machineModel();
  std::vector<double> Capacity(Devices.size(), 0);
  bool Known = false;
  for (size_t P = 0; P < Devices.size(); ++P)
    if (Devices[P] >= 0 && static_cast<size_t>(Devices[P]) < M.Devices.size() &&
        M.Devices[Devices[P]].MemoryMB > 0) {
      Capacity[P] = M.Devices[Devices[P]].MemoryMB * 1e6;
      Known = true;
    }
  if (!Known)
    return Shares;
  LoopCost Memory; // capShares's terms: what a device holds
  Memory.BytesPerIteration = C.HeldPerIteration;
  Memory.FixedBytes = C.HeldFixed;
  std::vector<bool> Held;
  Shares = capShares(std::move(Shares), Trips, Memory, Capacity, &Held, Fits);
  std::string Which;
  for (size_t P = 0; P < Devices.size(); ++P)
    if (Held[P])
      Which += (Which.empty() ? "" : ", ") + deviceLabel(Devices[P]);
  if (Why && !Which.empty())
    explain(*Why, "capped by memory: " + Which);
  if (Capped && !Which.empty())
    *Capped = std::move(Held);
  return Shares;
}

std::vector<double> dataRegionShares(const abi::Policy &P, abi::Cutoff Cut,
                                     const std::vector<int> &Devices,
                                     int64_t Trips, const LoopCost &Held,
                                     std::string *Why) {
  const Settings &Env = settings();
  // HOMP_SCHEDULE's kind and cutoff replace an AUTO loop's, as in
  // chooseSchedule (BLOCK is an even split by request, as there).
  if (P.Sched == abi::SchedKind::Auto && Env.Schedule) {
    if (Env.Schedule->Block)
      return std::vector<double>(Devices.size(), 1.0);
    if (Env.Schedule->Cut.Kind != abi::Cutoff::None)
      Cut = Env.Schedule->Cut;
  }
  return capByMemory(
      Devices,
      applyCutoff(
          modelWeights(Devices, LoopCost(), 0, /*WithData=*/false),
          cutoffRatio(Cut, Env.Cut, static_cast<unsigned>(Devices.size()))),
      Trips, Held, Why);
}

void recordExecution(const ConstructInfo &Info, const LoopSchedule &S,
                     const std::vector<int> &Devices, int64_t Trips,
                     const std::vector<int64_t> &Iterations,
                     const std::vector<double> &Seconds, double Makespan) {
  std::lock_guard<std::mutex> Lock(ProfilesLock);
  Profile &P = profiles()[keyOf(Info, Devices, Trips)];
  ++P.Executions;
  if (!P.Split) {
    P.Trials.emplace(static_cast<unsigned>(Devices.size()));
    if (S.Mode != LoopSchedule::Shares || S.FromSample) {
      // A sample: its rates give the split to start from. A device the
      // sample left out (weight 0: the model or the cutoff dropped it)
      // stays out.
      std::vector<double> Rates =
          sampleRates(Iterations, Seconds,
                      S.Mode == LoopSchedule::Sampled || S.FromSample
                          ? S.Weights
                          : std::vector<double>(Devices.size(), 1.0));
      // A device's iterations cost what the sample measured (its copies
      // included); what it copies once, the model says. The sample's time
      // includes those once-copies too, so a device whose copies are
      // costly is cut a little more readily than the model alone would.
      DeviceCosts Costs = modelCostsOf(Devices, S.Cost);
      for (size_t I = 0; I < Rates.size(); ++I)
        Costs.PerIteration[I] = Rates[I] > 0
                                    ? 1 / Rates[I]
                                    : std::numeric_limits<double>::infinity();
      P.Split.emplace(
          cutoff(normalizeShares(std::move(Rates)), S.Cutoff, Costs, Trips));
      P.Learned = 1;
      return;
    }
    P.Split.emplace(S.Weights);
  }
  if (S.Trial)
    P.Trials->record(*S.Trial, Makespan);
  // The split learns from the times of its own shares only.
  if ((!S.Trial || *S.Trial == AutoTrial::Balanced) &&
      S.Mode == LoopSchedule::Shares) {
    // A device the memory cap held below its ratio, and that was done
    // before the others on average, ran less than its ratio's share: its
    // time says nothing of the ratio, which it keeps. One that ended later
    // even so is timed, so that its ratio comes down.
    std::vector<double> Timed = Seconds;
    double Others = 0;
    int Counted = 0;
    for (size_t I = 0; I < Timed.size(); ++I)
      if ((I >= S.Capped.size() || !S.Capped[I]) && Timed[I] > 0)
        Others += Timed[I], ++Counted;
    for (size_t I = 0; I < S.Capped.size() && I < Timed.size(); ++I)
      if (S.Capped[I] && Counted > 0 && Timed[I] <= Others / Counted)
        Timed[I] = 0;
    P.Split->update(Timed);
    ++P.Learned;
  }
}

void recordSampleBias(const ConstructInfo &Info,
                      const std::vector<int> &Devices, int64_t Trips,
                      const std::vector<double> &Observed,
                      const std::vector<double> &ObservedPieces) {
  if (std::none_of(Observed.begin(), Observed.end(),
                   [](double O) { return O > 0; }))
    return;
  std::lock_guard<std::mutex> Lock(ProfilesLock);
  Profile &P = profiles()[keyOf(Info, Devices, Trips)];
  P.SampleBias = updateSampleBias(std::move(P.SampleBias), Observed);
  P.PieceBias = updateSampleBias(std::move(P.PieceBias), ObservedPieces);
  ++P.BiasLearned;
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
