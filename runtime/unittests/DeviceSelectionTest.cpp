//===-- DeviceSelectionTest.cpp - Resolving a device list -----------------===//

#include "homp/DeviceSelection.h"

#include <gtest/gtest.h>

#include <vector>

using namespace homp;

namespace {

using Ids = std::vector<int>;
using K = DeviceSpecKind;

/// Six offload devices 0 .. 5; the host is 6 (omp_get_initial_device() is
/// omp_get_num_devices() in LLVM); the default device is 2.
const DeviceEnvironment Six = {6, 6, 2};

Ids resolve(std::vector<DeviceSpecKind> Specs, std::vector<int64_t> Values,
            const DeviceEnvironment &Env = Six) {
  return resolveDevices(Specs, Values, Env);
}

} // namespace

TEST(DeviceSelection, ValuesPerSpecifier) {
  EXPECT_EQ(deviceSpecValues(K::Default), 0u);
  EXPECT_EQ(deviceSpecValues(K::All), 0u);
  EXPECT_EQ(deviceSpecValues(K::Host), 0u);
  EXPECT_EQ(deviceSpecValues(K::One), 1u);
  EXPECT_EQ(deviceSpecValues(K::From), 1u);
  EXPECT_EQ(deviceSpecValues(K::Range), 2u);
}

TEST(DeviceSelection, All) {
  EXPECT_EQ(resolve({K::All}, {}), (Ids{0, 1, 2, 3, 4, 5}));
  // 'all' means the offload devices; the host only when named.
  EXPECT_EQ(resolve({K::All}, {}, {0, 0, 0}), Ids{});
  EXPECT_EQ(resolve({K::All}, {}, {1, 1, 0}), (Ids{0}));
}

TEST(DeviceSelection, Host) {
  EXPECT_EQ(resolve({K::Host}, {}), (Ids{6}));
  EXPECT_EQ(resolve({K::Host}, {}, {0, 0, 0}), (Ids{0}));
  EXPECT_EQ(resolve({K::Host, K::All}, {}), (Ids{6, 0, 1, 2, 3, 4, 5}));
  EXPECT_EQ(resolve({K::All, K::Host}, {}), (Ids{0, 1, 2, 3, 4, 5, 6}));
}

TEST(DeviceSelection, Default) {
  EXPECT_EQ(resolve({K::Default}, {}), (Ids{2}));
  EXPECT_EQ(resolve({K::Default}, {}, {6, 6, 6}), (Ids{6}));
  EXPECT_EQ(resolve({K::Default}, {}, {0, 0, 0}), (Ids{0}));
}

TEST(DeviceSelection, One) {
  EXPECT_EQ(resolve({K::One}, {3}), (Ids{3}));
  EXPECT_EQ(resolve({K::One}, {0}), (Ids{0}));
  EXPECT_EQ(resolve({K::One}, {5}), (Ids{5}));
  // The initial device's id names the host.
  EXPECT_EQ(resolve({K::One}, {6}), (Ids{6}));
  // Ids that do not exist are dropped.
  EXPECT_EQ(resolve({K::One}, {7}), Ids{});
  EXPECT_EQ(resolve({K::One}, {-1}), Ids{});
  EXPECT_EQ(resolve({K::One}, {-6}), Ids{});
  EXPECT_EQ(resolve({K::One}, {1000000000000LL}), Ids{});
  EXPECT_EQ(resolve({K::One}, {-1000000000000LL}), Ids{});
}

TEST(DeviceSelection, From) {
  EXPECT_EQ(resolve({K::From}, {0}), (Ids{0, 1, 2, 3, 4, 5}));
  EXPECT_EQ(resolve({K::From}, {3}), (Ids{3, 4, 5}));
  EXPECT_EQ(resolve({K::From}, {5}), (Ids{5}));
  EXPECT_EQ(resolve({K::From}, {-2}), (Ids{0, 1, 2, 3, 4, 5}));
  // Beyond the last device: nothing, and not the host.
  EXPECT_EQ(resolve({K::From}, {6}), Ids{});
  EXPECT_EQ(resolve({K::From}, {7}), Ids{});
  EXPECT_EQ(resolve({K::From}, {1000000000000LL}), Ids{});
}

