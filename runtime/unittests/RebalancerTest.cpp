//===-- RebalancerTest.cpp - Damped rebalancing from timings --------------===//
//
// The STEPOCL rule on synthetic devices: its first steps worked out by
// hand, convergence to the split that makes every device finish at once,
// and damping of the ping-pong that noisy timings cause.
//
//===----------------------------------------------------------------------===//

#include "homp/Rebalancer.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace homp;

namespace {

/// Synthetic devices: a share r takes Fixed + r / Speed seconds.
struct Devices {
  std::vector<double> Fixed, Speed;
  std::vector<double> times(const std::vector<double> &R) const {
    std::vector<double> T;
    for (size_t I = 0; I < R.size(); ++I)
      T.push_back(Fixed[I] + R[I] / Speed[I]);
    return T;
  }
  /// The split that makes every device finish at the same T:
  /// r_i = (T - Fixed_i) Speed_i, summing to 1.
  std::vector<double> ideal() const {
    double SumS = 0, SumFS = 0;
    for (size_t I = 0; I < Speed.size(); ++I) {
      SumS += Speed[I];
      SumFS += Fixed[I] * Speed[I];
    }
    double T = (1 + SumFS) / SumS;
    std::vector<double> R;
    for (size_t I = 0; I < Speed.size(); ++I)
      R.push_back((T - Fixed[I]) * Speed[I]);
    return R;
  }
};

double distance(const std::vector<double> &A, const std::vector<double> &B) {
  double D = 0;
  for (size_t I = 0; I < A.size(); ++I)
    D += std::fabs(A[I] - B[I]);
  return D;
}

} // namespace

TEST(Rebalancer, LinearDevicesBalanceInOneStep) {
  // Times proportional to the share: with Q = 1 the rule gives r_i' =
  // r_i mean / d_i = mean Speed_i, i.e. shares proportional to the speeds.
  Devices D{{0, 0, 0}, {1, 3, 6}};
  Rebalancer R({1, 1, 1});
  EXPECT_NEAR(R.ratios()[0], 1.0 / 3, 1e-15);
  R.update(D.times(R.ratios()));
  EXPECT_FALSE(R.converged()) << "times 1/3, 1/9, 1/18";
  EXPECT_NEAR(R.ratios()[0], 0.1, 1e-12);
  EXPECT_NEAR(R.ratios()[1], 0.3, 1e-12);
  EXPECT_NEAR(R.ratios()[2], 0.6, 1e-12);
  R.update(D.times(R.ratios()));
  EXPECT_TRUE(R.converged()) << "every device took 0.1 s";
  EXPECT_NEAR(R.ratios()[2], 0.6, 1e-12) << "balanced: nothing moves";
  EXPECT_EQ(R.damping(), 1);
}

TEST(Rebalancer, ADampedStartMovesHalfWay) {
  // From a trusted prior, Q = 2: r_i' = r_i (1 + (mean / d_i - 1) / 2).
  // Shares 1/2, 1/2, times 1 and 3 (mean 2): 1/2 * 1.5 and 1/2 * 2/3, i.e.
  // 0.75 and 0.4166.., 9/14 and 5/14 once summing to 1.
  Rebalancer R({1, 1}, /*Damping=*/2);
  EXPECT_EQ(R.damping(), 2);
  R.update({1, 3});
  EXPECT_NEAR(R.ratios()[0], 9.0 / 14, 1e-12);
  EXPECT_NEAR(R.ratios()[1], 5.0 / 14, 1e-12);
  // No damping below 1.
  EXPECT_EQ(Rebalancer({1, 1}, 0).damping(), 1);
}

TEST(Rebalancer, PatientIgnoresNoiseAndFollowsARealDifference) {
  // Four equal devices whose times scatter by up to 40% at random, no
  // device steadily slower: a patient split never moves. (A fixed
  // sequence, so the test is the same every run.)
  const double Noise[][4] = {
      {1.4, 1, 1, 1},   {1, 1.3, 1, 0.8}, {1, 1, 1.4, 1}, {0.7, 1, 1, 1.3},
      {1.2, 0.8, 1, 1}, {1, 1, 0.7, 1.3}, {1, 1.4, 1, 1}, {1.3, 1, 1, 0.7}};
  Rebalancer Calm({1, 1, 1, 1}, 2, /*Patient=*/true);
  for (const auto &T : Noise)
    Calm.update(std::vector<double>(T, T + 4));
  for (double R : Calm.ratios())
    EXPECT_DOUBLE_EQ(R, 0.25);
  // The same split not patient follows the noise.
  Rebalancer Eager({1, 1, 1, 1}, 2);
  Eager.update(std::vector<double>(Noise[0], Noise[0] + 4));
  EXPECT_LT(Eager.ratios()[0], 0.24);

  // Device 0 twice as slow as it should be, with 10% noise: no move for
  // two updates, then one by the means of the three, half way (Q = 2).
  Devices D{{0, 0}, {1, 2}};
  Rebalancer R({1, 1}, 2, /*Patient=*/true);
  const double Jitter[] = {1.05, 0.95, 1.0};
  for (int U = 0; U < 2; ++U) {
    std::vector<double> T = D.times(R.ratios());
    T[0] *= Jitter[U];
    R.update(T);
    EXPECT_DOUBLE_EQ(R.ratios()[0], 0.5) << "update " << U;
  }
  R.update(D.times(R.ratios()));
  EXPECT_LT(R.ratios()[0], 0.45);
  EXPECT_GT(R.ratios()[0], 1.0 / 3) << "half way to the ideal third";
}

