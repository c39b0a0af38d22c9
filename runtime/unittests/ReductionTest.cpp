//===-- ReductionTest.cpp - Combining reductions across devices -----------===//
//
// Type codes, identities and combiners of every reduction operator on the
// scalar types the plugin emits.
//
//===----------------------------------------------------------------------===//

#include "homp/Reduction.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <complex>
#include <cstdint>
#include <cstring>
#include <limits>
#include <optional>
#include <ostream>
#include <type_traits>
#include <vector>

using namespace homp;

namespace homp {
static void PrintTo(const ScalarType &T, std::ostream *OS) { *OS << T.name(); }
} // namespace homp

namespace {

const ReductionOp AllOps[] = {ReductionOp::Add,   ReductionOp::Sub,
                              ReductionOp::Mul,   ReductionOp::BitAnd,
                              ReductionOp::BitOr, ReductionOp::BitXor,
                              ReductionOp::And,   ReductionOp::Or,
                              ReductionOp::Max,   ReductionOp::Min};

bool isBitwise(ReductionOp Op) {
  return Op == ReductionOp::BitAnd || Op == ReductionOp::BitOr ||
         Op == ReductionOp::BitXor;
}

bool isLogical(ReductionOp Op) {
  return Op == ReductionOp::And || Op == ReductionOp::Or;
}

template <typename T> constexpr int64_t kindOf() {
  if constexpr (std::is_same_v<T, bool>)
    return 4;
  else if constexpr (std::is_floating_point_v<T>)
    return 3;
  else if constexpr (std::is_signed_v<T>)
    return 1;
  else
    return 2;
}

template <typename T> ScalarType typeOf() {
  std::optional<ScalarType> Ty =
      decodeScalarType(kindOf<T>() * 100 + sizeof(T), sizeof(T));
  EXPECT_TRUE(Ty.has_value()) << "code " << kindOf<T>() * 100 + sizeof(T);
  return Ty.value_or(ScalarType{ScalarType::Signed, 4});
}

template <typename T> T identityOf(ReductionOp Op) {
  T V;
  std::memset(&V, 0x5a, sizeof V);
  reductionIdentity(Op, typeOf<T>(), &V);
  return V;
}

template <typename T> T combined(ReductionOp Op, T Acc, T Value) {
  reductionCombine(Op, typeOf<T>(), &Acc, &Value);
  return Acc;
}

/// Combining Op's identity with X, on either side, gives X back.
template <typename T> void checkIdentity(const std::vector<T> &Values) {
  for (ReductionOp Op : AllOps) {
    if (!reductionApplies(Op, typeOf<T>()))
      continue;
    T Id = identityOf<T>(Op);
    for (T X : Values) {
      // Logical operators yield 0 or 1; the identity holds on those.
      if (isLogical(Op) && !(X == T(0) || X == T(1)))
        continue;
      EXPECT_EQ(combined<T>(Op, Id, X), X)
          << typeOf<T>().name() << " " << reductionOpName(Op) << " identity "
          << "combined with " << X;
      EXPECT_EQ(combined<T>(Op, X, Id), X)
          << typeOf<T>().name() << " " << reductionOpName(Op) << " " << X
          << " combined with identity";
    }
  }
}

} // namespace

