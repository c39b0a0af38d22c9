//===-- CanonicalLoop.h - The header of a distributed loop ------*- C++ -*-===//
//
// A distributed loop is rewritten to run a chunk of its iterations, so its
// header must be in OpenMP's canonical form: 'for (init; var op bound; incr)'.
// This reads the pieces of the header from tokens.
//
//===----------------------------------------------------------------------===//

#ifndef HOMP_CLANG_PLUGIN_CANONICALLOOP_H
#define HOMP_CLANG_PLUGIN_CANONICALLOOP_H

#include "Directive.h"

#include "homp/Abi.h"

#include <string>

namespace homp {

using abi::CompareOp;

struct CanonicalLoop {
  unsigned For = 0;      ///< index of 'for'
  unsigned RParen = 0;   ///< index of the ')' closing the header
  TokenRange InitTarget; ///< 'int i' or 'i': what the initializer assigns
  TokenRange TypeTokens; ///< declared type ('int'), empty if not declared
  TokenRange Lower;      ///< the initial value expression
  unsigned Var = 0;      ///< index of the loop variable in the test
  CompareOp Op = CompareOp::Less; ///< with the variable on the left
  TokenRange Bound;               ///< the test's other operand
  TokenRange Increment;           ///< the increment expression, as written
  TokenRange Step;                ///< step expression; empty means 1
  bool StepNegated = false;       ///< '--' or '-=': the step is -(Step)
  TokenRange Body;                ///< the loop's statement
  std::string VarName;
};

/// Where and why a loop is not canonical.
struct LoopError {
  unsigned Index;
  std::string Message;
};

/// Reads the loop starting at Toks[For] ('for') and ending at End.
/// Returns the loop, or the error in Err.
std::optional<CanonicalLoop>
parseCanonicalLoop(llvm::ArrayRef<clang::Token> Toks, unsigned For,
                   unsigned End, LoopError &Err);

/// Reads Depth perfectly nested loops ('collapse(Depth)'), the outermost
/// starting at Toks[For] and ending at End. Inner loops may sit in braces;
/// their bounds and steps must not use outer loop variables (the nest is a
/// box of iterations).
std::optional<llvm::SmallVector<CanonicalLoop, 3>>
parseLoopNest(llvm::ArrayRef<clang::Token> Toks, unsigned For, unsigned End,
              unsigned Depth, LoopError &Err);

} // namespace homp

#endif // HOMP_CLANG_PLUGIN_CANONICALLOOP_H
