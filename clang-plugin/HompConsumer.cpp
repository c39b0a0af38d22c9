//===-- HompConsumer.cpp - Installing homp in a compilation ---------------===//
//
// Before the first token is lexed, the consumer replaces clang's '#pragma
// omp' handler with homp's, which hands standard OpenMP to clang unchanged.
//
//===----------------------------------------------------------------------===//

#include "HompConsumer.h"

#include "ConstructModel.h"
#include "Diagnostics.h"
#include "OmpPragmaHandler.h"

#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Sema/Lookup.h"
#include "clang/Sema/Sema.h"
#include "clang/Sema/SemaConsumer.h"
#include "llvm/Support/Path.h"

using namespace clang;
using namespace llvm;

namespace {

constexpr llvm::StringLiteral PassLibraryName = "homp-pass.so";

bool isHompPassLoaded(const CodeGenOptions &Opts) {
  return any_of(Opts.PassPlugins, [](const std::string &Path) {
    return sys::path::filename(Path) == PassLibraryName;
  });
}

/// Whether Name is declared (as a variable, function, enumerator, ...) where
/// the parser is now.
bool isDeclared(Sema &S, const Token &Name) {
  IdentifierInfo *II = homp::identifierOf(Name);
  if (!II)
    return false;
  LookupResult R(S, DeclarationName(II), Name.getLocation(),
                 Sema::LookupOrdinaryName);
  R.suppressDiagnostics();
  return S.LookupName(R, S.getCurScope()) && !R.empty();
}

/// Whether Name names a typedef or alias of an integer type where the
/// parser is now.
bool namesIntegerType(Sema &S, const Token &Name) {
  IdentifierInfo *II = homp::identifierOf(Name);
  if (!II)
    return false;
  LookupResult R(S, DeclarationName(II), Name.getLocation(),
                 Sema::LookupOrdinaryName);
  R.suppressDiagnostics();
  if (!S.LookupName(R, S.getCurScope()) || !R.isSingleResult())
    return false;
  const auto *TD = dyn_cast<TypedefNameDecl>(R.getFoundDecl());
  return TD && TD->getUnderlyingType()->isIntegerType();
}

/// Whether the parser is in a class body, outside any function: member
/// function bodies met there are stored and parsed once the class is
/// complete.
bool inClassBody(Sema &S) {
  for (clang::Scope *Sc = S.getCurScope(); Sc; Sc = Sc->getParent()) {
    if (Sc->isClassScope())
      return true;
    if (Sc->isFunctionScope() || Sc->isBlockScope())
      return false;
  }
  return false;
}

/// The last character of code before Loc in its file, ignoring blanks,
/// comments and preprocessor lines; 0 where it cannot tell (Loc in a macro's
/// scratch space, a comment it cannot follow back within a few lines).
char lastCodeCharBefore(const SourceManager &SM, SourceLocation Loc) {
  Loc = SM.getExpansionLoc(Loc);
  if (Loc.isInvalid() || !Loc.isFileID())
    return 0;
  std::pair<FileID, unsigned> At = SM.getDecomposedLoc(Loc);
  bool Invalid = false;
  StringRef Buffer = SM.getBufferData(At.first, &Invalid);
  if (Invalid || At.second > Buffer.size())
    return 0;
  StringRef Before = Buffer.take_front(At.second);
  // The directive's own line, up to it ('#pragma' or a macro's name).
  size_t LineStart = Before.rfind('\n') + 1; // npos + 1 == 0
  StringRef Line = Before.drop_front(LineStart);
  if (Line.ltrim().starts_with("#"))
    Line = "";
  constexpr int MaxLines = 64;
  bool InBlockComment = false;
  for (int Lines = 0; Lines < MaxLines; ++Lines) {
    // The line without its '//' comment (outside quotes); block comments
    // are followed back line by line.
    std::string Code;
    char Quote = 0;
    for (size_t I = 0; I < Line.size(); ++I) {
      char C = Line[I];
      if (Quote) {
        if (C == '\\')
          ++I;
        else if (C == Quote)
          Quote = 0;
        Code += 'x';
      } else if (C == '"' || C == '\'') {
        Quote = C;
        Code += 'x';
      } else if (Line.substr(I).starts_with("//")) {
        break;
      } else {
        Code += C;
      }
    }
    StringRef Text = StringRef(Code).rtrim();
    if (InBlockComment) {
      size_t Open = Text.rfind("/*");
      if (Open == StringRef::npos)
        Text = "";
      else {
        Text = Text.take_front(Open).rtrim();
        InBlockComment = false;
      }
    }
    while (!InBlockComment && Text.ends_with("*/")) {
      size_t Open = Text.rfind("/*");
      if (Open == StringRef::npos) {
        InBlockComment = true;
        Text = "";
      } else {
        Text = Text.take_front(Open).rtrim();
      }
    }
    if (Text.ltrim().starts_with("#"))
      Text = "";
    if (!Text.empty() && !InBlockComment)
      return Text.back();
    if (LineStart == 0)
      return 0;
    size_t PrevStart = Buffer.take_front(LineStart - 1).rfind('\n') + 1;
    Line = Buffer.slice(PrevStart, LineStart - 1);
    LineStart = PrevStart;
  }
  return 0;
}

/// Whether the parser is outside every function, block and class body at
/// the directive at Loc. The directive after a function's closing brace is
/// read (as the parser's next token) before the parser leaves the body's
/// scope: there the body's scope does not count.
bool atFileScope(Sema &S, SourceLocation Loc) {
  clang::Scope *Sc = S.getCurScope();
  if (!Sc)
    return false;
  if (Sc->isFunctionScope() &&
      lastCodeCharBefore(S.getSourceManager(), Loc) == '}')
    Sc = Sc->getParent();
  for (; Sc; Sc = Sc->getParent())
    if (Sc->isFunctionScope() || Sc->isBlockScope() || Sc->isClassScope())
      return false;
  return true;
}

/// The shape of the variable Name refers to where the parser is now.
std::optional<homp::VarShape> shapeOf(Sema &S, const Token &Name) {
  IdentifierInfo *II = homp::identifierOf(Name);
  if (!II)
    return std::nullopt;
  LookupResult R(S, DeclarationName(II), Name.getLocation(),
                 Sema::LookupOrdinaryName);
  R.suppressDiagnostics();
  if (!S.LookupName(R, S.getCurScope()) || !R.isSingleResult())
    return std::nullopt;
  // A variable, or a data member named inside a member function.
  const NamedDecl *Found = R.getFoundDecl();
  homp::VarShape Shape;
  if (isa<EnumConstantDecl, FunctionDecl>(Found)) {
    Shape.Kind = homp::VarShape::Value;
    return Shape;
  }
  if (!isa<VarDecl, FieldDecl, IndirectFieldDecl>(Found))
    return std::nullopt;
  QualType T = cast<ValueDecl>(Found)->getType().getNonReferenceType();
  if (T->isDependentType()) {
    Shape.Dependent = true;
    return Shape;
  }
  auto ArrayDims = [](QualType Q) {
    unsigned N = 0;
    while (const clang::ArrayType *AT = Q->getAsArrayTypeUnsafe()) {
      ++N;
      Q = AT->getElementType();
    }
    return N;
  };
  if (T->isPointerType()) {
    Shape.Kind = homp::VarShape::Pointer;
    Shape.Rank = 1 + ArrayDims(T->getPointeeType());
  } else if (T->isArrayType()) {
    Shape.Kind = homp::VarShape::Array;
    Shape.Rank = ArrayDims(T);
  } else if (T->isScalarType()) {
    Shape.Kind = homp::VarShape::Scalar;
  }
  return Shape;
}

/// Whether Name, where the parser is now, is a data member that a member
/// function reaches through 'this' (SyntaxContext::IsMember).
homp::SyntaxContext::Membership isMember(Sema &S, const Token &Name) {
  using M = homp::SyntaxContext::Membership;
  IdentifierInfo *II = homp::identifierOf(Name);
  if (!II)
    return M::No;
  LookupResult R(S, DeclarationName(II), Name.getLocation(),
                 Sema::LookupOrdinaryName);
  R.suppressDiagnostics();
  if (!S.LookupName(R, S.getCurScope()) || R.empty())
    return inClassBody(S) ? M::Unknown : M::No;
  return R.isSingleResult() &&
                 isa<FieldDecl, IndirectFieldDecl>(R.getFoundDecl())
             ? M::Yes
             : M::No;
}

/// Whether some statement of a declaration begins within [First, Last].
class StatementFinder : public RecursiveASTVisitor<StatementFinder> {
public:
  StatementFinder(const SourceManager &SM, SourceLocation First,
                  SourceLocation Last)
      : SM(SM), First(SM.getExpansionLoc(First)),
        Last(SM.getExpansionLoc(Last)) {}

