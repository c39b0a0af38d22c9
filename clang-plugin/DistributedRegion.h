//===-- DistributedRegion.h - Rewriting a multi-device region ---*- C++ -*-===//
//
// A 'target' construct with a device list or distributed map items is
// rewritten into standard OpenMP (DESIGN.md, mechanism 2):
//
//   {
//     extern long long __homp_region(const char *, void *, ...);  // libhomp
//     struct { long long first, bound, step; } __homp_chunk_N = {lb, ub, s};
//     #pragma omp target device(__homp_region("<descriptor>", &__homp_chunk_N,
//                                             <run-time values>))
//                        map(<items without distributions>)
//                        map(to: __homp_chunk_N)
//     for (i = __homp_chunk_N.first; i < __homp_chunk_N.bound; i += s) ...
//   }
//
// The marker call describes the region to libhomp and returns a handle the
// homp pass routes to libhomp's launch; each device gets its own chunk. The
// chunk variable holds the whole loop, so without the pass the program still
// runs correctly on one device.
//
//===----------------------------------------------------------------------===//

#ifndef HOMP_CLANG_PLUGIN_DISTRIBUTEDREGION_H
#define HOMP_CLANG_PLUGIN_DISTRIBUTEDREGION_H

#include "Diagnostics.h"
#include "Extensions.h"
#include "TokenSynth.h"

#include <optional>

namespace homp {

/// Rewrites the construct whose pragma line is Line (annotation tokens
/// included) and whose statement is Stmt. Id makes the names it declares
/// unique in the translation unit. Returns the tokens that replace both, or
/// std::nullopt after reporting errors.
std::optional<TokenVector>
rewriteDistributedRegion(clang::Preprocessor &PP, Diagnostics &Diags,
                         const SyntaxContext &Ctx, unsigned Id,
                         llvm::ArrayRef<clang::Token> Line,
                         llvm::ArrayRef<clang::Token> Stmt);

} // namespace homp

#endif // HOMP_CLANG_PLUGIN_DISTRIBUTEDREGION_H
