//===-- TransportTest.cpp - Copies planned and run on a transport ---------===//
//
// Box copies of arrays of 1 to 3 dimensions, planned and run on the memory
// transport, checked element by element against the box they name; the
// memory transport's own checks (a copy out of its device's storage, one
// never waited for, a release of what was never allocated); and a batch's
// failures.
//
//===----------------------------------------------------------------------===//

#include "homp/Transport.h"

#include "Reference.h"

#include <gtest/gtest.h>

#include <cstring>
#include <functional>
#include <random>
#include <vector>

using namespace homp;

namespace {

ArrayShape shapeOf(std::vector<int64_t> Extents) {
  ArrayShape S;
  S.Rank = static_cast<unsigned>(Extents.size());
  S.ElementSize = 8;
  S.Section.Rank = S.Rank;
  for (unsigned D = 0; D < S.Rank; ++D) {
    S.Section.Dims[D] = {0, Extents[D]};
    if (D > 0)
      S.Extent[D] = Extents[D];
  }
  return S;
}

/// Every element of B, in order.
std::vector<Index> cellsOf(const Box &B) {
  std::vector<Index> Out;
  Index I{};
  std::function<void(unsigned)> Walk = [&](unsigned D) {
    if (D == B.Rank) {
      Out.push_back(I);
      return;
    }
    for (I[D] = B.Dims[D].Begin; I[D] < B.Dims[D].End; ++I[D])
      Walk(D + 1);
  };
  Walk(0);
  return Out;
}

Box randomBox(std::mt19937 &Rng, const ArrayShape &S) {
  Box B;
  B.Rank = S.Rank;
  for (unsigned D = 0; D < S.Rank; ++D) {
    int64_t N = S.Section.Dims[D].End;
    int64_t A = std::uniform_int_distribution<int64_t>(0, N - 1)(Rng);
    int64_t E = std::uniform_int_distribution<int64_t>(A + 1, N)(Rng);
    // Whole rows now and then: the copy then folds dimensions.
    if (D > 0 && Rng() % 3 == 0)
      A = 0, E = N;
    B.Dims[D] = {A, E};
  }
  return B;
}

} // namespace

TEST(Transport, BoxCopiesMoveExactlyTheirBox) {
  std::mt19937 Rng(7);
  for (std::vector<int64_t> Ext :
       {std::vector<int64_t>{37}, {9, 11}, {5, 4, 7}, {3, 1, 6}}) {
    const ArrayShape S = shapeOf(Ext);
    const int64_t N = S.span(ProductSet::of(S.Section)).End;
    for (int Trial = 0; Trial < 40; ++Trial) {
      MemoryTransport T(2);
      std::vector<int64_t> Host(static_cast<size_t>(N));
      for (int64_t I = 0; I < N; ++I)
        Host[static_cast<size_t>(I)] = 1000 + I;
      const Box B = randomBox(Rng, S);
      Storage St;
      std::string Error;
      const Range Span = S.span(ProductSet::of(B));
      ASSERT_TRUE(allocateStorage(T, 1, S, Span, St, Error)) << Error;
      int64_t Bytes = 0;
      char *Base = reinterpret_cast<char *>(Host.data());
      ASSERT_TRUE(copyElements(T, Direction::ToDevice, S, Base, St,
                               ProductSet::of(B), Bytes));
      EXPECT_EQ(Bytes, B.volume() * 8);
      // On the device: the box's elements, the rest of the span untouched.
      const int64_t *Dev = static_cast<const int64_t *>(St.Ptr);
      std::vector<bool> InBox(static_cast<size_t>(Span.size()));
      for (const Index &I : cellsOf(B))
        InBox[static_cast<size_t>(S.offset(I) - Span.Begin)] = true;
      for (int64_t O = Span.Begin; O < Span.End; ++O) {
        int64_t Got = Dev[O - Span.Begin];
        if (InBox[static_cast<size_t>(O - Span.Begin)])
          EXPECT_EQ(Got, 1000 + O) << B.str() << " offset " << O;
        else
          EXPECT_EQ(static_cast<uint64_t>(Got), 0xA5A5A5A5A5A5A5A5u)
              << B.str() << " offset " << O;
      }
      // Back, into a host array of zeros: the box and nothing else.
      std::vector<int64_t> Back(static_cast<size_t>(N), 0);
      ASSERT_TRUE(copyElements(T, Direction::FromDevice, S,
                               reinterpret_cast<char *>(Back.data()), St,
                               ProductSet::of(B), Bytes));
      for (int64_t O = 0; O < N; ++O) {
        bool In = O >= Span.Begin && O < Span.End &&
                  InBox[static_cast<size_t>(O - Span.Begin)];
        EXPECT_EQ(Back[static_cast<size_t>(O)], In ? 1000 + O : 0);
      }
      freeStorage(T, St);
      EXPECT_TRUE(T.errors().empty()) << T.errors().front();
      EXPECT_EQ(T.unwaited(), 0u);
      EXPECT_EQ(T.heldBytes(1), 0u);
    }
  }
}

