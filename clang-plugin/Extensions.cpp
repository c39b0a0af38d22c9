//===-- Extensions.cpp - Recognising homp's directive extensions ---------===//

#include "Extensions.h"

#include "llvm/ADT/StringSwitch.h"

using namespace clang;
using namespace llvm;

namespace homp {

bool isDeviceTypeName(StringRef Name) {
  if (Name.consume_front("HOMP_DEVICE_") || Name.consume_front("OMP_DEVICE_"))
    return StringSwitch<bool>(Name)
        .Cases("NVGPU", "AMDGPU", "GPU", "CPU", "HOST", "ALL", true)
        .Default(false);
  return false;
}

bool isItemDistributionName(StringRef Name) {
  return StringSwitch<bool>(Name)
      .Cases("dist_data", "partition", "halo", "topology", true)
      .Default(false);
}

bool isHostName(const Token &Tok, const SyntaxContext &Ctx) {
  return identifierName(Tok) == "host" && !Ctx.IsDeclared(Tok);
}

bool isDeviceTypeToken(const Token &Tok, const SyntaxContext &Ctx) {
  return isDeviceTypeName(identifierName(Tok)) && !Ctx.IsDeclared(Tok);
}

/// In C++, the index of the '>' closing a template argument list opened at
/// Toks[Open], if Toks[Open] is '<' after a name; else std::nullopt.
static std::optional<unsigned> templateArgsEnd(ArrayRef<Token> Toks,
                                               unsigned Open, unsigned End) {
  if (Open == 0 || !Toks[Open].is(tok::less) ||
      !Toks[Open - 1].isOneOf(tok::identifier, tok::kw_template))
    return std::nullopt;
  int Angles = 0, Brackets = 0;
  for (unsigned I = Open; I < End; ++I) {
    const Token &T = Toks[I];
    if (T.isOneOf(tok::l_paren, tok::l_square, tok::l_brace))
      ++Brackets;
    else if (T.isOneOf(tok::r_paren, tok::r_square, tok::r_brace)) {
      if (--Brackets < 0)
        return std::nullopt;
    } else if (Brackets == 0 && T.is(tok::less))
      ++Angles;
    else if (Brackets == 0 && T.is(tok::greater))
      --Angles;
    else if (Brackets == 0 && T.is(tok::greatergreater))
      Angles -= 2;
    if (Angles <= 0)
      return I;
  }
  return std::nullopt;
}

SmallVector<TokenRange, 4> splitDeviceList(ArrayRef<Token> Toks,
                                           TokenRange Args,
                                           const SyntaxContext &Ctx) {
  SmallVector<TokenRange, 4> Parts;
  int Depth = 0;
  unsigned Start = Args.Begin;
  for (unsigned I = Args.Begin; I < Args.End; ++I) {
    const Token &T = Toks[I];
    if (Ctx.CPlusPlus && Depth == 0)
      if (std::optional<unsigned> Close = templateArgsEnd(Toks, I, Args.End)) {
        I = *Close;
        continue;
      }
    if (T.isOneOf(tok::l_paren, tok::l_square, tok::l_brace))
      ++Depth;
    else if (T.isOneOf(tok::r_paren, tok::r_square, tok::r_brace))
      --Depth;
    else if (Depth == 0 && T.is(tok::comma)) {
      Parts.push_back({Start, I});
      Start = I + 1;
    }
  }
  Parts.push_back({Start, Args.End});
  return Parts;
}

/// Whether Tok, in a device clause that is also a standard OpenMP
/// expression ('host', '*&TYPE', 'x & TYPE'), is homp's name: one that
/// nothing declares, not even later in the class being defined.
static bool isHompNameInExpression(const Token &Tok, const SyntaxContext &Ctx) {
  StringRef Name = identifierName(Tok);
  return (Name == "host" || isDeviceTypeName(Name)) && !Ctx.MayBeDeclared(Tok);
}

/// A '*' that stands for "all devices": alone, or right before ':' or a
/// device type filter ('* & HOMP_DEVICE_GPU'); '*&x' is a dereference.
static bool isWildcardAt(ArrayRef<Token> Toks, unsigned I, unsigned End,
                         const SyntaxContext &Ctx) {
  if (!Toks[I].is(tok::star))
    return false;
  if (I + 1 == End || Toks[I + 1].is(tok::colon))
    return true;
  return I + 2 < End && Toks[I + 1].is(tok::amp) &&
         isHompNameInExpression(Toks[I + 2], Ctx);
}

bool isDeviceList(ArrayRef<Token> Toks, TokenRange Args,
                  const SyntaxContext &Ctx) {
  SmallVector<TokenRange, 4> Specs = splitDeviceList(Toks, Args, Ctx);
  if (Specs.size() > 1)
    return true;
  TokenRange S = Specs.front();
  if (S.empty())
    return false;
  // OpenMP 5 modifiers: device(ancestor: n), device(device_num: n).
  StringRef First = identifierName(Toks[S.Begin]);
  if (S.size() > 1 && Toks[S.Begin + 1].is(tok::colon) &&
      (First == "ancestor" || First == "device_num"))
    return false;
  if (S.size() == 1 && isHompNameInExpression(Toks[S.Begin], Ctx))
    return true;
  if (isWildcardAt(Toks, S.Begin, S.End, Ctx) || Toks[S.Begin].is(tok::colon))
    return true;
  if (findTopLevel(Toks, S, tok::colon))
    return true;
  // 'spec & TYPE' (PMAM'15); any other '&' is a bitwise and.
  for (unsigned I = S.Begin; I + 1 < S.End; ++I)
    if (Toks[I].is(tok::amp) && isDeviceTypeName(identifierName(Toks[I + 1])) &&
        isHompNameInExpression(Toks[I + 1], Ctx))
      return true;
  return false;
}

/// Whether the item tokens [Begin, End) can end a map item, so that a
/// distribution clause may follow: a name, a subscript or a call. A
/// parenthesised group that is not a call is a cast, as in
/// '*(int *)halo(p)'.
static bool endsItem(ArrayRef<Token> Toks, unsigned Begin, unsigned End) {
  const Token &Last = Toks[End - 1];
  if (Last.isOneOf(tok::identifier, tok::r_square))
    return true;
  if (Last.isNot(tok::r_paren))
    return false;
  int Depth = 0;
  for (unsigned I = End; I-- > Begin;) {
    if (Toks[I].isOneOf(tok::r_paren, tok::r_square, tok::r_brace))
      ++Depth;
    else if (Toks[I].isOneOf(tok::l_paren, tok::l_square, tok::l_brace) &&
             --Depth == 0)
      return I > Begin &&
             Toks[I - 1].isOneOf(tok::identifier, tok::r_square, tok::r_paren);
  }
  return false;
}

std::optional<unsigned> findItemDistribution(ArrayRef<Token> Toks,
                                             TokenRange Item) {
  int Depth = 0;
  for (unsigned I = Item.Begin; I < Item.End; ++I) {
    const Token &T = Toks[I];
    if (T.isOneOf(tok::l_paren, tok::l_square, tok::l_brace))
      ++Depth;
    else if (T.isOneOf(tok::r_paren, tok::r_square, tok::r_brace))
      --Depth;
    else if (Depth == 0 && I > Item.Begin &&
             isItemDistributionName(identifierName(T)) && I + 1 < Item.End &&
             Toks[I + 1].is(tok::l_paren) && endsItem(Toks, Item.Begin, I))
      return I;
  }
  return std::nullopt;
}

TokenRange mapItems(ArrayRef<Token> Toks, const Clause &Map) {
  // The list items follow the first top-level ':' (map-type and modifiers
  // come before it); array-section colons are inside brackets.
  if (std::optional<unsigned> Colon = findTopLevel(Toks, Map.Args, tok::colon))
    return {*Colon + 1, Map.Args.End};
  return Map.Args;
}

/// A HOMP'16 directive spelling: 'parallel target ...', 'parallel for
/// target', or a 'distribute' that distributes over devices (one that does
/// not follow 'teams').
static std::optional<ExtensionUse> findHompSpelling(const Directive &D) {
  std::optional<unsigned> Target = D.findWord("target");
  if (Target && *Target > 0 && D.Words[0].Name == "parallel")
    return ExtensionUse{D.Words[0].Index, "'parallel target'"};
  for (unsigned W = 1; W < D.Words.size(); ++W)
    if (D.Words[W].Name == "distribute" && D.Words[W - 1].Name != "teams")
      return ExtensionUse{D.Words[W].Index,
                          "'distribute' over devices (without 'teams')"};
  if (!D.Words.empty() &&
      (D.Words[0].Name == "halo_exchange" || D.Words[0].Name == "halo_update"))
    return ExtensionUse{D.Words[0].Index, "'" + D.Words[0].Name.str() + "'"};
  return std::nullopt;
}

bool isHompClauseName(StringRef Name) {
  return Name == "dist_iteration" || Name == "cutoff" ||
         isItemDistributionName(Name);
}

static std::optional<ExtensionUse>
findClauseExtension(const Directive &D, const Clause &C,
                    const SyntaxContext &Ctx) {
  ArrayRef<Token> Toks = D.Toks;
  StringRef Name = C.Name;
  if (isHompClauseName(Name))
    return ExtensionUse{C.All.Begin, "the '" + Name.str() + "' clause"};
  if (Name == "dist_schedule" && C.Args.size() > 1 &&
      Toks[C.Args.Begin + 1].is(tok::colon)) {
    StringRef Modifier = identifierName(Toks[C.Args.Begin]);
    if (Modifier == "target" || Modifier == "teams")
      return ExtensionUse{C.Args.Begin,
                          "'dist_schedule(" + Modifier.str() + ": ...)'"};
  }
  if (Name == "device" && C.HasParens && isDeviceList(Toks, C.Args, Ctx))
    return ExtensionUse{C.Args.Begin, "a device list in the 'device' clause"};
  if (Name == "map" && C.HasParens)
    for (TokenRange Item : splitTopLevel(Toks, mapItems(Toks, C), tok::comma))
      if (std::optional<unsigned> Dist = findItemDistribution(Toks, Item))
        return ExtensionUse{*Dist, "'" + identifierName(Toks[*Dist]).str() +
                                       "' in a map clause"};
  return std::nullopt;
}

std::optional<ExtensionUse> findExtension(const Directive &D,
                                          const SyntaxContext &Ctx) {
  if (std::optional<ExtensionUse> Use = findHompSpelling(D))
    return Use;
  for (const Clause &C : D.Clauses)
    if (std::optional<ExtensionUse> Use = findClauseExtension(D, C, Ctx))
      return Use;
  return std::nullopt;
}

bool mentionsExtension(ArrayRef<Token> Toks) {
  auto NameAt = [&](unsigned I) {
    return I < Toks.size() ? identifierName(Toks[I]) : StringRef();
  };
  // HOMP'16's directives: 'parallel target', halo_exchange, halo_update.
  if ((NameAt(0) == "parallel" && NameAt(1) == "target") ||
      NameAt(0) == "halo_exchange" || NameAt(0) == "halo_update")
    return true;
  // The clause each open '(' belongs to ("" for other brackets).
  SmallVector<StringRef, 4> Open;
  for (unsigned I = 0; I < Toks.size(); ++I) {
    if (Toks[I].isOneOf(tok::l_paren, tok::l_square, tok::l_brace)) {
      Open.push_back(Toks[I].is(tok::l_paren) && I > 0 ? NameAt(I - 1) : "");
      continue;
    }
    if (Toks[I].isOneOf(tok::r_paren, tok::r_square, tok::r_brace)) {
      if (!Open.empty())
        Open.pop_back();
      continue;
    }
    StringRef Name = NameAt(I);
    bool Call = I + 1 < Toks.size() && Toks[I + 1].is(tok::l_paren);
    if (!Call)
      continue;
    // A distribution after a map item (in a map clause at the top level, or
    // after a clause whose '(' is left open); homp's clauses at the top
    // level.
    if (!Open.empty() && Open.back() == "map" && isItemDistributionName(Name))
      return true;
    // 'device(*', '*:', '*,' or '* & TYPE': all devices; '*&x' and '*p' are
    // dereferences, standard OpenMP's.
    auto Wildcard = [&](unsigned J) {
      if (J >= Toks.size() || Toks[J].isNot(tok::star) || J + 1 >= Toks.size())
        return false;
      const Token &Next = Toks[J + 1];
      return Next.isOneOf(tok::r_paren, tok::comma, tok::colon) ||
             (Next.is(tok::amp) && isDeviceTypeName(NameAt(J + 2)));
    };
    if (Open.empty() &&
        (isHompClauseName(Name) ||
         (Name == "dist_schedule" && NameAt(I + 2) == "target") ||
         (Name == "device" && Wildcard(I + 2))))
      return true;
  }
  return false;
}

} // namespace homp
