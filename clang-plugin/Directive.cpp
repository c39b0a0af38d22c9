//===-- Directive.cpp - Token-level view of one '#pragma omp' line --------===//

#include "Directive.h"

#include "clang/Basic/IdentifierTable.h"
#include "llvm/ADT/StringSwitch.h"

using namespace clang;
using namespace llvm;

namespace homp {

IdentifierInfo *identifierOf(const Token &Tok) {
  if (Tok.isAnnotation() || Tok.is(tok::raw_identifier))
    return nullptr;
  return Tok.getIdentifierInfo();
}

StringRef identifierName(const Token &Tok) {
  if (const IdentifierInfo *II = identifierOf(Tok))
    return II->getName();
  return {};
}

static bool isOpenBracket(const Token &Tok) {
  return Tok.isOneOf(tok::l_paren, tok::l_square, tok::l_brace);
}

static bool isCloseBracket(const Token &Tok) {
  return Tok.isOneOf(tok::r_paren, tok::r_square, tok::r_brace);
}

std::optional<unsigned> findClosing(ArrayRef<Token> Toks, unsigned Open,
                                    unsigned End) {
  int Depth = 0;
  for (unsigned I = Open; I < End; ++I) {
    if (isOpenBracket(Toks[I]))
      ++Depth;
    else if (isCloseBracket(Toks[I]) && --Depth == 0)
      return I;
  }
  return std::nullopt;
}

SmallVector<TokenRange, 4> splitTopLevel(ArrayRef<Token> Toks, TokenRange R,
                                         tok::TokenKind K) {
  SmallVector<TokenRange, 4> Parts;
  int Depth = 0;
  unsigned Start = R.Begin;
  for (unsigned I = R.Begin; I < R.End; ++I) {
    if (isOpenBracket(Toks[I]))
      ++Depth;
    else if (isCloseBracket(Toks[I]))
      --Depth;
    else if (Depth == 0 && Toks[I].is(K)) {
      Parts.push_back({Start, I});
      Start = I + 1;
    }
  }
  Parts.push_back({Start, R.End});
  return Parts;
}

std::optional<unsigned> findTopLevel(ArrayRef<Token> Toks, TokenRange R,
                                     tok::TokenKind K) {
  int Depth = 0;
  int OpenConditionals = 0;
  for (unsigned I = R.Begin; I < R.End; ++I) {
    const Token &T = Toks[I];
    if (isOpenBracket(T)) {
      ++Depth;
      continue;
    }
    if (isCloseBracket(T)) {
      --Depth;
      continue;
    }
    if (Depth != 0)
      continue;
    if (T.is(tok::question)) {
      ++OpenConditionals;
      continue;
    }
    if (T.is(tok::colon) && OpenConditionals > 0) {
      --OpenConditionals;
      continue;
    }
    if (T.is(K))
      return I;
  }
  return std::nullopt;
}

/// Words that may form an OpenMP directive name, plus the HOMP'16 spellings
/// built from them ('parallel target', 'parallel for distribute').
static bool isDirectiveWord(StringRef Name) {
  return StringSwitch<bool>(Name)
      .Cases("target", "teams", "distribute", "parallel", "for", "simd", true)
      .Cases("loop", "data", "enter", "exit", "update", "taskloop", true)
      .Cases("masked", "master", "sections", "section", "single", "task", true)
      .Cases("taskwait", "taskgroup", "taskyield", "barrier", "atomic", true)
      .Cases("ordered", "scope", "tile", "unroll", "workshare", "cancel", true)
      .Cases("cancellation", "point", "interop", "dispatch", "nothing", true)
      .Cases("error", "requires", "scan", "depobj", "flush", "critical", true)
      .Cases("declare", "begin", "end", "metadirective", "assume", true)
      .Cases("assumes", "allocate", "allocators", "threadprivate", true)
      .Cases("halo_exchange", "halo_update", true)
      .Default(false);
}

bool Directive::hasWord(StringRef Name) const {
  return findWord(Name).has_value();
}

std::optional<unsigned> Directive::findWord(StringRef Name) const {
  for (unsigned I = 0; I < Words.size(); ++I)
    if (Words[I].Name == Name)
      return I;
  return std::nullopt;
}

std::optional<Directive> parseDirective(ArrayRef<Token> Toks,
                                        ShapeError *Error) {
  auto Fail = [&](unsigned Index, bool Unclosed) -> std::optional<Directive> {
    if (Error)
      *Error = {Index, Unclosed};
    return std::nullopt;
  };
  Directive D;
  D.Toks = Toks;
  unsigned I = 0;
  unsigned N = Toks.size();

  // Words end at the first token that is not a directive word, or at a word
  // followed by '(' (a clause, or an argument such as 'critical(name)').
  // 'halo_exchange(A)' is the exception: a word with its argument list.
  while (I < N) {
    StringRef Name = identifierName(Toks[I]);
    if (Name.empty() || !isDirectiveWord(Name))
      break;
    bool Paren = I + 1 < N && Toks[I + 1].is(tok::l_paren);
    if (Paren && Name != "halo_exchange")
      break;
    D.Words.push_back({Name, I});
    ++I;
    if (Paren)
      break;
  }

  while (I < N) {
    if (Toks[I].is(tok::comma)) {
      ++I;
      continue;
    }
    Clause C;
    C.Name = identifierName(Toks[I]);
    if (C.Name.empty()) {
      // 'halo_exchange(A)': the parenthesised list right after the word.
      if (!(Toks[I].is(tok::l_paren) && !D.Words.empty() &&
            D.Words.back().Index + 1 == I))
        return Fail(I, false);
      C.Name = D.Words.back().Name;
      C.All.Begin = I;
      std::optional<unsigned> Close = findClosing(Toks, I, N);
      if (!Close)
        return Fail(I, true);
      C.HasParens = true;
      C.Args = {I + 1, *Close};
      C.All.End = *Close + 1;
      I = C.All.End;
      D.Clauses.push_back(C);
      continue;
    }
    C.All.Begin = I;
    ++I;
    // 'halo_update left-right(A)': one clause named 'left-right'.
    if (C.Name == "left" && I + 1 < N && Toks[I].is(tok::minus) &&
        identifierName(Toks[I + 1]) == "right" && !D.Words.empty() &&
        D.Words.front().Name == "halo_update") {
      C.Name = "left-right";
      I += 2;
    }
    if (I < N && Toks[I].is(tok::l_paren)) {
      std::optional<unsigned> Close = findClosing(Toks, I, N);
      if (!Close)
        return Fail(I, true);
      C.HasParens = true;
      C.Args = {I + 1, *Close};
      I = *Close + 1;
    }
    C.All.End = I;
    D.Clauses.push_back(C);
  }
  return D;
}

} // namespace homp
