//===-- HompConsumer.h - Installing homp in a compilation -------*- C++ -*-===//
//
// The AST consumer that puts homp's '#pragma omp' handler in place of
// clang's. The plugin adds it to every compilation with OpenMP; the fuzzer
// (utils/fuzz) adds it to the compilations it compares with plain clang's.
//
//===----------------------------------------------------------------------===//

#ifndef HOMP_CLANG_PLUGIN_HOMPCONSUMER_H
#define HOMP_CLANG_PLUGIN_HOMPCONSUMER_H

#include "clang/AST/ASTConsumer.h"
#include "clang/Basic/SourceLocation.h"

#include <functional>
#include <memory>

namespace clang {
class CompilerInstance;
} // namespace clang

namespace homp {

/// A consumer for CI's compilation, which needs OpenMP enabled. PrintRegions
/// prints each rewritten region to stderr; OnExtension, if given, is called
/// for each directive that uses homp's extensions.
std::unique_ptr<clang::ASTConsumer>
createHompConsumer(clang::CompilerInstance &CI, bool PrintRegions,
                   std::function<void(clang::SourceLocation)> OnExtension = {});

} // namespace homp

#endif // HOMP_CLANG_PLUGIN_HOMPCONSUMER_H
