//===-- Emitter.cpp - Writing a construct's marker call -------------------===//
//
// Every rewritten construct hands libhomp its descriptor and values through
// a marker call. The values are written in the order abi::valueLayout
// gives, each as a 'long long', so libhomp reads them back by the same
// contract.
//
//===----------------------------------------------------------------------===//

#include "ConstructModel.h"

#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Preprocessor.h"

using namespace clang;
using namespace llvm;

namespace homp {

Code &Code::text(std::string Text) {
  Parts.push_back({std::move(Text), {}});
  return *this;
}

Code &Code::tokens(ArrayRef<Token> Toks, TokenRange R) {
  Part P;
  P.Toks.append(Toks.begin() + R.Begin, Toks.begin() + R.End);
  Parts.push_back(std::move(P));
  return *this;
}

void Code::emit(TokenSynth &Synth, TokenVector &Out, SourceLocation Loc) const {
  for (const Part &P : Parts) {
    if (!P.Text.empty())
      Synth.append(Out, P.Text, Loc);
    Out.append(P.Toks.begin(), P.Toks.end());
  }
}

Code valueOf(ArrayRef<Token> Toks, TokenRange R) {
  Code C("(long long)(");
  C.tokens(Toks, R).text(")");
  return C;
}

LoopValues loopValues(ArrayRef<Token> Toks, const CanonicalLoop &L) {
  LoopValues V;
  V.First = valueOf(Toks, L.Lower);
  V.Bound = valueOf(Toks, L.Bound);
  V.Step.text(L.StepNegated ? "-(long long)(" : "(long long)(");
  L.Step.empty() ? V.Step.text("1") : V.Step.tokens(Toks, L.Step);
  V.Step.text(")");
  return V;
}

void deviceValues(ArrayRef<Token> Toks, ArrayRef<DeviceSpec> Specs,
                  ConstructValues &V) {
  for (const DeviceSpec &S : Specs) {
    abi::DeviceSpec::KindTy K = S.Spec.Kind;
    if (K == abi::DeviceSpec::One || K == abi::DeviceSpec::From ||
        K == abi::DeviceSpec::Range) {
      Code C("(long long)(");
      S.Start.empty() ? C.text("0") : C.tokens(Toks, S.Start);
      V.Devices.push_back(std::move(C.text(")")));
    }
    if (K == abi::DeviceSpec::Range)
      V.Devices.push_back(valueOf(Toks, S.Count));
  }
}

std::vector<Code> topologyDims(ArrayRef<Token> Toks, const TopologySpec &T) {
  std::vector<Code> Dims;
  for (TokenRange R : T.Dims)
    Dims.push_back(R.empty() ? Code() : valueOf(Toks, R));
  return Dims;
}

std::vector<Code> topologyDims(const NamedTopology &N) {
  std::vector<Code> Dims;
  for (const TokenVector &Dim : N.Dims)
    Dims.push_back(Dim.empty() ? Code()
                               : valueOf(Dim, {0, static_cast<unsigned>(
                                                      Dim.size())}));
  return Dims;
}

void declareTopology(TopologyTable &Table, ArrayRef<Token> Toks,
                     const TopologySpec &T) {
  if (T.T.Name.empty())
    return;
  NamedTopology &N = Table[T.T.Name];
  N.T = T.T;
  N.Dims.clear();
  for (TokenRange R : T.Dims)
    N.Dims.emplace_back(Toks.begin() + R.Begin, Toks.begin() + R.End);
}

bool useTopology(TopologyTable &Table, ArrayRef<Token> Toks,
                 SourceLocation Where, const TopologySpec &T,
                 Diagnostics &Diags, TopologySpec &Topo,
                 std::vector<Code> &Dims) {
  if (T.Target)
    return true; // the construct's own: nothing to say
  if (!T.Reference.empty()) {
    auto It = Table.find(T.Reference);
    if (It == Table.end()) {
      Diags.report(Where, Diag::UnknownTopology) << T.Reference;
      return false;
    }
    Topo.T = It->second.T;
    Dims = topologyDims(It->second);
    return true;
  }
  Topo = T;
  Dims = topologyDims(Toks, Topo);
  declareTopology(Table, Toks, Topo);
  return true;
}

void setLocation(Preprocessor &PP, SourceLocation Loc, abi::Descriptor &D) {
  PresumedLoc P = PP.getSourceManager().getPresumedLoc(Loc);
  D.File = P.isValid() ? P.getFilename() : "<unknown>";
  D.Line = P.isValid() ? P.getLine() : 0;
  D.Column = P.isValid() ? P.getColumn() : 0;
}

StringRef cxxPrelude() {
  return R"(
template <class __T> struct __homp_address_of {
  static long long of(const __T &) { return 0; }
};
template <class __T> struct __homp_address_of<__T *> {
  static long long of(const volatile void *__p) { return (long long)__p; }
};
template <class __T> struct __homp_address_of<__T *const>
    : __homp_address_of<__T *> {};
template <class __T> struct __homp_address_of<__T *volatile>
    : __homp_address_of<__T *> {};
template <class __T> struct __homp_address_of<__T *const volatile>
    : __homp_address_of<__T *> {};
template <class __T, unsigned long __N> struct __homp_address_of<__T[__N]>
    : __homp_address_of<__T *> {};
template <class __T> struct __homp_address_of<__T[]>
    : __homp_address_of<__T *> {};
template <class __T> struct __homp_address_of<__T &>
    : __homp_address_of<__T> {};
)";
}

std::string addressOfAny(StringRef Name) {
  return ("__homp_address_of<__typeof__(" + Name + ")>::of(" + Name + ")")
      .str();
}

