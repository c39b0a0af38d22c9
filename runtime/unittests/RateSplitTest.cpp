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
  double Overhead = 0; ///< seconds per part
  /// The part it fails on (0: the sample, 1: its first piece...), if any.
  std::optional<int> FailsAt;
};

struct Outcome {
  /// Per iteration: how many times it was handed out to a device that ran
  /// it or failed it (the host reruns those), or left unclaimed.
  std::vector<int> Covered;
  std::vector<double> Finish; ///< per device, when its last part ended
  std::vector<Range> Rest;    ///< per device, its share of the rest
  std::vector<int64_t> Ran;   ///< per device, iterations it ran
};

Outcome simulate(RateSplit &Split, int64_t N, const std::vector<Device> &Devs,
                 const std::function<double(int64_t)> &Cost) {
  const size_t Count = Devs.size();
  std::vector<double> Prefix(static_cast<size_t>(N) + 1, 0);
  for (int64_t I = 0; I < N; ++I)
    Prefix[static_cast<size_t>(I) + 1] =
        Prefix[static_cast<size_t>(I)] + Cost(I);
  auto Took = [&](size_t D, Range R) {
    return (Prefix[static_cast<size_t>(R.End)] -
            Prefix[static_cast<size_t>(R.Begin)]) /
               Devs[D].Speed +
           Devs[D].Overhead;
  };
  Outcome O;
  O.Covered.assign(static_cast<size_t>(N), 0);
  O.Finish.assign(Count, 0);
  O.Rest.assign(Count, Range{0, 0});
  O.Ran.assign(Count, 0);
  auto Cover = [&](Range R) {
    for (int64_t I = R.Begin; I < R.End; ++I)
      ++O.Covered[static_cast<size_t>(I)];
  };
  // Events: (time, device, what ended: 0 sample, 1 piece, 2 rest).
  struct Ev {
    double T;
    size_t D;
    int Kind;
    Range R;
    bool operator>(const Ev &E) const { return T != E.T ? T > E.T : D > E.D; }
  };
  std::priority_queue<Ev, std::vector<Ev>, std::greater<Ev>> Q;
  std::vector<int> Parts(Count, 0);
  std::vector<bool> Failed(Count, false);
  for (size_t D = 0; D < Count; ++D) {
    Range S = Split.sample(D);
    Q.push({Took(D, S), D, 0, S});
  }
  // After a sample or piece of D ended at T: its next piece, or its share.
  auto Continue = [&](size_t D, double T) {
    if (std::optional<Range> R = Split.nextPiece(D, T)) {
      Q.push({T + Took(D, *R), D, 1, *R});
      return;
    }
    O.Finish[D] = T;
    if (!Split.restSplit())
      return;
    Range Mine = Split.restOf(D);
    O.Rest[D] = Mine;
    if (Mine.size() > 0)
      Q.push({T + Took(D, Mine), D, 2, Mine});
  };
  while (!Q.empty()) {
    Ev E = Q.top();
    Q.pop();
    const bool Ok = !Failed[E.D] && Devs[E.D].FailsAt != Parts[E.D];
    ++Parts[E.D];
    if (!Ok)
      Failed[E.D] = true;
    Cover(E.R);
    if (Ok)
      O.Ran[E.D] += E.R.size();
    const double Secs = Took(E.D, E.R);
    if (E.Kind == 0) {
      Split.sampleFinished(E.D, Secs, Ok, E.T);
      Continue(E.D, E.T);
    } else if (E.Kind == 1) {
      Split.pieceFinished(E.D, E.R, Secs, Ok);
      Continue(E.D, E.T);
    } else {
      if (Ok)
        Split.restFinished(E.D, E.R.size(), Secs);
      O.Finish[E.D] = E.T;
    }
  }
  Cover({Split.unclaimed(), N});
  return O;
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
      Weights.push_back(0.5 + (Rng() % 8));
      Device Dv;
      Dv.Speed = 0.1 + (Rng() % 100) / 10.0;
      Dv.Overhead = (Rng() % 3) * 1e-5;
      if (Rng() % 5 == 0)
        Dv.FailsAt = static_cast<int>(Rng() % 3);
      Devs.push_back(Dv);
    }
    RateSplit::Input In = input(N, Chunk, Weights);
    In.Cutoff = (Rng() % 3) * 0.1;
    RateSplit Split(In);
    Outcome O = simulate(Split, N, Devs, flat);
    ASSERT_TRUE(Split.restSplit());
    for (int64_t I = 0; I < N; ++I)
      ASSERT_EQ(O.Covered[static_cast<size_t>(I)], 1)
          << "iteration " << I << " of " << N << ", chunk " << Chunk
          << ", trial " << Trial;
  }
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
  EXPECT_EQ(O.Rest[2].size(), 0);
  EXPECT_EQ(O.Ran[2], Split.sample(2).size());
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
  EXPECT_EQ(O.Rest[1].size(), 0);
  EXPECT_TRUE(Split.cutOff(1));
  EXPECT_EQ(O.Rest[0], (Range{1500, N}));
}

TEST(RateSplit, FailuresLeaveTheirIterationsAndEveryFailureTheRest) {
  const int64_t N = 5000;
  // Device 1 fails its sample: the rest goes to device 0.
  {
    RateSplit Split(input(N, 500, {1, 1}));
    std::vector<Device> Devs(2);
    Devs[1].FailsAt = 0;
    Outcome O = simulate(Split, N, Devs, flat);
    EXPECT_EQ(O.Rest[1].size(), 0);
    EXPECT_EQ(O.Ran[0], N - 250);
    EXPECT_EQ(Split.unclaimed(), N);
  }
  // Both fail their samples: the rest is unclaimed, for the host.
  {
    RateSplit Split(input(N, 500, {1, 3}));
    std::vector<Device> Devs(2);
    Devs[0].FailsAt = 0;
    Devs[1].FailsAt = 0;
    Outcome O = simulate(Split, N, Devs, flat);
    EXPECT_EQ(Split.unclaimed(), 500);
    EXPECT_EQ(O.Ran[0] + O.Ran[1], 0);
  }
}

TEST(RateSplit, WhatTheRestTellsOfTheSample) {
  // The sample's iterations cost half the others' (a stencil's boundary
  // rows): the rest runs at half the sample's rate, and the next execution
  // learns it (observedSampleBias 0.5).
  const int64_t N = 20000;
  RateSplit Split(input(N, 2000, {1, 1}));
  auto Cost = [](int64_t I) { return I < 2000 ? 0.5e-6 : 1e-6; };
  simulate(Split, N, std::vector<Device>(2), Cost);
  EXPECT_NEAR(Split.observedSampleBias(0), 0.5, 0.01);
  EXPECT_NEAR(Split.observedSampleBias(1), 0.5, 0.01);
  // Told so, the split counts the sample for what it is worth: pieces
  // taken while sampling aside, the devices still finish together.
  RateSplit::Input In = input(N, 2000, {1, 1});
  In.SampleBias = {0.5, 0.5};
  RateSplit Learned(In);
  std::vector<Device> Devs(2);
  Devs[1].Speed = 3;
  Outcome O = simulate(Learned, N, Devs, Cost);
  EXPECT_NEAR(O.Finish[0], O.Finish[1], 0.01 * O.Finish[0]);
}
