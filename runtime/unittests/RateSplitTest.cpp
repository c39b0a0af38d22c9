//===-- RateSplitTest.cpp - The profile kinds' split, simulated -----------===//
//
// RateSplit driven by simulated devices in virtual time: each device runs
// its parts one after the other, a part of iterations [b, e) taking the
// sum of their costs over the device's speed plus a fixed overhead, as the
// executor runs them (a thread per device, the split under one lock).
// Checked against what the protocol promises: every iteration handed out
// once, the devices finishing together, the cutoff and the memory cap
// obeyed, failures leaving their iterations to the host, and what the
// execution tells of the sample's bias.
//
//===----------------------------------------------------------------------===//

#include "homp/RateSplit.h"

#include "Reference.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <queue>
#include <random>

using namespace homp;

namespace {

struct Device {
  double Speed = 1;    ///< iterations of cost 1 per second
  double Overhead = 0; ///< seconds per run of iterations (a launch)
  double Cold = 0;     ///< seconds more for its first part
  /// The part it fails on (0: its first slice, 1: the next...), if any.
  std::optional<int> FailsAt;
};

struct Outcome {
  /// Per iteration: how many times it was handed out to a device that ran
  /// it or failed it (the host reruns those), or left unclaimed.
  std::vector<int> Covered;
  std::vector<double> Finish; ///< per device, when its last part ended
  std::vector<IndexSet> Rest; ///< per device, its share of the rest
  std::vector<int64_t> Ran;   ///< per device, iterations it ran
};

Outcome simulate(RateSplit &Split, int64_t N, const std::vector<Device> &Devs,
                 const std::function<double(int64_t)> &Cost) {
  const size_t Count = Devs.size();
  std::vector<double> Prefix(static_cast<size_t>(N) + 1, 0);
  for (int64_t I = 0; I < N; ++I)
    Prefix[static_cast<size_t>(I) + 1] =
        Prefix[static_cast<size_t>(I)] + Cost(I);
  std::vector<int> Parts(Count, 0);
  std::vector<bool> Failed(Count, false);
  auto Took = [&](size_t D, const IndexSet &S) {
    double T = Parts[D] == 0 ? Devs[D].Cold : 0;
    for (const Range &R : S.ranges())
      T += (Prefix[static_cast<size_t>(R.End)] -
            Prefix[static_cast<size_t>(R.Begin)]) /
               Devs[D].Speed +
           Devs[D].Overhead;
    return T;
  };
  Outcome O;
  O.Covered.assign(static_cast<size_t>(N), 0);
  O.Finish.assign(Count, 0);
  O.Rest.assign(Count, IndexSet());
  O.Ran.assign(Count, 0);
  auto Cover = [&](const IndexSet &S) {
    for (const Range &R : S.ranges())
      for (int64_t I = R.Begin; I < R.End; ++I)
        ++O.Covered[static_cast<size_t>(I)];
  };
  // Events: (time, device, what ended: 0 a slice, 1 a piece, 2 the rest).
  struct Ev {
    double T;
    size_t D;
    int Kind;
    IndexSet R;
    size_t Slice;
    bool operator>(const Ev &E) const { return T != E.T ? T > E.T : D > E.D; }
  };
  std::priority_queue<Ev, std::vector<Ev>, std::greater<Ev>> Q;
  // Starts part R of D at T; a device that failed runs nothing more (its
  // parts go to the host at once).
  auto Start = [&](size_t D, double T, int Kind, const IndexSet &R,
                   size_t Slice) {
    Q.push({T + (Failed[D] ? 0 : Took(D, R)), D, Kind, R, Slice});
  };
  // After D's sample or a piece ended at T: its next piece, or its share.
  auto Continue = [&](size_t D, double T) {
    if (std::optional<IndexSet> R = Split.nextPiece(D, T)) {
      Start(D, T, 1, *R, 0);
      return;
    }
    O.Finish[D] = T;
    if (!Split.restSplit())
      return;
    O.Rest[D] = Split.restOf(D);
    if (!O.Rest[D].empty())
      Start(D, T, 2, O.Rest[D], 0);
  };
  for (size_t D = 0; D < Count; ++D) {
    if (Split.sample(D).empty()) {
      Split.sampleFinished(D, 0);
      Continue(D, 0);
    } else {
      Start(D, 0, 0, IndexSet(Split.sample(D)[0]), 0);
    }
  }
  while (!Q.empty()) {
    Ev E = Q.top();
    Q.pop();
    const bool Ok = !Failed[E.D] && Devs[E.D].FailsAt != Parts[E.D];
    const double Secs = Failed[E.D] ? 0 : Took(E.D, E.R);
    ++Parts[E.D];
    if (!Ok)
      Failed[E.D] = true;
    Cover(E.R);
    if (Ok)
      O.Ran[E.D] += E.R.size();
    if (E.Kind == 0) {
      const Range R = E.R.ranges()[0];
      Split.sliceFinished(E.D, R, Secs, Ok);
      if (E.Slice + 1 < Split.sample(E.D).size()) {
        Start(E.D, E.T, 0, IndexSet(Split.sample(E.D)[E.Slice + 1]),
              E.Slice + 1);
        continue;
      }
      Split.sampleFinished(E.D, E.T);
      Continue(E.D, E.T);
    } else if (E.Kind == 1) {
      Split.pieceFinished(E.D, E.R, Secs, Ok);
      Continue(E.D, E.T);
    } else {
      if (Ok)
        Split.restFinished(E.D, Secs);
      O.Finish[E.D] = E.T;
    }
  }
  Cover(Split.unclaimed());
  return O;
}

int64_t sampled(const RateSplit &Split, size_t D) {
  int64_t Its = 0;
  for (const Range &R : Split.sample(D))
    Its += R.size();
  return Its;
}

RateSplit::Input input(int64_t N, int64_t Chunk, std::vector<double> Weights) {
  RateSplit::Input In;
  In.N = N;
  In.Chunk = Chunk;
  In.Weights = std::move(Weights);
  return In;
}

double flat(int64_t) { return 1e-6; }

} // namespace

