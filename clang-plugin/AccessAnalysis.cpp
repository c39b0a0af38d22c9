//===-- AccessAnalysis.cpp - How a loop body subscripts arrays ------------===//

#include "AccessAnalysis.h"

#include "Clauses.h"
#include "StatementScanner.h"

#include "llvm/ADT/STLExtras.h"

using namespace clang;
using namespace llvm;

namespace homp {

namespace {

/// One bound of an inner loop's variable: a constant, or an expression of
/// variables the loop does not change plus a constant ('w - 1').
struct Bound {
  std::optional<int64_t> Constant;
  TokenRange Toks;
  int64_t Adjust = 0;
};

/// A loop of the body whose variable runs from Lo to Hi, bounds known when
/// the construct starts ('for (int a = -1; a <= 1; ++a)', 'for (int d = -w;
/// d <= w; ++d)'): 'x[i + a]' then uses offsets Lo..Hi of i.
struct OffsetLoop {
  std::string Var;
  TokenRange Body;
  Bound Lo, Hi;
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

/// Whether T stands for a function or a value computed each time
/// ('f(...)', a member, a qualified name), seen from its neighbours.
bool isPlainName(ArrayRef<Token> Toks, TokenRange Body, unsigned I) {
  if (Toks[I].isNot(tok::identifier))
    return false;
  if (I > Body.Begin &&
      Toks[I - 1].isOneOf(tok::period, tok::arrow, tok::coloncolon))
    return false;
  return I + 1 >= Body.End ||
         !Toks[I + 1].isOneOf(tok::l_paren, tok::l_square, tok::period,
                              tok::arrow, tok::coloncolon);
}

/// Functions of values only (C's math and C++'s min and max): an element
/// passed to one is read, not written.
bool takesValues(StringRef Name) {
  static const char *const Names[] = {
      "min",   "max",   "fmin",  "fmax",  "abs",      "fabs",  "labs",
      "llabs", "sqrt",  "cbrt",  "pow",   "exp",      "exp2",  "log",
      "log2",  "log10", "sin",   "cos",   "tan",      "asin",  "acos",
      "atan",  "atan2", "sinh",  "cosh",  "tanh",     "floor", "ceil",
      "round", "trunc", "fmod",  "hypot", "copysign", "erf",   "clamp"};
  return is_contained(Names, Name);
}

/// Whether the '&' at Toks[I] takes an address (unary), not 'a & b'.
bool isAddressOf(ArrayRef<Token> Toks, TokenRange Body, unsigned I) {
  if (Toks[I].isNot(tok::amp))
    return false;
  if (I == Body.Begin)
    return true;
  const Token &Before = Toks[I - 1];
  return !(Before.isOneOf(tok::identifier, tok::numeric_constant,
                          tok::r_paren, tok::r_square, tok::char_constant) ||
           Before.isLiteral());
}

/// Whether the use of a variable whose name is Toks[I] and whose postfix
/// (subscripts, members) ends before Toks[J] may write it (or what it
/// points at): an assignment or increment, its address taken, in C++ a
/// reference bound to it or a call taking it whole. (The plugin reads
/// tokens, so writes through aliases are not seen; see the user guide.)
bool mayWrite(ArrayRef<Token> Toks, TokenRange Body, unsigned I, unsigned J,
              bool CPlusPlus) {
  // Members of an element: 'a[i].x = 1', 'p->v++'.
  while (J + 1 < Body.End && Toks[J].isOneOf(tok::period, tok::arrow) &&
         Toks[J + 1].is(tok::identifier)) {
    J += 2;
    while (J < Body.End && Toks[J].is(tok::l_square)) {
      std::optional<unsigned> Close = findClosing(Toks, J, Body.End);
      if (!Close)
        return true;
      J = *Close + 1;
    }
  }
  if (J < Body.End && isAssignment(Toks[J]))
    return true;
  if (I > Body.Begin && Toks[I - 1].isOneOf(tok::plusplus, tok::minusminus))
    return true;
  if (I > Body.Begin && isAddressOf(Toks, Body, I - 1))
    return true;
  if (!CPlusPlus)
    return false;
  // A method called on it.
  if (J < Body.End && Toks[J].is(tok::l_paren))
    return true;
  // 'double &r = a[i];'
  if (I >= Body.Begin + 3 && Toks[I - 1].is(tok::equal) &&
      Toks[I - 2].is(tok::identifier) &&
      Toks[I - 3].isOneOf(tok::amp, tok::ampamp))
    return true;
  // 'std::swap(a[i], a[j])': a whole argument of a call, which may take a
  // reference.
  if (I > Body.Begin && Toks[I - 1].isOneOf(tok::l_paren, tok::comma) &&
      J < Body.End && Toks[J].isOneOf(tok::r_paren, tok::comma)) {
    int Depth = 0;
    for (unsigned K = I; K-- > Body.Begin;) {
      if (Toks[K].isOneOf(tok::r_paren, tok::r_square, tok::r_brace))
        ++Depth;
      else if (Toks[K].isOneOf(tok::l_square, tok::l_brace) && Depth-- == 0)
        return false;
      else if (Toks[K].is(tok::l_paren) && Depth-- == 0)
        return K > Body.Begin &&
               Toks[K - 1].isOneOf(tok::identifier, tok::greater) &&
               !takesValues(identifierName(Toks[K - 1]));
    }
  }
  return false;
}

/// The names the body declares, and those it may change ('k = ...',
/// 'k++', '&k'; in C++ also a reference bound to it or a call taking it):
/// a subscript using one is not the same in every iteration.
struct Varying {
  std::vector<StringRef> Declared, Changed;
};

Varying varyingNames(ArrayRef<Token> Toks, TokenRange Body, bool CPlusPlus) {
  Varying V;
  V.Declared = declaredNames(Toks, Body);
  for (unsigned I = Body.Begin; I < Body.End; ++I) {
    if (Toks[I].isNot(tok::identifier) ||
        (I > Body.Begin &&
         Toks[I - 1].isOneOf(tok::period, tok::arrow, tok::coloncolon)))
      continue;
    unsigned J = I + 1;
    while (J < Body.End && Toks[J].is(tok::l_square)) {
      std::optional<unsigned> Close = findClosing(Toks, J, Body.End);
      if (!Close)
        break;
      J = *Close + 1;
    }
    if (J == I + 1 && mayWrite(Toks, Body, I, J, CPlusPlus))
      V.Changed.push_back(identifierName(Toks[I]));
  }
  return V;
}

/// A part of a subscript's offset (or index) known only when the construct
/// starts: a product of factors the loop does not change ('2 * lo'), or an
/// offset loop's variable whose bounds are not both constants.
struct Term {
  bool Minus = false;
  SmallVector<unsigned, 2> Factors; ///< token indices; empty for Loop
  const OffsetLoop *Loop = nullptr;
};

/// One way a subscript's offsets go: constants plus terms. A dimension's
/// references may go several ways ('x[i]' and 'x[i + lo]'): the range is
/// from the least minimum to the greatest maximum.
struct Way {
  int64_t Min = 0, Max = 0;
  std::vector<Term> Terms;
  std::string Key; ///< the terms spelled: ways with equal keys merge
};

/// What the references of one dimension of an array reach.
struct DimUse {
  abi::Subscript::KindTy Kind = abi::Subscript::Unknown;
  unsigned Loop = 0;
  std::vector<Way> Ways;
};

/// At most this many ways a dimension goes; more are Unknown.
constexpr size_t MaxWays = 4;

DimUse merge(DimUse A, const DimUse &B) {
  if (A.Kind == abi::Subscript::Unknown || A.Kind != B.Kind ||
      (A.Kind == abi::Subscript::Linear && A.Loop != B.Loop))
    return DimUse();
  for (const Way &W : B.Ways) {
    auto It = find_if(A.Ways, [&](const Way &X) { return X.Key == W.Key; });
    if (It == A.Ways.end()) {
      A.Ways.push_back(W);
    } else {
      It->Min = std::min(It->Min, W.Min);
      It->Max = std::max(It->Max, W.Max);
    }
  }
  if (A.Ways.size() > MaxWays)
    return DimUse();
  return A;
}

class Analysis {
public:
  Analysis(Preprocessor &PP, ArrayRef<Token> Toks, TokenRange Body,
           ArrayRef<std::string> Vars, ArrayRef<CanonicalLoop> BodyLoops,
           const SyntaxContext &Ctx)
      : PP(PP), Toks(Toks), Body(Body), Vars(Vars), Ctx(Ctx),
        Names(varyingNames(Toks, Body, Ctx.CPlusPlus)) {
    offsetLoops(BodyLoops);
    for (const CanonicalLoop &L : BodyLoops)
      InnerLoops.push_back({L.VarName, L.Body});
  }

