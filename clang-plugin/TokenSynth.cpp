//===-- TokenSynth.cpp - Tokens for code the plugin writes ----------------===//

#include "TokenSynth.h"

#include "clang/Lex/Lexer.h"

using namespace clang;
using namespace llvm;

namespace homp {

void TokenSynth::append(TokenVector &Out, StringRef Code, SourceLocation Loc) {
  // The code is written to the preprocessor's scratch buffer as if it were
  // the expansion of a macro used at Loc: clang reads keywords and OpenMP
  // names by their spelling, and diagnostics point at Loc.
  Token Whole;
  PP.CreateString(Code, Whole, Loc, Loc);
  SourceManager &SM = PP.getSourceManager();
  SourceLocation Start = Whole.getLocation();
  const char *Spelling = SM.getCharacterData(SM.getSpellingLoc(Start));
  Lexer Raw(SM.getSpellingLoc(Start), PP.getLangOpts(), Spelling, Spelling,
            Spelling + Code.size());
  Token Tok;
  for (Raw.LexFromRawLexer(Tok); Tok.isNot(tok::eof);
       Raw.LexFromRawLexer(Tok)) {
    unsigned Offset = Tok.getLocation().getRawEncoding() -
                      SM.getSpellingLoc(Start).getRawEncoding();
    if (Tok.is(tok::raw_identifier))
      PP.LookUpIdentifierInfo(Tok);
    Tok.setLocation(Start.getLocWithOffset(Offset));
    Out.push_back(Tok);
  }
}

Token TokenSynth::stringLiteral(StringRef Value, SourceLocation Loc) {
  // A newline is written '\n', any other byte that is not printable ASCII as
  // a three-digit octal escape: a raw control character ends the literal or
  // the line, and bytes that are not UTF-8 are diagnosed. '?' is escaped
  // against trigraphs.
  std::string Spelling = "\"";
  for (unsigned char C : Value) {
    if (C == '\n') {
      Spelling += "\\n";
    } else if (C == '"' || C == '\\' || C == '?') {
      Spelling += '\\';
      Spelling += static_cast<char>(C);
    } else if (C < 0x20 || C >= 0x7f) {
      Spelling += '\\';
      for (int Shift : {6, 3, 0})
        Spelling += static_cast<char>('0' + ((C >> Shift) & 7));
    } else {
      Spelling += static_cast<char>(C);
    }
  }
  Spelling += '"';
  TokenVector Toks;
  append(Toks, Spelling, Loc);
  assert(Toks.size() == 1 && Toks[0].is(tok::string_literal));
  return Toks[0];
}

} // namespace homp
