//===-- Clauses.cpp - Parsing homp's extension clauses --------------------===//

#include "Clauses.h"

#include "clang/Basic/DiagnosticSema.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"

#include <numeric>

using namespace clang;
using namespace llvm;

namespace homp {

static bool isStar(ArrayRef<Token> Toks, TokenRange R) {
  return R.size() == 1 && Toks[R.Begin].is(tok::star);
}

static StringRef literalText(const Token &T) {
  if (!T.isLiteral() || !T.getLiteralData())
    return {};
  return StringRef(T.getLiteralData(), T.getLength());
}

std::optional<int64_t> integerLiteral(const Token &T) {
  if (T.isNot(tok::numeric_constant))
    return std::nullopt;
  std::string Text = literalText(T).rtrim("uUlLzZ").str();
  llvm::erase(Text, '\''); // C++14 digit separators: 1'000
  StringRef Digits = Text;
  int64_t V;
  if (Digits.empty() || Digits.getAsInteger(0, V))
    return std::nullopt;
  return V;
}

namespace {

/// A value of an integer constant expression and its C type (LP64: 'int'
/// has 32 bits, 'long' and 'long long' 64). The value is exact: signed
/// arithmetic is done in 64 bits whatever the type, while an unsigned type
/// marks where C would wrap, which the folder refuses instead.
struct Constant {
  int64_t V = 0;
  bool Unsigned = false;
  unsigned Bits = 32;

  /// Whether V is a value of the type: an unsigned type wraps the others.
  bool fits() const {
    return !Unsigned || (V >= 0 && (Bits == 64 || V <= int64_t(UINT32_MAX)));
  }
  /// This value converted to T's type, if it is unchanged by that.
  std::optional<Constant> as(const Constant &T) const {
    Constant C{V, T.Unsigned, T.Bits};
    return C.fits() ? std::optional<Constant>(C) : std::nullopt;
  }
};

} // namespace

/// The type of an integer literal token (C11 6.4.4.1): the first of int,
/// long, long long its value fits, with the unsigned types between them for
/// hexadecimal and octal literals or only those with a 'u' suffix.
static std::optional<Constant> typedLiteral(const Token &T) {
  std::optional<int64_t> V = integerLiteral(T);
  if (!V)
    return std::nullopt;
  StringRef Text = literalText(T);
  StringRef Suffix = Text.substr(Text.rtrim("uUlLzZ").size());
  bool Decimal = Text.size() == 1 || Text[0] != '0';
  Constant C;
  C.V = *V;
  C.Unsigned = Suffix.contains_insensitive('u');
  C.Bits = Suffix.contains_insensitive('l') || Suffix.contains_insensitive('z')
               ? 64
               : 32;
  if (C.Bits == 32 && !C.Unsigned && *V > INT32_MAX) {
    if (!Decimal && *V <= int64_t(UINT32_MAX))
      C.Unsigned = true;
    else
      C.Bits = 64;
  }
  if (!C.fits())
    C.Bits = 64;
  return C;
}

namespace {

/// Evaluates an integer constant expression by precedence climbing.
class ConstantFolder {
public:
  ConstantFolder(ArrayRef<Token> Toks, TokenRange R)
      : Toks(Toks), I(R.Begin), End(R.End) {}

  std::optional<int64_t> whole() {
    std::optional<Constant> C = binary(0);
    if (!C || I != End)
      return std::nullopt;
    return C->V;
  }

private:
  static int precedence(const Token &T) {
    if (T.isOneOf(tok::lessless, tok::greatergreater))
      return 1;
    if (T.isOneOf(tok::plus, tok::minus))
      return 2;
    if (T.isOneOf(tok::star, tok::slash, tok::percent))
      return 3;
    return 0;
  }

  std::optional<Constant> binary(int MinPrecedence) {
    std::optional<Constant> L = unary();
    while (L && I < End && precedence(Toks[I]) > MinPrecedence) {
      tok::TokenKind Op = Toks[I++].getKind();
      std::optional<Constant> R = binary(precedence(Toks[I - 1]));
      if (!R)
        return std::nullopt;
      L = Op == tok::lessless || Op == tok::greatergreater
              ? shift(Op, *L, R->V)
              : arithmetic(Op, *L, *R);
    }
    return L;
  }

