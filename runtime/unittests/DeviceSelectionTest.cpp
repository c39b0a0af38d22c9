//===-- DeviceSelectionTest.cpp - Resolving a device list -----------------===//
//
// The 'device' clause's entries, resolved against the devices that exist
// (SPEC.md section 1): ids, ranges, wildcards, the host, type filters and
// typed counts, and HOMP_DEVICES narrowing the result.
//
//===----------------------------------------------------------------------===//

#include "homp/DeviceSelection.h"

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

using namespace homp;

namespace {

using Ids = std::vector<int>;
using Spec = homp::abi::DeviceSpec;
using homp::abi::TypeAll;
using homp::abi::TypeAMDGPU;
using homp::abi::TypeCPU;
using homp::abi::TypeGPU;
using homp::abi::TypeHost;
using homp::abi::TypeNVGPU;

Spec spec(Spec::KindTy Kind, unsigned Types = 0, bool TypedCount = false) {
  Spec S;
  S.Kind = Kind;
  S.Types = Types;
  S.TypedCount = TypedCount;
  return S;
}

const Spec Default = spec(Spec::Default), All = spec(Spec::All),
           Host = spec(Spec::Host), One = spec(Spec::One),
           From = spec(Spec::From), Range = spec(Spec::Range);

/// Six offload devices 0 .. 5; the host is 6 (omp_get_initial_device() is
/// omp_get_num_devices() in LLVM); the default device is 2.
const DeviceEnvironment Six = {6, 6, 2, {}};

/// Six devices of mixed types: 0 1 NVGPU, 2 AMDGPU, 3 4 CPU, 5 NVGPU.
const DeviceEnvironment Mixed = {
    6, 6, 0, {TypeNVGPU, TypeNVGPU, TypeAMDGPU, TypeCPU, TypeCPU, TypeNVGPU}};

Ids resolve(std::vector<Spec> Specs, std::vector<int64_t> Values,
            const DeviceEnvironment &Env = Six,
            const DeviceFilter *Filter = nullptr) {
  return resolveDevices(Specs, Values, Env, Filter);
}

DeviceFilter filter(const std::string &Text) {
  std::string Error;
  std::optional<DeviceFilter> F = parseDeviceFilter(Text, Error);
  EXPECT_TRUE(F.has_value()) << Text << ": " << Error;
  return F.value_or(DeviceFilter());
}

} // namespace

//===----------------------------------------------------------------------===//
// Entries of the list
//===----------------------------------------------------------------------===//

TEST(DeviceSelection, All) {
  EXPECT_EQ(resolve({All}, {}), (Ids{0, 1, 2, 3, 4, 5}));
  // 'all' means the offload devices; the host only when named.
  EXPECT_EQ(resolve({All}, {}, {0, 0, 0, {}}), Ids{});
  EXPECT_EQ(resolve({All}, {}, {1, 1, 0, {}}), (Ids{0}));
}

TEST(DeviceSelection, Host) {
  EXPECT_EQ(resolve({Host}, {}), (Ids{6}));
  EXPECT_EQ(resolve({Host}, {}, {0, 0, 0, {}}), (Ids{0}));
  EXPECT_EQ(resolve({Host, All}, {}), (Ids{6, 0, 1, 2, 3, 4, 5}));
  EXPECT_EQ(resolve({All, Host}, {}), (Ids{0, 1, 2, 3, 4, 5, 6}));
}

TEST(DeviceSelection, Default) {
  EXPECT_EQ(resolve({Default}, {}), (Ids{2}));
  EXPECT_EQ(resolve({Default}, {}, {6, 6, 6, {}}), (Ids{6}));
  EXPECT_EQ(resolve({Default}, {}, {0, 0, 0, {}}), (Ids{0}));
}

TEST(DeviceSelection, One) {
  EXPECT_EQ(resolve({One}, {3}), (Ids{3}));
  EXPECT_EQ(resolve({One}, {0}), (Ids{0}));
  EXPECT_EQ(resolve({One}, {5}), (Ids{5}));
  // The initial device's id names the host.
  EXPECT_EQ(resolve({One}, {6}), (Ids{6}));
  // Ids that do not exist are dropped.
  EXPECT_EQ(resolve({One}, {7}), Ids{});
  EXPECT_EQ(resolve({One}, {-1}), Ids{});
  EXPECT_EQ(resolve({One}, {-6}), Ids{});
  EXPECT_EQ(resolve({One}, {1000000000000LL}), Ids{});
  EXPECT_EQ(resolve({One}, {-1000000000000LL}), Ids{});
}

