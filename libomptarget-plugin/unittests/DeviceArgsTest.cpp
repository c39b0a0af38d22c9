//===-- DeviceArgsTest.cpp - One device's copy of the kernel arguments ----===//
//
// Builds the kernel arguments clang would pass for a region by hand and
// checks the per-device copies made of them.
//
//===----------------------------------------------------------------------===//

#include "DeviceArgs.h"

#include <gtest/gtest.h>

#include <cstring>
#include <vector>

using namespace homp;

namespace {

/// Kernel arguments of N entries in the arrays given.
KernelArgs argsOf(uint32_t N, void **BasePtrs, void **Ptrs, int64_t *Sizes,
                  int64_t *Types) {
  KernelArgs Args;
  std::memset(&Args, 0, sizeof Args);
  Args.Version = SupportedKernelArgsVersion;
  Args.NumArgs = N;
  Args.ArgBasePtrs = BasePtrs;
  Args.ArgPtrs = Ptrs;
  Args.ArgSizes = Sizes;
  Args.ArgTypes = Types;
  return Args;
}

/// Four entries, as clang emits them for
///   #pragma omp target teams distribute parallel for map(tofrom: a[2:8])
///                                                      map(from: b[0:16])
/// with a scalar passed by value and a private variable:
///   0: a[2:8]   TO | FROM | TARGET_PARAM   base a, data &a[2], 32 bytes
///   1: n        LITERAL | TARGET_PARAM     (with TO | FROM set, which must
///                                          not count as moved bytes)
///   2: b[0:16]  FROM | TARGET_PARAM        base b, data b, 64 bytes
///   3: p        PRIVATE | TO | FROM        not a parameter, 100 bytes
class DeviceArgsTest : public ::testing::Test {
protected:
  DeviceArgsTest() {
    BasePtrs[0] = A;
    Ptrs[0] = &A[2];
    Sizes[0] = 8 * sizeof(int);
    Types[0] = MapTo | MapFrom | MapTargetParam;

    BasePtrs[1] = Ptrs[1] = reinterpret_cast<void *>(uintptr_t(42));
    Sizes[1] = sizeof(int64_t);
    Types[1] = MapLiteral | MapTargetParam | MapImplicit | MapTo | MapFrom;

    BasePtrs[2] = Ptrs[2] = B;
    Sizes[2] = 16 * sizeof(int);
    Types[2] = MapFrom | MapTargetParam;

    BasePtrs[3] = Ptrs[3] = P;
    Sizes[3] = sizeof P;
    Types[3] = MapPrivate | MapTo | MapFrom;

    std::memset(&Original, 0, sizeof Original);
    Original.Version = SupportedKernelArgsVersion;
    Original.NumArgs = 4;
    Original.ArgBasePtrs = BasePtrs;
    Original.ArgPtrs = Ptrs;
    Original.ArgSizes = Sizes;
    Original.ArgTypes = Types;
    Original.ArgNames = Names;
    Original.ArgMappers = Mappers;
    Original.Tripcount = 1234;
    Original.Flags = 1;
    Original.NumTeams[0] = 7;
    Original.ThreadLimit[0] = 128;
    Original.DynCGroupMem = 16;

    std::memcpy(SavedBasePtrs, BasePtrs, sizeof BasePtrs);
    std::memcpy(SavedPtrs, Ptrs, sizeof Ptrs);
    std::memcpy(SavedSizes, Sizes, sizeof Sizes);
    std::memcpy(SavedTypes, Types, sizeof Types);
  }

  /// The original per-entry arrays are as the constructor made them.
  void expectOriginalUnchanged() {
    EXPECT_EQ(std::memcmp(SavedBasePtrs, BasePtrs, sizeof BasePtrs), 0);
    EXPECT_EQ(std::memcmp(SavedPtrs, Ptrs, sizeof Ptrs), 0);
    EXPECT_EQ(std::memcmp(SavedSizes, Sizes, sizeof Sizes), 0);
    EXPECT_EQ(std::memcmp(SavedTypes, Types, sizeof Types), 0);
    EXPECT_EQ(Original.ArgBasePtrs, BasePtrs);
    EXPECT_EQ(Original.ArgPtrs, Ptrs);
    EXPECT_EQ(Original.ArgSizes, Sizes);
    EXPECT_EQ(Original.ArgTypes, Types);
  }

  int A[10] = {};
  int B[16] = {};
  char P[100] = {};
  int Copy[16] = {};
  void *BasePtrs[4], *Ptrs[4];
  int64_t Sizes[4], Types[4];
  void *Names[4] = {}, *Mappers[4] = {};
  void *SavedBasePtrs[4], *SavedPtrs[4];
  int64_t SavedSizes[4], SavedTypes[4];
  KernelArgs Original;
};

} // namespace