TEST(Reduction, DecodesEveryCodeThePluginEmits) {
  struct {
    int64_t Code;
    ScalarType::KindTy Kind;
    unsigned Size;
  } Codes[] = {{101, ScalarType::Signed, 1},    {102, ScalarType::Signed, 2},
               {104, ScalarType::Signed, 4},    {108, ScalarType::Signed, 8},
               {201, ScalarType::Unsigned, 1},  {202, ScalarType::Unsigned, 2},
               {204, ScalarType::Unsigned, 4},  {208, ScalarType::Unsigned, 8},
               {304, ScalarType::Float, 4},     {308, ScalarType::Float, 8},
               {316, ScalarType::Float, 16},    {401, ScalarType::Bool, 1},
               {508, ScalarType::Complex, 8},   {516, ScalarType::Complex, 16},
               {532, ScalarType::Complex, 32},  {116, ScalarType::Signed, 16},
               {216, ScalarType::Unsigned, 16}, {302, ScalarType::Float, 2}};
  for (const auto &C : Codes) {
    std::optional<ScalarType> T = decodeScalarType(C.Code, C.Size);
    ASSERT_TRUE(T.has_value()) << C.Code;
    EXPECT_EQ(T->Kind, C.Kind) << C.Code;
    EXPECT_EQ(T->Size, C.Size) << C.Code;
  }
  static_assert(sizeof(long double) == 16, "x86-64 long double");
  EXPECT_EQ(decodeScalarType(104, 4)->name(), "int32");
  EXPECT_EQ(decodeScalarType(208, 8)->name(), "uint64");
  EXPECT_EQ(decodeScalarType(304, 4)->name(), "float");
  EXPECT_EQ(decodeScalarType(308, 8)->name(), "double");
  EXPECT_EQ(decodeScalarType(316, 16)->name(), "long double");
  EXPECT_EQ(decodeScalarType(401, 1)->name(), "bool");
  EXPECT_EQ(decodeScalarType(516, 16)->name(), "complex double");
  EXPECT_EQ(decodeScalarType(116, 16)->name(), "int128");
  EXPECT_EQ(decodeScalarType(216, 16)->name(), "uint128");
  EXPECT_EQ(decodeScalarType(302, 2)->name(), "_Float16");
}

TEST(Reduction, RejectsUnknownCodes) {
  // The size must agree with the code.
  EXPECT_EQ(decodeScalarType(104, 8), std::nullopt);
  EXPECT_EQ(decodeScalarType(308, 4), std::nullopt);
  EXPECT_EQ(decodeScalarType(401, 4), std::nullopt);
  EXPECT_EQ(decodeScalarType(316, 8), std::nullopt);
  // Unknown kinds.
  EXPECT_EQ(decodeScalarType(4, 4), std::nullopt);
  EXPECT_EQ(decodeScalarType(604, 4), std::nullopt);
  EXPECT_EQ(decodeScalarType(904, 4), std::nullopt);
  EXPECT_EQ(decodeScalarType(-104, 4), std::nullopt);
  // Sizes no C++ type of that kind has.
  EXPECT_EQ(decodeScalarType(103, 3), std::nullopt);
  EXPECT_EQ(decodeScalarType(132, 32), std::nullopt);
  EXPECT_EQ(decodeScalarType(203, 3), std::nullopt);
  EXPECT_EQ(decodeScalarType(301, 1), std::nullopt);
  EXPECT_EQ(decodeScalarType(310, 10), std::nullopt);
}

// bool has one size; the combiners read and write sizeof(bool) bytes only, so
// a 'bool' of any other size cannot be reduced.
TEST(Reduction, RejectsBoolOfOtherSizes) {
  EXPECT_EQ(decodeScalarType(402, 2), std::nullopt);
  EXPECT_EQ(decodeScalarType(404, 4), std::nullopt);
  EXPECT_EQ(decodeScalarType(408, 8), std::nullopt);
}

TEST(Reduction, BitwiseOperatorsNeedIntegers) {
  ScalarType F{ScalarType::Float, 4}, D{ScalarType::Float, 8},
      LD{ScalarType::Float, 16}, I{ScalarType::Signed, 4},
      U{ScalarType::Unsigned, 8}, B{ScalarType::Bool, 1};
  for (ReductionOp Op : AllOps) {
    EXPECT_EQ(reductionApplies(Op, F), !isBitwise(Op)) << reductionOpName(Op);
    EXPECT_EQ(reductionApplies(Op, D), !isBitwise(Op)) << reductionOpName(Op);
    EXPECT_EQ(reductionApplies(Op, LD), !isBitwise(Op)) << reductionOpName(Op);
    EXPECT_TRUE(reductionApplies(Op, I)) << reductionOpName(Op);
    EXPECT_TRUE(reductionApplies(Op, U)) << reductionOpName(Op);
    EXPECT_TRUE(reductionApplies(Op, B)) << reductionOpName(Op);
  }
}

