//===-- AccessAnalysis.h - How a loop body subscripts arrays ----*- C++ -*-===//
//
// The access footprint (DESIGN.md): for each array or pointer variable a
// distributed loop body subscripts, and for each dimension, the elements
// the subscript may reach: a loop variable plus an offset, or one index,
// each between bounds that are constants or computed when the construct
// starts from variables the loop does not change ('y[i - lo]', 'x[c]',
// 'x[i + d]' for an inner 'd' from '-w' to 'w'); or Unknown. Whether a
// reference may write it, and where. libhomp checks from it that every
// device touches only what it holds and writes only what it owns, and finds
// the arrays owner computes follows; what it cannot bound it makes whole
// where the loop runs (SPEC.md, "never a wrong answer").
//
//===----------------------------------------------------------------------===//

#ifndef HOMP_CLANG_PLUGIN_ACCESSANALYSIS_H
#define HOMP_CLANG_PLUGIN_ACCESSANALYSIS_H

#include "CanonicalLoop.h"
#include "ConstructModel.h"
#include "Directive.h"
#include "Extensions.h"

#include "homp/Abi.h"

#include "clang/Lex/Preprocessor.h"

#include <string>
#include <vector>

namespace homp {

struct AccessInfo {
  abi::Access A;
  unsigned FirstUse = 0; ///< the token of the name's first use
  /// Its type is not known where the pragma is (a template's dependent
  /// type, or in a class body a name declared later or a local of the
  /// member function): maybe not an array at all.
  bool Dependent = false;
  /// Where the footprint cannot be read, and why, for the first such use:
  /// per dimension, a subscript homp cannot bound ('Any' for uses without a
  /// subscript, which hide every dimension).
  struct Unchecked {
    clang::SourceLocation At;
    std::string Why;
  };
  std::array<Unchecked, abi::MaxRank> Dims;
  Unchecked Any;
  /// Per subscript with a term (abi::Subscript::Term): the code of its
  /// minimum and maximum (dimensions of Subs, then of Writes).
  std::array<Code, 2 * abi::MaxRank> TermMin, TermMax;
};

/// The footprint of the loop body [Body) of Toks, whose nest has the loop
/// variables Vars (outermost first) and whose body has the canonical loops
/// BodyLoops (WorkInfo::Headers: a subscript may add the variable of one
/// that runs between bounds the loop does not change). Names are the body's
/// subscripted variables that Ctx knows as arrays or pointers (in C++, also
/// those whose type is not known yet: AccessInfo::Dependent), and every
/// name of Always, in order of first use.
std::vector<AccessInfo> analyzeAccesses(clang::Preprocessor &PP,
                                        llvm::ArrayRef<clang::Token> Toks,
                                        TokenRange Body,
                                        llvm::ArrayRef<std::string> Vars,
                                        llvm::ArrayRef<std::string> Always,
                                        llvm::ArrayRef<CanonicalLoop> BodyLoops,
                                        const SyntaxContext &Ctx);

} // namespace homp

#endif // HOMP_CLANG_PLUGIN_ACCESSANALYSIS_H
