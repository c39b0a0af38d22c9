//===-- Clauses.cpp - Parsing homp's extension clauses --------------------===//

#include "Clauses.h"

#include "llvm/ADT/StringSwitch.h"

using namespace clang;
using namespace llvm;

namespace homp {

static bool isStar(ArrayRef<Token> Toks, TokenRange R) {
  return R.size() == 1 && Toks[R.Begin].is(tok::star);
}

static std::optional<DeviceSpec> parseDeviceSpec(ArrayRef<Token> Toks,
                                                 TokenRange S,
                                                 const SyntaxContext &Ctx,
                                                 Diagnostics &Diags) {
  SourceLocation Loc = Toks[S.empty() ? S.Begin - 1 : S.Begin].getLocation();
  if (S.empty()) {
    Diags.report(Loc, Diag::BadDeviceSpec);
    return std::nullopt;
  }
  // Device type filters: 'spec & TYPE', 'spec : TYPE'.
  for (unsigned I = S.Begin; I < S.End; ++I)
    if (isDeviceTypeToken(Toks[I], Ctx)) {
      Diags.report(Toks[I].getLocation(), Diag::NotSupportedYet)
          << "selecting devices by type";
      return std::nullopt;
    }
  if (S.size() == 1 && isHostName(Toks[S.Begin], Ctx))
    return DeviceSpec{DeviceSpec::Host, {}, {}};
  if (isStar(Toks, S))
    return DeviceSpec{DeviceSpec::All, {}, {}};

  // Split at the top-level colons that are not part of '?:'.
  SmallVector<TokenRange, 3> Parts;
  TokenRange Rest = S;
  while (std::optional<unsigned> Colon = findTopLevel(Toks, Rest, tok::colon)) {
    Parts.push_back({Rest.Begin, *Colon});
    Rest.Begin = *Colon + 1;
  }
  Parts.push_back(Rest);

  if (Parts.size() == 1)
    return DeviceSpec{DeviceSpec::One, S, {}};
  if (Parts.size() == 2 && !Parts[1].empty()) {
    if (isStar(Toks, Parts[1]) && !Parts[0].empty())
      return DeviceSpec{DeviceSpec::From, Parts[0], {}};
    if (!isStar(Toks, Parts[1]) && !isStar(Toks, Parts[0]))
      return DeviceSpec{DeviceSpec::Range, Parts[0], Parts[1]};
  }
  Diags.report(Loc, Diag::BadDeviceSpec);
  return std::nullopt;
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

namespace {
enum class PolicyName {
  Block,
  Duplicate,
  Align,
  Auto,
  LaterData,
  LaterLoop,
  Unknown
};
}

static PolicyName classify(StringRef Name) {
  return StringSwitch<PolicyName>(Name)
      .Case("BLOCK", PolicyName::Block)
      .Cases("DUPLICATE", "FULL", PolicyName::Duplicate)
      .Case("ALIGN", PolicyName::Align)
      .Case("AUTO", PolicyName::Auto)
      .Case("CYCLIC", PolicyName::LaterData)
      .Cases("SCHED_STATIC", "SCHED_DYNAMIC", "SCHED_GUIDED",
             PolicyName::LaterLoop)
      .Cases("MODEL_1_AUTO", "MODEL_2_AUTO", "SCHED_PROFILE_AUTO",
             "MODEL_PROFILE_AUTO", PolicyName::LaterLoop)
      .Default(PolicyName::Unknown);
}

/// Parses one policy in [I, End); on success I is past it.
static std::optional<Policy> parsePolicy(ArrayRef<Token> Toks, unsigned &I,
                                         unsigned End, bool ForLoop,
                                         Diagnostics &Diags) {
  Policy P;
  P.Index = I;
  const Token &T = Toks[I];
  if (T.is(tok::star)) {
    ++I;
    return P;
  }
  StringRef Name = identifierName(T);
  if (Name.empty()) {
    Diags.report(T.getLocation(), Diag::ExpectedPolicy) << ForLoop;
    return std::nullopt;
  }
  ++I;
  TokenRange Args;
  if (I < End && Toks[I].is(tok::l_paren)) {
    std::optional<unsigned> Close = findClosing(Toks, I, End);
    if (!Close) {
      Diags.report(Toks[I].getLocation(), Diag::ExpectedPolicy) << ForLoop;
      return std::nullopt;
    }
    Args = {I + 1, *Close};
    I = *Close + 1;
  }
  switch (classify(Name)) {
  case PolicyName::Block:
    if (!Args.empty()) {
      Diags.report(T.getLocation(), Diag::NotSupportedYet) << "BLOCK(n)";
      return std::nullopt;
    }
    P.Kind = Policy::Block;
    return P;
  case PolicyName::Duplicate:
    if (ForLoop) {
      Diags.report(T.getLocation(), Diag::PolicyNotForLoops) << Name;
      return std::nullopt;
    }
    P.Kind = Policy::Duplicate;
    return P;
  case PolicyName::Align: {
    P.Kind = Policy::AlignLoop;
    if (Args.empty())
      return P;
    SmallVector<TokenRange, 2> Parts = splitTopLevel(Toks, Args, tok::comma);
    if (Parts.size() > 1) {
      Diags.report(Toks[Parts[1].Begin - 1].getLocation(),
                   Diag::NotSupportedYet)
          << "an ALIGN ratio";
      return std::nullopt;
    }
    if (Parts[0].size() != 1 || identifierName(Toks[Parts[0].Begin]).empty()) {
      Diags.report(Toks[Args.Begin].getLocation(), Diag::ExpectedPolicy)
          << ForLoop;
      return std::nullopt;
    }
    P.AlignName = identifierName(Toks[Parts[0].Begin]).str();
    if (P.AlignName != "loop")
      P.Kind = Policy::AlignTo;
    return P;
  }
  case PolicyName::Auto:
    if (!ForLoop) {
      Diags.report(T.getLocation(), Diag::PolicyOnlyForLoops) << Name;
      return std::nullopt;
    }
    Diags.report(T.getLocation(), Diag::NotSupportedYet) << "AUTO";
    return std::nullopt;
  case PolicyName::LaterLoop:
    if (!ForLoop) {
      Diags.report(T.getLocation(), Diag::PolicyOnlyForLoops) << Name;
      return std::nullopt;
    }
    [[fallthrough]];
  case PolicyName::LaterData:
    Diags.report(T.getLocation(), Diag::NotSupportedYet)
        << ("'" + Name.str() + "'");
    return std::nullopt;
  case PolicyName::Unknown:
    Diags.report(T.getLocation(), Diag::UnknownPolicy) << Name;
    return std::nullopt;
  }
  llvm_unreachable("unknown policy class");
}

std::optional<SmallVector<Policy, 2>> parsePolicies(ArrayRef<Token> Toks,
                                                    TokenRange Args,
                                                    bool ForLoop,
                                                    Diagnostics &Diags) {
  SmallVector<Policy, 2> Policies;
  unsigned I = Args.Begin;
  while (I < Args.End) {
    if (Toks[I].is(tok::comma)) {
      ++I;
      continue;
    }
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
  return Policies;
}

} // namespace homp