  bool VisitStmt(Stmt *S) {
    SourceLocation L = SM.getExpansionLoc(S->getBeginLoc());
    Found = L.isValid() && !SM.isBeforeInTranslationUnit(L, First) &&
            !SM.isBeforeInTranslationUnit(Last, L);
    return !Found;
  }

  bool Found = false;

private:
  const SourceManager &SM;
  SourceLocation First, Last;
};

class HompConsumer : public SemaConsumer {
public:
  HompConsumer(CompilerInstance &CI, bool PrintRegions,
               std::function<void(SourceLocation)> OnExtension)
      : CI(CI),
        // Warnings once, from the host's compilation (Diagnostics.h).
        Diags(CI.getDiagnostics(), !CI.getLangOpts().OpenMPIsTargetDevice),
        PrintRegions(PrintRegions), OnExtension(std::move(OnExtension)) {}

  void InitializeSema(Sema &S) override {
    Preprocessor &PP = S.getPreprocessor();
    // RemovePragmaHandler looks handlers up by name, so a stand-in called
    // 'omp' takes out clang's. The Parser removes ours, by the same name,
    // when it is destroyed; we keep ownership.
    EmptyPragmaHandler StandIn("omp");
    PP.RemovePragmaHandler(&StandIn);
    homp::SyntaxContext Ctx;
    Ctx.CPlusPlus = S.getLangOpts().CPlusPlus;
    Ctx.IsDeclared = [&S](const Token &Name) { return isDeclared(S, Name); };
    Ctx.MayBeDeclared = [&S](const Token &Name) {
      return inClassBody(S) || isDeclared(S, Name);
    };
    Ctx.ShapeOf = [&S](const Token &Name) { return shapeOf(S, Name); };
    Ctx.NamesIntegerType = [&S](const Token &Name) {
      return namesIntegerType(S, Name);
    };
    if (Ctx.CPlusPlus)
      Ctx.IsMember = [&S](const Token &Name) { return isMember(S, Name); };
    Ctx.AtFileScope = [&S](SourceLocation Loc) { return atFileScope(S, Loc); };
    Handler = std::make_unique<homp::OmpPragmaHandler>(
        Diags, std::move(Ctx),
        [this](SourceLocation Loc) { noteExtensionUse(Loc); });
    Handler->setPrintRegions(PrintRegions);
    PP.AddPragmaHandler(Handler.get());
  }

