//===-- WorkAnalysis.cpp - How much a loop body computes ------------------===//

#include "WorkAnalysis.h"

#include "StatementScanner.h"

#include "llvm/ADT/STLExtras.h"

using namespace clang;
using namespace llvm;

namespace homp {

namespace {

/// Whether T ends an operand, so that an operator after it is binary.
bool endsOperand(const Token &T) {
  return T.isOneOf(tok::identifier, tok::numeric_constant, tok::char_constant,
                   tok::string_literal, tok::r_paren, tok::r_square) ||
         T.isOneOf(tok::kw_this, tok::kw_true, tok::kw_false, tok::kw_nullptr);
}

class Counter {
public:
  Counter(ArrayRef<Token> Toks, TokenRange Body, ArrayRef<std::string> NestVars,
          const SyntaxContext &Ctx)
      : Toks(Toks), Body(Body), Ctx(Ctx),
        Enclosing(NestVars.begin(), NestVars.end()),
        Locals(declaredNames(Toks, Body)) {}

  WorkInfo run() {
    count(Body, -1, Out.Operations);
    return std::move(Out);
  }

private:
  void count(TokenRange R, int Parent, int64_t &Ops);
  /// Counts the 'for' loop at Toks[For] inside R if it is canonical;
  /// returns the index past it, or For when it is not.
  unsigned loop(unsigned For, TokenRange R, int Parent);
  int64_t operationsAt(unsigned I) const;
  bool integerVariable(const CanonicalLoop &L) const;
  bool countable(const CanonicalLoop &L) const;

