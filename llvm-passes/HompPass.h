//===-- HompPass.h - Redirects distributed offload launches -----*- C++ -*-===//
//
// The module pass of homp. On the host module of an OpenMP offload
// compilation it redirects the offload entry points of distributed regions to
// libhomp (DESIGN.md, mechanism 3). Device modules are left alone.
//
//===----------------------------------------------------------------------===//

#ifndef HOMP_LLVM_PASSES_HOMPPASS_H
#define HOMP_LLVM_PASSES_HOMPPASS_H

#include "llvm/IR/PassManager.h"

namespace homp {

/// What the pass did to one module.
struct PassSummary {
  bool IsDeviceModule = false;
  unsigned Markers = 0;  ///< region and data markers armed
  unsigned Launches = 0; ///< kernel launches redirected
  unsigned DataCalls = 0; ///< data mapping calls redirected
  unsigned Thunks = 0;   ///< host thunks built
};

/// Transforms M; returns what it did.
PassSummary runHompPass(llvm::Module &M);

class HompPass : public llvm::PassInfoMixin<HompPass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }
};

} // namespace homp

#endif // HOMP_LLVM_PASSES_HOMPPASS_H