std::string memberAlias(const Token &Name, const SyntaxContext &Ctx,
                        std::vector<std::string> &Done) {
  std::string N = identifierName(Name).str();
  if (is_contained(Done, N))
    return "";
  switch (Ctx.IsMember(Name)) {
  case SyntaxContext::Membership::No:
    return "";
  case SyntaxContext::Membership::Yes:
    Done.push_back(N);
    return "auto &" + N + " = this->" + N + ";";
  case SyntaxContext::Membership::Unknown:
    // A member or a local: the name alone finds whichever it is.
    Done.push_back(N);
    return "auto &__homp_alias_" + N + " = " + N + "; auto &" + N +
           " = __homp_alias_" + N + ";";
  }
  llvm_unreachable("membership");
}

std::string declareEntry(StringRef Name, StringRef Result, StringRef Params) {
  return ("__extension__ extern " + Result + " " + Name + "(" + Params +
          ") __asm__(\"" + Name + "\");")
      .str();
}

void emitMarkerCall(TokenSynth &Synth, TokenVector &Out, SourceLocation Loc,
                    StringRef Marker, const abi::Descriptor &D,
                    const ConstructValues &V, StringRef Leading,
                    bool CPlusPlus) {
  Synth.append(Out, (Marker + "(").str(), Loc);
  Out.push_back(Synth.stringLiteral(abi::encodeDescriptor(D), Loc));
  if (!Leading.empty())
    Synth.append(Out, Leading, Loc);
  unsigned NextDevice = 0;
  for (const abi::ValueSlot &S : abi::valueLayout(D)) {
    Synth.append(Out, ",", Loc);
    auto Emit = [&](const Code &C, SourceLocation L) { C.emit(Synth, Out, L); };
    const MapItem *Item =
        S.Item < V.Arrays.size() ? V.Arrays[S.Item] : nullptr;
    SourceLocation ItemLoc = Item && Item->Loc.isValid() ? Item->Loc : Loc;
    switch (S.Kind) {
    case abi::ValueSlot::DeviceId:
    case abi::ValueSlot::DeviceCount:
      Emit(V.Devices[NextDevice++], Loc);
      break;
    case abi::ValueSlot::TopologyDim:
      Emit(V.TopologyDims[S.Dim], Loc);
      break;
    case abi::ValueSlot::LoopBlock:
      Emit(V.LoopBlocks[S.Item], Loc);
      break;
    case abi::ValueSlot::ArrayBase:
      Emit(Item->Base, ItemLoc);
      break;
    case abi::ValueSlot::ArrayElementSize:
      Emit(Item->ElementSize, ItemLoc);
      break;
    case abi::ValueSlot::ArrayLower:
      Emit(Item->Lower[S.Dim], ItemLoc);
      break;
    case abi::ValueSlot::ArrayLength:
      Emit(Item->Length[S.Dim], ItemLoc);
      break;
    case abi::ValueSlot::ArrayExtent:
      Emit(Item->Extent[S.Dim], ItemLoc);
      break;
    case abi::ValueSlot::ArrayBlock:
      Emit(Item->Block[S.Dim], ItemLoc);
      break;
    case abi::ValueSlot::ArrayDevice:
      Emit(Item->DeviceIds[S.Dim], ItemLoc);
      break;
    case abi::ValueSlot::ArrayTopologyDim:
      Emit(Item->TopologyDims[S.Dim], ItemLoc);
      break;
    case abi::ValueSlot::AccessAddress:
      Emit(V.AccessAddresses[S.Item], Loc);
      break;
    case abi::ValueSlot::SubscriptMin:
      Emit(V.SubscriptMin[S.Item][S.Dim], Loc);
      break;
    case abi::ValueSlot::SubscriptMax:
      Emit(V.SubscriptMax[S.Item][S.Dim], Loc);
      break;
    case abi::ValueSlot::ReductionAddress:
      Synth.append(Out,
                   "(long long)(void *)&(" +
                       V.ReductionVars[S.Item] + ")",
                   Loc);
      break;
    case abi::ValueSlot::ReductionSize:
      Synth.append(Out, "(long long)sizeof(" + V.ReductionVars[S.Item] + ")",
                   Loc);
      break;
    case abi::ValueSlot::ReductionType:
      Synth.append(Out,
                   "(long long)" + abi::scalarTypeCodeExpr(
                                       V.ReductionVars[S.Item], CPlusPlus),
                   Loc);
      break;
    case abi::ValueSlot::DataLoopFirst:
      Emit(V.DataLoops[S.Item].Loops[S.Dim].First, Loc);
      break;
    case abi::ValueSlot::DataLoopBound:
      Emit(V.DataLoops[S.Item].Loops[S.Dim].Bound, Loc);
      break;
    case abi::ValueSlot::DataLoopStep:
      Emit(V.DataLoops[S.Item].Loops[S.Dim].Step, Loc);
      break;
    case abi::ValueSlot::BodyLoopFirst:
      Emit(V.BodyLoops[S.Item].First, Loc);
      break;
    case abi::ValueSlot::BodyLoopBound:
      Emit(V.BodyLoops[S.Item].Bound, Loc);
      break;
    case abi::ValueSlot::BodyLoopStep:
      Emit(V.BodyLoops[S.Item].Step, Loc);
      break;
    case abi::ValueSlot::DataLoopBlock:
      Emit(V.DataLoops[S.Item].Block[S.Dim], Loc);
      break;
    case abi::ValueSlot::IfCondition:
      Emit(V.If, Loc);
      break;
    case abi::ValueSlot::HaloAddress:
      Emit(V.HaloAddresses[S.Item], Loc);
      break;
    }
  }
  Synth.append(Out, ")", Loc);
}

} // namespace homp
