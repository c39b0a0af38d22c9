//===-- KernelAnalysis.cpp - Analysing a distributed kernel ---------------===//
//
// The analysis after the target line's clauses (KernelClauses.cpp): the
// statement, the loop nest, its policies, alignments and accesses, and the
// descriptor, all into the construct's model (KernelModel.h).
//
//===----------------------------------------------------------------------===//

#include "KernelModel.h"

using namespace clang;
using namespace llvm;

namespace homp {
namespace kernel {

bool Analysis::statement() {
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
bool Analysis::qualifiedUses() {
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
bool Analysis::atomicUpdates() {
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

bool Analysis::loopPolicies() {
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

bool Analysis::cutoff() {
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

bool Analysis::isAlignTarget(StringRef Name) const {
  if (RC.Around.hasLabel(Name) || RC.Around.distributes(Name))
    return true;
  for (const MapItem &MI : Items)
    if (MI.Distributed && MI.Name == Name)
      return true;
  return false;
}

bool Analysis::resolveAlignments() {
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
      if (alignCycle(Items, MI.Name, P.Target)) {
        Diags.report(PLoc, Diag::AlignCycle) << MI.Name;
        return false;
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

void Analysis::accesses() {
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
    const DimSplits S =
        Resident ? RC.Around.splitsOf(A.A.Name) : dimSplits(It->A);
    const AccessInfo::Unchecked *Why = A.Any.At.isValid() ? &A.Any : nullptr;
    for (unsigned Dm = 0; Dm < abi::MaxRank && !Why; ++Dm) {
      // A dimension every device holds whole ('halo(*)') may be read
      // anywhere; only an unbounded write needs the device to own it all.
      bool HeldWhole =
          (S.Whole >> Dm & 1) &&
          !(A.A.Written && A.A.Writes[Dm].Kind == abi::Subscript::Unknown);
      if (A.Dims[Dm].At.isValid() && (S.Split >> Dm & 1) && !HeldWhole)
        Why = &A.Dims[Dm];
    }
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

void Analysis::implicitLoops() {
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

void Analysis::describe() {
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
  D.GpuTeams = spreadsOverTeams();
  if (!TargetIf.empty()) {
    D.HasIf = true;
    V.If.text("(long long)(1");
    for (TokenRange C : TargetIf)
      V.If.text(" && (").tokens(Body, C).text(")");
    V.If.text(")");
  }
}

bool Analysis::run() {
  Target = parseDirective(Body);
  if (!Target || !targetWords())
    return false;
  if (TargetWords.Names.empty() || TargetWords.Names[0] != "target") {
    Diags.report(loc(), Diag::NotSupportedYet)
        << "this directive with homp extensions";
    return false;
  }
  if (!targetClauses() || !statement() || !qualifiedUses() ||
      !atomicUpdates() || !loopPolicies())
    return false;
  accesses();
  implicitLoops();
  if (!resolveAlignments())
    return false;
  describe();
  return true;
}

} // namespace kernel
} // namespace homp
