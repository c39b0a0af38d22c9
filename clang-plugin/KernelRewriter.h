//===-- KernelRewriter.h - Rewriting a distributed kernel -------*- C++ -*-===//
//
// A 'target' construct with a device list or distributed map items is
// rewritten into standard OpenMP (DESIGN.md, mechanism 2):
//
//   {
//     extern long long __homp_region(const char *, void *, ...);  // libhomp
//     <chunk type> __homp_chunk_N = {{{lb, ub, s}, ...}};  // one per loop
//     #pragma omp target device(__homp_region("<descriptor>", &__homp_chunk_N,
//                                             <run-time values>))
//                        map(<items without distributions>)
//                        map(to: __homp_chunk_N)
//     for (i = __homp_chunk_N.l[0].first; i < __homp_chunk_N.l[0].bound; ...)
//       ...
//   }
//
// The marker call describes the kernel to libhomp and returns a handle the
// homp pass routes to libhomp's launch; each launch of each device gets its
// own chunk. The chunk holds the whole nest, so without the pass the program
// still runs correctly on one device.
//
//===----------------------------------------------------------------------===//

#ifndef HOMP_CLANG_PLUGIN_KERNELREWRITER_H
#define HOMP_CLANG_PLUGIN_KERNELREWRITER_H

#include "ConstructModel.h"
#include "Diagnostics.h"
#include "Extensions.h"

#include <optional>

namespace homp {

/// Everything a rewriter needs besides the construct's tokens.
struct RewriteContext {
  clang::Preprocessor &PP;
  Diagnostics &Diags;
  const SyntaxContext &Ctx;
  TopologyTable &Topologies;
  const Scope &Around;
  unsigned Id; ///< makes the names it declares unique in the file
};

/// Rewrites the kernel whose pragma line is Line (annotation tokens
/// included) and whose statement is Stmt. Returns the tokens that replace
/// both, or std::nullopt after reporting errors.
std::optional<TokenVector> rewriteKernel(const RewriteContext &RC,
                                         llvm::ArrayRef<clang::Token> Line,
                                         llvm::ArrayRef<clang::Token> Stmt);

} // namespace homp

#endif // HOMP_CLANG_PLUGIN_KERNELREWRITER_H