  ArrayRef<Token> Toks;
  TokenRange Body;
  const SyntaxContext &Ctx;
  /// Loop variables around the tokens being counted.
  std::vector<std::string> Enclosing;
  /// Names the body declares (as far as tokens tell).
  std::vector<StringRef> Locals;
  WorkInfo Out;
};

/// Whether L's variable is an integer, so that its bounds and step are
/// integers too: a C++ loop may run over iterators or other class types,
/// which do not convert to 'long long'. C has none.
bool Counter::integerVariable(const CanonicalLoop &L) const {
  if (!Ctx.CPlusPlus)
    return true;
  if (L.TypeTokens.empty()) {
    // 'for (k = 0; ...)': a variable declared before the region.
    std::optional<VarShape> Shape = Ctx.ShapeOf(Toks[L.Var]);
    return Shape && (Shape->Dependent || Shape->Kind == VarShape::Scalar);
  }
  if (L.TypeTokens.size() == 1 && Toks[L.TypeTokens.Begin].is(tok::kw_auto))
    return L.Lower.size() == 1 &&
           Toks[L.Lower.Begin].is(tok::numeric_constant);
  for (unsigned I = L.TypeTokens.Begin; I < L.TypeTokens.End; ++I) {
    const Token &T = Toks[I];
    if (T.isOneOf(tok::kw_int, tok::kw_long, tok::kw_short, tok::kw_char,
                  tok::kw_signed, tok::kw_unsigned, tok::kw_const,
                  tok::kw_volatile, tok::coloncolon) ||
        T.is(tok::kw___int128))
      continue;
    if (T.is(tok::identifier) &&
        (identifierName(T) == "std" || Ctx.NamesIntegerType(T)))
      continue;
    return false;
  }
  return true;
}

/// Whether the trip count of L can be computed where the marker call is,
/// before the region: its variable is an integer, its bounds and step name
/// only variables declared there (not loop variables, not the body's own
/// declarations) and of scalar type (or members, elements and qualified
/// names of others), and neither call anything nor assign anything, so
/// evaluating them once more changes nothing.
bool Counter::countable(const CanonicalLoop &L) const {
  if (!integerVariable(L))
    return false;
  for (TokenRange R : {L.Lower, L.Bound, L.Step})
    for (unsigned I = R.Begin; I < R.End; ++I) {
      const Token &T = Toks[I];
      if (T.isOneOf(tok::plusplus, tok::minusminus, tok::equal, tok::l_brace) ||
          T.isOneOf(tok::plusequal, tok::minusequal, tok::starequal,
                    tok::slashequal, tok::percentequal, tok::ampequal,
                    tok::pipeequal, tok::caretequal, tok::lesslessequal) ||
          T.is(tok::greatergreaterequal))
        return false;
      if (T.isNot(tok::identifier))
        continue;
      if (I + 1 < R.End && Toks[I + 1].is(tok::l_paren))
        return false; // a call
      if (I > R.Begin && Toks[I - 1].isOneOf(tok::period, tok::arrow))
        continue; // a member of something checked on its own
      StringRef Name = identifierName(T);
      if (is_contained(Enclosing, Name.str()) || is_contained(Locals, Name) ||
          !Ctx.IsDeclared(T))
        return false;
      // A variable of a class type would not convert; its members and
      // elements are checked by the comparison the loop makes.
      std::optional<VarShape> Shape = Ctx.ShapeOf(T);
      bool Reached = I + 1 < R.End && Toks[I + 1].isOneOf(
                                          tok::period, tok::arrow,
                                          tok::l_square, tok::coloncolon);
      if (Shape && !Shape->Dependent && Shape->Kind != VarShape::Scalar &&
          Shape->Kind != VarShape::Value && !Reached)
        return false;
    }
  return true;
}

int64_t Counter::operationsAt(unsigned I) const {
  const Token &T = Toks[I];
  bool Binary = I > Body.Begin && endsOperand(Toks[I - 1]);
  switch (T.getKind()) {
  case tok::plus:
  case tok::star:
  case tok::amp:
    return Binary ? 1 : 0; // unary plus, dereference, address-of
  case tok::minus:
    // Negation costs an operation, a negative constant does not.
    return Binary || I + 1 >= Body.End ||
                   Toks[I + 1].isNot(tok::numeric_constant)
               ? 1
               : 0;
  case tok::slash:
  case tok::percent:
  case tok::caret:
  case tok::pipe:
  case tok::lessless:
  case tok::greatergreater:
  case tok::less:
  case tok::greater:
  case tok::lessequal:
  case tok::greaterequal:
  case tok::equalequal:
  case tok::exclaimequal:
  case tok::ampamp:
  case tok::pipepipe:
  case tok::exclaim:
  case tok::tilde:
  case tok::question:
  case tok::plusplus:
  case tok::minusminus:
  case tok::plusequal:
  case tok::minusequal:
  case tok::starequal:
  case tok::slashequal:
  case tok::percentequal:
  case tok::ampequal:
  case tok::pipeequal:
  case tok::caretequal:
  case tok::lesslessequal:
  case tok::greatergreaterequal:
    return 1;
  case tok::identifier:
    // A call (of a function, a member function or a function object).
    return I + 1 < Body.End && Toks[I + 1].is(tok::l_paren) ? 1 : 0;
  default:
    return 0;
  }
}

unsigned Counter::loop(unsigned For, TokenRange R, int Parent) {
  ArraySource Src(Toks.slice(For, R.End - For));
  TokenVector Probe;
  ScanFailure Why;
  if (!scanStatement(Src, Probe, Why))
    return For;
  unsigned End = For + Src.consumed();
  LoopError Err;
  std::optional<CanonicalLoop> L = parseCanonicalLoop(Toks, For, End, Err);
  if (!L)
    return For;
  int Index = static_cast<int>(Out.Loops.size());
  abi::BodyLoop B;
  B.Op = L->Op;
  B.Parent = Parent;
  B.Counted = countable(*L);
  Out.Loops.push_back(B);
  Out.Headers.push_back(*L);
  Enclosing.push_back(L->VarName);
  int64_t Ops = 0;
  count(L->Body, Index, Ops);
  Enclosing.pop_back();
  Out.Loops[Index].Operations = Ops;
  return End;
}

void Counter::count(TokenRange R, int Parent, int64_t &Ops) {
  for (unsigned I = R.Begin; I < R.End; ++I) {
    const Token &T = Toks[I];
    if (T.is(tok::annot_pragma_openmp)) {
      // A directive inside the body ('#pragma omp simd'): no operations.
      while (I + 1 < R.End && Toks[I].isNot(tok::annot_pragma_openmp_end))
        ++I;
      continue;
    }
    if (T.isOneOf(tok::kw_static_cast, tok::kw_dynamic_cast,
                  tok::kw_reinterpret_cast, tok::kw_const_cast) &&
        I + 1 < R.End && Toks[I + 1].is(tok::less)) {
      // static_cast<T>(...): the brackets are not comparisons.
      int Depth = 0;
      for (++I; I < R.End; ++I) {
        if (Toks[I].is(tok::less))
          ++Depth;
        else if (Toks[I].is(tok::greater) && --Depth == 0)
          break;
        else if (Toks[I].is(tok::greatergreater) && (Depth -= 2) <= 0)
          break;
      }
      continue;
    }
    if (T.is(tok::kw_for)) {
      unsigned Past = loop(I, R, Parent);
      if (Past != I) {
        I = Past - 1;
        continue;
      }
    }
    Ops += operationsAt(I);
  }
}

} // namespace

WorkInfo analyzeWork(ArrayRef<Token> Toks, TokenRange Body,
                     ArrayRef<std::string> NestVars,
                     const SyntaxContext &Ctx) {
  return Counter(Toks, Body, NestVars, Ctx).run();
}

} // namespace homp