TEST_F(DeviceArgsTest, CopiesEverything) {
  DeviceArgs D(Original);
  KernelArgs &K = D.args();
  EXPECT_EQ(K.Version, SupportedKernelArgsVersion);
  EXPECT_EQ(K.NumArgs, 4u);
  EXPECT_EQ(K.Tripcount, 1234u);
  EXPECT_EQ(K.Flags, 1u);
  EXPECT_EQ(K.NumTeams[0], 7u);
  EXPECT_EQ(K.ThreadLimit[0], 128u);
  EXPECT_EQ(K.DynCGroupMem, 16u);
  EXPECT_EQ(K.ArgNames, Names);
  EXPECT_EQ(K.ArgMappers, Mappers);
  // Own arrays with the same contents.
  EXPECT_NE(K.ArgBasePtrs, BasePtrs);
  EXPECT_NE(K.ArgPtrs, Ptrs);
  EXPECT_NE(K.ArgSizes, Sizes);
  EXPECT_NE(K.ArgTypes, Types);
  for (unsigned I = 0; I < 4; ++I) {
    EXPECT_EQ(K.ArgBasePtrs[I], BasePtrs[I]) << I;
    EXPECT_EQ(K.ArgPtrs[I], Ptrs[I]) << I;
    EXPECT_EQ(K.ArgSizes[I], Sizes[I]) << I;
    EXPECT_EQ(K.ArgTypes[I], Types[I]) << I;
    EXPECT_EQ(D.base(I), BasePtrs[I]) << I;
  }
}

TEST_F(DeviceArgsTest, ChangesLeaveTheOriginalAlone) {
  {
    DeviceArgs D(Original);
    D.setLiteral(0, &Copy[4]);
    D.setEntry(1, &Copy[3]);
    D.ignoreEntry(2);
    expectOriginalUnchanged();
  }
  expectOriginalUnchanged();

  // Two devices' copies are independent of each other as well.
  DeviceArgs D0(Original), D1(Original);
  D0.setLiteral(0, &Copy[2]);
  D1.setLiteral(0, &Copy[6]);
  EXPECT_EQ(D0.args().ArgPtrs[0], &Copy[2]);
  EXPECT_EQ(D1.args().ArgPtrs[0], &Copy[6]);
  expectOriginalUnchanged();
}

TEST_F(DeviceArgsTest, MovingKeepsTheEntries) {
  DeviceArgs D(Original);
  D.setLiteral(0, &Copy[1]);
  DeviceArgs E(std::move(D));
  EXPECT_EQ(E.args().ArgPtrs[0], &Copy[1]);
  EXPECT_EQ(E.args().ArgBasePtrs[2], B);
  EXPECT_EQ(E.base(0), &Copy[1]);
}

TEST_F(DeviceArgsTest, LiteralEntriesPassTheirValue) {
  DeviceArgs D(Original);
  // a's storage on a device, where element [0] would be: the kernel gets
  // it as it is, and libomptarget maps nothing for it.
  D.setLiteral(0, &Copy[3]);
  EXPECT_EQ(D.args().ArgBasePtrs[0], &Copy[3]);
  EXPECT_EQ(D.args().ArgPtrs[0], &Copy[3]);
  EXPECT_EQ(D.args().ArgSizes[0], 0);
  EXPECT_EQ(D.args().ArgTypes[0], MapLiteral | MapTargetParam);
  EXPECT_EQ(D.base(0), &Copy[3]);
  // The other entries are untouched.
  for (unsigned I = 1; I < 4; ++I) {
    EXPECT_EQ(D.args().ArgPtrs[I], Ptrs[I]) << I;
    EXPECT_EQ(D.args().ArgSizes[I], Sizes[I]) << I;
    EXPECT_EQ(D.args().ArgTypes[I], Types[I]) << I;
  }
}

TEST_F(DeviceArgsTest, IgnoredEntriesAreNoParameters) {
  DeviceArgs D(Original);
  D.ignoreEntry(2);
  EXPECT_EQ(D.args().ArgTypes[2], MapLiteral);
  EXPECT_EQ(D.args().ArgSizes[2], 0);
  // b no longer moves, and the host thunk no longer receives it.
  EXPECT_EQ(D.bytesOut(), 32);
  std::vector<void *> Params = D.hostParams();
  ASSERT_EQ(Params.size(), 2u);
  EXPECT_EQ(Params[0], A);
}

