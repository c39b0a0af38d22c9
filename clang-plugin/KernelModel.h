//===-- KernelModel.h - A kernel construct, analysed and emitted -*- C++
//-*-===//
//
// Private to the plugin: what rewriteKernel (KernelRewriter.h) does with
// one construct, in two steps that share nothing but the construct's model
// (KernelModel). The analysis parses and checks the target line's clauses
// (KernelClauses.cpp), then the loop nest, its accesses and policies, and
// builds the descriptor (KernelAnalysis.cpp); it reports every error. The
// emission (KernelEmit.cpp) reads the model and writes the rewritten
// tokens; it decides and reports nothing.
//
//===----------------------------------------------------------------------===//

#ifndef HOMP_CLANG_PLUGIN_KERNELMODEL_H
#define HOMP_CLANG_PLUGIN_KERNELMODEL_H

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

namespace homp {
namespace kernel {

using namespace clang;
using namespace llvm;

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
inline StringRef clauseModifier(ArrayRef<Token> Toks, const Clause &C) {
  return C.Args.size() > 2 && Toks[C.Args.Begin + 1].is(tok::colon)
             ? identifierName(Toks[C.Args.Begin])
             : StringRef();
}

inline bool isTargetModifier(ArrayRef<Token> Toks, const Clause &C,
                             StringRef Modifier) {
  return !Modifier.empty() && clauseModifier(Toks, C) == Modifier;
}

/// Clauses of a loop directive that only homp reads.
inline bool isHompLoopClause(ArrayRef<Token> Toks, const Clause &C) {
  return C.Name == "dist_iteration" ||
         (C.Name == "dist_schedule" && isTargetModifier(Toks, C, "target")) ||
         (C.Name == "distribute" && !C.HasParens) ||
         (C.Name == "topology" && C.HasParens) || C.Name == "cutoff";
}

/// A kernel construct as the analysis found it: its tokens, its clauses and
/// directives, the loop nest and its accesses, the descriptor and the
/// run-time values. Indices are into Line, Body (Line without its
/// annotation tokens) or Stmt, the construct's statement.
struct KernelModel {
  KernelModel(ArrayRef<Token> Line, ArrayRef<Token> Stmt)
      : Line(Line), Body(Line.drop_front().drop_back()), Stmt(Stmt) {}

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

  SourceLocation loc() const { return Line.front().getLocation(); }
  StringRef reductionName(const Reduction &R) const {
    return identifierName((R.OnTarget ? Body : Inner->Toks)[R.Var]);
  }
  const Reduction *reductionOf(StringRef Name) const {
    auto It = llvm::find_if(Reductions, [&](const Reduction &R) {
      return reductionName(R) == Name;
    });
    return It == Reductions.end() ? nullptr : &*It;
  }
  /// Whether the loop directive, a 'distribute' one, merges with the teams
  /// before it into OpenMP's combined 'teams distribute ...' construct
  /// (KernelClauses.cpp says when and why).
  bool mergesWithTeams() const;
  /// Whether the target line ('target teams') takes the loop directive in.
  bool takesLoop() const;
  /// Whether the inner loop directive is OpenMP's distribute construct.
  bool innerDistributesOverTeams() const;
  /// Whether the inner loop directive, a 'parallel for' with no teams
  /// around it, runs as 'teams distribute parallel for' (KernelClauses.cpp).
  bool spreadsOverTeams() const;
};

/// The analysis of one construct: it fills its model, reporting what is
/// wrong with the construct.
class Analysis : KernelModel {
public:
  Analysis(const RewriteContext &RC, ArrayRef<Token> Line, ArrayRef<Token> Stmt)
      : KernelModel(Line, Stmt), RC(RC), PP(RC.PP), Diags(RC.Diags) {}

  /// Whether the construct is one homp distributes (else errors were
  /// reported).
  bool run();
  const KernelModel &model() const { return *this; }

private:
  bool targetWords();
  bool targetClauses();
  bool topologyClause(const Clause &C);
  bool loopPolicyClause(ArrayRef<Token> Toks, const Clause &C);
  bool collapseClause(ArrayRef<Token> Toks, const Clause &C);
  bool cutoffClause(ArrayRef<Token> Toks, const Clause &C);
  bool reductionClause(ArrayRef<Token> Toks, const Clause &C, bool OnTarget);
  bool teamsReductions();
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
  bool qualifiedUses();
  bool atomicUpdates();
  std::string spell(ArrayRef<Token> Toks, TokenRange R) const;

  const RewriteContext &RC;
  Preprocessor &PP;
  Diagnostics &Diags;
};

/// The emission of an analysed construct: standard OpenMP with homp's
/// marker call, from the model alone.
class Emitter {
public:
  Emitter(const RewriteContext &RC, const KernelModel &K)
      : RC(RC), PP(RC.PP), Synth(RC.PP), K(K) {}

  TokenVector run();

private:
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
  /// Whether this compile writes the loop as 'teams distribute parallel
  /// for' (KernelModel::spreadsOverTeams): a GPU image's. The host's and
  /// the CPU offload devices' keep 'parallel for', one team whose threads
  /// libomp keeps from launch to launch (as teams, AXPY over 4 CPU offload
  /// devices took 10% longer).
  bool teamsHere() const;
  void emitInnerClauses(const std::set<std::string> &Drop = {},
                        bool OtherDefault = false, bool LoopIf = false);
  void emitClauseWithout(ArrayRef<Token> Toks, const Clause &C,
                         const std::set<std::string> &Drop, bool OtherDefault,
                         bool LoopIf);
  void emitLoop(unsigned Level);
  /// The header of loop Level with its bounds (and step) from the chunk.
  void emitChunkHeader(unsigned Level, const std::string &Field);
  std::string chunk() const { return "__homp_chunk_" + std::to_string(RC.Id); }

  const RewriteContext &RC;
  Preprocessor &PP;
  TokenSynth Synth;
  const KernelModel &K;
  TokenVector Out;
};

} // namespace kernel
} // namespace homp

#endif // HOMP_CLANG_PLUGIN_KERNELMODEL_H
