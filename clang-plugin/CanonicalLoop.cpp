//===-- CanonicalLoop.cpp - The header of a distributed loop --------------===//

#include "CanonicalLoop.h"

#include "StatementScanner.h"

#include "llvm/ADT/Twine.h"

using namespace clang;
using namespace llvm;

namespace homp {

static std::optional<CompareOp> compareOp(const Token &T) {
  switch (T.getKind()) {
  case tok::less:
    return CompareOp::Less;
  case tok::lessequal:
    return CompareOp::LessEqual;
  case tok::greater:
    return CompareOp::Greater;
  case tok::greaterequal:
    return CompareOp::GreaterEqual;
  case tok::exclaimequal:
    return CompareOp::NotEqual;
  default:
    return std::nullopt;
  }
}

static CompareOp mirrored(CompareOp Op) {
  switch (Op) {
  case CompareOp::Less:
    return CompareOp::Greater;
  case CompareOp::LessEqual:
    return CompareOp::GreaterEqual;
  case CompareOp::Greater:
    return CompareOp::Less;
  case CompareOp::GreaterEqual:
    return CompareOp::LessEqual;
  case CompareOp::NotEqual:
    return CompareOp::NotEqual;
  }
  llvm_unreachable("unknown comparison");
}

static bool isVar(ArrayRef<Token> Toks, unsigned I, StringRef Name) {
  return Toks[I].is(tok::identifier) && identifierName(Toks[I]) == Name;
}

namespace {
struct Parser {
  ArrayRef<Token> Toks;
  LoopError &Err;
  CanonicalLoop L;

  bool error(unsigned Index, const Twine &Message) {
    Err = {Index, Message.str()};
    return false;
  }
  bool init(TokenRange R);
  bool test(TokenRange R);
  bool increment(TokenRange R);
};
} // namespace

bool Parser::init(TokenRange R) {
  std::optional<unsigned> Assign = findTopLevel(Toks, R, tok::equal);
  if (!Assign || *Assign == R.Begin || *Assign + 1 >= R.End)
    return error(R.Begin, "the loop must start with 'var = lower' or "
                          "'type var = lower'");
  unsigned VarIndex = *Assign - 1;
  if (Toks[VarIndex].isNot(tok::identifier))
    return error(VarIndex, "expected the loop variable before '='");
  L.InitTarget = {R.Begin, *Assign};
  L.TypeTokens = {R.Begin, VarIndex};
  L.Lower = {*Assign + 1, R.End};
  L.VarName = identifierName(Toks[VarIndex]).str();
  for (unsigned I = L.TypeTokens.Begin; I < L.TypeTokens.End; ++I)
    if (Toks[I].isOneOf(tok::star, tok::amp, tok::ampamp))
      return error(I, "pointer and reference loop variables are not "
                      "supported in a distributed loop");
  return true;
}

bool Parser::test(TokenRange R) {
  if (R.size() >= 3 && isVar(Toks, R.Begin, L.VarName)) {
    if (std::optional<CompareOp> Op = compareOp(Toks[R.Begin + 1])) {
      L.Var = R.Begin;
      L.Op = *Op;
      L.Bound = {R.Begin + 2, R.End};
      return true;
    }
  }
  if (R.size() >= 3 && isVar(Toks, R.End - 1, L.VarName)) {
    if (std::optional<CompareOp> Op = compareOp(Toks[R.End - 2])) {
      L.Var = R.End - 1;
      L.Op = mirrored(*Op);
      L.Bound = {R.Begin, R.End - 2};
      return true;
    }
  }
  return error(R.Begin, "the loop test must compare '" + L.VarName +
                            "' with <, <=, >, >= or !=");
}

bool Parser::increment(TokenRange R) {
  L.Increment = R;
  unsigned N = R.size();
  auto At = [&](unsigned Offset) -> const Token & {
    return Toks[R.Begin + Offset];
  };
  auto IsVarAt = [&](unsigned Offset) {
    return isVar(Toks, R.Begin + Offset, L.VarName);
  };
  if (N == 2 &&
      ((IsVarAt(0) && At(1).isOneOf(tok::plusplus, tok::minusminus)) ||
       (IsVarAt(1) && At(0).isOneOf(tok::plusplus, tok::minusminus)))) {
    L.StepNegated = At(0).is(tok::minusminus) || At(1).is(tok::minusminus);
    return true;
  }
  if (N >= 3 && IsVarAt(0) && At(1).isOneOf(tok::plusequal, tok::minusequal)) {
    L.Step = {R.Begin + 2, R.End};
    L.StepNegated = At(1).is(tok::minusequal);
    return true;
  }
  // var = var + step, var = step + var, var = var - step
  if (N >= 5 && IsVarAt(0) && At(1).is(tok::equal)) {
    if (IsVarAt(2) && At(3).isOneOf(tok::plus, tok::minus)) {
      L.Step = {R.Begin + 4, R.End};
      L.StepNegated = At(3).is(tok::minus);
      return true;
    }
    if (IsVarAt(N - 1) && At(N - 2).is(tok::plus)) {
      L.Step = {R.Begin + 2, R.End - 2};
      return true;
    }
  }
  return error(R.Begin, "the loop increment must be ++, --, +=, -= or "
                        "'var = var +/- step' on '" +
                            L.VarName + "'");
}

std::optional<CanonicalLoop> parseCanonicalLoop(ArrayRef<Token> Toks,
                                                unsigned For, unsigned End,
                                                LoopError &Err) {
  Parser P{Toks, Err, {}};
  P.L.For = For;
  if (For + 1 >= End || Toks[For + 1].isNot(tok::l_paren)) {
    P.error(For, "expected '(' after 'for'");
    return std::nullopt;
  }
  std::optional<unsigned> Close = findClosing(Toks, For + 1, End);
  if (!Close) {
    P.error(For + 1, "unbalanced parentheses in the loop header");
    return std::nullopt;
  }
  SmallVector<TokenRange, 4> Parts =
      splitTopLevel(Toks, {For + 2, *Close}, tok::semi);
  if (Parts.size() != 3) {
    P.error(For, "range-based and other non-canonical loops cannot be "
                 "distributed");
    return std::nullopt;
  }
  P.L.RParen = *Close;
  P.L.Body = {*Close + 1, End};
  if (!P.init(Parts[0]) || !P.test(Parts[1]) || !P.increment(Parts[2]))
    return std::nullopt;
  return P.L;
}

} // namespace homp