TEST(DeviceSelection, From) {
  EXPECT_EQ(resolve({From}, {0}), (Ids{0, 1, 2, 3, 4, 5}));
  EXPECT_EQ(resolve({From}, {3}), (Ids{3, 4, 5}));
  EXPECT_EQ(resolve({From}, {5}), (Ids{5}));
  EXPECT_EQ(resolve({From}, {-2}), (Ids{0, 1, 2, 3, 4, 5}));
  // Beyond the last device: nothing, and not the host.
  EXPECT_EQ(resolve({From}, {6}), Ids{});
  EXPECT_EQ(resolve({From}, {7}), Ids{});
  EXPECT_EQ(resolve({From}, {1000000000000LL}), Ids{});
}

TEST(DeviceSelection, Range) {
  EXPECT_EQ(resolve({Range}, {0, 2}), (Ids{0, 1}));
  EXPECT_EQ(resolve({Range}, {2, 3}), (Ids{2, 3, 4}));
  EXPECT_EQ(resolve({Range, Range}, {0, 2, 4, 2}), (Ids{0, 1, 4, 5}));
  // Counts of zero or less name nothing.
  EXPECT_EQ(resolve({Range}, {1, 0}), Ids{});
  EXPECT_EQ(resolve({Range}, {1, -3}), Ids{});
  EXPECT_EQ(resolve({Range, Range}, {1, -3, 4, 1}), (Ids{4}));
  // Ids past the last device are dropped; the range never reaches the host.
  EXPECT_EQ(resolve({Range}, {4, 5}), (Ids{4, 5}));
  EXPECT_EQ(resolve({Range}, {6, 2}), Ids{});
  // Negative ids are dropped.
  EXPECT_EQ(resolve({Range}, {-1, 3}), (Ids{0, 1}));
  EXPECT_EQ(resolve({Range}, {-10, 3}), Ids{});
  EXPECT_EQ(resolve({Range}, {0, 1000000000000LL}), (Ids{0, 1, 2, 3, 4, 5}));
}

// Where the host's id is below the offload devices' (omp_get_initial_device()
// returned -1 before OpenMP 5.1), a range starting below 0 must still not
// reach the host, which takes part only when named.
TEST(DeviceSelection, RangeNeverReachesAHostBelowZero) {
  const DeviceEnvironment MinusOne = {4, -1, 0, {}};
  EXPECT_EQ(resolve({Range}, {-1, 3}, MinusOne), (Ids{0, 1}));
  EXPECT_EQ(resolve({From}, {-1}, MinusOne), (Ids{0, 1, 2, 3}));
  EXPECT_EQ(resolve({Host}, {}, MinusOne), (Ids{-1}));
  EXPECT_EQ(resolve({One}, {-1}, MinusOne), (Ids{-1}));
}

TEST(DeviceSelection, DuplicatesDroppedFirstOrderKept) {
  EXPECT_EQ(resolve({One, One, One, All}, {3, 1, 3}), (Ids{3, 1, 0, 2, 4, 5}));
  EXPECT_EQ(resolve({All, One, Host, One}, {3, 0}), (Ids{0, 1, 2, 3, 4, 5, 6}));
  EXPECT_EQ(resolve({Host, One, Host}, {6}), (Ids{6}));
  EXPECT_EQ(resolve({Range, Range}, {4, 2, 3, 3}), (Ids{4, 5, 3}));
  EXPECT_EQ(resolve({Default, From}, {1}), (Ids{2, 1, 3, 4, 5}));
}

// Values are consumed in the order of the entries that take them; entries
// without values consume nothing.
TEST(DeviceSelection, ValuesConsumedInOrder) {
  EXPECT_EQ(resolve({One, Range, From}, {2, 0, 2, 3}), (Ids{2, 0, 1, 3, 4, 5}));
  EXPECT_EQ(resolve({One, Host, Range, Default, From}, {5, 0, 1, 4}),
            (Ids{5, 6, 0, 2, 4}));
  EXPECT_EQ(resolve({Range, One, Range}, {4, 1, 7, 1, 1}), (Ids{4, 1}));
  EXPECT_EQ(resolve({From, One}, {9, 0}), (Ids{0}));
}

