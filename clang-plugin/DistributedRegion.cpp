//===-- DistributedRegion.cpp - Rewriting a multi-device region -----------===//

#include "DistributedRegion.h"

#include "CanonicalLoop.h"
#include "Clauses.h"
#include "Directive.h"
#include "Extensions.h"
#include "StatementScanner.h"

#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Preprocessor.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/raw_ostream.h"

using namespace clang;
using namespace llvm;

namespace homp {
namespace {

/// How an array of the region is split over the devices, after ALIGN chains
/// are followed.
struct Resolved {
  enum KindTy { Block, Duplicate, FollowLoop, SameAs } Kind = Duplicate;
  unsigned Array = 0; ///< SameAs: the BLOCK array whose partition is shared
};

/// A list item of a map clause of the target directive.
struct MapItem {
  TokenRange Expr; ///< the item without its distribution clauses
  std::optional<Policy> Dist;
  Resolved How;
  StringRef MapType;
  std::string Name;    ///< spelling of the item's base
  bool Simple = false; ///< 'name' or 'name[lo:len]'
  bool HasSection = false;
  TokenRange Lower, Length; ///< section bounds (possibly empty)
  // Elements the loop body uses, relative to the loop variable.
  bool Used = false, UsesKnown = true;
  int64_t MinOffset = 0, MaxOffset = 0;
};

struct MapClause {
  const Clause *C;
  TokenRange Prefix; ///< '[modifiers,] type :' (may be empty)
  SmallVector<unsigned, 4> Items;
};

struct Reduction {
  std::string Op;
  unsigned Var; ///< index of the variable in its directive's tokens
  bool OnTarget;
};

/// The directive words of the target construct after the HOMP'16 spellings
/// are mapped to standard OpenMP.
struct Words {
  SmallVector<std::string, 6> Names;
  bool isLoop() const {
    return any_of(Names, [](const std::string &W) {
      return W == "for" || W == "distribute" || W == "loop" || W == "simd";
    });
  }
  bool has(StringRef W) const { return is_contained(Names, W.str()); }
};

class Rewriter {
public:
  Rewriter(Preprocessor &PP, Diagnostics &Diags, const SyntaxContext &Ctx,
           unsigned Id, ArrayRef<Token> Line, ArrayRef<Token> Stmt)
      : PP(PP), Diags(Diags), Ctx(Ctx), Synth(PP), Id(Id), Line(Line),
        Body(Line.drop_front().drop_back()), Stmt(Stmt) {}

  std::optional<TokenVector> run();

private:
  // Analysis.
  bool targetWords();
  bool targetClauses();
  bool mapClause(const Clause &C);
  bool mapItem(TokenRange Item, StringRef MapType, MapClause &Out);
  bool loopPolicyClause(ArrayRef<Token> Toks, const Clause &C);
  bool reductionClause(ArrayRef<Token> Toks, const Clause &C, bool OnTarget);
  bool statement();
  bool innerDirective(unsigned Begin, unsigned End);
  bool resolveAlignments();
  std::optional<Resolved> resolve(unsigned Item,
                                  SmallVectorImpl<bool> &Visiting);
  void scanUses();

  // Output.
  void code(StringRef Text, SourceLocation Loc) {
    Synth.append(Out, Text, Loc);
  }
  void toks(ArrayRef<Token> Toks, TokenRange R) {
    Out.append(Toks.begin() + R.Begin, Toks.begin() + R.End);
  }
  std::string descriptor() const;
  unsigned descriptorIndex(unsigned Item) const;
  void emitMarkerCall(SourceLocation Loc);
  void emitTargetDirective();
  void emitLoop();
  std::string spell(ArrayRef<Token> Toks, TokenRange R) const;

  SourceLocation loc() const { return Line.front().getLocation(); }
  std::string chunk() const { return "__homp_chunk_" + std::to_string(Id); }

  Preprocessor &PP;
  Diagnostics &Diags;
  const SyntaxContext &Ctx;
  TokenSynth Synth;
  unsigned Id;
  ArrayRef<Token> Line, Body, Stmt;

  std::optional<Directive> Target;
  Words TargetWords;
  SmallVector<const Clause *, 8> KeptClauses;
  bool HasDeviceClause = false;
  SmallVector<DeviceSpec, 4> Devices;
  SmallVector<MapItem, 8> Items;
  SmallVector<MapClause, 4> Maps;
  SmallVector<TokenRange, 2> TargetIf;   ///< conditions of if / if(target:)
  SmallVector<TokenRange, 2> ParallelIf; ///< plain if() of a combined construct
  SmallVector<Reduction, 2> Reductions;

