//===-- MapItems.cpp - Map list items and their distributions -------------===//
//
// A map item 'u[lo0:len0][lo1:len1] dist_data(BLOCK, *) halo(1,)' becomes a
// MapItem: the item as standard OpenMP maps it, its rank (from the
// variable's type where Sema knows it, else from its sections), and the
// code of its run-time values: the address of element [0]...[0], the
// element size, each dimension's lower index, length and row length.
//
//===----------------------------------------------------------------------===//

#include "ConstructModel.h"
#include "Extensions.h"

#include "llvm/ADT/StringExtras.h"

using namespace clang;
using namespace llvm;

namespace homp {

namespace {

/// '(NAME)[0][0]' with N subscripts.
std::string element(const std::string &Name, unsigned N) {
  std::string S = "(" + Name + ")";
  for (unsigned I = 0; I < N; ++I)
    S += "[0]";
  return S;
}

abi::MapType mapTypeOf(StringRef W) {
  if (W == "to")
    return abi::MapType::To;
  if (W == "from")
    return abi::MapType::From;
  if (W == "alloc")
    return abi::MapType::Alloc;
  if (W == "release")
    return abi::MapType::Release;
  if (W == "delete")
    return abi::MapType::Delete;
  return abi::MapType::ToFrom;
}

} // namespace

bool MapItemParser::mapClause(const Clause &C, std::vector<MapItem> &Items,
                              std::vector<MapClause> &Clauses) {
  TokenRange ItemsRange = mapItems(Toks, C);
  MapClause M;
  M.C = &C;
  M.Prefix = {C.Args.Begin, ItemsRange.Begin};
  bool Always = false, Present = false;
  for (unsigned I = M.Prefix.Begin; I < M.Prefix.End; ++I) {
    StringRef W = identifierName(Toks[I]);
    if (W == "to" || W == "from" || W == "tofrom" || W == "alloc" ||
        W == "release" || W == "delete")
      M.Type = mapTypeOf(W);
    Always |= W == "always";
    Present |= W == "present";
  }
  for (TokenRange R : splitTopLevel(Toks, ItemsRange, tok::comma)) {
    MapItem MI;
    if (!item(R, M.Type, MI))
      return false;
    MI.A.Always = Always;
    MI.A.Present = Present;
    // A device's copy of an array is one piece of storage: two distributed
    // sections of one array (PMAM'15 Table 3's first row) would need two.
    for (const MapItem &Other : Items)
      if (MI.Described && Other.Described && MI.Name == Other.Name &&
          (MI.Distributed || Other.Distributed)) {
        Diags.report(MI.Loc, Diag::NotSupportedYet)
            << ("mapping '" + MI.Name +
                "' twice in one construct with a distribution (distribute "
                "one section of it)");
        return false;
      }
    M.Items.push_back(static_cast<unsigned>(Items.size()));
    Items.push_back(std::move(MI));
  }
  Clauses.push_back(std::move(M));
  return true;
}

bool MapItemParser::motionClause(const Clause &C, abi::MapType Type,
                                 std::vector<MapItem> &Items) {
  TokenRange ItemsRange = C.Args;
  // 'to(present: x)', 'from(mapper(m): x)': items follow the first ':'.
  bool Present = false;
  if (std::optional<unsigned> Colon = findTopLevel(Toks, C.Args, tok::colon)) {
    ItemsRange.Begin = *Colon + 1;
    for (unsigned I = C.Args.Begin; I < *Colon; ++I)
      Present |= identifierName(Toks[I]) == "present";
  }
  for (TokenRange R : splitTopLevel(Toks, ItemsRange, tok::comma)) {
    MapItem MI;
    if (!item(R, Type, MI))
      return false;
    MI.A.Present = Present;
    Items.push_back(std::move(MI));
  }
  return true;
}

bool MapItemParser::item(TokenRange R, abi::MapType Type, MapItem &MI) {
  MI.Expr = R;
  MI.A.Map = Type;
  if (R.empty())
    return true; // clang reports it
  MI.Loc = Toks[R.Begin].getLocation();
  std::optional<unsigned> DistAt = findItemDistribution(Toks, R);
  if (DistAt)
    MI.Expr.End = *DistAt;
  TokenRange E = MI.Expr;

  // The variable and its subscripts: 'name', 'name[...]...'.
  bool Simple = !E.empty() && Toks[E.Begin].is(tok::identifier);
  SmallVector<TokenRange, 3> Subscripts;
  for (unsigned I = E.Begin + 1; Simple && I < E.End;) {
    std::optional<unsigned> Close =
        Toks[I].is(tok::l_square) ? findClosing(Toks, I, E.End) : std::nullopt;
    if (!Close) {
      Simple = false;
      break;
    }
    Subscripts.push_back({I + 1, *Close});
    I = *Close + 1;
  }
  std::optional<VarShape> Shape =
      Simple ? Ctx.ShapeOf(Toks[E.Begin]) : std::nullopt;
  bool NotArray = Shape && !Shape->Dependent &&
                  Shape->Kind != VarShape::Pointer &&
                  Shape->Kind != VarShape::Array;
  if (Shape && Shape->Kind == VarShape::Value && !DistAt)
    return true; // not a variable: clang reports it
  if (Simple && Subscripts.empty() && !DistAt &&
      (!Shape || Shape->Dependent || NotArray) && abi::copiesOut(Type))
    return wholeVariable(Toks[E.Begin], Shape, MI);
  // A whole variable of a type not known here (a template's T) that is only
  // read: a scalar or an array, standard OpenMP maps it to every device.
  if (Simple && Subscripts.empty() && !DistAt && (!Shape || Shape->Dependent))
    return true;
  if (!Simple || NotArray) {
    if (!DistAt)
      return true; // standard OpenMP maps it; libhomp need not know
    std::string Spelled;
    for (unsigned I = E.Begin; I < E.End; ++I)
      Spelled += PP.getSpelling(Toks[I]);
    if (!Simple && !E.empty() &&
        (Toks[E.Begin].is(tok::coloncolon) ||
         (E.size() > 1 && Toks[E.Begin + 1].is(tok::coloncolon)))) {
      Diags.report(MI.Loc, Diag::NotSupportedYet)
          << ("distributing '" + Spelled +
              "' (a qualified name; distribute a pointer or reference to it "
              "with a plain name, 'double *a = ns::a;')");
      return false;
    }
    if (!Simple && !E.empty() && Toks[E.Begin].is(tok::identifier) &&
        E.size() > 1 && Toks[E.Begin + 1].isOneOf(tok::period, tok::arrow)) {
      Diags.report(MI.Loc, Diag::NotSupportedYet)
          << ("distributing '" + Spelled +
              "' (members and expressions; distribute a variable)");
      return false;
    }
    Diags.report(MI.Loc, Diag::NotAnArray) << Spelled;
    return false;
  }
  MI.Name = identifierName(Toks[E.Begin]).str();
  unsigned Rank = Subscripts.size();
  if (Shape && !Shape->Dependent)
    Rank = std::max(Rank, Shape->Rank);
  Rank = std::max(Rank, 1u);
  if (Rank > abi::MaxRank) {
    if (!DistAt)
      return true;
    Diags.report(MI.Loc, Diag::NotSupportedYet)
        << "distributing arrays of more than 8 dimensions";
    return false;
  }
  if (Shape && Shape->Kind == VarShape::Pointer && Subscripts.empty()) {
    if (!DistAt)
      return true; // a pointer standard OpenMP maps as a scalar
    Diags.report(MI.Loc, Diag::PointerNeedsSection) << MI.Name;
    return false;
  }
  MI.Described = true;
  MI.A.Name = MI.Name;
  MI.A.Rank = Rank;
  MI.CheckNotPointer = Subscripts.empty() && (!Shape || Shape->Dependent);

  // Values: the element [0]...[0], its size, and each dimension's range.
  MI.Base = Code("(long long)(void *)(" + MI.Name + ")");
  MI.ElementSize =
      Code("(long long)sizeof(" + element(MI.Name, Rank) + ")");
  for (unsigned D = 0; D < Rank; ++D) {
    std::string Extent =
        D == 0 ? "sizeof(" + MI.Name + ") / sizeof(" + element(MI.Name, 1) + ")"
               : "sizeof(" + element(MI.Name, D) + ") / sizeof(" +
                     element(MI.Name, D + 1) + ")";
    if (D > 0)
      MI.Extent[D] = Code("(long long)(" + Extent + ")");
    TokenRange Lo, Len;
    bool Section = true;
    if (D < Subscripts.size()) {
      TokenRange S = Subscripts[D];
      std::optional<unsigned> Colon = findTopLevel(Toks, S, tok::colon);
      if (!Colon) {
        Section = false;
      } else {
        Lo = {S.Begin, *Colon};
        Len = {*Colon + 1, S.End};
        // 'lo:len:stride' is not a section homp distributes.
        if (findTopLevel(Toks, Len, tok::colon))
          Section = false;
      }
    }
    if (!Section) {
      if (!DistAt) {
        MI.Described = false;
        return true;
      }
      Diags.report(Toks[Subscripts[D].Begin].getLocation(),
                   Diag::NotASection)
          << MI.Name;
      return false;
    }
    Code &L = MI.Lower[D];
    L.text("(long long)(");
    Lo.empty() ? L.text("0") : L.tokens(Toks, Lo);
    L.text(")");
    Code &N = MI.Length[D];
    N.text("(long long)(");
    if (!Len.empty()) {
      N.tokens(Toks, Len);
    } else {
      N.text(Extent);
      if (!Lo.empty())
        N.text(" - (").tokens(Toks, Lo).text(")");
    }
    N.text(")");
  }
  if (DistAt)
    return distribution(*DistAt, R.End, MI);
  return true;
}

bool MapItemParser::wholeVariable(const Token &Name,
                                  const std::optional<VarShape> &Shape,
                                  MapItem &MI) {
  // A variable every device writes back: libhomp merges the devices'
  // copies, a scalar as one element, anything else byte by byte.
  MI.Name = identifierName(Name).str();
  MI.Described = true;
  MI.WholeVariable = true;
  MI.A.Name = MI.Name;
  MI.A.Rank = 1;
  bool Scalar = Shape && !Shape->Dependent && Shape->Kind == VarShape::Scalar;
  MI.Base = Code("(long long)(void *)&(" + MI.Name + ")");
  MI.ElementSize = Code(Scalar ? "(long long)sizeof(" + MI.Name + ")" : "1LL");
  MI.Lower[0] = Code("0LL");
  MI.Length[0] = Code(Scalar ? "1LL" : "(long long)sizeof(" + MI.Name + ")");
  return true;
}

/// 'topology(...)' after an item's distribution (PMAM'15 Table 3): '[*]'
/// puts its split dimensions on the construct's last topology dimension;
/// 'target' or the construct's topology's name changes nothing;
/// '[2][2]' (optionally named) arranges the construct's devices in a
/// topology of the item's own; anything else is a list of device ids, the
/// only devices that get the item.
bool MapItemParser::itemTopology(unsigned At, TokenRange Args, MapItem &MI) {
  if (!MI.DeviceIds.empty() || MI.A.Topo.Rank ||
      std::any_of(MI.A.Axis.begin(), MI.A.Axis.end(),
                  [](int A) { return A >= 0; })) {
    Diags.report(Toks[At].getLocation(), Diag::TwoItemTopologies) << MI.Name;
    return false;
  }
  if (Args.empty()) {
    Diags.report(Toks[Args.Begin - 1].getLocation(), Diag::BadItemDevices);
    return false;
  }
  const clang::Token &First = Toks[Args.Begin];
  if (First.is(tok::l_square) ||
      (First.is(tok::identifier) && Args.size() > 1 &&
       Toks[Args.Begin + 1].is(tok::l_square))) {
    std::optional<TopologySpec> T = parseTopology(Toks, Args, Diags);
    if (!T)
      return false;
    if (T->T.Rank == 1 && !T->T.Given[0] && T->T.Name.empty()) {
      // '[*]': the split dimensions go onto the last topology dimension.
      for (unsigned D = 0; D < MI.A.Rank; ++D)
        if (MI.A.Dims[D].Kind == abi::Policy::Block ||
            MI.A.Dims[D].Kind == abi::Policy::Cyclic)
          MI.A.Axis[D] = static_cast<int>(TopologyRank) - 1;
      return true;
    }
    MI.A.Topo = T->T;
    MI.TopologyDims = topologyDims(Toks, *T);
    declareTopology(Named, Toks, *T);
    return true;
  }
  if (Args.size() == 1 && First.is(tok::identifier)) {
    StringRef Name = identifierName(First);
    if (Name == "target" || (!TopologyName.empty() && Name == TopologyName))
      return true; // the construct's own
    if (auto It = Named.find(Name.str()); It != Named.end()) {
      // Another named topology: the construct's devices arranged as it is.
      MI.A.Topo = It->second.T;
      MI.TopologyDims = topologyDims(It->second);
      return true;
    }
  }
  // Device ids: expressions, each of a device that runs the construct.
  for (TokenRange Id : splitDeviceList(Toks, Args, Ctx)) {
    if (Id.empty() || Toks[Id.Begin].is(tok::minus) ||
        isHostName(Toks[Id.Begin], Ctx) ||
        findTopLevel(Toks, Id, tok::colon) || findTopLevel(Toks, Id, tok::amp)) {
      unsigned Bad = Id.empty() ? std::min(Id.Begin, Args.End - 1) : Id.Begin;
      Diags.report(Toks[Bad].getLocation(), Diag::BadItemDevices);
      return false;
    }
    MI.DeviceIds.push_back(valueOf(Toks, Id));
  }
  MI.A.DeviceIds = static_cast<unsigned>(MI.DeviceIds.size());
  return true;
}

bool MapItemParser::distribution(unsigned From, unsigned End, MapItem &MI) {
  unsigned I = From;
  bool SawPolicies = false, SawHalo = false;
  while (I < End) {
    StringRef Name = identifierName(Toks[I]);
    std::optional<unsigned> Close = I + 1 < End && Toks[I + 1].is(tok::l_paren)
                                        ? findClosing(Toks, I + 1, End)
                                        : std::nullopt;
    if (!isItemDistributionName(Name) || !Close) {
      Diags.report(Toks[I].getLocation(), Diag::ExpectedPolicy) << false;
      return false;
    }
    TokenRange Args{I + 2, *Close};
    if (Name == "dist_data" || Name == "partition") {
      if (SawPolicies) {
        Diags.report(Toks[I].getLocation(), Diag::TwoDistributions) << MI.Name;
        return false;
      }
      SawPolicies = true;
      if (Args.empty()) {
        Diags.report(Toks[I + 1].getLocation(), Diag::ExpectedPolicy) << false;
        return false;
      }
      std::optional<SmallVector<Policy, 3>> Ps =
          parsePolicies(Toks, Args, /*ForLoop=*/false, Diags);
      if (!Ps)
        return false;
      if (Ps->size() > MI.A.Rank) {
        Diags.report(Toks[(*Ps)[MI.A.Rank].Index].getLocation(),
                     Diag::TooManyPolicies)
            << static_cast<unsigned>(Ps->size()) << MI.Name << MI.A.Rank;
        return false;
      }
      for (unsigned D = 0; D < Ps->size(); ++D) {
        MI.A.Dims[D] = (*Ps)[D].P;
        MI.PolicyIndex[D] = (*Ps)[D].Index;
        if (MI.A.Dims[D].Kind == abi::Policy::Cyclic) {
          Code &B = MI.Block[D];
          B.text("(long long)(");
          (*Ps)[D].Block.empty() ? B.text("1") : B.tokens(Toks, (*Ps)[D].Block);
          B.text(")");
        }
      }
      MI.Distributed = true;
    } else if (Name == "halo") {
      if (SawHalo) {
        Diags.report(Toks[I].getLocation(), Diag::TwoHalos) << MI.Name;
        return false;
      }
      SawHalo = true;
      std::optional<SmallVector<abi::Halo, 3>> H = parseHalo(Toks, Args, Diags);
      if (!H)
        return false;
      if (H->size() > MI.A.Rank) {
        Diags.report(Toks[I].getLocation(), Diag::HaloTooMany)
            << static_cast<unsigned>(H->size()) << MI.Name << MI.A.Rank;
        return false;
      }
      for (unsigned D = 0; D < H->size(); ++D)
        MI.A.Halos[D] = (*H)[D];
    } else if (!itemTopology(I, Args, MI)) { // topology
      return false;
    }
    I = *Close + 1;
  }
  if (!SawPolicies) {
    Diags.report(Toks[From].getLocation(), Diag::HaloWithoutDistribution)
        << MI.Name;
    return false;
  }
  // Halos only make sense where the array is split in blocks.
  for (unsigned D = 0; D < MI.A.Rank; ++D) {
    const abi::Halo &H = MI.A.Halos[D];
    if ((H.Left || H.Right) && MI.A.Dims[D].Kind != abi::Policy::Block &&
        MI.A.Dims[D].Kind != abi::Policy::Align) {
      const char *Kind = MI.A.Dims[D].Kind == abi::Policy::Cyclic
                             ? (MI.A.Dims[D].SpelledBlock
                                    ? "BLOCK(n), blocks of n dealt out in turn"
                                    : "CYCLIC")
                             : "not split";
      Diags.report(MI.Loc, Diag::HaloNotBlock) << D << MI.Name << Kind;
      return false;
    }
  }
  return true;
}

bool alignCycle(const std::vector<MapItem> &Items, const std::string &Name,
                const std::string &Target) {
  llvm::SmallVector<std::string, 4> Seen{Name};
  std::string Next = Target;
  while (true) {
    if (llvm::is_contained(Seen, Next))
      return true;
    Seen.push_back(Next);
    auto It = llvm::find_if(Items, [&](const MapItem &X) {
      return X.Distributed && X.Name == Next;
    });
    if (It == Items.end())
      return false;
    auto Dim = llvm::find_if(llvm::ArrayRef(It->A.Dims).take_front(It->A.Rank),
                             [](const abi::Policy &Q) {
                               return Q.Kind == abi::Policy::Align && !Q.ToLoop;
                             });
    if (Dim == It->A.Dims.begin() + It->A.Rank)
      return false;
    Next = Dim->Target;
  }
}

} // namespace homp