// The entries take exactly the values abi::valueLayout lists for them, in
// that order: each list below resolves with one distinct id per value slot
// (and a count of 1 for each range).
TEST(DeviceSelection, ValuesFollowTheAbiLayout) {
  homp::abi::Descriptor D;
  D.Devices = {One, Host, Range, Default, From, All, Range, One};
  std::vector<int64_t> Values;
  int64_t NextId = 0;
  for (const homp::abi::ValueSlot &S : homp::abi::valueLayout(D))
    Values.push_back(S.Kind == homp::abi::ValueSlot::DeviceCount ? 1
                                                                 : NextId++);
  ASSERT_EQ(Values, (std::vector<int64_t>{0, 1, 1, 2, 3, 1, 4}));
  const DeviceEnvironment Many = {20, 20, 9, {}};
  // One 0, host, 1:1, default 9, from 2, all, 3:1, one 4.
  Ids Want = {0,  20, 1,  9,  2,  3,  4,  5,  6,  7, 8,
              10, 11, 12, 13, 14, 15, 16, 17, 18, 19};
  EXPECT_EQ(resolve(D.Devices, Values, Many), Want);
}

TEST(DeviceSelection, NoOffloadDevices) {
  const DeviceEnvironment None = {0, 0, 0, {}};
  EXPECT_EQ(resolve({All}, {}, None), Ids{});
  EXPECT_EQ(resolve({Host}, {}, None), (Ids{0}));
  EXPECT_EQ(resolve({One}, {0}, None), (Ids{0}));
  EXPECT_EQ(resolve({One}, {1}, None), Ids{});
  EXPECT_EQ(resolve({Range}, {0, 4}, None), Ids{});
  EXPECT_EQ(resolve({From}, {0}, None), Ids{});
}

//===----------------------------------------------------------------------===//
// Device types
//===----------------------------------------------------------------------===//

TEST(DeviceSelection, TypesOfDevices) {
  EXPECT_EQ(Mixed.typeOf(0), unsigned(TypeNVGPU));
  EXPECT_EQ(Mixed.typeOf(2), unsigned(TypeAMDGPU));
  EXPECT_EQ(Mixed.typeOf(4), unsigned(TypeCPU));
  EXPECT_EQ(Mixed.typeOf(6), unsigned(TypeHost));
}

// device(*:HOMP_DEVICE_NVGPU) and friends.
TEST(DeviceSelection, AllOfAType) {
  EXPECT_EQ(resolve({spec(Spec::All, TypeNVGPU)}, {}, Mixed), (Ids{0, 1, 5}));
  EXPECT_EQ(resolve({spec(Spec::All, TypeAMDGPU)}, {}, Mixed), (Ids{2}));
  EXPECT_EQ(resolve({spec(Spec::All, TypeGPU)}, {}, Mixed), (Ids{0, 1, 2, 5}));
  EXPECT_EQ(resolve({spec(Spec::All, TypeCPU)}, {}, Mixed), (Ids{3, 4}));
  EXPECT_EQ(resolve({spec(Spec::All, TypeCPU | TypeAMDGPU)}, {}, Mixed),
            (Ids{2, 3, 4}));
}

// '*' reaches the host only when the filter names the host's type.
TEST(DeviceSelection, AWildcardReachesTheHostOnlyThroughItsType) {
  EXPECT_EQ(resolve({All}, {}, Mixed), (Ids{0, 1, 2, 3, 4, 5}));
  EXPECT_EQ(resolve({spec(Spec::All, TypeGPU | TypeCPU)}, {}, Mixed),
            (Ids{0, 1, 2, 3, 4, 5}));
  EXPECT_EQ(resolve({spec(Spec::All, TypeHost)}, {}, Mixed), (Ids{6}));
  EXPECT_EQ(resolve({spec(Spec::All, TypeCPU | TypeHost)}, {}, Mixed),
            (Ids{3, 4, 6}));
  EXPECT_EQ(resolve({spec(Spec::All, TypeAll)}, {}, Mixed),
            (Ids{0, 1, 2, 3, 4, 5, 6}));
  EXPECT_EQ(resolve({spec(Spec::From, TypeNVGPU | TypeHost)}, {1}, Mixed),
            (Ids{1, 5, 6}));
}

TEST(DeviceSelection, OneOfAType) {
  EXPECT_EQ(resolve({spec(Spec::One, TypeNVGPU)}, {1}, Mixed), (Ids{1}));
  EXPECT_EQ(resolve({spec(Spec::One, TypeNVGPU)}, {2}, Mixed), Ids{});
  EXPECT_EQ(resolve({spec(Spec::One, TypeHost)}, {6}, Mixed), (Ids{6}));
  EXPECT_EQ(resolve({spec(Spec::One, TypeCPU)}, {6}, Mixed), Ids{});
  EXPECT_EQ(resolve({spec(Spec::Default, TypeAMDGPU)}, {}, Mixed), Ids{});
  EXPECT_EQ(resolve({spec(Spec::Default, TypeNVGPU)}, {}, Mixed), (Ids{0}));
}

