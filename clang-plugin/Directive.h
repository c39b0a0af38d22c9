//===-- Directive.h - Token-level view of one '#pragma omp' line -*- C++
//-*-===//
//
// The plugin sees a pragma as the tokens between 'omp' and the end of the
// line. This file splits them into directive-name words and clauses, without
// understanding standard clauses: anything not recognised is passed to clang
// untouched, so standard OpenMP keeps clang's own parsing and diagnostics.
//
//===----------------------------------------------------------------------===//

#ifndef HOMP_CLANG_PLUGIN_DIRECTIVE_H
#define HOMP_CLANG_PLUGIN_DIRECTIVE_H

#include "clang/Lex/Token.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <optional>

namespace homp {

/// A half-open range [Begin, End) of token indices.
struct TokenRange {
  unsigned Begin = 0;
  unsigned End = 0;

  bool empty() const { return Begin >= End; }
  unsigned size() const { return empty() ? 0 : End - Begin; }
};

/// One clause: a name, optionally followed by a parenthesised argument list.
struct Clause {
  llvm::StringRef Name;
  TokenRange All;  ///< From the name to the closing ')' inclusive.
  TokenRange Args; ///< Between the parentheses; empty without them.
  bool HasParens = false;
};

/// A directive-name word ('target', 'parallel', ...) and its token index.
struct Word {
  llvm::StringRef Name;
  unsigned Index;
};

/// The pragma tokens after 'omp', split into words and clauses.
struct Directive {
  llvm::ArrayRef<clang::Token> Toks;
  llvm::SmallVector<Word, 4> Words;
  llvm::SmallVector<Clause, 8> Clauses;

  bool hasWord(llvm::StringRef Name) const;
  /// Index into Words of the first word called Name, if any.
  std::optional<unsigned> findWord(llvm::StringRef Name) const;
};

/// Where the tokens of a pragma stop having the shape 'words clause*'.
struct ShapeError {
  unsigned Index = 0;    ///< the token
  bool Unclosed = false; ///< Toks[Index] is a '(' that is never closed
};

/// Splits Toks into a directive. Returns std::nullopt when the tokens do not
/// have the shape 'words clause*' (then *Error, if given, says where); such
/// pragmas are left to clang.
std::optional<Directive> parseDirective(llvm::ArrayRef<clang::Token> Toks,
                                        ShapeError *Error = nullptr);

/// The spelling of an identifier or keyword token, else an empty string.
llvm::StringRef identifierName(const clang::Token &Tok);
/// Tok's identifier (a name or a keyword), or nullptr: also for annotation
/// tokens (nested directives), whose data is not an identifier.
clang::IdentifierInfo *identifierOf(const clang::Token &Tok);

/// Splits R at the top-level (outside (), [], {}) tokens of kind K.
llvm::SmallVector<TokenRange, 4>
splitTopLevel(llvm::ArrayRef<clang::Token> Toks, TokenRange R,
              clang::tok::TokenKind K);

/// Index of the first top-level token of kind K in R that is not the ':' of a
/// conditional operator, or std::nullopt.
std::optional<unsigned> findTopLevel(llvm::ArrayRef<clang::Token> Toks,
                                     TokenRange R, clang::tok::TokenKind K);

/// Index of the token closing the bracket opened at Toks[Open], or
/// std::nullopt when it is not closed before End.
std::optional<unsigned> findClosing(llvm::ArrayRef<clang::Token> Toks,
                                    unsigned Open, unsigned End);

} // namespace homp

#endif // HOMP_CLANG_PLUGIN_DIRECTIVE_H
