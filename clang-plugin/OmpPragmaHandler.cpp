//===-- OmpPragmaHandler.cpp - homp's '#pragma omp' handler ---------------===//

#include "OmpPragmaHandler.h"

#include "Directive.h"
#include "DistributedRegion.h"
#include "Extensions.h"
#include "StatementScanner.h"

#include "clang/Basic/DiagnosticParse.h"
#include "clang/Lex/Preprocessor.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>

using namespace clang;
using namespace llvm;

namespace homp {

OmpPragmaHandler::OmpPragmaHandler(
    Diagnostics &Diags, SyntaxContext Ctx,
    std::function<void(SourceLocation)> OnExtension)
    : PragmaHandler("omp"), Diags(Diags), Ctx(std::move(Ctx)),
      OnExtension(std::move(OnExtension)) {}

/// Lexes the rest of the pragma line exactly as clang's handler does: an
/// annot_pragma_openmp token, the line, an annot_pragma_openmp_end token.
static SmallVector<Token, 32> lexPragmaLine(Preprocessor &PP,
                                            SourceLocation IntroducerLoc) {
  SmallVector<Token, 32> Line;
  Token Tok;
  Tok.startToken();
  Tok.setKind(tok::annot_pragma_openmp);
  Tok.setLocation(IntroducerLoc);
  while (Tok.isNot(tok::eod) && Tok.isNot(tok::eof)) {
    Line.push_back(Tok);
    PP.Lex(Tok);
    if (Tok.isNot(tok::annot_pragma_openmp))
      continue;
    // A '#pragma omp' produced inside this one (by _Pragma in a macro): skip
    // it as clang does, with clang's diagnostic.
    PP.Diag(Tok, diag::err_omp_unexpected_directive) << 0;
    for (unsigned Inner = 1; Inner != 0;) {
      PP.Lex(Tok);
      if (Tok.is(tok::annot_pragma_openmp))
        ++Inner;
      else if (Tok.is(tok::annot_pragma_openmp_end))
        --Inner;
    }
    PP.Lex(Tok);
  }
  SourceLocation EndLoc = Tok.getLocation();
  Tok.startToken();
  Tok.setKind(tok::annot_pragma_openmp_end);
  Tok.setLocation(EndLoc);
  Line.push_back(Tok);
  return Line;
}

/// Enters a pragma line as clang's handler does.
static void enterTokens(Preprocessor &PP, ArrayRef<Token> Toks) {
  auto Copy = std::make_unique<Token[]>(Toks.size());
  std::copy(Toks.begin(), Toks.end(), Copy.get());
  PP.EnterTokenStream(std::move(Copy), Toks.size(),
                      /*DisableMacroExpansion=*/false, /*IsReinject=*/false);
}

/// Enters tokens that were already lexed (and macro-expanded) once.
static void reenterTokens(Preprocessor &PP, ArrayRef<Token> Toks) {
  if (Toks.empty())
    return;
  auto Copy = std::make_unique<Token[]>(Toks.size());
  std::copy(Toks.begin(), Toks.end(), Copy.get());
  PP.EnterTokenStream(std::move(Copy), Toks.size(),
                      /*DisableMacroExpansion=*/true, /*IsReinject=*/true);
}

/// After an error in a region, its statement goes back without OpenMP
/// directives: it still parses, and the error stays the only one.
static TokenVector withoutDirectives(ArrayRef<Token> Stmt) {
  TokenVector Plain;
  bool InPragma = false;
  for (const Token &T : Stmt) {
    if (T.is(tok::annot_pragma_openmp))
      InPragma = true;
    else if (T.is(tok::annot_pragma_openmp_end))
      InPragma = false;
    else if (!InPragma)
      Plain.push_back(T);
  }
  return Plain;
}

/// Writes a rewritten region as source text, one directive per line.
static void printRegion(Preprocessor &PP, ArrayRef<Token> Toks) {
  raw_ostream &OS = errs();
  OS << "homp region:\n";
  for (const Token &T : Toks) {
    if (T.is(tok::annot_pragma_openmp))
      OS << "\n#pragma omp";
    else if (T.is(tok::annot_pragma_openmp_end))
      OS << "\n";
    else
      OS << ' ' << PP.getSpelling(T);
  }
  OS << "\n";
}

/// The loop clauses that are only meaningful inside a distributed region.
static std::optional<std::string> regionOnlyClause(const Directive &D) {
  for (const Clause &C : D.Clauses) {
    if (C.Name == "dist_iteration")
      return std::string("'dist_iteration'");
    if (C.Name == "dist_schedule" && C.Args.size() > 1 &&
        identifierName(D.Toks[C.Args.Begin]) == "target" &&
        D.Toks[C.Args.Begin + 1].is(tok::colon))
      return std::string("'dist_schedule(target: ...)'");
  }
  for (unsigned W = 1; W < D.Words.size(); ++W)
    if (D.Words[W].Name == "distribute" && D.Words[W - 1].Name != "teams")
      return std::string("'distribute' over devices");
  return std::nullopt;
}

void OmpPragmaHandler::handleExtensions(Preprocessor &PP, ArrayRef<Token> Line,
                                        const Directive &D,
                                        SourceLocation UseLoc) {
  SourceLocation Loc = Line.front().getLocation();
  if (!D.hasWord("target")) {
    if (std::optional<std::string> Clause = regionOnlyClause(D))
      Diags.report(UseLoc, Diag::OutsideRegion) << *Clause;
    else
      Diags.report(UseLoc, Diag::NotSupportedYet)
          << ("'" +
              (D.Words.empty() ? std::string("omp")
                               : D.Words.front().Name.str()) +
              "'");
    return;
  }
  if (D.hasWord("enter") || D.hasWord("exit") || D.hasWord("update") ||
      D.hasWord("data")) {
    Diags.report(Loc, Diag::NotSupportedYet)
        << "distributed data on 'target data', 'target enter data', 'target "
           "exit data' and 'target update'";
    return;
  }

  TokenVector Stmt;
  Token ErrorTok;
  PreprocessorSource Source(PP);
  ++Collecting;
  bool Complete = scanStatement(Source, Stmt, ErrorTok);
  --Collecting;
  if (!Complete) {
    Diags.report(ErrorTok.getLocation(), Diag::IncompleteStatement);
    reenterTokens(PP, withoutDirectives(Stmt));
    return;
  }
  std::optional<TokenVector> Region =
      rewriteDistributedRegion(PP, Diags, Ctx, NextRegion++, Line, Stmt);
  if (Region && PrintRegions)
    printRegion(PP, *Region);
  reenterTokens(PP, Region ? ArrayRef<Token>(*Region)
                           : ArrayRef<Token>(withoutDirectives(Stmt)));
}

void OmpPragmaHandler::HandlePragma(Preprocessor &PP,
                                    PragmaIntroducer Introducer,
                                    Token &FirstTok) {
  SmallVector<Token, 32> Line = lexPragmaLine(PP, Introducer.Loc);
  if (Collecting) {
    enterTokens(PP, Line);
    return;
  }
  ArrayRef<Token> Body = ArrayRef<Token>(Line).drop_front().drop_back();

  std::optional<Directive> D = parseDirective(Body);
  std::optional<ExtensionUse> Use;
  if (D)
    Use = findExtension(*D, Ctx);
  if (!Use) {
    enterTokens(PP, Line);
    return;
  }

  SourceLocation Loc = Body[Use->Index].getLocation();
  OnExtension(Loc);
  handleExtensions(PP, Line, *D, Loc);
}

} // namespace homp
