//===-- Diagnostics.h - The homp plugin's diagnostics -----------*- C++ -*-===//
//
// The plugin's diagnostics, registered once per compilation from the table in
// Diagnostics.def and reported in clang's usual format.
//
//===----------------------------------------------------------------------===//

#ifndef HOMP_CLANG_PLUGIN_DIAGNOSTICS_H
#define HOMP_CLANG_PLUGIN_DIAGNOSTICS_H

#include "clang/Basic/Diagnostic.h"

namespace homp {

enum class Diag {
#define HOMP_DIAG(Name, Level, Format) Name,
#include "Diagnostics.def"
};

/// Reports the diagnostics of Diagnostics.def through a clang
/// DiagnosticsEngine.
class Diagnostics {
public:
  explicit Diagnostics(clang::DiagnosticsEngine &Engine);

  clang::DiagnosticBuilder report(clang::SourceLocation Loc, Diag D);

  /// Reports one of clang's own diagnostics (clang::diag::*), for code that
  /// homp's rewriting takes away from clang's checks.
  clang::DiagnosticBuilder reportClang(clang::SourceLocation Loc,
                                       unsigned ClangID) {
    return Engine.Report(Loc, ClangID);
  }

  bool hasErrors() const { return Engine.hasErrorOccurred(); }

private:
  clang::DiagnosticsEngine &Engine;
  unsigned IDs[
#define HOMP_DIAG(Name, Level, Format) +1
#include "Diagnostics.def"
  ];
};

} // namespace homp

#endif // HOMP_CLANG_PLUGIN_DIAGNOSTICS_H
