//===-- AccessAnalysis.cpp - How a loop body subscripts arrays ------------===//

#include "AccessAnalysis.h"

#include "Clauses.h"
#include "StatementScanner.h"

#include "llvm/ADT/STLExtras.h"

using namespace clang;
using namespace llvm;

namespace homp {

namespace {

/// A loop of the body whose variable takes values in [Lo, Hi] known when
/// the plugin reads it ('for (int a = -1; a <= 1; ++a)'): 'x[i + a]' then
/// uses offsets -1..1 of i.
struct OffsetLoop {
  std::string Var;
  TokenRange Body;
  int64_t Lo = 0, Hi = 0;
};

/// A sum of integer literals ('-1', 'R + 1' with R a macro for 1).
std::optional<int64_t> constantOf(ArrayRef<Token> Toks, TokenRange R) {
  if (R.empty())
    return std::nullopt;
  int64_t Sum = 0;
  for (unsigned I = R.Begin; I < R.End; ++I) {
    // Signs, a literal, then a sign or the end.
    bool Minus = false;
    for (; I < R.End && Toks[I].isOneOf(tok::plus, tok::minus); ++I)
      Minus ^= Toks[I].is(tok::minus);
    std::optional<int64_t> V =
        I < R.End ? integerLiteral(Toks[I]) : std::nullopt;
    if (!V || (I + 1 < R.End && !Toks[I + 1].isOneOf(tok::plus, tok::minus)))
      return std::nullopt;
    Sum += Minus ? -*V : *V;
  }
  return Sum;
}

/// The loops of BodyLoops whose variable is declared in their header, runs
/// between constants by a constant step, and is neither assigned nor
/// declared again in their body.
std::vector<OffsetLoop> offsetLoops(ArrayRef<Token> Toks,
                                    ArrayRef<CanonicalLoop> BodyLoops) {
  std::vector<OffsetLoop> Out;
  for (const CanonicalLoop *L = BodyLoops.begin(); L != BodyLoops.end(); ++L) {
    if (L->TypeTokens.empty())
      continue;
    std::optional<int64_t> First = constantOf(Toks, L->Lower);
    std::optional<int64_t> Bound = constantOf(Toks, L->Bound);
    std::optional<int64_t> Step =
        L->Step.empty() ? std::optional<int64_t>(1) : constantOf(Toks, L->Step);
    if (!First || !Bound || !Step || *Step <= 0)
      continue;
    OffsetLoop O{L->VarName, L->Body, 0, 0};
    bool Up = !L->StepNegated;
    switch (L->Op) {
    case CompareOp::Less:
      O.Lo = *First, O.Hi = *Bound - 1;
      break;
    case CompareOp::LessEqual:
      O.Lo = *First, O.Hi = *Bound;
      break;
    case CompareOp::Greater:
      O.Lo = *Bound + 1, O.Hi = *First;
      Up = !Up;
      break;
    case CompareOp::GreaterEqual:
      O.Lo = *Bound, O.Hi = *First;
      Up = !Up;
      break;
    case CompareOp::NotEqual:
      continue;
    }
    if (!Up || O.Lo > O.Hi)
      continue;
    bool Changed = is_contained(declaredNames(Toks, L->Body),
                                StringRef(O.Var));
    for (unsigned J = L->Body.Begin; J < L->Body.End && !Changed; ++J)
      if (Toks[J].is(tok::identifier) && identifierName(Toks[J]) == O.Var)
        Changed = (J + 1 < L->Body.End && isAssignment(Toks[J + 1])) ||
                  (J > L->Body.Begin &&
                   Toks[J - 1].isOneOf(tok::plusplus, tok::minusminus));
    if (!Changed)
      Out.push_back(std::move(O));
  }
  return Out;
}

class Analysis {
public:
  Analysis(Preprocessor &PP, ArrayRef<Token> Toks, TokenRange Body,
           ArrayRef<std::string> Vars, ArrayRef<CanonicalLoop> BodyLoops)
      : PP(PP), Toks(Toks), Body(Body), Vars(Vars),
        Offsets(offsetLoops(Toks, BodyLoops)) {}

