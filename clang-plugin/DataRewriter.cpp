//===-- DataRewriter.cpp - Rewriting distributed data constructs ----------===//

#include "DataRewriter.h"

#include "CanonicalLoop.h"
#include "StatementScanner.h"

#include "clang/Lex/Preprocessor.h"
#include "llvm/ADT/STLExtras.h"

using namespace clang;
using namespace llvm;

namespace homp {

namespace {

bool hasWords(const Directive &D, std::initializer_list<StringRef> Ws) {
  unsigned I = 0;
  if (!D.Words.empty() && D.Words[0].Name == "parallel")
    I = 1; // HOMP'16: 'parallel target data'
  for (StringRef W : Ws) {
    if (I >= D.Words.size() || D.Words[I].Name != W)
      return false;
    ++I;
  }
  return I == D.Words.size();
}

abi::ConstructKind kindOf(const Directive &D) {
  if (hasWords(D, {"target", "data"}))
    return abi::ConstructKind::Data;
  if (hasWords(D, {"target", "enter", "data"}))
    return abi::ConstructKind::EnterData;
  if (hasWords(D, {"target", "exit", "data"}))
    return abi::ConstructKind::ExitData;
  return abi::ConstructKind::Update;
}

class DataRewriter {
public:
  DataRewriter(const RewriteContext &RC, ArrayRef<Token> Line,
               ArrayRef<Token> Stmt)
      : RC(RC), PP(RC.PP), Diags(RC.Diags), Synth(RC.PP), Line(Line),
        Body(Line.drop_front().drop_back()), Stmt(Stmt) {}

  std::optional<DataRewrite> run();

private:
  bool clauses();
  bool labelledLoops();
  bool labelledLoop(const std::string &Label, SourceLocation PolicyLoc);
  bool resolveAlignments();
  void describe();
  void emit(DataRewrite &Out);

  SourceLocation loc() const { return Line.front().getLocation(); }

  const RewriteContext &RC;
  Preprocessor &PP;
  Diagnostics &Diags;
  TokenSynth Synth;
  ArrayRef<Token> Line, Body, Stmt;

  std::optional<Directive> Dir;
  abi::ConstructKind Kind = abi::ConstructKind::Data;
  SmallVector<DeviceSpec, 4> Devices;
  TopologySpec Topo;
  std::vector<MapItem> Items;
  std::vector<MapClause> Maps;
  /// Motion clauses of 'target update', and their items.
  std::vector<std::pair<const Clause *, std::vector<unsigned>>> Motions;
  SmallVector<TokenRange, 2> If;
  SmallVector<const Clause *, 8> Kept;