  bool HandleTopLevelDecl(DeclGroupRef DG) override {
    if (!Handler || !Handler->hasHeldErrors())
      return true;
    const SourceManager &SM = CI.getSourceManager();
    for (Decl *D : DG)
      Handler->settleHeldErrors(SM, D->getSourceRange(),
                                [&](SourceLocation First, SourceLocation Last) {
                                  StatementFinder Finder(SM, First, Last);
                                  Finder.TraverseDecl(D);
                                  return Finder.Found;
                                });
    return true;
  }

  void HandleTranslationUnit(ASTContext &) override {
    if (Handler)
      Handler->reportHeldErrors();
  }

private:
  void noteExtensionUse(SourceLocation Loc) {
    if (OnExtension)
      OnExtension(Loc);
    if (WarnedAboutPass || isHompPassLoaded(CI.getCodeGenOpts()))
      return;
    WarnedAboutPass = true;
    Diags.report(Loc, homp::Diag::PassNotLoaded) << PassLibraryName;
  }

  CompilerInstance &CI;
  homp::Diagnostics Diags;
  std::unique_ptr<homp::OmpPragmaHandler> Handler;
  bool PrintRegions;
  std::function<void(SourceLocation)> OnExtension;
  bool WarnedAboutPass = false;
};

} // namespace

std::unique_ptr<ASTConsumer>
homp::createHompConsumer(CompilerInstance &CI, bool PrintRegions,
                         std::function<void(SourceLocation)> OnExtension) {
  // Before the predefines are read (they are when the main file is
  // entered, after the consumers are made).
  if (CI.getLangOpts().CPlusPlus && CI.hasPreprocessor()) {
    Preprocessor &PP = CI.getPreprocessor();
    PP.setPredefines(PP.getPredefines() + homp::cxxPrelude().str());
  }
  return std::make_unique<HompConsumer>(CI, PrintRegions,
                                        std::move(OnExtension));
}
