//===-- DataRewriter.h - Rewriting distributed data constructs --*- C++ -*-===//
//
// 'target data', 'target enter data', 'target exit data' and 'target
// update' with a device list or distributed items (SPEC.md section 6) stay
// the standard directive, with homp's marker in the device clause:
//
//   { extern long long __homp_data(const char *, ...);
//     #pragma omp target data device(__homp_data("<descriptor>", <values>))
//                             map(<items without distributions>)
//     <statement> }
//
// The homp pass redirects the data mapping calls clang makes for it to
// libhomp, which distributes the items over the devices; without the pass
// the construct maps its items, whole, on its first device.
//
//===----------------------------------------------------------------------===//

#ifndef HOMP_CLANG_PLUGIN_DATAREWRITER_H
#define HOMP_CLANG_PLUGIN_DATAREWRITER_H

#include "KernelRewriter.h"

namespace homp {

struct DataRewrite {
  /// What replaces the directive: for 'target data', everything before its
  /// statement (the statement and a closing '}' follow).
  TokenVector Tokens;
  bool HasStatement = false;
  /// What the construct distributes, for the constructs inside it (and, for
  /// 'target enter data', after it).
  std::vector<std::string> Distributed;
  std::vector<std::string> WithHalo; ///< those of Distributed with a halo
  Scope::SplitList Splits;           ///< see Scope
  std::vector<std::string> Labels;
};

/// Rewrites the data construct whose pragma line is Line; Stmt is its
/// statement ('target data'), else empty. std::nullopt after errors.
std::optional<DataRewrite> rewriteDataConstruct(
    const RewriteContext &RC, llvm::ArrayRef<clang::Token> Line,
    llvm::ArrayRef<clang::Token> Stmt);

/// Whether the directive is a data construct: 'target data' ('parallel
/// target data'), 'target enter data', 'target exit data', 'target update'.
bool isDataConstruct(const Directive &D);
/// Whether it has an associated statement ('target data').
bool isDataRegion(const Directive &D);

} // namespace homp

#endif // HOMP_CLANG_PLUGIN_DATAREWRITER_H
