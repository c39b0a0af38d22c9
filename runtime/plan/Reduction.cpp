//===-- Reduction.cpp - Combining reductions across devices ---------------===//

#include "homp/Reduction.h"

#include <complex>
#include <cstring>
#include <limits>
#include <type_traits>

namespace homp {

namespace {

template <typename T> T load(const void *P) {
  T V;
  std::memcpy(&V, P, sizeof(T));
  return V;
}

template <typename T> void store(void *P, T V) {
  std::memcpy(P, &V, sizeof(T));
}

template <typename T> struct IsComplex : std::false_type {};
template <typename T> struct IsComplex<std::complex<T>> : std::true_type {};

// The 16-byte integers and _Float16 are extensions: std::numeric_limits and
// the type traits know them only in some language modes, or not at all.
template <typename T>
constexpr bool IsWideInteger =
    std::is_same_v<T, __int128> || std::is_same_v<T, unsigned __int128>;
template <typename T>
constexpr bool IsInteger = std::is_integral_v<T> || IsWideInteger<T>;

/// The least and the greatest value of T (max's and min's identities).
template <typename T> T lowest() {
  if constexpr (std::is_same_v<T, __int128>)
    return static_cast<__int128>(static_cast<unsigned __int128>(1) << 127);
  else if constexpr (std::is_same_v<T, unsigned __int128>)
    return 0;
  else if constexpr (std::is_same_v<T, _Float16>)
    return static_cast<_Float16>(-65504.0f); // the largest finite, negated
  else
    return std::numeric_limits<T>::lowest();
}
template <typename T> T greatest() {
  if constexpr (IsWideInteger<T>)
    return static_cast<T>(~lowest<T>());
  else if constexpr (std::is_same_v<T, _Float16>)
    return static_cast<_Float16>(65504.0f);
  else
    return std::numeric_limits<T>::max();
}

template <typename T> T identity(ReductionOp Op) {
  if constexpr (IsComplex<T>::value) {
    return T(Op == ReductionOp::Mul ? 1 : 0); // only +, - and * apply
  } else {
    switch (Op) {
    case ReductionOp::Add:
    case ReductionOp::Sub:
    case ReductionOp::BitOr:
    case ReductionOp::BitXor:
    case ReductionOp::Or:
      return T(0);
    case ReductionOp::Mul:
    case ReductionOp::And:
      return T(1);
    case ReductionOp::BitAnd:
      if constexpr (std::is_same_v<T, bool>)
        return true;
      else if constexpr (IsInteger<T>)
        return static_cast<T>(~T(0));
      return T(0);
    case ReductionOp::Max:
      return lowest<T>();
    case ReductionOp::Min:
      return greatest<T>();
    }
    return T(0);
  }
}

template <typename T> T combine(ReductionOp Op, T A, T B) {
  if constexpr (IsComplex<T>::value) {
    return Op == ReductionOp::Mul ? A * B : A + B; // only +, - and * apply
  } else {
    switch (Op) {
    case ReductionOp::Add:
    case ReductionOp::Sub: // OpenMP's '-' reduction combines with '+'
      return static_cast<T>(A + B);
    case ReductionOp::Mul:
      return static_cast<T>(A * B);
    case ReductionOp::And:
      return static_cast<T>(A && B);
    case ReductionOp::Or:
      return static_cast<T>(A || B);
    case ReductionOp::Max:
      return A < B ? B : A;
    case ReductionOp::Min:
      return B < A ? B : A;
    case ReductionOp::BitAnd:
    case ReductionOp::BitOr:
    case ReductionOp::BitXor:
      if constexpr (IsInteger<T>) {
        if (Op == ReductionOp::BitAnd)
          return static_cast<T>(A & B);
        if (Op == ReductionOp::BitOr)
          return static_cast<T>(A | B);
        return static_cast<T>(A ^ B);
      }
      return A;
    }
    return A;
  }
}

/// Calls F with a value of the C++ type T describes.
template <typename F> void withType(ScalarType T, F &&Fn) {
  switch (T.Kind) {
  case ScalarType::Signed:
    switch (T.Size) {
    case 1:
      return Fn(int8_t());
    case 2:
      return Fn(int16_t());
    case 4:
      return Fn(int32_t());
    case 8:
      return Fn(int64_t());
    case 16:
      return Fn(static_cast<__int128>(0));
    }
    break;
  case ScalarType::Unsigned:
    switch (T.Size) {
    case 1:
      return Fn(uint8_t());
    case 2:
      return Fn(uint16_t());
    case 4:
      return Fn(uint32_t());
    case 8:
      return Fn(uint64_t());
    case 16:
      return Fn(static_cast<unsigned __int128>(0));
    }
    break;
  case ScalarType::Float:
    switch (T.Size) {
    case sizeof(_Float16):
      return Fn(static_cast<_Float16>(0));
    case sizeof(float):
      return Fn(float());
    case sizeof(double):
      return Fn(double());
    case sizeof(long double):
      return Fn((long double)0);
    }
    break;
  case ScalarType::Bool:
    if (T.Size == sizeof(bool))
      return Fn(bool());
    break;
  case ScalarType::Complex:
    switch (T.Size) {
    case sizeof(std::complex<float>):
      return Fn(std::complex<float>());
    case sizeof(std::complex<double>):
      return Fn(std::complex<double>());
    case sizeof(std::complex<long double>):
      return Fn(std::complex<long double>());
    }
    break;
  }
}

} // namespace

std::string ScalarType::name() const {
  switch (Kind) {
  case Signed:
    return "int" + std::to_string(Size * 8);
  case Unsigned:
    return "uint" + std::to_string(Size * 8);
  case Float:
    return Size == 2   ? "_Float16"
           : Size == 4 ? "float"
           : Size == 8 ? "double"
                       : "long double";
  case Bool:
    return "bool";
  case Complex:
    return Size == 8    ? "complex float"
           : Size == 16 ? "complex double"
                        : "complex long double";
  }
  return "?";
}

std::optional<ScalarType> decodeScalarType(int64_t Code, int64_t Size) {
  int64_t Kind = Code / 100, CodeSize = Code % 100;
  if (Kind < abi::KindSigned || Kind > abi::KindComplex || CodeSize != Size)
    return std::nullopt;
  ScalarType T{static_cast<ScalarType::KindTy>(Kind),
               static_cast<unsigned>(Size)};
  bool Known = false;
  withType(T, [&](auto) { Known = true; });
  if (!Known)
    return std::nullopt;
  return T;
}

bool reductionApplies(ReductionOp Op, ScalarType T) {
  bool Bitwise = Op == ReductionOp::BitAnd || Op == ReductionOp::BitOr ||
                 Op == ReductionOp::BitXor;
  if (T.Kind == ScalarType::Complex)
    return Op == ReductionOp::Add || Op == ReductionOp::Sub ||
           Op == ReductionOp::Mul;
  return !(Bitwise && T.Kind == ScalarType::Float);
}

void reductionIdentity(ReductionOp Op, ScalarType T, void *Dest) {
  withType(T, [&](auto Tag) {
    using V = decltype(Tag);
    store<V>(Dest, identity<V>(Op));
  });
}

void reductionCombine(ReductionOp Op, ScalarType T, void *Acc,
                      const void *Value) {
  withType(T, [&](auto Tag) {
    using V = decltype(Tag);
    store<V>(Acc, combine<V>(Op, load<V>(Acc), load<V>(Value)));
  });
}

} // namespace homp
