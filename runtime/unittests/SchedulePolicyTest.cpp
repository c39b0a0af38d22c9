//===-- SchedulePolicyTest.cpp - How a loop's iterations reach the devices ===//
//
// Decides schedules from hand-made contexts (settings read from a map,
// machine models written here) and checks each against the rule it
// follows: the kind asked for, HOMP_SCHEDULE over AUTO, AUTO's first
// execution (the model when a machine file knows every speed, else a
// sample), its trials in order once it has a split, learning a split from
// a sample, the memory cap, and HOMP_EMULATE's slower model.
//
//===----------------------------------------------------------------------===//

#include "homp/SchedulePolicy.h"

#include <gtest/gtest.h>

#include <map>
#include <numeric>
#include <string>
#include <vector>

using namespace homp;

namespace {

using SchedKind = homp::abi::SchedKind;

Settings settingsOf(const std::map<std::string, std::string> &Vars) {
  std::string Error;
  std::optional<Settings> S = readSettings(
      [&](const char *Name) -> const char * {
        auto It = Vars.find(Name);
        return It == Vars.end() ? nullptr : It->second.c_str();
      },
      Error);
  EXPECT_TRUE(S) << Error;
  return S ? *S : Settings();
}

/// Three offload devices (ids 0, 1, 2) and the host (3), at Gflops each (0:
/// unknown), with Memory MB each (0: unknown).
MachineModel modelOf(std::vector<double> Gflops,
                     std::vector<double> Memory = {}) {
  MachineModel M;
  for (size_t I = 0; I < Gflops.size(); ++I) {
    DeviceModel D;
    D.Type = I == 3 ? "HOST" : "CPU";
    D.NoCopies = I == 3;
    D.Gflops = Gflops[I];
    D.BandwidthMBs = 1e4;
    D.MemoryMB = I < Memory.size() ? Memory[I] : 0;
    M.Devices.push_back(D);
  }
  return M;
}

struct Context {
  Settings Env;
  MachineModel Loaded, Model;
  PolicyContext Ctx;
  explicit Context(MachineModel M, Settings S = Settings())
      : Env(std::move(S)), Loaded(M), Model(std::move(M)) {
    Ctx.Env = &Env;
    Ctx.Loaded = &Loaded;
    Ctx.Model = &Model;
    Ctx.HostId = 3;
  }
  Context(const Context &) = delete;
};

homp::abi::Policy policy(SchedKind Kind) {
  homp::abi::Policy P;
  P.Kind = homp::abi::Policy::Auto;
  P.Sched = Kind;
  return P;
}

/// A loop of Flops operations per iteration that copies nothing.
LoopCost compute(double Flops = 100) {
  LoopCost C;
  C.FlopsPerIteration = Flops;
  return C;
}

const std::vector<int> Three = {0, 1, 2};

LoopSchedule schedule(const Context &C, SchedKind Kind, int64_t Trips,
                      LoopProfile *Profile = nullptr,
                      LoopCost Cost = compute()) {
  return chooseSchedule(C.Ctx,
                        scheduleRequest(C.Ctx, policy(Kind), homp::abi::Cutoff(), 3),
                        Three, Trips, Cost, Profile);
}

double sum(const std::vector<double> &W) {
  return std::accumulate(W.begin(), W.end(), 0.0);
}

TEST(SchedulePolicy, AutoSamplesFirstWhenNoMachineFileKnowsTheSpeeds) {
  Context C(modelOf({0, 0, 0, 0}));
  LoopSchedule S = schedule(C, SchedKind::Auto, 1000);
  EXPECT_TRUE(S.ChoseAuto);
  EXPECT_EQ(S.Mode, LoopSchedule::Sampled);
  EXPECT_EQ(S.Kind, SchedKind::ModelProfile);
  EXPECT_EQ(S.Chunk, 100); // 10% of the loop
  EXPECT_NE(S.Why.find("first execution: sampling"), std::string::npos)
      << S.Why;
  ASSERT_EQ(S.Weights.size(), 3u);
}

TEST(SchedulePolicy, AutoRunsTheModelWhenAMachineFileKnowsEverySpeed) {
  Context C(modelOf({10, 20, 30, 0}));
  LoopSchedule S = schedule(C, SchedKind::Auto, 6000);
  EXPECT_EQ(S.Mode, LoopSchedule::Shares);
  EXPECT_EQ(S.Kind, SchedKind::Model2);
  EXPECT_NE(S.Why.find("first execution: machine model"), std::string::npos);
  // Nothing copied: shares as the speeds.
  ASSERT_EQ(S.Weights.size(), 3u);
  EXPECT_NEAR(S.Weights[0] / sum(S.Weights), 1.0 / 6, 1e-3);
  EXPECT_NEAR(S.Weights[2] / sum(S.Weights), 3.0 / 6, 1e-3);
}

TEST(SchedulePolicy, CalibratedSpeedsAreNotAMachineFile) {
  // A probe kernel's rates say less than a sample of the loop itself.
  MachineModel M = modelOf({10, 20, 30, 0});
  M.Calibrated = true;
  Context C(M);
  EXPECT_EQ(schedule(C, SchedKind::Auto, 1000).Mode, LoopSchedule::Sampled);
}

TEST(SchedulePolicy, HompScheduleBlockSplitsAutoLoopsEvenly) {
  Context C(modelOf({10, 20, 30, 0}), settingsOf({{"HOMP_SCHEDULE", "BLOCK"}}));
  LoopSchedule S = schedule(C, SchedKind::Auto, 1000);
  EXPECT_TRUE(S.Block);
  EXPECT_EQ(S.Weights, (std::vector<double>{1, 1, 1}));
  EXPECT_EQ(S.Why, "HOMP_SCHEDULE");
  EXPECT_EQ(S.describe(), "BLOCK (HOMP_SCHEDULE)");
  // A loop that names its kind keeps it.
  EXPECT_EQ(schedule(C, SchedKind::Dynamic, 1000).Mode, LoopSchedule::Queue);
}

TEST(SchedulePolicy, HompScheduleGivesAutoLoopsItsKindAndChunk) {
  Context C(modelOf({0, 0, 0, 0}),
            settingsOf({{"HOMP_SCHEDULE", "SCHED_GUIDED,7"}}));
  LoopSchedule S = schedule(C, SchedKind::Auto, 1000);
  EXPECT_FALSE(S.ChoseAuto);
  EXPECT_EQ(S.Kind, SchedKind::Guided);
  EXPECT_EQ(S.Mode, LoopSchedule::Queue);
  EXPECT_EQ(S.Chunk, 7);
}

TEST(SchedulePolicy, DynamicTakesChunksOfTwoPercent) {
  Context C(modelOf({0, 0, 0, 0}));
  LoopSchedule S = schedule(C, SchedKind::Dynamic, 1000);
  EXPECT_EQ(S.Mode, LoopSchedule::Queue);
  EXPECT_EQ(S.Chunk, 20);
  EXPECT_EQ(S.Weights, (std::vector<double>{1, 1, 1}));
  EXPECT_EQ(S.describe(), "SCHED_DYNAMIC, chunks of 20");
}

TEST(SchedulePolicy, SharesStayWithinTheDevicesMemory) {
  // Device 1 holds 1 MB; each iteration holds 1 KB: 1000 iterations at
  // most, of 6000 that equal speeds would give 2000 each.
  Context C(modelOf({10, 10, 10, 0}, {0, 1, 0}));
  LoopCost Cost = compute();
  Cost.HeldPerIteration = 1000;
  LoopSchedule S = schedule(C, SchedKind::Model1, 6000, nullptr, Cost);
  ASSERT_EQ(S.Weights.size(), 3u);
  EXPECT_LE(S.Weights[1] / sum(S.Weights) * 6000, 1000 + 1e-6);
  EXPECT_EQ(S.Capped, (std::vector<bool>{false, true, false}));
  EXPECT_NE(S.Why.find("capped by memory: 1"), std::string::npos) << S.Why;
}

TEST(SchedulePolicy, AutoLearnsASplitFromItsSampleThenRunsItsTrials) {
  Context C(modelOf({0, 0, 0, 0}));
  LoopProfile P;
  LoopSchedule Sample = schedule(C, SchedKind::Auto, 1000, &P);
  ASSERT_EQ(Sample.Mode, LoopSchedule::Sampled);
  // Equal sample parts; device 2 six times as fast as device 0, device 1
  // twice: more than SampleAgreesWithin from the model's equal shares.
  learnExecution(C.Ctx, P, Sample, Three, 1000, {10, 20, 60}, {1, 1, 1}, 1);
  ASSERT_TRUE(P.Split);
  EXPECT_EQ(P.Learned, 1);
  EXPECT_FALSE(P.SplitFromModel);
  EXPECT_EQ(P.Split->damping(), 1);
  EXPECT_NEAR(P.Split->ratios()[0], 1.0 / 9, 1e-9);
  EXPECT_NEAR(P.Split->ratios()[2], 6.0 / 9, 1e-9);
  // Then the opening: balanced twice, the model, dynamic, alone (the
  // balanced executions' devices ending apart: dynamic may win).
  std::vector<AutoTrial> Ran;
  for (int E = 0; E < AutoTrials::Opening; ++E) {
    LoopSchedule S = schedule(C, SchedKind::Auto, 1000, &P);
    ASSERT_TRUE(S.Trial);
    Ran.push_back(*S.Trial);
    if (*S.Trial == AutoTrial::Balanced)
      EXPECT_EQ(S.Weights, P.Split->ratios());
    if (*S.Trial == AutoTrial::Alone)
      EXPECT_EQ(S.Weights, (std::vector<double>{0, 0, 1}));
    std::vector<int64_t> Its(3);
    for (size_t I = 0; I < 3; ++I)
      Its[I] = static_cast<int64_t>(S.Weights[I] * 1000);
    learnExecution(C.Ctx, P, S, Three, 1000, Its, {1.5, 1, 1}, 1);
  }
  EXPECT_EQ(Ran, (std::vector<AutoTrial>{
                     AutoTrial::Balanced, AutoTrial::Balanced, AutoTrial::Model,
                     AutoTrial::Dynamic, AutoTrial::Alone}));
}

/// Runs AUTO's executions after the sample on P (over Three), each
/// device's time per execution Seconds, and returns the trials it ran;
/// FirstWhy gets the first execution's HOMP_INFO reason.
std::vector<AutoTrial> runTrials(Context &C, LoopProfile &P, int Executions,
                                 const std::vector<double> &Seconds,
                                 std::string *FirstWhy = nullptr) {
  std::vector<AutoTrial> Ran;
  for (int E = 0; E < Executions; ++E) {
    LoopSchedule S = schedule(C, SchedKind::Auto, 1000, &P);
    EXPECT_TRUE(S.Trial);
    if (!S.Trial)
      break;
    Ran.push_back(*S.Trial);
    if (E == 0 && FirstWhy)
      *FirstWhy = S.Why;
    std::vector<int64_t> Its(3);
    for (size_t I = 0; I < 3; ++I)
      Its[I] = static_cast<int64_t>(S.Weights[I] * 1000);
    learnExecution(C.Ctx, P, S, Three, 1000, Its, Seconds, 1 + 0.01 * (E % 7));
  }
  return Ran;
}

TEST(SchedulePolicy, AutoTriesOnlyWhatMayWin) {
  // Three devices of one speed, no host, the sample's rates 1.1x apart:
  // the balanced split starts from the model's even shares, so the model's
  // trial would run it again; no device has half the split, so alone
  // cannot win; and once a balanced execution's devices end together,
  // SCHED_DYNAMIC has nothing to win. Only the balanced split runs.
  Context C(modelOf({0, 0, 0, 0}));
  LoopProfile P;
  LoopSchedule Sample = schedule(C, SchedKind::Auto, 1000, &P);
  learnExecution(C.Ctx, P, Sample, Three, 1000, {10, 11, 10}, {1, 1, 1}, 1);
  ASSERT_TRUE(P.Trials);
  EXPECT_TRUE(P.SplitFromModel);
  EXPECT_EQ(P.Split->damping(), 2);
  for (double R : P.Split->ratios())
    EXPECT_NEAR(R, 1.0 / 3, 1e-9);
  EXPECT_TRUE(P.Trials->ruledOut(AutoTrial::Alone));
  EXPECT_TRUE(P.Trials->ruledOut(AutoTrial::Model));
  EXPECT_EQ(P.Trials->opening(), AutoTrials::Opening - 2);
  std::string Why;
  std::vector<AutoTrial> Ran = runTrials(C, P, 30, {1, 1, 1.05}, &Why);
  EXPECT_NE(Why.find("the model's shares"), std::string::npos) << Why;
  EXPECT_NE(Why.find("trial 1 of 3 (no model split: the balanced split "
                     "starts from it, the sample agreeing within 5x; no "
                     "device alone: none has half the split)"),
            std::string::npos)
      << Why;
  EXPECT_TRUE(P.Trials->ruledOut(AutoTrial::Dynamic));
  EXPECT_EQ(std::count(Ran.begin(), Ran.end(), AutoTrial::Balanced), 30);

  // A balanced split whose devices keep ending apart (one 1.5x the
  // others): SCHED_DYNAMIC might win, and is tried.
  LoopProfile Uneven;
  learnExecution(C.Ctx, Uneven, schedule(C, SchedKind::Auto, 1000, &Uneven),
                 Three, 1000, {10, 11, 10}, {1, 1, 1}, 1);
  Ran = runTrials(C, Uneven, 30, {1, 1, 1.5});
  EXPECT_EQ(std::vector<AutoTrial>(Ran.begin(), Ran.begin() + 3),
            (std::vector<AutoTrial>{AutoTrial::Balanced, AutoTrial::Balanced,
                                    AutoTrial::Dynamic}));
  EXPECT_EQ(std::count(Ran.begin(), Ran.end(), AutoTrial::Alone), 0);
  EXPECT_EQ(std::count(Ran.begin(), Ran.end(), AutoTrial::Model), 0);
}

TEST(SchedulePolicy, AutosDynamicTrialLeavesOutDevicesUnderTwoChunks) {
  // Device 1 measured 50 times slower than the others (the model knowing
  // nothing of it): its share of the split, 1/101 of 1000 iterations, is
  // under two chunks of 20, and its first chunk would end last.
  Context C(modelOf({0, 0, 0, 0}));
  LoopProfile P;
  learnExecution(C.Ctx, P, schedule(C, SchedKind::Auto, 1000, &P), Three, 1000,
                 {50, 1, 50}, {1, 1, 1}, 1);
  EXPECT_FALSE(P.SplitFromModel);
  EXPECT_EQ(runTrials(C, P, 2, {1.5, 1, 1}),
            (std::vector<AutoTrial>{AutoTrial::Balanced, AutoTrial::Balanced}));
  LoopSchedule S = schedule(C, SchedKind::Auto, 1000, &P);
  ASSERT_EQ(S.Trial, AutoTrial::Model);
  learnExecution(C.Ctx, P, S, Three, 1000, {490, 20, 490}, {1, 1, 1}, 1);
  S = schedule(C, SchedKind::Auto, 1000, &P);
  ASSERT_EQ(S.Trial, AutoTrial::Dynamic);
  EXPECT_EQ(S.Weights, (std::vector<double>{1, 0, 1}));
  EXPECT_NE(S.Why.find("without devices whose share of the split is under "
                       "two chunks"),
            std::string::npos)
      << S.Why;
}

TEST(SchedulePolicy, AProfileKindSpreadsItsSampleUntilItFindsEvenCosts) {
  Context C(modelOf({0, 0, 0, 0}));
  LoopProfile P;
  EXPECT_TRUE(schedule(C, SchedKind::Profile, 1000, &P).SpreadSample);
  // Uneven: it keeps spreading.
  learnSampleCosts(P, /*Spread=*/true, /*Uneven=*/true);
  EXPECT_TRUE(schedule(C, SchedKind::Profile, 1000, &P).SpreadSample);
  // Even: the next RespreadEvery - 1 executions sample the first
  // iterations, and HOMP_INFO says so; then one spreads again.
  learnSampleCosts(P, true, false);
  for (int E = 0; E < RespreadEvery - 1; ++E) {
    LoopSchedule S = schedule(C, SchedKind::Profile, 1000, &P);
    EXPECT_FALSE(S.SpreadSample) << E;
    EXPECT_NE(S.Why.find("its first iterations: the costs were even"),
              std::string::npos)
        << S.Why;
    learnSampleCosts(P, S.SpreadSample, false);
  }
  EXPECT_TRUE(schedule(C, SchedKind::Profile, 1000, &P).SpreadSample);
  // AUTO's one sample is always spread.
  LoopProfile Auto;
  learnSampleCosts(Auto, true, false);
  EXPECT_TRUE(schedule(C, SchedKind::Auto, 1000, &Auto).SpreadSample);
}

TEST(SchedulePolicy, AProfileKindCountsWhatEarlierSamplesFound) {
  Context C(modelOf({0, 0, 0, 0}));
  LoopProfile P;
  EXPECT_TRUE(schedule(C, SchedKind::Profile, 1000, &P).SampleBias.empty());
  learnSampleBias(P, {2, 1, 1}, {1, 1, 1});
  LoopSchedule S = schedule(C, SchedKind::Profile, 1000, &P);
  EXPECT_EQ(S.SampleBias.size(), 3u);
  EXPECT_GT(S.SampleBias[0], 1);
  EXPECT_NE(S.Why.find("rates corrected by 1 earlier execution"),
            std::string::npos)
      << S.Why;
}

TEST(SchedulePolicy, AnEmulatedSlowDeviceIsSlowerInTheModel) {
  MachineModel M = emulatedModel(modelOf({0, 0, 0, 0}), {1, 4, 1, 1});
  // Unknown rates become the nominal one first.
  EXPECT_DOUBLE_EQ(M.Devices[0].Gflops, NominalGflops);
  EXPECT_DOUBLE_EQ(M.Devices[1].Gflops, NominalGflops / 4);
  EXPECT_DOUBLE_EQ(M.Devices[1].BandwidthMBs, 1e4 / 4);
  // Nothing emulated: the model as it is.
  EXPECT_DOUBLE_EQ(emulatedModel(modelOf({0, 5, 0, 0}), {}).Devices[0].Gflops,
                   0);
}

TEST(SchedulePolicy, DataRegionsSplitAutoLoopsByTheModel) {
  Context C(modelOf({10, 10, 20, 0}));
  std::vector<double> S = dataRegionShares(
      C.Ctx, policy(SchedKind::Auto), homp::abi::Cutoff(), Three, 400, LoopCost());
  ASSERT_EQ(S.size(), 3u);
  EXPECT_NEAR(S[2] / sum(S), 0.5, 1e-3);
  Context Block(modelOf({10, 10, 20, 0}),
                settingsOf({{"HOMP_SCHEDULE", "BLOCK"}}));
  EXPECT_EQ(dataRegionShares(Block.Ctx, policy(SchedKind::Auto), homp::abi::Cutoff(),
                             Three, 400, LoopCost()),
            (std::vector<double>{1, 1, 1}));
}

} // namespace
