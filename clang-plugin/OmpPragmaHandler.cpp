//===-- OmpPragmaHandler.cpp - homp's '#pragma omp' handler ---------------===//

#include "OmpPragmaHandler.h"

#include "DataRewriter.h"
#include "HaloDirective.h"
#include "Directive.h"
#include "KernelRewriter.h"
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

/// Enters tokens that were already lexed, letting the preprocessor expand
/// only the '_Pragma' triggers among them (deferDirectives).
static void reenterWithTriggers(Preprocessor &PP, ArrayRef<Token> Toks) {
  if (Toks.empty())
    return;
  auto Copy = std::make_unique<Token[]>(Toks.size());
  for (size_t I = 0; I < Toks.size(); ++I) {
    Copy[I] = Toks[I];
    if (identifierName(Toks[I]) != "_Pragma")
      Copy[I].setFlag(Token::DisableExpand);
  }
  PP.EnterTokenStream(std::move(Copy), Toks.size(),
                      /*DisableMacroExpansion=*/false, /*IsReinject=*/true);
}

/// The word that marks a directive brought back by a trigger.
static constexpr StringLiteral DeferredWord = "__homp_deferred";

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

/// The directive's words as written ('target enter update').
static std::string spellWords(Preprocessor &PP, const Directive &D) {
  std::string S;
  for (const Word &W : D.Words)
    S += (S.empty() ? "" : " ") + W.Name.str();
  return S;
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

/// For a pragma line (annot_pragma_openmp ... annot_pragma_openmp_end) that
/// parseDirective rejected with Shape: when it names homp's extensions,
/// reports where its shape breaks, as clang does for its own clauses ("expected
/// ')'" after the last token, "to match this '('"), and returns true: the
/// line is dropped. Given to clang, it would report the extensions it does
/// not know instead ("call to undeclared function 'dist_data'", ...).
static bool reportShape(Preprocessor &PP, Diagnostics &Diags,
                        ArrayRef<Token> Line, const ShapeError &Shape) {
  ArrayRef<Token> Body = Line.drop_front().drop_back();
  if (!mentionsExtension(Body) || Shape.Index >= Body.size())
    return false;
  const Token &At = Body[Shape.Index];
  if (Shape.Unclosed) {
    Diags.reportUnclosed(PP.getLocForEndOfToken(Body.back().getLocation()),
                         At.getLocation());
  } else {
    Diags.report(At.getLocation(), Diag::ExpectedClause) << PP.getSpelling(At);
  }
  return true;
}

TokenVector OmpPragmaHandler::deferDirectives(Preprocessor &PP,
                                              ArrayRef<Token> Stmt,
                                              const Scope &Around) {
  TokenVector Out;
  TokenSynth Synth(PP);
  for (unsigned I = 0; I < Stmt.size(); ++I) {
    if (Stmt[I].isNot(tok::annot_pragma_openmp)) {
      Out.push_back(Stmt[I]);
      continue;
    }
    unsigned End = I;
    while (End < Stmt.size() && Stmt[End].isNot(tok::annot_pragma_openmp_end))
      ++End;
    if (End == Stmt.size()) {
      Out.append(Stmt.begin() + I, Stmt.end());
      break;
    }
    ArrayRef<Token> Line = Stmt.slice(I, End + 1 - I);
    ShapeError Shape;
    std::optional<Directive> D =
        parseDirective(Line.drop_front().drop_back(), &Shape);
    if (!D && reportShape(PP, Diags, Line, Shape)) {
      I = End;
      continue;
    }
    if (!D || !findExtension(*D, Ctx)) {
      Out.append(Line.begin(), Line.end());
    } else {
      SourceLocation Loc = Line.front().getLocation();
      unsigned K = static_cast<unsigned>(DeferredDirectives.size());
      DeferredDirectives.push_back({TokenVector(Line.begin(), Line.end()), Around});
      Synth.append(Out, "_Pragma(\"omp " + DeferredWord.str() + " " +
                            std::to_string(K) + "\")",
                   Loc);
    }
    I = End;
  }
  return Out;
}

bool OmpPragmaHandler::collectStatement(Preprocessor &PP, ArrayRef<Token> Line,
                                        TokenVector &Stmt) {
  ScanFailure Why;
  bool Complete;
  {
    PreprocessorSource Source(PP);
    ++Collecting;
    Complete = scanStatement(Source, Stmt, Why);
    --Collecting;
  }
  if (Complete)
    return true;
  // Malformed tokens go back as they are, for clang to report where they
  // are wrong; only a statement that is not there at all is homp's to
  // report, at the end of the directive when the file ends.
  if (Why.Missing)
    Diags.report(Why.Tok.is(tok::eof) ? Line.back().getLocation()
                                      : Why.Tok.getLocation(),
                 Diag::IncompleteStatement);
  reenterTokens(PP, withoutDirectives(Stmt));
  return false;
}

void OmpPragmaHandler::handleDataConstruct(Preprocessor &PP,
                                           ArrayRef<Token> Line,
                                           const Directive &D,
                                           const Scope &Around) {
  RewriteContext RC{PP, Diags, Ctx, Topologies, Around, NextRegion++};
  if (!isDataRegion(D)) {
    std::optional<DataRewrite> R = rewriteDataConstruct(RC, Line, {});
    if (!R)
      return;
    FileScope.add(R->Distributed, R->WithHalo, R->Splits);
    if (PrintRegions)
      printRegion(PP, R->Tokens);
    reenterTokens(PP, R->Tokens);
    return;
  }
  TokenVector Stmt;
  if (!collectStatement(PP, Line, Stmt))
    return;
  Diags.hold();
  std::optional<DataRewrite> R = rewriteDataConstruct(RC, Line, Stmt);
  std::vector<StoredDiagnostic> Kept = Diags.release();
  if (!R)
    return reenterFailed(PP, Stmt, std::move(Kept));
  Diags.report(Kept);
  Scope Inside = Around;
  Inside.add(R->Distributed, R->WithHalo, R->Splits);
  Inside.Labels.insert(Inside.Labels.end(), R->Labels.begin(), R->Labels.end());
  TokenVector Out = R->Tokens;
  TokenVector Deferred = deferDirectives(PP, Stmt, Inside);
  Out.append(Deferred.begin(), Deferred.end());
  TokenSynth(PP).append(Out, "}", Stmt.back().getLocation());
  if (PrintRegions)
    printRegion(PP, Out);
  reenterWithTriggers(PP, Out);
}

void OmpPragmaHandler::handleExtensions(Preprocessor &PP, ArrayRef<Token> Line,
                                        const Directive &D,
                                        SourceLocation UseLoc,
                                        const Scope &Around) {
  SourceLocation Loc = Line.front().getLocation();
  // A construct homp rewrites is a statement: outside every function clang
  // would say "unexpected OpenMP directive"; the rewritten tokens would
  // instead read as declarations, or as nothing at all.
  bool Statement = isHaloDirective(D) ||
                   (!D.Words.empty() && D.Words.front().Name == "target");
  if (Statement && Ctx.AtFileScope(Loc)) {
    Diags.report(Loc, Diag::StatementOutsideFunction)
        << (isHaloDirective(D) ? D.Words.front().Name.str()
                               : "#pragma omp " + spellWords(PP, D));
    return;
  }
  if (isHaloDirective(D)) {
    RewriteContext RC{PP, Diags, Ctx, Topologies, Around, NextRegion++};
    if (std::optional<TokenVector> Call = rewriteHaloDirective(RC, D))
      reenterTokens(PP, *Call);
    return;
  }
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
  if (isDataConstruct(D))
    return handleDataConstruct(PP, Line, D, Around);
  if (D.hasWord("enter") || D.hasWord("exit") || D.hasWord("update") ||
      D.hasWord("data")) {
    Diags.report(Loc, Diag::BadSpelling)
        << spellWords(PP, D)
        << "expected 'target data', 'target enter data', "
           "'target exit data' or 'target update'";
    return;
  }

  TokenVector Stmt;
  if (!collectStatement(PP, Line, Stmt))
    return;
  RewriteContext RC{PP, Diags, Ctx, Topologies, Around, NextRegion++};
  Diags.hold();
  std::optional<TokenVector> Region = rewriteKernel(RC, Line, Stmt);
  std::vector<StoredDiagnostic> Kept = Diags.release();
  if (!Region)
    return reenterFailed(PP, Stmt, std::move(Kept));
  Diags.report(Kept);
  if (PrintRegions)
    printRegion(PP, *Region);
  reenterTokens(PP, *Region);
}

void OmpPragmaHandler::reenterFailed(Preprocessor &PP, ArrayRef<Token> Stmt,
                                     std::vector<StoredDiagnostic> Kept) {
  TokenVector Plain = withoutDirectives(Stmt);
  if (Plain.empty())
    Diags.report(Kept);
  else
    HeldErrors.push_back(
        {Plain.front().getLocation(), Plain.back().getLocation(), Kept});
  reenterTokens(PP, Plain);
}

void OmpPragmaHandler::settleHeldErrors(
    const SourceManager &SM, SourceRange Decl,
    function_ref<bool(SourceLocation, SourceLocation)> Parsed) {
  SourceLocation Begin = SM.getExpansionLoc(Decl.getBegin());
  SourceLocation End = SM.getExpansionLoc(Decl.getEnd());
  erase_if(HeldErrors, [&](const HeldError &H) {
    SourceLocation First = SM.getExpansionLoc(H.First);
    if (SM.isBeforeInTranslationUnit(End, First))
      return false; // a later declaration's
    // Before the declaration: in none that clang kept.
    if (!SM.isBeforeInTranslationUnit(First, Begin) && Parsed(H.First, H.Last))
      Diags.report(H.Kept);
    return true;
  });
}

void OmpPragmaHandler::reportHeldErrors() {
  for (const HeldError &H : HeldErrors)
    Diags.report(H.Kept);
  HeldErrors.clear();
}

void OmpPragmaHandler::HandlePragma(Preprocessor &PP,
                                    PragmaIntroducer Introducer,
                                    Token &FirstTok) {
  SmallVector<Token, 32> Line = lexPragmaLine(PP, Introducer.Loc);
  ArrayRef<Token> Body = ArrayRef<Token>(Line).drop_front().drop_back();
  // A directive deferDirectives took out, brought back where it was.
  const Scope *Around = &FileScope;
  Scope Merged;
  if (Body.size() == 2 && identifierName(Body[0]) == DeferredWord) {
    std::optional<int64_t> K =
        Body[1].is(tok::numeric_constant)
            ? std::optional<int64_t>(std::stoll(PP.getSpelling(Body[1])))
            : std::nullopt;
    if (K && *K >= 0 && static_cast<size_t>(*K) < DeferredDirectives.size()) {
      Line.assign(DeferredDirectives[*K].Line.begin(),
                  DeferredDirectives[*K].Line.end());
      Merged = DeferredDirectives[*K].Around;
      // (And what 'enter data' inside the region, read since, says of
      // halos.)
      for (const std::string &N : FileScope.Distributed)
        if (!Merged.distributes(N))
          Merged.add({N}, FileScope.WithHalo, FileScope.Splits);
        else if (FileScope.hasHalo(N) && !Merged.hasHalo(N))
          Merged.WithHalo.push_back(N);
      Around = &Merged;
      Body = ArrayRef<Token>(Line).drop_front().drop_back();
    }
  }
  if (Collecting) {
    enterTokens(PP, Line);
    return;
  }

  ShapeError Shape;
  std::optional<Directive> D = parseDirective(Body, &Shape);
  if (!D && reportShape(PP, Diags, Line, Shape)) {
    OnExtension(Body.front().getLocation());
    return;
  }
  // Later constructs run on the host's memory on every device.
  if (D && D->hasWord("requires"))
    for (const Clause &C : D->Clauses)
      if (C.Name == "unified_shared_memory")
        Ctx.UnifiedSharedMemory = true;
  std::optional<ExtensionUse> Use;
  if (D)
    Use = findExtension(*D, Ctx);
  if (!Use) {
    enterTokens(PP, Line);
    return;
  }

  SourceLocation Loc = Body[Use->Index].getLocation();
  OnExtension(Loc);
  handleExtensions(PP, Line, *D, Loc, *Around);
}

} // namespace homp
