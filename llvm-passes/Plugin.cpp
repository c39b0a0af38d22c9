//===-- Plugin.cpp - Registers the homp pass with the new pass manager ----===//
//
// homp-pass.so is loaded by clang (-fpass-plugin=) and by opt
// (-load-pass-plugin=). It registers the pass at the pipeline-start extension
// point and under the name "homp" for -passes=.
//
//===----------------------------------------------------------------------===//

#include "HompPass.h"

#include "llvm/Passes/PassBuilder.h"
#include "llvm/Passes/PassPlugin.h"

using namespace llvm;

static void registerHompPass(PassBuilder &PB) {
  // The library may be named twice on one command line (a user flag and the
  // wrapper's); the pass must still run once.
  static const PassBuilder *Registered = nullptr;
  if (Registered == &PB)
    return;
  Registered = &PB;
  PB.registerPipelineStartEPCallback(
      [](ModulePassManager &MPM, OptimizationLevel) {
        MPM.addPass(homp::HompPass());
      });
  PB.registerPipelineParsingCallback(
      [](StringRef Name, ModulePassManager &MPM,
         ArrayRef<PassBuilder::PipelineElement>) {
        if (Name != "homp")
          return false;
        MPM.addPass(homp::HompPass());
        return true;
      });
}

extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "homp", "0.1", registerHompPass};
}