// device(0:10 & OMP_DEVICE_NVGPU) (PMAM'15): the ids 0 .. 9 that are NVGPUs.
TEST(DeviceSelection, RangeFilteredByType) {
  EXPECT_EQ(resolve({spec(Spec::Range, TypeNVGPU)}, {0, 10}, Mixed),
            (Ids{0, 1, 5}));
  EXPECT_EQ(resolve({spec(Spec::Range, TypeNVGPU)}, {1, 3}, Mixed), (Ids{1}));
  EXPECT_EQ(resolve({spec(Spec::Range, TypeCPU)}, {0, 3}, Mixed), Ids{});
}

// device(0:2:HOMP_DEVICE_NVGPU) (HOMP'16): two NVGPUs from id 0 on.
TEST(DeviceSelection, TypedCountsCountDevicesOfTheType) {
  EXPECT_EQ(resolve({spec(Spec::Range, TypeNVGPU, true)}, {0, 2}, Mixed),
            (Ids{0, 1}));
  EXPECT_EQ(resolve({spec(Spec::Range, TypeNVGPU, true)}, {1, 2}, Mixed),
            (Ids{1, 5}));
  EXPECT_EQ(resolve({spec(Spec::Range, TypeGPU, true)}, {2, 2}, Mixed),
            (Ids{2, 5}));
  EXPECT_EQ(resolve({spec(Spec::Range, TypeCPU, true)}, {0, 1}, Mixed),
            (Ids{3}));
  // Fewer devices of the type than asked for: those there are.
  EXPECT_EQ(resolve({spec(Spec::Range, TypeNVGPU, true)}, {0, 9}, Mixed),
            (Ids{0, 1, 5}));
  EXPECT_EQ(resolve({spec(Spec::Range, TypeAMDGPU, true)}, {3, 1}, Mixed),
            Ids{});
  EXPECT_EQ(resolve({spec(Spec::Range, TypeNVGPU, true)}, {0, 0}, Mixed),
            Ids{});
  EXPECT_EQ(resolve({spec(Spec::Range, TypeNVGPU, true)}, {-4, 1}, Mixed),
            (Ids{0}));
}

// A range counts offload devices: with the host's type in its filter it
// still never reaches the host, and with only the host's type it names
// nothing.
TEST(DeviceSelection, RangesNeverReachTheHostWhateverTheirType) {
  EXPECT_EQ(resolve({spec(Spec::Range, TypeAll, true)}, {4, 9}, Mixed),
            (Ids{4, 5}));
  EXPECT_EQ(resolve({spec(Spec::Range, TypeCPU | TypeHost)}, {0, 9}, Mixed),
            (Ids{3, 4}));
  EXPECT_EQ(resolve({spec(Spec::Range, TypeHost, true)}, {0, 2}, Mixed), Ids{});
  EXPECT_EQ(resolve({spec(Spec::Range, TypeHost)}, {0, 2}, Mixed), Ids{});
}

TEST(DeviceSelection, TypeNames) {
  EXPECT_STREQ(deviceTypeName(TypeNVGPU), "NVGPU");
  EXPECT_STREQ(deviceTypeName(TypeAMDGPU), "AMDGPU");
  EXPECT_STREQ(deviceTypeName(TypeCPU), "CPU");
  EXPECT_STREQ(deviceTypeName(TypeHost), "HOST");
  EXPECT_STREQ(deviceTypeName(TypeGPU), "?") << "one bit at a time";
}

//===----------------------------------------------------------------------===//
// HOMP_DEVICES
//===----------------------------------------------------------------------===//

TEST(DeviceFilter, Ids) {
  DeviceFilter F = filter("0,2");
  EXPECT_EQ(F.Ids, (Ids{0, 2}));
  EXPECT_EQ(F.Types, 0u);
  EXPECT_EQ(filter("7").Ids, (Ids{7}));
}

