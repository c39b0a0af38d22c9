//===-- DataEnvironmentTest.cpp - Arrays resident on devices --------------===//
//
// The books libhomp keeps of resident arrays: found by any host address
// inside their mapped bytes, kept apart, counted, forgotten; device
// addresses that keep global indices valid; the split a data region gave a
// labelled loop.
//
//===----------------------------------------------------------------------===//

#include "homp/DataEnvironment.h"

#include "Reference.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <random>
#include <vector>

using namespace homp;

namespace {

/// Host memory the tests' arrays live in.
alignas(16) char Host[4096];

/// A resident 1-D array of ElementSize-byte elements at Host + BaseOffset,
/// whose section [Begin, End) is mapped.
std::unique_ptr<ResidentArray> resident(const std::string &Name,
                                        size_t BaseOffset, int64_t Begin,
                                        int64_t End, int64_t ElementSize = 8) {
  auto A = std::make_unique<ResidentArray>();
  A->Name = Name;
  A->Where = "the data region at a.c:1:1";
  A->HostBase = Host + BaseOffset;
  A->Dist.Shape.Rank = 1;
  A->Dist.Shape.ElementSize = ElementSize;
  A->Dist.Shape.Section.Rank = 1;
  A->Dist.Shape.Section.Dims[0] = {Begin, End};
  return A;
}

/// A 2-D array of Rows x Cols doubles at Host + BaseOffset, section
/// [R0, R1) x [C0, C1).
std::unique_ptr<ResidentArray> resident2D(size_t BaseOffset, int64_t Cols,
                                          Range RowRange, Range ColRange) {
  auto A = resident("u", BaseOffset, 0, 0);
  A->Dist.Shape.Rank = 2;
  A->Dist.Shape.Extent[1] = Cols;
  A->Dist.Shape.Section.Rank = 2;
  A->Dist.Shape.Section.Dims[0] = RowRange;
  A->Dist.Shape.Section.Dims[1] = ColRange;
  return A;
}

} // namespace

//===----------------------------------------------------------------------===//
// The host bytes of a resident array
//===----------------------------------------------------------------------===//

TEST(ResidentArray, HostBytesSpanTheSection) {
  // double x[...]; map x[10:20]: bytes 80 .. 240 from x.
  auto X = resident("x", 0, 10, 30);
  EXPECT_EQ(X->hostBegin(), reinterpret_cast<uintptr_t>(Host) + 80);
  EXPECT_EQ(X->hostEnd(), reinterpret_cast<uintptr_t>(Host) + 240);
}

TEST(ResidentArray, HostBytesOfARowBlock) {
  // double u[..][10]; map u[2:2][3:2]: elements 23 .. 34.
  auto U = resident2D(0, 10, {2, 4}, {3, 5});
  EXPECT_EQ(U->hostBegin(), reinterpret_cast<uintptr_t>(Host) + 23 * 8);
  EXPECT_EQ(U->hostEnd(), reinterpret_cast<uintptr_t>(Host) + 35 * 8);
}

//===----------------------------------------------------------------------===//
// ResidentTable
//===----------------------------------------------------------------------===//

// Every byte of the mapped section finds the array; the bytes just before
// and just past it do not.
TEST(ResidentTable, FindsByAnyAddressInside) {
  ResidentTable T;
  ResidentArray *X = T.insert(resident("x", 64, 10, 30, 4));
  ASSERT_NE(X, nullptr);
  char *Begin = Host + 64 + 40, *End = Host + 64 + 120;
  for (char *P = Begin; P < End; ++P)
    EXPECT_EQ(T.find(P), X) << P - Begin;
  EXPECT_EQ(T.find(Begin - 1), nullptr);
  EXPECT_EQ(T.find(End), nullptr);
  EXPECT_EQ(T.find(Host + 64), nullptr) << "element 0 is not mapped";
}

TEST(ResidentTable, FindsAmongSeveralArrays) {
  ResidentTable T;
  ResidentArray *A = T.insert(resident("a", 0, 0, 10));
  ResidentArray *C = T.insert(resident("c", 400, 0, 10));
  ResidentArray *B = T.insert(resident("b", 200, 0, 10));
  ASSERT_TRUE(A && B && C);
  EXPECT_EQ(T.size(), 3u);
  EXPECT_EQ(T.find(Host + 79), A);
  EXPECT_EQ(T.find(Host + 80), nullptr);
  EXPECT_EQ(T.find(Host + 200), B);
  EXPECT_EQ(T.find(Host + 279), B);
  EXPECT_EQ(T.find(Host + 399), nullptr);
  EXPECT_EQ(T.find(Host + 400), C);
  EXPECT_EQ(T.find(Host + 479), C);
  EXPECT_EQ(T.find(Host + 480), nullptr);
}

