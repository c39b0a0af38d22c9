//===-- AccessAnalysis.cpp - How a loop body subscripts arrays ------------===//

#include "AccessAnalysis.h"

#include "Clauses.h"
#include "StatementScanner.h"

#include "llvm/ADT/STLExtras.h"

using namespace clang;
using namespace llvm;

namespace homp {

namespace {

class Analysis {
public:
  Analysis(Preprocessor &PP, ArrayRef<Token> Toks, TokenRange Body,
           ArrayRef<std::string> Vars)
      : PP(PP), Toks(Toks), Body(Body), Vars(Vars) {}

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
  abi::Subscript subscript(TokenRange S) const;
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
};

abi::Subscript Analysis::subscript(TokenRange S) const {
  abi::Subscript Out;
  auto Linear = [&](unsigned L, int64_t C) {
    Out.Kind = abi::Subscript::Linear;
    Out.Loop = L;
    Out.Min = Out.Max = C;
    return Out;
  };
  if (S.size() == 1)
    if (std::optional<unsigned> L = loopOf(Toks[S.Begin]))
      return Linear(*L, 0);
  if (S.size() == 3) {
    const Token &Op = Toks[S.Begin + 1];
    if (std::optional<unsigned> L = loopOf(Toks[S.Begin]))
      if (Op.isOneOf(tok::plus, tok::minus))
        if (std::optional<int64_t> C = integerLiteral(Toks[S.Begin + 2]))
          return Linear(*L, Op.is(tok::plus) ? *C : -*C);
    if (std::optional<unsigned> L = loopOf(Toks[S.End - 1]))
      if (Op.is(tok::plus))
        if (std::optional<int64_t> C = integerLiteral(Toks[S.Begin]))
          return Linear(*L, *C);
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

bool isAssignment(const Token &T) {
  return T.isOneOf(tok::equal, tok::plusequal, tok::minusequal, tok::starequal,
                   tok::slashequal, tok::percentequal, tok::ampequal,
                   tok::pipeequal, tok::caretequal) ||
         T.isOneOf(tok::lesslessequal, tok::greatergreaterequal,
                   tok::plusplus, tok::minusminus);
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
    abi::Subscript S = subscript(Subs[D]);
    if (S.Kind != abi::Subscript::Linear)
      Unchecked(Out.Dims[D], Toks[I].getLocation(),
                "subscript '" + spell(Subs[D]) + "' is not " +
                    (Vars.size() == 1 ? "'" + Vars[0] + "'"
                                      : std::string("a loop variable")) +
                    " plus or minus a constant",
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
                                        const SyntaxContext &Ctx) {
  std::vector<AccessInfo> Out;
  std::vector<bool> Dead; // a use made the access unknowable
  Analysis An(PP, Toks, Body, Vars);
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
