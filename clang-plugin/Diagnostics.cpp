//===-- Diagnostics.cpp - The homp plugin's diagnostics -------------------===//

#include "Diagnostics.h"

#include "clang/Basic/DiagnosticParse.h"
#include "clang/Basic/TokenKinds.h"

using namespace clang;

namespace homp {

/// Custom diagnostics bypass clang's warning options, so -w and -Werror are
/// applied here.
static DiagnosticsEngine::Level levelFor(const DiagnosticsEngine &Engine,
                                         DiagnosticsEngine::Level L,
                                         bool Warnings) {
  if (L != DiagnosticsEngine::Warning)
    return L;
  if (!Warnings || Engine.getIgnoreAllWarnings())
    return DiagnosticsEngine::Ignored;
  return Engine.getWarningsAsErrors() ? DiagnosticsEngine::Error : L;
}

Diagnostics::Diagnostics(DiagnosticsEngine &Engine, bool Warnings)
    : Engine(Engine) {
  unsigned I = 0;
#define HOMP_DIAG(Name, Level, Format)                                         \
  IDs[I++] = Engine.getCustomDiagID(                                           \
      levelFor(Engine, DiagnosticsEngine::Level, Warnings), Format);
#include "Diagnostics.def"
}

DiagnosticBuilder Diagnostics::report(SourceLocation Loc, Diag D) {
  return target().Report(Loc, IDs[static_cast<unsigned>(D)]);
}

void Diagnostics::reportUnclosed(SourceLocation End, SourceLocation Open) {
  reportClang(End, diag::err_expected) << tok::r_paren;
  reportClang(Open, diag::note_matching) << tok::l_paren;
}

void Diagnostics::Keeper::HandleDiagnostic(DiagnosticsEngine::Level Level,
                                           const Diagnostic &Info) {
  DiagnosticConsumer::HandleDiagnostic(Level, Info);
  Kept.emplace_back(Level, Info);
}

void Diagnostics::hold() {
  // A second engine sharing the diagnostic IDs (homp's custom ones too)
  // formats the diagnostics and stores them.
  Store = std::make_unique<Keeper>();
  Held = std::make_unique<DiagnosticsEngine>(
      Engine.getDiagnosticIDs(), &Engine.getDiagnosticOptions(), Store.get(),
      /*ShouldOwnClient=*/false);
  Held->setSourceManager(&Engine.getSourceManager());
}

std::vector<StoredDiagnostic> Diagnostics::release() {
  std::vector<StoredDiagnostic> Kept;
  if (Store)
    Kept = std::move(Store->Kept);
  Held.reset();
  Store.reset();
  return Kept;
}

void Diagnostics::report(ArrayRef<StoredDiagnostic> Kept) {
  for (const StoredDiagnostic &SD : Kept) {
    // Reported anew, at their level, so that errors count as errors.
    DiagnosticBuilder B = Engine.Report(
        SD.getLocation(), Engine.getCustomDiagID(SD.getLevel(), "%0"));
    B << SD.getMessage();
    for (const CharSourceRange &R : SD.getRanges())
      B << R;
    for (const FixItHint &F : SD.getFixIts())
      B << F;
  }
}

} // namespace homp