  std::optional<Policy> LoopPolicy;
  ArrayRef<Token> LoopPolicyToks; ///< the tokens LoopPolicy->Index is in
  StringRef LoopPolicySource;
  Resolved LoopHow; ///< Block, or SameAs an array
  std::string LoopLabel;

  // The inner loop directive (split form), as indices into Stmt.
  std::optional<Directive> Inner;
  unsigned InnerBegin = 0, InnerEnd = 0; ///< annotation tokens included
  bool Braced = false;
  std::optional<CanonicalLoop> Loop;

  TokenVector Out;
};

/// Whether libhomp needs to know of the item: distributed arrays, and
/// duplicates it must merge after the launch.
static bool isDescribed(const MapItem &MI) {
  return MI.How.Kind != Resolved::Duplicate ||
         (MI.Simple && MI.MapType.contains("from"));
}

unsigned Rewriter::descriptorIndex(unsigned Item) const {
  unsigned Index = 0;
  for (unsigned I = 0; I < Item; ++I)
    Index += isDescribed(Items[I]);
  return Index;
}

std::string Rewriter::spell(ArrayRef<Token> Toks, TokenRange R) const {
  std::string S;
  for (unsigned I = R.Begin; I < R.End; ++I)
    S += PP.getSpelling(Toks[I]);
  return S;
}

//===--- Analysis ---------------------------------------------------------===//

bool Rewriter::targetWords() {
  // 'parallel target ...' (HOMP'16) is 'target ...' issued concurrently,
  // which homp always does; 'parallel for target' is 'target parallel for'.
  SmallVector<std::string, 6> W;
  for (const Word &Wd : Target->Words)
    W.push_back(Wd.Name.str());
  if (!W.empty() && W[0] == "parallel") {
    if (W.size() >= 2 && W[1] == "target")
      W.erase(W.begin());
    else if (W.size() >= 3 && W[1] == "for" && W[2] == "target") {
      W.erase(W.begin(), W.begin() + 3);
      W.insert(W.begin(), {"target", "parallel", "for"});
    } else {
      Diags.report(Body[Target->Words[0].Index].getLocation(),
                   Diag::BadSpelling)
          << ("parallel " + W[1])
          << "write 'parallel target' or 'parallel for target'";
      return false;
    }
  }
  // A 'distribute' that does not follow 'teams' distributes over devices.
  for (unsigned I = 1; I < W.size(); ++I)
    if (W[I] == "distribute" && W[I - 1] != "teams")
      W.erase(W.begin() + I--);
  TargetWords.Names = std::move(W);
  return true;
}

bool Rewriter::loopPolicyClause(ArrayRef<Token> Toks, const Clause &C) {
  TokenRange Args = C.Args;
  if (C.Name == "dist_schedule")
    Args.Begin += 2; // 'target :'
  std::string Source = C.Name == "dist_schedule" ? "dist_schedule(target: ...)"
                                                 : "dist_iteration";
  if (LoopPolicy) {
    Diags.report(Toks[C.All.Begin].getLocation(), Diag::TwoLoopPolicies)
        << LoopPolicySource << Source;
    return false;
  }
  if (Args.empty()) {
    Diags.report(Toks[C.All.Begin].getLocation(), Diag::ExpectedPolicy) << true;
    return false;
  }
  std::optional<SmallVector<Policy, 2>> Ps =
      parsePolicies(Toks, Args, /*ForLoop=*/true, Diags);
  if (!Ps)
    return false;
  if (Ps->size() > 1) {
    Diags.report(Toks[(*Ps)[1].Index].getLocation(), Diag::NotSupportedYet)
        << "distributing more than one loop of a nest";
    return false;
  }
  LoopPolicy = Ps->front();
  LoopPolicyToks = Toks;
  LoopPolicySource = C.Name == "dist_schedule" ? "dist_schedule(target: ...)"
                                               : "dist_iteration";
  return true;
}

static bool isTargetModifier(ArrayRef<Token> Toks, const Clause &C,
                             StringRef Modifier) {
  return C.Args.size() > 2 && identifierName(Toks[C.Args.Begin]) == Modifier &&
         Toks[C.Args.Begin + 1].is(tok::colon);
}

bool Rewriter::reductionClause(ArrayRef<Token> Toks, const Clause &C,
                               bool OnTarget) {
  std::optional<unsigned> Colon = findTopLevel(Toks, C.Args, tok::colon);
  if (!Colon) // malformed: clang reports it
    return true;
  TokenRange OpRange = {C.Args.Begin, *Colon};
  SmallVector<TokenRange, 2> Head = splitTopLevel(Toks, OpRange, tok::comma);
  if (Head.size() == 2) {
    StringRef Modifier = identifierName(Toks[Head[0].Begin]);
    if (Modifier == "inscan" || Modifier == "task") {
      Diags.report(Toks[Head[0].Begin].getLocation(), Diag::NotSupportedYet)
          << ("the '" + Modifier + "' reduction modifier in a distributed loop")
                 .str();
      return false;
    }
    OpRange = Head[1];
  }
  std::string Op = spell(Toks, OpRange);
  bool BuiltIn = StringSwitch<bool>(Op)
                     .Cases("+", "-", "*", "&", "|", "^", "&&", "||", true)
                     .Cases("max", "min", true)
                     .Default(false);
  if (!BuiltIn) {
    Diags.report(Toks[OpRange.Begin].getLocation(), Diag::UserDefinedReduction)
        << Op;
    return false;
  }
  for (TokenRange Item :
       splitTopLevel(Toks, {*Colon + 1, C.Args.End}, tok::comma)) {
    if (Item.size() != 1 || Toks[Item.Begin].isNot(tok::identifier)) {
      Diags.report(Toks[Item.Begin].getLocation(), Diag::ReductionItem)
          << spell(Toks, Item);
      return false;
    }
    Reductions.push_back({Op, Item.Begin, OnTarget});
  }
  return true;
}

bool Rewriter::targetClauses() {
  bool Ok = true;
  for (const Clause &C : Target->Clauses) {
    StringRef N = C.Name;
    if (N == "device" && C.HasParens) {
      HasDeviceClause = true;
      if (isDeviceList(Body, C.Args, Ctx)) {
        std::optional<SmallVector<DeviceSpec, 4>> L =
            parseDeviceList(Body, C.Args, Ctx, Diags);
        if (!L)
          return false;
        Devices = *L;
      } else {
        Devices.push_back({DeviceSpec::One, C.Args, {}});
      }
      continue;
    }
    if (N == "map" && C.HasParens) {
      Ok &= mapClause(C);
      continue;
    }
    if (N == "dist_iteration" ||
        (N == "dist_schedule" && isTargetModifier(Body, C, "target"))) {
      if (!TargetWords.isLoop()) {
        Diags.report(Body[C.All.Begin].getLocation(), Diag::OutsideRegion)
            << ("'" + N + "'").str();
        return false;
      }
      Ok &= loopPolicyClause(Body, C);
      continue;
    }
    if (N == "distribute" && !C.HasParens)
      continue; // HOMP'16: 'parallel for target ... distribute dist_schedule'
    if (N == "topology" || N == "cutoff") {
      Diags.report(Body[C.All.Begin].getLocation(), Diag::NotSupportedYet)
          << ("the '" + N + "' clause").str();
      return false;
    }
    if (N == "dist_schedule" && isTargetModifier(Body, C, "teams")) {
      Diags.report(Body[C.Args.Begin].getLocation(), Diag::NotSupportedYet)
          << "'dist_schedule(teams: ...)'";
      return false;
    }
    if (N == "if" && C.HasParens) {
      if (isTargetModifier(Body, C, "target")) {
        TargetIf.push_back({C.Args.Begin + 2, C.Args.End});
        continue;
      }
      bool Modified =
          C.Args.size() > 2 && Body[C.Args.Begin + 1].is(tok::colon);
      if (!Modified) {
        TargetIf.push_back(C.Args);
        if (TargetWords.has("parallel"))
          ParallelIf.push_back(C.Args);
        continue;
      }
    }
    if (N == "reduction" && C.HasParens && TargetWords.isLoop())
      Ok &= reductionClause(Body, C, /*OnTarget=*/true);
    KeptClauses.push_back(&C);
  }
  return Ok;
}

bool Rewriter::mapClause(const Clause &C) {
  TokenRange ItemsRange = mapItems(Body, C);
  MapClause M{&C, {C.Args.Begin, ItemsRange.Begin}, {}};
  StringRef MapType = "tofrom";
  for (unsigned I = M.Prefix.Begin; I < M.Prefix.End; ++I) {
    StringRef W = identifierName(Body[I]);
    if (W == "to" || W == "from" || W == "tofrom" || W == "alloc" ||
        W == "release" || W == "delete")
      MapType = W;
  }
  for (TokenRange Item : splitTopLevel(Body, ItemsRange, tok::comma))
    if (!mapItem(Item, MapType, M))
      return false;
  Maps.push_back(std::move(M));
  return true;
}

bool Rewriter::mapItem(TokenRange Item, StringRef MapType, MapClause &M) {
  MapItem MI;
  MI.MapType = MapType;
  MI.Expr = Item;
  std::optional<unsigned> DistAt = findItemDistribution(Body, Item);
  if (DistAt) {
    MI.Expr.End = *DistAt;
    unsigned I = *DistAt;
    while (I < Item.End) {
      StringRef Name = identifierName(Body[I]);
      std::optional<unsigned> Close =
          I + 1 < Item.End && Body[I + 1].is(tok::l_paren)
              ? findClosing(Body, I + 1, Item.End)
              : std::nullopt;
      if (!isItemDistributionName(Name) || !Close) {
        Diags.report(Body[I].getLocation(), Diag::ExpectedPolicy) << false;
        return false;
      }
      if (Name == "halo" || Name == "topology") {
        Diags.report(Body[I].getLocation(), Diag::NotSupportedYet)
            << ("'" + Name + "' in a map clause").str();
        return false;
      }
      std::optional<SmallVector<Policy, 2>> Ps =
          parsePolicies(Body, {I + 2, *Close}, /*ForLoop=*/false, Diags);
      if (!Ps)
        return false;
      if (Ps->size() > 1) {
        Diags.report(Body[(*Ps)[1].Index].getLocation(), Diag::NotSupportedYet)
            << "distributing more than one dimension of an array";
        return false;
      }
      MI.Dist = Ps->front();
      I = *Close + 1;
    }
  }

  // The item's shape: 'name', 'name[lo:len]', 'name[:len]', 'name[lo:]'.
  TokenRange E = MI.Expr;
  if (!E.empty() && Body[E.Begin].is(tok::identifier)) {
    MI.Name = identifierName(Body[E.Begin]).str();
    if (E.size() == 1) {
      MI.Simple = true;
    } else if (Body[E.Begin + 1].is(tok::l_square) &&
               findClosing(Body, E.Begin + 1, E.End) == E.End - 1) {
      TokenRange Sec = {E.Begin + 2, E.End - 1};
      if (std::optional<unsigned> Colon = findTopLevel(Body, Sec, tok::colon)) {
        MI.Simple = true;
        MI.HasSection = true;
        MI.Lower = {Sec.Begin, *Colon};
        MI.Length = {*Colon + 1, Sec.End};
      }
    }
  }
  if (MI.Dist && MI.Dist->Kind != Policy::Duplicate && !MI.Simple) {
    SourceLocation L = Body[E.empty() ? Item.Begin : E.Begin].getLocation();
    bool Section = false, Member = false;
    for (unsigned I = E.Begin; I < E.End; ++I) {
      Section |= Body[I].is(tok::l_square);
      Member |= Body[I].isOneOf(tok::period, tok::arrow, tok::coloncolon);
    }
    if (Member)
      Diags.report(L, Diag::NotSupportedYet)
          << ("distributing '" + spell(Body, E) +
              "' (members and expressions; distribute a variable)");
    else if (Section && !MI.Name.empty())
      Diags.report(L, Diag::NotSupportedYet)
          << "distributing a multi-dimensional array section";
    else
      Diags.report(L, Diag::NotAnArray) << spell(Body, E);
    return false;
  }
  if (MI.Name.empty())
    MI.Name = spell(Body, E);
  M.Items.push_back(Items.size());
  Items.push_back(std::move(MI));
  return true;
}

bool Rewriter::innerDirective(unsigned Begin, unsigned End) {
  InnerBegin = Begin;
  InnerEnd = End;
  ArrayRef<Token> Toks = Stmt.slice(Begin + 1, End - Begin - 2);
  Inner = parseDirective(Toks);
  if (!Inner)
    return true; // clang reports malformed directives
  bool Ok = true;
  for (const Clause &C : Inner->Clauses) {
    if (C.Name == "dist_iteration" ||
        (C.Name == "dist_schedule" && isTargetModifier(Toks, C, "target")))
      Ok &= loopPolicyClause(Toks, C);
    else if (C.Name == "dist_schedule" && isTargetModifier(Toks, C, "teams")) {
      Diags.report(Toks[C.All.Begin].getLocation(), Diag::NotSupportedYet)
          << "'dist_schedule(teams: ...)'";
      return false;
    } else if (C.Name == "reduction" && C.HasParens)
      Ok &= reductionClause(Toks, C, /*OnTarget=*/false);
  }
  return Ok;
}

bool Rewriter::statement() {
  unsigned B = 0, E = Stmt.size();
  auto Fail = [&](unsigned At) {
    Diags.report(loc(), Diag::RegionNeedsLoop);
    Diags.report(Stmt[std::min(At, E - 1)].getLocation(), Diag::RegionBodyHere);
    return false;
  };
  if (E == 0)
    return Fail(0);
  if (!TargetWords.isLoop()) {
    if (Stmt[B].is(tok::l_brace) && Stmt[E - 1].is(tok::r_brace)) {
      Braced = true;
      ++B;
      --E;
    }
    if (B < E && Stmt[B].is(tok::annot_pragma_openmp)) {
      unsigned End = B;
      while (End < E && Stmt[End].isNot(tok::annot_pragma_openmp_end))
        ++End;
      if (End == E)
        return Fail(B);
      if (!innerDirective(B, End + 1))
        return false;
      B = End + 1;
    }
  }
  // 'label: for (...)' names the loop for ALIGN(label).
  if (B + 2 < E && Stmt[B].is(tok::identifier) && Stmt[B + 1].is(tok::colon)) {
    LoopLabel = identifierName(Stmt[B]).str();
    B += 2;
  }
  if (B >= E || Stmt[B].isNot(tok::kw_for))
    return Fail(B);
  LoopError Err;
  Loop = parseCanonicalLoop(Stmt, B, E, Err);
  if (!Loop) {
    Diags.report(Stmt[Err.Index].getLocation(), Diag::LoopNotCanonical)
        << Err.Message;
    return false;
  }
  if (findTopLevel(Stmt, Loop->Lower, tok::comma)) {
    Diags.report(Stmt[Loop->Lower.Begin].getLocation(), Diag::LoopNotCanonical)
        << "the loop must declare or assign one variable";
    return false;
  }
  // Nothing may follow the loop inside the region.
  Token ErrorTok;
  TokenVector Probe;
  ArraySource Src(Stmt.slice(Loop->Body.Begin, E - Loop->Body.Begin));
  if (!scanStatement(Src, Probe, ErrorTok) ||
      Loop->Body.Begin + Src.consumed() != E)
    return Fail(Loop->Body.Begin + Src.consumed());
  Loop->Body.End = E;
  return true;
}

std::optional<Resolved> Rewriter::resolve(unsigned I,
                                          SmallVectorImpl<bool> &Visiting) {
  MapItem &MI = Items[I];
  if (!MI.Dist)
    return Resolved{Resolved::Duplicate, 0};
  switch (MI.Dist->Kind) {
  case Policy::Block:
    return Resolved{Resolved::Block, I};
  case Policy::Duplicate:
    return Resolved{Resolved::Duplicate, 0};
  case Policy::AlignLoop:
    return Resolved{Resolved::FollowLoop, 0};
  case Policy::AlignTo:
    break;
  }
  if (MI.Dist->AlignName == LoopLabel)
    return Resolved{Resolved::FollowLoop, 0};
  std::optional<unsigned> Target;
  for (unsigned J = 0; J < Items.size() && !Target; ++J)
    if (J != I && Items[J].Name == MI.Dist->AlignName && Items[J].Dist)
      Target = J;
  if (!Target) {
    Diags.report(Body[MI.Dist->Index].getLocation(), Diag::AlignTargetUnknown)
        << MI.Dist->AlignName;
    return std::nullopt;
  }
  if (Visiting[*Target]) {
    Diags.report(Body[MI.Dist->Index].getLocation(), Diag::AlignCycle)
        << MI.Name;
    return std::nullopt;
  }
  Visiting[I] = true;
  std::optional<Resolved> R = resolve(*Target, Visiting);
  Visiting[I] = false;
  if (R && R->Kind == Resolved::Block)
    return Resolved{Resolved::SameAs, R->Array};
  return R;
}

bool Rewriter::resolveAlignments() {
  SmallVector<bool, 8> Visiting(Items.size(), false);
  for (unsigned I = 0; I < Items.size(); ++I) {
    std::optional<Resolved> R = resolve(I, Visiting);
    if (!R)
      return false;
    Items[I].How = *R;
  }
  LoopHow = {Resolved::Block, 0};
  if (!LoopPolicy || LoopPolicy->Kind == Policy::Block)
    return true;
  SourceLocation PLoc = LoopPolicyToks[LoopPolicy->Index].getLocation();
  if (LoopPolicy->Kind == Policy::AlignLoop) {
    Diags.report(PLoc, Diag::AlignCycle) << "the loop";
    return false;
  }
  for (unsigned I = 0; I < Items.size(); ++I) {
    if (Items[I].Name != LoopPolicy->AlignName || !Items[I].Dist)
      continue;
    switch (Items[I].How.Kind) {
    case Resolved::Block:
    case Resolved::SameAs:
      LoopHow = {Resolved::SameAs, Items[I].How.Array};
      return true;
    case Resolved::FollowLoop:
      Diags.report(PLoc, Diag::AlignCycle) << "the loop";
      return false;
    case Resolved::Duplicate:
      break;
    }
  }
  Diags.report(PLoc, Diag::AlignTargetUnknown) << LoopPolicy->AlignName;
  return false;
}

static std::optional<int64_t> integerLiteral(Preprocessor &PP, const Token &T) {
  if (T.isNot(tok::numeric_constant))
    return std::nullopt;
  std::string S = PP.getSpelling(T);
  StringRef Digits = StringRef(S).rtrim("uUlL");
  int64_t V;
  if (Digits.getAsInteger(0, V))
    return std::nullopt;
  return V;
}

void Rewriter::scanUses() {
  ArrayRef<Token> B = Stmt;
  TokenRange R = Loop->Body;
  StringRef Var = Loop->VarName;
  for (MapItem &MI : Items) {
    if (MI.How.Kind == Resolved::Duplicate)
      continue;
    for (unsigned I = R.Begin; I < R.End; ++I) {
      if (B[I].isNot(tok::identifier) || identifierName(B[I]) != MI.Name)
        continue;
      if (I > R.Begin && B[I - 1].isOneOf(tok::period, tok::arrow))
        continue; // a member of something else
      MI.Used = true;
      std::optional<unsigned> Close =
          I + 1 < R.End && B[I + 1].is(tok::l_square)
              ? findClosing(B, I + 1, R.End)
              : std::nullopt;
      std::optional<int64_t> Offset;
      std::string Why = "it is used without a subscript";
      if (Close) {
        TokenRange S = {I + 2, *Close};
        auto IsVar = [&](unsigned J) {
          return B[J].is(tok::identifier) && identifierName(B[J]) == Var;
        };
        if (S.size() == 1 && IsVar(S.Begin))
          Offset = 0;
        else if (S.size() == 3 && IsVar(S.Begin) &&
                 B[S.Begin + 1].isOneOf(tok::plus, tok::minus)) {
          if (std::optional<int64_t> C = integerLiteral(PP, B[S.Begin + 2]))
            Offset = B[S.Begin + 1].is(tok::plus) ? *C : -*C;
        } else if (S.size() == 3 && IsVar(S.End - 1) &&
                   B[S.Begin + 1].is(tok::plus))
          Offset = integerLiteral(PP, B[S.Begin]);
        Why = "subscript '" + spell(B, S) + "' is not '" + Var.str() +
              "' plus or minus a constant";
      }
      if (!Offset) {
        if (MI.UsesKnown)
          Diags.report(B[I].getLocation(), Diag::UncheckedAccess)
              << MI.Name << Why;
        MI.UsesKnown = false;
        continue;
      }
      if (MI.MinOffset > *Offset || !MI.Used)
        MI.MinOffset = *Offset;
      MI.MaxOffset = std::max(MI.MaxOffset, *Offset);
    }
  }
}

//===--- Output -----------------------------------------------------------===//

std::string Rewriter::descriptor() const {
  std::string D;
  raw_string_ostream OS(D);
  PresumedLoc P = PP.getSourceManager().getPresumedLoc(loc());
  OS << "homp 1\nloc " << (P.isValid() ? P.getFilename() : "<unknown>") << ':'
     << (P.isValid() ? P.getLine() : 0) << ':'
     << (P.isValid() ? P.getColumn() : 0) << '\n';
  if (!HasDeviceClause)
    OS << "device default\n";
  for (const DeviceSpec &S : Devices) {
    static const char *Names[] = {"all", "one", "from", "range", "host"};
    OS << "device " << Names[S.Kind] << '\n';
  }
  OS << "loop " << compareOpName(Loop->Op) << ' ';
  if (LoopHow.Kind == Resolved::SameAs)
    OS << "array " << descriptorIndex(LoopHow.Array) << '\n';
  else
    OS << "block\n";
  for (const MapItem &MI : Items) {
    if (!isDescribed(MI))
      continue;
    OS << "array " << MI.Name << ' ' << MI.MapType << ' ';
    switch (MI.How.Kind) {
    case Resolved::Block:
      OS << "block";
      break;
    case Resolved::Duplicate:
      OS << "dup";
      break;
    case Resolved::FollowLoop:
      OS << "loop";
      break;
    case Resolved::SameAs:
      OS << "same " << descriptorIndex(MI.How.Array);
      break;
    }
    if (MI.How.Kind == Resolved::Duplicate || !MI.Used)
      OS << " -\n";
    else if (!MI.UsesKnown)
      OS << " ?\n";
    else
      OS << ' ' << MI.MinOffset << ' ' << MI.MaxOffset << '\n';
  }
  for (const Reduction &R : Reductions)
    OS << "reduction " << R.Op << ' '
       << PP.getSpelling((R.OnTarget ? Body : Inner->Toks)[R.Var]) << '\n';
  if (!TargetIf.empty())
    OS << "if\n";
  return D;
}

void Rewriter::emitMarkerCall(SourceLocation Loc) {
  code("__homp_region(", Loc);
  Out.push_back(Synth.stringLiteral(descriptor(), Loc));
  code(", (void *)&" + chunk(), Loc);
  for (const DeviceSpec &S : Devices) {
    if (S.Kind == DeviceSpec::One || S.Kind == DeviceSpec::From ||
        S.Kind == DeviceSpec::Range) {
      code(", (long long)(", Loc);
      if (S.Start.empty())
        code("0", Loc);
      else
        toks(Body, S.Start);
      code(")", Loc);
    }
    if (S.Kind == DeviceSpec::Range) {
      code(", (long long)(", Loc);
      toks(Body, S.Count);
      code(")", Loc);
    }
  }
  // Only the arrays listed in the descriptor, in the same order.
  for (const MapItem &MI : Items) {
    if (!isDescribed(MI))
      continue;
    SourceLocation L = Body[MI.Expr.Begin].getLocation();
    TokenRange Name = {MI.Expr.Begin, MI.Expr.Begin + 1};
    if (MI.How.Kind == Resolved::Duplicate && !MI.HasSection) {
      // A whole variable: one block of bytes.
      code(", (void *)&(", L);
      toks(Body, Name);
      code("), 0LL, 1LL, (long long)sizeof(", L);
      toks(Body, Name);
      code(")", L);
      continue;
    }
    code(", (void *)&(", L);
    toks(Body, Name);
    code(")[", L);
    MI.Lower.empty() ? code("0", L) : toks(Body, MI.Lower);
    code("], (long long)(", L);
    MI.Lower.empty() ? code("0", L) : toks(Body, MI.Lower);
    code("), (long long)(", L);
    if (MI.HasSection && !MI.Length.empty()) {
      toks(Body, MI.Length);
    } else {
      // The whole array, or 'name[lo:]': from the array's own size.
      code("sizeof(", L);
      toks(Body, Name);
      code(") / sizeof((", L);
      toks(Body, Name);
      code(")[0])", L);
      if (!MI.Lower.empty()) {
        code(" - (", L);
        toks(Body, MI.Lower);
        code(")", L);
      }
    }
    code("), (long long)sizeof((", L);
    toks(Body, Name);
    code(")[0])", L);
  }
  for (const Reduction &R : Reductions) {
    ArrayRef<Token> T = R.OnTarget ? Body : Inner->Toks;
    TokenRange V = {R.Var, R.Var + 1};
    SourceLocation L = T[R.Var].getLocation();
    code(", (void *)&(", L);
    toks(T, V);
    code("), (long long)sizeof(", L);
    toks(T, V);
    // The scalar type as kind * 100 + size: 1 signed, 2 unsigned, 3 floating,
    // 4 boolean (homp/RegionDescriptor.h decodes it).
    code("), (long long)(__extension__ _Generic((", L);
    toks(T, V);
    code(std::string("), char: ((char)-1 < 0 ? 101 : 201), signed char: 101, "
                     "unsigned char: 201, short: 102, unsigned short: 202, "
                     "int: 104, unsigned int: 204, long: 100 + sizeof(long), "
                     "unsigned long: 200 + sizeof(long), long long: 108, "
                     "unsigned long long: 208, float: 304, double: 308, "
                     "long double: 300 + sizeof(long double), ") +
             (PP.getLangOpts().CPlusPlus ? "bool" : "_Bool") +
             ": 401, default: 0))",
         L);
  }
  if (!TargetIf.empty()) {
    code(", (long long)(1", Loc);
    for (TokenRange C : TargetIf) {
      code(" && (", Loc);
      toks(Body, C);
      code(")", Loc);
    }
    code(")", Loc);
  }
  code(")", Loc);
}

void Rewriter::emitTargetDirective() {
  SourceLocation Loc = loc();
  Out.push_back(Line.front());
  for (const std::string &W : TargetWords.Names)
    code(W, Loc);
  for (const Clause *C : KeptClauses)
    if (C->Name != "map")
      toks(Body, C->All);
  code("device(", Loc);
  emitMarkerCall(Loc);
  code(")", Loc);
  for (const MapClause &M : Maps) {
    SourceLocation L = Body[M.C->All.Begin].getLocation();
    code("map(", L);
    toks(Body, M.Prefix);
    for (unsigned I : M.Items) {
      if (I != M.Items.front())
        code(",", L);
      toks(Body, Items[I].Expr);
    }
    code(")", L);
  }
  code("map(to: " + chunk() + ")", Loc);
  // A reduction inside the region needs its variable mapped back.
  for (const Reduction &R : Reductions) {
    if (R.OnTarget)
      continue;
    StringRef Name = identifierName(Inner->Toks[R.Var]);
    bool Mapped = any_of(Items, [&](const MapItem &MI) {
      return MI.Expr.size() == 1 && MI.Name == Name;
    });
    if (!Mapped)
      code(("map(tofrom: " + Name + ")").str(), Loc);
  }
  for (TokenRange C : ParallelIf) {
    code("if(parallel: ", Loc);
    toks(Body, C);
    code(")", Loc);
  }
  Out.push_back(Line.back());
}

void Rewriter::emitLoop() {
  const CanonicalLoop &L = *Loop;
  SourceLocation Loc = Stmt[L.For].getLocation();
  bool Auto = false;
  for (unsigned I = L.TypeTokens.Begin; I < L.TypeTokens.End; ++I)
    Auto |= Stmt[I].is(tok::kw_auto);
  auto Cast = [&] {
    code("(__typeof__(", Loc);
    toks(Stmt, Auto ? L.Lower : TokenRange{L.Var, L.Var + 1});
    code("))", Loc);
  };
  toks(Stmt, {L.For, L.For + 2}); // 'for ('
  toks(Stmt, L.InitTarget);
  code("=", Loc);
  Cast();
  code(chunk() + ".first;", Loc);
  toks(Stmt, {L.Var, L.Var + 1});
  static const char *Ops[] = {"<", "<=", ">", ">=", "!="};
  code(Ops[static_cast<int>(L.Op)], Loc);
  Cast();
  code(chunk() + ".bound;", Loc);
  toks(Stmt, L.Increment);
  toks(Stmt, {L.RParen, L.Body.End});
}

std::optional<TokenVector> Rewriter::run() {
  Target = parseDirective(Body);
  if (!Target || !targetWords())
    return std::nullopt;
  if (TargetWords.Names.empty() || TargetWords.Names[0] != "target") {
    Diags.report(loc(), Diag::NotSupportedYet)
        << "this directive with homp extensions";
    return std::nullopt;
  }
  if (!targetClauses() || !statement() || !resolveAlignments())
    return std::nullopt;
  scanUses();

  SourceLocation Loc = loc();
  code("{ __extension__ extern long long __homp_region(const char *, void *, "
       "...) __asm__(\"__homp_region\");",
       Loc);
  // The chunk holds the whole loop until libhomp gives each device its own.
  code("struct { long long first, bound, step; } " + chunk() +
           " = { (long long)(",
       Loc);
  toks(Stmt, Loop->Lower);
  code("), (long long)(", Loc);
  toks(Stmt, Loop->Bound);
  code("), ", Loc);
  code(Loop->StepNegated ? "-(long long)(" : "(long long)(", Loc);
  Loop->Step.empty() ? code("1", Loc) : toks(Stmt, Loop->Step);
  code(") };", Loc);
  for (const MapItem &MI : Items) {
    if (MI.How.Kind == Resolved::Duplicate || MI.HasSection)
      continue;
    SourceLocation L = Body[MI.Expr.Begin].getLocation();
    std::string Check =
        PP.getLangOpts().CPlusPlus
            ? "static_assert(!__is_same(__typeof__(" + MI.Name +
                  "), __typeof__(&(" + MI.Name + ")[0])), "
            : "_Static_assert(!__builtin_types_compatible_p(__typeof__(" +
                  MI.Name + "), __typeof__(&(" + MI.Name + ")[0])), ";
    code(Check + "\"homp: '" + MI.Name + "' is a pointer; distribute a " +
             "section of it, such as " + MI.Name + "[0:n]\");",
         L);
  }
  emitTargetDirective();
  if (Braced)
    code("{", Stmt.front().getLocation());
  if (Inner) {
    Out.push_back(Stmt[InnerBegin]);
    for (const Word &W : Inner->Words) {
      bool Homp = W.Name == "distribute" && W.Index > 0 &&
                  identifierName(Inner->Toks[W.Index - 1]) != "teams";
      if (!Homp)
        Out.push_back(Inner->Toks[W.Index]);
    }
    for (const Clause &C : Inner->Clauses) {
      bool Homp = C.Name == "dist_iteration" ||
                  (C.Name == "dist_schedule" &&
                   isTargetModifier(Inner->Toks, C, "target")) ||
                  (C.Name == "distribute" && !C.HasParens);
      if (!Homp)
        toks(Inner->Toks, C.All);
    }
    Out.push_back(Stmt[InnerEnd - 1]);
  }
  emitLoop();
  if (Braced)
    code("}", Stmt.back().getLocation());
  code("}", Stmt.back().getLocation());
  return std::move(Out);
}

} // namespace

std::optional<TokenVector>
rewriteDistributedRegion(Preprocessor &PP, Diagnostics &Diags,
                         const SyntaxContext &Ctx, unsigned Id,
                         ArrayRef<Token> Line, ArrayRef<Token> Stmt) {
  return Rewriter(PP, Diags, Ctx, Id, Line, Stmt).run();
}

} // namespace homp
