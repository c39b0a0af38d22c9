//===-- Diagnostics.cpp - The homp plugin's diagnostics -------------------===//

#include "Diagnostics.h"

using namespace clang;

namespace homp {

/// Custom diagnostics bypass clang's warning options, so -w and -Werror are
/// applied here.
static DiagnosticsEngine::Level levelFor(const DiagnosticsEngine &Engine,
                                         DiagnosticsEngine::Level L) {
  if (L != DiagnosticsEngine::Warning)
    return L;
  if (Engine.getIgnoreAllWarnings())
    return DiagnosticsEngine::Ignored;
  return Engine.getWarningsAsErrors() ? DiagnosticsEngine::Error : L;
}

Diagnostics::Diagnostics(DiagnosticsEngine &Engine) : Engine(Engine) {
  unsigned I = 0;
#define HOMP_DIAG(Name, Level, Format)                                         \
  IDs[I++] = Engine.getCustomDiagID(                                           \
      levelFor(Engine, DiagnosticsEngine::Level), Format);
#include "Diagnostics.def"
}

DiagnosticBuilder Diagnostics::report(SourceLocation Loc, Diag D) {
  return Engine.Report(Loc, IDs[static_cast<unsigned>(D)]);
}

} // namespace homp
