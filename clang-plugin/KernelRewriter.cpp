//===-- KernelRewriter.cpp - Rewriting a distributed kernel ---------------===//

#include "KernelRewriter.h"

#include "AccessAnalysis.h"
#include "CanonicalLoop.h"
#include "Clauses.h"
#include "Directive.h"
#include "StatementScanner.h"
#include "WorkAnalysis.h"

#include "clang/Lex/Preprocessor.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Frontend/OpenMP/OMP.h"

#include <set>
#include <string>
#include <vector>

using namespace clang;
using namespace llvm;

namespace homp {
namespace {

struct Reduction {
  abi::ReductionOp Op;
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
  /// OpenMP's distribute construct: 'distribute' after 'teams' (HOMP'16's
  /// 'parallel for distribute' is homp's word).
  bool distributesOverTeams() const {
    for (size_t I = 1; I < Names.size(); ++I)
      if (Names[I] == "distribute" && Names[I - 1] == "teams")
        return true;
    return false;
  }
};

/// The modifier of a clause written 'name(modifier: ...)', else "".
StringRef clauseModifier(ArrayRef<Token> Toks, const Clause &C) {
  return C.Args.size() > 2 && Toks[C.Args.Begin + 1].is(tok::colon)
             ? identifierName(Toks[C.Args.Begin])
             : StringRef();
}

bool isTargetModifier(ArrayRef<Token> Toks, const Clause &C,
                      StringRef Modifier) {
  return !Modifier.empty() && clauseModifier(Toks, C) == Modifier;
}

/// Clauses of a loop directive that only homp reads.
bool isHompLoopClause(ArrayRef<Token> Toks, const Clause &C) {
  return C.Name == "dist_iteration" ||
         (C.Name == "dist_schedule" && isTargetModifier(Toks, C, "target")) ||
         (C.Name == "distribute" && !C.HasParens) ||
         (C.Name == "topology" && C.HasParens) || C.Name == "cutoff";
}

class Rewriter {
public:
  Rewriter(const RewriteContext &RC, ArrayRef<Token> Line, ArrayRef<Token> Stmt)
      : RC(RC), PP(RC.PP), Diags(RC.Diags), Synth(RC.PP), Line(Line),
        Body(Line.drop_front().drop_back()), Stmt(Stmt) {}

  std::optional<TokenVector> run();

private:
  // Analysis.
  bool targetWords();
  bool targetClauses();
  bool topologyClause(const Clause &C);
  bool loopPolicyClause(ArrayRef<Token> Toks, const Clause &C);
  bool collapseClause(ArrayRef<Token> Toks, const Clause &C);
  bool cutoffClause(ArrayRef<Token> Toks, const Clause &C);
  bool reductionClause(ArrayRef<Token> Toks, const Clause &C, bool OnTarget);
  bool teamsReductions();
  StringRef reductionName(const Reduction &R) const {
    return identifierName((R.OnTarget ? Body : Inner->Toks)[R.Var]);
  }
  const Reduction *reductionOf(StringRef Name) const {
    auto It = llvm::find_if(Reductions, [&](const Reduction &R) {
      return reductionName(R) == Name;
    });
    return It == Reductions.end() ? nullptr : &*It;
  }
  std::optional<abi::ReductionOp> reductionOp(ArrayRef<Token> Toks,
                                              const Clause &C) const;
  bool unsupportedLoopClause(ArrayRef<Token> Toks, const Clause &C);
  /// 'ordered' as a word of a loop directive: reported, false.
  bool orderedWord(const Directive &Dir);
  /// 'dist_schedule' without 'target:' or 'teams:' (nor OpenMP's
  /// 'static'): reported, false.
  bool distScheduleModifier(ArrayRef<Token> Toks, const Clause &C);
  bool innerDirective(unsigned Begin, unsigned End);
  bool statement();
  bool loopPolicies();
  /// Marks the inner loops without a policy that subscript a dimension a
  /// distributed array may split (abi::Loop::Implicit): they follow its
  /// parts. The others keep their own headers (FULL). Loops without a
  /// policy over arrays dealt round-robin run strided.
  void implicitLoops();
  bool cutoff();
  bool resolveAlignments();
  bool isAlignTarget(StringRef Name) const;
  void accesses();
  void describe();

  // Output.
  void code(StringRef Text, SourceLocation Loc) {
    Synth.append(Out, Text, Loc);
  }
  void toks(ArrayRef<Token> Toks, TokenRange R) {
    Out.append(Toks.begin() + R.Begin, Toks.begin() + R.End);
  }
  void emitPrologue();
  void emitMemberAliases();
  void emitTargetDirective();
  void emitTeamsSchedule(ArrayRef<Token> Toks, TokenRange Kind);
  void emitInnerDirective();
  void emitInnerWords();
  void emitInnerClauses(const std::set<std::string> &Drop = {},
                        bool OtherDefault = false, bool LoopIf = false);
  bool takesLoop() const;
  bool mergesWithTeams() const;
  void emitClauseWithout(ArrayRef<Token> Toks, const Clause &C,
                         const std::set<std::string> &Drop, bool OtherDefault,
                         bool LoopIf);
  bool innerDistributesOverTeams() const;
  bool qualifiedUses();
  bool atomicUpdates();
  void emitLoop(unsigned Level);
  /// The header of loop Level with its bounds (and step) from the chunk.
  void emitChunkHeader(unsigned Level, const std::string &Field);
  std::string spell(ArrayRef<Token> Toks, TokenRange R) const;

  SourceLocation loc() const { return Line.front().getLocation(); }
  std::string chunk() const { return "__homp_chunk_" + std::to_string(RC.Id); }

  const RewriteContext &RC;
  Preprocessor &PP;
  Diagnostics &Diags;
  TokenSynth Synth;
  ArrayRef<Token> Line, Body, Stmt;

  std::optional<Directive> Target;
  Words TargetWords;
  SmallVector<const Clause *, 8> KeptClauses;
  SmallVector<DeviceSpec, 4> Devices;
  bool HasDeviceClause = false;
  TopologySpec Topo;
  std::vector<MapItem> Items;
  std::vector<MapClause> Maps;
  SmallVector<TokenRange, 2> TargetIf;   ///< conditions of if / if(target:)
  SmallVector<TokenRange, 2> ParallelIf; ///< plain if() of a combined construct
  /// 'dist_schedule(teams: KIND[, c])' of the target line: KIND[, c], for
  /// the standard 'dist_schedule' it becomes.
  std::optional<TokenRange> TeamsSchedule;
  SmallVector<Reduction, 2> Reductions;

  std::optional<SmallVector<Policy, 3>> LoopPolicies;
  ArrayRef<Token> LoopPolicyToks; ///< the tokens LoopPolicies index into
  StringRef LoopPolicySource;
  unsigned Collapse = 1;
  std::string LoopLabel;
  std::optional<abi::Cutoff> Cut;
  SourceLocation CutLoc;