// C's complex numbers: +, - and * only; 1 is *'s identity, 0 the others'.
TEST(Reduction, ComplexNumbersAddAndMultiply) {
  ScalarType CD = *decodeScalarType(516, 16), CF = *decodeScalarType(508, 8);
  EXPECT_EQ(decodeScalarType(504, 4), std::nullopt); // no complex of 4 bytes
  for (ReductionOp Op : AllOps) {
    bool Arith = Op == ReductionOp::Add || Op == ReductionOp::Sub ||
                 Op == ReductionOp::Mul;
    EXPECT_EQ(reductionApplies(Op, CD), Arith) << reductionOpName(Op);
    EXPECT_EQ(reductionApplies(Op, CF), Arith) << reductionOpName(Op);
  }
  using C = std::complex<double>;
  C Values[] = {C(1.5, -2), C(0, 3), C(-4, 0.25)};
  for (ReductionOp Op :
       {ReductionOp::Add, ReductionOp::Sub, ReductionOp::Mul}) {
    C Acc;
    reductionIdentity(Op, CD, &Acc);
    C Want = Op == ReductionOp::Mul ? C(1) : C(0);
    EXPECT_EQ(Acc, Want);
    for (C V : Values) {
      reductionCombine(Op, CD, &Acc, &V);
      Want = Op == ReductionOp::Mul ? Want * V : Want + V;
    }
    EXPECT_EQ(Acc, Want) << reductionOpName(Op);
  }
  std::complex<float> F(2, 1), G(0.5f, -1);
  reductionCombine(ReductionOp::Mul, CF, &F, &G);
  EXPECT_EQ(F, std::complex<float>(2, 1) * std::complex<float>(0.5f, -1));
}

TEST(Reduction, IdentityIsNeutralInt32) {
  checkIdentity<int32_t>(
      {0, 1, -1, 2, -7, 12345, INT32_MAX, INT32_MIN, 0x5a5a5a5a});
}

TEST(Reduction, IdentityIsNeutralUInt64) {
  checkIdentity<uint64_t>(
      {0, 1, 2, 77, UINT64_MAX, uint64_t(1) << 63, 0xdeadbeefcafef00dULL});
}

TEST(Reduction, IdentityIsNeutralDouble) {
  checkIdentity<double>({0.0, 1.0, -1.0, 0.5, -2.75, 1e300, -1e300,
                         std::numeric_limits<double>::max(),
                         std::numeric_limits<double>::lowest(),
                         std::numeric_limits<double>::denorm_min()});
}

TEST(Reduction, IdentityIsNeutralFloat) {
  checkIdentity<float>({0.0f, 1.0f, -1.0f, 3.5f, -1e30f,
                        std::numeric_limits<float>::max(),
                        std::numeric_limits<float>::lowest()});
}

TEST(Reduction, IdentityIsNeutralBool) { checkIdentity<bool>({false, true}); }

TEST(Reduction, IdentityIsNeutralLongDouble) {
  checkIdentity<long double>({0.0L, 1.0L, -1.0L, 0.1L, -1e4000L, 1e4000L,
                              std::numeric_limits<long double>::max(),
                              std::numeric_limits<long double>::lowest()});
}

TEST(Reduction, IdentitiesHaveTheirValues) {
  EXPECT_EQ(identityOf<int32_t>(ReductionOp::Add), 0);
  EXPECT_EQ(identityOf<int32_t>(ReductionOp::Sub), 0);
  EXPECT_EQ(identityOf<int32_t>(ReductionOp::Mul), 1);
  EXPECT_EQ(identityOf<int32_t>(ReductionOp::BitAnd), -1);
  EXPECT_EQ(identityOf<uint64_t>(ReductionOp::BitAnd), UINT64_MAX);
  EXPECT_EQ(identityOf<int32_t>(ReductionOp::BitOr), 0);
  EXPECT_EQ(identityOf<int32_t>(ReductionOp::BitXor), 0);
  EXPECT_EQ(identityOf<int32_t>(ReductionOp::And), 1);
  EXPECT_EQ(identityOf<int32_t>(ReductionOp::Or), 0);
  EXPECT_EQ(identityOf<int32_t>(ReductionOp::Max), INT32_MIN);
  EXPECT_EQ(identityOf<int32_t>(ReductionOp::Min), INT32_MAX);
  EXPECT_EQ(identityOf<uint64_t>(ReductionOp::Max), 0u);
  EXPECT_EQ(identityOf<uint64_t>(ReductionOp::Min), UINT64_MAX);
  EXPECT_EQ(identityOf<double>(ReductionOp::Max),
            std::numeric_limits<double>::lowest());
  EXPECT_EQ(identityOf<double>(ReductionOp::Min),
            std::numeric_limits<double>::max());
  EXPECT_EQ(identityOf<double>(ReductionOp::Mul), 1.0);
  EXPECT_EQ(identityOf<float>(ReductionOp::Add), 0.0f);
  EXPECT_EQ(identityOf<long double>(ReductionOp::Mul), 1.0L);
  EXPECT_EQ(identityOf<bool>(ReductionOp::And), true);
  EXPECT_EQ(identityOf<bool>(ReductionOp::Or), false);
  EXPECT_EQ(identityOf<bool>(ReductionOp::BitAnd), true);
}