  abi::Descriptor D;
  ConstructValues V;
};

bool DataRewriter::clauses() {
  if (!clausesAppearOnce(Body, Dir->Clauses, Diags))
    return false;
  for (const Clause &C : Dir->Clauses)
    if (C.Name == "topology" && C.HasParens) {
      std::optional<TopologySpec> T = parseTopology(Body, C.Args, Diags);
      if (!T || !useTopology(RC.Topologies, Body,
                             Body[C.Args.Begin].getLocation(), *T, Diags, Topo,
                             V.TopologyDims))
        return false;
    }
  MapItemParser Parser(PP, Body, Diags, RC.Ctx, Topo.T, RC.Topologies);
  bool Ok = true;
  for (const Clause &C : Dir->Clauses) {
    StringRef N = C.Name;
    if (N == "device" && C.HasParens) {
      std::optional<SmallVector<DeviceSpec, 4>> L =
          parseDeviceClause(Body, C, RC.Ctx, Diags);
      if (!L)
        return false;
      Devices = *L;
      continue;
    }
    if (N == "topology")
      continue;
    if (N == "map" && C.HasParens) {
      Ok &= Parser.mapClause(C, Items, Maps);
      continue;
    }
    if (Kind == abi::ConstructKind::Update && (N == "to" || N == "from") &&
        C.HasParens) {
      size_t First = Items.size();
      Ok &= Parser.motionClause(
          C, N == "to" ? abi::MapType::To : abi::MapType::From, Items);
      std::vector<unsigned> Idx;
      for (size_t I = First; I < Items.size(); ++I)
        Idx.push_back(static_cast<unsigned>(I));
      Motions.push_back({&C, std::move(Idx)});
      continue;
    }
    if (N == "if" && C.HasParens) {
      bool Modified =
          C.Args.size() > 2 && Body[C.Args.Begin + 1].is(tok::colon);
      If.push_back(Modified ? TokenRange{C.Args.Begin + 2, C.Args.End}
                            : C.Args);
    }
    if (N == "dist_iteration" || N == "cutoff" ||
        (N == "dist_schedule" && C.HasParens)) {
      Diags.report(Body[C.All.Begin].getLocation(), Diag::OutsideRegion)
          << ("'" + N + "'").str();
      return false;
    }
    if (N == "use_device_ptr" || N == "use_device_addr") {
      // One address would stand for each device's own.
      Diags.report(Body[C.All.Begin].getLocation(), Diag::NotSupportedYet)
          << ("'" + N +
              "' on a data region over a device list (each device has its "
              "own address; use a standard 'target data device(d)' for one)")
                 .str();
      return false;
    }
    Kept.push_back(&C);
  }
  if (!Ok)
    return false;
  for (const MapItem &MI : Items) {
    if (Kind == abi::ConstructKind::Update && MI.Distributed) {
      Diags.report(MI.Loc, Diag::NotSupportedYet)
          << "a distribution in 'target update' (the data region's applies)";
      return false;
    }
  }
  return true;
}

/// The labelled loops the data region's arrays align to.
bool DataRewriter::labelledLoops() {
  for (const MapItem &MI : Items)
    for (unsigned Dm = 0; Dm < MI.A.Rank; ++Dm) {
      const abi::Policy &P = MI.A.Dims[Dm];
      if (P.Kind != abi::Policy::Align)
        continue;
      SourceLocation PLoc = Body[MI.PolicyIndex[Dm]].getLocation();
      if (P.ToLoop) {
        Diags.report(PLoc, Diag::AlignLoopInData);
        return false;
      }
      bool IsItem = any_of(Items, [&](const MapItem &X) {
        return X.Distributed && X.Name == P.Target && &X != &MI;
      });
      bool Done = any_of(D.DataLoops, [&](const abi::LabelledLoop &L) {
        return L.Label == P.Target;
      });
      if (!IsItem && !Done && !labelledLoop(P.Target, PLoc))
        return false;
    }
  return true;
}

bool DataRewriter::labelledLoop(const std::string &Label,
                                SourceLocation PolicyLoc) {
  // 'label : for' somewhere in the region's statement.
  std::optional<unsigned> At;
  for (unsigned I = 0; I + 2 < Stmt.size() && !At; ++I)
    if (Stmt[I].is(tok::identifier) && identifierName(Stmt[I]) == Label &&
        Stmt[I + 1].is(tok::colon) && Stmt[I + 2].is(tok::kw_for) &&
        (I == 0 || Stmt[I - 1].isNot(tok::question)))
      At = I;
  if (!At) {
    if (RC.Around.distributes(Label) || RC.Around.hasLabel(Label))
      return true; // an enclosing data region's
    Diags.report(PolicyLoc, Diag::LabelNoLoop) << Label;
    return false;
  }
  // The loop directive right before the label gives its policies.
  std::optional<Directive> LoopDir;
  if (*At > 0 && Stmt[*At - 1].is(tok::annot_pragma_openmp_end)) {
    unsigned B = *At - 1;
    while (B > 0 && Stmt[B].isNot(tok::annot_pragma_openmp))
      --B;
    LoopDir = parseDirective(Stmt.slice(B + 1, *At - 1 - (B + 1)));
  }
  unsigned Collapse = 1;
  SmallVector<Policy, 3> Policies;
  abi::LabelledLoop LL;
  ArrayRef<Token> DirToks = LoopDir ? LoopDir->Toks : ArrayRef<Token>();
  if (LoopDir)
    for (const Clause &C : LoopDir->Clauses) {
      // The loop's own construct reports a malformed cutoff.
      if (C.Name == "cutoff" && C.HasParens && !C.Args.empty())
        if (std::optional<abi::Cutoff> Cut = parseCutoff(DirToks, C.Args))
          LL.Cut = *Cut;
      if (C.Name == "collapse" && C.Args.size() == 1)
        if (std::optional<int64_t> N = integerLiteral(DirToks[C.Args.Begin]))
          Collapse =
              static_cast<unsigned>(std::clamp<int64_t>(*N, 1, abi::MaxLoops));
      bool TargetSched = C.Name == "dist_schedule" && C.Args.size() > 2 &&
                         identifierName(DirToks[C.Args.Begin]) == "target" &&
                         DirToks[C.Args.Begin + 1].is(tok::colon);
      if (C.Name == "dist_iteration" || TargetSched) {
        TokenRange Args = C.Args;
        if (TargetSched)
          Args.Begin += 2;
        std::optional<SmallVector<Policy, 3>> Ps =
            parsePolicies(DirToks, Args, /*ForLoop=*/true, Diags);
        if (!Ps)
          return false;
        Policies = *Ps;
      }
    }
  unsigned For = *At + 2;
  ScanFailure Why;
  TokenVector Probe;
  ArraySource Src(Stmt.slice(For));
  if (!scanStatement(Src, Probe, Why)) {
    Diags.report(Stmt[For].getLocation(), Diag::IncompleteStatement);
    return false;
  }
  LoopError Err;
  std::optional<SmallVector<CanonicalLoop, 3>> Nest =
      parseLoopNest(Stmt, For, For + Src.consumed(), Collapse, Err);
  if (!Nest) {
    Diags.report(Stmt[Err.Index].getLocation(), Diag::LoopNotCanonical)
        << Err.Message;
    return false;
  }
  LL.Label = Label;
  ConstructValues::DataLoop Values;
  for (unsigned L = 0; L < Nest->size(); ++L) {
    const CanonicalLoop &Lp = (*Nest)[L];
    abi::Loop Loop;
    Loop.Op = Lp.Op;
    if (L < Policies.size()) {
      Loop.Dist = Policies[L].P;
      if (Loop.Dist.Kind == abi::Policy::Align) {
        Diags.report(DirToks[Policies[L].Index].getLocation(),
                     Diag::NotSupportedYet)
            << "aligning a loop that a data region's arrays align to";
        return false;
      }
      if (Loop.Dist.Kind == abi::Policy::Cyclic) {
        Code &C = Values.Block[L];
        C.text("(long long)(");
        Policies[L].Block.empty() ? C.text("1")
                                  : C.tokens(DirToks, Policies[L].Block);
        C.text(")");
      }
    } else if (L == 0 && Policies.empty()) {
      Loop.Dist.Kind = abi::Policy::Block;
    }
    // The bounds are evaluated when the data region begins. (In a member
    // function defined in its class, homp reads the pragma before the
    // function's locals are known: a name declared too late there is
    // clang's error in the code generated for the region.)
    for (TokenRange R : {Lp.Lower, Lp.Bound, Lp.Step})
      for (unsigned I = R.Begin; I < R.End; ++I)
        if (Stmt[I].is(tok::identifier) &&
            (I == 0 || !Stmt[I - 1].isOneOf(tok::period, tok::arrow)) &&
            !RC.Ctx.MayBeDeclared(Stmt[I])) {
          Diags.report(Stmt[I].getLocation(), Diag::LabelBoundsLate)
              << Label << identifierName(Stmt[I]);
          return false;
        }
    Values.Loops[L] = loopValues(Stmt, Lp);
    LL.Loops.push_back(Loop);
  }
  D.DataLoops.push_back(std::move(LL));
  V.DataLoops.push_back(std::move(Values));
  return true;
}

bool DataRewriter::resolveAlignments() {
  for (const MapItem &MI : Items)
    for (unsigned Dm = 0; Dm < MI.A.Rank; ++Dm) {
      const abi::Policy &P = MI.A.Dims[Dm];
      if (P.Kind != abi::Policy::Align || P.ToLoop)
        continue;
      if (alignCycle(Items, MI.Name, P.Target)) {
        Diags.report(Body[MI.PolicyIndex[Dm]].getLocation(), Diag::AlignCycle)
            << MI.Name;
        return false;
      }
    }
  return true;
}

void DataRewriter::describe() {
  D.Kind = Kind;
  setLocation(PP, loc(), D);
  for (const DeviceSpec &S : Devices)
    D.Devices.push_back(S.Spec);
  deviceValues(Body, Devices, V);
  D.Topo = Topo.T;
  for (const MapItem &MI : Items)
    if (MI.Described) {
      D.Arrays.push_back(MI.A);
      V.Arrays.push_back(&MI);
    }
  D.SharedMemory = RC.Ctx.UnifiedSharedMemory;
  if (!If.empty()) {
    D.HasIf = true;
    V.If.text("(long long)(1");
    for (TokenRange C : If)
      V.If.text(" && (").tokens(Body, C).text(")");
    V.If.text(")");
  }
}

void DataRewriter::emit(DataRewrite &Out) {
  SourceLocation Loc = loc();
  TokenVector &T = Out.Tokens;
  auto Text = [&](StringRef S, SourceLocation L) { Synth.append(T, S, L); };
  auto Toks = [&](TokenRange R) {
    T.append(Body.begin() + R.Begin, Body.begin() + R.End);
  };
  Text("{ " + declareEntry(abi::DataMarker, "long long", "const char *, ..."),
       Loc);
  // Data members as references (memberAlias), for the body too.
  std::vector<std::string> Aliased;
  for (const MapItem &MI : Items)
    if (MI.Described && !MI.WholeVariable)
      Text(memberAlias(Body[MI.Expr.Begin], RC.Ctx, Aliased), MI.Loc);
  T.push_back(Line.front());
  for (const Word &W : Dir->Words)
    if (!(W.Name == "parallel" && W.Index == 0))
      T.push_back(Body[W.Index]);
  Text("device(", Loc);
  emitMarkerCall(Synth, T, Loc, abi::DataMarker, D, V, "",
                 PP.getLangOpts().CPlusPlus);
  Text(")", Loc);
  for (const Clause *C : Kept)
    Toks(C->All);
  for (const MapClause &M : Maps) {
    SourceLocation L = Body[M.C->All.Begin].getLocation();
    Text("map(", L);
    Toks(M.Prefix);
    for (unsigned I : M.Items) {
      if (I != M.Items.front())
        Text(",", L);
      Toks(Items[I].Expr);
    }
    Text(")", L);
  }
  for (const auto &[C, Idx] : Motions) {
    SourceLocation L = Body[C->All.Begin].getLocation();
    Text((C->Name + "(").str(), L);
    // Keep motion modifiers ('present:').
    if (std::optional<unsigned> Colon = findTopLevel(Body, C->Args, tok::colon))
      Toks({C->Args.Begin, *Colon + 1});
    for (unsigned I : Idx) {
      if (I != Idx.front())
        Text(",", L);
      Toks(Items[I].Expr);
    }
    Text(")", L);
  }
  T.push_back(Line.back());
  if (Kind != abi::ConstructKind::Data)
    Text("}", Loc);
  Out.HasStatement = Kind == abi::ConstructKind::Data;
  for (const MapItem &MI : Items)
    if (MI.Described &&
        (Kind == abi::ConstructKind::Data ||
         Kind == abi::ConstructKind::EnterData))
    {
      Out.Distributed.push_back(MI.Name);
      if (any_of(ArrayRef(MI.A.Halos).take_front(MI.A.Rank),
                 [](const abi::Halo &H) { return H.Left || H.Right; }))
        Out.WithHalo.push_back(MI.Name);
      if (DimSplits S = dimSplits(MI.A); S.Split)
        Out.Splits.push_back({MI.Name, S});
    }
  for (const abi::LabelledLoop &L : D.DataLoops)
    Out.Labels.push_back(L.Label);
}

std::optional<DataRewrite> DataRewriter::run() {
  Dir = parseDirective(Body);
  if (!Dir)
    return std::nullopt;
  Kind = kindOf(*Dir);
  if (!clauses() || !resolveAlignments() || !labelledLoops())
    return std::nullopt;
  describe();
  DataRewrite Out;
  emit(Out);
  return Out;
}

} // namespace

bool isDataConstruct(const Directive &D) {
  return hasWords(D, {"target", "data"}) ||
         hasWords(D, {"target", "enter", "data"}) ||
         hasWords(D, {"target", "exit", "data"}) ||
         hasWords(D, {"target", "update"});
}

bool isDataRegion(const Directive &D) { return hasWords(D, {"target", "data"}); }

std::optional<DataRewrite> rewriteDataConstruct(const RewriteContext &RC,
                                                ArrayRef<Token> Line,
                                                ArrayRef<Token> Stmt) {
  return DataRewriter(RC, Line, Stmt).run();
}

} // namespace homp