TEST_F(DeviceArgsTest, SetEntry) {
  DeviceArgs D(Original);
  D.setEntry(0, &Copy[7]);
  EXPECT_EQ(D.args().ArgPtrs[0], &Copy[7]);
  EXPECT_EQ(D.args().ArgBasePtrs[0], &Copy[7]);
  EXPECT_EQ(D.base(0), &Copy[7]);
  EXPECT_EQ(D.args().ArgSizes[0], Sizes[0]);
  EXPECT_EQ(D.args().ArgTypes[0], Types[0]);
}

TEST_F(DeviceArgsTest, BytesMoved) {
  DeviceArgs D(Original);
  // In: a (32). Out: a (32) and b (64). The literal and the private entry
  // carry TO and FROM bits but move nothing.
  EXPECT_EQ(D.bytesIn(), 32);
  EXPECT_EQ(D.bytesOut(), 96);
  // Literal entries move nothing either.
  D.setLiteral(0, &Copy[0]);
  EXPECT_EQ(D.bytesIn(), 0);
  EXPECT_EQ(D.bytesOut(), 64);
}

TEST_F(DeviceArgsTest, HostParamsAreTargetParamBases) {
  DeviceArgs D(Original);
  std::vector<void *> Params = D.hostParams();
  ASSERT_EQ(Params.size(), 3u);
  EXPECT_EQ(Params[0], A);
  EXPECT_EQ(Params[1], reinterpret_cast<void *>(uintptr_t(42)));
  EXPECT_EQ(Params[2], B);
  // They follow the device's entries.
  D.setLiteral(0, &Copy[2]);
  D.setEntry(1, &Copy[9]);
  Params = D.hostParams();
  ASSERT_EQ(Params.size(), 3u);
  EXPECT_EQ(Params[0], &Copy[2]);
  EXPECT_EQ(Params[1], &Copy[9]);
  EXPECT_EQ(Params[2], B);
}

TEST(ClaimEntry, FindsEntriesByDataPointer) {
  int X[8], Y[8];
  void *BasePtrs[5] = {X, Y, X, &Y[2], X};
  void *Ptrs[5] = {X, Y, &X[4], &Y[2], X};
  int64_t Sizes[5] = {16, 32, 16, 8, 32};
  int64_t Types[5] = {MapTo, MapFrom, MapTo, MapTo, MapFrom};
  KernelArgs Args = argsOf(5, BasePtrs, Ptrs, Sizes, Types);
  std::vector<bool> Claimed(5, false);

  EXPECT_EQ(claimEntry(Args, Y, Claimed), 1u);
  EXPECT_EQ(Claimed, (std::vector<bool>{false, true, false, false, false}));
  // By data pointer, not base: &X[4] is entry 2, &Y[2] entry 3.
  EXPECT_EQ(claimEntry(Args, &X[4], Claimed), 2u);
  EXPECT_EQ(claimEntry(Args, &Y[2], Claimed), 3u);
  // Two entries with the same pointer are claimed in order.
  EXPECT_EQ(claimEntry(Args, X, Claimed), 0u);
  EXPECT_EQ(claimEntry(Args, X, Claimed), 4u);
  EXPECT_EQ(Claimed, std::vector<bool>(5, true));
  // Nothing left.
  EXPECT_EQ(claimEntry(Args, X, Claimed), std::nullopt);
  EXPECT_EQ(claimEntry(Args, Y, Claimed), std::nullopt);
}

TEST(ClaimEntry, AbsentPointer) {
  int X[4], Y[4];
  void *Ptrs[2] = {X, &X[1]};
  void *BasePtrs[2] = {Y, X};
  KernelArgs Args;
  std::memset(&Args, 0, sizeof Args);
  Args.NumArgs = 2;
  Args.ArgBasePtrs = BasePtrs;
  Args.ArgPtrs = Ptrs;
  std::vector<bool> Claimed(2, false);
  // Y is only a base pointer.
  EXPECT_EQ(claimEntry(Args, Y, Claimed), std::nullopt);
  EXPECT_EQ(claimEntry(Args, &X[2], Claimed), std::nullopt);
  EXPECT_EQ(claimEntry(Args, nullptr, Claimed), std::nullopt);
  EXPECT_EQ(Claimed, std::vector<bool>(2, false));
  EXPECT_EQ(claimEntry(Args, &X[1], Claimed), 1u);
  EXPECT_EQ(Claimed, (std::vector<bool>{false, true}));
}