TEST(Reduction, CombinesConcreteValues) {
  // + and - both add the partial results.
  EXPECT_EQ(combined<int32_t>(ReductionOp::Add, 5, -8), -3);
  EXPECT_EQ(combined<int32_t>(ReductionOp::Sub, 5, -8), -3);
  EXPECT_EQ(combined<double>(ReductionOp::Sub, 1.5, 2.25), 3.75);
  EXPECT_EQ(combined<uint64_t>(ReductionOp::Add, UINT64_MAX, 2), 1u);
  // * .
  EXPECT_EQ(combined<int32_t>(ReductionOp::Mul, -3, 7), -21);
  EXPECT_EQ(combined<double>(ReductionOp::Mul, -0.5, 6.0), -3.0);
  EXPECT_EQ(combined<long double>(ReductionOp::Mul, 1.5L, 1.5L), 2.25L);
  EXPECT_EQ(combined<uint64_t>(ReductionOp::Mul, uint64_t(1) << 40, 1 << 20),
            uint64_t(1) << 60);
  // max / min with negative numbers.
  EXPECT_EQ(combined<int32_t>(ReductionOp::Max, -5, -3), -3);
  EXPECT_EQ(combined<int32_t>(ReductionOp::Max, -3, -5), -3);
  EXPECT_EQ(combined<int32_t>(ReductionOp::Min, -5, -3), -5);
  EXPECT_EQ(combined<int32_t>(ReductionOp::Min, -3, -5), -5);
  EXPECT_EQ(combined<int32_t>(ReductionOp::Max, INT32_MIN, -1), -1);
  EXPECT_EQ(combined<double>(ReductionOp::Max, -2.5, -7.0), -2.5);
  EXPECT_EQ(combined<double>(ReductionOp::Min, -2.5, -7.0), -7.0);
  EXPECT_EQ(combined<float>(ReductionOp::Min, -0.25f, 3.0f), -0.25f);
  EXPECT_EQ(combined<long double>(ReductionOp::Max, -1e4000L, -2e4000L),
            -1e4000L);
  EXPECT_EQ(combined<uint64_t>(ReductionOp::Max, 3, UINT64_MAX), UINT64_MAX);
  EXPECT_EQ(combined<uint64_t>(ReductionOp::Min, 3, UINT64_MAX), 3u);
  // Bitwise, starting from the identity.
  int32_t Acc = identityOf<int32_t>(ReductionOp::BitAnd);
  for (int32_t V : {0x7f, 0x3c, 0xf4})
    Acc = combined<int32_t>(ReductionOp::BitAnd, Acc, V);
  EXPECT_EQ(Acc, 0x7f & 0x3c & 0xf4);
  EXPECT_EQ(combined<int32_t>(ReductionOp::BitAnd, -1, 0x1234), 0x1234);
  EXPECT_EQ(combined<int32_t>(ReductionOp::BitOr, 0x0f, 0x30), 0x3f);
  EXPECT_EQ(combined<int32_t>(ReductionOp::BitXor, 0x0f, 0x3c), 0x33);
  EXPECT_EQ(combined<uint64_t>(ReductionOp::BitAnd, UINT64_MAX,
                               0x8000000000000001ULL),
            0x8000000000000001ULL);
  EXPECT_EQ(combined<uint64_t>(ReductionOp::BitXor, UINT64_MAX, 1),
            UINT64_MAX - 1);
  // Logical operators on numbers yield 0 or 1.
  EXPECT_EQ(combined<int32_t>(ReductionOp::And, 5, -2), 1);
  EXPECT_EQ(combined<int32_t>(ReductionOp::And, 5, 0), 0);
  EXPECT_EQ(combined<int32_t>(ReductionOp::Or, 0, 0), 0);
  EXPECT_EQ(combined<int32_t>(ReductionOp::Or, 0, 7), 1);
  EXPECT_EQ(combined<double>(ReductionOp::And, 0.5, 2.0), 1.0);
  EXPECT_EQ(combined<double>(ReductionOp::Or, 0.0, 0.0), 0.0);
  // bool.
  EXPECT_EQ(combined<bool>(ReductionOp::And, true, false), false);
  EXPECT_EQ(combined<bool>(ReductionOp::And, true, true), true);
  EXPECT_EQ(combined<bool>(ReductionOp::Or, false, true), true);
  EXPECT_EQ(combined<bool>(ReductionOp::Or, false, false), false);
  EXPECT_EQ(combined<bool>(ReductionOp::BitXor, true, true), false);
  EXPECT_EQ(combined<bool>(ReductionOp::Max, false, true), true);
  EXPECT_EQ(combined<bool>(ReductionOp::Min, false, true), false);
}