TEST(RateSplit, EveryIterationIsHandedOutOnce) {
  std::mt19937 Rng(11);
  for (int Trial = 0; Trial < 300; ++Trial) {
    const size_t Count = 1 + Rng() % 4;
    const int64_t N = 1 + static_cast<int64_t>(Rng() % 3000);
    const int64_t Chunk = 1 + static_cast<int64_t>(Rng() % (N + 10));
    std::vector<double> Weights;
    std::vector<Device> Devs;
    for (size_t D = 0; D < Count; ++D) {
      Weights.push_back(Rng() % 6 == 0 ? 0 : 0.5 + (Rng() % 8));
      Device Dv;
      Dv.Speed = 0.1 + (Rng() % 100) / 10.0;
      Dv.Overhead = (Rng() % 3) * 1e-5;
      Dv.Cold = (Rng() % 3) * 1e-4;
      if (Rng() % 5 == 0)
        Dv.FailsAt = static_cast<int>(Rng() % 5);
      Devs.push_back(Dv);
    }
    RateSplit::Input In = input(N, Chunk, Weights);
    In.Cutoff = (Rng() % 3) * 0.1;
    RateSplit Split(In);
    const int64_t Step = 1 + static_cast<int64_t>(Rng() % 4);
    Outcome O = simulate(Split, N, Devs, [&](int64_t I) {
      return Trial % 2 ? flat(I)
                       : 1e-6 * static_cast<double>(1 + I / (N / Step + 1) * 5);
    });
    ASSERT_TRUE(Split.restSplit());
    for (int64_t I = 0; I < N; ++I)
      ASSERT_EQ(O.Covered[static_cast<size_t>(I)], 1)
          << "iteration " << I << " of " << N << ", chunk " << Chunk
          << ", trial " << Trial;
    // Each device's share of the rest is one run of the rest.
    for (size_t D = 0; D < Count; ++D)
      if (!O.Rest[D].empty()) {
        Range H = O.Rest[D].hull();
        for (size_t E = 0; E < Count; ++E)
          if (E != D)
            ASSERT_TRUE(O.Rest[E].intersect(IndexSet(H)).empty())
                << "trial " << Trial;
      }
  }
}

TEST(RateSplit, TheSampleIsSpreadOverTheLoop) {
  // Never the loop's first iterations: SlicesPerDevice strata, a slice in
  // the middle of each, cut between the devices by weight.
  const int64_t N = 12000;
  RateSplit Split(input(N, 1200, {1, 1, 2}));
  const size_t Strata = RateSplit::SlicesPerDevice;
  int64_t Total = 0;
  for (size_t D = 0; D < 3; ++D) {
    ASSERT_EQ(Split.sample(D).size(), Strata);
    std::vector<bool> Seen(Strata, false);
    for (const Range &R : Split.sample(D)) {
      Total += R.size();
      size_t J = 0;
      while (J + 1 < Strata && Split.bound(J + 1) <= R.Begin)
        ++J;
      EXPECT_LE(R.End, Split.bound(J + 1));
      EXPECT_FALSE(Seen[J]);
      Seen[J] = true;
      EXPECT_EQ(R.size(), D == 2 ? 150 : 75);
      // In the stratum's middle.
      const int64_t Mid = (Split.bound(J) + Split.bound(J + 1)) / 2;
      EXPECT_LT(std::abs((R.Begin + R.End) / 2 - Mid), 300);
    }
  }
  EXPECT_EQ(Total, 1200);
  for (size_t J = 0; J <= Strata; ++J)
    EXPECT_EQ(Split.bound(J), N * static_cast<int64_t>(J) / 4);
  // A sample smaller than a slice per device and stratum: fewer strata.
  RateSplit Small(input(N, 6, {1, 1, 1}));
  EXPECT_EQ(sampled(Small, 0) + sampled(Small, 1) + sampled(Small, 2), 6);
  EXPECT_EQ(Small.sample(0).size(), 2u);
}