  /// L Op R in the type of L, which is that of the result (C11 6.5.7).
  static std::optional<Constant> shift(tok::TokenKind Op, Constant L,
                                       int64_t Count) {
    if (Count < 0 || Count >= (L.Unsigned ? std::min(L.Bits, 63u) : 63))
      return std::nullopt;
    if (Op == tok::greatergreater) {
      L.V >>= Count;
      return L;
    }
    // Shifting a negative value left is undefined.
    if (L.V < 0 || L.V > (INT64_MAX >> Count))
      return std::nullopt;
    L.V <<= Count;
    return L.fits() ? std::optional<Constant>(L) : std::nullopt;
  }

  /// L Op R in their common type (C11 6.3.1.8): the wider one's, or the
  /// unsigned one's of two as wide.
  static std::optional<Constant> arithmetic(tok::TokenKind Op, Constant L,
                                            Constant R) {
    Constant Type;
    Type.Bits = std::max(L.Bits, R.Bits);
    Type.Unsigned = L.Bits == R.Bits  ? L.Unsigned || R.Unsigned
                    : L.Bits > R.Bits ? L.Unsigned
                                      : R.Unsigned;
    std::optional<Constant> A = L.as(Type), B = R.as(Type);
    if (!A || !B)
      return std::nullopt;
    int64_t X = A->V, Y = B->V;
    Constant Out = Type;
    switch (Op) {
    case tok::plus:
      if (__builtin_add_overflow(X, Y, &Out.V))
        return std::nullopt;
      break;
    case tok::minus:
      if (__builtin_sub_overflow(X, Y, &Out.V))
        return std::nullopt;
      break;
    case tok::star:
      if (__builtin_mul_overflow(X, Y, &Out.V))
        return std::nullopt;
      break;
    case tok::slash:
    default:
      if (Y == 0 || (X == INT64_MIN && Y == -1))
        return std::nullopt;
      Out.V = Op == tok::slash ? X / Y : X % Y;
    }
    return Out.fits() ? std::optional<Constant>(Out) : std::nullopt;
  }

  std::optional<Constant> unary() {
    if (I == End)
      return std::nullopt;
    const Token &T = Toks[I++];
    if (T.isOneOf(tok::plus, tok::minus)) {
      std::optional<Constant> C = unary();
      if (!C || C->V == INT64_MIN)
        return std::nullopt;
      if (T.is(tok::minus))
        C->V = -C->V;
      return C->fits() ? C : std::nullopt; // -1u wraps
    }
    if (T.is(tok::l_paren)) {
      std::optional<Constant> C = binary(0);
      if (!C || I == End || Toks[I++].isNot(tok::r_paren))
        return std::nullopt;
      return C;
    }
    return typedLiteral(T);
  }

