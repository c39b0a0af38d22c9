//===-- Diagnostics.h - The homp plugin's diagnostics -----------*- C++ -*-===//
//
// The plugin's diagnostics, registered once per compilation from the table in
// Diagnostics.def and reported in clang's usual format.
//
//===----------------------------------------------------------------------===//

#ifndef HOMP_CLANG_PLUGIN_DIAGNOSTICS_H
#define HOMP_CLANG_PLUGIN_DIAGNOSTICS_H

#include "clang/Basic/Diagnostic.h"
#include "llvm/ADT/ArrayRef.h"

#include <memory>
#include <vector>

namespace homp {

enum class Diag {
#define HOMP_DIAG(Name, Level, Format) Name,
#include "Diagnostics.def"
};

/// Reports the diagnostics of Diagnostics.def through a clang
/// DiagnosticsEngine.
class Diagnostics {
public:
  /// Without Warnings, the warnings (and their notes) are not reported: a
  /// program with offload targets is compiled once for the host and once
  /// per target, with the same pragmas, and the host's compilation reports
  /// them. Errors are reported in every compilation.
  explicit Diagnostics(clang::DiagnosticsEngine &Engine, bool Warnings = true);

  clang::DiagnosticBuilder report(clang::SourceLocation Loc, Diag D);

  /// Reports one of clang's own diagnostics (clang::diag::*), for code that
  /// homp's rewriting takes away from clang's checks.
  clang::DiagnosticBuilder reportClang(clang::SourceLocation Loc,
                                       unsigned ClangID) {
    return target().Report(Loc, ClangID);
  }

  /// clang's own "expected ')'" at End (where a pragma line's tokens end),
  /// with "to match this '('" at Open.
  void reportUnclosed(clang::SourceLocation End, clang::SourceLocation Open);

  bool hasErrors() const { return Engine.hasErrorOccurred(); }

  /// Keeps the diagnostics reported from now on back, until release().
  void hold();
  /// Returns the diagnostics kept back since hold(); reports go on as usual.
  std::vector<clang::StoredDiagnostic> release();
  /// Reports diagnostics that were kept back.
  void report(llvm::ArrayRef<clang::StoredDiagnostic> Kept);

private:
  clang::DiagnosticsEngine &target() { return Held ? *Held : Engine; }

  /// Keeps what the engine of hold() reports.
  struct Keeper : clang::DiagnosticConsumer {
    std::vector<clang::StoredDiagnostic> Kept;
    void HandleDiagnostic(clang::DiagnosticsEngine::Level Level,
                          const clang::Diagnostic &Info) override;
  };

  clang::DiagnosticsEngine &Engine;
  std::unique_ptr<Keeper> Store;
  std::unique_ptr<clang::DiagnosticsEngine> Held;
  unsigned IDs[
#define HOMP_DIAG(Name, Level, Format) +1
#include "Diagnostics.def"
  ];
};

} // namespace homp

#endif // HOMP_CLANG_PLUGIN_DIAGNOSTICS_H