TEST(Rebalancer, FixedCostsByHand) {
  // d_0 = r_0, d_1 = 0.1 + r_1 (ideal 0.55, 0.45). From 0.5, 0.5: times
  // 0.5, 0.6, mean 0.55; r' = 0.5 * 0.55 / 0.5 = 0.55 and
  // 0.5 * 0.55 / 0.6 = 0.4583.., i.e. 6/11 and 5/11 once summing to 1.
  Devices D{{0, 0.1}, {1, 1}};
  Rebalancer R({0.5, 0.5});
  R.update(D.times(R.ratios()));
  EXPECT_NEAR(R.ratios()[0], 6.0 / 11, 1e-12);
  EXPECT_NEAR(R.ratios()[1], 5.0 / 11, 1e-12);
  EXPECT_FALSE(R.converged()) << "deviation 0.05 of mean 0.55";
  // Times 6/11, 5/11 + 0.1: deviation 0.05/11, below 5% of 0.55.
  R.update(D.times(R.ratios()));
  EXPECT_TRUE(R.converged());
}

TEST(Rebalancer, ConvergesWithoutOscillating) {
  Devices D{{0.01, 0.02, 0.005}, {1, 4, 10}};
  std::vector<double> Ideal = D.ideal(); // 0.066, 0.224, 0.71
  EXPECT_NEAR(Ideal[0] + Ideal[1] + Ideal[2], 1, 1e-12);
  Rebalancer R({1, 1, 1});
  int Steps = 0;
  while (!R.converged() && Steps < 20) {
    R.update(D.times(R.ratios()));
    ++Steps;
  }
  EXPECT_LE(Steps, 4) << "calibrated within a few runs";
  // Calibrated, the split is close to the ideal and stays.
  const std::vector<double> Calibrated = R.ratios();
  EXPECT_LT(distance(Calibrated, Ideal), 0.05);
  for (int K = 0; K < 10; ++K) {
    R.update(D.times(R.ratios()));
    EXPECT_EQ(R.ratios(), Calibrated) << "step " << K;
    EXPECT_TRUE(R.converged());
  }
  EXPECT_LE(R.damping(), 2) << "at most one reversal on clean timings";
}

TEST(Rebalancer, StopsOnceCalibratedAndStartsAgainWhenTheMachineChanges) {
  // Two equal devices; the split starts uneven, 0.6 and 0.4.
  Devices D{{0, 0}, {1, 1}};
  Rebalancer R({0.6, 0.4});
  R.update(D.times(R.ratios()));
  EXPECT_FALSE(R.converged()) << "times 0.6 and 0.4: deviation 20% of 0.5";
  EXPECT_NEAR(R.ratios()[0], 0.5, 1e-12) << "0.6 * 0.5 / 0.6";
  R.update(D.times(R.ratios()));
  EXPECT_TRUE(R.converged());
  // Noise within 10%, or under 10% now and then, moves nothing.
  for (double Slow : {1.15, 1.0, 1.15, 1.15, 1.0, 1.19, 1.19, 1.0}) {
    std::vector<double> T = D.times(R.ratios());
    T[0] *= Slow;
    R.update(T);
    EXPECT_EQ(R.ratios()[0], 0.5) << "device 0 " << Slow << "x";
    EXPECT_TRUE(R.converged());
  }
  // Device 0 twice as slow from now on: the third such execution in a row
  // moves the split, and it calibrates again.
  Devices Changed{{0, 0}, {0.5, 1}};
  for (int K = 0; K < 2; ++K) {
    R.update(Changed.times(R.ratios()));
    EXPECT_EQ(R.ratios()[0], 0.5);
  }
  R.update(Changed.times(R.ratios()));
  EXPECT_NEAR(R.ratios()[0], 1.0 / 3, 1e-12) << "times 1 and 0.5";
  EXPECT_FALSE(R.converged());
  R.update(Changed.times(R.ratios()));
  EXPECT_TRUE(R.converged());
  EXPECT_NEAR(R.ratios()[0], 1.0 / 3, 1e-12);
}

