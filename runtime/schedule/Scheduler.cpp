//===-- Scheduler.cpp - Scheduling a loop over devices --------------------===//

#include "homp/Scheduler.h"

#include "homp/Model.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <numeric>
#include <tuple>

namespace homp {

namespace {

std::string trim(const std::string &S) {
  size_t B = S.find_first_not_of(" \t");
  size_t E = S.find_last_not_of(" \t");
  return B == std::string::npos ? std::string() : S.substr(B, E - B + 1);
}

std::vector<std::string> splitCommas(const std::string &S) {
  std::vector<std::string> Parts;
  size_t B = 0;
  while (true) {
    size_t C = S.find(',', B);
    Parts.push_back(trim(S.substr(B, C - B)));
    if (C == std::string::npos)
      return Parts;
    B = C + 1;
  }
}

/// '-1' or '': not given; 'N' iterations; 'P%'.
bool amount(const std::string &S, abi::Amount &A) {
  A = abi::Amount();
  if (S.empty() || S == "-1")
    return true;
  double V;
  if (S.back() == '%')
    return abi::parseReal(S.substr(0, S.size() - 1), V) && V > 0 && V <= 100 &&
           (A.Percent = V, true);
  char *Stop = nullptr;
  errno = 0;
  long long N = std::strtoll(S.c_str(), &Stop, 10);
  A.Iterations = N;
  return *Stop == 0 && errno != ERANGE && N > 0;
}

} // namespace

std::optional<abi::Cutoff> parseCutoffText(const std::string &Text) {
  abi::Cutoff C;
  std::string S = trim(Text);
  if (S == "auto") {
    C.Kind = abi::Cutoff::Auto;
    return C;
  }
  bool Percent = !S.empty() && S.back() == '%';
  double V;
  if (!abi::parseReal(Percent ? S.substr(0, S.size() - 1) : S, V))
    return std::nullopt;
  if (Percent)
    V /= 100;
  if (V < 0 || V >= 1)
    return std::nullopt;
  C.Kind = abi::Cutoff::Given;
  C.Value = V;
  return C;
}

std::optional<ScheduleSetting> parseSchedule(const std::string &Text,
                                             std::string &Error) {
  Error = "expected KIND[,chunk][,cutoff] with KIND one of BLOCK, "
          "SCHED_STATIC, SCHED_DYNAMIC, SCHED_GUIDED, MODEL_1_AUTO, "
          "MODEL_2_AUTO, SCHED_PROFILE_AUTO, MODEL_PROFILE_AUTO or AUTO (or "
          "HOMP's ids 1, 8, 9, 11, 12, 13, 14), a chunk of iterations or a "
          "percentage ('2%', '-1' for none) and a cutoff ratio, percentage "
          "or 'auto'";
  std::vector<std::string> Parts = splitCommas(Text);
  if (Parts.size() > 3)
    return std::nullopt;
  ScheduleSetting S;
  // HOMP's own runtime names the kind by its omp_dist_policy_t number and
  // reads the cutoff as a percentage, with or without '%'.
  static const std::pair<const char *, abi::SchedKind> Ids[] = {
      {"8", abi::SchedKind::Dynamic},  {"9", abi::SchedKind::Guided},
      {"11", abi::SchedKind::Model1},  {"12", abi::SchedKind::Model2},
      {"13", abi::SchedKind::Profile}, {"14", abi::SchedKind::ModelProfile}};
  bool HompId = Parts[0] == "1";
  for (const auto &[Id, Kind] : Ids)
    if (Parts[0] == Id) {
      S.Kind = Kind;
      HompId = true;
    }
  if (Parts[0] == "BLOCK" || Parts[0] == "SCHED_STATIC" || Parts[0] == "1")
    S.Block = true;
  else if (!HompId && !abi::schedKindFromSpelling(Parts[0], S.Kind))
    return std::nullopt;
  if (Parts.size() > 1 && !amount(Parts[1], S.Chunk))
    return std::nullopt;
  if (Parts.size() > 2 && !Parts[2].empty()) {
    std::string Cut = Parts[2];
    if (HompId && Cut != "auto" && Cut.back() != '%')
      Cut += '%';
    std::optional<abi::Cutoff> C = parseCutoffText(Cut);
    if (!C)
      return std::nullopt;
    S.Cut = *C;
  }
  // As the clauses: a chunk or sample only where the kind takes one, a
  // cutoff only where shares are predicted (not dropped silently).
  bool TakesAmount = !S.Block && (S.Kind == abi::SchedKind::Dynamic ||
                                  S.Kind == abi::SchedKind::Guided ||
                                  S.Kind == abi::SchedKind::Profile ||
                                  S.Kind == abi::SchedKind::ModelProfile);
  // (HOMP's numbered form comes with a chunk and a cutoff for every kind
  // in its own examples and defaults, '12,10%,0.01%', '1,-1,0.00%':
  // ignored where the kind takes none, as HOMP does.)
  if (Parts.size() > 1 && S.Chunk.given() && !TakesAmount) {
    if (!HompId) {
      Error = Parts[0] + " takes no chunk or sample size";
      return std::nullopt;
    }
    S.Chunk = abi::Amount();
  }
  bool TakesCutoff = !S.Block && S.Kind != abi::SchedKind::Dynamic &&
                     S.Kind != abi::SchedKind::Guided;
  // HOMP prints '1,-1,0.00%' as its default, and means no cutoff by a
  // cutoff of 0 (homp's cutoff(0) cuts by the copies): none, on any kind.
  if (S.Cut.Kind == abi::Cutoff::Given && S.Cut.Value == 0 && HompId)
    S.Cut = abi::Cutoff();
  if (S.Cut.Kind != abi::Cutoff::None && !TakesCutoff) {
    Error =
        "a cutoff applies to AUTO and the model and profile kinds, not "
        "to " +
        Parts[0] +
        (HompId ? std::string(" (") +
                      (S.Block ? "BLOCK" : abi::schedKindSpelling(S.Kind)) + ")"
                : "");
    return std::nullopt;
  }
  Error.clear();
  return S;
}

std::optional<std::vector<Emulation>> parseEmulate(const std::string &Text,
                                                   std::string &Error) {
  std::vector<Emulation> Out;
  for (const std::string &Item : splitCommas(Text)) {
    Error = "'" + Item +
            "' is not valid; expected dev:factor items separated by commas, "
            "dev a device id or 'host', factor a number >= 1 (e.g. 0:4,2:20)";
    size_t Colon = Item.find(':');
    if (Colon == std::string::npos)
      return std::nullopt;
    std::string Dev = trim(Item.substr(0, Colon));
    Emulation E;
    if (Dev == "host") {
      E.Device = -1;
    } else {
      char *Stop = nullptr;
      errno = 0;
      long V = std::strtol(Dev.c_str(), &Stop, 10);
      if (Dev.empty() || *Stop || errno == ERANGE || V < 0 || V > 1 << 20)
        return std::nullopt;
      E.Device = static_cast<int>(V);
    }
    if (!abi::parseReal(trim(Item.substr(Colon + 1)), E.Factor) || E.Factor < 1 ||
        E.Factor > 1e6)
      return std::nullopt;
    for (const Emulation &Before : Out)
      if (Before.Device == E.Device) {
        Error = "'" + Item + "' names " +
                (E.Device < 0 ? std::string("the host")
                              : "device " + std::to_string(E.Device)) +
                " a second time; give each device one factor";
        return std::nullopt;
      }
    Out.push_back(E);
  }
  Error.clear();
  return Out;
}

std::string emulatedDevicesProblem(const std::vector<Emulation> &E,
                                   int NumDevices) {
  for (const Emulation &X : E)
    if (X.Device >= NumDevices)
      return "HOMP_EMULATE names device " + std::to_string(X.Device) +
             ", but there are " + std::to_string(NumDevices) +
             " offload devices (ids 0 to " + std::to_string(NumDevices - 1) +
             "; 'host' for the host)";
  return "";
}

double cutoffRatio(const abi::Cutoff &Clause, const abi::Cutoff &Env,
                   unsigned Devices) {
  const abi::Cutoff &C = Clause.Kind != abi::Cutoff::None ? Clause : Env;
  switch (C.Kind) {
  case abi::Cutoff::None:
    return 0;
  case abi::Cutoff::Given:
    return C.Value;
  case abi::Cutoff::Auto:
    return Devices ? AutoCutoffMargin / Devices : 0;
  }
  return 0;
}

abi::Amount defaultAmount(abi::SchedKind K) {
  abi::Amount A;
  switch (K) {
  case abi::SchedKind::Dynamic:
    A.Percent = 2;
    break;
  case abi::SchedKind::Guided:
    A.Percent = 1;
    break;
  default:
    A.Percent = 10;
    break;
  }
  return A;
}

ChunkQueue::ChunkQueue(int64_t N, abi::SchedKind Kind, int64_t Chunk,
                       unsigned Devices)
    : N(std::max<int64_t>(0, N)), Chunk(std::max<int64_t>(1, Chunk)),
      Guided(Kind == abi::SchedKind::Guided),
      Devices(std::max(1u, Devices)) {}

std::optional<Range> ChunkQueue::next() {
  std::lock_guard<std::mutex> Lock(M);
  if (Next >= N)
    return std::nullopt;
  int64_t Size = Chunk;
  if (Guided) {
    int64_t Left = N - Next;
    Size = std::max(Chunk, (Left + 2 * Devices - 1) / (2 * Devices));
  }
  Range R{Next, std::min(N, Next + Size)};
  Next = R.End;
  return R;
}

std::vector<double> sharesByRates(std::vector<double> Rates, double Cutoff) {
  double Known = 0;
  unsigned NKnown = 0;
  for (double R : Rates)
    if (R > 0)
      Known += R, ++NKnown;
  for (double &R : Rates)
    if (!(R > 0))
      R = NKnown ? Known / NKnown : 1;
  return applyCutoff(normalizeShares(std::move(Rates)), Cutoff);
}

std::vector<double> normalizeShares(std::vector<double> Shares) {
  double Total = std::accumulate(Shares.begin(), Shares.end(), 0.0);
  if (!(Total > 0))
    return std::vector<double>(Shares.size(), 1.0 / Shares.size());
  for (double &S : Shares)
    S /= Total;
  return Shares;
}

namespace {
/// sampleRates over iterations counted as real numbers (a corrected sample
/// part counts for a fraction of its iterations).
std::vector<double> ratesOf(const std::vector<double> &Iterations,
                            const std::vector<double> &Seconds,
                            const std::vector<double> &Weights) {
  std::vector<double> Rates(Iterations.size(), 0);
  double PerWeight = 0;
  unsigned Measured = 0;
  for (size_t I = 0; I < Rates.size(); ++I)
    if (Iterations[I] > 0 && Seconds[I] > 0) {
      Rates[I] = Iterations[I] / Seconds[I];
      if (Weights[I] > 0)
        PerWeight += Rates[I] / Weights[I], ++Measured;
    }
  for (size_t I = 0; I < Rates.size(); ++I)
    if (!(Rates[I] > 0) && Measured)
      Rates[I] = Weights[I] * PerWeight / Measured;
  return Rates;
}
} // namespace

std::vector<double> sampleRates(const std::vector<int64_t> &Iterations,
                                const std::vector<double> &Seconds,
                                const std::vector<double> &Weights) {
  return ratesOf(std::vector<double>(Iterations.begin(), Iterations.end()),
                 Seconds, Weights);
}

std::vector<double> correctedSampleRates(const std::vector<double> &Done,
                                         const std::vector<double> &SampleDone,
                                         const std::vector<double> &Seconds,
                                         const std::vector<double> &Weights,
                                         const std::vector<double> &Bias,
                                         const std::vector<double> &PieceBias) {
  std::vector<double> Worth(Done.size(), 0);
  for (size_t I = 0; I < Done.size(); ++I) {
    double B = I < Bias.size() && Bias[I] > 0 ? Bias[I] : 1;
    double P = I < PieceBias.size() && PieceBias[I] > 0 ? PieceBias[I] : 1;
    double Sample = I < SampleDone.size() ? SampleDone[I] : 0;
    Worth[I] = (Done[I] - Sample) * P + Sample * B;
  }
  return ratesOf(Worth, Seconds, Weights);
}

double sampleBiasObservation(double SampleDone, double SampleSeconds,
                             double RestDone, double RestSeconds) {
  if (SampleDone <= 0 || RestDone <= 0 || !(SampleSeconds > 0) ||
      !(RestSeconds > 0))
    return 0;
  double Observed = (RestDone / RestSeconds) / (SampleDone / SampleSeconds);
  return std::isfinite(Observed) ? Observed : 0;
}

std::vector<double> sharesWhenFree(const std::vector<double> &Rates,
                                   const std::vector<double> &Busy,
                                   double Rest) {
  // A rate that is not a positive number gets none; a busy time that is
  // not a number counts as free.
  auto Usable = [](double R) { return R > 0 && std::isfinite(R); };
  auto FreeAfter = [&](size_t I) {
    return std::isfinite(Busy[I]) ? std::max(0.0, Busy[I]) : 0.0;
  };
  std::vector<size_t> ByBusy;
  std::vector<double> Shares(Rates.size(), 0);
  for (size_t I = 0; I < Rates.size(); ++I)
    if (Usable(Rates[I])) {
      ByBusy.push_back(I);
      Shares[I] = Rates[I];
    }
  if (ByBusy.empty() || !(Rest > 0))
    return normalizeShares(std::move(Shares)); // by the rates alone
  std::sort(ByBusy.begin(), ByBusy.end(), [&](size_t A, size_t B) {
    return std::make_tuple(FreeAfter(A), A) < std::make_tuple(FreeAfter(B), B);
  });
  // Rates[I] * (T - Busy[I]) summed over the devices free before T is Rest:
  // add devices in the order they become free while T is past their time.
  double Rate = 0, Backlog = 0, T = 0;
  for (size_t K = 0; K < ByBusy.size(); ++K) {
    size_t I = ByBusy[K];
    Rate += Rates[I];
    Backlog += Rates[I] * FreeAfter(I);
    T = (Rest + Backlog) / Rate;
    if (K + 1 == ByBusy.size() || T <= FreeAfter(ByBusy[K + 1]))
      break;
  }
  for (size_t I : ByBusy)
    Shares[I] = Rates[I] * std::max(0.0, T - FreeAfter(I));
  return normalizeShares(std::move(Shares));
}

std::vector<double> updateSampleBias(std::vector<double> Bias,
                                     const std::vector<double> &Observed) {
  Bias.resize(std::max(Bias.size(), Observed.size()), 1.0);
  for (size_t I = 0; I < Observed.size(); ++I)
    if (Observed[I] > 0 && std::isfinite(Observed[I]))
      Bias[I] = std::clamp(0.5 * (Bias[I] + Observed[I]), 1 / SampleBiasLimit,
                           SampleBiasLimit);
  return Bias;
}

const char *autoTrialName(AutoTrial T) {
  switch (T) {
  case AutoTrial::Balanced:
    return "balanced split";
  case AutoTrial::Model:
    return "model split";
  case AutoTrial::Dynamic:
    return "SCHED_DYNAMIC";
  case AutoTrial::Alone:
    return "fastest device alone";
  }
  return "?";
}

bool sampleAgrees(const std::vector<double> &Rates,
                  const std::vector<double> &Model) {
  if (Rates.size() != Model.size() || Rates.empty())
    return false;
  // Measured over predicted, per device: within the factor of each other.
  double Low = std::numeric_limits<double>::infinity(), High = 0;
  for (size_t I = 0; I < Rates.size(); ++I) {
    if (!(Rates[I] > 0) || !(Model[I] > 0)) {
      if (Rates[I] > 0 || Model[I] > 0)
        return false; // one leaves the device out, the other does not
      continue;
    }
    Low = std::min(Low, Rates[I] / Model[I]);
    High = std::max(High, Rates[I] / Model[I]);
  }
  return High > 0 && High <= SampleAgreesWithin * Low;
}

double imbalanceOf(const std::vector<double> &Seconds) {
  double Sum = 0, Slowest = 0;
  int Timed = 0;
  for (double S : Seconds)
    if (S > 0 && std::isfinite(S))
      Sum += S, Slowest = std::max(Slowest, S), ++Timed;
  return Timed > 1 ? Slowest / (Sum / Timed) : 1.0;
}

unsigned aloneDevice(const std::vector<double> &Split,
                     std::optional<unsigned> HostByModel,
                     std::optional<unsigned> Before,
                     const std::vector<int> &Kinds) {
  const size_t N = Split.size();
  if (N == 0)
    return 0;
  auto Kept = [&](std::optional<unsigned> At) {
    return At && *At < N && Split[*At] > 0;
  };
  unsigned Fastest = static_cast<unsigned>(
      std::max_element(Split.begin(), Split.end()) - Split.begin());
  if (Kept(HostByModel))
    Fastest = *HostByModel;
  auto Kind = [&](unsigned At) { return At < Kinds.size() ? Kinds[At] : -1; };
  if (Kept(Before) && Kind(*Before) == Kind(Fastest) &&
      Split[*Before] >= AloneStickWithin * Split[Fastest])
    Fastest = *Before;
  return Fastest;
}

namespace {
constexpr AutoTrial Trials[] = {AutoTrial::Balanced, AutoTrial::Model,
                                AutoTrial::Dynamic, AutoTrial::Alone};
// After the sample: two balanced executions, then each other way once.
constexpr AutoTrial OpeningOrder[] = {AutoTrial::Balanced, AutoTrial::Balanced,
                                 AutoTrial::Model, AutoTrial::Dynamic,
                                 AutoTrial::Alone};
static_assert(sizeof(OpeningOrder) / sizeof(OpeningOrder[0]) ==
                  AutoTrials::Opening &&
              OpeningOrder[AutoTrials::Opening - 1] == AutoTrial::Alone);
constexpr int RetryEvery = 16;
} // namespace

AutoTrials::AutoTrials(unsigned Devices)
    : Devices(Devices),
      Order(std::begin(OpeningOrder), std::end(OpeningOrder)) {}

void AutoTrials::ruleOut(AutoTrial T, const std::string &Why) {
  // Only a trial the opening has not run yet.
  if (T == AutoTrial::Balanced || ruledOut(T) || Executions >= opening() ||
      std::find(Order.begin(), Order.begin() + Executions, T) !=
          Order.begin() + Executions)
    return;
  Order.erase(std::remove(Order.begin() + Executions, Order.end(), T),
              Order.end());
  Left[static_cast<int>(T)] = Why.empty() ? "ruled out" : Why;
}

std::string AutoTrials::ruledOutWhy() const {
  std::string Why;
  for (AutoTrial T : Trials)
    if (ruledOut(T))
      Why += (Why.empty() ? "" : "; ") + Left[static_cast<int>(T)];
  return Why;
}

double AutoTrials::shortest(AutoTrial T) const {
  const std::vector<double> &V = Times[static_cast<int>(T)];
  return V.empty() ? std::numeric_limits<double>::infinity()
                   : *std::min_element(V.begin(), V.end());
}

double AutoTrials::typical(AutoTrial T) const {
  // Of three times, the median: one cold execution, or one that another
  // program slowed down, cannot make a trial look slow, and one lucky
  // execution cannot make it look fast. Of fewer, the shortest: what
  // disturbs a run mostly makes it slower, and a cold first time must not
  // hide a fast second one.
  std::vector<double> V = Times[static_cast<int>(T)];
  if (V.size() < 3)
    return shortest(T);
  std::nth_element(V.begin(), V.begin() + 1, V.end());
  return V[1];
}

void AutoTrials::restore(const std::array<double, 4> &Typical) {
  Executions = opening();
  Settled = true;
  for (AutoTrial T : Trials) {
    int I = static_cast<int>(T);
    Times[I].clear();
    if (std::isfinite(Typical[I]))
      Times[I].push_back(Typical[I]);
  }
}

std::optional<AutoTrial> AutoTrials::warmRetry() const {
  // (With every other trial ruled out there is nothing to compare.)
  if (Devices <= 1 || Executions < opening() || Settled || opening() <= 2)
    return std::nullopt;
  for (AutoTrial T : Trials)
    if (WarmRuns[static_cast<int>(T)] == 0 &&
        shortest(T) <= RetryWithin * Fastest)
      return T;
  return std::nullopt;
}

std::optional<AutoTrial> AutoTrials::confirmation() const {
  if (Devices <= 1 || Executions < opening() || Settled || opening() <= 2 ||
      warmRetry())
    return std::nullopt;
  double Best = std::numeric_limits<double>::infinity();
  for (AutoTrial T : Trials)
    Best = std::min(Best, typical(T));
  // A contender is judged by its shortest time: the balanced split's
  // typical time still counts two cold executions of the opening. A trial
  // the warm retries left out (WarmRuns 0) was over RetryWithin times the
  // fastest, and one confirmed already (WarmRuns 2) has its warm times.
  std::optional<AutoTrial> Next;
  for (AutoTrial T : Trials)
    if (WarmRuns[static_cast<int>(T)] == 1 &&
        shortest(T) <= ConfirmWithin * Best &&
        (!Next || typical(T) < typical(*Next)))
      Next = T;
  return Next;
}

AutoTrials::Repeat AutoTrials::repeatingNext() const {
  if (warmRetry())
    return Repeat::Warm;
  return confirmation() ? Repeat::Confirm : Repeat::None;
}

AutoTrial AutoTrials::next() const {
  if (Devices <= 1)
    return AutoTrial::Balanced;
  if (Executions < opening())
    return Order[Executions];
  if (std::optional<AutoTrial> Again = warmRetry())
    return *Again;
  if (std::optional<AutoTrial> Again = confirmation())
    return *Again;
  // By typical time; equal times in Trials' order.
  std::array<size_t, 4> ByTime = {0, 1, 2, 3};
  std::sort(ByTime.begin(), ByTime.end(), [&](size_t A, size_t B) {
    double TA = typical(Trials[A]), TB = typical(Trials[B]);
    return TA < TB || (TA == TB && A < B);
  });
  // (A runner-up that never ran was ruled out: none.)
  int Steady = Executions - opening() - Repeats;
  return Trials[Steady % RetryEvery == RetryEvery - 1 &&
                        std::isfinite(typical(Trials[ByTime[1]]))
                    ? ByTime[1]
                    : ByTime[0]];
}

void AutoTrials::record(AutoTrial T, double Seconds) {
  if (Executions >= opening()) {
    std::optional<AutoTrial> Scheduled = warmRetry();
    if (!Scheduled)
      Scheduled = confirmation();
    if (Scheduled == T)
      ++Repeats;
    else
      Settled = true; // the repeats come right after the opening, or never
    ++WarmRuns[static_cast<int>(T)];
  }
  ++Executions;
  Fastest = std::min(Fastest, Seconds);
  std::vector<double> &V = Times[static_cast<int>(T)];
  V.push_back(Seconds);
  if (V.size() > 3)
    V.erase(V.begin());
}

} // namespace homp