TEST(Transport, PlacedStorageStartsAtItsOffsetInAPage) {
  MemoryTransport T(1);
  const ArrayShape S = shapeOf({1000});
  for (int64_t Offset : {0, 64, 4032}) {
    Storage St;
    std::string Error;
    ASSERT_TRUE(allocateStorage(T, 0, S, {10, 500}, St, Error, Offset));
    EXPECT_EQ(reinterpret_cast<uintptr_t>(St.Ptr) % 4096,
              static_cast<uintptr_t>(Offset));
    EXPECT_NE(St.Allocation, nullptr);
    // The storage lies within what was allocated.
    EXPECT_GE(static_cast<char *>(St.Ptr), St.Allocation);
    EXPECT_LE(static_cast<char *>(St.Ptr) + 490 * 8,
              static_cast<char *>(St.Allocation) + St.Bytes);
    freeStorage(T, St);
  }
  EXPECT_TRUE(T.errors().empty());
  EXPECT_EQ(T.heldBytes(0), 0u);
}

TEST(Transport, MemoryTransportSeesCopiesThatWouldBeWrong) {
  MemoryTransport T(2);
  size_t Bytes = 64;
  char *D0 = static_cast<char *>(T.allocate(0, Bytes, false));
  char Host[64] = {};
  // Past the end of device 0's block; into it, but named device 1's.
  EXPECT_TRUE(T.copy(bytesCopy(D0 + 8, 0, Host, T.host(), 64)).Failed);
  EXPECT_TRUE(T.copy(bytesCopy(D0, 1, Host, T.host(), 8)).Failed);
  EXPECT_EQ(T.errors().size(), 2u);
  // A copy runs when it is waited for, once.
  std::memset(Host, 7, sizeof Host);
  Ticket K = T.copy(bytesCopy(D0, 0, Host, T.host(), 64));
  EXPECT_FALSE(K.Failed);
  EXPECT_EQ(static_cast<unsigned char>(D0[0]), MemoryTransport::Fill);
  EXPECT_EQ(T.unwaited(), 1u);
  EXPECT_TRUE(T.wait(K));
  EXPECT_EQ(D0[63], 7);
  EXPECT_EQ(T.unwaited(), 0u);
  EXPECT_FALSE(T.wait(K));
  EXPECT_EQ(T.errors().size(), 3u);
  // Released with the wrong size, or never allocated.
  T.release(0, D0, 32, false);
  T.release(1, Host, 64, false);
  EXPECT_EQ(T.errors().size(), 5u);
  T.release(0, D0, 64, false);
  EXPECT_EQ(T.errors().size(), 5u);
  EXPECT_EQ(T.allocate(2, Bytes, false), nullptr); // device 2 is the host
}

TEST(Transport, BatchesWaitForEveryCopyAndNameTheFirstThatFailed) {
  MemoryTransport T(1);
  size_t Bytes = 80;
  char *D = static_cast<char *>(T.allocate(0, Bytes, false));
  char Host[80];
  for (int I = 0; I < 80; ++I)
    Host[I] = static_cast<char>(I);
  {
    CopyBatch B(T);
    for (int I = 0; I < 10; ++I)
      B.copy(bytesCopy(D + 8 * I, 0, Host + 8 * I, T.host(), 8));
    EXPECT_EQ(T.unwaited(), 10u);
    EXPECT_TRUE(B.wait());
    EXPECT_FALSE(B.firstFailed());
  }
  EXPECT_EQ(std::memcmp(D, Host, 80), 0);
  // The fourth fails (10 succeeded before): every copy is still waited
  // for.
  T.FailAfter = 13;
  CopyBatch B(T);
  for (int I = 0; I < 10; ++I)
    B.copy(bytesCopy(Host + 8 * I, T.host(), D + 8 * I, 0, 8));
  EXPECT_FALSE(B.wait());
  ASSERT_TRUE(B.firstFailed());
  EXPECT_EQ(*B.firstFailed(), 3u);
  EXPECT_EQ(T.unwaited(), 0u);
  // A copy that fails as it starts is the first to fail when it came
  // before those that failed when waited for.
  T.FailAfter = 0;
  CopyBatch C(T);
  C.copy(bytesCopy(D, 0, Host, T.host(), 8));
  C.copy(bytesCopy(D + 80, 0, Host, T.host(), 8));
  EXPECT_TRUE(C.failedYet());
  EXPECT_FALSE(C.wait());
  EXPECT_EQ(*C.firstFailed(), 0u);
  T.release(0, D, 80, false);
}
