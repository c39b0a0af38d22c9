//===-- TokenSynth.h - Tokens for code the plugin writes --------*- C++ -*-===//
//
// The rewritten regions mix the user's tokens with code homp writes. This
// turns such code, given as text, into tokens located at a source location
// of the user's (so diagnostics point into the user's file).
//
//===----------------------------------------------------------------------===//

#ifndef HOMP_CLANG_PLUGIN_TOKENSYNTH_H
#define HOMP_CLANG_PLUGIN_TOKENSYNTH_H

#include "clang/Lex/Preprocessor.h"
#include "llvm/ADT/SmallVector.h"

namespace homp {

using TokenVector = llvm::SmallVector<clang::Token, 64>;

class TokenSynth {
public:
  explicit TokenSynth(clang::Preprocessor &PP) : PP(PP) {}

  /// Appends the tokens of Code, every one located at Loc.
  void append(TokenVector &Out, llvm::StringRef Code,
              clang::SourceLocation Loc);

  /// A string literal token whose value is Value.
  clang::Token stringLiteral(llvm::StringRef Value, clang::SourceLocation Loc);

private:
  clang::Preprocessor &PP;
};

} // namespace homp

#endif // HOMP_CLANG_PLUGIN_TOKENSYNTH_H
