//===-- CoreSharesTest.cpp - Devices on the host's cores ------------------===//
//
// Which of the process's CPUs each device running on the host's cores is
// bound to: examples, and the properties every split must have, checked
// for every count of CPUs and shares up to 16.
//
//===----------------------------------------------------------------------===//

#include "homp/CoreShares.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>

using namespace homp;

namespace {

using Cpus = std::vector<int>;

TEST(CoreSharesTest, Examples) {
  // Four devices on two cores: two on each, alternating.
  EXPECT_EQ(coreShare(0, 4, {0, 1}), Cpus({0}));
  EXPECT_EQ(coreShare(1, 4, {0, 1}), Cpus({1}));
  EXPECT_EQ(coreShare(2, 4, {0, 1}), Cpus({0}));
  EXPECT_EQ(coreShare(3, 4, {0, 1}), Cpus({1}));
  // Two devices on eight cores: four each.
  EXPECT_EQ(coreShare(0, 2, {0, 1, 2, 3, 4, 5, 6, 7}), Cpus({0, 1, 2, 3}));
  EXPECT_EQ(coreShare(1, 2, {0, 1, 2, 3, 4, 5, 6, 7}), Cpus({4, 5, 6, 7}));
  // Three on eight: two each, two cores left over.
  EXPECT_EQ(coreShare(2, 3, {0, 1, 2, 3, 4, 5, 6, 7}), Cpus({4, 5}));
  // The process's CPUs, not the machine's (taskset -c 4,5,9,12).
  EXPECT_EQ(coreShare(1, 2, {4, 5, 9, 12}), Cpus({9, 12}));
  // Nothing to bind to.
  EXPECT_TRUE(coreShare(0, 1, {}).empty());
  EXPECT_TRUE(coreShare(-1, 2, {0, 1}).empty());
  EXPECT_TRUE(coreShare(2, 2, {0, 1}).empty());
}

TEST(CoreSharesTest, EveryShareIsFairAndDisjointWhenItCanBe) {
  for (int N = 1; N <= 16; ++N) {
    Cpus All;
    for (int C = 0; C < N; ++C)
      All.push_back(100 + 3 * C); // ids that are not positions
    for (int Shares = 1; Shares <= 16; ++Shares) {
      std::map<int, int> Uses;
      for (int S = 0; S < Shares; ++S) {
        Cpus Got = coreShare(S, Shares, All);
        // Everyone gets the same number of CPUs, at least one, all distinct
        // and all the process's.
        ASSERT_EQ(static_cast<int>(Got.size()), std::max(1, N / Shares))
            << N << " CPUs, share " << S << " of " << Shares;
        EXPECT_EQ(std::set<int>(Got.begin(), Got.end()).size(), Got.size());
        for (int C : Got) {
          EXPECT_TRUE((C - 100) % 3 == 0 && C >= 100 && C < 100 + 3 * N);
          ++Uses[C];
        }
      }
      // No CPU carries two shares while another carries none, and with
      // enough CPUs the shares do not overlap.
      int Least = Uses.size() < static_cast<size_t>(N) ? 0 : N * Shares;
      int Most = 0;
      for (auto &[C, Count] : Uses) {
        Least = std::min(Least, Count);
        Most = std::max(Most, Count);
      }
      EXPECT_LE(Most - Least, 1) << N << " CPUs, " << Shares << " shares";
      if (Shares <= N)
        EXPECT_EQ(Most, 1) << N << " CPUs, " << Shares << " shares";
    }
  }
}

TEST(CoreSharesTest, SharesGoToTheDevicesOnTheHostsCores) {
  DeviceEnvironment Env;
  Env.NumDevices = 4;
  Env.InitialDevice = 4;
  Env.Types = {homp::abi::TypeNVGPU, homp::abi::TypeCPU, homp::abi::TypeAMDGPU,
               homp::abi::TypeCPU};
  int Shares = -1;
  // GPUs get none; the host is one of the devices on the cores.
  EXPECT_EQ(cpuShares({0, 1, 2, 3, 4}, Env, Shares),
            std::vector<int>({-1, 0, -1, 1, 2}));
  EXPECT_EQ(Shares, 3);
  EXPECT_EQ(cpuShares({3, 1}, Env, Shares), std::vector<int>({0, 1}));
  EXPECT_EQ(Shares, 2);
  EXPECT_EQ(cpuShares({0, 2}, Env, Shares), std::vector<int>({-1, -1}));
  EXPECT_EQ(Shares, 0);
  EXPECT_TRUE(cpuShares({}, Env, Shares).empty());
  EXPECT_EQ(Shares, 0);
}

} // namespace

// Jobs go first to the proxies bound elsewhere, in their order, then to
// those bound to the handing thread's CPU: a proxy woken there may take the
// CPU before the others have their jobs.
TEST(CoreSharesTest, ProxiesOnTheHandingThreadsCpuAreWokenLast) {
  using Order = std::vector<size_t>;
  // Four devices on two cores (shares alternate), the thread on CPU 0.
  const std::vector<Cpus> FourOnTwo = {{0}, {1}, {0}, {1}};
  EXPECT_EQ(wakeOrder({0, 1, 2, 3}, FourOnTwo, 0), Order({1, 3, 0, 2}));
  EXPECT_EQ(wakeOrder({0, 1, 2, 3}, FourOnTwo, 1), Order({0, 2, 1, 3}));
  // Proxies are positions: proxy K is bound to share Binds[K].
  EXPECT_EQ(wakeOrder({2, 1}, FourOnTwo, 0), Order({1, 0}));
  // On a CPU that is none of theirs, or with proxies not bound (GPUs,
  // HOMP_BIND=0): as they come.
  EXPECT_EQ(wakeOrder({0, 1, 2, 3}, FourOnTwo, 7), Order({0, 1, 2, 3}));
  EXPECT_EQ(wakeOrder({-1, 0, -1, 1}, {{4, 5}, {6, 7}}, 5),
            Order({0, 2, 3, 1}));
  EXPECT_EQ(wakeOrder({0, 1}, {}, 0), Order({0, 1}));
  EXPECT_EQ(wakeOrder({}, FourOnTwo, 0), Order());
  // Every proxy exactly once, for every CPU.
  const std::vector<Cpus> Shares = {{0, 1}, {2, 3}, {4}};
  for (int Cpu = -1; Cpu <= 5; ++Cpu) {
    Order Got = wakeOrder({0, 1, -1, 0, 2}, Shares, Cpu);
    std::sort(Got.begin(), Got.end());
    EXPECT_EQ(Got, Order({0, 1, 2, 3, 4})) << "CPU " << Cpu;
  }
}