  ArrayRef<Token> Toks;
  unsigned I, End;
};

} // namespace

std::optional<int64_t> integerConstant(ArrayRef<Token> Toks, TokenRange R) {
  return ConstantFolder(Toks, R).whole();
}

/// A positive constant: a decimal literal, 'a / b' of integer literals, or
/// an integer constant expression ('(5u * 2u)', a macro expanding to one).
static std::optional<std::pair<int64_t, int64_t>>
rationalConstant(ArrayRef<Token> Toks, TokenRange R) {
  auto Reduce = [](int64_t N, int64_t D) -> std::optional<std::pair<int64_t, int64_t>> {
    if (N <= 0 || D <= 0)
      return std::nullopt;
    int64_t G = std::gcd(N, D);
    return std::make_pair(N / G, D / G);
  };
  if (R.size() == 3 && Toks[R.Begin + 1].is(tok::slash)) {
    std::optional<int64_t> N = integerLiteral(Toks[R.Begin]);
    std::optional<int64_t> D = integerLiteral(Toks[R.Begin + 2]);
    if (N && D)
      return Reduce(*N, *D);
    return std::nullopt;
  }
  if (R.size() != 1) {
    if (std::optional<int64_t> N = integerConstant(Toks, R))
      return Reduce(*N, 1);
    return std::nullopt;
  }
  if (std::optional<int64_t> N = integerLiteral(Toks[R.Begin]))
    return Reduce(*N, 1);
  StringRef Text = literalText(Toks[R.Begin]).rtrim("fFlL");
  if (Toks[R.Begin].isNot(tok::numeric_constant) || Text.contains_insensitive('e') ||
      Text.contains_insensitive('x'))
    return std::nullopt;
  auto [Whole, Frac] = Text.split('.');
  if (Frac.size() > 9)
    return std::nullopt;
  int64_t W = 0, F = 0, Scale = 1;
  if ((!Whole.empty() && Whole.getAsInteger(10, W)) ||
      (!Frac.empty() && Frac.getAsInteger(10, F)))
    return std::nullopt;
  for (size_t I = 0; I < Frac.size(); ++I)
    Scale *= 10;
  return Reduce(W * Scale + F, Scale);
}

//===--- Devices ----------------------------------------------------------===//

std::optional<SmallVector<DeviceSpec, 4>>
parseDeviceClause(ArrayRef<Token> Toks, const Clause &Device,
                  const SyntaxContext &Ctx, Diagnostics &Diags) {
  if (isDeviceList(Toks, Device.Args, Ctx))
    return parseDeviceList(Toks, Device.Args, Ctx, Diags);
  // OpenMP's device number: the rewritten clause passes homp's marker
  // instead, so clang's check of a constant is made here.
  if (std::optional<int64_t> N = integerConstant(Toks, Device.Args);
      N && *N < 0) {
    Diags.reportClang(Toks[Device.Args.Begin].getLocation(),
                      diag::err_omp_negative_expression_in_clause)
        << "device" << 0
        << SourceRange(Toks[Device.Args.Begin].getLocation(),
                       Toks[Device.Args.End - 1].getLocation());
    return std::nullopt;
  }
  DeviceSpec S;
  S.Spec.Kind = abi::DeviceSpec::One;
  S.Start = Device.Args;
  return SmallVector<DeviceSpec, 4>{S};
}

/// The abi::DeviceType bits of a device type token, if it names one.
static std::optional<unsigned> deviceTypeBits(const Token &Tok,
                                              const SyntaxContext &Ctx) {
  if (!isDeviceTypeToken(Tok, Ctx))
    return std::nullopt;
  StringRef Name = identifierName(Tok);
  Name.consume_front("HOMP_DEVICE_") || Name.consume_front("OMP_DEVICE_");
  return StringSwitch<unsigned>(Name)
      .Case("NVGPU", abi::TypeNVGPU)
      .Case("AMDGPU", abi::TypeAMDGPU)
      .Case("GPU", abi::TypeGPU)
      .Case("CPU", abi::TypeCPU)
      .Case("HOST", abi::TypeHost)
      .Default(abi::TypeNVGPU | abi::TypeAMDGPU | abi::TypeCPU); // ALL
}

static std::optional<DeviceSpec> parseDeviceSpec(ArrayRef<Token> Toks,
                                                 TokenRange S,
                                                 const SyntaxContext &Ctx,
                                                 Diagnostics &Diags) {
  SourceLocation Loc = Toks[S.empty() ? S.Begin - 1 : S.Begin].getLocation();
  auto Bad = [&]() -> std::optional<DeviceSpec> {
    Diags.report(Loc, Diag::BadDeviceSpec);
    return std::nullopt;
  };
  if (S.empty())
    return Bad();
  DeviceSpec Out;
  // 'spec & TYPE' (PMAM'15): a filter on the devices the spec selects.
  if (S.size() >= 3 && Toks[S.End - 2].is(tok::amp))
    if (std::optional<unsigned> T = deviceTypeBits(Toks[S.End - 1], Ctx)) {
      Out.Spec.Types = *T;
      S.End -= 2;
    }
  if (S.size() == 1 && isHostName(Toks[S.Begin], Ctx)) {
    Out.Spec.Kind = abi::DeviceSpec::Host;
    return Out;
  }
  if (S.size() == 1)
    if (std::optional<unsigned> T = deviceTypeBits(Toks[S.Begin], Ctx)) {
      Out.Spec.Kind = abi::DeviceSpec::All; // 'device(HOMP_DEVICE_GPU)'
      Out.Spec.Types |= *T;
      return Out;
    }

  // Split at the top-level colons that are not part of '?:'.
  SmallVector<TokenRange, 3> Parts;
  TokenRange Rest = S;
  while (std::optional<unsigned> Colon = findTopLevel(Toks, Rest, tok::colon)) {
    Parts.push_back({Rest.Begin, *Colon});
    Rest.Begin = *Colon + 1;
  }
  Parts.push_back(Rest);
  // A trailing ':TYPE' (HOMP'16) filters too; with a count, the count
  // counts devices of that type.
  if (Parts.size() >= 2 && Parts.back().size() == 1)
    if (std::optional<unsigned> T = deviceTypeBits(Toks[Parts.back().Begin], Ctx)) {
      if (Out.Spec.Types)
        return Bad();
      Out.Spec.Types = *T;
      Out.Spec.TypedCount = Parts.size() == 3;
      Parts.pop_back();
    }
  if (Parts.size() > 2 || std::any_of(Parts.begin() + 1, Parts.end(),
                                      [](TokenRange R) { return R.empty(); }))
    return Bad();
  if (Parts.size() == 1) {
    if (isStar(Toks, Parts[0])) {
      Out.Spec.Kind = abi::DeviceSpec::All;
      return Out;
    }
    if (Parts[0].empty())
      return Bad();
    Out.Spec.Kind = abi::DeviceSpec::One;
    Out.Start = Parts[0];
    return Out;
  }
  if (isStar(Toks, Parts[0]))
    return Bad();
  Out.Start = Parts[0];
  if (isStar(Toks, Parts[1])) {
    if (Parts[0].empty())
      return Bad();
    Out.Spec.Kind = abi::DeviceSpec::From;
    Out.Spec.TypedCount = false;
    return Out;
  }
  Out.Spec.Kind = abi::DeviceSpec::Range;
  Out.Count = Parts[1];
  return Out;
}

std::optional<SmallVector<DeviceSpec, 4>>
parseDeviceList(ArrayRef<Token> Toks, TokenRange Args, const SyntaxContext &Ctx,
                Diagnostics &Diags) {
  SmallVector<DeviceSpec, 4> Specs;
  for (TokenRange S : splitDeviceList(Toks, Args, Ctx)) {
    std::optional<DeviceSpec> Spec = parseDeviceSpec(Toks, S, Ctx, Diags);
    if (!Spec)
      return std::nullopt;
    Specs.push_back(*Spec);
  }
  return Specs;
}

//===--- Policies ---------------------------------------------------------===//

namespace {
enum class PolicyName {
  Block,
  Cyclic,
  Duplicate,
  Align,
  Static,
  Scheduler,
  Unknown
};
} // namespace

static PolicyName classify(StringRef Name) {
  return StringSwitch<PolicyName>(Name)
      .Case("BLOCK", PolicyName::Block)
      .Case("CYCLIC", PolicyName::Cyclic)
      .Cases("DUPLICATE", "FULL", PolicyName::Duplicate)
      .Case("ALIGN", PolicyName::Align)
      .Case("SCHED_STATIC", PolicyName::Static)
      .Cases("AUTO", "SCHED_DYNAMIC", "SCHED_GUIDED", PolicyName::Scheduler)
      .Cases("MODEL_1_AUTO", "MODEL_2_AUTO", "SCHED_PROFILE_AUTO",
             "MODEL_PROFILE_AUTO", PolicyName::Scheduler)
      .Default(PolicyName::Unknown);
}

/// A chunk or sample size: a positive integer, or a percentage in (0, 100]
/// ('2%', '0.5%', '(5u * 2u)%').
static std::optional<abi::Amount> parseAmount(ArrayRef<Token> Toks,
                                              TokenRange R) {
  abi::Amount A;
  if (R.size() >= 2 && Toks[R.End - 1].is(tok::percent)) {
    std::optional<std::pair<int64_t, int64_t>> V =
        rationalConstant(Toks, {R.Begin, R.End - 1});
    if (!V || V->first > 100 * V->second)
      return std::nullopt;
    A.Percent = static_cast<double>(V->first) / static_cast<double>(V->second);
    return A;
  }
  std::optional<int64_t> N = integerConstant(Toks, R);
  if (!N || *N <= 0)
    return std::nullopt;
  A.Iterations = *N;
  return A;
}

std::optional<abi::Cutoff> parseCutoff(ArrayRef<Token> Toks, TokenRange R) {
  abi::Cutoff C;
  if (R.size() == 1 && identifierName(Toks[R.Begin]) == "auto") {
    C.Kind = abi::Cutoff::Auto;
    return C;
  }
  C.Kind = abi::Cutoff::Given;
  bool Percent = R.size() >= 2 && Toks[R.End - 1].is(tok::percent);
  TokenRange Value{R.Begin, Percent ? R.End - 1 : R.End};
  if (Value.size() == 1 && integerLiteral(Toks[Value.Begin]) == 0)
    return C; // 0: no device is cut
  std::optional<std::pair<int64_t, int64_t>> V = rationalConstant(Toks, Value);
  if (!V) {
    // Other spellings of one number ('1e-1'), read as HOMP_CUTOFF reads them.
    double X;
    const Token &T = Toks[Value.Begin];
    if (Value.size() != 1 || T.isNot(tok::numeric_constant) ||
        !abi::parseReal(std::string(T.getLiteralData(), T.getLength()), X) ||
        X < 0 || X >= (Percent ? 100 : 1))
      return std::nullopt;
    C.Value = Percent ? X / 100 : X;
    return C;
  }
  if (V->first >= (Percent ? 100 : 1) * V->second)
    return std::nullopt;
  C.Value = static_cast<double>(V->first) /
            (static_cast<double>(V->second) * (Percent ? 100 : 1));
  return C;
}

bool clausesAppearOnce(ArrayRef<Token> Toks, ArrayRef<Clause> Clauses,
                       Diagnostics &Diags) {
  for (size_t I = 0; I < Clauses.size(); ++I) {
    StringRef N = Clauses[I].Name;
    if (N != "device" && N != "topology" && N != "cutoff")
      continue;
    for (size_t J = 0; J < I; ++J)
      if (Clauses[J].Name == N) {
        Diags.report(Toks[Clauses[I].All.Begin].getLocation(), Diag::TwoClauses)
            << N;
        return false;
      }
  }
  return true;
}

/// Parses one policy in [I, End); on success I is past it.
static std::optional<Policy> parsePolicy(ArrayRef<Token> Toks, unsigned &I,
                                         unsigned End, bool ForLoop,
                                         Diagnostics &Diags) {
  Policy Out;
  Out.Index = I;
  const Token &T = Toks[I];
  if (T.is(tok::star)) {
    ++I;
    return Out;
  }
  StringRef Name = identifierName(T);
  if (Name.empty()) {
    Diags.report(T.getLocation(), Diag::ExpectedPolicy) << ForLoop;
    return std::nullopt;
  }
  ++I;
  std::optional<TokenRange> Args;
  if (I < End && Toks[I].is(tok::l_paren)) {
    std::optional<unsigned> Close = findClosing(Toks, I, End);
    if (!Close) {
      Diags.report(Toks[I].getLocation(), Diag::ExpectedPolicy) << ForLoop;
      return std::nullopt;
    }
    Args = TokenRange{I + 1, *Close};
    I = *Close + 1;
  }
  abi::Policy &P = Out.P;
  switch (classify(Name)) {
  case PolicyName::Block:
  case PolicyName::Cyclic: {
    bool IsBlock = classify(Name) == PolicyName::Block;
    P.Kind = IsBlock && !Args ? abi::Policy::Block : abi::Policy::Cyclic;
    P.SpelledBlock = IsBlock;
    if (!Args)
      return Out;
    if (Args->empty()) {
      Diags.report(T.getLocation(), Diag::BadBlockSize) << Name;
      return std::nullopt;
    }
    // BLOCK(1, 2) would otherwise be read as a comma expression.
    if (SmallVector<TokenRange, 2> Parts =
            splitTopLevel(Toks, *Args, tok::comma);
        Parts.size() > 1) {
      Diags.report(Toks[Parts[1].Begin - 1].getLocation(),
                   Diag::PolicyArguments)
          << Name << 0;
      return std::nullopt;
    }
    if (Args->size() == 1 && Toks[Args->Begin].is(tok::numeric_constant))
      if (std::optional<int64_t> N = integerLiteral(Toks[Args->Begin]);
          !N || *N <= 0) { // 0, or not an integer: 1.5
        Diags.report(Toks[Args->Begin].getLocation(), Diag::BadBlockSize)
            << Name;
        return std::nullopt;
      }
    if (Args->size() == 2 && Toks[Args->Begin].is(tok::minus)) {
      Diags.report(Toks[Args->Begin].getLocation(), Diag::BadBlockSize)
          << Name;
      return std::nullopt;
    }
    Out.Block = *Args;
    return Out;
  }
  case PolicyName::Duplicate:
    if (Args) {
      Diags.report(Toks[Args->Begin - 1].getLocation(), Diag::ExpectedPolicy)
          << ForLoop;
      return std::nullopt;
    }
    return Out;
  case PolicyName::Align: {
    P.Kind = abi::Policy::Align;
    P.ToLoop = true;
    if (!Args)
      return Out;
    SmallVector<TokenRange, 2> Parts = splitTopLevel(Toks, *Args, tok::comma);
    if (Parts.size() > 2) {
      Diags.report(Toks[Parts[2].Begin - 1].getLocation(),
                   Diag::PolicyArguments)
          << Name << 1;
      return std::nullopt;
    }
    if (Parts[0].size() != 1 ||
        identifierName(Toks[Parts[0].Begin]).empty()) {
      Diags.report(Toks[Args->empty() ? Args->Begin - 1 : Args->Begin]
                       .getLocation(),
                   Diag::ExpectedPolicy)
          << ForLoop;
      return std::nullopt;
    }
    if (Parts.size() == 2) {
      std::optional<std::pair<int64_t, int64_t>> R =
          rationalConstant(Toks, Parts[1]);
      if (!R) {
        Diags.report(Toks[Parts[1].empty() ? Parts[1].Begin - 1
                                           : Parts[1].Begin]
                         .getLocation(),
                     Diag::BadRatio);
        return std::nullopt;
      }
      P.RatioNum = R->first;
      P.RatioDen = R->second;
    }
    StringRef Target = identifierName(Toks[Parts[0].Begin]);
    if (Target != "loop") {
      P.ToLoop = false;
      P.Target = Target.str();
    }
    return Out;
  }
  case PolicyName::Static:
  case PolicyName::Scheduler: {
    if (!ForLoop) {
      Diags.report(T.getLocation(), Diag::PolicyOnlyForLoops) << Name;
      return std::nullopt;
    }
    abi::SchedKind K = abi::SchedKind::Auto;
    bool Static = classify(Name) == PolicyName::Static;
    if (!Static)
      abi::schedKindFromSpelling(Name.str(), K);
    bool TakesAmount = !Static && K != abi::SchedKind::Auto &&
                       K != abi::SchedKind::Model1 &&
                       K != abi::SchedKind::Model2;
    if (Args && !TakesAmount) {
      Diags.report(Toks[Args->Begin - 1].getLocation(), Diag::PolicyArguments)
          << Name << 3;
      return std::nullopt;
    }
    // SCHED_STATIC is HOMP's name for BLOCK.
    P.Kind = Static ? abi::Policy::Block : abi::Policy::Auto;
    P.Sched = K;
    if (!Args)
      return Out;
    SmallVector<TokenRange, 2> Parts = splitTopLevel(Toks, *Args, tok::comma);
    if (Parts.size() > 1) {
      Diags.report(Toks[Parts[1].Begin - 1].getLocation(),
                   Diag::PolicyArguments)
          << Name << 2;
      return std::nullopt;
    }
    std::optional<abi::Amount> A = parseAmount(Toks, *Args);
    if (!A) {
      Diags.report(Toks[Args->empty() ? Args->Begin - 1 : Args->Begin]
                       .getLocation(),
                   Diag::BadChunkSize)
          << Name
          << (K == abi::SchedKind::Profile ||
              K == abi::SchedKind::ModelProfile);
      return std::nullopt;
    }
    P.Chunk = *A;
    return Out;
  }
  case PolicyName::Unknown:
    Diags.report(T.getLocation(), Diag::UnknownPolicy) << Name;
    return std::nullopt;
  }
  llvm_unreachable("unknown policy class");
}

std::optional<SmallVector<Policy, 3>> parsePolicies(ArrayRef<Token> Toks,
                                                    TokenRange Args,
                                                    bool ForLoop,
                                                    Diagnostics &Diags) {
  SmallVector<Policy, 3> Policies;
  unsigned I = Args.Begin;
  bool WantPolicy = true; // at the start and after a comma
  while (I < Args.End) {
    if (Toks[I].is(tok::comma)) {
      // '(, BLOCK)', '(BLOCK,, BLOCK)': a policy left out.
      if (WantPolicy) {
        Diags.report(Toks[I].getLocation(), Diag::ExpectedPolicy) << ForLoop;
        return std::nullopt;
      }
      WantPolicy = true;
      ++I;
      continue;
    }
    WantPolicy = false;
    std::optional<Policy> P;
    if (Toks[I].is(tok::l_square)) {
      std::optional<unsigned> Close = findClosing(Toks, I, Args.End);
      if (!Close || *Close == I + 1) {
        Diags.report(Toks[I].getLocation(), Diag::ExpectedPolicy) << ForLoop;
        return std::nullopt;
      }
      unsigned J = I + 1;
      P = parsePolicy(Toks, J, *Close, ForLoop, Diags);
      if (P && J != *Close) {
        Diags.report(Toks[J].getLocation(), Diag::ExpectedPolicy) << ForLoop;
        return std::nullopt;
      }
      I = *Close + 1;
    } else {
      P = parsePolicy(Toks, I, Args.End, ForLoop, Diags);
      if (P && I < Args.End && Toks[I].isNot(tok::comma) &&
          Toks[I].isNot(tok::l_square)) {
        Diags.report(Toks[I].getLocation(), Diag::ExpectedPolicy) << ForLoop;
        return std::nullopt;
      }
    }
    if (!P)
      return std::nullopt;
    Policies.push_back(*P);
  }
  if (Policies.empty()) {
    Diags.report(Toks[Args.Begin - 1].getLocation(), Diag::ExpectedPolicy)
        << ForLoop;
    return std::nullopt;
  }
  if (WantPolicy) { // '(BLOCK,)'
    Diags.report(Toks[Args.End].getLocation(), Diag::ExpectedPolicy) << ForLoop;
    return std::nullopt;
  }
  return Policies;
}

//===--- Topology ---------------------------------------------------------===//

std::optional<TopologySpec> parseTopology(ArrayRef<Token> Toks, TokenRange Args,
                                          Diagnostics &Diags) {
  TopologySpec Out;
  auto Bad = [&](unsigned At) -> std::optional<TopologySpec> {
    Diags.report(Toks[std::min(At, Args.End - 1)].getLocation(),
                 Diag::BadTopology);
    return std::nullopt;
  };
  if (Args.empty())
    return Bad(Args.Begin - 1);
  unsigned I = Args.Begin;
  if (Toks[I].is(tok::identifier)) {
    Out.T.Name = identifierName(Toks[I]).str();
    ++I;
    if (I == Args.End) {
      if (Out.T.Name == "target")
        Out.Target = true;
      else
        Out.Reference = Out.T.Name;
      Out.T.Name.clear();
      return Out;
    }
  }
  while (I < Args.End) {
    if (Toks[I].isNot(tok::l_square))
      return Bad(I);
    std::optional<unsigned> Close = findClosing(Toks, I, Args.End);
    if (!Close || *Close == I + 1)
      return Bad(I);
    TokenRange Dim{I + 1, *Close};
    if (Out.T.Rank == abi::MaxTopologyRank) {
      Diags.report(Toks[I].getLocation(), Diag::NotSupportedYet)
          << "a topology of more than 3 dimensions";
      return std::nullopt;
    }
    bool Star = isStar(Toks, Dim);
    if (!Star && Dim.size() == 1)
      if (std::optional<int64_t> N = integerLiteral(Toks[Dim.Begin]);
          N && *N <= 0) {
        Diags.report(Toks[Dim.Begin].getLocation(), Diag::TopologySize);
        return std::nullopt;
      }
    if (!Star && Dim.size() >= 1 && Toks[Dim.Begin].is(tok::minus)) {
      Diags.report(Toks[Dim.Begin].getLocation(), Diag::TopologySize);
      return std::nullopt;
    }
    Out.T.Given[Out.T.Rank++] = !Star;
    Out.Dims.push_back(Star ? TokenRange{} : Dim);
    I = *Close + 1;
  }
  if (Out.T.Rank == 0)
    return Bad(Args.Begin);
  return Out;
}

//===--- Halo -------------------------------------------------------------===//

/// One side of a halo spec: 'width' or 'width:edge'; on success I is past it.
static bool haloSide(ArrayRef<Token> Toks, unsigned &I, unsigned End,
                     int64_t &Width, abi::Edge &E, Diagnostics &Diags) {
  if (I < End && Toks[I].is(tok::minus)) {
    Diags.report(Toks[I].getLocation(), Diag::NegativeHalo);
    return false;
  }
  // '*': every element of the dimension the device does not own.
  const bool Star = I < End && Toks[I].is(tok::star);
  std::optional<int64_t> W = Star      ? abi::Halo::All
                             : I < End ? integerLiteral(Toks[I])
                                       : std::nullopt;
  if (!W && I < End &&
      (!identifierName(Toks[I]).empty() || Toks[I].is(tok::l_paren))) {
    // 'halo(w)', 'halo(W)' in a template, 'halo((2))', 'halo(w + 1)'.
    StringRef Name = identifierName(Toks[I]);
    Diags.report(Toks[I].getLocation(), Diag::HaloWidthNotLiteral)
        << (Name.empty() ? StringRef("(") : Name);
    return false;
  }
  if (!W) {
    Diags.report(Toks[std::min(I, End - 1)].getLocation(), Diag::BadHalo);
    return false;
  }
  Width = *W;
  ++I;
  // 'left:right' ('halo(2:1)'): a width after the colon is the next side's.
  if (I < End && Toks[I].is(tok::colon) &&
      !(I + 1 < End &&
        (integerLiteral(Toks[I + 1]) || Toks[I + 1].is(tok::star)))) {
    ++I;
    if (I == End) {
      Diags.report(Toks[End - 1].getLocation(), Diag::BadHalo);
      return false;
    }
    StringRef Name = identifierName(Toks[I]);
    if (Name.empty() && Toks[I].isLiteral())
      Name = StringRef(Toks[I].getLiteralData(), Toks[I].getLength());
    std::optional<abi::Edge> Edge = StringSwitch<std::optional<abi::Edge>>(Name)
                                        .Case("periodic", abi::Edge::Periodic)
                                        .Case("reflecting", abi::Edge::Reflecting)
                                        .Case("none", abi::Edge::None)
                                        .Default(std::nullopt);
    if (!Edge) {
      Diags.report(Toks[I].getLocation(), Diag::UnknownEdge) << Name;
      return false;
    }
    if (Star && *Edge != abi::Edge::None) {
      // Every element past the part but inside the section is held:
      // nothing is left for an edge to fill.
      Diags.report(Toks[I].getLocation(), Diag::EdgeOfWholeHalo) << Name;
      return false;
    }
    E = *Edge;
    ++I;
  }
  return true;
}

std::optional<SmallVector<abi::Halo, 3>>
parseHalo(ArrayRef<Token> Toks, TokenRange Args, Diagnostics &Diags) {
  SmallVector<abi::Halo, 3> Out;
  for (TokenRange Spec : splitTopLevel(Toks, Args, tok::comma)) {
    abi::Halo H;
    unsigned I = Spec.Begin;
    if (!Spec.empty()) {
      if (!haloSide(Toks, I, Spec.End, H.Left, H.LeftEdge, Diags))
        return std::nullopt;
      H.Right = H.Left;
      H.RightEdge = H.LeftEdge;
      if (I < Spec.End && Toks[I].isOneOf(tok::pipe, tok::colon)) {
        // 'left|' with no right width ('halo(1|)').
        if (++I == Spec.End) {
          Diags.report(Toks[I - 1].getLocation(), Diag::BadHalo);
          return std::nullopt;
        }
      }
      if (I < Spec.End &&
          !haloSide(Toks, I, Spec.End, H.Right, H.RightEdge, Diags))
        return std::nullopt;
      if (I < Spec.End) {
        Diags.report(Toks[I].getLocation(), Diag::BadHalo);
        return std::nullopt;
      }
    }
    Out.push_back(H);
  }
  // 'halo(1,)': the empty spec after the comma describes dimension 1.
  return Out;
}

} // namespace homp
