//===-- OmpPragmaHandler.h - homp's '#pragma omp' handler -------*- C++ -*-===//
//
// Replaces clang's 'omp' pragma handler (DESIGN.md, mechanism 1). Standard
// OpenMP pragmas produce exactly the annotation tokens clang's own handler
// produces; pragmas using homp extensions are rewritten into standard OpenMP.
//
//===----------------------------------------------------------------------===//

#ifndef HOMP_CLANG_PLUGIN_OMPPRAGMAHANDLER_H
#define HOMP_CLANG_PLUGIN_OMPPRAGMAHANDLER_H

#include "ConstructModel.h"
#include "Diagnostics.h"
#include "Extensions.h"

#include "clang/Lex/Pragma.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <functional>

namespace homp {

class OmpPragmaHandler : public clang::PragmaHandler {
public:
  /// OnExtension is called once for each directive that uses extensions.
  OmpPragmaHandler(Diagnostics &Diags, SyntaxContext Ctx,
                   std::function<void(clang::SourceLocation)> OnExtension);

  /// Print each rewritten region to stderr (plugin argument print-regions).
  void setPrintRegions(bool Print) { PrintRegions = Print; }

  void HandlePragma(clang::Preprocessor &PP, clang::PragmaIntroducer Introducer,
                    clang::Token &FirstTok) override;

  /// The errors of a region that could not be rewritten are held until the
  /// parser is known to read its statement: clang skips some code in error
  /// recovery (a function defined inside another), and reports nothing
  /// there. Given a declaration clang parsed, spanning Decl, this reports
  /// the errors of the regions inside it whose tokens Parsed says became
  /// statements, and drops those of regions before its end that did not.
  void settleHeldErrors(const clang::SourceManager &SM, clang::SourceRange Decl,
                        llvm::function_ref<bool(clang::SourceLocation First,
                                                clang::SourceLocation Last)>
                            Parsed);
  bool hasHeldErrors() const { return !HeldErrors.empty(); }
  /// Reports the errors still held.
  void reportHeldErrors();

private:
  void handleExtensions(clang::Preprocessor &PP,
                        llvm::ArrayRef<clang::Token> Line,
                        const struct Directive &D, clang::SourceLocation UseLoc,
                        const Scope &Around);
  void handleDataConstruct(clang::Preprocessor &PP,
                           llvm::ArrayRef<clang::Token> Line,
                           const struct Directive &D, const Scope &Around);
  /// Reads the statement of a region into Stmt. On failure the tokens read
  /// go back to the preprocessor and the error is reported.
  bool collectStatement(clang::Preprocessor &PP,
                        llvm::ArrayRef<clang::Token> Line, TokenVector &Stmt);
  /// Replaces the directives in Stmt that use extensions by triggers that
  /// bring them back to this handler when the parser reaches them, so they
  /// are read with what is declared before them (Around: the scope they
  /// are in).
  TokenVector deferDirectives(clang::Preprocessor &PP,
                              llvm::ArrayRef<clang::Token> Stmt,
                              const Scope &Around);

  /// Reenters the statement of a region whose rewriting failed, holding
  /// the diagnostics in Kept until it is parsed.
  void reenterFailed(clang::Preprocessor &PP, llvm::ArrayRef<clang::Token> Stmt,
                     std::vector<clang::StoredDiagnostic> Kept);

  Diagnostics &Diags;
  SyntaxContext Ctx;
  std::function<void(clang::SourceLocation)> OnExtension;
  /// Non-zero while the statement of a distributed region is being read:
  /// pragmas inside it are kept as they are for the region's rewriter.
  unsigned Collecting = 0;
  /// Numbers the distributed regions of the translation unit.
  unsigned NextRegion = 0;
  bool PrintRegions = false;
  /// Named topologies, and arrays 'target enter data' distributed, so far.
  TopologyTable Topologies;
  Scope FileScope;
  /// Directives deferred by deferDirectives, with their scopes.
  struct Deferred {
    TokenVector Line;
    Scope Around;
  };
  std::vector<Deferred> DeferredDirectives;
  struct HeldError {
    clang::SourceLocation First, Last; ///< the statement's tokens
    std::vector<clang::StoredDiagnostic> Kept;
  };
  std::vector<HeldError> HeldErrors;
};

} // namespace homp

#endif // HOMP_CLANG_PLUGIN_OMPPRAGMAHANDLER_H