TEST(RateSplit, AContiguousSampleIsTheLoopsFirstIterations) {
  // Spread off (the costs were found even): HOMP'16's sample, the first
  // Chunk iterations cut by the weights, one slice per device, and the
  // rest one run.
  RateSplit::Input In = input(10000, 1000, {1, 1, 2});
  In.Spread = false;
  RateSplit Split(In);
  EXPECT_EQ(Split.sample(0), (std::vector<Range>{{0, 250}}));
  EXPECT_EQ(Split.sample(1), (std::vector<Range>{{250, 500}}));
  EXPECT_EQ(Split.sample(2), (std::vector<Range>{{500, 1000}}));
  EXPECT_EQ(Split.costs().size(), 1u);
  std::vector<Device> Devs(3);
  Outcome O = simulate(Split, 10000, Devs, flat);
  for (size_t D = 0; D < 3; ++D)
    EXPECT_LE(O.Rest[D].ranges().size(), 1u) << D;
}

TEST(RateSplit, DevicesOfDifferentSpeedsFinishTogether) {
  // One device 4 times faster: the rest split by the sample's rates, the
  // faster one taking pieces while the slower samples.
  const int64_t N = 100000;
  RateSplit Split(input(N, N / 10, {1, 1}));
  std::vector<Device> Devs(2);
  Devs[1].Speed = 4;
  Outcome O = simulate(Split, N, Devs, flat);
  const double Ideal = N * 1e-6 / 5;
  const double End = std::max(O.Finish[0], O.Finish[1]);
  EXPECT_LT(End, Ideal * 1.01);
  EXPECT_NEAR(O.Finish[0], O.Finish[1], Ideal * 0.01);
  EXPECT_TRUE(Split.tookPieces(1));
  EXPECT_FALSE(Split.tookPieces(0));
  EXPECT_NEAR(static_cast<double>(O.Ran[1]) / N, 0.8, 0.01);
  for (double C : Split.costs())
    EXPECT_EQ(C, 1);
}

TEST(RateSplit, UnevenCostsAreSplitByCost) {
  // Iterations whose cost grows along the loop (NPB-MZ's zones, smallest
  // first): a split of the rest in iterations, by the devices' rates, would
  // give the last device most of the work; split by the strata's costs,
  // the devices finish together, within what a stratum's average cost
  // misses of the ramp inside it.
  const int64_t N = 60000;
  for (int Shape = 0; Shape < 3; ++Shape) {
    auto Cost = [&](int64_t I) {
      const double X = static_cast<double>(I) / N;
      return 1e-6 * (Shape == 0   ? 1 + 9 * X
                     : Shape == 1 ? (X < 0.5 ? 1 : 20)
                                  : 20 - 19 * X);
    };
    double Total = 0;
    for (int64_t I = 0; I < N; ++I)
      Total += Cost(I);
    for (double Fast : {1.0, 3.0}) {
      RateSplit Split(input(N, N / 10, {1, 1, 1}));
      std::vector<Device> Devs(3);
      Devs[2].Speed = Fast;
      Outcome O = simulate(Split, N, Devs, Cost);
      const double Ideal = Total / (2 + Fast);
      const double End = *std::max_element(O.Finish.begin(), O.Finish.end());
      EXPECT_LT(End, Ideal * 1.10) << "shape " << Shape << ", fast " << Fast;
      EXPECT_GT(
          *std::max_element(Split.costs().begin(), Split.costs().end()),
          3 * *std::min_element(Split.costs().begin(), Split.costs().end()));
    }
  }
}

