//===-- SchedulePolicy.cpp - How a loop's iterations reach the devices ----===//

#include "homp/SchedulePolicy.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

namespace homp {

std::string PolicyContext::label(int Device) const {
  return Device == HostId ? std::string("host") : std::to_string(Device);
}

MachineModel emulatedModel(MachineModel M, const std::vector<double> &Factors) {
  auto Factor = [&](size_t Id) {
    return Id < Factors.size() ? Factors[Id] : 1;
  };
  bool Emulated = false;
  for (size_t Id = 0; Id < M.Devices.size(); ++Id)
    Emulated |= Factor(Id) != 1;
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
    D.Gflops /= Factor(Id);
    D.BandwidthMBs /= Factor(Id);
  }
  return M;
}

bool modelKnowsSpeeds(const MachineModel &M, const std::vector<int> &Devices) {
  if (M.Calibrated)
    return false;
  for (int D : Devices)
    if (D < 0 || static_cast<size_t>(D) >= M.Devices.size() ||
        !(M.Devices[D].Gflops > 0))
      return false;
  return true;
}

namespace {

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
void chooseTrial(const PolicyContext &Ctx, LoopProfile &P,
                 const std::vector<int> &Devices, int64_t Trips,
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
    S.Why = P.SplitFromModel && P.Learned == 1
                ? std::string("the model's shares")
                : "learned in " + std::to_string(P.Learned) + " execution" +
                      (P.Learned == 1 ? "" : "s") +
                      (P.Split->converged() ? ", calibrated" : "");
    break;
  case AutoTrial::Model:
    S.Kind = abi::SchedKind::Model2;
    S.Weights = OnlyKept(
        cutoff(modelShares(*Ctx.Model, Devices, C, Trips, /*WithData=*/true),
               S.Cutoff, modelCosts(*Ctx.Model, Devices, C), Trips));
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
    if (std::find(Devices.begin(), Devices.end(), Ctx.HostId) !=
        Devices.end()) {
      std::vector<double> Model =
          modelShares(*Ctx.Model, Devices, C, Trips, true);
      unsigned ByModel = static_cast<unsigned>(
          std::max_element(Model.begin(), Model.end()) - Model.begin());
      if (Devices[ByModel] == Ctx.HostId)
        HostByModel = ByModel;
    }
    // Kinds: the host, or an offload device's type.
    std::vector<int> Kinds;
    for (int D : Devices)
      Kinds.push_back(D == Ctx.HostId ? -1 : (Ctx.TypeOf ? Ctx.TypeOf(D) : 0));
    const unsigned Fastest = aloneDevice(Split, HostByModel, P.Alone, Kinds);
    P.Alone = Fastest;
    S.Weights.assign(N, 0.0);
    S.Weights[Fastest] = 1;
    S.Why = "";
    break;
  }
  }
  std::string Times;
  for (AutoTrial A : {AutoTrial::Balanced, AutoTrial::Model, AutoTrial::Dynamic,
                      AutoTrial::Alone})
    if (std::isfinite(P.Trials->typical(A)))
      Times += std::string(Times.empty() ? "" : ", ") + autoTrialName(A) + " " +
               milliseconds(P.Trials->typical(A));
  int Done = P.Trials->executions();
  const int Opening = P.Trials->opening();
  std::string Choice;
  if (Done < Opening) {
    const std::string Left = P.Trials->ruledOutWhy();
    Choice = "trial " + std::to_string(Done + 1) + " of " +
             std::to_string(Opening) + (Left.empty() ? "" : " (" + Left + ")") +
             (Times.empty() ? "" : ", so far ");
  } else
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

ScheduleRequest scheduleRequest(const PolicyContext &Ctx, const abi::Policy &P,
                                abi::Cutoff Cut, unsigned N) {
  ScheduleRequest R;
  const Settings &Env = *Ctx.Env;
  R.Kind = P.Sched;
  R.Amount = P.Chunk;
  if (R.Kind == abi::SchedKind::Auto && Env.Schedule) {
    const ScheduleSetting &E = *Env.Schedule;
    R.Why = Env.ScheduleVariable;
    if (E.Block) {
      R.Block = true;
      return R;
    }
    R.Kind = E.Kind;
    R.Amount = E.Chunk;
    if (E.Cut.Kind != abi::Cutoff::None)
      Cut = E.Cut;
  }
  if (Cut.Kind != abi::Cutoff::None || Env.Cut.Kind != abi::Cutoff::None)
    R.Cutoff = cutoffRatio(Cut, Env.Cut, N);
  return R;
}