// A zero-length section is found at its start only.
TEST(ResidentTable, AnEmptySectionIsFoundAtItsStart) {
  ResidentTable T;
  ResidentArray *E = T.insert(resident("e", 128, 0, 0));
  ASSERT_NE(E, nullptr);
  EXPECT_EQ(T.find(Host + 128), E);
  EXPECT_EQ(T.find(Host + 129), nullptr);
  EXPECT_EQ(T.find(Host + 127), nullptr);
}

TEST(ResidentTable, OverlappingArraysAreRefused) {
  ResidentTable T;
  ASSERT_NE(T.insert(resident("x", 800, 0, 10)), nullptr); // [800, 880)
  // One byte into it from either side, inside it, around it.
  EXPECT_EQ(T.insert(resident("a", 800 - 79, 0, 10)), nullptr);
  EXPECT_EQ(T.insert(resident("b", 879, 0, 10, 1)), nullptr);
  EXPECT_EQ(T.insert(resident("c", 808, 0, 2)), nullptr);
  EXPECT_EQ(T.insert(resident("d", 700, 0, 30)), nullptr);
  EXPECT_EQ(T.insert(resident("e", 800, 0, 10)), nullptr);
  // An empty section at a byte of x.
  EXPECT_EQ(T.insert(resident("f", 840, 0, 0)), nullptr);
  EXPECT_EQ(T.size(), 1u);
  // Right next to it on both sides is fine.
  EXPECT_NE(T.insert(resident("g", 720, 0, 10)), nullptr);
  EXPECT_NE(T.insert(resident("h", 880, 0, 10)), nullptr);
  EXPECT_EQ(T.size(), 3u);
}

TEST(ResidentTable, ANewArrayMayNotStartOnAnEmptyOne) {
  ResidentTable T;
  ASSERT_NE(T.insert(resident("e", 1000, 0, 0)), nullptr);
  EXPECT_EQ(T.insert(resident("x", 1000, 0, 4)), nullptr);
  EXPECT_NE(T.insert(resident("y", 1001, 0, 4, 1)), nullptr);
}

// A mapping counts one reference; each further mapping adds one, each end
// drops one, and the last drop says so.
TEST(ResidentTable, ReferencesAreCounted) {
  ResidentTable T;
  ResidentArray *X = T.insert(resident("x", 1200, 0, 10));
  ASSERT_NE(X, nullptr);
  EXPECT_EQ(X->RefCount, 1);
  ++X->RefCount;
  ++X->RefCount;
  EXPECT_FALSE(ResidentTable::release(*X));
  EXPECT_FALSE(ResidentTable::release(*X));
  EXPECT_TRUE(ResidentTable::release(*X));
  EXPECT_EQ(X->RefCount, 0);
}

TEST(ResidentTable, InsertResetsTheCount) {
  ResidentTable T;
  auto X = resident("x", 1300, 0, 10);
  X->RefCount = 7;
  ResidentArray *R = T.insert(std::move(X));
  ASSERT_NE(R, nullptr);
  EXPECT_EQ(R->RefCount, 1);
}

TEST(ResidentTable, EraseForgetsTheArray) {
  ResidentTable T;
  EXPECT_TRUE(T.empty());
  ResidentArray *X = T.insert(resident("x", 1400, 2, 10));
  ResidentArray *Y = T.insert(resident("y", 1600, 0, 10));
  ASSERT_TRUE(X && Y);
  EXPECT_FALSE(T.empty());
  T.erase(X);
  EXPECT_EQ(T.find(Host + 1400 + 16), nullptr);
  EXPECT_EQ(T.find(Host + 1600), Y);
  EXPECT_EQ(T.size(), 1u);
  // Its bytes are free again.
  EXPECT_NE(T.insert(resident("z", 1400, 0, 10)), nullptr);
  T.erase(Y);
  EXPECT_EQ(T.size(), 1u);
}

//===----------------------------------------------------------------------===//
// Device addresses
//===----------------------------------------------------------------------===//

// The device's storage holds the elements of its span; the address that
// stands for element i is storage + (i - span begin) * element size, also
// for elements around the span (a kernel's base pointer).
TEST(ResidentArray, DeviceAddressesKeepGlobalIndices) {
  auto X = resident("x", 2000, 0, 100, 8);
  alignas(8) static char Device[4096];
  char *Storage0 = Device + 1024, *Storage1 = Device + 3072;
  X->Storage = {Storage0, Storage1, nullptr};
  X->Spans = {{0, 40}, {30, 100}, {0, 100}};
  for (int64_t I = -5; I < 105; ++I) {
    const char *H = X->HostBase + I * 8;
    EXPECT_EQ(X->deviceAddress(0, H), Storage0 + I * 8) << I;
    EXPECT_EQ(X->deviceAddress(1, H), Storage1 + (I - 30) * 8) << I;
  }
  // The base pointer a kernel gets on device 1: element 0 lies 30 elements
  // before the storage.
  EXPECT_EQ(X->deviceAddress(1, X->HostBase), Storage1 - 240);
  // Bytes inside an element keep their offset.
  EXPECT_EQ(X->deviceAddress(1, X->HostBase + 31 * 8 + 3), Storage1 + 11);
}

