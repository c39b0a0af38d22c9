//===-- WorkAnalysis.h - How much a loop body computes ----------*- C++ -*-===//
//
// The operation count of a kernel's loop body, for the machine model that
// weighs a device's computing against its copies (HOMP'16 IV.B: the
// kernel's FLOPs, "collected through compiler analysis"). Counted from the
// tokens, as the rest of the plugin reads the body:
//
//  - one operation per arithmetic, bitwise, comparison or logical operator,
//    compound assignment, increment or decrement, unary minus, '?:', and
//    call; plain assignments, subscripts, member accesses, casts,
//    dereferences and address-of count nothing (in C++, neither do the
//    brackets of a named cast; other template arguments count as
//    comparisons);
//  - canonical 'for' loops inside the body multiply their body's count by
//    their trip count, which libhomp computes from their bounds when those
//    can be evaluated before the region (see countable() in the .cpp);
//    other loops, and 'while' and 'do' loops, count their body once;
//  - both branches of an 'if' or '?:' count.
//
// It is an estimate for load balancing; nothing depends on it being exact.
//
//===----------------------------------------------------------------------===//

#ifndef HOMP_CLANG_PLUGIN_WORKANALYSIS_H
#define HOMP_CLANG_PLUGIN_WORKANALYSIS_H

#include "CanonicalLoop.h"
#include "Extensions.h"

#include "homp/Abi.h"

#include <vector>

namespace homp {

struct WorkInfo {
  /// Operations of the body outside its loops.
  int64_t Operations = 0;
  /// The body's canonical loops, parents first, and their headers (where a
  /// counted loop's first, bound and step values come from).
  std::vector<abi::BodyLoop> Loops;
  std::vector<CanonicalLoop> Headers;
};

/// The work of the loop body [Body) of Toks, inside a nest whose loop
/// variables are NestVars.
WorkInfo analyzeWork(llvm::ArrayRef<clang::Token> Toks, TokenRange Body,
                     llvm::ArrayRef<std::string> NestVars,
                     const SyntaxContext &Ctx);

} // namespace homp

#endif // HOMP_CLANG_PLUGIN_WORKANALYSIS_H
