//===-- StatementScanner.h - Reading one statement ahead --------*- C++ -*-===//
//
// To rewrite a distributed region the plugin needs the statement that follows
// its directive. The scanner reads exactly one C/C++ statement from a token
// stream, knowing statement shapes only: braces, if/else, loops, do-while,
// switch, labels, try/catch, OpenMP directives (already annotation tokens)
// and expression or declaration statements, lambdas included.
//
//===----------------------------------------------------------------------===//

#ifndef HOMP_CLANG_PLUGIN_STATEMENTSCANNER_H
#define HOMP_CLANG_PLUGIN_STATEMENTSCANNER_H

#include "Directive.h"
#include "TokenSynth.h"

#include "clang/Lex/Token.h"

#include <vector>

namespace homp {

/// Where the scanner reads tokens from.
class TokenSource {
public:
  virtual ~TokenSource() = default;
  virtual clang::Token next() = 0;
  /// Returns a token read only to look at it; the next call of next()
  /// returns it again.
  virtual void putBack(const clang::Token &Tok) = 0;
};

/// Reads the preprocessor's token stream (macro-expanded, pragmas turned
/// into annotation tokens), from inside a pragma handler. It never reads past
/// the end of the file the pragma is in: ending that file would destroy the
/// lexer that called the handler. There it returns an eof token instead.
class PreprocessorSource : public TokenSource {
public:
  explicit PreprocessorSource(clang::Preprocessor &PP);
  ~PreprocessorSource() override;
  clang::Token next() override;
  void putBack(const clang::Token &Tok) override;

private:
  clang::Preprocessor &PP;
  /// The lexer of the pragma's file; null for a pragma from _Pragma.
  clang::Lexer *PragmaFile = nullptr;
  bool WasIncremental;
};

/// Reads a token array; past its end it returns eof tokens.
class ArraySource : public TokenSource {
public:
  explicit ArraySource(llvm::ArrayRef<clang::Token> Toks) : Toks(Toks) {}
  clang::Token next() override;
  void putBack(const clang::Token &Tok) override;
  /// How many tokens were consumed.
  unsigned consumed() const { return I; }

private:
  llvm::ArrayRef<clang::Token> Toks;
  unsigned I = 0;
};

/// Why scanStatement stopped early.
struct ScanFailure {
  clang::Token Tok; ///< the offending token, left in the source
  /// A statement was expected at Tok ('}' or the end of the input). Else
  /// the tokens read are malformed (unmatched brackets, a ';' inside
  /// parentheses, a missing ';'), which clang reports when it reads them.
  bool Missing = false;
};

/// Appends one statement read from Source to Out. Returns false, with the
/// reason in Why, when the input ends first or is malformed.
bool scanStatement(TokenSource &Source, TokenVector &Out, ScanFailure &Why);

/// Names that the statements [Body) of Toks seem to declare, from tokens
/// alone: a name after a type ('int m', 'size_t m', 'std::array<double, 4>
/// t', 'double *p', 'const T &r') or after a comma of a statement that
/// starts like a declaration ('double a, b[4]'). It errs on the side of
/// declarations: a name found may only be used there, but a declared name
/// is rarely missed.
std::vector<llvm::StringRef> declaredNames(llvm::ArrayRef<clang::Token> Toks,
                                           TokenRange Body);

/// Whether T assigns to what is before it ('=', '+=', ..., '++', '--').
bool isAssignment(const clang::Token &T);

/// Whether the OpenMP directive whose body (tokens after the
/// annot_pragma_openmp token) is Body stands alone, with no associated
/// statement.
bool isStandaloneDirective(llvm::ArrayRef<clang::Token> Body);

} // namespace homp

#endif // HOMP_CLANG_PLUGIN_STATEMENTSCANNER_H
