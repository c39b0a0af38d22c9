//===-- HompPlugin.cpp - The homp clang plugin ----------------------------===//
//
// Loaded with -fplugin=homp.so into every cc1 job (host and each offload
// device), where it adds homp's consumer (HompConsumer.h) to compilations
// with OpenMP.
//
//===----------------------------------------------------------------------===//

#include "HompConsumer.h"

#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendPluginRegistry.h"

using namespace clang;
using namespace llvm;

namespace {

class HompAction : public PluginASTAction {
protected:
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &CI,
                                                 StringRef) override {
    // Without -fopenmp clang's own handler ignores '#pragma omp'; keep it.
    if (!CI.getLangOpts().OpenMP)
      return std::make_unique<ASTConsumer>();
    return homp::createHompConsumer(CI, PrintRegions);
  }

  bool ParseArgs(const CompilerInstance &CI,
                 const std::vector<std::string> &Args) override {
    for (const std::string &Arg : Args) {
      if (Arg == "print-regions") {
        PrintRegions = true;
        continue;
      }
      DiagnosticsEngine &D = CI.getDiagnostics();
      D.Report(D.getCustomDiagID(DiagnosticsEngine::Error,
                                 "homp: unknown plugin argument '%0'"))
          << Arg;
      return false;
    }
    return true;
  }

  ActionType getActionType() override { return AddBeforeMainAction; }

private:
  bool PrintRegions = false;
};

} // namespace

static FrontendPluginRegistry::Add<HompAction>
    X("homp", "multi-device OpenMP extensions (homp)");
