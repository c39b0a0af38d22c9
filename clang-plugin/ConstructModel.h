//===-- ConstructModel.h - A construct as the plugin reads it ---*- C++ -*-===//
//
// What the plugin knows of a construct that uses homp's extensions: the
// descriptor it will hand libhomp (homp/Abi.h) and, for each of the
// descriptor's run-time values, the code that computes it. The parsers
// fill it (MapItems.cpp, KernelAnalysis.cpp, DataRewriter.cpp), the
// emitter writes it out (Emitter.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef HOMP_CLANG_PLUGIN_CONSTRUCTMODEL_H
#define HOMP_CLANG_PLUGIN_CONSTRUCTMODEL_H

#include "CanonicalLoop.h"
#include "Clauses.h"
#include "Directive.h"
#include "TokenSynth.h"

#include "llvm/ADT/STLExtras.h"

#include "homp/Abi.h"
#include "homp/EntryPoints.h"

#include <algorithm>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace homp {

/// Code the plugin writes: its own text around tokens of the user's.
class Code {
public:
  Code() = default;
  explicit Code(std::string Text) { text(std::move(Text)); }
  Code &text(std::string Text);
  Code &tokens(llvm::ArrayRef<clang::Token> Toks, TokenRange R);
  Code &append(const Code &C) {
    Parts.insert(Parts.end(), C.Parts.begin(), C.Parts.end());
    return *this;
  }
  bool empty() const { return Parts.empty(); }
  void emit(TokenSynth &Synth, TokenVector &Out, clang::SourceLocation Loc) const;

private:
  struct Part {
    std::string Text;
    TokenVector Toks;
  };
  std::vector<Part> Parts;
};

/// A named topology ('topology(top1[2][2])'), reused by name later in the
/// translation unit: its shape and copies of its dimensions' tokens.
struct NamedTopology {
  abi::Topology T;
  std::vector<TokenVector> Dims;
};
using TopologyTable = std::map<std::string, NamedTopology>;

/// A list item of a map clause (or of 'to'/'from' of 'target update').
struct MapItem {
  TokenRange Expr;           ///< the item without its distribution clauses
  std::string Name;          ///< the variable, for described items
  clang::SourceLocation Loc; ///< where the item starts
  bool Described = false;    ///< an array or section libhomp is told of
  bool Distributed = false;  ///< has dist_data/partition
  abi::Array A;              ///< policies as written (ALIGN unresolved)
  std::array<unsigned, abi::MaxRank> PolicyIndex{}; ///< tokens, for messages
  /// Run-time values, per dimension where they have one.
  Code Base, ElementSize;
  std::array<Code, abi::MaxRank> Lower, Length, Extent, Block;
  llvm::SmallVector<Code, 4> DeviceIds; ///< its 'topology(0, 1)' list
  /// Its own topology's dimensions ('topology([2][*])'; empty for '*').
  std::vector<Code> TopologyDims;
  bool CheckNotPointer = false; ///< a whole variable of unknown type
  bool WholeVariable = false;   ///< described by its address, not a section
};

/// A map clause and the items it lists.
struct MapClause {
  const Clause *C = nullptr;
  TokenRange Prefix; ///< '[modifiers,] type :' (may be empty)
  llvm::SmallVector<unsigned, 4> Items;
  abi::MapType Type = abi::MapType::ToFrom;
};

/// Reads the map clauses of a directive, item by item. Topology is the
/// construct's, Named the topologies declared so far ('topology(name)' after
/// an item's distribution must name the construct's; 'topology(t[2][2])'
/// there declares t).
class MapItemParser {
public:
  MapItemParser(clang::Preprocessor &PP, llvm::ArrayRef<clang::Token> Toks,
                Diagnostics &Diags, const SyntaxContext &Ctx,
                const abi::Topology &Topology, TopologyTable &Named)
      : PP(PP), Toks(Toks), Diags(Diags), Ctx(Ctx),
        TopologyRank(std::max(1u, Topology.Rank)), TopologyName(Topology.Name),
        Named(Named) {}

