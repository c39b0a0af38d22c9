//===-- SchedulerTest.cpp - Schedules, queues and their settings ----------===//

#include "homp/Environment.h"
#include "homp/Scheduler.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <map>
#include <thread>

namespace homp {
namespace {

using abi::SchedKind;

std::vector<Range> drain(ChunkQueue &Q) {
  std::vector<Range> Out;
  while (std::optional<Range> R = Q.next())
    Out.push_back(*R);
  return Out;
}

TEST(ChunkQueue, DynamicHandsOutEqualChunksInOrder) {
  ChunkQueue Q(10, SchedKind::Dynamic, 3, 4);
  std::vector<Range> Chunks = drain(Q);
  ASSERT_EQ(Chunks.size(), 4u);
  EXPECT_EQ(Chunks[0], (Range{0, 3}));
  EXPECT_EQ(Chunks[1], (Range{3, 6}));
  EXPECT_EQ(Chunks[2], (Range{6, 9}));
  EXPECT_EQ(Chunks[3], (Range{9, 10}));
  EXPECT_FALSE(Q.next());
}

TEST(ChunkQueue, GuidedChunksShrinkToTheMinimum) {
  // 2 devices: each chunk is the larger of 5 and ceil(left / 4).
  ChunkQueue Q(100, SchedKind::Guided, 5, 2);
  std::vector<int64_t> Sizes;
  int64_t Next = 0;
  for (const Range &R : drain(Q)) {
    EXPECT_EQ(R.Begin, Next);
    Next = R.End;
    Sizes.push_back(R.size());
  }
  EXPECT_EQ(Next, 100);
  std::vector<int64_t> Expected = {25, 19, 14, 11, 8, 6, 5, 5, 5, 2};
  EXPECT_EQ(Sizes, Expected);
}

TEST(ChunkQueue, EmptyLoopsHaveNoChunks) {
  ChunkQueue Q(0, SchedKind::Dynamic, 3, 4);
  EXPECT_FALSE(Q.next());
  ChunkQueue Neg(-5, SchedKind::Guided, 1, 4);
  EXPECT_FALSE(Neg.next());
}

TEST(ChunkQueue, ThreadsTakeEveryIterationOnce) {
  const int64_t N = 100000;
  ChunkQueue Q(N, SchedKind::Guided, 7, 4);
  std::vector<std::vector<Range>> Got(4);
  std::vector<std::thread> Threads;
  for (int T = 0; T < 4; ++T)
    Threads.emplace_back([&, T] {
      while (std::optional<Range> R = Q.next())
        Got[T].push_back(*R);
    });
  for (std::thread &T : Threads)
    T.join();
  std::vector<int> Seen(N, 0);
  for (const std::vector<Range> &G : Got)
    for (const Range &R : G)
      for (int64_t I = R.Begin; I < R.End; ++I)
        ++Seen[I];
  for (int64_t I = 0; I < N; ++I)
    ASSERT_EQ(Seen[I], 1) << I;
}

TEST(ScheduleSetting, HompsOwnSyntax) {
  std::string Error;
  std::optional<ScheduleSetting> S = parseSchedule("SCHED_DYNAMIC,2%", Error);
  ASSERT_TRUE(S) << Error;
  EXPECT_EQ(S->Kind, SchedKind::Dynamic);
  EXPECT_EQ(S->Chunk.Percent, 2);
  EXPECT_EQ(S->Cut.Kind, abi::Cutoff::None);

  S = parseSchedule("MODEL_PROFILE_AUTO,10%,15%", Error);
  ASSERT_TRUE(S) << Error;
  EXPECT_EQ(S->Kind, SchedKind::ModelProfile);
  EXPECT_EQ(S->Chunk.Percent, 10);
  EXPECT_EQ(S->Cut.Kind, abi::Cutoff::Given);
  EXPECT_DOUBLE_EQ(S->Cut.Value, 0.15);

  S = parseSchedule("MODEL_1_AUTO,-1,auto", Error);
  ASSERT_TRUE(S) << Error;
  EXPECT_EQ(S->Kind, SchedKind::Model1);
  EXPECT_FALSE(S->Chunk.given());
  EXPECT_EQ(S->Cut.Kind, abi::Cutoff::Auto);

  S = parseSchedule("SCHED_GUIDED,64", Error);
  ASSERT_TRUE(S) << Error;
  EXPECT_EQ(S->Chunk.Iterations, 64);

  for (const char *Block : {"BLOCK", "SCHED_STATIC"}) {
    S = parseSchedule(Block, Error);
    ASSERT_TRUE(S) << Error;
    EXPECT_TRUE(S->Block);
  }
}

// HOMP's runtime names the kinds by their omp_dist_policy_t numbers, with
// the cutoff a percentage with or without '%' (its usage text's examples).
TEST(ScheduleSetting, HompsPolicyIdsAreItsKinds) {
  std::string Error;
  std::optional<ScheduleSetting> S = parseSchedule("8,10%", Error);
  ASSERT_TRUE(S) << Error;
  EXPECT_EQ(S->Kind, abi::SchedKind::Dynamic);
  EXPECT_EQ(S->Chunk.Percent, 10);
  S = parseSchedule("12,-1,0.01%", Error);
  ASSERT_TRUE(S) << Error;
  EXPECT_EQ(S->Kind, abi::SchedKind::Model2);
  EXPECT_DOUBLE_EQ(S->Cut.Value, 0.0001);
  S = parseSchedule("14,10%,5", Error); // 5%
  ASSERT_TRUE(S) << Error;
  EXPECT_EQ(S->Kind, abi::SchedKind::ModelProfile);
  EXPECT_DOUBLE_EQ(S->Cut.Value, 0.05);
  const std::pair<const char *, abi::SchedKind> Kinds[] = {
      {"9", abi::SchedKind::Guided},
      {"11", abi::SchedKind::Model1},
      {"13", abi::SchedKind::Profile},
      {"13,-1,auto", abi::SchedKind::Profile}};
  for (const auto &[Text, Kind] : Kinds) {
    S = parseSchedule(Text, Error);
    ASSERT_TRUE(S) << Text << ": " << Error;
    EXPECT_EQ(S->Kind, Kind) << Text;
  }
  // A chunk on a kind that takes none is ignored there, as HOMP does.
  S = parseSchedule("12,10%,0.01%", Error);
  ASSERT_TRUE(S) << Error;
  EXPECT_FALSE(S->Chunk.given());
  S = parseSchedule("1,10", Error);
  ASSERT_TRUE(S) << Error;
  EXPECT_TRUE(S->Block);
  // So is a cutoff of 0 (HOMP's printed defaults); any other is refused
  // there, as in the named form, rather than dropped.
  for (const char *Text :
       {"1,-1,0.00%", "8,100,0.0", "12,-1,0.00%", "14,5%,0"}) {
    S = parseSchedule(Text, Error);
    ASSERT_TRUE(S) << Text << ": " << Error;
    EXPECT_EQ(S->Cut.Kind, abi::Cutoff::None) << Text;
  }
  for (const char *Bad : {"8,2%,15", "1,-1,auto", "9,-1,0.5%"}) {
    EXPECT_FALSE(parseSchedule(Bad, Error)) << Bad;
    EXPECT_NE(Error.find("a cutoff applies to AUTO"), std::string::npos)
        << Error;
  }
  parseSchedule("8,2%,15", Error);
  EXPECT_NE(Error.find("not to 8 (SCHED_DYNAMIC)"), std::string::npos) << Error;
  parseSchedule("1,-1,auto", Error);
  EXPECT_NE(Error.find("not to 1 (BLOCK)"), std::string::npos) << Error;
  // HOMP's other numbers are not loop kinds of its table.
  for (const char *Bad : {"0", "2", "10", "15", "12,10%,100", "08"})
    EXPECT_FALSE(parseSchedule(Bad, Error)) << Bad;
}

TEST(ScheduleSetting, BadFormsAreRefused) {
  for (const char *Bad :
       {"", "DYNAMIC", "sched_dynamic", "SCHED_DYNAMIC,0", "SCHED_DYNAMIC,x",
        "SCHED_DYNAMIC,0%", "SCHED_DYNAMIC,101%", "SCHED_DYNAMIC,2%,1.5",
        "SCHED_DYNAMIC,2%,100%", "SCHED_DYNAMIC,2%,15%,1", "AUTO,,-0.1"}) {
    std::string Error;
    EXPECT_FALSE(parseSchedule(Bad, Error)) << Bad;
    EXPECT_NE(Error.find("KIND[,chunk][,cutoff]"), std::string::npos) << Bad;
  }
}

// As the clauses: no chunk on kinds that take none, no cutoff on kinds that
// predict no shares; they were dropped silently.
TEST(ScheduleSetting, FieldsTheKindDoesNotTakeAreRefused) {
  for (const char *Bad : {"SCHED_STATIC,5", "BLOCK,64", "MODEL_1_AUTO,5",
                          "MODEL_2_AUTO,2%", "AUTO,3"}) {
    std::string Error;
    EXPECT_FALSE(parseSchedule(Bad, Error)) << Bad;
    EXPECT_NE(Error.find("takes no chunk or sample size"), std::string::npos)
        << Error;
  }
  for (const char *Bad :
       {"BLOCK,,0.5", "SCHED_DYNAMIC,,0.5", "SCHED_GUIDED,4,auto"}) {
    std::string Error;
    EXPECT_FALSE(parseSchedule(Bad, Error)) << Bad;
    EXPECT_NE(Error.find("a cutoff applies to AUTO and the model and profile "
                         "kinds"),
              std::string::npos)
        << Error;
  }
  std::string Error;
  EXPECT_TRUE(parseSchedule("BLOCK,-1", Error)) << Error;
  EXPECT_TRUE(parseSchedule("SCHED_PROFILE_AUTO,5%,0.1", Error)) << Error;
}

TEST(Cutoff, RatiosPercentagesAndAuto) {
  EXPECT_DOUBLE_EQ(parseCutoffText("0.2")->Value, 0.2);
  EXPECT_DOUBLE_EQ(parseCutoffText("20%")->Value, 0.2);
  EXPECT_DOUBLE_EQ(parseCutoffText("0")->Value, 0);
  EXPECT_EQ(parseCutoffText("auto")->Kind, abi::Cutoff::Auto);
  for (const char *Bad : {"1", "100%", "-1", "x", "", "0.5.5", "nan"})
    EXPECT_FALSE(parseCutoffText(Bad)) << Bad;

  abi::Cutoff None, Clause, Env;
  Clause.Kind = abi::Cutoff::Given;
  Clause.Value = 0.3;
  Env.Kind = abi::Cutoff::Auto;
  EXPECT_DOUBLE_EQ(cutoffRatio(Clause, Env, 4), 0.3); // the clause wins
  EXPECT_DOUBLE_EQ(cutoffRatio(None, Env, 4), 0.2);   // auto: 0.8 / devices
  EXPECT_DOUBLE_EQ(cutoffRatio(None, None, 4), 0);
}

TEST(Emulate, DevicesAndFactors) {
  std::string Error;
  std::optional<std::vector<Emulation>> E = parseEmulate("0:4, 2:20,host:1.5", Error);
  ASSERT_TRUE(E) << Error;
  ASSERT_EQ(E->size(), 3u);
  EXPECT_EQ((*E)[0].Device, 0);
  EXPECT_EQ((*E)[0].Factor, 4);
  EXPECT_EQ((*E)[1].Device, 2);
  EXPECT_EQ((*E)[1].Factor, 20);
  EXPECT_EQ((*E)[2].Device, -1);
  EXPECT_EQ((*E)[2].Factor, 1.5);
  for (const char *Bad : {"0", "0:0.5", "x:2", "-1:2", "0:", ":2", "0:2,", "0:inf"})
    EXPECT_FALSE(parseEmulate(Bad, Error)) << Bad;
  // One factor per device: a second one was dropped silently.
  EXPECT_FALSE(parseEmulate("0:50,0:2", Error));
  EXPECT_EQ(Error, "'0:2' names device 0 a second time; give each device one "
                   "factor");
  EXPECT_FALSE(parseEmulate("host:2,host:3", Error));
  // Ids are checked against the devices when they are known.
  E = parseEmulate("3:2,host:4", Error);
  ASSERT_TRUE(E) << Error;
  EXPECT_EQ(emulatedDevicesProblem(*E, 4), "");
  EXPECT_EQ(emulatedDevicesProblem(*E, 3),
            "HOMP_EMULATE names device 3, but there are 3 offload devices "
            "(ids 0 to 2; 'host' for the host)");
}

TEST(Environment, SchedulingVariablesNameThemselves) {
  std::map<std::string, std::string> Env;
  auto Get = [&](const char *N) -> const char * {
    auto It = Env.find(N);
    return It == Env.end() ? nullptr : It->second.c_str();
  };
  std::string Error;
  Env = {{"LOOP_DIST_POLICY", "SCHED_GUIDED,20%"}};
  std::optional<Settings> S = readSettings(Get, Error);
  ASSERT_TRUE(S) << Error;
  EXPECT_EQ(S->Schedule->Kind, SchedKind::Guided);
  // HOMP_SCHEDULE wins over HOMP's own name.
  Env["HOMP_SCHEDULE"] = "MODEL_2_AUTO";
  S = readSettings(Get, Error);
  EXPECT_EQ(S->Schedule->Kind, SchedKind::Model2);
  // ... and a bad LOOP_DIST_POLICY beside it is still an error.
  Env["LOOP_DIST_POLICY"] = "garbage";
  EXPECT_FALSE(readSettings(Get, Error));
  EXPECT_EQ(Error.rfind("LOOP_DIST_POLICY='garbage' is not valid", 0), 0u)
      << Error;

  for (const char *Name : {"HOMP_SCHEDULE", "LOOP_DIST_POLICY", "HOMP_CUTOFF",
                           "HOMP_EMULATE"}) {
    Env = {{Name, "nonsense"}};
    EXPECT_FALSE(readSettings(Get, Error)) << Name;
    EXPECT_EQ(Error.rfind(Name, 0), 0u) << Error;
  }
  Env = {{"HOMP_CUTOFF", "15%"}, {"HOMP_EMULATE", "1:4"}};
  S = readSettings(Get, Error);
  ASSERT_TRUE(S) << Error;
  EXPECT_DOUBLE_EQ(S->Cut.Value, 0.15);
  ASSERT_EQ(S->Emulate.size(), 1u);
  EXPECT_EQ(S->Emulate[0].Factor, 4);
}

TEST(Shares, ProportionalToRatesWithUnknownsAverage) {
  std::vector<double> S = sharesByRates({1, 3, 0, 4}, 0);
  ASSERT_EQ(S.size(), 4u);
  // The unknown device counts as the mean of the others, 8/3.
  double Total = 1 + 3 + 8.0 / 3 + 4;
  EXPECT_DOUBLE_EQ(S[0], 1 / Total);
  EXPECT_DOUBLE_EQ(S[2], 8.0 / 3 / Total);
  EXPECT_DOUBLE_EQ(S[3], 4 / Total);
}

TEST(Shares, CutoffDropsSmallSharesButNeverAll) {
  std::vector<double> S = sharesByRates({1, 1, 20, 18}, 0.1);
  EXPECT_EQ(S[0], 0);
  EXPECT_EQ(S[1], 0);
  EXPECT_DOUBLE_EQ(S[2], 20.0 / 38);
  EXPECT_DOUBLE_EQ(S[3], 18.0 / 38);
  // Everything below the ratio: the largest remains.
  S = sharesByRates({1, 2, 1}, 0.9);
  EXPECT_EQ(S, (std::vector<double>{0, 1, 0}));
}

TEST(Shares, AutoCutoffKeepsEqualDevicesAndCutsSlowOnes) {
  abi::Cutoff Auto, None;
  Auto.Kind = abi::Cutoff::Auto;
  double Ratio = cutoffRatio(Auto, None, 4);
  // Equal devices whose measured rates scatter around the mean: all stay.
  std::vector<double> S = sharesByRates({27, 26, 24, 23}, Ratio);
  for (double Share : S)
    EXPECT_GT(Share, 0);
  // Device 0 four times slower than the others (0.11 of the loop), device
  // 1 twenty times (0.02): both cut; the two equal ones keep half each.
  S = sharesByRates({0.25, 0.05, 1, 1}, Ratio);
  EXPECT_EQ(S[0], 0);
  EXPECT_EQ(S[1], 0);
  EXPECT_DOUBLE_EQ(S[2], 0.5);
  // With two devices: one a third as fast as the other (0.25) is cut
  // only under the 0.4 auto ratio, and it is.
  S = sharesByRates({1, 3}, cutoffRatio(Auto, None, 2));
  EXPECT_EQ(S, (std::vector<double>{0, 1}));
}

TEST(Shares, NormalizedToOneOrEqual) {
  EXPECT_EQ(normalizeShares({1, 3, 0}), (std::vector<double>{0.25, 0.75, 0}));
  EXPECT_EQ(normalizeShares({0, 0}), (std::vector<double>{0.5, 0.5}));
}

TEST(Shares, SampleRatesPredictDevicesLeftOut) {
  // Device 1 ran none of the sample: its weight (a tenth of device 0's)
  // predicts a tenth of device 0's rate per weight, as the others show.
  std::vector<double> R =
      sampleRates({100, 0, 300}, {1.0, 0.0, 1.0}, {1.0, 0.1, 3.0});
  EXPECT_DOUBLE_EQ(R[0], 100);
  EXPECT_DOUBLE_EQ(R[1], 10);
  EXPECT_DOUBLE_EQ(R[2], 300);
  // Nothing measured: nothing to predict from.
  R = sampleRates({0, 0}, {0, 0}, {1, 1});
  EXPECT_EQ(R, (std::vector<double>{0, 0}));
}

TEST(Shares, WhenFreeAllEndTogether) {
  // Free now: by the rates. 100 and 300 iterations a second, 800 to share:
  // both end at 2 s.
  std::vector<double> S = sharesWhenFree({100, 300}, {0, 0}, 800);
  EXPECT_NEAR(S[0], 0.25, 1e-12);
  EXPECT_NEAR(S[1], 0.75, 1e-12);
  // Device 1 busy for 1 s more: 100 T + 300 (T - 1) = 800, T = 2.75 s;
  // device 0 runs 275, device 1 525.
  S = sharesWhenFree({100, 300}, {0, 1}, 800);
  EXPECT_NEAR(S[0], 275.0 / 800, 1e-12);
  EXPECT_NEAR(S[1], 525.0 / 800, 1e-12);
  // Busy past the end: device 1 would be free at 5 s, the 200 left end on
  // device 0 at 2 s without it.
  S = sharesWhenFree({100, 300}, {0, 5}, 200);
  EXPECT_NEAR(S[0], 1, 1e-12);
  EXPECT_EQ(S[1], 0);
  // A rate of 0 gets none; a negative busy time counts as free.
  S = sharesWhenFree({0, 50, 50}, {0, -1, 0}, 100);
  EXPECT_EQ(S[0], 0);
  EXPECT_NEAR(S[1], 0.5, 1e-12);
  EXPECT_NEAR(S[2], 0.5, 1e-12);
  // The order of the devices does not matter: three devices free at 0, 2
  // and 1 s, 10 a second each, 60 to share: T = (60 + 30) / 30 = 3 s.
  S = sharesWhenFree({10, 10, 10}, {0, 2, 1}, 60);
  EXPECT_NEAR(S[0], 30.0 / 60, 1e-12);
  EXPECT_NEAR(S[1], 10.0 / 60, 1e-12);
  EXPECT_NEAR(S[2], 20.0 / 60, 1e-12);
  // No rate: equal shares.
  EXPECT_EQ(sharesWhenFree({0, 0}, {0, 0}, 10),
            (std::vector<double>{0.5, 0.5}));
  // Nothing to share: by the rates, none for a rate of 0.
  EXPECT_EQ(sharesWhenFree({0, 50, 150}, {0, 0, 3}, 0),
            (std::vector<double>{0, 0.25, 0.75}));
  // Not numbers: an infinite or NaN rate gets none, a NaN busy time is free.
  double NaN = std::numeric_limits<double>::quiet_NaN();
  double Inf = std::numeric_limits<double>::infinity();
  S = sharesWhenFree({Inf, NaN, 10, 10}, {0, 0, NaN, 0}, 20);
  EXPECT_EQ(S[0], 0);
  EXPECT_EQ(S[1], 0);
  EXPECT_NEAR(S[2], 0.5, 1e-12);
  EXPECT_NEAR(S[3], 0.5, 1e-12);
  // Ties in the busy times: 10 each, both free at 1 s, 40 to share.
  S = sharesWhenFree({10, 10}, {1, 1}, 40);
  EXPECT_NEAR(S[0], 0.5, 1e-12);
  EXPECT_NEAR(S[1], 0.5, 1e-12);
}

// A profile kind's correction of its sample's rates: halfway to each
// execution's observation, per device, within [1/4, 4].
TEST(SampleBias, MovesHalfwayToWhatEachExecutionFound) {
  std::vector<double> B = updateSampleBias({}, {0.8, 1.1, 0});
  ASSERT_EQ(B.size(), 3u);
  EXPECT_DOUBLE_EQ(B[0], 0.9);
  EXPECT_DOUBLE_EQ(B[1], 1.05);
  EXPECT_DOUBLE_EQ(B[2], 1.0); // not measured: unchanged
  B = updateSampleBias(B, {0.8, 1.1, 0});
  EXPECT_DOUBLE_EQ(B[0], 0.85);
  EXPECT_DOUBLE_EQ(B[1], 1.075);
  // A steady observation is approached: within 1% after 7 executions.
  for (int I = 0; I < 5; ++I)
    B = updateSampleBias(B, {0.8, 1.1, 0});
  EXPECT_NEAR(B[0], 0.8, 0.008);
  EXPECT_NEAR(B[1], 1.1, 0.011);
}

TEST(SampleBias, KeepsWithinItsLimitsAndIgnoresWhatIsNotARate) {
  const double Inf = std::numeric_limits<double>::infinity();
  std::vector<double> B = {1, 1, 1, 1};
  for (int I = 0; I < 20; ++I)
    B = updateSampleBias(B, {100, 0.001, Inf, std::nan("")});
  EXPECT_DOUBLE_EQ(B[0], SampleBiasLimit);
  EXPECT_DOUBLE_EQ(B[1], 1 / SampleBiasLimit);
  EXPECT_DOUBLE_EQ(B[2], 1);
  EXPECT_DOUBLE_EQ(B[3], 1);
  // Negative rates are not rates either; a shorter observation leaves the
  // devices past it as they were.
  B = updateSampleBias({2, 0.5, 3}, {-1, 1});
  EXPECT_DOUBLE_EQ(B[0], 2);
  EXPECT_DOUBLE_EQ(B[1], 0.75);
  EXPECT_DOUBLE_EQ(B[2], 3);
}

// The rates the rest is split by: a sample part counts for its bias times
// its iterations, pieces as they are; a device that finished nothing is
// predicted from its weight, as the others' corrected rates are to theirs.
TEST(SampleBias, CorrectsTheSamplePartsOnly) {
  // Device 0: a sample part of 100 iterations and 300 of pieces in 2 s;
  // device 1: a sample part of 100 in 1 s, no pieces; device 2: nothing.
  std::vector<double> R = correctedSampleRates(
      {400, 100, 0}, {100, 100, 0}, {2, 1, 0}, {1, 1, 2}, {0.5, 0.25});
  ASSERT_EQ(R.size(), 3u);
  EXPECT_DOUBLE_EQ(R[0], (300 + 100 * 0.5) / 2);
  EXPECT_DOUBLE_EQ(R[1], 100 * 0.25 / 1);
  EXPECT_DOUBLE_EQ(R[2], 2 * (R[0] + R[1]) / 2); // weight 2, mean per weight
  // No bias (empty, or not positive): the rates as measured.
  EXPECT_EQ(correctedSampleRates({400, 100}, {100, 100}, {2, 1}, {1, 1}, {}),
            sampleRates({400, 100}, {2, 1}, {1, 1}));
  EXPECT_EQ(
      correctedSampleRates({400, 100}, {100, 100}, {2, 1}, {1, 1}, {0, -1}),
      sampleRates({400, 100}, {2, 1}, {1, 1}));
}

TEST(SampleBias, ObservesTheRestOverTheSamplePart) {
  // 100 iterations in 0.01 s on the sample part, 900 in 0.18 s on the rest.
  EXPECT_DOUBLE_EQ(sampleBiasObservation(100, 0.01, 900, 0.18), 0.5);
  // Nothing measured on either side: nothing observed.
  EXPECT_EQ(sampleBiasObservation(0, 0.01, 900, 0.18), 0);
  EXPECT_EQ(sampleBiasObservation(100, 0.01, 0, 0), 0);
  EXPECT_EQ(sampleBiasObservation(100, 0, 900, 0.18), 0);
  EXPECT_EQ(sampleBiasObservation(100, 0.01, 900, std::nan("")), 0);
}

TEST(Amounts, DefaultsAreHomp16s) {
  EXPECT_EQ(defaultAmount(SchedKind::Dynamic).Percent, 2);
  EXPECT_EQ(defaultAmount(SchedKind::Profile).Percent, 10);
  EXPECT_EQ(defaultAmount(SchedKind::ModelProfile).Percent, 10);
}

using Repeat = AutoTrials::Repeat;
constexpr AutoTrial B = AutoTrial::Balanced, M = AutoTrial::Model,
                    D = AutoTrial::Dynamic, A = AutoTrial::Alone;

/// Runs T's opening with these times (balanced, balanced, model, dynamic,
/// alone), checking its order.
void runOpening(AutoTrials &T, const std::array<double, 5> &Seconds) {
  const AutoTrial Opening[] = {B, B, M, D, A};
  static_assert(sizeof(Opening) / sizeof(Opening[0]) == AutoTrials::Opening);
  for (int I = 0; I < AutoTrials::Opening; ++I) {
    ASSERT_EQ(T.next(), Opening[I]) << "execution " << I;
    ASSERT_EQ(T.repeatingNext(), Repeat::None) << "execution " << I;
    T.record(Opening[I], Seconds[I]);
  }
}

/// Expects the next execution to repeat Trial, for Why, and records it.
void expectRepeat(AutoTrials &T, Repeat Why, AutoTrial Trial, double Seconds) {
  EXPECT_EQ(T.repeatingNext(), Why);
  EXPECT_EQ(T.next(), Trial);
  T.record(Trial, Seconds);
}

TEST(AutoTrials, AloneRuledOutNeverRuns) {
  AutoTrials T(4);
  T.ruleOut(A, "no device alone");
  EXPECT_TRUE(T.ruledOut(A));
  EXPECT_EQ(T.ruledOutWhy(), "no device alone");
  EXPECT_EQ(T.opening(), AutoTrials::Opening - 1);
  const AutoTrial Opening[] = {B, B, M, D};
  for (int I = 0; I < 4; ++I) {
    ASSERT_EQ(T.next(), Opening[I]) << "execution " << I;
    T.record(Opening[I], 1.0 + I);
  }
  for (int I = 0; I < 40; ++I) {
    AutoTrial Next = T.next();
    ASSERT_NE(Next, A) << "execution " << 4 + I;
    T.record(Next, Next == B ? 1.0 : 2.0);
  }
  EXPECT_EQ(T.typical(A), std::numeric_limits<double>::infinity());
  // Once the opening reached it, alone is not ruled out any more.
  AutoTrials Late(4);
  runOpening(Late, {1, 1, 2, 2, 3});
  Late.ruleOut(A, "too late");
  EXPECT_FALSE(Late.ruledOut(A));
}

TEST(AutoTrials, RulesOutTrialsTheOpeningHasNotReached) {
  // The model's trial before the opening; dynamic after the first balanced
  // execution; the balanced split never.
  AutoTrials T(4);
  T.ruleOut(M, "no model split");
  T.ruleOut(B, "never");
  EXPECT_FALSE(T.ruledOut(B));
  EXPECT_EQ(T.opening(), AutoTrials::Opening - 1);
  ASSERT_EQ(T.next(), B);
  T.record(B, 1.0);
  T.ruleOut(D, "no SCHED_DYNAMIC");
  T.ruleOut(D, "twice");
  EXPECT_EQ(T.opening(), AutoTrials::Opening - 2);
  EXPECT_EQ(T.ruledOutWhy(), "no model split; no SCHED_DYNAMIC");
  const AutoTrial Rest[] = {B, A};
  for (AutoTrial Next : Rest) {
    ASSERT_EQ(T.next(), Next);
    T.record(Next, Next == B ? 1.0 : 2.0);
  }
  // A trial that has run cannot be ruled out.
  T.ruleOut(A, "too late");
  EXPECT_FALSE(T.ruledOut(A));
  for (int I = 0; I < 40; ++I) {
    AutoTrial Next = T.next();
    ASSERT_TRUE(Next == B || Next == A) << "execution " << 3 + I;
    T.record(Next, Next == B ? 1.0 : 2.0);
  }
  EXPECT_EQ(T.typical(M), std::numeric_limits<double>::infinity());
  EXPECT_EQ(T.typical(D), std::numeric_limits<double>::infinity());
}

TEST(AutoTrials, SampleAgreesWithTheModelWithin5x) {
  EXPECT_TRUE(sampleAgrees({1, 1, 1, 1}, {1, 1, 1, 1}));
  // Rates 4.3x apart on equal devices: the noise of a cold first execution
  // on devices that share cores.
  EXPECT_TRUE(sampleAgrees({4.3, 1, 1.2, 1.1}, {1, 1, 1, 1}));
  EXPECT_TRUE(sampleAgrees({5, 1}, {1, 1}));
  EXPECT_FALSE(sampleAgrees({5.1, 1}, {1, 1}));
  // Scale does not matter: only measured over predicted, device to device.
  EXPECT_TRUE(sampleAgrees({10, 20}, {1, 2}));
  EXPECT_TRUE(sampleAgrees({10, 40}, {1, 10}));
  // A GPU 10 times the CPUs that the model takes for equal.
  EXPECT_FALSE(sampleAgrees({1, 10, 1}, {1, 1, 1}));
  // A device one leaves out and the other not.
  EXPECT_FALSE(sampleAgrees({0, 1, 1}, {1, 1, 1}));
  EXPECT_TRUE(sampleAgrees({0, 1, 1}, {0, 1, 1}));
  EXPECT_FALSE(sampleAgrees({}, {}));
  EXPECT_FALSE(sampleAgrees({1, 1}, {1, 1, 1}));
  EXPECT_FALSE(sampleAgrees({0, 0}, {1, 1}));
}

TEST(AutoTrials, ImbalanceIsTheSlowestOverTheMean) {
  EXPECT_DOUBLE_EQ(imbalanceOf({1, 1, 1, 1}), 1);
  EXPECT_DOUBLE_EQ(imbalanceOf({1, 3}), 1.5);
  // Devices without a time do not count.
  EXPECT_DOUBLE_EQ(imbalanceOf({0, 1, 3}), 1.5);
  EXPECT_DOUBLE_EQ(imbalanceOf({2}), 1);
  EXPECT_DOUBLE_EQ(imbalanceOf({}), 1);
}

TEST(AutoTrials, OpensWithEachTrialThenKeepsTheFastest) {
  AutoTrials T(3);
  runOpening(T, {5, 4, 6, 2, 9});
  EXPECT_EQ(T.typical(B), 4) << "the shorter of 5 and 4";
  EXPECT_EQ(T.typical(M), 6);
  EXPECT_EQ(T.typical(D), 2);
  EXPECT_EQ(T.typical(A), 9);
  // Every trial within 8x of the fastest (2) runs again, warm, in order.
  expectRepeat(T, Repeat::Warm, B, 4);
  expectRepeat(T, Repeat::Warm, M, 3);
  expectRepeat(T, Repeat::Warm, D, 2);
  expectRepeat(T, Repeat::Warm, A, 9);
  EXPECT_EQ(T.typical(B), 4) << "the median of 5, 4 and 4";
  EXPECT_EQ(T.typical(M), 3);
  // Within 1.3x of the best (2): dynamic alone (the model's split, 3, is
  // 1.5x). It runs once more, to confirm.
  expectRepeat(T, Repeat::Confirm, D, 2);
  EXPECT_EQ(T.repeatingNext(), Repeat::None);
  // Dynamic is fastest; every 16th execution the runner-up (the model's
  // split, 3) runs again.
  int Runs[4] = {};
  for (int I = 0; I < 32; ++I) {
    AutoTrial Next = T.next();
    EXPECT_EQ(T.repeatingNext(), Repeat::None);
    ++Runs[static_cast<int>(Next)];
    T.record(Next, Next == D ? 2 : 3);
  }
  EXPECT_EQ(Runs[static_cast<int>(D)], 30);
  EXPECT_EQ(Runs[static_cast<int>(M)], 2);
  EXPECT_EQ(Runs[static_cast<int>(B)], 0);
  EXPECT_EQ(Runs[static_cast<int>(A)], 0);
  EXPECT_EQ(T.executions(), 5 + 4 + 1 + 32);
}

TEST(AutoTrials, RetriesColdTrialsOnceWarm) {
  // The benchmark's AXPY over devices 4x and 20x slower: dynamic's first
  // execution took 12.6 ms, cold; warm it takes 1.1 ms. The balanced split
  // runs again first (2.2 ms warm); then the model's split (34.7 ms, over
  // 8x the fastest) is not tried again, dynamic is, and once its warm time
  // is in, alone (13.7 ms) is not.
  AutoTrials T(4);
  runOpening(T, {11.6, 6.8, 34.7, 12.6, 13.7});
  expectRepeat(T, Repeat::Warm, B, 2.2);
  expectRepeat(T, Repeat::Warm, D, 1.1);
  // Dynamic alone is within 1.3x of the best (1.1 ms; the balanced split's
  // shortest, 2.2 ms, is 2x): it is confirmed, and kept.
  expectRepeat(T, Repeat::Confirm, D, 1.1);
  for (int I = 0; I < 10; ++I) {
    ASSERT_EQ(T.repeatingNext(), Repeat::None) << I;
    ASSERT_EQ(T.next(), D) << I;
    T.record(D, 1.1);
  }
}

TEST(AutoTrials, ConfirmsEachContenderOnce) {
  // Dynamic measured once warm at 2.1 ms, but 3 ms steady, would beat the
  // balanced split at 2.4 ms. The balanced split is a contender by its
  // shortest time, 2.4 ms (its median, 3.5 ms, counts its two cold
  // executions); dynamic, best so far, is confirmed first, at 3 ms, and
  // loses to the balanced split's 2.4 ms. The model's split (8 ms) is not
  // confirmed; alone (20 ms, over 8x the fastest) not even retried.
  AutoTrials T(4);
  runOpening(T, {5, 3.5, 9, 12, 20});
  expectRepeat(T, Repeat::Warm, B, 2.4);
  expectRepeat(T, Repeat::Warm, M, 8);
  expectRepeat(T, Repeat::Warm, D, 2.1);
  EXPECT_EQ(T.typical(B), 3.5);
  EXPECT_EQ(T.typical(D), 2.1);
  EXPECT_EQ(T.next(), D) << "the winner before the confirmations";
  expectRepeat(T, Repeat::Confirm, D, 3);
  EXPECT_EQ(T.typical(D), 3) << "the median of 12, 2.1 and 3";
  expectRepeat(T, Repeat::Confirm, B, 2.4);
  EXPECT_EQ(T.typical(B), 2.4) << "the median of 3.5, 2.4 and 2.4";
  // Settled: the balanced split runs, dynamic (3) is the runner-up.
  for (int I = 0; I < 16; ++I) {
    ASSERT_EQ(T.repeatingNext(), Repeat::None) << I;
    AutoTrial Next = T.next();
    ASSERT_EQ(Next, I == 15 ? D : B) << I;
    T.record(Next, Next == B ? 2.4 : 3);
  }
}

TEST(AutoTrials, ConfirmsOnlyWithin1Point3TimesTheBest) {
  AutoTrials T(2);
  runOpening(T, {2, 2, 2.7, 2.6, 10});
  expectRepeat(T, Repeat::Warm, B, 2);
  expectRepeat(T, Repeat::Warm, M, 2.7);
  expectRepeat(T, Repeat::Warm, D, 2.6);
  expectRepeat(T, Repeat::Warm, A, 10);
  // Best: the balanced split, 2. Dynamic, at 2.6 (1.3x), is confirmed; the
  // model's split, at 2.7 (1.35x), is not, nor is alone.
  expectRepeat(T, Repeat::Confirm, B, 2);
  expectRepeat(T, Repeat::Confirm, D, 2.6);
  EXPECT_EQ(T.repeatingNext(), Repeat::None);
  EXPECT_EQ(T.next(), B);
}

TEST(AutoTrials, ConfirmsEachTrialOnceAtMost) {
  // Each confirmation, 10 where the trial measured 4 to 8 before, makes
  // the next trial a contender: all four are confirmed, in the order of
  // their typical times, and then AUTO settles although the times keep
  // changing.
  AutoTrials T(4);
  runOpening(T, {5, 4, 6, 7, 8});
  for (AutoTrial Trial : {B, M, D, A})
    expectRepeat(T, Repeat::Warm, Trial, 10);
  EXPECT_EQ(T.typical(B), 5) << "the median of 5, 4 and 10";
  EXPECT_EQ(T.typical(M), 6) << "the shorter of 6 and 10";
  // Best 5: the balanced split (5) and the model's split (6) are within
  // 6.5, dynamic (7) and alone (8) not.
  expectRepeat(T, Repeat::Confirm, B, 10);
  // Best 6 (the model's split): dynamic (7) comes within 7.8.
  expectRepeat(T, Repeat::Confirm, M, 10);
  // Best 7 (dynamic): alone (8) comes within 9.1.
  expectRepeat(T, Repeat::Confirm, D, 10);
  expectRepeat(T, Repeat::Confirm, A, 10);
  for (AutoTrial Trial : {B, M, D, A})
    EXPECT_EQ(T.typical(Trial), 10);
  for (int I = 0; I < 10; ++I) {
    ASSERT_EQ(T.repeatingNext(), Repeat::None) << I;
    T.record(T.next(), 10 - I % 3);
  }
  // Whatever the times, learning ends within four warm retries and four
  // confirmations, and the repeats come in one run after the opening.
  uint32_t Seed = 12345;
  auto Random = [&] {
    Seed = Seed * 1664525u + 1013904223u;
    return 1 + (Seed >> 8) % 1000 / 100.0; // 1 to 11
  };
  for (int Case = 0; Case < 1000; ++Case) {
    AutoTrials U(4);
    int Warm = 0, Confirm = 0, Steady = 0;
    for (int I = 0; I < 40; ++I) {
      Repeat Why = U.repeatingNext();
      if (Why == Repeat::None && I >= AutoTrials::Opening)
        ++Steady;
      else if (Why != Repeat::None)
        ASSERT_EQ(Steady, 0) << "case " << Case << ": a repeat after " << I;
      Warm += Why == Repeat::Warm;
      Confirm += Why == Repeat::Confirm;
      ASSERT_FALSE(Why == Repeat::Warm && Confirm > 0) << "case " << Case;
      U.record(U.next(), Random());
    }
    EXPECT_LE(Warm, 4) << "case " << Case;
    EXPECT_GE(Confirm, 1) << "case " << Case;
    EXPECT_LE(Confirm, 4) << "case " << Case;
  }
}

TEST(AutoTrials, KeepsTheModelsSplitWhenItIsFastest) {
  AutoTrials T(4);
  runOpening(T, {2, 2, 1, 2, 2});
  // All four (1 and 2, within 8x of 1) run again, warm, no faster.
  for (AutoTrial Trial : {B, M, D, A})
    expectRepeat(T, Repeat::Warm, Trial, Trial == M ? 1 : 2);
  expectRepeat(T, Repeat::Confirm, M, 1);
  EXPECT_EQ(T.repeatingNext(), Repeat::None);
  EXPECT_EQ(T.next(), M);
  EXPECT_STREQ(autoTrialName(M), "model split");
}

TEST(AutoTrials, FollowsTheMedianOfTheLastThreeTimes) {
  AutoTrials T(2);
  runOpening(T, {9.5, 9, 9, 1, 9});
  // Only dynamic is within 8x of the fastest (itself): it runs again, warm,
  // and, the only one within 1.3x of the best, to confirm.
  expectRepeat(T, Repeat::Warm, D, 1);
  expectRepeat(T, Repeat::Confirm, D, 1);
  EXPECT_EQ(T.typical(B), 9) << "the shorter of 9.5 and 9";
  // One slow execution does not count: dynamic runs on.
  T.record(T.next(), 10);
  EXPECT_EQ(T.typical(D), 1) << "the median of 1, 1 and 10";
  EXPECT_EQ(T.next(), D);
  // Two do: the balanced split (9) runs next.
  T.record(D, 12);
  EXPECT_EQ(T.typical(D), 10) << "the median of 1, 10 and 12";
  EXPECT_EQ(T.next(), B);
  // One lucky execution does not count either.
  T.record(B, 1);
  EXPECT_EQ(T.typical(B), 9) << "the median of 9.5, 9 and 1";
  T.record(T.next(), 2);
  EXPECT_EQ(T.typical(B), 2) << "the median of 9, 1 and 2";
  EXPECT_EQ(T.repeatingNext(), Repeat::None);
}

TEST(AutoTrials, StartsFromASavedProfile) {
  AutoTrials T(4);
  const double Inf = std::numeric_limits<double>::infinity();
  T.restore({3, 2, 1, Inf});
  EXPECT_EQ(T.executions(), AutoTrials::Opening);
  EXPECT_EQ(T.repeatingNext(), Repeat::None);
  EXPECT_EQ(T.next(), D);
  EXPECT_EQ(T.typical(M), 2);
  EXPECT_TRUE(std::isinf(T.typical(A)));
  // It goes on learning: dynamic got slower in this run.
  for (int I = 0; I < 3; ++I)
    T.record(D, 5);
  EXPECT_EQ(T.next(), M);
}

TEST(AutoTrials, ASavedProfileIsNotConfirmed) {
  // The balanced and the model's splits are within 1.3x of dynamic, with
  // one time each: still, dynamic runs from the first execution on, and
  // the runner-up only as every 16th.
  AutoTrials T(4);
  T.restore({1.1, 1.2, 1, std::numeric_limits<double>::infinity()});
  for (int I = 0; I < 16; ++I) {
    ASSERT_EQ(T.repeatingNext(), Repeat::None) << I;
    AutoTrial Next = T.next();
    ASSERT_EQ(Next, I == 15 ? B : D) << I;
    T.record(Next, Next == D ? 1 : 1.1);
  }
}

TEST(AutoTrials, OneDeviceIsAlwaysBalanced) {
  AutoTrials T(1);
  for (int I = 0; I < 10; ++I) {
    EXPECT_EQ(T.repeatingNext(), Repeat::None);
    EXPECT_EQ(T.next(), B);
    T.record(B, 1);
  }
  EXPECT_TRUE(std::isinf(T.typical(D)));
}

// The trial of the fastest device alone: the device the split rates
// highest, the host when the model rates it highest, and the device it ran
// on before while that one is of the same kind and rated within 0.8.
TEST(AloneDevice, TheSplitsHighestDevice) {
  EXPECT_EQ(aloneDevice({0.2, 0.5, 0.3}, std::nullopt, std::nullopt, {0, 0, 0}),
            1u);
  // (Equal shares: the first.)
  EXPECT_EQ(aloneDevice({0.25, 0.25, 0.25, 0.25}, std::nullopt, std::nullopt,
                        {0, 0, 0, 0}),
            0u);
}

TEST(AloneDevice, TheHostWhenTheModelRatesItHighest) {
  // Host at position 3 (kind -1): the model's choice wins over the split's,
  // unless the split (a cutoff) leaves the host out.
  EXPECT_EQ(aloneDevice({0.3, 0.3, 0.3, 0.1}, 3u, std::nullopt, {0, 0, 0, -1}),
            3u);
  EXPECT_EQ(aloneDevice({0.4, 0.3, 0.3, 0.0}, 3u, std::nullopt, {0, 0, 0, -1}),
            0u);
}

TEST(AloneDevice, StaysOnTheDeviceItRanOnBefore) {
  const std::vector<int> Cpus = {0, 0, 0, 0};
  // Within 0.8 of the highest share, and of the same kind: stays.
  EXPECT_EQ(aloneDevice({0.26, 0.24, 0.3, 0.2}, std::nullopt, 1u, Cpus), 1u);
  EXPECT_EQ(aloneDevice({0.24, 0.24, 0.3, 0.22}, std::nullopt, 0u, Cpus), 0u);
  // Exactly 0.8 of it stays too; under it moves to the highest.
  // (0.4 is 0.8 * 0.5 in binary too: halving is exact.)
  EXPECT_EQ(aloneDevice({0.5, 0.4, 0.1, 0.0}, std::nullopt, 1u, Cpus), 1u);
  EXPECT_EQ(aloneDevice({0.5, 0.39, 0.11, 0.0}, std::nullopt, 1u, Cpus), 0u);
  // Another kind: a CPU device before and a GPU (kind 1) at the top; the
  // host before and a CPU device at the top. Moves.
  EXPECT_EQ(
      aloneDevice({0.3, 0.26, 0.22, 0.22}, std::nullopt, 1u, {1, 0, 0, -1}),
      0u);
  EXPECT_EQ(aloneDevice({0.3, 0.3, 0.3, 0.28}, std::nullopt, 3u, {0, 0, 0, -1}),
            0u);
  // Stays on the host the model chose before while the model still does.
  EXPECT_EQ(aloneDevice({0.3, 0.3, 0.3, 0.1}, 3u, 3u, {0, 0, 0, -1}), 3u);
  // A device the split now leaves out, or a position past the devices
  // (another device set), is not kept.
  EXPECT_EQ(aloneDevice({0.5, 0.0, 0.5}, std::nullopt, 1u, {0, 0, 0}), 0u);
  EXPECT_EQ(aloneDevice({0.3, 0.3, 0.4}, std::nullopt, 7u, {0, 0, 0}), 2u);
}

TEST(AloneDevice, ARunOfExecutionsKeepsOneDevice) {
  // Equal devices whose measured shares take turns at the top: the trial
  // stays where it first ran.
  const std::vector<std::vector<double>> Splits = {{0.24, 0.27, 0.25, 0.24},
                                                   {0.27, 0.24, 0.24, 0.25},
                                                   {0.25, 0.24, 0.27, 0.24},
                                                   {0.24, 0.25, 0.24, 0.27}};
  std::optional<unsigned> Before;
  for (const std::vector<double> &Split : Splits) {
    unsigned At = aloneDevice(Split, std::nullopt, Before, {0, 0, 0, 0});
    if (Before)
      EXPECT_EQ(At, *Before);
    Before = At;
  }
  EXPECT_EQ(*Before, 1u);
}

} // namespace
} // namespace homp
