//===-- HaloDirective.cpp - 'halo_exchange' and 'halo_update' -------------===//
//
//   #pragma omp halo_exchange(A, B)              all dimensions with halos
//   #pragma omp halo_update left-right(A[*][])   dimension 0, left then right
//
// become
//
//   { extern void __homp_halo(const char *, ...);
//     __homp_halo("homp 3 halo ...", (long long)(void *)(A), ...); }
//
//===----------------------------------------------------------------------===//

#include "HaloDirective.h"

#include "clang/Lex/Preprocessor.h"
#include "llvm/ADT/StringSwitch.h"

using namespace clang;
using namespace llvm;

namespace homp {

bool isHaloDirective(const Directive &D) {
  return !D.Words.empty() && (D.Words.front().Name == "halo_exchange" ||
                              D.Words.front().Name == "halo_update");
}

/// Parses one item, 'A' or 'A[*][]...', into H; reports and fails otherwise.
static bool parseItem(ArrayRef<Token> Toks, TokenRange R, Diagnostics &Diags,
                      abi::HaloItem &H) {
  if (R.empty() || identifierName(Toks[R.Begin]).empty()) {
    Diags.report(Toks[R.empty() ? R.Begin - 1 : R.Begin].getLocation(),
                 Diag::BadHaloItem);
    return false;
  }
  H.Name = identifierName(Toks[R.Begin]).str();
  unsigned Dim = 0;
  for (unsigned I = R.Begin + 1; I < R.End; ++Dim) {
    bool Open = Toks[I].is(tok::l_square);
    bool Star = Open && I + 2 < R.End && Toks[I + 1].is(tok::star) &&
                Toks[I + 2].is(tok::r_square);
    bool Empty = Open && I + 1 < R.End && Toks[I + 1].is(tok::r_square);
    if (!Star && !Empty) {
      Diags.report(Toks[I].getLocation(), Diag::BadHaloItem);
      return false;
    }
    if (Dim >= abi::MaxRank) {
      Diags.report(Toks[I].getLocation(), Diag::NotSupportedYet)
          << "a halo update of more than 8 dimensions";
      return false;
    }
    if (Star)
      H.Dims |= 1u << Dim;
    I += Star ? 3 : 2;
  }
  // 'A[][]' selects nothing: say so rather than update nothing.
  if (Dim > 0 && H.Dims == 0) {
    Diags.report(Toks[R.Begin + 1].getLocation(), Diag::BadHaloItem);
    return false;
  }
  return true;
}

std::optional<TokenVector> rewriteHaloDirective(const RewriteContext &RC,
                                                const Directive &D) {
  ArrayRef<Token> Toks = D.Toks;
  Diagnostics &Diags = RC.Diags;
  SourceLocation Loc = Toks[D.Words.front().Index].getLocation();
  bool Exchange = D.Words.front().Name == "halo_exchange";
  abi::Descriptor Desc;
  Desc.Kind = abi::ConstructKind::HaloUpdate;
  Desc.SharedMemory = RC.Ctx.UnifiedSharedMemory;
  setLocation(RC.PP, Loc, Desc);

  // One clause: the list ('halo_exchange(...)') or the direction.
  if (D.Words.size() != 1 || D.Clauses.size() != 1 ||
      !D.Clauses.front().HasParens) {
    SourceLocation At = D.Words.size() > 1
                            ? Toks[D.Words[1].Index].getLocation()
                        : D.Clauses.size() > 1
                            ? Toks[D.Clauses[1].All.Begin].getLocation()
                            : Loc;
    Diags.report(At, Diag::BadHaloDirective) << Exchange;
    return std::nullopt;
  }
  const Clause &C = D.Clauses.front();
  if (Exchange) {
    Desc.Direction = abi::HaloDirection::Both;
  } else {
    std::optional<abi::HaloDirection> Dir =
        StringSwitch<std::optional<abi::HaloDirection>>(C.Name)
            .Case("left", abi::HaloDirection::Left)
            .Case("right", abi::HaloDirection::Right)
            .Case("left-right", abi::HaloDirection::LeftThenRight)
            .Case("leftright", abi::HaloDirection::Both)
            .Default(std::nullopt);
    if (!Dir) {
      Diags.report(Toks[C.All.Begin].getLocation(), Diag::UnknownHaloDirection)
          << C.Name;
      return std::nullopt;
    }
    Desc.Direction = *Dir;
  }
  if (C.Args.empty()) {
    Diags.report(Toks[C.Args.Begin - 1].getLocation(), Diag::BadHaloItem);
    return std::nullopt;
  }
  ConstructValues V;
  for (TokenRange R : splitTopLevel(Toks, C.Args, tok::comma)) {
    abi::HaloItem H;
    if (!parseItem(Toks, R, Diags, H))
      return std::nullopt;
    // An array an enclosing data construct distributes without a halo.
    if (RC.Around.distributes(H.Name) && !RC.Around.hasHalo(H.Name)) {
      Diags.report(Toks[R.Begin].getLocation(), Diag::HaloUpdateWithoutHalo)
          << H.Name;
      return std::nullopt;
    }
    Desc.HaloItems.push_back(H);
    V.HaloAddresses.push_back(std::move(
        Code("(long long)(void *)(").tokens(Toks, {R.Begin, R.Begin + 1}).text(
            ")")));
  }

  TokenSynth Synth(RC.PP);
  TokenVector Out;
  Synth.append(Out,
               "{ " + declareEntry(abi::HaloCall, "void", "const char *, ..."),
               Loc);
  emitMarkerCall(Synth, Out, Loc, abi::HaloCall, Desc, V, "",
                 RC.PP.getLangOpts().CPlusPlus);
  Synth.append(Out, "; }", Loc);
  return Out;
}

} // namespace homp