  /// Reads the use of a variable at Toks[I] into Out (merged with earlier
  /// uses when Seen).
  void use(unsigned I, AccessInfo &Out, bool Seen);

private:
  std::optional<unsigned> loopOf(const Token &T) const {
    StringRef N = identifierName(T);
    for (unsigned L = 0; L < Vars.size(); ++L)
      if (T.is(tok::identifier) && N == Vars[L])
        return L;
    return std::nullopt;
  }
  abi::Subscript subscript(TokenRange S, unsigned Use) const;
  /// The offset loop whose variable T is, at the use Toks[Use].
  const OffsetLoop *offsetOf(const Token &T, unsigned Use) const {
    const OffsetLoop *Found = nullptr;
    StringRef N = identifierName(T);
    for (const OffsetLoop &O : Offsets)
      if (N == O.Var && O.Body.Begin <= Use && Use < O.Body.End &&
          (!Found || O.Body.Begin > Found->Body.Begin))
        Found = &O; // the innermost
    return Found;
  }
  std::string spell(TokenRange R) const {
    std::string S;
    for (unsigned I = R.Begin; I < R.End; ++I)
      S += PP.getSpelling(Toks[I]);
    return S;
  }

  Preprocessor &PP;
  ArrayRef<Token> Toks;
  TokenRange Body;
  ArrayRef<std::string> Vars;
  std::vector<OffsetLoop> Offsets;
};

abi::Subscript Analysis::subscript(TokenRange S, unsigned Use) const {
  abi::Subscript Out;
  // A sum of terms, each added or subtracted: one loop variable (added),
  // integer literals, and variables of offset loops.
  std::optional<unsigned> Loop;
  int64_t Min = 0, Max = 0;
  bool Linear = !S.empty();
  for (unsigned I = S.Begin; I < S.End && Linear; ++I) {
    bool Minus = false;
    if (Toks[I].isOneOf(tok::plus, tok::minus)) {
      Minus = Toks[I].is(tok::minus);
      if (++I == S.End)
        Linear = false;
    } else if (I != S.Begin) {
      Linear = false;
    }
    if (!Linear)
      break;
    const Token &T = Toks[I];
    if (std::optional<unsigned> L = loopOf(T)) {
      Linear = !Minus && !Loop;
      Loop = L;
    } else if (std::optional<int64_t> C = integerLiteral(T)) {
      Min += Minus ? -*C : *C;
      Max += Minus ? -*C : *C;
    } else if (const OffsetLoop *O = offsetOf(T, Use)) {
      Min += Minus ? -O->Hi : O->Lo;
      Max += Minus ? -O->Lo : O->Hi;
    } else {
      Linear = false;
    }
    if (Linear && I + 1 < S.End && !Toks[I + 1].isOneOf(tok::plus, tok::minus))
      Linear = false;
  }
  if (Linear && Loop) {
    Out.Kind = abi::Subscript::Linear;
    Out.Loop = *Loop;
    Out.Min = Min;
    Out.Max = Max;
    return Out;
  }
  for (unsigned I = S.Begin; I < S.End; ++I)
    if (loopOf(Toks[I]))
      return Out; // Unknown
  Out.Kind = abi::Subscript::Invariant;
  return Out;
}

/// Merges the subscript of another use of the same dimension.
abi::Subscript merge(const abi::Subscript &A, const abi::Subscript &B) {
  if (A.Kind == abi::Subscript::Linear && B.Kind == abi::Subscript::Linear &&
      A.Loop == B.Loop) {
    abi::Subscript M = A;
    M.Min = std::min(A.Min, B.Min);
    M.Max = std::max(A.Max, B.Max);
    return M;
  }
  if (A.Kind == abi::Subscript::Invariant && B.Kind == A.Kind)
    return A;
  return abi::Subscript();
}

void Analysis::use(unsigned I, AccessInfo &Out, bool Seen) {
  SmallVector<TokenRange, 3> Subs;
  unsigned J = I + 1;
  while (J < Body.End && Toks[J].is(tok::l_square)) {
    std::optional<unsigned> Close = findClosing(Toks, J, Body.End);
    if (!Close)
      break;
    Subs.push_back({J + 1, *Close});
    J = *Close + 1;
  }
  bool Written = (J < Body.End && isAssignment(Toks[J])) ||
                 (I > Body.Begin &&
                  Toks[I - 1].isOneOf(tok::plusplus, tok::minusminus));
  abi::Access &A = Out.A;
  A.Written |= Written;
  auto Unchecked = [&](AccessInfo::Unchecked &U, SourceLocation Loc,
                       std::string Why, bool Invariant) {
    if (U.At.isInvalid()) {
      U.At = Loc;
      U.Why = std::move(Why);
      U.Invariant = Invariant;
    }
  };
  if (Subs.empty()) {
    Unchecked(Out.Any, Toks[I].getLocation(), "it is used without a subscript",
              false);
    A.Rank = 0;
    for (abi::Subscript &S : A.Subs)
      S = abi::Subscript();
    return;
  }
  unsigned Rank = std::min<unsigned>(Subs.size(), abi::MaxRank);
  for (unsigned D = 0; D < Rank; ++D) {
    abi::Subscript S = subscript(Subs[D], I);
    if (S.Kind != abi::Subscript::Linear)
      Unchecked(Out.Dims[D], Toks[I].getLocation(),
                "subscript '" + spell(Subs[D]) + "' is not " +
                    (Vars.size() == 1 ? "'" + Vars[0] + "'"
                                      : std::string("a loop variable")) +
                    " plus or minus constants and inner loops' variables",
                S.Kind == abi::Subscript::Invariant);
    if (!Seen)
      A.Subs[D] = S;
    else if (D < A.Rank)
      A.Subs[D] = merge(A.Subs[D], S);
  }
  if (!Seen) {
    A.Rank = Rank;
  } else if (Rank != A.Rank) {
    // Uses with different numbers of subscripts: nothing is known.
    if (A.Rank != 0)
      Unchecked(Out.Any, Toks[I].getLocation(),
                "it is subscripted with different numbers of subscripts",
                false);
    A.Rank = 0;
    for (abi::Subscript &S : A.Subs)
      S = abi::Subscript();
  }
}

} // namespace

std::vector<AccessInfo> analyzeAccesses(Preprocessor &PP, ArrayRef<Token> Toks,
                                        TokenRange Body,
                                        ArrayRef<std::string> Vars,
                                        ArrayRef<std::string> Always,
                                        ArrayRef<CanonicalLoop> BodyLoops,
                                        const SyntaxContext &Ctx) {
  std::vector<AccessInfo> Out;
  std::vector<bool> Dead; // a use made the access unknowable
  Analysis An(PP, Toks, Body, Vars, BodyLoops);
  std::vector<StringRef> Declared;
  if (Ctx.CPlusPlus)
    Declared = declaredNames(Toks, Body);
  for (unsigned I = Body.Begin; I < Body.End; ++I) {
    const Token &T = Toks[I];
    if (T.isNot(tok::identifier))
      continue;
    if (I > Body.Begin &&
        Toks[I - 1].isOneOf(tok::period, tok::arrow, tok::coloncolon))
      continue; // a member or a qualified name of something else
    StringRef Name = identifierName(T);
    auto It = find_if(Out, [&](const AccessInfo &A) { return A.A.Name == Name; });
    bool Subscripted = I + 1 < Body.End && Toks[I + 1].is(tok::l_square);
    if (It == Out.end()) {
      bool Wanted = is_contained(Always, Name.str());
      bool Dependent = false;
      if (!Wanted && Subscripted) {
        std::optional<VarShape> Shape = Ctx.ShapeOf(T);
        // In a class body, a name not declared yet is a member declared
        // later or a local of the member function (parsed once the class
        // is complete): its type is known only there, as for a dependent
        // type. The body's own declarations are not in scope where the
        // region begins.
        Dependent = Ctx.CPlusPlus &&
                    (Shape ? Shape->Dependent
                           : Ctx.IsMember(T) ==
                                     SyntaxContext::Membership::Unknown &&
                                 !is_contained(Declared, Name));
        Wanted = Dependent || (Shape && !Shape->Dependent &&
                               (Shape->Kind == VarShape::Pointer ||
                                Shape->Kind == VarShape::Array));
      }
      if (!Wanted)
        continue;
      AccessInfo A;
      A.A.Name = Name.str();
      A.FirstUse = I;
      A.Dependent = Dependent;
      An.use(I, A, /*Seen=*/false);
      Out.push_back(std::move(A));
      Dead.push_back(Out.back().A.Rank == 0);
      continue;
    }
    size_t K = It - Out.begin();
    if (Dead[K]) {
      An.use(I, *It, /*Seen=*/true); // only for Written
      It->A.Rank = 0;
      for (abi::Subscript &S : It->A.Subs)
        S = abi::Subscript();
      continue;
    }
    An.use(I, *It, /*Seen=*/true);
    Dead[K] = It->A.Rank == 0;
  }
  return Out;
}

} // namespace homp
