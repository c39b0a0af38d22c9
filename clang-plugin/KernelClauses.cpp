//===-- KernelClauses.cpp - The target line of a distributed kernel -------===//
//
// The rewriter's parse and checks of the target line: its words, its
// clauses (homp's and the standard ones it must see), the inner loop
// directive and the teams reductions.
//
//===----------------------------------------------------------------------===//

#include "KernelModel.h"

namespace homp {
namespace kernel {

std::string Analysis::spell(ArrayRef<Token> Toks, TokenRange R) const {
  std::string S;
  for (unsigned I = R.Begin; I < R.End; ++I)
    S += PP.getSpelling(Toks[I]);
  return S;
}

//===--- Analysis ---------------------------------------------------------===//

bool Analysis::targetWords() {
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

bool Analysis::loopPolicyClause(ArrayRef<Token> Toks, const Clause &C) {
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

bool Analysis::cutoffClause(ArrayRef<Token> Toks, const Clause &C) {
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

bool Analysis::collapseClause(ArrayRef<Token> Toks, const Clause &C) {
  std::optional<int64_t> N =
      C.Args.size() == 1 ? integerLiteral(Toks[C.Args.Begin]) : std::nullopt;
  if (!N || *N < 1)
    return true; // clang reports what it does not accept
  if (*N > static_cast<int64_t>(abi::MaxLoops)) {
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
bool Analysis::unsupportedLoopClause(ArrayRef<Token> Toks, const Clause &C) {
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

bool Analysis::distScheduleModifier(ArrayRef<Token> Toks, const Clause &C) {
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

bool Analysis::orderedWord(const Directive &Dir) {
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
std::optional<abi::ReductionOp> Analysis::reductionOp(ArrayRef<Token> Toks,
                                                      const Clause &C) const {
  std::optional<TokenRange> OpRange = reductionOpRange(Toks, C);
  return OpRange ? reductionOpNamed(spell(Toks, *OpRange)) : std::nullopt;
}

bool Analysis::reductionClause(ArrayRef<Token> Toks, const Clause &C,
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

bool Analysis::topologyClause(const Clause &C) {
  std::optional<TopologySpec> T = parseTopology(Body, C.Args, Diags);
  return T && useTopology(RC.Topologies, Body,
                          Body[C.Args.Begin].getLocation(), *T, Diags, Topo,
                          V.TopologyDims);
}

bool Analysis::targetClauses() {
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

bool Analysis::innerDirective(unsigned Begin, unsigned End) {
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
bool Analysis::teamsReductions() {
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
bool KernelModel::mergesWithTeams() const {
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
bool KernelModel::takesLoop() const {
  return TeamsEnd == TeamsBegin && mergesWithTeams();
}

/// Whether the inner loop directive is OpenMP's distribute construct.
bool KernelModel::innerDistributesOverTeams() const {
  if (mergesWithTeams())
    return true;
  for (size_t I = 1; I < Inner->Words.size(); ++I)
    if (Inner->Words[I].Name == "distribute" &&
        Inner->Words[I - 1].Name == "teams")
      return true;
  return false;
}

/// A 'parallel for' (or 'parallel for simd') loop directive in a target
/// region without teams, or the combined 'target parallel for' (HOMP'16's
/// 'parallel for target'), runs as 'teams distribute parallel for': on a GPU a
/// league of teams over the device's chunk, whose trip count each launch
/// passes (a grid sized for the chunk), where 'parallel for' alone is one
/// team (PMAM'15's Jacobi took 16 ms a sweep on an H200 so); on a CPU
/// offload device, and the host, one team as before. The region holds the
/// loop alone (the analysis requires it), so nothing in it runs once per
/// team. Not with a clause that 'distribute parallel for' refuses or reads
/// otherwise: ordered, linear, copyin, if.
bool KernelModel::spreadsOverTeams() const {
  if (TeamsEnd > TeamsBegin || TargetWords.has("teams") || !TargetIf.empty() ||
      !ParallelIf.empty())
    return false;
  // The loop's words: the inner directive's (without homp's 'distribute'),
  // or the target line's after 'target'.
  SmallVector<StringRef, 4> Names;
  if (Inner) {
    for (const Word &W : Inner->Words)
      if (W.Name != "distribute" || W.Index == 0 ||
          identifierName(Inner->Toks[W.Index - 1]) == "teams")
        Names.push_back(W.Name);
  } else {
    for (const std::string &W : TargetWords.Names)
      if (W != "target")
        Names.push_back(W);
  }
  const bool ParallelFor =
      Names.size() >= 2 && Names[0] == "parallel" && Names[1] == "for" &&
      (Names.size() == 2 || (Names.size() == 3 && Names[2] == "simd"));
  if (!ParallelFor)
    return false;
  auto Refused = [](const Clause &C) {
    return C.Name == "ordered" || C.Name == "linear" || C.Name == "copyin" ||
           C.Name == "if";
  };
  if (Inner)
    return llvm::none_of(Inner->Clauses, Refused);
  return llvm::none_of(KeptClauses,
                       [&](const Clause *C) { return Refused(*C); });
}

} // namespace kernel
} // namespace homp