TEST(RateSplit, ColdFirstPartsAndNoiseDoNotMakeCostsUneven) {
  // Each device's first slice runs 3 times slower (page faults, caches)
  // and every part differs by up to 20%: the costs are even.
  const int64_t N = 40000;
  std::mt19937 Rng(5);
  std::vector<double> Noise(static_cast<size_t>(N));
  for (double &X : Noise)
    X = 1e-6 * (0.9 + 0.2 * (Rng() % 1000) / 1000.0);
  RateSplit Split(input(N, N / 10, {1, 1, 1, 1}));
  std::vector<Device> Devs(4);
  for (Device &D : Devs)
    D.Cold = 2 * (N / 10 / 12) * 1e-6;
  simulate(Split, N, Devs, [&](int64_t I) { return Noise[I / 500 * 500]; });
  for (double C : Split.costs())
    EXPECT_EQ(C, 1);
}

TEST(RateSplit, TheCutoffLeavesASlowDeviceItsSampleOnly) {
  const int64_t N = 10000;
  RateSplit::Input In = input(N, 1000, {1, 1, 1});
  In.Cutoff = 0.1;
  RateSplit Split(In);
  std::vector<Device> Devs(3);
  Devs[2].Speed = 0.01;
  Outcome O = simulate(Split, N, Devs, flat);
  EXPECT_TRUE(Split.cutOff(2));
  EXPECT_FALSE(Split.cutOff(0));
  EXPECT_TRUE(O.Rest[2].empty());
  EXPECT_EQ(O.Ran[2], sampled(Split, 2));
  // The others share the rest equally (they took pieces while it sampled).
  EXPECT_NEAR(O.Finish[0], O.Finish[1], 1e-6 * 400);
}

TEST(RateSplit, TheMemoryCapIsObeyed) {
  const int64_t N = 10000;
  RateSplit::Input In = input(N, 1000, {1, 1});
  int64_t Asked = -1;
  In.Cap = [&](std::vector<double> Shares, int64_t Left) {
    Asked = Left;
    Shares[0] += Shares[1];
    Shares[1] = 0;
    return Shares;
  };
  RateSplit Split(In);
  Outcome O = simulate(Split, N, std::vector<Device>(2), flat);
  // Device 0, done with its sample first, took a piece while device 1
  // finished its own: the rest after it is all device 0's.
  EXPECT_EQ(Asked, N - 1500);
  EXPECT_TRUE(O.Rest[1].empty());
  EXPECT_TRUE(Split.cutOff(1));
  EXPECT_EQ(O.Rest[0].size(), N - 1500);
}

TEST(RateSplit, FailuresLeaveTheirIterationsAndEveryFailureTheRest) {
  const int64_t N = 5000;
  // Device 1 fails its first slice: the rest goes to device 0.
  {
    RateSplit Split(input(N, 500, {1, 1}));
    std::vector<Device> Devs(2);
    Devs[1].FailsAt = 0;
    Outcome O = simulate(Split, N, Devs, flat);
    EXPECT_TRUE(O.Rest[1].empty());
    EXPECT_EQ(O.Ran[0], N - sampled(Split, 1));
    EXPECT_TRUE(Split.unclaimed().empty());
  }
  // Both fail their samples: the rest is unclaimed, for the host.
  {
    RateSplit Split(input(N, 500, {1, 3}));
    std::vector<Device> Devs(2);
    Devs[0].FailsAt = 0;
    Devs[1].FailsAt = 0;
    Outcome O = simulate(Split, N, Devs, flat);
    EXPECT_EQ(Split.unclaimed().size(), N - 500);
    EXPECT_EQ(O.Ran[0] + O.Ran[1], 0);
  }
}

TEST(RateSplit, WhatTheRestTellsOfTheSample) {
  // Each launch costs 0.1 ms: the sample's slices run slower than a share
  // of the rest, and the execution tells it (observed bias above 1). Told
  // so, the next execution counts the sample for what it is worth, and the
  // devices (one 3 times faster) finish closer together.
  const int64_t N = 20000;
  auto Run = [&](std::vector<double> SampleBias, std::vector<double> &Seen) {
    RateSplit::Input In = input(N, 2000, {1, 1});
    In.SampleBias = std::move(SampleBias);
    RateSplit Split(In);
    std::vector<Device> Devs(2);
    for (Device &D : Devs)
      D.Overhead = 1e-4;
    Devs[1].Speed = 3;
    Outcome O = simulate(Split, N, Devs, flat);
    Seen = {Split.observedSampleBias(0), Split.observedSampleBias(1)};
    return std::abs(O.Finish[0] - O.Finish[1]) /
           std::max(O.Finish[0], O.Finish[1]);
  };
  std::vector<double> Bias, Again;
  const double First = Run({}, Bias);
  EXPECT_GT(Bias[0], 1.1);
  EXPECT_GT(Bias[1], 1.1);
  const double Second = Run(Bias, Again);
  EXPECT_LT(Second, First / 2);
  EXPECT_LT(Second, 0.05);
}
