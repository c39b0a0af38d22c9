//===-- KernelEmit.cpp - Writing a distributed kernel ---------------------===//
//
// The rewriter's output: the prologue that registers the construct, the
// target directive and inner loop directive as standard OpenMP, and the
// loop nest with its bounds taken from the chunk homp passes.
//
//===----------------------------------------------------------------------===//

#include "KernelModel.h"

#include "clang/Basic/TargetInfo.h"

using namespace clang;
using namespace llvm;

namespace homp {
namespace kernel {

void Emitter::emitPrologue() {
  SourceLocation Loc = K.loc();
  code("{ " + declareEntry(abi::RegionMarker, "long long",
                           "const char *, void *, ..."),
       Loc);
  emitMemberAliases();
  // The chunk holds the whole nest until libhomp gives each launch its own.
  code(std::string(abi::ChunkTypeSpelling) + " " + chunk() + " = {{", Loc);
  for (unsigned L = 0; L < abi::MaxLoops; ++L) {
    if (L)
      code(",", Loc);
    if (L >= K.Nest.size()) {
      code("{0, 0, 1, 0, 0, 1}", Loc);
      continue;
    }
    const CanonicalLoop &Lp = K.Nest[L];
    code("{ (long long)(", Loc);
    toks(K.Stmt, Lp.Lower);
    code("), (long long)(", Loc);
    toks(K.Stmt, Lp.Bound);
    code("), ", Loc);
    code(Lp.StepNegated ? "-(long long)(" : "(long long)(", Loc);
    Lp.Step.empty() ? code("1", Loc) : toks(K.Stmt, Lp.Step);
    code("), 0, 0, 0 }", Loc); // the 32-bit copies are set below
  }
  code("}};", Loc);
  for (const MapItem &MI : K.Items) {
    if (!MI.CheckNotPointer || !MI.Distributed)
      continue;
    std::string Check =
        PP.getLangOpts().CPlusPlus
            ? "static_assert(!__is_same(__typeof__(" + MI.Name +
                  "), __typeof__(&(" + MI.Name + ")[0])), "
            : "_Static_assert(!__builtin_types_compatible_p(__typeof__(" +
                  MI.Name + "), __typeof__(&(" + MI.Name + ")[0])), ";
    code(Check + "\"homp: '" + MI.Name + "' is a pointer; distribute a " +
             "section of it, such as " + MI.Name + "[0:n]\");",
         MI.Loc);
  }
  // The 32-bit copies, for the kernel run whole without libhomp.
  for (unsigned L = 0; L < K.Nest.size(); ++L)
    for (const char *F : {"first", "bound", "step"}) {
      std::string Field = chunk() + ".l[" + std::to_string(L) + "]." + F;
      code(Field + "32 = (int)" + Field + ";", Loc);
    }
}

/// Data members the kernel maps or subscripts become references of the
/// same name (memberAlias): libhomp then gives each device the address of
/// its part, where through 'this' every device would use the host's.
void Emitter::emitMemberAliases() {
  std::vector<std::string> Done;
  for (const MapItem &MI : K.Items)
    if (MI.Described && !MI.WholeVariable)
      code(memberAlias(K.Body[MI.Expr.Begin], RC.Ctx, Done), MI.Loc);
  for (const AccessInfo &A : K.Accesses)
    code(memberAlias(K.Stmt[A.FirstUse], RC.Ctx, Done),
         K.Stmt[A.FirstUse].getLocation());
}

/// The data-sharing clauses whose items a merged directive (mergesWithTeams)
/// may name once only.
static bool isDataSharing(StringRef Name) {
  return Name == "shared" || Name == "private" || Name == "firstprivate" ||
         Name == "lastprivate" || Name == "reduction";
}

/// The list items of a data-sharing clause: its arguments, after the ':' of
/// a reduction's operator or a lastprivate's modifier.
static SmallVector<TokenRange, 4> clauseItemRanges(ArrayRef<Token> Toks,
                                                   const Clause &C) {
  TokenRange List = C.Args;
  if (C.Name == "reduction" || C.Name == "lastprivate")
    if (std::optional<unsigned> Colon = findTopLevel(Toks, C.Args, tok::colon))
      List.Begin = *Colon + 1;
  SmallVector<TokenRange, 4> Items;
  for (TokenRange R : splitTopLevel(Toks, List, tok::comma))
    if (!R.empty())
      Items.push_back(R);
  return Items;
}

/// The text of an item's tokens.
static std::string itemText(ArrayRef<Token> Toks, TokenRange R) {
  std::string Item;
  for (unsigned I = R.Begin; I < R.End; ++I) {
    const Token &T = Toks[I];
    if (T.isLiteral() && T.getLiteralData())
      Item.append(T.getLiteralData(), T.getLength());
    else if (!identifierName(T).empty())
      Item += identifierName(T).str();
    else
      Item += tok::getTokenName(T.getKind());
    Item += ' ';
  }
  return Item;
}

/// The items the data-sharing clauses among Clauses of Toks name, and
/// whether one of Clauses is 'default'.
static std::set<std::string> sharedItems(ArrayRef<Token> Toks,
                                         ArrayRef<Clause> Clauses,
                                         bool *HasDefault = nullptr) {
  std::set<std::string> Out;
  for (const Clause &C : Clauses) {
    if (HasDefault && C.Name == "default")
      *HasDefault = true;
    if (isDataSharing(C.Name))
      for (TokenRange R : clauseItemRanges(Toks, C))
        Out.insert(itemText(Toks, R));
  }
  return Out;
}

bool Emitter::teamsHere() const {
  const llvm::Triple &T = PP.getTargetInfo().getTriple();
  return K.spreadsOverTeams() && PP.getLangOpts().OpenMPIsTargetDevice &&
         (T.isNVPTX() || T.isAMDGCN());
}

void Emitter::emitTargetDirective() {
  SourceLocation Loc = K.loc();
  Out.push_back(K.Line.front());
  const bool Combined = !K.Inner && teamsHere();
  for (const std::string &W : K.TargetWords.Names) {
    if (Combined && W == "parallel")
      code("teams distribute", Loc);
    code(W, Loc);
  }
  // 'target teams' takes in a 'distribute' loop directive (mergesWithTeams).
  const bool TakesLoop = K.takesLoop();
  if (TakesLoop)
    emitInnerWords();
  for (const Clause *C : K.KeptClauses)
    if (C->Name != "map")
      toks(K.Body, C->All);
  // The loop's clauses, without what the target line's name already.
  if (TakesLoop) {
    bool TargetDefault = false;
    emitInnerClauses(sharedItems(K.Body, K.Target->Clauses, &TargetDefault),
                     TargetDefault, /*LoopIf=*/true);
  }
  if (K.TeamsSchedule)
    emitTeamsSchedule(K.Body, *K.TeamsSchedule);
  code("device(", Loc);
  emitMarkerCall(Synth, Out, Loc, abi::RegionMarker, K.D, K.V,
                 ", (void *)&" + chunk(), PP.getLangOpts().CPlusPlus);
  code(")", Loc);
  for (const MapClause &M : K.Maps) {
    SourceLocation L = K.Body[M.C->All.Begin].getLocation();
    code("map(", L);
    toks(K.Body, M.Prefix);
    for (unsigned I : M.Items) {
      if (I != M.Items.front())
        code(",", L);
      toks(K.Body, K.Items[I].Expr);
    }
    code(")", L);
  }
  code("map(to: " + chunk() + ")", Loc);
  // A reduction inside the region needs its variable mapped back.
  for (const Reduction &R : K.Reductions) {
    if (R.OnTarget)
      continue;
    StringRef Name = identifierName(K.Inner->Toks[R.Var]);
    bool Mapped = any_of(K.Items, [&](const MapItem &MI) {
      return MI.Expr.size() == 1 &&
             identifierName(K.Body[MI.Expr.Begin]) == Name;
    });
    if (!Mapped)
      code(("map(tofrom: " + Name + ")").str(), Loc);
  }
  for (TokenRange C : K.ParallelIf) {
    code("if(parallel: ", Loc);
    toks(K.Body, C);
    code(")", Loc);
  }
  Out.push_back(K.Line.back());
}

/// 'dist_schedule(teams: KIND[, c])' as the standard clause it is (SPEC.md
/// section 3): 'dist_schedule(KIND[, c])', at the user's tokens.
void Emitter::emitTeamsSchedule(ArrayRef<Token> Toks, TokenRange Kind) {
  SourceLocation L = Toks[Kind.Begin].getLocation();
  code("dist_schedule(", L);
  toks(Toks, Kind);
  code(")", L);
}

/// Clause C of Toks in a merged directive (mergesWithTeams), whose other
/// part names the items Drop and has a 'default' clause if OtherDefault: a
/// data-sharing clause without those items (a merged directive may name an
/// item once: the other part's clause decides; nothing when it has no
/// other), no second 'default', and a plain 'if' of the loop as the
/// parallel region's alone when the target line takes the loop in (it would
/// cover the target too).
void Emitter::emitClauseWithout(ArrayRef<Token> Toks, const Clause &C,
                                const std::set<std::string> &Drop,
                                bool OtherDefault, bool LoopIf) {
  if (C.Name == "default" && OtherDefault)
    return;
  if (LoopIf && C.Name == "if" && C.HasParens &&
      clauseModifier(Toks, C).empty()) {
    SourceLocation L = Toks[C.All.Begin].getLocation();
    code("if(parallel:", L);
    toks(Toks, C.Args);
    code(")", L);
    return;
  }
  if (!isDataSharing(C.Name) || !C.HasParens) {
    toks(Toks, C.All);
    return;
  }
  SmallVector<TokenRange, 4> Items = clauseItemRanges(Toks, C);
  const unsigned ListBegin = Items.empty() ? C.Args.End : Items.front().Begin;
  bool Any = false;
  for (TokenRange R : Items) {
    if (Drop.count(itemText(Toks, R)))
      continue;
    if (!Any)
      toks(Toks, {C.All.Begin, ListBegin}); // 'reduction(+:', 'shared('
    else
      code(",", Toks[R.Begin].getLocation());
    toks(Toks, R);
    Any = true;
  }
  if (Any)
    Out.push_back(Toks[C.All.End - 1]); // ')'
}

/// The loop directive's words, without homp's 'distribute'.
void Emitter::emitInnerWords() {
  for (const Word &W : K.Inner->Words) {
    bool Homp = W.Name == "distribute" && W.Index > 0 &&
                identifierName(K.Inner->Toks[W.Index - 1]) != "teams";
    if (!Homp)
      Out.push_back(K.Inner->Toks[W.Index]);
  }
}

/// The loop directive's clauses, without homp's; merged with teams, as
/// emitClauseWithout says.
void Emitter::emitInnerClauses(const std::set<std::string> &Drop,
                               bool OtherDefault, bool LoopIf) {
  for (const Clause &C : K.Inner->Clauses)
    if (C.Name == "dist_schedule" &&
        isTargetModifier(K.Inner->Toks, C, "teams"))
      emitTeamsSchedule(K.Inner->Toks, {C.Args.Begin + 2, C.Args.End});
    else if (!isHompLoopClause(K.Inner->Toks, C))
      emitClauseWithout(K.Inner->Toks, C, Drop, OtherDefault, LoopIf);
}

/// The loop directive inside the target line, after the teams directive
/// written on its own if there is one, or merged with it (mergesWithTeams).
/// Nothing when the target line took it in.
void Emitter::emitInnerDirective() {
  const bool Teams = K.TeamsEnd > K.TeamsBegin;
  if (!Teams && K.mergesWithTeams())
    return; // in the target line
  if (Teams && !K.mergesWithTeams())
    toks(K.Stmt, {K.TeamsBegin, K.TeamsEnd});
  Out.push_back(K.Stmt[K.InnerBegin]);
  if (Teams && K.mergesWithTeams())
    Out.push_back(K.Stmt[K.TeamsWord]);
  if (teamsHere())
    code("teams distribute", K.Stmt[K.InnerBegin].getLocation());
  emitInnerWords();
  if (Teams && K.mergesWithTeams()) {
    // Its clauses, without what the loop's name (its reductions are the
    // loop's too: teamsReductions).
    bool LoopDefault = false;
    std::set<std::string> LoopItems =
        sharedItems(K.Inner->Toks, K.Inner->Clauses, &LoopDefault);
    for (const Clause &C : K.TeamsDirective->Clauses)
      emitClauseWithout(K.TeamsDirective->Toks, C, LoopItems, LoopDefault,
                        /*LoopIf=*/false);
  }
  emitInnerClauses();
  // Under 'default(none)' the loop's bounds, read from homp's chunk, need
  // it named.
  auto Default = [](const Clause &C) { return C.Name == "default"; };
  if (llvm::any_of(K.Inner->Clauses, Default) ||
      (Teams && K.mergesWithTeams() &&
       llvm::any_of(K.TeamsDirective->Clauses, Default)))
    code("shared(" + chunk() + ")", K.Stmt[K.InnerBegin].getLocation());
  Out.push_back(K.Stmt[K.InnerEnd - 1]);
}

void Emitter::emitLoop(unsigned Level) {
  const CanonicalLoop &L = K.Nest[Level];
  std::string Field = chunk() + ".l[" + std::to_string(Level) + "].";
  if (K.D.Loops[Level].Dist.Kind == abi::Policy::Full) {
    // A loop the construct does not split runs whole on every device: its
    // own header, whose bounds the compiler sees (taken from the chunk,
    // clang 19 made Jacobi's collapsed x86 kernel 2.2 times slower).
    toks(K.Stmt, {L.For, L.RParen});
  } else {
    emitChunkHeader(Level, Field);
  }
  if (Level + 1 == K.Nest.size()) {
    toks(K.Stmt, {L.RParen, L.Body.End});
    return;
  }
  const CanonicalLoop &In = K.Nest[Level + 1];
  toks(K.Stmt, {L.RParen, In.For});
  emitLoop(Level + 1);
  toks(K.Stmt, {In.Body.End, L.Body.End});
}

void Emitter::emitChunkHeader(unsigned Level, const std::string &Field) {
  const CanonicalLoop &L = K.Nest[Level];
  SourceLocation Loc = K.Stmt[L.For].getLocation();
  bool Auto = false;
  for (unsigned I = L.TypeTokens.Begin; I < L.TypeTokens.End; ++I)
    Auto |= K.Stmt[I].is(tok::kw_auto);
  auto Type = [&] {
    code("__typeof__(", Loc);
    toks(K.Stmt, Auto ? L.Lower : TokenRange{L.Var, L.Var + 1});
    code(")", Loc);
  };
  // A chunk value in the loop variable's type: a variable of 32 bits or
  // fewer reads the value's 32-bit copy (homp/Abi.h). 'sizeof' takes the
  // type, not the variable, which the loop's bounds must not name.
  auto Value = [&](StringRef Wide, StringRef Narrow) {
    code("(sizeof(", Loc);
    Type();
    code(") > 4 ? (", Loc);
    Type();
    code((")(" + Wide + ") : (").str(), Loc);
    Type();
    code((")(" + Narrow + "))").str(), Loc);
  };
  toks(K.Stmt, {L.For, L.For + 2}); // 'for ('
  toks(K.Stmt, L.InitTarget);
  code("=", Loc);
  Value(Field + "first", Field + "first32");
  code(";", Loc);
  toks(K.Stmt, {L.Var, L.Var + 1});
  static const char *Ops[] = {"<", "<=", ">", ">=", "!="};
  code(Ops[static_cast<int>(L.Op)], Loc);
  Value(Field + "bound", Field + "bound32");
  code(";", Loc);
  if (K.D.Loops[Level].Strided) {
    // Down, the variable steps by the magnitude of the negative step (an
    // unsigned step must be positive); the 32-bit copy is negated in 64 bits
    // so that a step of INT_MIN does not overflow.
    bool Up = L.Op == CompareOp::Less || L.Op == CompareOp::LessEqual;
    toks(K.Stmt, {L.Var, L.Var + 1});
    code(Up ? "+=" : "-=", Loc);
    if (Up)
      Value(Field + "step", Field + "step32");
    else
      Value("-" + Field + "step", "-(long long)" + Field + "step32");
  } else {
    toks(K.Stmt, L.Increment);
  }
}

TokenVector Emitter::run() {
  emitPrologue();
  emitTargetDirective();
  // (A target line that takes the loop directive in is a combined loop
  // construct: the loop follows it without the braces.)
  if (K.Braced && !K.takesLoop())
    code("{", K.Stmt.front().getLocation());
  if (K.Inner)
    emitInnerDirective();
  emitLoop(0);
  if (K.Braced && !K.takesLoop())
    code("}", K.Stmt.back().getLocation());
  code("}", K.Stmt.back().getLocation());
  return std::move(Out);
}

} // namespace kernel

std::optional<TokenVector> rewriteKernel(const RewriteContext &RC,
                                         ArrayRef<Token> Line,
                                         ArrayRef<Token> Stmt) {
  kernel::Analysis A(RC, Line, Stmt);
  if (!A.run())
    return std::nullopt;
  return kernel::Emitter(RC, A.model()).run();
}

} // namespace homp