  /// A 'map' clause; false after an error.
  bool mapClause(const Clause &C, std::vector<MapItem> &Items,
                 std::vector<MapClause> &Clauses);
  /// A motion clause of 'target update' ('to(...)' or 'from(...)').
  bool motionClause(const Clause &C, abi::MapType Type,
                    std::vector<MapItem> &Items);

private:
  bool item(TokenRange R, abi::MapType Type, MapItem &Out);
  bool wholeVariable(const clang::Token &Name,
                     const std::optional<VarShape> &Shape, MapItem &MI);
  bool distribution(unsigned From, unsigned End, MapItem &MI);
  bool itemTopology(unsigned At, TokenRange Args, MapItem &MI);

  clang::Preprocessor &PP;
  llvm::ArrayRef<clang::Token> Toks;
  Diagnostics &Diags;
  const SyntaxContext &Ctx;
  unsigned TopologyRank;
  std::string TopologyName;
  TopologyTable &Named;
};

/// The code of every run-time value of a construct, by descriptor record.
/// The values of a loop's first index, bound and step, as 'long long'.
struct LoopValues {
  Code First, Bound, Step;
};
LoopValues loopValues(llvm::ArrayRef<clang::Token> Toks,
                      const CanonicalLoop &L);

struct ConstructValues {
  std::vector<Code> Devices;      ///< per DeviceId / DeviceCount slot
  std::vector<Code> TopologyDims; ///< per dimension (empty for '*')
  std::array<Code, abi::MaxLoops> LoopBlocks;
  std::vector<const MapItem *> Arrays; ///< per descriptor array
  std::vector<Code> AccessAddresses;
  /// Per access, per subscript with a term (Subs, then Writes): the code
  /// of its minimum and maximum.
  std::vector<std::array<Code, 2 * abi::MaxRank>> SubscriptMin, SubscriptMax;
  std::vector<std::string> ReductionVars; ///< per reduction: the variable
  struct DataLoop {
    std::array<LoopValues, abi::MaxLoops> Loops;
    std::array<Code, abi::MaxLoops> Block;
  };
  std::vector<DataLoop> DataLoops;
  std::vector<LoopValues> BodyLoops; ///< per body loop (counted ones only)
  Code If;
  std::vector<Code> HaloAddresses; ///< per halo item
};

/// The code of the values of a device list.
void deviceValues(llvm::ArrayRef<clang::Token> Toks,
                  llvm::ArrayRef<DeviceSpec> Specs, ConstructValues &V);
/// The code of the value of the expression R of Toks: '(long long)(R)'.
Code valueOf(llvm::ArrayRef<clang::Token> Toks, TokenRange R);
/// The code of a topology's dimensions' values, per dimension ('*': empty).
std::vector<Code> topologyDims(llvm::ArrayRef<clang::Token> Toks,
                               const TopologySpec &T);
std::vector<Code> topologyDims(const NamedTopology &N);
/// Declares T under its name, if it has one, for later constructs.
void declareTopology(TopologyTable &Table, llvm::ArrayRef<clang::Token> Toks,
                     const TopologySpec &T);

/// What a construct's 'topology(...)' clause T (parsed from Toks) gives it
/// in Topo and Dims: a named topology's, looked up in Table (an unknown
/// name is reported at Where, and false), or T itself, declared under its
/// name for later constructs. 'topology(target)' changes nothing.
bool useTopology(TopologyTable &Table, llvm::ArrayRef<clang::Token> Toks,
                 clang::SourceLocation Where, const TopologySpec &T,
                 Diagnostics &Diags, TopologySpec &Topo,
                 std::vector<Code> &Dims);

/// The declaration of libhomp's entry point Name, as emitted code declares
/// it: 'extern Result Name(Params)', with Name as its symbol.
std::string declareEntry(llvm::StringRef Name, llvm::StringRef Result,
                         llvm::StringRef Params);

/// Writes the marker call Marker(descriptor, Leading..., values...) of D.
void emitMarkerCall(TokenSynth &Synth, TokenVector &Out,
                    clang::SourceLocation Loc, llvm::StringRef Marker,
                    const abi::Descriptor &D, const ConstructValues &V,
                    llvm::StringRef Leading, bool CPlusPlus);

/// Declarations the plugin adds to a C++ file's predefines, for code it
/// emits about names whose type is not known at the pragma (a template's
/// dependent type): addressOfAny's helper.
llvm::StringRef cxxPrelude();