TEST(DeviceFilter, TypesInAnySpelling) {
  EXPECT_EQ(filter("nvgpu,CPU").Types, unsigned(TypeNVGPU | TypeCPU));
  EXPECT_EQ(filter("HOMP_DEVICE_GPU").Types, unsigned(TypeGPU));
  EXPECT_EQ(filter("omp_device_amdgpu").Types, unsigned(TypeAMDGPU));
  EXPECT_EQ(filter("OMP_DEVICE_NVGPU").Types, unsigned(TypeNVGPU));
  EXPECT_EQ(filter("Homp_Device_Cpu").Types, unsigned(TypeCPU));
  EXPECT_EQ(filter("host").Types, unsigned(TypeHost));
  EXPECT_EQ(filter("HOMP_DEVICE_HOST").Types, unsigned(TypeHost));
  // 'all' and '*' are the offload devices, not the host.
  EXPECT_EQ(filter("all").Types, unsigned(TypeGPU | TypeCPU));
  EXPECT_EQ(filter("*").Types, unsigned(TypeGPU | TypeCPU));
}

TEST(DeviceFilter, MixedAndSpaced) {
  DeviceFilter F = filter(" 1 , host ");
  EXPECT_EQ(F.Ids, (Ids{1}));
  EXPECT_EQ(F.Types, unsigned(TypeHost));
  F = filter("\t3,nvgpu,\t0 ");
  EXPECT_EQ(F.Ids, (Ids{3, 0}));
  EXPECT_EQ(F.Types, unsigned(TypeNVGPU));
}

TEST(DeviceFilter, InvalidValuesNameTheVariable) {
  for (const char *Text :
       {"", ",", "0,", ",1", "gpu2", "-1", "1.5", "0x1", "nvgpus",
        "HOMP_DEVICE_", "HOMP_DEVICE_0", "1 2", "cpu;gpu"}) {
    std::string Error;
    EXPECT_FALSE(parseDeviceFilter(Text, Error).has_value())
        << "'" << Text << "'";
    EXPECT_NE(Error.find("HOMP_DEVICES='" + std::string(Text) + "'"),
              std::string::npos)
        << Error;
    EXPECT_NE(Error.find("is not valid"), std::string::npos) << Error;
  }
  std::string Error;
  parseDeviceFilter("0,gpu2,1", Error);
  EXPECT_EQ(Error, "HOMP_DEVICES='0,gpu2,1' is not valid: 'gpu2' is neither a "
                   "device id, 'host' nor a device type; expected a "
                   "comma-separated list such as '0,2', 'NVGPU,CPU' or "
                   "'1,host'");
}

TEST(DeviceFilter, AdmitsItsIdsAndTypes) {
  DeviceFilter F = filter("4,nvgpu");
  for (int Id = 0; Id <= 6; ++Id)
    EXPECT_EQ(F.admits(Id, Mixed), Id == 0 || Id == 1 || Id == 4 || Id == 5)
        << Id;
  DeviceFilter H = filter("host");
  EXPECT_TRUE(H.admits(6, Mixed));
  EXPECT_FALSE(H.admits(3, Mixed));
  // The host by its id.
  EXPECT_TRUE(filter("6").admits(6, Mixed));
}

TEST(DeviceFilter, NarrowsTheResolvedList) {
  DeviceFilter F = filter("0,2");
  EXPECT_EQ(resolve({All}, {}, Six, &F), (Ids{0, 2}));
  EXPECT_EQ(resolve({Range}, {1, 3}, Six, &F), (Ids{2}));
  EXPECT_EQ(resolve({Host, All}, {}, Six, &F), (Ids{0, 2}));
  DeviceFilter G = filter("nvgpu,CPU");
  EXPECT_EQ(resolve({All}, {}, Mixed, &G), (Ids{0, 1, 3, 4, 5}));
  EXPECT_EQ(resolve({spec(Spec::All, TypeGPU)}, {}, Mixed, &G), (Ids{0, 1, 5}));
}

// HOMP_DEVICES=host lets the host take part where the clause names it, but
// does not add it to a wildcard.
TEST(DeviceFilter, TheHostStaysWhereTheClauseNamesIt) {
  DeviceFilter H = filter("host");
  EXPECT_EQ(resolve({All}, {}, Mixed, &H), Ids{});
  EXPECT_EQ(resolve({All, Host}, {}, Mixed, &H), (Ids{6}));
  DeviceFilter G = filter("1,host");
  EXPECT_EQ(resolve({All, Host}, {}, Mixed, &G), (Ids{1, 6}));
  EXPECT_EQ(resolve({spec(Spec::All, TypeAll)}, {}, Mixed, &G), (Ids{1, 6}));
}