TEST_F(DeviceArgsTest, CopiesIntoRoomTheCallerGives) {
  // Two devices' copies in one block (Replay.cpp): each in its own part.
  size_t Size = DeviceArgs::entriesSize(Original);
  ASSERT_EQ(Size, 16u);
  std::vector<int64_t> Room(2 * Size, -1);
  DeviceArgs D0(Original, Room.data()), D1(Original, Room.data() + Size);
  EXPECT_EQ(reinterpret_cast<int64_t *>(D0.args().ArgBasePtrs), &Room[0]);
  EXPECT_EQ(D0.args().ArgTypes, &Room[12]);
  EXPECT_EQ(reinterpret_cast<int64_t *>(D1.args().ArgBasePtrs), &Room[16]);
  EXPECT_EQ(D1.args().ArgTypes, &Room[28]);
  EXPECT_EQ(D0.args().Tripcount, 1234u);
  for (unsigned I = 0; I < 4; ++I) {
    EXPECT_EQ(argEntry(D0.args(), I), argEntry(Original, I)) << I;
    EXPECT_EQ(argEntry(D1.args(), I), argEntry(Original, I)) << I;
  }
  D0.setLiteral(0, &Copy[2]);
  EXPECT_EQ(argEntry(D1.args(), 0), argEntry(Original, 0));
  // Moving keeps pointing into the room.
  DeviceArgs Moved(std::move(D0));
  EXPECT_EQ(Moved.args().ArgPtrs[0], &Copy[2]);
  EXPECT_EQ(reinterpret_cast<int64_t *>(Moved.args().ArgBasePtrs), &Room[0]);
  expectOriginalUnchanged();
}

TEST_F(DeviceArgsTest, WholeEntriesRoundTrip) {
  // What Replay.cpp keeps of an entry homp changed, and puts back.
  DeviceArgs D(Original);
  D.setLiteral(2, &Copy[5]);
  ArgEntry Changed = argEntry(D.args(), 2);
  EXPECT_EQ(Changed.Base, &Copy[5]);
  EXPECT_EQ(Changed.Ptr, &Copy[5]);
  EXPECT_EQ(Changed.Size, 0);
  EXPECT_EQ(Changed.Type, MapLiteral | MapTargetParam);
  EXPECT_NE(Changed, argEntry(Original, 2));

  DeviceArgs Again(Original);
  Again.setEntry(2, Changed);
  for (unsigned I = 0; I < 4; ++I)
    EXPECT_EQ(argEntry(Again.args(), I), argEntry(D.args(), I)) << I;
  expectOriginalUnchanged();
}

// A global pointer mapped with a section, 'static int *G; map(to: G[2:4])':
// clang's entry is PTR_AND_OBJ | TARGET_PARAM with the pointer's address
// as base, and libomptarget passes the kernel the pointer's value.
TEST(PointerVariables, PassThePointersValue) {
  static int Data[8];
  static int *G = Data;
  int Other[4];
  void *BasePtrs[2] = {&G, Other};
  void *Ptrs[2] = {&G[2], Other};
  int64_t Sizes[2] = {4 * sizeof(int), sizeof Other};
  int64_t Types[2] = {MapTo | MapPtrAndObj | MapTargetParam,
                      MapTo | MapTargetParam};
  KernelArgs Args = argsOf(2, BasePtrs, Ptrs, Sizes, Types);
  DeviceArgs D(Args);
  EXPECT_EQ(D.arrayBase(0), Data);
  EXPECT_EQ(D.arrayBase(1), Other);
  std::vector<void *> Params = D.hostParams();
  ASSERT_EQ(Params.size(), 2u);
  EXPECT_EQ(Params[0], Data); // as the kernel's host entry takes it
  EXPECT_EQ(Params[1], Other);
  // Once homp passes the device's address, that is what the kernel gets.
  int Device[8];
  D.setLiteral(0, Device);
  EXPECT_EQ(D.arrayBase(0), Device);
  EXPECT_EQ(D.hostParams()[0], Device);

  // Found by the array it points to: by its first element, or (a section
  // clang passes whole) by the array and a range that holds the first.
  std::vector<bool> Claimed(2, false);
  EXPECT_EQ(claimItemEntry(2, BasePtrs, Ptrs, Sizes, Types, Data, &Data[2],
                           Claimed),
            0u);
  Claimed.assign(2, false);
  EXPECT_EQ(claimItemEntry(2, BasePtrs, Ptrs, Sizes, Types, Data, &Data[3],
                           Claimed),
            0u);
  Claimed.assign(2, false);
  EXPECT_EQ(claimItemEntry(2, BasePtrs, Ptrs, Sizes, Types, Data, &Data[6],
                           Claimed),
            std::nullopt);
}
