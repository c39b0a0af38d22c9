//===-- Diagnostics.cpp - The homp plugin's diagnostics -------------------===//

#include "Diagnostics.h"

using namespace clang;

namespace homp {

Diagnostics::Diagnostics(DiagnosticsEngine &Engine) : Engine(Engine) {
  unsigned I = 0;
#define HOMP_DIAG(Name, Level, Format)                                         \
  IDs[I++] = Engine.getCustomDiagID(DiagnosticsEngine::Level, Format);
#include "Diagnostics.def"
}

DiagnosticBuilder Diagnostics::report(SourceLocation Loc, Diag D) {
  return Engine.Report(Loc, IDs[static_cast<unsigned>(D)]);
}

} // namespace homp