  /// Reads the use of a variable at Toks[I] into Out (merged with earlier
  /// uses when Seen).
  void use(unsigned I, AccessInfo &Out, bool Seen);
  /// Fills Out's subscripts (and their terms' code) from the uses read.
  void finish(AccessInfo &Out);

private:
  std::optional<unsigned> loopOf(const Token &T) const {
    StringRef N = identifierName(T);
    for (unsigned L = 0; L < Vars.size(); ++L)
      if (T.is(tok::identifier) && N == Vars[L])
        return L;
    return std::nullopt;
  }
  void offsetLoops(ArrayRef<CanonicalLoop> BodyLoops);
  /// Whether Toks[I] is a variable whose value the loop does not change
  /// (Why says why not, when it is a name).
  bool isInvariantName(unsigned I, std::string *Why = nullptr) const;
  /// Whether R is a sum of products of literals and invariant names.
  bool isInvariantExpr(TokenRange R) const;
  std::optional<Bound> boundOf(TokenRange R, int64_t Adjust) const;
  DimUse subscript(TokenRange S, unsigned Use, std::string &Why) const;
  /// Splits the sum S into its terms, each with its sign (Minus: the sum is
  /// subtracted); false when S is not a sum of terms.
  bool terms(TokenRange S, bool Minus,
             llvm::SmallVectorImpl<std::pair<bool, TokenRange>> &Out) const;
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
  Code boundCode(const Bound &B) const;
  Code wayCode(const Way &W, bool Max) const;

