//===-- StatementScanner.cpp - Reading one statement ahead ----------------===//

#include "StatementScanner.h"

#include "Directive.h"

#include "clang/Lex/Preprocessor.h"
#include "llvm/ADT/StringSwitch.h"

using namespace clang;
using namespace llvm;

namespace homp {

PreprocessorSource::PreprocessorSource(Preprocessor &PP)
    : PP(PP), WasIncremental(PP.isIncrementalProcessingEnabled()) {
  // Lexer is the only kind of PreprocessorLexer.
  auto *L = static_cast<Lexer *>(PP.getCurrentLexer());
  if (L && !L->isPragmaLexer())
    PragmaFile = L;
  // Should the main file end all the same (its last tokens skipped by '#if'),
  // the preprocessor keeps its lexer while incremental processing is on.
  PP.enableIncrementalProcessing();
}

PreprocessorSource::~PreprocessorSource() {
  PP.enableIncrementalProcessing(WasIncremental);
}

/// Whether only whitespace, comments and directives that bring in no tokens
/// are left in the file L reads; if so, the location of its end.
static std::optional<SourceLocation> endOfFileAhead(const Preprocessor &PP,
                                                    const Lexer &L) {
  StringRef Buffer = L.getBuffer();
  Lexer Raw(L.getFileLoc(), PP.getLangOpts(), Buffer.begin(),
            L.getBufferLocation(), Buffer.end());
  Token T;
  Raw.LexFromRawLexer(T);
  while (T.is(tok::hash) && T.isAtStartOfLine()) {
    Raw.LexFromRawLexer(T);
    StringRef Name = T.is(tok::raw_identifier) ? T.getRawIdentifier() : "";
    if (Name == "include" || Name == "include_next" || Name == "import" ||
        Name == "embed")
      return std::nullopt;
    while (T.isNot(tok::eof) && !T.isAtStartOfLine())
      Raw.LexFromRawLexer(T);
  }
  if (T.isNot(tok::eof))
    return std::nullopt;
  return T.getLocation();
}

Token PreprocessorSource::next() {
  Token Tok;
  if (PragmaFile && PP.isCurrentLexer(PragmaFile))
    if (std::optional<SourceLocation> End = endOfFileAhead(PP, *PragmaFile)) {
      Tok.startToken();
      Tok.setKind(tok::eof);
      Tok.setLocation(*End);
      return Tok;
    }
  PP.Lex(Tok);
  return Tok;
}

void PreprocessorSource::putBack(const Token &Tok) {
  // The preprocessor gives the end of the input again when asked again.
  if (Tok.isNot(tok::eof))
    PP.EnterToken(Tok, /*IsReinject=*/true);
}

Token ArraySource::next() {
  if (I < Toks.size())
    return Toks[I++];
  Token T;
  T.startToken();
  T.setKind(tok::eof);
  return T;
}

void ArraySource::putBack(const Token &Tok) {
  if (Tok.isNot(tok::eof))
    --I;
}

bool isStandaloneDirective(ArrayRef<Token> Body) {
  StringRef First = Body.empty() ? StringRef() : identifierName(Body[0]);
  StringRef Second = Body.size() > 1 ? identifierName(Body[1]) : StringRef();
  if (First == "target")
    return Second == "update" || Second == "enter" || Second == "exit";
  if (First == "ordered") {
    // 'ordered depend(...)' / 'ordered doacross(...)' stand alone.
    for (const Token &T : Body)
      if (identifierName(T) == "depend" || identifierName(T) == "doacross")
        return true;
    return false;
  }
  return StringSwitch<bool>(First)
      .Cases("barrier", "taskwait", "taskyield", "flush", "cancel", true)
      .Cases("cancellation", "depobj", "scan", "error", "interop", true)
      .Cases("nothing", "declare", "threadprivate", "allocate", true)
      .Cases("requires", "assumes", "halo_exchange", "halo_update", true)
      .Cases("begin", "end", true)
      .Default(false);
}

namespace {

/// Recursive-descent reader of statement shapes.
class Scanner {
public:
  Scanner(TokenSource &Source, TokenVector &Out) : Source(Source), Out(Out) {}