namespace {

/// R's schedule before the memory cap.
LoopSchedule uncapped(const PolicyContext &Ctx, const ScheduleRequest &R,
                      const std::vector<int> &Devices, int64_t Trips,
                      const LoopCost &C, LoopProfile *Profile) {
  LoopSchedule S;
  const unsigned N = static_cast<unsigned>(Devices.size());
  S.Why = R.Why;
  S.Cutoff = R.Cutoff;
  if (R.Block) {
    S.Block = true;
    S.Weights.assign(N, 1.0);
    return S;
  }
  abi::SchedKind Kind = R.Kind;
  abi::Amount Amount = R.Amount;
  if (Kind == abi::SchedKind::Auto) {
    S.ChoseAuto = true;
    if (Profile && Profile->Split) {
      chooseTrial(Ctx, *Profile, Devices, Trips, C, S);
      if (Profile->Restored && Profile->Executions == 0)
        S.Why = "saved profile of an earlier run; " + S.Why;
      return S;
    }
    // A machine file that knows every device: its model; else a sample
    // split by the model measures the devices.
    if (modelKnowsSpeeds(*Ctx.Loaded, Devices)) {
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
    S.Weights = cutoff(modelShares(*Ctx.Model, Devices, C, Trips,
                                   Kind == abi::SchedKind::Model2),
                       S.Cutoff, modelCosts(*Ctx.Model, Devices, C), Trips);
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
    S.Weights =
        Kind == abi::SchedKind::ModelProfile
            ? modelShares(*Ctx.Model, Devices, C, S.ChoseAuto ? 0 : Trips,
                          /*WithData=*/true)
            : std::vector<double>(N, 1.0);
    if (Kind == abi::SchedKind::ModelProfile)
      explain(S.Why, modelInputs(C));
    // Where the region's last spread sample found the costs even, its
    // first iterations (AUTO samples once, spread).
    if (!S.ChoseAuto && Profile && Profile->ContiguousSamples > 0) {
      S.SpreadSample = false;
      explain(S.Why, "its first iterations: the costs were even");
    }
    // What the region's earlier executions found of the sample's rates
    // (a profile kind's; AUTO samples once).
    if (!S.ChoseAuto && Profile && Profile->BiasLearned > 0) {
      {
        S.SampleBias = Profile->SampleBias;
        S.PieceBias = Profile->PieceBias;
        int Learned = Profile->BiasLearned;
        explain(S.Why, "rates corrected by " + std::to_string(Learned) +
                           " earlier execution" + (Learned == 1 ? "" : "s"));
      }
    }
    break;
  }
  return S;
}

} // namespace

LoopSchedule chooseSchedule(const PolicyContext &Ctx, const ScheduleRequest &R,
                            const std::vector<int> &Devices, int64_t Trips,
                            const LoopCost &C, LoopProfile *Profile) {
  LoopSchedule S = uncapped(Ctx, R, Devices, Trips, C, Profile);
  S.Cost = C;
  // BLOCK is an even split by request; a queue's chunks are small.
  if (S.Block || S.Mode == LoopSchedule::Queue)
    return S;
  bool Fits = true;
  std::vector<double> Capped =
      capByMemory(Ctx, Devices, S.Weights,
                  S.Mode == LoopSchedule::Sampled ? S.Chunk : Trips, C, &S.Why,
                  &Fits, &S.Capped);
  if (!Fits && S.Trial == AutoTrial::Alone) {
    // The fastest device cannot hold the loop: the fastest that can, else
    // the split.
    const std::vector<double> Split = Profile->Split->ratios();
    std::vector<size_t> Order(Split.size());
    std::iota(Order.begin(), Order.end(), 0);
    // Largest first; equal shares in device order.
    std::sort(Order.begin(), Order.end(), [&](size_t A, size_t B) {
      return Split[A] > Split[B] || (Split[A] == Split[B] && A < B);
    });
    for (size_t P : Order) {
      std::vector<double> One(Split.size(), 0.0);
      One[P] = 1;
      capByMemory(Ctx, Devices, One, Trips, C, nullptr, &Fits);
      if (Fits) {
        S.Weights = std::move(One);
        S.Capped.clear();
        return S;
      }
    }
    S.Weights = Split;
    S.Trial = AutoTrial::Balanced;
    S.Why = "no device alone can hold the loop";
    Capped = capByMemory(Ctx, Devices, S.Weights, Trips, C, &S.Why, nullptr,
                         &S.Capped);
  }
  S.Weights = std::move(Capped);
  return S;
}

void inOneSharePerDevice(const PolicyContext &Ctx, LoopSchedule &S,
                         const std::vector<int> &Devices, int64_t Trips,
                         const std::string &Reason) {
  if (S.Mode == LoopSchedule::Sampled && S.ChoseAuto)
    S.FromSample = true;
  else if (S.Mode == LoopSchedule::Sampled)
    S.Weights = cutoff(std::move(S.Weights), S.Cutoff,
                       modelCosts(*Ctx.Model, Devices, S.Cost), Trips);
  S.Mode = LoopSchedule::Shares;
  explain(S.Why, "in one share per device: " + Reason);
  S.Weights = capByMemory(Ctx, Devices, std::move(S.Weights), Trips, S.Cost,
                          &S.Why, nullptr, &S.Capped);
}

std::vector<double> capByMemory(const PolicyContext &Ctx,
                                const std::vector<int> &Devices,
                                std::vector<double> Shares, int64_t Trips,
                                const LoopCost &C, std::string *Why, bool *Fits,
                                std::vector<bool> *Capped) {
  if (Fits)
    *Fits = true;
  if (Capped)
    Capped->clear();
  const MachineModel &M = *Ctx.Model;
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
      Which += (Which.empty() ? "" : ", ") + Ctx.label(Devices[P]);
  if (Why && !Which.empty())
    explain(*Why, "capped by memory: " + Which);
  if (Capped && !Which.empty())
    *Capped = std::move(Held);
  return Shares;
}

std::vector<double> dataRegionShares(const PolicyContext &Ctx,
                                     const abi::Policy &P, abi::Cutoff Cut,
                                     const std::vector<int> &Devices,
                                     int64_t Trips, const LoopCost &Held,
                                     std::string *Why) {
  const Settings &Env = *Ctx.Env;
  // HOMP_SCHEDULE's kind and cutoff replace an AUTO loop's, as in
  // chooseSchedule (BLOCK is an even split by request, as there).
  if (P.Sched == abi::SchedKind::Auto && Env.Schedule) {
    if (Env.Schedule->Block)
      return std::vector<double>(Devices.size(), 1.0);
    if (Env.Schedule->Cut.Kind != abi::Cutoff::None)
      Cut = Env.Schedule->Cut;
  }
  return capByMemory(
      Ctx, Devices,
      applyCutoff(
          modelShares(*Ctx.Model, Devices, LoopCost(), 0, /*WithData=*/false),
          cutoffRatio(Cut, Env.Cut, static_cast<unsigned>(Devices.size()))),
      Trips, Held, Why);
}

void learnExecution(const PolicyContext &Ctx, LoopProfile &P,
                    const LoopSchedule &S, const std::vector<int> &Devices,
                    int64_t Trips, const std::vector<int64_t> &Iterations,
                    const std::vector<double> &Seconds, double Makespan) {
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
      DeviceCosts Costs = modelCosts(*Ctx.Model, Devices, S.Cost);
      for (size_t I = 0; I < Rates.size(); ++I)
        Costs.PerIteration[I] = Rates[I] > 0
                                    ? 1 / Rates[I]
                                    : std::numeric_limits<double>::infinity();
      // Where the sample agrees with the model, the model's shares: one
      // cold execution's rates are noise on devices of one speed
      // (SampleAgreesWithin). The model's trial would run them again.
      std::vector<double> Model =
          modelShares(*Ctx.Model, Devices, S.Cost, Trips, /*WithData=*/true);
      const bool FromModel = sampleAgrees(Rates, Model);
      P.Split.emplace(cutoff(normalizeShares(FromModel ? std::move(Model)
                                                       : std::move(Rates)),
                             S.Cutoff, Costs, Trips),
                      /*Damping=*/FromModel ? 2 : 1, /*Patient=*/FromModel);
      P.Learned = 1;
      P.SplitFromModel = FromModel;
      if (FromModel)
        P.Trials->ruleOut(AutoTrial::Model,
                          "no model split: the balanced split starts from "
                          "it, the sample agreeing within 5x");
      const std::vector<double> &Split = P.Split->ratios();
      if (std::find(Devices.begin(), Devices.end(), Ctx.HostId) ==
              Devices.end() &&
          *std::max_element(Split.begin(), Split.end()) < AloneWorthShare)
        P.Trials->ruleOut(AutoTrial::Alone,
                          "no device alone: none has half the split");
      return;
    }
    P.Split.emplace(S.Weights);
    // The machine model's split (MODEL_2_AUTO, a machine file knowing
    // every device): the model's trial would run it again.
    if (S.Kind == abi::SchedKind::Model2)
      P.Trials->ruleOut(AutoTrial::Model,
                        "no model split: the balanced split starts from it");
  }
  if (S.Trial)
    P.Trials->record(*S.Trial, Makespan);
  // A balanced execution of the opening whose devices ended together
  // leaves SCHED_DYNAMIC too little to win (DynamicWorthImbalance).
  if (S.Trial == AutoTrial::Balanced && S.Mode == LoopSchedule::Shares &&
      imbalanceOf(Seconds) < DynamicWorthImbalance)
    P.Trials->ruleOut(AutoTrial::Dynamic,
                      "no SCHED_DYNAMIC: a balanced execution's devices "
                      "ended within 10% of their mean");
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

void learnSampleCosts(LoopProfile &P, bool Spread, bool Uneven) {
  if (Spread)
    P.ContiguousSamples = Uneven ? 0 : RespreadEvery - 1;
  else if (P.ContiguousSamples > 0)
    --P.ContiguousSamples;
}

void learnSampleBias(LoopProfile &P, const std::vector<double> &Observed,
                     const std::vector<double> &ObservedPieces) {
  P.SampleBias = updateSampleBias(std::move(P.SampleBias), Observed);
  P.PieceBias = updateSampleBias(std::move(P.PieceBias), ObservedPieces);
  ++P.BiasLearned;
}

} // namespace homp