  Preprocessor &PP;
  ArrayRef<Token> Toks;
  TokenRange Body;
  ArrayRef<std::string> Vars;
  const SyntaxContext &Ctx;
  Varying Names;
  std::vector<OffsetLoop> Offsets;
  /// The body loops' variables, and where they are in scope.
  std::vector<std::pair<std::string, TokenRange>> InnerLoops;
  /// Per access being read (by its index in the output): per dimension,
  /// the uses so far, and the writing uses'.
  struct Uses {
    std::array<DimUse, abi::MaxRank> All, Writes;
    bool AnyWrite = false;
  };
  std::map<std::string, Uses> Read;
};

bool Analysis::isInvariantName(unsigned I, std::string *Why) const {
  const Token &T = Toks[I];
  if (T.isNot(tok::identifier) || loopOf(T))
    return false;
  StringRef N = identifierName(T);
  if (any_of(InnerLoops, [&](const std::pair<std::string, TokenRange> &L) {
        return L.first == N && L.second.Begin <= I && I < L.second.End;
      })) {
    if (Why)
      *Why = "uses '" + N.str() +
             "', an inner loop's variable whose range homp cannot bound (its "
             "bounds change in the loop, or its body changes it)";
    return false;
  }
  if (is_contained(Names.Declared, N)) {
    if (Why)
      *Why = "uses '" + N.str() + "', which the loop body declares";
    return false;
  }
  if (is_contained(Names.Changed, N)) {
    if (Why)
      *Why = "uses '" + N.str() + "', which the loop body may change";
    return false;
  }
  if (!isPlainName(Toks, Body, I))
    return false;
  // A pointer or array is no index; 'this' and other keywords are not
  // identifiers.
  if (std::optional<VarShape> Shape = Ctx.ShapeOf(T))
    if (!Shape->Dependent &&
        (Shape->Kind == VarShape::Pointer || Shape->Kind == VarShape::Array))
      return false;
  return true;
}

bool Analysis::isInvariantExpr(TokenRange R) const {
  if (R.empty())
    return false;
  bool Operand = false; // the last token was an operand
  for (unsigned I = R.Begin; I < R.End; ++I) {
    const Token &T = Toks[I];
    if (T.isOneOf(tok::plus, tok::minus)) {
      Operand = false;
      continue;
    }
    if (T.is(tok::star)) {
      if (!Operand)
        return false;
      Operand = false;
      continue;
    }
    if (Operand || !(integerLiteral(T) || isInvariantName(I)))
      return false;
    Operand = true;
  }
  return Operand;
}

std::optional<Bound> Analysis::boundOf(TokenRange R, int64_t Adjust) const {
  Bound B;
  if (std::optional<int64_t> C = constantOf(Toks, R)) {
    B.Constant = *C + Adjust;
    return B;
  }
  if (!isInvariantExpr(R))
    return std::nullopt;
  B.Toks = R;
  B.Adjust = Adjust;
  return B;
}

/// The loops of BodyLoops whose variable is declared in their header, runs
/// between bounds known when the construct starts by a constant step, and
/// is neither assigned nor declared again in their body.
void Analysis::offsetLoops(ArrayRef<CanonicalLoop> BodyLoops) {
  for (const CanonicalLoop &L : BodyLoops) {
    if (L.TypeTokens.empty())
      continue;
    std::optional<int64_t> Step =
        L.Step.empty() ? std::optional<int64_t>(1) : constantOf(Toks, L.Step);
    if (!Step || *Step <= 0)
      continue;
    bool Up = !L.StepNegated;
    std::optional<Bound> Lo, Hi;
    switch (L.Op) {
    case CompareOp::Less:
      Lo = boundOf(L.Lower, 0), Hi = boundOf(L.Bound, -1);
      break;
    case CompareOp::LessEqual:
      Lo = boundOf(L.Lower, 0), Hi = boundOf(L.Bound, 0);
      break;
    case CompareOp::Greater:
      Lo = boundOf(L.Bound, 1), Hi = boundOf(L.Lower, 0);
      Up = !Up;
      break;
    case CompareOp::GreaterEqual:
      Lo = boundOf(L.Bound, 0), Hi = boundOf(L.Lower, 0);
      Up = !Up;
      break;
    case CompareOp::NotEqual:
      continue;
    }
    if (!Up || !Lo || !Hi)
      continue;
    if (Lo->Constant && Hi->Constant && *Lo->Constant > *Hi->Constant)
      continue;
    bool Changed = is_contained(declaredNames(Toks, L.Body),
                                StringRef(L.VarName));
    for (unsigned J = L.Body.Begin; J < L.Body.End && !Changed; ++J)
      if (Toks[J].is(tok::identifier) && identifierName(Toks[J]) == L.VarName)
        Changed = (J + 1 < L.Body.End && isAssignment(Toks[J + 1])) ||
                  (J > L.Body.Begin &&
                   Toks[J - 1].isOneOf(tok::plusplus, tok::minusminus)) ||
                  (J > L.Body.Begin && isAddressOf(Toks, L.Body, J - 1));
    if (!Changed)
      Offsets.push_back({L.VarName, L.Body, *Lo, *Hi});
  }
}

bool Analysis::terms(TokenRange S, bool Minus,
                     SmallVectorImpl<std::pair<bool, TokenRange>> &Out) const {
  for (unsigned I = S.Begin; I < S.End;) {
    // Signs: 'i + -1' is 'i - 1'.
    if (I != S.Begin && !Toks[I].isOneOf(tok::plus, tok::minus))
      return false;
    bool Neg = Minus;
    for (; I < S.End && Toks[I].isOneOf(tok::plus, tok::minus); ++I)
      Neg ^= Toks[I].is(tok::minus);
    // The term, up to the next '+' or '-' outside brackets.
    unsigned End = I;
    int Depth = 0;
    for (; End < S.End; ++End) {
      if (Toks[End].isOneOf(tok::l_paren, tok::l_square))
        ++Depth;
      else if (Toks[End].isOneOf(tok::r_paren, tok::r_square))
        --Depth;
      else if (Depth == 0 && Toks[End].isOneOf(tok::plus, tok::minus))
        break;
    }
    if (End == I)
      return false;
    // A sum in parentheses ('(i - lo)', 'i - (d + 1)') adds its terms.
    std::optional<unsigned> Close =
        Toks[I].is(tok::l_paren) ? findClosing(Toks, I, End) : std::nullopt;
    if (Close && *Close + 1 == End) {
      if (!terms({I + 1, *Close}, Neg, Out))
        return false;
    } else {
      Out.push_back({Neg, {I, End}});
    }
    I = End;
  }
  return true;
}

DimUse Analysis::subscript(TokenRange S, unsigned Use, std::string &Why) const {
  // A sum of terms, each added or subtracted: one loop variable (added),
  // products of integer literals and variables the loop does not change,
  // and variables of offset loops.
  DimUse Out;
  std::optional<unsigned> Loop;
  Way W;
  std::string Reason;
  SmallVector<std::pair<bool, TokenRange>, 4> Sums;
  bool Ok = !S.empty() && terms(S, false, Sums);
  for (auto [Minus, R] : Sums) {
    if (!Ok)
      break;
    Term T;
    T.Minus = Minus;
    unsigned I = R.Begin, End = R.End;
    SmallVector<unsigned, 4> Factors;
    for (unsigned K = I; K < End; ++K) {
      bool Factor = (K - I) % 2 == 0;
      if (!Factor) {
        if (Toks[K].isNot(tok::star))
          Ok = false;
        continue;
      }
      Factors.push_back(K);
    }
    if (!Ok || (End - I) % 2 == 0) {
      Ok = false;
      break;
    }
    const Token &First = Toks[Factors.front()];
    if (Factors.size() == 1 && loopOf(First)) {
      Ok = !T.Minus && !Loop;
      Loop = loopOf(First);
    } else if (const OffsetLoop *O = Factors.size() == 1
                                         ? offsetOf(First, Use)
                                         : nullptr) {
      if (O->Lo.Constant && O->Hi.Constant) {
        W.Min += T.Minus ? -*O->Hi.Constant : *O->Lo.Constant;
        W.Max += T.Minus ? -*O->Lo.Constant : *O->Hi.Constant;
      } else {
        T.Loop = O;
        W.Key += std::string(T.Minus ? "-" : "+") + "loop:" + O->Var + "@" +
                 std::to_string(O->Body.Begin) + " ";
        W.Terms.push_back(T);
      }
    } else {
      // A product of literals (folded) and invariant names (a term).
      std::optional<int64_t> Product = 1;
      for (unsigned F : Factors) {
        std::optional<int64_t> C = integerLiteral(Toks[F]);
        if (C) {
          if (Product && __builtin_mul_overflow(*Product, *C, &*Product))
            Ok = false;
          continue;
        }
        std::string Not;
        if (!isInvariantName(F, &Not)) {
          Ok = false;
          if (Reason.empty())
            Reason = Not;
          break;
        }
        Product.reset();
      }
      if (!Ok)
        break;
      if (Product) {
        W.Min += T.Minus ? -*Product : *Product;
        W.Max += T.Minus ? -*Product : *Product;
      } else {
        T.Factors.assign(Factors.begin(), Factors.end());
        W.Key += T.Minus ? "-" : "+";
        for (unsigned F : Factors)
          W.Key += PP.getSpelling(Toks[F]) + "*";
        W.Key += " ";
        W.Terms.push_back(T);
      }
    }
  }
  if (!Ok) {
    std::string Loops =
        Vars.size() == 1 ? "'" + Vars[0] + "'" : std::string("a loop variable");
    Why = "subscript '" + spell(S) + "' " +
          (Reason.empty()
               ? "is not " + Loops +
                     " plus or minus constants, inner loops' variables and "
                     "variables the loop does not change"
               : Reason);
    return Out;
  }
  Out.Kind = Loop ? abi::Subscript::Linear : abi::Subscript::Invariant;
  Out.Loop = Loop.value_or(0);
  Out.Ways.push_back(std::move(W));
  return Out;
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
  abi::Access &A = Out.A;
  Uses &U = Read[Out.A.Name];
  auto Unchecked = [&](AccessInfo::Unchecked &C, SourceLocation Loc,
                       std::string Why) {
    if (C.At.isInvalid()) {
      C.At = Loc;
      C.Why = std::move(Why);
    }
  };
  // Used without a subscript ('p + i', 'f(p)'): it may be written anywhere.
  if (Subs.empty()) {
    Unchecked(Out.Any, Toks[I].getLocation(), "it is used without a subscript");
    A.Rank = 0;
    A.Written = true;
    U.All = {};
    U.Writes = {};
    return;
  }
  bool Written = mayWrite(Toks, Body, I, J, Ctx.CPlusPlus);
  A.Written |= Written;
  unsigned Rank = std::min<unsigned>(Subs.size(), abi::MaxRank);
  if (Seen && Rank != A.Rank) {
    // Uses with different numbers of subscripts: nothing is known.
    if (A.Rank != 0)
      Unchecked(Out.Any, Toks[I].getLocation(),
                "it is subscripted with different numbers of subscripts");
    A.Rank = 0;
    U.All = {};
    U.Writes = {};
    return;
  }
  if (Seen && A.Rank == 0)
    return; // already unknowable
  for (unsigned D = 0; D < Rank; ++D) {
    std::string Why;
    DimUse S = subscript(Subs[D], I, Why);
    if (S.Kind == abi::Subscript::Unknown)
      Unchecked(Out.Dims[D], Toks[I].getLocation(), Why);
    bool Known = !Seen || U.All[D].Kind != abi::Subscript::Unknown;
    U.All[D] = Seen ? merge(U.All[D], S) : S;
    if (Known && S.Kind != abi::Subscript::Unknown &&
        U.All[D].Kind == abi::Subscript::Unknown)
      Unchecked(Out.Dims[D], Toks[I].getLocation(),
                "its references' subscripts of dimension " + std::to_string(D) +
                    " use different loop variables, or too many different "
                    "offsets");
    if (Written)
      U.Writes[D] = U.AnyWrite ? merge(U.Writes[D], S) : S;
  }
  U.AnyWrite |= Written;
  A.Rank = Rank;
}

Code Analysis::boundCode(const Bound &B) const {
  if (B.Constant)
    return Code("(" + std::to_string(*B.Constant) + "LL)");
  Code C("((long long)(");
  C.tokens(Toks, B.Toks).text(") + (" + std::to_string(B.Adjust) + "LL))");
  return C;
}

Code Analysis::wayCode(const Way &W, bool Max) const {
  Code C("((" + std::to_string(Max ? W.Max : W.Min) + "LL)");
  for (const Term &T : W.Terms) {
    C.text(T.Minus ? " - " : " + ");
    if (T.Loop) {
      // The least offset adds the variable's least value, or subtracts its
      // greatest.
      C.append(boundCode(Max != T.Minus ? T.Loop->Hi : T.Loop->Lo));
      continue;
    }
    C.text("(");
    for (size_t F = 0; F < T.Factors.size(); ++F) {
      if (F)
        C.text(" * ");
      C.text("(long long)(").tokens(Toks, {T.Factors[F], T.Factors[F] + 1});
      C.text(")");
    }
    C.text(")");
  }
  C.text(")");
  return C;
}

void Analysis::finish(AccessInfo &Out) {
  abi::Access &A = Out.A;
  const Uses &U = Read[Out.A.Name];
  if (A.Rank == 0) {
    A.Subs = {};
    A.Writes = {};
  }
  for (unsigned D = 0; D < 2 * abi::MaxRank; ++D) {
    const bool OfWrites = D >= abi::MaxRank;
    const unsigned Dm = D % abi::MaxRank;
    abi::Subscript &S = OfWrites ? A.Writes[Dm] : A.Subs[Dm];
    S = abi::Subscript();
    const DimUse &Use = OfWrites ? U.Writes[Dm] : U.All[Dm];
    if (Dm >= A.Rank || (OfWrites && !U.AnyWrite) ||
        Use.Kind == abi::Subscript::Unknown || Use.Ways.empty())
      continue;
    S.Kind = Use.Kind;
    S.Loop = Use.Loop;
    if (Use.Ways.size() == 1 && Use.Ways[0].Terms.empty()) {
      S.Min = Use.Ways[0].Min;
      S.Max = Use.Ways[0].Max;
      continue;
    }
    // The least of the ways' minimums and the greatest of their maximums,
    // computed when the construct starts.
    S.Term = true;
    for (bool Max : {false, true}) {
      Code Acc = wayCode(Use.Ways[0], Max);
      for (size_t W = 1; W < Use.Ways.size(); ++W) {
        Code Next = wayCode(Use.Ways[W], Max);
        Code Pick("(");
        Pick.append(Acc).text(Max ? " > " : " < ").append(Next).text(" ? ");
        Pick.append(Acc).text(" : ").append(Next).text(")");
        Acc = std::move(Pick);
      }
      (Max ? Out.TermMax : Out.TermMin)[D] = std::move(Acc);
    }
  }
  // A written array whose writes cannot be bounded where its reads can
  // ('x[idx[i]] = x[i]'): the first unchecked reason stands for both.
  std::string Why = Out.Any.Why;
  for (unsigned D = 0; D < A.Rank && Why.empty(); ++D)
    Why = Out.Dims[D].Why;
  A.Why = Why;
}

} // namespace

std::vector<AccessInfo> analyzeAccesses(Preprocessor &PP, ArrayRef<Token> Toks,
                                        TokenRange Body,
                                        ArrayRef<std::string> Vars,
                                        ArrayRef<std::string> Always,
                                        ArrayRef<CanonicalLoop> BodyLoops,
                                        const SyntaxContext &Ctx) {
  std::vector<AccessInfo> Out;
  Analysis An(PP, Toks, Body, Vars, BodyLoops, Ctx);
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
      Out.push_back(std::move(A));
      An.use(I, Out.back(), /*Seen=*/false);
      continue;
    }
    An.use(I, *It, /*Seen=*/true);
  }
  for (AccessInfo &A : Out)
    An.finish(A);
  return Out;
}

} // namespace homp