  bool statement();
  ScanFailure Why;

private:
  Token take() {
    Token T = Source.next();
    Out.push_back(T);
    return T;
  }
  Token peek() {
    Token T = Source.next();
    Source.putBack(T);
    return T;
  }
  /// Stops at T, which goes back to the source: what was read before it is
  /// the caller's to return.
  bool fail(const Token &T) {
    Why.Tok = T;
    if (!Out.empty() && Out.back().getLocation() == T.getLocation() &&
        Out.back().getKind() == T.getKind())
      Out.pop_back();
    if (T.isNot(tok::eof))
      Source.putBack(T);
    return false;
  }
  /// An open bracket: the kind that closes it, and whether a ';' may stand
  /// directly inside it.
  struct Bracket {
    tok::TokenKind Close;
    bool Semicolons;
  };
  bool balanced(tok::TokenKind Open);
  bool expect(tok::TokenKind K);
  bool untilSemicolon();
  bool until(SmallVectorImpl<Bracket> &Open, bool ToSemicolon);
  bool directive();

  TokenSource &Source;
  TokenVector &Out;
};

bool Scanner::expect(tok::TokenKind K) {
  Token T = take();
  return T.is(K) ? true : fail(T);
}

/// Reads tokens up to the bracket closing the last of Open or, with
/// ToSemicolon and nothing open, up to a ';'. Brackets must match, and a ';'
/// stands only in braces or in the parentheses of 'for', 'if' and 'switch'.
/// OpenMP directives are read whole.
bool Scanner::until(SmallVectorImpl<Bracket> &Open, bool ToSemicolon) {
  while (true) {
    Token T = take();
    if (T.isOneOf(tok::eof, tok::annot_module_end))
      return fail(T);
    if (T.is(tok::annot_pragma_openmp)) {
      // A directive's brackets are its own (and clang's to check).
      do
        T = take();
      while (T.isNot(tok::annot_pragma_openmp_end) && T.isNot(tok::eof));
      if (T.is(tok::eof))
        return fail(T);
      continue;
    }
    if (T.is(tok::l_brace)) {
      Open.push_back({tok::r_brace, true});
    } else if (T.is(tok::l_square)) {
      Open.push_back({tok::r_square, false});
    } else if (T.is(tok::l_paren)) {
      bool Header = Out.size() > 1 && Out[Out.size() - 2].isOneOf(
                                          tok::kw_for, tok::kw_if,
                                          tok::kw_switch, tok::kw_constexpr);
      Open.push_back({tok::r_paren, Header});
    } else if (T.isOneOf(tok::r_paren, tok::r_square, tok::r_brace)) {
      if (Open.empty() || Open.back().Close != T.getKind())
        return fail(T);
      Open.pop_back();
      if (Open.empty() && !ToSemicolon)
        return true;
    } else if (T.is(tok::semi)) {
      if (Open.empty())
        return true;
      if (!Open.back().Semicolons)
        return fail(T);
    }
  }
}

/// Reads a bracketed group whose opening token is next.
bool Scanner::balanced(tok::TokenKind Open) {
  if (peek().isNot(Open))
    return expect(Open);
  SmallVector<Bracket, 8> Brackets;
  return until(Brackets, /*ToSemicolon=*/false);
}

/// An expression or declaration statement: up to a ';' outside brackets.
bool Scanner::untilSemicolon() {
  SmallVector<Bracket, 8> Brackets;
  return until(Brackets, /*ToSemicolon=*/true);
}

/// An OpenMP directive (annotation tokens) and, unless it stands alone, its
/// statement.
bool Scanner::directive() {
  unsigned Begin = Out.size();
  take(); // annot_pragma_openmp
  while (true) {
    Token T = take();
    if (T.is(tok::eof))
      return fail(T);
    if (T.is(tok::annot_pragma_openmp_end))
      break;
  }
  ArrayRef<Token> Body =
      ArrayRef<Token>(Out).slice(Begin + 1, Out.size() - Begin - 2);
  if (isStandaloneDirective(Body))
    return true;
  return statement();
}

bool Scanner::statement() {
  Token T = peek();
  switch (T.getKind()) {
  case tok::annot_pragma_openmp:
    return directive();
  case tok::l_brace:
    return balanced(tok::l_brace);
  case tok::kw_if: {
    take();
    Token Next = peek();
    if (Next.is(tok::kw_constexpr) || Next.is(tok::exclaim))
      take();
    if (!balanced(tok::l_paren) || !statement())
      return false;
    if (peek().is(tok::kw_else)) {
      take();
      return statement();
    }
    return true;
  }
  case tok::kw_for:
  case tok::kw_while:
  case tok::kw_switch:
    take();
    return balanced(tok::l_paren) && statement();
  case tok::kw_do:
    take();
    return statement() && expect(tok::kw_while) && balanced(tok::l_paren) &&
           expect(tok::semi);
  case tok::kw_try:
    take();
    if (!balanced(tok::l_brace))
      return false;
    while (peek().is(tok::kw_catch)) {
      take();
      if (!balanced(tok::l_paren) || !balanced(tok::l_brace))
        return false;
    }
    return true;
  case tok::kw_case:
    take();
    while (true) {
      Token C = take();
      if (C.is(tok::colon))
        return statement();
      if (C.isOneOf(tok::eof, tok::semi, tok::l_brace))
        return fail(C);
    }
  case tok::kw_default:
    take();
    return expect(tok::colon) && statement();
  case tok::semi:
    take();
    return true;
  case tok::eof:
  case tok::r_brace:
    Why.Tok = T; // peeked, not read
    Why.Missing = true;
    return false;
  default:
    break;
  }
  if (T.is(tok::identifier)) {
    // A label: 'name :' (C++ scope operators are a different token).
    take();
    if (peek().is(tok::colon)) {
      take();
      return statement();
    }
    // Not a label: the identifier starts an expression or declaration.
    return untilSemicolon();
  }
  if (T.isAnnotation()) {
    // Other pragmas (loop hints, ...) come as annotations before a statement.
    take();
    return statement();
  }
  return untilSemicolon();
}

} // namespace

bool scanStatement(TokenSource &Source, TokenVector &Out, ScanFailure &Why) {
  Scanner S(Source, Out);
  if (S.statement())
    return true;
  Why = S.Why;
  return false;
}

namespace {

bool isKeyword(const Token &T) {
  return identifierOf(T) && T.isNot(tok::identifier);
}

/// Keywords after which a name is used, not declared.
bool isExpressionKeyword(const Token &T) {
  return T.isOneOf(tok::kw_return, tok::kw_sizeof, tok::kw_case, tok::kw_else,
                   tok::kw_do, tok::kw_throw, tok::kw_new, tok::kw_delete,
                   tok::kw_goto) ||
         T.isOneOf(tok::kw_this, tok::kw_true, tok::kw_false, tok::kw_nullptr,
                   tok::kw_typeid, tok::kw_alignof, tok::kw__Alignof,
                   tok::kw_co_return, tok::kw_co_yield, tok::kw_co_await);
}

/// Whether the '>' at Toks[Close] may close template arguments: a '<'
/// after a name comes before it in its statement ('std::array<double, 4>
/// t', not 'k > lo').
bool closesTemplate(ArrayRef<Token> Toks, TokenRange Body, unsigned Close) {
  for (unsigned I = Close; I > Body.Begin + 1; --I) {
    const Token &T = Toks[I - 1];
    if (T.isOneOf(tok::semi, tok::l_brace, tok::r_brace, tok::l_paren))
      return false;
    if (T.is(tok::less) && Toks[I - 2].isOneOf(tok::identifier, tok::kw_template))
      return true;
  }
  return false;
}

/// Whether a type may end at Toks[I], so that a name after it is declared.
bool endsType(ArrayRef<Token> Toks, TokenRange Body, unsigned I) {
  const Token &T = Toks[I];
  if (T.isOneOf(tok::greater, tok::greatergreater))
    return closesTemplate(Toks, Body, I);
  return T.is(tok::identifier) || (isKeyword(T) && !isExpressionKeyword(T));
}

/// The '{' that the '}' at Toks[Close] closes, within Body.
std::optional<unsigned> openingBrace(ArrayRef<Token> Toks, TokenRange Body,
                                     unsigned Close) {
  int Depth = 0;
  for (unsigned I = Close + 1; I-- > Body.Begin;) {
    if (Toks[I].is(tok::r_brace))
      ++Depth;
    else if (Toks[I].is(tok::l_brace) && --Depth == 0)
      return I;
  }
  return std::nullopt;
}

/// Whether the comma at Toks[Comma] separates declarators: the statement it
/// is in (not an argument list) starts like a declaration.
bool declaresAfter(ArrayRef<Token> Toks, TokenRange Body, unsigned Comma) {
  int Depth = 0;
  unsigned I = Comma;
  while (I > Body.Begin) {
    const Token &T = Toks[I - 1];
    if (T.isOneOf(tok::r_paren, tok::r_square))
      ++Depth;
    else if (T.is(tok::l_square) && Depth-- == 0)
      return false;
    else if (T.is(tok::l_paren) && Depth-- == 0)
      // 'for (int a = 0, b = 1; ...)' declares; 'f(a, b)' does not.
      return I >= Body.Begin + 2 && Toks[I - 2].is(tok::kw_for) &&
             declaresAfter(Toks, {I, Comma}, Comma);
    else if (T.is(tok::r_brace)) {
      // A braced initializer ('= {1, 2}', 't{1}') is part of the statement;
      // a block's end is not.
      std::optional<unsigned> Open = openingBrace(Toks, Body, I - 1);
      if (!Open || *Open == Body.Begin ||
          !Toks[*Open - 1].isOneOf(tok::equal, tok::identifier, tok::r_square,
                                   tok::comma, tok::l_brace))
        break;
      I = *Open;
      continue;
    } else if (Depth == 0 && T.isOneOf(tok::semi, tok::l_brace))
      break;
    --I;
  }
  if (I >= Comma)
    return false;
  const Token &First = Toks[I];
  if (isKeyword(First))
    return !isExpressionKeyword(First) &&
           !First.isOneOf(tok::kw_if, tok::kw_while, tok::kw_switch,
                          tok::kw_for);
  return First.is(tok::identifier) && I + 1 < Comma &&
         Toks[I + 1].isOneOf(tok::identifier, tok::less, tok::coloncolon);
}

} // namespace

bool isAssignment(const Token &T) {
  return T.isOneOf(tok::equal, tok::plusequal, tok::minusequal, tok::starequal,
                   tok::slashequal, tok::percentequal, tok::ampequal,
                   tok::pipeequal, tok::caretequal) ||
         T.isOneOf(tok::lesslessequal, tok::greatergreaterequal, tok::plusplus,
                   tok::minusminus);
}

std::vector<StringRef> declaredNames(ArrayRef<Token> Toks, TokenRange Body) {
  std::vector<StringRef> Names;
  for (unsigned I = Body.Begin; I < Body.End; ++I) {
    if (Toks[I].isNot(tok::identifier))
      continue;
    unsigned P = I;
    while (P > Body.Begin &&
           Toks[P - 1].isOneOf(tok::star, tok::amp, tok::ampamp))
      --P;
    if (P == Body.Begin)
      continue;
    if (endsType(Toks, Body, P - 1) ||
        (Toks[P - 1].is(tok::comma) && declaresAfter(Toks, Body, P - 1)))
      Names.push_back(identifierName(Toks[I]));
  }
  return Names;
}

} // namespace homp