TEST(Rebalancer, StartsAgainUndamped) {
  // Noise damps the split (Q 2 or more), then it calibrates.
  Devices D{{0, 0}, {1, 1}};
  Rebalancer R({0.5, 0.5});
  for (int J = 0; J < 2; ++J) {
    std::vector<double> T = D.times(R.ratios());
    T[J] *= 1.25;
    R.update(T);
  }
  ASSERT_GE(R.damping(), 2);
  for (int K = 0; K < 50 && !R.converged(); ++K)
    R.update(D.times(R.ratios()));
  ASSERT_TRUE(R.converged());
  // Device 0 becomes twice as slow: the split starts again as a fresh
  // rebalancer from the same ratios would move, not at the old damping.
  Devices Changed{{0, 0}, {0.5, 1}};
  for (int K = 0; K < 2; ++K)
    R.update(Changed.times(R.ratios()));
  Rebalancer Fresh(R.ratios());
  R.update(Changed.times(R.ratios()));
  Fresh.update(Changed.times(Fresh.ratios()));
  EXPECT_EQ(R.damping(), 1);
  EXPECT_NEAR(R.ratios()[0], Fresh.ratios()[0], 1e-12);
  EXPECT_LT(R.ratios()[0], 0.4) << "the full move towards 1/3";
}

TEST(Rebalancer, DampsPingPong) {
  // Two equal devices whose timing alternately reads 25% high on one and
  // then the other (never calibrated: the deviation stays over 5%):
  // undamped, the split would swing for ever.
  Devices D{{0, 0}, {1, 1}};
  Rebalancer R({0.5, 0.5});
  std::vector<double> Swings;
  for (int J = 0; J < 12; ++J) {
    std::vector<double> T = D.times(R.ratios());
    T[J % 2] *= 1.25;
    double Old = R.ratios()[0];
    R.update(T);
    EXPECT_FALSE(R.converged());
    Swings.push_back(std::fabs(R.ratios()[0] - Old));
    if (J == 0) {
      // Times 0.625, 0.5, mean 0.5625: 0.5 * 0.5625 / 0.625 against
      // 0.5 * 0.5625 / 0.5, i.e. 0.45 and 0.5625, or 4/9 and 5/9.
      EXPECT_NEAR(R.ratios()[0], 4.0 / 9, 1e-12);
      EXPECT_EQ(R.damping(), 1);
    }
    if (J == 1)
      EXPECT_EQ(R.damping(), 2) << "the first reversal";
  }
  EXPECT_GE(R.damping(), 6) << "every reversal damps further";
  EXPECT_LT(Swings.back(), Swings[1] / 4);
  EXPECT_NEAR(R.ratios()[0], 0.5, 0.01);
}

TEST(Rebalancer, CutDevicesStayCut) {
  // A device of ratio 0 takes no time and is not part of the mean.
  Rebalancer R({0.5, 0, 0.5});
  R.update({0.2, 0, 0.1});
  EXPECT_EQ(R.ratios()[1], 0);
  // 0.5 * 0.15 / 0.2 and 0.5 * 0.15 / 0.1: 0.375 and 0.75, i.e. 1/3, 2/3.
  EXPECT_NEAR(R.ratios()[0], 1.0 / 3, 1e-12);
  EXPECT_NEAR(R.ratios()[2], 2.0 / 3, 1e-12);
}

TEST(Rebalancer, DevicesWithoutATimeKeepTheirRatioExactly) {
  // Device 1 ran less than its ratio (the memory cap held it): it has no
  // time, keeps its ratio over any number of updates, and the others
  // balance between themselves in what is left. (Normalizing over every
  // device moved it by the others' steps.)
  Rebalancer R({0.25, 0.5, 0.25});
  for (int Step = 0; Step < 50; ++Step) {
    const std::vector<double> &Now = R.ratios();
    // Devices 0 and 2: device 2 twice as fast.
    R.update({Now[0] / 1.0, 0, Now[2] / 2.0});
    EXPECT_EQ(R.ratios()[1], 0.5) << Step;
  }
  EXPECT_NEAR(R.ratios()[0], 0.5 / 3, 1e-6);
  EXPECT_NEAR(R.ratios()[2], 1.0 / 3, 1e-6);
  EXPECT_TRUE(R.converged());
}