// Devices' partial results combined in order give the serial result.
TEST(Reduction, PartialResultsCombineToTheSerialResult) {
  std::vector<int64_t> Data;
  for (int64_t I = 1; I <= 40; ++I)
    Data.push_back((I * 37) % 23 - 11);
  ScalarType T = *decodeScalarType(108, 8);
  for (ReductionOp Op : {ReductionOp::Add, ReductionOp::Max, ReductionOp::Min,
                         ReductionOp::BitXor, ReductionOp::BitOr}) {
    int64_t Serial = 0;
    reductionIdentity(Op, T, &Serial);
    for (int64_t V : Data)
      reductionCombine(Op, T, &Serial, &V);
    int64_t Total;
    reductionIdentity(Op, T, &Total);
    for (size_t Begin = 0; Begin < Data.size(); Begin += 13) {
      int64_t Part;
      reductionIdentity(Op, T, &Part);
      for (size_t I = Begin; I < std::min(Data.size(), Begin + 13); ++I)
        reductionCombine(Op, T, &Part, &Data[I]);
      reductionCombine(Op, T, &Total, &Part);
    }
    EXPECT_EQ(Total, Serial) << reductionOpName(Op);
  }
}

// __int128, unsigned __int128 and _Float16 (which gtest cannot print, and
// std::numeric_limits may not know): identities, every operator that
// applies, and partial results combining to the serial result.
TEST(Reduction, WideIntegersAndHalfPrecision) {
  using I128 = __int128;
  using U128 = unsigned __int128;
  ScalarType S = *decodeScalarType(116, 16), U = *decodeScalarType(216, 16),
             H = *decodeScalarType(302, 2);
  for (ReductionOp Op : AllOps) {
    EXPECT_TRUE(reductionApplies(Op, S)) << reductionOpName(Op);
    EXPECT_TRUE(reductionApplies(Op, U)) << reductionOpName(Op);
    EXPECT_EQ(reductionApplies(Op, H), !isBitwise(Op)) << reductionOpName(Op);
  }
  auto Identity = [](ReductionOp Op, ScalarType T, auto Tag) {
    decltype(Tag) V;
    std::memset(&V, 0x5a, sizeof V);
    reductionIdentity(Op, T, &V);
    return V;
  };
  const I128 Min128 = static_cast<I128>(static_cast<U128>(1) << 127);
  const I128 Max128 = ~Min128;
  EXPECT_TRUE(Identity(ReductionOp::Max, S, I128()) == Min128);
  EXPECT_TRUE(Identity(ReductionOp::Min, S, I128()) == Max128);
  EXPECT_TRUE(Identity(ReductionOp::BitAnd, S, I128()) == -1);
  EXPECT_TRUE(Identity(ReductionOp::Mul, S, I128()) == 1);
  EXPECT_TRUE(Identity(ReductionOp::Max, U, U128()) == 0);
  EXPECT_TRUE(Identity(ReductionOp::Min, U, U128()) == ~static_cast<U128>(0));
  EXPECT_TRUE(Identity(ReductionOp::BitAnd, U, U128()) ==
              ~static_cast<U128>(0));
  EXPECT_EQ(static_cast<float>(Identity(ReductionOp::Max, H, _Float16())),
            -65504.0f);
  EXPECT_EQ(static_cast<float>(Identity(ReductionOp::Min, H, _Float16())),
            65504.0f);
  EXPECT_EQ(static_cast<float>(Identity(ReductionOp::Mul, H, _Float16())), 1);

  // Values past 64 bits: a sum that carries, and products, maxima and
  // bits the high half decides.
  std::vector<I128> Data;
  for (int I = 1; I <= 40; ++I)
    // (Shifted unsigned: a negative value's left shift is undefined.)
    Data.push_back(
        static_cast<I128>(
            static_cast<U128>(static_cast<I128>(I * 7919 % 97 - 48)) << 70) +
        I * 3);
  for (ReductionOp Op : {ReductionOp::Add, ReductionOp::Max, ReductionOp::Min,
                         ReductionOp::BitXor, ReductionOp::BitOr,
                         ReductionOp::BitAnd, ReductionOp::Or}) {
    I128 Serial = Identity(Op, S, I128());
    for (I128 V : Data)
      reductionCombine(Op, S, &Serial, &V);
    I128 Total = Identity(Op, S, I128());
    for (size_t Begin = 0; Begin < Data.size(); Begin += 13) {
      I128 Part = Identity(Op, S, I128());
      for (size_t I = Begin; I < std::min(Data.size(), Begin + 13); ++I)
        reductionCombine(Op, S, &Part, &Data[I]);
      reductionCombine(Op, S, &Total, &Part);
    }
    EXPECT_TRUE(Total == Serial) << reductionOpName(Op);
  }
  I128 Big = static_cast<I128>(1) << 100, Two = 2;
  reductionCombine(ReductionOp::Mul, S, &Big, &Two);
  EXPECT_TRUE(Big == static_cast<I128>(1) << 101);
  I128 Sum = static_cast<I128>(UINT64_MAX), One = 1;
  reductionCombine(ReductionOp::Add, S, &Sum, &One);
  EXPECT_TRUE(Sum == static_cast<I128>(1) << 64); // carried into the high half
  U128 Wrap = ~static_cast<U128>(0), Three = 3;
  reductionCombine(ReductionOp::Add, U, &Wrap, &Three);
  EXPECT_TRUE(Wrap == 2);
  U128 High = static_cast<U128>(5) << 120, Low = 7;
  reductionCombine(ReductionOp::Max, U, &High, &Low);
  EXPECT_TRUE(High == static_cast<U128>(5) << 120);

  _Float16 A = static_cast<_Float16>(-2.5f), B = static_cast<_Float16>(4.0f);
  _Float16 Acc = A;
  reductionCombine(ReductionOp::Max, H, &Acc, &B);
  EXPECT_EQ(static_cast<float>(Acc), 4.0f);
  reductionCombine(ReductionOp::Min, H, &Acc, &A);
  EXPECT_EQ(static_cast<float>(Acc), -2.5f);
  reductionCombine(ReductionOp::Add, H, &Acc, &B);
  EXPECT_EQ(static_cast<float>(Acc), 1.5f);
  reductionCombine(ReductionOp::Mul, H, &Acc, &B);
  EXPECT_EQ(static_cast<float>(Acc), 6.0f);
}

TEST(Reduction, OnlyTheTypesBytesAreWritten) {
  unsigned char Buf[16];
  std::memset(Buf, 0xee, sizeof Buf);
  reductionIdentity(ReductionOp::Add, *decodeScalarType(102, 2), Buf);
  EXPECT_EQ(Buf[0], 0);
  EXPECT_EQ(Buf[1], 0);
  for (unsigned I = 2; I < sizeof Buf; ++I)
    EXPECT_EQ(Buf[I], 0xee) << I;
}
