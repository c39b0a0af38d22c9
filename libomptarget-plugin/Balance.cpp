//===-- Balance.cpp - Choosing and learning a loop's schedule -------------===//

#include "Balance.h"

#include "Devices.h"

#include "homp/Scheduler.h"

#include <omp.h>

#include <algorithm>
#include <chrono>
#include <map>
#include <mutex>
#include <numeric>
#include <thread>
#include <tuple>

namespace homp {

namespace {

/// Rates (iterations per second) per device position, learned from the
/// executions of one region over one device set at one size class.
struct Profile {
  std::vector<double> Rates;
  int Executions = 0;
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

/// The model's view of the devices until a machine model exists: equal,
/// but for what HOMP_EMULATE slows down.
std::vector<double> modelWeights(const std::vector<int> &Devices) {
  std::vector<double> W;
  for (int D : Devices)
    W.push_back(1.0 / emulationFactor(D));
  return W;
}

} // namespace

std::string LoopSchedule::describe() const {
  std::string S = Block ? "BLOCK" : abi::schedKindSpelling(Kind);
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

std::vector<double> sharesByRates(std::vector<double> Rates, double Cutoff) {
  // A device not measured yet counts as an average one.
  double Known = 0;
  unsigned NKnown = 0;
  for (double R : Rates)
    if (R > 0)
      Known += R, ++NKnown;
  for (double &R : Rates)
    if (!(R > 0))
      R = NKnown ? Known / NKnown : 1;
  double Total = std::accumulate(Rates.begin(), Rates.end(), 0.0);
  std::vector<double> Shares;
  for (double R : Rates)
    Shares.push_back(R / Total);
  if (Cutoff <= 0 || Shares.empty())
    return Shares;
  size_t Best = std::max_element(Shares.begin(), Shares.end()) - Shares.begin();
  double Kept = 0;
  for (size_t I = 0; I < Shares.size(); ++I) {
    if (Shares[I] < Cutoff && I != Best)
      Shares[I] = 0;
    Kept += Shares[I];
  }
  for (double &S : Shares)
    S /= Kept;
  return Shares;
}

LoopSchedule scheduleLoop(const ConstructInfo &Info, const abi::Policy &P,
                          const std::vector<int> &Devices, int64_t Trips) {
  LoopSchedule S;
  const Settings &Env = settings();
  unsigned N = static_cast<unsigned>(Devices.size());
  abi::SchedKind Kind = P.Sched;
  abi::Amount Amount = P.Chunk;
  abi::Cutoff Cut = Info.Desc.Cut;
  if (Kind == abi::SchedKind::Auto && Env.Schedule) {
    const ScheduleSetting &E = *Env.Schedule;
    S.Why = "HOMP_SCHEDULE";
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
  S.Cutoff = cutoffRatio(Cut, Env.Cut, N);
  if (Kind == abi::SchedKind::Auto) {
    S.ChoseAuto = true;
    std::lock_guard<std::mutex> Lock(ProfilesLock);
    auto It = profiles().find(keyOf(Info, Devices, Trips));
    if (It != profiles().end()) {
      S.Kind = abi::SchedKind::Profile;
      S.Mode = LoopSchedule::Shares;
      S.Weights = sharesByRates(It->second.Rates, S.Cutoff);
      S.Why = "rates learned in " + std::to_string(It->second.Executions) +
              " execution" + (It->second.Executions == 1 ? "" : "s");
      return S;
    }
    Kind = abi::SchedKind::Profile;
    S.Why = "first execution: sampling";
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
    S.Weights = sharesByRates(modelWeights(Devices), S.Cutoff);
    break;
  case abi::SchedKind::Profile:
  case abi::SchedKind::ModelProfile:
  case abi::SchedKind::Auto:
    S.Mode = LoopSchedule::Sampled;
    S.Chunk = std::min(Trips, Given.of(Trips));
    S.Weights = Kind == abi::SchedKind::ModelProfile
                    ? sharesByRates(modelWeights(Devices), 0)
                    : std::vector<double>(N, 1.0);
    break;
  }
  return S;
}

std::vector<double> dataRegionShares(const abi::Policy &P,
                                     const std::vector<int> &Devices) {
  const Settings &Env = settings();
  if (P.Sched == abi::SchedKind::Auto && Env.Schedule && Env.Schedule->Block)
    return std::vector<double>(Devices.size(), 1.0);
  abi::Cutoff None;
  return sharesByRates(
      modelWeights(Devices),
      cutoffRatio(None, Env.Cut, static_cast<unsigned>(Devices.size())));
}

void recordExecution(const ConstructInfo &Info, const std::vector<int> &Devices,
                     int64_t Trips, const std::vector<int64_t> &Iterations,
                     const std::vector<double> &Seconds) {
  std::lock_guard<std::mutex> Lock(ProfilesLock);
  Profile &P = profiles()[keyOf(Info, Devices, Trips)];
  P.Rates.resize(Devices.size(), 0);
  for (size_t I = 0; I < Devices.size(); ++I) {
    if (Iterations[I] <= 0 || Seconds[I] <= 0)
      continue; // cut off, or not measurable: keep what is known
    double Measured = static_cast<double>(Iterations[I]) / Seconds[I];
    // Damped: one noisy execution moves the estimate halfway.
    P.Rates[I] = P.Rates[I] > 0 ? (P.Rates[I] + Measured) / 2 : Measured;
  }
  ++P.Executions;
}

double emulationFactor(int Device) {
  int Host = omp_get_initial_device();
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