TEST(DeviceSelection, Range) {
  EXPECT_EQ(resolve({K::Range}, {0, 2}), (Ids{0, 1}));
  EXPECT_EQ(resolve({K::Range}, {2, 3}), (Ids{2, 3, 4}));
  EXPECT_EQ(resolve({K::Range, K::Range}, {0, 2, 4, 2}), (Ids{0, 1, 4, 5}));
  // Counts of zero or less name nothing.
  EXPECT_EQ(resolve({K::Range}, {1, 0}), Ids{});
  EXPECT_EQ(resolve({K::Range}, {1, -3}), Ids{});
  EXPECT_EQ(resolve({K::Range, K::Range}, {1, -3, 4, 1}), (Ids{4}));
  // Ids past the last device are dropped; the range never reaches the host.
  EXPECT_EQ(resolve({K::Range}, {4, 5}), (Ids{4, 5}));
  EXPECT_EQ(resolve({K::Range}, {6, 2}), Ids{});
  // Negative ids are dropped.
  EXPECT_EQ(resolve({K::Range}, {-1, 3}), (Ids{0, 1}));
  EXPECT_EQ(resolve({K::Range}, {-10, 3}), Ids{});
}

// Where the host's id is below the offload devices' (omp_get_initial_device()
// returned -1 before OpenMP 5.1), a range starting below 0 must still not
// reach the host, which takes part only when named.
TEST(DeviceSelection, RangeNeverReachesAHostBelowZero) {
  const DeviceEnvironment MinusOne = {4, -1, 0};
  EXPECT_EQ(resolve({K::Range}, {-1, 3}, MinusOne), (Ids{0, 1}));
  EXPECT_EQ(resolve({K::From}, {-1}, MinusOne), (Ids{0, 1, 2, 3}));
  EXPECT_EQ(resolve({K::Host}, {}, MinusOne), (Ids{-1}));
  EXPECT_EQ(resolve({K::One}, {-1}, MinusOne), (Ids{-1}));
}

TEST(DeviceSelection, DuplicatesDroppedFirstOrderKept) {
  EXPECT_EQ(resolve({K::One, K::One, K::One, K::All}, {3, 1, 3}),
            (Ids{3, 1, 0, 2, 4, 5}));
  EXPECT_EQ(resolve({K::All, K::One, K::Host, K::One}, {3, 0}),
            (Ids{0, 1, 2, 3, 4, 5, 6}));
  EXPECT_EQ(resolve({K::Host, K::One, K::Host}, {6}), (Ids{6}));
  EXPECT_EQ(resolve({K::Range, K::Range}, {4, 2, 3, 3}), (Ids{4, 5, 3}));
  EXPECT_EQ(resolve({K::Default, K::From}, {1}), (Ids{2, 1, 3, 4, 5}));
}

// Values are consumed in the order of the specifiers that take them;
// specifiers without values consume nothing.
TEST(DeviceSelection, ValuesConsumedInOrder) {
  EXPECT_EQ(resolve({K::One, K::Range, K::From}, {2, 0, 2, 3}),
            (Ids{2, 0, 1, 3, 4, 5}));
  EXPECT_EQ(
      resolve({K::One, K::Host, K::Range, K::Default, K::From}, {5, 0, 1, 4}),
      (Ids{5, 6, 0, 2, 4}));
  EXPECT_EQ(resolve({K::Range, K::One, K::Range}, {4, 1, 7, 1, 1}),
            (Ids{4, 1}));
  EXPECT_EQ(resolve({K::From, K::One}, {9, 0}), (Ids{0}));
}

TEST(DeviceSelection, NoOffloadDevices) {
  const DeviceEnvironment None = {0, 0, 0};
  EXPECT_EQ(resolve({K::All}, {}, None), Ids{});
  EXPECT_EQ(resolve({K::Host}, {}, None), (Ids{0}));
  EXPECT_EQ(resolve({K::One}, {0}, None), (Ids{0}));
  EXPECT_EQ(resolve({K::One}, {1}, None), Ids{});
  EXPECT_EQ(resolve({K::Range}, {0, 4}, None), Ids{});
  EXPECT_EQ(resolve({K::From}, {0}, None), Ids{});
}