TEST(ResidentArray, TheHostUsesHostMemory) {
  auto X = resident("x", 2000, 0, 100, 8);
  X->Storage = {nullptr};
  X->Spans = {{0, 100}};
  for (int64_t I = 0; I < 100; I += 7)
    EXPECT_EQ(X->deviceAddress(0, X->HostBase + I * 8), X->HostBase + I * 8);
}

//===----------------------------------------------------------------------===//
// LabelledSplit
//===----------------------------------------------------------------------===//

TEST(LabelledSplit, IndicesOfEachLoopForEachDevice) {
  LabelledSplit S;
  S.Label = "loop1";
  S.Devices = {3, 1};
  S.Indices = {{IndexSet(Range{0, 5}), IndexSet(Range{5, 9})},
               {IndexSet(Range{0, 2}), IndexSet(Range{2, 3})}};
  IndexSet Out;
  ASSERT_TRUE(S.indices(0, 3, Out));
  EXPECT_EQ(Out, IndexSet(Range{0, 5}));
  ASSERT_TRUE(S.indices(0, 1, Out));
  EXPECT_EQ(Out, IndexSet(Range{5, 9}));
  ASSERT_TRUE(S.indices(1, 1, Out));
  EXPECT_EQ(Out, IndexSet(Range{2, 3}));
}

TEST(LabelledSplit, ALoopTheNestDoesNotHaveIsNotThere) {
  LabelledSplit S;
  S.Devices = {0};
  S.Indices = {{IndexSet(Range{0, 5})}};
  IndexSet Out;
  EXPECT_FALSE(S.indices(1, 0, Out));
  EXPECT_FALSE(S.indices(7, 0, Out));
}

// A device of a kernel that the data region did not use runs none of the
// loop (it is not an error: the kernel may use more devices than the
// region).
TEST(LabelledSplit, ADeviceOutsideTheRegionGetsNoIndices) {
  LabelledSplit S;
  S.Devices = {0, 1};
  S.Indices = {{IndexSet(Range{0, 5}), IndexSet(Range{5, 9})}};
  IndexSet Out(Range{100, 200});
  ASSERT_TRUE(S.indices(0, 2, Out));
  EXPECT_TRUE(Out.empty());
}

namespace {

/// Random changes, updates and refreshes of the copies of a duplicated
/// array on 1 to 5 devices, against copies that hold version numbers: a
/// change gives one copy a new version, an update from the host gives the
/// listed copies another, and a copy is stale when some copy holds a newer
/// version than it.
TEST(CopyCurrency, KnowsWhichCopiesMissAChange) {
  std::mt19937 Rng(7);
  for (int Case = 0; Case < 200; ++Case) {
    const unsigned N = 1 + Rng() % 5;
    std::vector<int> Version(N, 0);
    int Latest = 0;
    CopyCurrency C;
    auto Newest = [&] {
      return *std::max_element(Version.begin(), Version.end());
    };
    for (int Op = 0; Op < 30; ++Op) {
      std::vector<bool> Some(N);
      for (unsigned P = 0; P < N; ++P)
        Some[P] = Rng() % 2;
      switch (Rng() % 4) {
      case 0: { // a kernel wrote one copy
        unsigned P = Rng() % N;
        Version[P] = ++Latest;
        bool Changes = C.stale(P);
        for (unsigned Q = 0; Q < N; ++Q)
          Changes |= Q != P && !C.stale(Q);
        EXPECT_EQ(C.changedOn(P, N), Changes);
        break;
      }
      case 1: { // the copies used by a kernel are brought up to date first
        std::vector<unsigned> Stale = C.staleAmong(Some);
        std::vector<unsigned> Want;
        for (unsigned P = 0; P < N; ++P)
          if (Some[P] && Version[P] < Newest())
            Want.push_back(P);
        EXPECT_EQ(Stale, Want);
        const unsigned From = C.current();
        EXPECT_EQ(Version[From], Newest());
        for (unsigned P : Stale) {
          Version[P] = Version[From];
          C.refreshed(P);
        }
        break;
      }
      case 2: { // 'target update to' the listed devices, refreshed before
        if (std::find(Some.begin(), Some.end(), true) == Some.end())
          break;
        for (unsigned P : C.staleAmong(Some)) {
          Version[P] = Newest();
          C.refreshed(P);
        }
        ++Latest;
        for (unsigned P = 0; P < N; ++P)
          if (Some[P])
            Version[P] = Latest;
        C.updatedOnly(Some);
        break;
      }
      case 3: // every copy given the same values (the host's)
        Version.assign(N, ++Latest);
        C.allCurrent();
        break;
      }
      for (unsigned P = 0; P < N; ++P)
        EXPECT_EQ(C.stale(P), Version[P] < Newest())
            << "case " << Case << ", op " << Op << ", position " << P;
      EXPECT_FALSE(C.stale(C.current()));
    }
  }
}

} // namespace