/// Code for the address of the array or pointer Name, or 0 when Name is
/// neither, that compiles whatever Name's type turns out to be (C++ only:
/// it uses cxxPrelude).
std::string addressOfAny(llvm::StringRef Name);

/// 'auto &u = this->u;' when Name is a data member reached through 'this'
/// (SyntaxContext::IsMember) not in Done, else "". Clang then maps the
/// reference as it maps a variable, by the member's address, where a
/// member reached through 'this' would map the object with it. A name that
/// may be a member or a local is bound through a second name. Adds the
/// name to Done.
/// Whether following the ALIGN targets among Items' distributed arrays
/// from Name, aligned to Target, comes back to an array already passed.
bool alignCycle(const std::vector<MapItem> &Items, const std::string &Name,
                const std::string &Target);

std::string memberAlias(const clang::Token &Name, const SyntaxContext &Ctx,
                        std::vector<std::string> &Done);

/// The file, line and column of Loc as descriptors record them.
void setLocation(clang::Preprocessor &PP, clang::SourceLocation Loc,
                 abi::Descriptor &D);

/// How an array's distribution splits its dimensions, as bit masks (bit d:
/// dimension d): Split, the dimensions it may split (BLOCK, CYCLIC,
/// BLOCK(n), ALIGN: those a loop without a policy follows), and Cyclic,
/// those of them dealt round-robin (CYCLIC, BLOCK(n): a loop following them
/// runs strided sets of iterations), and Whole, those of them every device
/// holds whole all the same ('halo(*)': an owned block in the whole extent).
struct DimSplits {
  unsigned Split = 0, Cyclic = 0, Whole = 0;
};
inline DimSplits dimSplits(const abi::Array &A) {
  DimSplits S;
  for (unsigned D = 0; D < A.Rank; ++D) {
    abi::Policy::KindTy K = A.Dims[D].Kind;
    if (K == abi::Policy::Block || K == abi::Policy::Cyclic ||
        K == abi::Policy::Align)
      S.Split |= 1u << D;
    if (K == abi::Policy::Cyclic)
      S.Cyclic |= 1u << D;
    if (A.Halos[D].Left == abi::Halo::All && A.Halos[D].Right == abi::Halo::All)
      S.Whole |= 1u << D;
  }
  return S;
}

/// What the plugin knows of the constructs around one: the arrays that
/// enclosing data regions (and earlier 'target enter data' directives of
/// the file) distribute, and the loop labels enclosing data regions split.
struct Scope {
  /// Per array, how its distribution splits its dimensions.
  using SplitList = std::vector<std::pair<std::string, DimSplits>>;

  std::vector<std::string> Distributed;
  std::vector<std::string> WithHalo; ///< those of Distributed with a halo
  SplitList Splits;                  ///< of those of Distributed
  std::vector<std::string> Labels;
  bool distributes(llvm::StringRef Name) const {
    return llvm::is_contained(Distributed, Name.str());
  }
  bool hasLabel(llvm::StringRef Name) const {
    return llvm::is_contained(Labels, Name.str());
  }
  bool hasHalo(llvm::StringRef Name) const {
    return llvm::is_contained(WithHalo, Name.str());
  }
  /// How Name's distribution splits its dimensions (none: not known).
  DimSplits splitsOf(llvm::StringRef Name) const {
    for (const auto &[N, S] : Splits)
      if (N == Name)
        return S;
    return {};
  }
  /// Adds arrays a data construct distributes (Halo: those with a halo;
  /// Split: how they are split).
  void add(const std::vector<std::string> &Names,
           const std::vector<std::string> &Halo, const SplitList &Split = {}) {
    for (const std::string &N : Names) {
      if (!distributes(N))
        Distributed.push_back(N);
      // A later construct may give the same name another split. Which
      // construct holds it when a halo directive runs is known only then:
      // the name has a halo when any construct gives it one (the runtime
      // checks the array it finds).
      if (llvm::is_contained(Halo, N) && !hasHalo(N))
        WithHalo.push_back(N);
      llvm::erase_if(Splits, [&](const auto &S) { return S.first == N; });
      for (const auto &S : Split)
        if (S.first == N)
          Splits.push_back(S);
    }
  }
};


} // namespace homp

#endif // HOMP_CLANG_PLUGIN_CONSTRUCTMODEL_H