namespace homp {

std::optional<SmallVector<CanonicalLoop, 3>>
parseLoopNest(ArrayRef<Token> Toks, unsigned For, unsigned End, unsigned Depth,
              LoopError &Err) {
  SmallVector<CanonicalLoop, 3> Nest;
  unsigned B = For, E = End;
  for (unsigned L = 0; L < Depth; ++L) {
    std::optional<CanonicalLoop> Loop = parseCanonicalLoop(Toks, B, E, Err);
    if (!Loop)
      return std::nullopt;
    // Bounds and steps of inner loops must not depend on outer variables.
    for (const CanonicalLoop &Outer : Nest)
      for (TokenRange R : {Loop->Lower, Loop->Bound, Loop->Step})
        for (unsigned I = R.Begin; I < R.End; ++I)
          if (Toks[I].is(tok::identifier) &&
              identifierName(Toks[I]) == Outer.VarName) {
            Err = {I, "the bounds of loop " + std::to_string(L + 1) +
                          " of the nest use '" + Outer.VarName +
                          "'; only rectangular nests can be distributed"};
            return std::nullopt;
          }
    Nest.push_back(*Loop);
    if (L + 1 == Depth)
      break;
    // The next loop is the whole body, maybe in braces.
    B = Loop->Body.Begin;
    E = Loop->Body.End;
    if (B < E && Toks[B].is(tok::l_brace) && Toks[E - 1].is(tok::r_brace) &&
        findClosing(Toks, B, E) == E - 1) {
      ++B;
      --E;
    }
    ScanFailure Why;
    TokenVector Probe;
    ArraySource Src(Toks.slice(B, E - B));
    if (B >= E || Toks[B].isNot(tok::kw_for) ||
        !scanStatement(Src, Probe, Why) || B + Src.consumed() != E) {
      Err = {std::min(B, E == 0 ? 0 : E - 1),
             "'collapse(" + std::to_string(Depth) + ")' needs " +
                 std::to_string(Depth) + " perfectly nested loops"};
      return std::nullopt;
    }
  }
  return Nest;
}

} // namespace homp