  // The inner loop directive (split form), as indices into Stmt.
  std::optional<Directive> Inner;
  unsigned InnerBegin = 0, InnerEnd = 0; ///< annotation tokens included
  /// A 'teams' directive of its own between the target and the loop
  /// directive ('target', 'teams', 'distribute parallel for'), kept as
  /// written; TeamsEnd == TeamsBegin without one.
  unsigned TeamsBegin = 0, TeamsEnd = 0;
  /// That teams directive, parsed, and the index of its 'teams' word.
  std::optional<Directive> TeamsDirective;
  unsigned TeamsWord = 0;
  bool Braced = false;
  SmallVector<CanonicalLoop, 3> Nest;
  std::vector<AccessInfo> Accesses;
  WorkInfo Work;

  abi::Descriptor D;
  ConstructValues V;
  TokenVector Out;
};

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
          << ("parallel " + (W.size() > 1 ? W[1] : std::string()))
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
  StringRef Source = C.Name == "dist_schedule" ? "dist_schedule(target: ...)"
                                               : "dist_iteration";
  if (LoopPolicies) {
    Diags.report(Toks[C.All.Begin].getLocation(), Diag::TwoLoopPolicies)
        << LoopPolicySource << Source;
    return false;
  }
  if (Args.empty()) {
    Diags.report(Toks[C.All.Begin].getLocation(), Diag::ExpectedPolicy) << true;
    return false;
  }
  LoopPolicies = parsePolicies(Toks, Args, /*ForLoop=*/true, Diags);
  LoopPolicyToks = Toks;
  LoopPolicySource = Source;
  return LoopPolicies.has_value();
}

bool Rewriter::cutoffClause(ArrayRef<Token> Toks, const Clause &C) {
  if (Cut) {
    Diags.report(Toks[C.All.Begin].getLocation(), Diag::TwoClauses) << "cutoff";
    return false;
  }
  std::optional<abi::Cutoff> V =
      C.HasParens && !C.Args.empty() ? parseCutoff(Toks, C.Args) : std::nullopt;
  if (!V) {
    Diags.report(Toks[C.HasParens && !C.Args.empty() ? C.Args.Begin
                                                     : C.All.Begin]
                     .getLocation(),
                 Diag::BadCutoff);
    return false;
  }
  Cut = V;
  CutLoc = Toks[C.All.Begin].getLocation();
  return true;
}

bool Rewriter::collapseClause(ArrayRef<Token> Toks, const Clause &C) {
  std::optional<int64_t> N =
      C.Args.size() == 1 ? integerLiteral(Toks[C.Args.Begin]) : std::nullopt;
  if (!N || *N < 1)
    return true; // clang reports what it does not accept
  if (*N > static_cast<int64_t>(abi::MaxRank)) {
    Diags.report(Toks[C.Args.Begin].getLocation(), Diag::NotSupportedYet)
        << "distributing a nest of more than 3 collapsed loops";
    return false;
  }
  Collapse = static_cast<unsigned>(*N);
  return true;
}

/// What 'ordered' on a distributed loop would need.
static const char *const OrderedLoop =
    "'ordered' on a distributed loop (the devices run their parts at the same "
    "time, so the iterations cannot run in order across them)";

/// Clauses of the distributed loop that need the iterations before a
/// device's own: reported, false.
bool Rewriter::unsupportedLoopClause(ArrayRef<Token> Toks, const Clause &C) {
  const char *What =
      C.Name == "linear" ? "'linear' on a distributed loop (each device's part "
                           "would start the variable from its initial value)"
      : C.Name == "lastprivate" ? "'lastprivate' on a distributed loop (one "
                                  "device runs the last iteration; compute the "
                                  "value after the loop)"
      : C.Name == "ordered"     ? OrderedLoop
                                : nullptr;
  if (!What)
    return true;
  Diags.report(Toks[C.All.Begin].getLocation(), Diag::NotSupportedYet) << What;
  return false;
}

bool Rewriter::distScheduleModifier(ArrayRef<Token> Toks, const Clause &C) {
  if (C.Name != "dist_schedule" || isTargetModifier(Toks, C, "target") ||
      isTargetModifier(Toks, C, "teams"))
    return true;
  // OpenMP's own 'dist_schedule(static[, c])': clang checks it.
  if (!C.Args.empty() && identifierName(Toks[C.Args.Begin]) == "static")
    return true;
  bool EmptyTarget = C.Args.size() == 2 &&
                     identifierName(Toks[C.Args.Begin]) == "target" &&
                     Toks[C.Args.Begin + 1].is(tok::colon);
  unsigned At = C.Args.empty() ? C.All.Begin
                : EmptyTarget  ? C.Args.Begin + 1
                               : C.Args.Begin;
  Diags.report(Toks[At].getLocation(), Diag::DistScheduleModifier)
      << (EmptyTarget ? 0 : 1);
  return false;
}

bool Rewriter::orderedWord(const Directive &Dir) {
  // 'parallel for ordered': without parentheses the clause reads as a word
  // of the directive's name (a directive that starts with it is 'ordered').
  std::optional<unsigned> W = Dir.findWord("ordered");
  if (!W || *W == 0)
    return true;
  Diags.report(Dir.Toks[Dir.Words[*W].Index].getLocation(),
               Diag::NotSupportedYet)
      << OrderedLoop;
  return false;
}

/// The reduction operator spelled Op, if it is one homp combines.
static std::optional<abi::ReductionOp> reductionOpNamed(StringRef Op) {
  return StringSwitch<std::optional<abi::ReductionOp>>(Op)
      .Case("+", abi::ReductionOp::Add)
      .Case("-", abi::ReductionOp::Sub)
      .Case("*", abi::ReductionOp::Mul)
      .Case("&", abi::ReductionOp::BitAnd)
      .Case("|", abi::ReductionOp::BitOr)
      .Case("^", abi::ReductionOp::BitXor)
      .Case("&&", abi::ReductionOp::And)
      .Case("||", abi::ReductionOp::Or)
      .Case("max", abi::ReductionOp::Max)
      .Case("min", abi::ReductionOp::Min)
      .Default(std::nullopt);
}

/// The tokens of reduction clause C's operator (after a modifier), if it
/// has the shape 'reduction([modifier,] op: items)'.
static std::optional<TokenRange> reductionOpRange(ArrayRef<Token> Toks,
                                                  const Clause &C) {
  std::optional<unsigned> Colon = findTopLevel(Toks, C.Args, tok::colon);
  if (!Colon)
    return std::nullopt;
  TokenRange OpRange = {C.Args.Begin, *Colon};
  SmallVector<TokenRange, 2> Head = splitTopLevel(Toks, OpRange, tok::comma);
  if (Head.size() == 2)
    OpRange = Head[1];
  return OpRange;
}

/// The operator of reduction clause C, if it is one homp combines.
std::optional<abi::ReductionOp> Rewriter::reductionOp(ArrayRef<Token> Toks,
                                                      const Clause &C) const {
  std::optional<TokenRange> OpRange = reductionOpRange(Toks, C);
  return OpRange ? reductionOpNamed(spell(Toks, *OpRange)) : std::nullopt;
}

bool Rewriter::reductionClause(ArrayRef<Token> Toks, const Clause &C,
                               bool OnTarget) {
  std::optional<unsigned> Colon = findTopLevel(Toks, C.Args, tok::colon);
  if (!Colon) // malformed: clang reports it
    return true;
  TokenRange OpRange = *reductionOpRange(Toks, C);
  SmallVector<TokenRange, 2> Head =
      splitTopLevel(Toks, {C.Args.Begin, *Colon}, tok::comma);
  if (Head.size() == 2) {
    StringRef Modifier = identifierName(Toks[Head[0].Begin]);
    if (Modifier == "inscan" || Modifier == "task") {
      Diags.report(Toks[Head[0].Begin].getLocation(), Diag::NotSupportedYet)
          << ("the '" + Modifier + "' reduction modifier in a distributed loop")
                 .str();
      return false;
    }
  }
  std::string Op = spell(Toks, OpRange);
  std::optional<abi::ReductionOp> Kind = reductionOpNamed(Op);
  if (!Kind) {
    Diags.report(Toks[OpRange.Begin].getLocation(), Diag::UserDefinedReduction)
        << Op;
    return false;
  }
  for (TokenRange Item :
       splitTopLevel(Toks, {*Colon + 1, C.Args.End}, tok::comma)) {
    if (Item.size() != 1 || Toks[Item.Begin].isNot(tok::identifier)) {
      Diags.report(Toks[Item.empty() ? *Colon : Item.Begin].getLocation(),
                   Diag::ReductionItem)
          << spell(Toks, Item);
      return false;
    }
    // 'target teams reduction(+: s)' with 'distribute parallel for
    // reduction(+: s)': one variable, reduced once across devices.
    StringRef Name = identifierName(Toks[Item.Begin]);
    if (const Reduction *Same = reductionOf(Name)) {
      if (Same->Op != *Kind) {
        Diags.report(Toks[Item.Begin].getLocation(),
                     Diag::ReductionOperatorsDiffer)
            << Name;
        return false;
      }
      continue;
    }
    Reductions.push_back({*Kind, Item.Begin, OnTarget});
  }
  return true;
}

bool Rewriter::topologyClause(const Clause &C) {
  std::optional<TopologySpec> T = parseTopology(Body, C.Args, Diags);
  if (!T)
    return false;
  if (T->Target)
    return true; // the construct's own: nothing to say
  if (!T->Reference.empty()) {
    auto It = RC.Topologies.find(T->Reference);
    if (It == RC.Topologies.end()) {
      Diags.report(Body[C.Args.Begin].getLocation(), Diag::UnknownTopology)
          << T->Reference;
      return false;
    }
    Topo.T = It->second.T;
    V.TopologyDims = topologyDims(It->second);
    return true;
  }
  Topo = *T;
  V.TopologyDims = topologyDims(Body, Topo);
  declareTopology(RC.Topologies, Body, Topo);
  return true;
}

bool Rewriter::targetClauses() {
  if (!clausesAppearOnce(Body, Target->Clauses, Diags))
    return false;
  if (TargetWords.isLoop() && !orderedWord(*Target))
    return false;
  bool Ok = true;
  // The topology comes first: '[*]' after an item names its last dimension.
  for (const Clause &C : Target->Clauses)
    if (C.Name == "topology" && C.HasParens && !topologyClause(C))
      return false;
  MapItemParser MapParser(PP, Body, Diags, RC.Ctx, Topo.T, RC.Topologies);
  for (const Clause &C : Target->Clauses) {
    StringRef N = C.Name;
    if (N == "device" && C.HasParens) {
      HasDeviceClause = true;
      std::optional<SmallVector<DeviceSpec, 4>> L =
          parseDeviceClause(Body, C, RC.Ctx, Diags);
      if (!L)
        return false;
      Devices = *L;
      continue;
    }
    if (N == "topology" && C.HasParens)
      continue;
    if (N == "map" && C.HasParens) {
      Ok &= MapParser.mapClause(C, Items, Maps);
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
    if (N == "cutoff") {
      if (!TargetWords.isLoop()) {
        Diags.report(Body[C.All.Begin].getLocation(), Diag::OutsideRegion)
            << "'cutoff'";
        return false;
      }
      Ok &= cutoffClause(Body, C);
      continue;
    }
    if (N == "dist_schedule" && isTargetModifier(Body, C, "teams")) {
      // SPEC.md section 3: the standard in-device 'dist_schedule'.
      if (!TargetWords.distributesOverTeams()) {
        Diags.report(Body[C.Args.Begin].getLocation(),
                     Diag::TeamsScheduleWithoutTeams);
        return false;
      }
      TeamsSchedule = TokenRange{C.Args.Begin + 2, C.Args.End};
      continue;
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
    if (N == "collapse" && C.HasParens)
      Ok &= collapseClause(Body, C);
    if (N == "reduction" && C.HasParens && TargetWords.isLoop())
      Ok &= reductionClause(Body, C, /*OnTarget=*/true);
    if (TargetWords.isLoop() &&
        (!unsupportedLoopClause(Body, C) || !distScheduleModifier(Body, C)))
      return false;
    KeptClauses.push_back(&C);
  }
  return Ok;
}

bool Rewriter::innerDirective(unsigned Begin, unsigned End) {
  InnerBegin = Begin;
  InnerEnd = End;
  ArrayRef<Token> Toks = Stmt.slice(Begin + 1, End - Begin - 2);
  ShapeError Shape;
  Inner = parseDirective(Toks, &Shape);
  if (!Inner) {
    // Reported here: clang only warns about stray tokens and ignores them,
    // with whatever clauses (and unclosed brackets) follow them, which homp
    // could not account for.
    if (Shape.Unclosed) {
      Diags.reportUnclosed(PP.getLocForEndOfToken(Toks.back().getLocation()),
                           Toks[Shape.Index].getLocation());
      return false;
    }
    Diags.report(Toks.empty() ? Stmt[Begin].getLocation()
                              : Toks.front().getLocation(),
                 Diag::UnreadableDirective);
    return false;
  }
  if (!orderedWord(*Inner))
    return false;
  bool Ok = true;
  for (const Clause &C : Inner->Clauses) {
    if (!isHompClauseName(C.Name) &&
        llvm::omp::getOpenMPClauseKind(C.Name) == llvm::omp::OMPC_unknown) {
      Diags.report(Toks[C.All.Begin].getLocation(), Diag::UnknownClause)
          << C.Name;
      return false;
    }
    if (!unsupportedLoopClause(Toks, C) || !distScheduleModifier(Toks, C))
      return false;
    if (C.Name == "dist_iteration" ||
        (C.Name == "dist_schedule" && isTargetModifier(Toks, C, "target")))
      Ok &= loopPolicyClause(Toks, C);
    else if (C.Name == "dist_schedule" && isTargetModifier(Toks, C, "teams")) {
      if (!innerDistributesOverTeams()) {
        Diags.report(Toks[C.Args.Begin].getLocation(),
                     Diag::TeamsScheduleWithoutTeams);
        return false;
      }
    } else if (C.Name == "cutoff")
      Ok &= cutoffClause(Toks, C);
    else if (C.Name == "reduction" && C.HasParens)
      Ok &= reductionClause(Toks, C, /*OnTarget=*/false);
    else if (C.Name == "collapse" && C.HasParens)
      Ok &= collapseClause(Toks, C);
  }
  return Ok;
}

/// The teams' reductions, once the loop directive is known:
/// - those of a 'target teams' line that takes in a 'distribute' loop
///   directive (mergesWithTeams) are reductions of the merged construct,
///   combined across devices as a combined construct's are;
/// - a teams directive written on its own reduces only what the loop
///   directive reduces: homp combines the loop's reductions across devices
///   (a variable the teams reduce and the loop's threads update unreduced
///   is a race in each team besides).
bool Rewriter::teamsReductions() {
  if (!TeamsDirective) {
    bool Ok = true;
    if (!TargetWords.isLoop() && mergesWithTeams())
      for (const Clause &C : Target->Clauses)
        if (C.Name == "reduction" && C.HasParens)
          Ok &= reductionClause(Body, C, /*OnTarget=*/true);
    return Ok;
  }
  for (const Clause &C : TeamsDirective->Clauses) {
    std::optional<unsigned> Colon =
        C.Name == "reduction"
            ? findTopLevel(TeamsDirective->Toks, C.Args, tok::colon)
            : std::nullopt;
    if (!Colon)
      continue;
    for (TokenRange Item : splitTopLevel(
             TeamsDirective->Toks, {*Colon + 1, C.Args.End}, tok::comma)) {
      if (Item.empty()) // malformed: clang reports it
        continue;
      StringRef Name = identifierName(TeamsDirective->Toks[Item.Begin]);
      const Reduction *Same = reductionOf(Name);
      if (Item.size() == 1 && Same) {
        if (reductionOp(TeamsDirective->Toks, C) != Same->Op) {
          Diags.report(TeamsDirective->Toks[Item.Begin].getLocation(),
                       Diag::ReductionOperatorsDiffer)
              << Name;
          return false;
        }
        continue;
      }
      Diags.report(TeamsDirective->Toks[Item.Begin].getLocation(),
                   Diag::TeamsReductionNotLoops)
          << spell(TeamsDirective->Toks, Item);
      return false;
    }
  }
  return true;
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
    auto PragmaEnd = [&](unsigned At) {
      unsigned End = At;
      while (End < E && Stmt[End].isNot(tok::annot_pragma_openmp_end))
        ++End;
      return End;
    };
    if (B < E && Stmt[B].is(tok::annot_pragma_openmp)) {
      unsigned End = PragmaEnd(B);
      if (End == E)
        return Fail(B);
      // 'teams' alone, with a loop directive right after it: OpenMP's
      // teams, kept as written ('target', 'teams', 'distribute ...').
      std::optional<Directive> Teams =
          parseDirective(Stmt.slice(B + 1, End - B - 1));
      if (Teams && Teams->Words.size() == 1 &&
          Teams->Words[0].Name == "teams" && End + 1 < E &&
          Stmt[End + 1].is(tok::annot_pragma_openmp)) {
        for (const Clause &C : Teams->Clauses)
          if (isHompClauseName(C.Name) ||
              llvm::omp::getOpenMPClauseKind(C.Name) ==
                  llvm::omp::OMPC_unknown) {
            Diags.report(Teams->Toks[C.All.Begin].getLocation(),
                         Diag::TeamsClause)
                << C.Name;
            return false;
          }
        TeamsBegin = B;
        TeamsEnd = End + 1;
        TeamsWord = B + 1 + Teams->Words[0].Index;
        TeamsDirective = std::move(Teams);
        B = End + 1;
        End = PragmaEnd(B);
        if (End == E)
          return Fail(B);
      }
      if (!innerDirective(B, End + 1) || !teamsReductions())
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
  std::optional<SmallVector<CanonicalLoop, 3>> L =
      parseLoopNest(Stmt, B, E, Collapse, Err);
  if (!L) {
    Diags.report(Stmt[Err.Index].getLocation(), Diag::LoopNotCanonical)
        << Err.Message;
    return false;
  }
  Nest = *L;
  for (const CanonicalLoop &Lp : Nest)
    if (findTopLevel(Stmt, Lp.Lower, tok::comma)) {
      Diags.report(Stmt[Lp.Lower.Begin].getLocation(), Diag::LoopNotCanonical)
          << "the loop must declare or assign one variable";
      return false;
    }
  // Nothing may follow the loop inside the region.
  ScanFailure Why;
  TokenVector Probe;
  CanonicalLoop &Outer = Nest.front();
  ArraySource Src(Stmt.slice(Outer.Body.Begin, E - Outer.Body.Begin));
  if (!scanStatement(Src, Probe, Why) || Outer.Body.Begin + Src.consumed() != E)
    return Fail(Outer.Body.Begin + Src.consumed());
  Outer.Body.End = E;
  return true;
}

/// A distributed array the loop names through 'this->' or a qualifier
/// ('::a', 'ns::a') would bypass what homp does for the plain name (the
/// device's part, the footprint check): refused.
bool Rewriter::qualifiedUses() {
  auto Distributed = [&](const Token &T) {
    StringRef Name = identifierName(T);
    if (Name.empty())
      return false;
    if (RC.Around.distributes(Name))
      return true;
    return any_of(Items, [&](const MapItem &MI) {
      return MI.Distributed && MI.Name == Name;
    });
  };
  unsigned Begin = Nest.front().For;
  for (unsigned I = Begin; I + 1 < Stmt.size(); ++I) {
    std::string Via;
    unsigned NameAt = I + 1;
    if (Stmt[I].is(tok::kw_this) && Stmt[I + 1].is(tok::arrow) &&
        I + 2 < Stmt.size()) {
      Via = "this->";
      NameAt = I + 2;
    } else if (Stmt[I].is(tok::coloncolon)) {
      Via = "::";
      // 'ns::a': the qualifier as written.
      if (I > Begin && Stmt[I - 1].is(tok::identifier) &&
          !(I > Begin + 1 && Stmt[I - 2].is(tok::coloncolon)))
        Via = identifierName(Stmt[I - 1]).str() + "::";
    } else {
      continue;
    }
    if (NameAt < Stmt.size() && Distributed(Stmt[NameAt]) &&
        !(NameAt + 1 < Stmt.size() && Stmt[NameAt + 1].is(tok::coloncolon))) {
      Diags.report(
          Stmt[Via == "this->" || Via == "::" ? I : I - 1].getLocation(),
          Diag::QualifiedDistributedUse)
          << Via << identifierName(Stmt[NameAt]);
      return false;
    }
  }
  return true;
}

/// '#pragma omp atomic', or a 'critical' section, updating a variable the
/// construct maps back whole ('cnt += 1', 's.acc += 1'): every device would
/// count into its own copy, and copies that agree are taken as one (a count
/// of 250 for 1000). Refused, with the reduction to use instead. Left
/// alone: distributed arrays, the loop's reduction variables, variables
/// private to the loop or the construct, the body's own, and variables not
/// mapped back (their updates stay on the devices, as in OpenMP).
bool Rewriter::atomicUpdates() {
  auto Named = [&](const Directive &Dir, StringRef Kind, StringRef Name) {
    for (const Clause &C : Dir.Clauses)
      if (C.Name == Kind)
        for (unsigned T = C.Args.Begin; T < C.Args.End; ++T)
          if (identifierName(Dir.Toks[T]) == Name)
            return true;
    return false;
  };
  std::vector<StringRef> Locals = declaredNames(Stmt, Nest.front().Body);
  auto Shared = [&](StringRef Name) {
    bool MappedBack = any_of(Items, [&](const MapItem &MI) {
      return MI.Described && !MI.Distributed && MI.Name == Name &&
             abi::copiesOut(MI.A.Map);
    });
    bool Reduced = reductionOf(Name) != nullptr;
    bool Private = false;
    for (const Directive *Dir : {&*Target, Inner ? &*Inner : nullptr})
      for (StringRef Kind : {"private", "firstprivate", "lastprivate"})
        Private |= Dir && Named(*Dir, Kind, Name);
    return MappedBack && !Reduced && !Private && !is_contained(Locals, Name);
  };
  for (unsigned I = Nest.front().For; I + 1 < Stmt.size(); ++I) {
    if (Stmt[I].isNot(tok::annot_pragma_openmp))
      continue;
    bool Critical = identifierName(Stmt[I + 1]) == "critical";
    if (!Critical && identifierName(Stmt[I + 1]) != "atomic")
      continue;
    unsigned From = I + 1;
    bool Update = true; // 'atomic' or 'atomic update', not read/write/capture
    for (; From < Stmt.size() && Stmt[From].isNot(tok::annot_pragma_openmp_end);
         ++From) {
      StringRef Word = identifierName(Stmt[From]);
      Update &= Critical || (Word != "read" && Word != "write" &&
                             Word != "capture" && Word != "compare");
    }
    if (!Update || ++From >= Stmt.size())
      continue;
    // The construct's statement, whole ('if ... else ...' too).
    ArraySource Src(Stmt.slice(From));
    TokenVector Probe;
    ScanFailure Why;
    unsigned To = scanStatement(Src, Probe, Why)
                      ? From + Src.consumed()
                      : static_cast<unsigned>(Stmt.size());
    // 'x = ...', 'x += ...', 'x++', '++x', 's.m += ...' of such a variable.
    for (unsigned J = From; J < To; ++J) {
      if (Stmt[J].isNot(tok::identifier) ||
          Stmt[J - 1].isOneOf(tok::period, tok::arrow, tok::coloncolon))
        continue;
      unsigned After = J + 1;
      while (After + 1 < To && Stmt[After].isOneOf(tok::period, tok::arrow) &&
             Stmt[After + 1].is(tok::identifier))
        After += 2;
      bool Assigned = (After < To && isAssignment(Stmt[After])) ||
                      Stmt[J - 1].isOneOf(tok::plusplus, tok::minusminus);
      StringRef Name = identifierName(Stmt[J]);
      if (!Assigned || !Shared(Name))
        continue;
      Diags.report(Stmt[J].getLocation(), Diag::AtomicAcrossDevices)
          << Name << Critical;
      return false;
    }
  }
  return true;
}

bool Rewriter::loopPolicies() {
  D.Loops.assign(Collapse, abi::Loop());
  for (unsigned L = 0; L < Collapse; ++L)
    D.Loops[L].Op = Nest[L].Op;
  // Loops the program gives no policy follow the arrays they use.
  for (unsigned L = LoopPolicies ? LoopPolicies->size() : 0; L < Collapse; ++L)
    D.Loops[L].NoPolicy = true;
  if (!LoopPolicies) {
    // No loop policy: the outer loop is split like the arrays it uses
    // (owner computes), else in blocks.
    D.Loops[0].Dist.Kind = abi::Policy::Block;
    return cutoff();
  }
  if (LoopPolicies->size() > Collapse) {
    Diags.report(LoopPolicyToks[(*LoopPolicies)[Collapse].Index].getLocation(),
                 Diag::TooManyLoopPolicies)
        << static_cast<unsigned>(LoopPolicies->size()) << Collapse;
    return false;
  }
  bool AnySplit = false;
  for (unsigned L = 0; L < LoopPolicies->size(); ++L) {
    const Policy &P = (*LoopPolicies)[L];
    D.Loops[L].Dist = P.P;
    AnySplit |= P.P.distributed();
    if (P.P.Kind == abi::Policy::Cyclic) {
      D.Loops[L].Strided = Nest[L].Op != CompareOp::NotEqual;
      Code &C = V.LoopBlocks[L];
      C.text("(long long)(");
      P.Block.empty() ? C.text("1") : C.tokens(LoopPolicyToks, P.Block);
      C.text(")");
    }
  }
  if (!AnySplit) {
    const Policy &P = LoopPolicies->front();
    Diags.report(LoopPolicyToks[P.Index].getLocation(), Diag::PolicyNotForLoops)
        << (LoopPolicyToks[P.Index].is(tok::star)
                ? std::string("*")
                : identifierName(LoopPolicyToks[P.Index]).str());
    return false;
  }
  return cutoff();
}

bool Rewriter::cutoff() {
  if (!Cut)
    return true;
  // The model and profile kinds predict shares; a cutoff drops the small.
  for (const abi::Loop &L : D.Loops)
    if (L.Dist.Kind == abi::Policy::Auto &&
        L.Dist.Sched != abi::SchedKind::Dynamic &&
        L.Dist.Sched != abi::SchedKind::Guided) {
      D.Cut = *Cut;
      return true;
    }
  std::string Kind = "BLOCK";
  if (LoopPolicies)
    for (const Policy &P : *LoopPolicies)
      if (P.P.distributed()) {
        Kind = LoopPolicyToks[P.Index].is(tok::identifier)
                   ? identifierName(LoopPolicyToks[P.Index]).str()
                   : Kind;
        break;
      }
  Diags.report(CutLoc, Diag::CutoffNeedsModel) << Kind;
  return false;
}

bool Rewriter::isAlignTarget(StringRef Name) const {
  if (RC.Around.hasLabel(Name) || RC.Around.distributes(Name))
    return true;
  for (const MapItem &MI : Items)
    if (MI.Distributed && MI.Name == Name)
      return true;
  return false;
}

bool Rewriter::resolveAlignments() {
  // Arrays: ALIGN(label of this loop) is ALIGN(loop); ALIGN(x) must not come
  // back to itself.
  for (MapItem &MI : Items)
    for (unsigned Dm = 0; Dm < MI.A.Rank; ++Dm) {
      abi::Policy &P = MI.A.Dims[Dm];
      if (P.Kind == abi::Policy::Align && !P.ToLoop && P.Target == LoopLabel)
        P.ToLoop = true, P.Target.clear();
    }
  for (unsigned I = 0; I < Items.size(); ++I) {
    const MapItem &MI = Items[I];
    for (unsigned Dm = 0; Dm < MI.A.Rank; ++Dm) {
      const abi::Policy &P = MI.A.Dims[Dm];
      if (P.Kind != abi::Policy::Align || P.ToLoop)
        continue;
      SourceLocation PLoc = Body[MI.PolicyIndex[Dm]].getLocation();
      if (!isAlignTarget(P.Target)) {
        Diags.report(PLoc, Diag::AlignTargetUnknown) << P.Target;
        return false;
      }
      // Follow the chain of ALIGN targets among this region's arrays.
      SmallVector<std::string, 4> Seen{MI.Name};
      std::string Next = P.Target;
      while (true) {
        if (is_contained(Seen, Next)) {
          Diags.report(PLoc, Diag::AlignCycle) << MI.Name;
          return false;
        }
        Seen.push_back(Next);
        auto It = find_if(Items, [&](const MapItem &X) {
          return X.Distributed && X.Name == Next;
        });
        if (It == Items.end())
          break;
        auto Dim = find_if(ArrayRef(It->A.Dims).take_front(It->A.Rank),
                           [](const abi::Policy &Q) {
                             return Q.Kind == abi::Policy::Align && !Q.ToLoop;
                           });
        if (Dim == It->A.Dims.begin() + It->A.Rank)
          break;
        Next = Dim->Target;
      }
    }
  }
  // The loops: ALIGN(x) where x follows the loop is a cycle.
  for (unsigned L = 0; L < D.Loops.size(); ++L) {
    const abi::Policy &P = D.Loops[L].Dist;
    if (P.Kind != abi::Policy::Align)
      continue;
    SourceLocation PLoc =
        LoopPolicyToks[(*LoopPolicies)[L].Index].getLocation();
    if (P.ToLoop || P.Target == LoopLabel) {
      Diags.report(PLoc, Diag::AlignCycle) << "the loop";
      return false;
    }
    auto It = find_if(Items, [&](const MapItem &X) {
      return X.Distributed && X.Name == P.Target;
    });
    if (It != Items.end()) {
      if (any_of(ArrayRef(It->A.Dims).take_front(It->A.Rank),
                 [](const abi::Policy &Q) {
                   return Q.Kind == abi::Policy::Align && Q.ToLoop;
                 })) {
        Diags.report(PLoc, Diag::AlignCycle) << "the loop";
        return false;
      }
      continue;
    }
    // A variable a data region may have distributed, or a loop it split.
    if (!isAlignTarget(P.Target)) {
      bool Variable = false;
      for (const AccessInfo &A : Accesses)
        Variable |= A.A.Name == P.Target;
      if (!Variable) {
        Diags.report(PLoc, Diag::AlignTargetUnknown) << P.Target;
        return false;
      }
    }
  }
  return true;
}

void Rewriter::accesses() {
  std::vector<std::string> Vars, Always;
  for (const CanonicalLoop &L : Nest)
    Vars.push_back(L.VarName);
  // Every array or section the kernel maps, whatever its declaration: a
  // data region may have distributed it, and class members (or members
  // declared after an inline member function) have no shape here.
  for (const MapItem &MI : Items)
    if (MI.Described && (MI.Distributed || !MI.WholeVariable))
      Always.push_back(MI.Name);
  const CanonicalLoop &Inner = Nest.back();
  // How much the body computes, for the machine model; its loops also give
  // subscripts' offsets.
  Work = analyzeWork(Stmt, Inner.Body, Vars, RC.Ctx);
  Accesses = analyzeAccesses(PP, Stmt, Inner.Body, Vars, Always, Work.Headers,
                             RC.Ctx);
  // Warn where the footprint of a distributed array cannot be bounded in a
  // split dimension (or at all: a use without subscripts), saying what
  // libhomp does then: every device gets all of an array the loop only
  // reads; one it writes makes the loop run on one device; one an enclosing
  // data region keeps on the devices makes it run on the host, with the
  // array gathered there.
  for (const AccessInfo &A : Accesses) {
    auto It = find_if(Items, [&](const MapItem &MI) {
      return MI.Distributed && MI.Name == A.A.Name;
    });
    bool Resident = It == Items.end() && RC.Around.distributes(A.A.Name);
    if (It == Items.end() && !Resident)
      continue;
    unsigned Splits = Resident ? RC.Around.splitsOf(A.A.Name).Split
                               : dimSplits(It->A).Split;
    const AccessInfo::Unchecked *Why = A.Any.At.isValid() ? &A.Any : nullptr;
    for (unsigned Dm = 0; Dm < abi::MaxRank && !Why; ++Dm)
      if (A.Dims[Dm].At.isValid() && (Splits >> Dm & 1))
        Why = &A.Dims[Dm];
    if (!Why)
      continue;
    std::string Then =
        Resident ? "the loop runs on the host, with '" + A.A.Name +
                       "' gathered there from the devices"
        : A.A.Written ? "the loop writes it, so it runs on one device"
                      : "every device gets all of '" + A.A.Name + "'";
    Diags.report(Why->At, Diag::UncheckedAccess) << A.A.Name << Why->Why << Then;
  }
}

void Rewriter::implicitLoops() {
  auto SplitsOf = [&](const std::string &Name) {
    for (const MapItem &MI : Items)
      if (MI.Distributed && MI.Name == Name)
        return dimSplits(MI.A);
    return RC.Around.splitsOf(Name);
  };
  // The dimensions of arrays loop L subscripts that are split (Cyclic:
  // dealt round-robin).
  auto Follows = [&](unsigned L, bool Cyclic) {
    return any_of(Accesses, [&](const AccessInfo &A) {
      DimSplits S = SplitsOf(A.A.Name);
      for (unsigned Dm = 0; Dm < A.A.Rank; ++Dm)
        if (A.A.Subs[Dm].Kind == abi::Subscript::Linear &&
            A.A.Subs[Dm].Loop == L && ((Cyclic ? S.Cyclic : S.Split) >> Dm & 1))
          return true;
      return false;
    });
  };
  // Loop 0 without a policy is BLOCK already, which follows the arrays.
  for (unsigned L = 1; L < D.Loops.size(); ++L) {
    if (!D.Loops[L].NoPolicy || !Follows(L, false))
      continue;
    D.Loops[L].Dist = abi::Policy();
    D.Loops[L].Dist.Kind = abi::Policy::Block;
    D.Loops[L].Implicit = true;
  }
  // Without any policy, loop 0 follows the arrays too when an inner loop
  // does: over arrays split by columns only, every device runs all rows of
  // its columns, where a BLOCK of rows as well would leave the devices a
  // diagonal of blocks. (A labelled loop keeps the split an enclosing data
  // region aligns its arrays with.)
  if (!LoopPolicies && LoopLabel.empty() && D.Loops.size() > 1 &&
      any_of(D.Loops, [](const abi::Loop &L) { return L.Implicit; }))
    D.Loops[0].Implicit = true;
  // A loop following arrays dealt round-robin (one without a policy, or a
  // scheduler's) runs a strided set of iterations in one launch. (Arrays
  // the plugin cannot see, resident from elsewhere, get a launch per block
  // of theirs.)
  for (unsigned L = 0; L < D.Loops.size(); ++L)
    if ((D.Loops[L].NoPolicy || D.Loops[L].Dist.Kind == abi::Policy::Auto) &&
        Nest[L].Op != CompareOp::NotEqual && Follows(L, true))
      D.Loops[L].Strided = true;
}

void Rewriter::describe() {
  D.Kind = abi::ConstructKind::Kernel;
  setLocation(PP, loc(), D);
  for (const DeviceSpec &S : Devices)
    D.Devices.push_back(S.Spec);
  deviceValues(Body, Devices, V);
  D.Topo = Topo.T;
  D.Label = LoopLabel;
  // A reduction variable the kernel also maps tofrom, as OpenMP 4.5 codes
  // write it ('map(tofrom: s)' with 'reduction(+: s)'), is the reduction's:
  // libhomp combines the devices' values into it, as without the item.
  std::vector<std::string> Reduced;
  for (const Reduction &R : Reductions)
    Reduced.push_back(reductionName(R).str());
  for (const MapItem &MI : Items)
    if (MI.Described &&
        !(MI.WholeVariable && !MI.Distributed &&
          MI.A.Map == abi::MapType::ToFrom && is_contained(Reduced, MI.Name))) {
      D.Arrays.push_back(MI.A);
      V.Arrays.push_back(&MI);
    }
  for (const AccessInfo &A : Accesses) {
    D.Accesses.push_back(A.A);
    V.AccessAddresses.push_back(
        Code(A.Dependent ? addressOfAny(A.A.Name)
                         : "(long long)(void *)(" + A.A.Name + ")"));
    V.SubscriptMin.push_back(A.TermMin);
    V.SubscriptMax.push_back(A.TermMax);
  }
  for (size_t R = 0; R < Reductions.size(); ++R) {
    D.Reductions.push_back({Reductions[R].Op, Reduced[R]});
    V.ReductionVars.push_back(Reduced[R]);
  }
  D.Operations = Work.Operations;
  D.BodyLoops = Work.Loops;
  for (size_t L = 0; L < Work.Loops.size(); ++L)
    V.BodyLoops.push_back(Work.Loops[L].Counted
                              ? loopValues(Stmt, Work.Headers[L])
                              : LoopValues());
  D.SharedMemory = RC.Ctx.UnifiedSharedMemory;
  if (!TargetIf.empty()) {
    D.HasIf = true;
    V.If.text("(long long)(1");
    for (TokenRange C : TargetIf)
      V.If.text(" && (").tokens(Body, C).text(")");
    V.If.text(")");
  }
}

//===--- Output -----------------------------------------------------------===//

void Rewriter::emitPrologue() {
  SourceLocation Loc = loc();
  code("{ " + declareEntry(abi::RegionMarker, "long long",
                           "const char *, void *, ..."),
       Loc);
  emitMemberAliases();
  // The chunk holds the whole nest until libhomp gives each launch its own.
  code(std::string(abi::ChunkTypeSpelling) + " " + chunk() + " = {{", Loc);
  for (unsigned L = 0; L < abi::MaxRank; ++L) {
    if (L)
      code(",", Loc);
    if (L >= Nest.size()) {
      code("{0, 0, 1, 0, 0, 1}", Loc);
      continue;
    }
    const CanonicalLoop &Lp = Nest[L];
    code("{ (long long)(", Loc);
    toks(Stmt, Lp.Lower);
    code("), (long long)(", Loc);
    toks(Stmt, Lp.Bound);
    code("), ", Loc);
    code(Lp.StepNegated ? "-(long long)(" : "(long long)(", Loc);
    Lp.Step.empty() ? code("1", Loc) : toks(Stmt, Lp.Step);
    code("), 0, 0, 0 }", Loc); // the 32-bit copies are set below
  }
  code("}};", Loc);
  for (const MapItem &MI : Items) {
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
  for (unsigned L = 0; L < Nest.size(); ++L)
    for (const char *F : {"first", "bound", "step"}) {
      std::string Field = chunk() + ".l[" + std::to_string(L) + "]." + F;
      code(Field + "32 = (int)" + Field + ";", Loc);
    }
}

/// Data members the kernel maps or subscripts become references of the
/// same name (memberAlias): libhomp then gives each device the address of
/// its part, where through 'this' every device would use the host's.
void Rewriter::emitMemberAliases() {
  std::vector<std::string> Done;
  for (const MapItem &MI : Items)
    if (MI.Described && !MI.WholeVariable)
      code(memberAlias(Body[MI.Expr.Begin], RC.Ctx, Done), MI.Loc);
  for (const AccessInfo &A : Accesses)
    code(memberAlias(Stmt[A.FirstUse], RC.Ctx, Done),
         Stmt[A.FirstUse].getLocation());
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

void Rewriter::emitTargetDirective() {
  SourceLocation Loc = loc();
  Out.push_back(Line.front());
  for (const std::string &W : TargetWords.Names)
    code(W, Loc);
  // 'target teams' takes in a 'distribute' loop directive (mergesWithTeams).
  const bool TakesLoop = takesLoop();
  if (TakesLoop)
    emitInnerWords();
  for (const Clause *C : KeptClauses)
    if (C->Name != "map")
      toks(Body, C->All);
  // The loop's clauses, without what the target line's name already.
  if (TakesLoop) {
    bool TargetDefault = false;
    emitInnerClauses(sharedItems(Body, Target->Clauses, &TargetDefault),
                     TargetDefault, /*LoopIf=*/true);
  }
  if (TeamsSchedule)
    emitTeamsSchedule(Body, *TeamsSchedule);
  code("device(", Loc);
  emitMarkerCall(Synth, Out, Loc, abi::RegionMarker, D, V,
                 ", (void *)&" + chunk(), PP.getLangOpts().CPlusPlus);
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
      return MI.Expr.size() == 1 && identifierName(Body[MI.Expr.Begin]) == Name;
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

/// 'dist_schedule(teams: KIND[, c])' as the standard clause it is (SPEC.md
/// section 3): 'dist_schedule(KIND[, c])', at the user's tokens.
void Rewriter::emitTeamsSchedule(ArrayRef<Token> Toks, TokenRange Kind) {
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
void Rewriter::emitClauseWithout(ArrayRef<Token> Toks, const Clause &C,
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

/// Whether the loop directive, a 'distribute' one, merges with the teams
/// before it into OpenMP's combined 'teams distribute ...' construct:
/// - OpenMP applies the combined construct's reductions to its teams too,
///   where the split form leaves 's' shared by the teams, which race on it
///   (a wrong sum on a GPU, whose teams run at once: seen on an H200);
/// - a reduction of the teams, split, hangs a CPU offload device's kernel
///   (libomp 19 waits at its end for the other thread of the proxy's
///   parallel region, ProxyPool.cpp), and the combined construct's does not.
/// Teams written on their own directive ('target', 'teams', 'distribute
/// parallel for') merge with the loop directive; those of the target line
/// ('target teams', 'distribute parallel for') take it in.
/// (Not where the loop directive has an 'if' for another construct than
/// its own: merged, it would become valid and mean something else.)
bool Rewriter::mergesWithTeams() const {
  if (!Inner || Inner->Words.empty() || Inner->Words[0].Name != "distribute")
    return false;
  for (const Clause &C : Inner->Clauses) {
    StringRef Modifier =
        C.Name == "if" ? clauseModifier(Inner->Toks, C) : StringRef();
    if (!Modifier.empty() && Modifier != "parallel" && Modifier != "simd")
      return false;
  }
  return TeamsEnd > TeamsBegin ||
         (!TargetWords.Names.empty() && TargetWords.Names.back() == "teams");
}

/// Whether the target line ('target teams') takes the loop directive in.
bool Rewriter::takesLoop() const {
  return TeamsEnd == TeamsBegin && mergesWithTeams();
}

/// The loop directive's words, without homp's 'distribute'.
void Rewriter::emitInnerWords() {
  for (const Word &W : Inner->Words) {
    bool Homp = W.Name == "distribute" && W.Index > 0 &&
                identifierName(Inner->Toks[W.Index - 1]) != "teams";
    if (!Homp)
      Out.push_back(Inner->Toks[W.Index]);
  }
}

/// The loop directive's clauses, without homp's; merged with teams, as
/// emitClauseWithout says.
void Rewriter::emitInnerClauses(const std::set<std::string> &Drop,
                                bool OtherDefault, bool LoopIf) {
  for (const Clause &C : Inner->Clauses)
    if (C.Name == "dist_schedule" && isTargetModifier(Inner->Toks, C, "teams"))
      emitTeamsSchedule(Inner->Toks, {C.Args.Begin + 2, C.Args.End});
    else if (!isHompLoopClause(Inner->Toks, C))
      emitClauseWithout(Inner->Toks, C, Drop, OtherDefault, LoopIf);
}

/// The loop directive inside the target line, after the teams directive
/// written on its own if there is one, or merged with it (mergesWithTeams).
/// Nothing when the target line took it in.
void Rewriter::emitInnerDirective() {
  const bool Teams = TeamsEnd > TeamsBegin;
  if (!Teams && mergesWithTeams())
    return; // in the target line
  if (Teams && !mergesWithTeams())
    toks(Stmt, {TeamsBegin, TeamsEnd});
  Out.push_back(Stmt[InnerBegin]);
  if (Teams && mergesWithTeams())
    Out.push_back(Stmt[TeamsWord]);
  emitInnerWords();
  if (Teams && mergesWithTeams()) {
    // Its clauses, without what the loop's name (its reductions are the
    // loop's too: teamsReductions).
    bool LoopDefault = false;
    std::set<std::string> LoopItems =
        sharedItems(Inner->Toks, Inner->Clauses, &LoopDefault);
    for (const Clause &C : TeamsDirective->Clauses)
      emitClauseWithout(TeamsDirective->Toks, C, LoopItems, LoopDefault,
                        /*LoopIf=*/false);
  }
  emitInnerClauses();
  // Under 'default(none)' the loop's bounds, read from homp's chunk, need
  // it named.
  auto Default = [](const Clause &C) { return C.Name == "default"; };
  if (llvm::any_of(Inner->Clauses, Default) ||
      (Teams && mergesWithTeams() &&
       llvm::any_of(TeamsDirective->Clauses, Default)))
    code("shared(" + chunk() + ")", Stmt[InnerBegin].getLocation());
  Out.push_back(Stmt[InnerEnd - 1]);
}

/// Whether the inner loop directive is OpenMP's distribute construct.
bool Rewriter::innerDistributesOverTeams() const {
  if (mergesWithTeams())
    return true;
  for (size_t I = 1; I < Inner->Words.size(); ++I)
    if (Inner->Words[I].Name == "distribute" &&
        Inner->Words[I - 1].Name == "teams")
      return true;
  return false;
}

void Rewriter::emitLoop(unsigned Level) {
  const CanonicalLoop &L = Nest[Level];
  std::string Field = chunk() + ".l[" + std::to_string(Level) + "].";
  if (D.Loops[Level].Dist.Kind == abi::Policy::Full) {
    // A loop the construct does not split runs whole on every device: its
    // own header, whose bounds the compiler sees (taken from the chunk,
    // clang 19 made Jacobi's collapsed x86 kernel 2.2 times slower).
    toks(Stmt, {L.For, L.RParen});
  } else {
    emitChunkHeader(Level, Field);
  }
  if (Level + 1 == Nest.size()) {
    toks(Stmt, {L.RParen, L.Body.End});
    return;
  }
  const CanonicalLoop &In = Nest[Level + 1];
  toks(Stmt, {L.RParen, In.For});
  emitLoop(Level + 1);
  toks(Stmt, {In.Body.End, L.Body.End});
}

void Rewriter::emitChunkHeader(unsigned Level, const std::string &Field) {
  const CanonicalLoop &L = Nest[Level];
  SourceLocation Loc = Stmt[L.For].getLocation();
  bool Auto = false;
  for (unsigned I = L.TypeTokens.Begin; I < L.TypeTokens.End; ++I)
    Auto |= Stmt[I].is(tok::kw_auto);
  auto Type = [&] {
    code("__typeof__(", Loc);
    toks(Stmt, Auto ? L.Lower : TokenRange{L.Var, L.Var + 1});
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
  toks(Stmt, {L.For, L.For + 2}); // 'for ('
  toks(Stmt, L.InitTarget);
  code("=", Loc);
  Value(Field + "first", Field + "first32");
  code(";", Loc);
  toks(Stmt, {L.Var, L.Var + 1});
  static const char *Ops[] = {"<", "<=", ">", ">=", "!="};
  code(Ops[static_cast<int>(L.Op)], Loc);
  Value(Field + "bound", Field + "bound32");
  code(";", Loc);
  if (D.Loops[Level].Strided) {
    // Down, the variable steps by the magnitude of the negative step (an
    // unsigned step must be positive); the 32-bit copy is negated in 64 bits
    // so that a step of INT_MIN does not overflow.
    bool Up = L.Op == CompareOp::Less || L.Op == CompareOp::LessEqual;
    toks(Stmt, {L.Var, L.Var + 1});
    code(Up ? "+=" : "-=", Loc);
    if (Up)
      Value(Field + "step", Field + "step32");
    else
      Value("-" + Field + "step", "-(long long)" + Field + "step32");
  } else {
    toks(Stmt, L.Increment);
  }
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
  if (!targetClauses() || !statement() || !qualifiedUses() ||
      !atomicUpdates() || !loopPolicies())
    return std::nullopt;
  accesses();
  implicitLoops();
  if (!resolveAlignments())
    return std::nullopt;
  describe();

  emitPrologue();
  emitTargetDirective();
  // (A target line that takes the loop directive in is a combined loop
  // construct: the loop follows it without the braces.)
  if (Braced && !takesLoop())
    code("{", Stmt.front().getLocation());
  if (Inner) {
    emitInnerDirective();
  }
  emitLoop(0);
  if (Braced && !takesLoop())
    code("}", Stmt.back().getLocation());
  code("}", Stmt.back().getLocation());
  return std::move(Out);
}

} // namespace

std::optional<TokenVector> rewriteKernel(const RewriteContext &RC,
                                         ArrayRef<Token> Line,
                                         ArrayRef<Token> Stmt) {
  return Rewriter(RC, Line, Stmt).run();
}

} // namespace homp
