//===-- homp/Abi.h - What the plugin and libhomp agree on -------*- C++ -*-===//
//
// The clang plugin describes every construct that uses homp's extensions in
// a descriptor: a string literal that the construct's marker call passes to
// libhomp, followed by run-time values (varargs, each a 'long long'). This
// header is the one definition of that contract:
//
//  - the descriptor's model (Descriptor and its records);
//  - its text encoding: encodeDescriptor() is what the plugin writes,
//    decodeDescriptor() what libhomp reads (both link Abi.cpp);
//  - the order of the run-time values (valueLayout());
//  - the layout of the chunk variable and the scalar type codes.
//
// Entry-point names are in EntryPoints.def. AbiTest round-trips every
// record; change the encoding only together with Version.
//
//===----------------------------------------------------------------------===//

#ifndef HOMP_ABI_H
#define HOMP_ABI_H

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace homp {
namespace abi {

/// The descriptor version this build writes and reads.
constexpr int Version = 10;

/// The most dimensions of an array homp distributes (SPEC.md section 2).
constexpr unsigned MaxRank = 8;
/// The most loops of a nest homp distributes ('collapse'), and dimensions
/// of a topology.
constexpr unsigned MaxLoops = 3;
constexpr unsigned MaxTopologyRank = 3;

enum class ConstructKind {
  Kernel,
  Data,
  EnterData,
  ExitData,
  Update,
  HaloUpdate ///< 'halo_update', 'halo_exchange'
};

/// Device types (SPEC.md section 1) as a bit mask; 0 selects any type.
enum DeviceType : unsigned {
  TypeNVGPU = 1,
  TypeAMDGPU = 2,
  TypeCPU = 4,  ///< offload devices running on the host's CPU (x86_64)
  TypeHost = 8, ///< the initial device
  TypeGPU = TypeNVGPU | TypeAMDGPU,
  TypeAll = TypeNVGPU | TypeAMDGPU | TypeCPU | TypeHost,
};

/// One entry of a 'device' list. Values: One and From take the id, Range the
/// id and the count.
struct DeviceSpec {
  enum KindTy { Default, All, Host, One, From, Range } Kind = All;
  unsigned Types = 0; ///< DeviceType filter; 0: none
  /// Range: the count counts devices of the filter's types ('0:2:NVGPU',
  /// HOMP'16) rather than ids ('0:10 & OMP_DEVICE_NVGPU', PMAM'15).
  bool TypedCount = false;
  bool operator==(const DeviceSpec &O) const {
    return Kind == O.Kind && Types == O.Types && TypedCount == O.TypedCount;
  }
};

/// 'topology([d0][d1]...)'. Values: one per given dimension; a dimension
/// written '*' is chosen by the runtime.
struct Topology {
  unsigned Rank = 0; ///< 0: none given (one dimension of every device)
  std::array<bool, MaxTopologyRank> Given{};
  std::string Name; ///< 'topology(top1[2][2])': top1, for messages
  bool operator==(const Topology &O) const {
    return Rank == O.Rank && Given == O.Given && Name == O.Name;
  }
};

/// A chunk or sample size of a loop scheduler: a number of iterations, or
/// a percentage of the loop's iterations. Neither given: the kind's default.
struct Amount {
  int64_t Iterations = 0; ///< > 0: this many iterations
  double Percent = 0;     ///< > 0: this share of the iterations, in %
  bool given() const { return Iterations > 0 || Percent > 0; }
  /// The iterations of a loop of Total this amounts to: at least 1.
  int64_t of(int64_t Total) const;
  bool operator==(const Amount &O) const {
    return Iterations == O.Iterations && Percent == O.Percent;
  }
};

/// How a loop's iterations are scheduled over devices at run time: HOMP'16
/// Table II (BLOCK and SCHED_STATIC are Policy::Block).
enum class SchedKind {
  Auto,         ///< AUTO: the runtime picks (SPEC.md section 3)
  Dynamic,      ///< SCHED_DYNAMIC(chunk): equal chunks from a shared queue
  Guided,       ///< SCHED_GUIDED(chunk): shrinking chunks from the queue
  Model1,       ///< MODEL_1_AUTO: shares by compute speed
  Model2,       ///< MODEL_2_AUTO: shares by compute speed and copy costs
  Profile,      ///< SCHED_PROFILE_AUTO(sample): equal samples, then rates
  ModelProfile, ///< MODEL_PROFILE_AUTO(sample): model samples, then rates
};

/// A distribution policy of one array dimension or one loop.
struct Policy {
  enum KindTy {
    Full,   ///< DUPLICATE, FULL, '*': the whole extent on every device
    Block,  ///< BLOCK: contiguous blocks, sizes differing by at most one
    Cyclic, ///< CYCLIC(n), BLOCK(n): blocks of n dealt round-robin (value n)
    Align,  ///< ALIGN(target[, ratio])
    Auto,   ///< loops only: scheduled at run time by Sched
  } Kind = Full;
  /// Auto: the scheduler kind and its chunk or sample size.
  SchedKind Sched = SchedKind::Auto;
  Amount Chunk;
  /// Align: the loop of the construct (ALIGN, ALIGN(loop)), or the array or
  /// loop label called Target.
  bool ToLoop = false;
  std::string Target;
  /// Align: indices scale by RatioNum / RatioDen.
  int64_t RatioNum = 1, RatioDen = 1;
  /// BLOCK(n) rather than CYCLIC(n), for messages.
  bool SpelledBlock = false;

  bool distributed() const { return Kind != Full; }
  bool operator==(const Policy &O) const {
    return Kind == O.Kind && ToLoop == O.ToLoop && Target == O.Target &&
           RatioNum == O.RatioNum && RatioDen == O.RatioDen &&
           SpelledBlock == O.SpelledBlock && Sched == O.Sched &&
           Chunk == O.Chunk;
  }
};

/// 'cutoff(ratio | percentage | auto)' (HOMP'16 IV.E): devices whose
/// predicted share of the loop is below the ratio get no work.
struct Cutoff {
  enum KindTy {
    None,  ///< no clause: HOMP_CUTOFF, else none
    Given, ///< Value in [0, 1)
    Auto,  ///< 1 / the number of devices
  } Kind = None;
  double Value = 0;
  bool operator==(const Cutoff &O) const {
    return Kind == O.Kind && Value == O.Value;
  }
};

/// Reads all of W as a finite real number (strtod's forms); false if W is
/// anything else. Descriptors and homp's settings read reals this way.
bool parseReal(const std::string &W, double &V);

/// Spellings of the scheduler kinds in descriptors ('dynamic') and as
/// HOMP'16 writes them ('SCHED_DYNAMIC'); false for an unknown name.
const char *schedKindName(SchedKind K);
const char *schedKindSpelling(SchedKind K);
bool schedKindFromSpelling(const std::string &Name, SchedKind &K);

enum class Edge { None, Periodic, Reflecting };

/// The halo of one dimension: Left cells below the part, Right above.
struct Halo {
  /// The width '*' (SPEC.md section 2, 'halo(*)'): every element of the
  /// dimension the device does not own, on that side. A width so wide that
  /// the part widened by it and cut to the section is all of the section,
  /// so every rule for halos holds it as it holds the others; far enough
  /// from int64_t's limits that widening a range by it cannot overflow.
  static constexpr int64_t All = int64_t(1) << 60;
  int64_t Left = 0, Right = 0;
  Edge LeftEdge = Edge::None, RightEdge = Edge::None;
  bool operator==(const Halo &O) const {
    return Left == O.Left && Right == O.Right && LeftEdge == O.LeftEdge &&
           RightEdge == O.RightEdge;
  }
};

/// A halo width as the program spells it: '*' for Halo::All.
inline std::string haloWidthText(int64_t W) {
  return W == Halo::All ? "*" : std::to_string(W);
}

enum class MapType { To, From, ToFrom, Alloc, Release, Delete };

inline bool copiesIn(MapType M) {
  return M == MapType::To || M == MapType::ToFrom;
}
inline bool copiesOut(MapType M) {
  return M == MapType::From || M == MapType::ToFrom;
}

/// Every dimension's topology axis left to the runtime (Array::Axis).
constexpr std::array<int, MaxRank> noAxes() {
  std::array<int, MaxRank> A{};
  for (int &X : A)
    X = -1;
  return A;
}

/// An array (or section) the construct maps. Values: the address of element
/// [0]...[0], the element size, per dimension the section's lower index and
/// length, per dimension d >= 1 the array's extent (its row length), and
/// per Cyclic dimension the block size, then the ids of its device list and
/// the given dimensions of its own topology.
struct Array {
  std::string Name;
  MapType Map = MapType::ToFrom;
  unsigned Rank = 1;
  std::array<Policy, MaxRank> Dims{};
  /// The topology axis of each distributed dimension; -1: the k-th of the
  /// distributed dimensions without an axis given uses axis k.
  std::array<int, MaxRank> Axis = noAxes();
  std::array<Halo, MaxRank> Halos{};
  /// 'topology(0, 1)' after the distribution: the item is spread over only
  /// the construct's devices with these ids (values: one per id, in the
  /// order written). 0: over every device of the construct.
  unsigned DeviceIds = 0;
  /// 'topology([2][2])' after the distribution: the construct's devices
  /// arranged in a topology of the item's own (values: its given
  /// dimensions). Rank 0: the construct's topology.
  Topology Topo;
  /// The map type's modifiers: 'always' (copy even when the array is
  /// already on the devices), 'present' (it must be).
  bool Always = false, Present = false;

  bool distributed() const;
  bool operator==(const Array &O) const {
    return Name == O.Name && Map == O.Map && Rank == O.Rank && Dims == O.Dims &&
           Axis == O.Axis && Halos == O.Halos && DeviceIds == O.DeviceIds &&
           Topo == O.Topo && Always == O.Always && Present == O.Present;
  }
};

/// What one subscript of an array reference in a loop body is, over the
/// references it merges: the elements it may reach are known (Linear,
/// Invariant) or not (Unknown). What homp cannot bound it does not guess
/// (SPEC.md, "never a wrong answer"): an array with an Unknown subscript in
/// a split dimension is made whole where the loop runs.
struct Subscript {
  enum KindTy {
    Unknown,   ///< anything the plugin cannot bound
    Invariant, ///< the same index in every iteration: one in [Min, Max]
    Linear,    ///< loop variable Loop plus an offset in [Min, Max]
  } Kind = Unknown;
  unsigned Loop = 0;
  int64_t Min = 0, Max = 0;
  /// Min and Max are not constants: they are two run-time values of the
  /// construct (SubscriptMin, SubscriptMax), computed from variables the
  /// loop does not change ('y[i - lo]', 'x[c]', 'x[i + d]' for an inner
  /// 'd' from '-w' to 'w'). Min and Max themselves are then 0.
  bool Term = false;
  bool operator==(const Subscript &O) const {
    return Kind == O.Kind && Loop == O.Loop && Min == O.Min && Max == O.Max &&
           Term == O.Term;
  }
};

/// How a kernel's loop body uses an array or pointer variable, over all its
/// references (the access footprint). Value: the variable's address as an
/// array (its value for a pointer), then per subscript with a Term its
/// minimum and maximum, and the same for Writes.
struct Access {
  std::string Name;
  unsigned Rank = 0; ///< subscripts per reference; 0: used without one
  std::array<Subscript, MaxRank> Subs{};
  /// Some reference may write the array: an assignment, an increment, its
  /// address taken, a use without a subscript (in C++ also a reference
  /// bound to an element, or an element passed to a function).
  bool Written = false;
  /// When Written: the subscripts of the references that may write, merged
  /// alone (a write must stay inside the part its device owns).
  std::array<Subscript, MaxRank> Writes{};
  /// Why some subscript is Unknown, for messages ("subscript 'idx[i]' is
  /// not ..."); empty when none is.
  std::string Why;
  bool operator==(const Access &O) const {
    return Name == O.Name && Rank == O.Rank && Subs == O.Subs &&
           Written == O.Written && Writes == O.Writes && Why == O.Why;
  }
};

enum class CompareOp { Less, LessEqual, Greater, GreaterEqual, NotEqual };

/// One loop of a distributed nest. Its bounds and step are in the chunk
/// variable (kernels) or in values (data regions). Value: the block size of
/// a Cyclic policy.
struct Loop {
  CompareOp Op = CompareOp::Less;
  Policy Dist;
  /// The rewritten loop takes its step from the chunk, so one launch can
  /// run a strided set of iterations; otherwise each launch runs
  /// consecutive iterations.
  bool Strided = false;
  /// The program gave this loop no policy (an inner loop of a collapsed
  /// nest without dist_iteration, or past its last policy), and the
  /// plugin saw it subscript a split dimension of a distributed array: it
  /// follows the array's parts (owner computes), and runs whole on every
  /// device when no array it uses is split along it after all. Its Dist is
  /// BLOCK.
  bool Implicit = false;
  /// The program gave this loop no policy (Implicit ones included): it
  /// follows the split of the arrays it subscripts whatever their kind,
  /// CYCLIC and BLOCK(n) too (SPEC 3: a loop without a policy is
  /// distributed like the arrays it is aligned with), where a BLOCK loop
  /// the program asked for follows only arrays in blocks.
  bool NoPolicy = false;
  bool operator==(const Loop &O) const {
    return Op == O.Op && Dist == O.Dist && Strided == O.Strided &&
           Implicit == O.Implicit && NoPolicy == O.NoPolicy;
  }
};

/// A labelled loop nest inside a data region that the region's arrays are
/// aligned to. Values per loop: first, bound, step, then its policy's.
struct LabelledLoop {
  std::string Label;
  std::vector<Loop> Loops;
  /// The loop's own 'cutoff' clause, for the split the data region decides.
  Cutoff Cut;
  bool operator==(const LabelledLoop &O) const {
    return Label == O.Label && Loops == O.Loops && Cut == O.Cut;
  }
};

/// A loop inside the body of a kernel's distributed nest, for the
/// operation count the machine model weighs against copies (HOMP'16 IV.B:
/// the kernel's FLOPs, "collected through compiler analysis"). Values, when
/// Counted: its first, bound and step.
struct BodyLoop {
  CompareOp Op = CompareOp::Less;
  int Parent = -1;        ///< the body loop it is in; -1: the nest's body
  int64_t Operations = 0; ///< in its body, outside its own body loops
  /// Its trip count can be computed before the region (its bounds and step
  /// use only variables declared outside the region, and call nothing).
  /// A loop not counted counts as one trip.
  bool Counted = false;
  bool operator==(const BodyLoop &O) const {
    return Op == O.Op && Parent == O.Parent && Operations == O.Operations &&
           Counted == O.Counted;
  }
};

/// Which halos a halo update fills: 'left', 'right', 'left-right' (left,
/// then right) or 'leftright' (both at once; 'halo_exchange').
enum class HaloDirection { Left, Right, LeftThenRight, Both };

/// An array of a halo update. Value: its address (the array's, or the
/// pointer's value).
struct HaloItem {
  std::string Name;
  /// The selected dimensions ('A[*][]': bit 0); 0: every dimension that has
  /// a halo ('A').
  unsigned Dims = 0;
  bool operator==(const HaloItem &O) const {
    return Name == O.Name && Dims == O.Dims;
  }
};

enum class ReductionOp { Add, Sub, Mul, BitAnd, BitOr, BitXor, And, Or, Max, Min };

/// Values: the variable's address, its size and its type code.
struct Reduction {
  ReductionOp Op = ReductionOp::Add;
  std::string Name;
  bool operator==(const Reduction &O) const {
    return Op == O.Op && Name == O.Name;
  }
};

struct Descriptor {
  ConstructKind Kind = ConstructKind::Kernel;
  std::string File;
  unsigned Line = 0, Column = 0;
  /// Empty: the construct has no 'device' clause (its default device).
  std::vector<DeviceSpec> Devices;
  Topology Topo;
  /// Kernel: the distributed loop nest, outermost first.
  std::vector<Loop> Loops;
  std::string Label; ///< Kernel: the label of its loop, if any
  std::vector<Array> Arrays;
  std::vector<Access> Accesses;
  std::vector<Reduction> Reductions;
  std::vector<LabelledLoop> DataLoops;
  Cutoff Cut;         ///< Kernel: its 'cutoff' clause
  /// Kernel: the operations of one iteration of the nest's innermost loop,
  /// outside the loops of its body, and those loops (parents first).
  int64_t Operations = 0;
  std::vector<BodyLoop> BodyLoops;
  /// The translation unit requires unified_shared_memory: every device
  /// works on the host's memory.
  bool SharedMemory = false;
  bool HasIf = false; ///< value: the if clause's condition
  /// Kernel: its GPU images run the loop as 'teams distribute parallel
  /// for' (the plugin's rewrite of a 'parallel for' without teams), which
  /// the host's launch asks one team of: libhomp asks a GPU for a grid.
  bool GpuTeams = false;
  /// HaloUpdate: its direction and arrays.
  HaloDirection Direction = HaloDirection::Both;
  std::vector<HaloItem> HaloItems;

  /// FILE:LINE:COL, as diagnostics write it.
  std::string location() const;
  bool operator==(const Descriptor &O) const;
};

/// The descriptor's text, as the plugin puts it in the string literal.
std::string encodeDescriptor(const Descriptor &D);

/// Parses Text. Returns false with a message in Error when Text is not a
/// descriptor of this version (the program was compiled by another homp).
bool decodeDescriptor(const char *Text, Descriptor &Out, std::string &Error);

/// What one run-time value of a construct is.
struct ValueSlot {
  enum KindTy {
    DeviceId,
    DeviceCount,
    TopologyDim,
    LoopBlock,
    ArrayBase,
    ArrayElementSize,
    ArrayLower,
    ArrayLength,
    ArrayExtent,
    ArrayBlock,
    ArrayDevice,
    ArrayTopologyDim,
    AccessAddress,
    ReductionAddress,
    ReductionSize,
    ReductionType,
    DataLoopFirst,
    DataLoopBound,
    DataLoopStep,
    DataLoopBlock,
    IfCondition,
    HaloAddress,
    BodyLoopFirst,
    BodyLoopBound,
    BodyLoopStep,
    SubscriptMin, ///< Dim: the subscript; Dim >= MaxRank: of Writes
    SubscriptMax,
  } Kind;
  unsigned Item = 0; ///< the spec, loop, array, access, ... it belongs to
  unsigned Dim = 0;  ///< its dimension or loop of a nest
};

/// Whether a value only feeds the machine model's operation count (the
/// bounds of the loops in a kernel's body), and changes nothing else.
inline bool onlyForTheModel(ValueSlot::KindTy K) {
  return K == ValueSlot::BodyLoopFirst || K == ValueSlot::BodyLoopBound ||
         K == ValueSlot::BodyLoopStep;
}

/// The run-time values of D's marker call, in order.
std::vector<ValueSlot> valueLayout(const Descriptor &D);

/// The chunk variable: the loop nest a device runs, one loop per dimension.
/// Each value also comes truncated to 32 bits, for loops whose variable has
/// 32 bits or fewer: a 64-bit value narrowed in the kernel lets the optimizer
/// compute the loop's indices in 64 bits, with more instructions per
/// iteration than for the same loop over plain ints.
struct ChunkLoop {
  long long First, Bound, Step;
  int First32, Bound32, Step32;
};
struct Chunk {
  ChunkLoop Loops[MaxLoops];
};
/// Whether A and B launch the same loops (field by field: their padding
/// does not count).
inline bool sameChunk(const Chunk &A, const Chunk &B) {
  for (unsigned L = 0; L < MaxLoops; ++L) {
    const ChunkLoop &X = A.Loops[L], &Y = B.Loops[L];
    if (X.First != Y.First || X.Bound != Y.Bound || X.Step != Y.Step ||
        X.First32 != Y.First32 || X.Bound32 != Y.Bound32 ||
        X.Step32 != Y.Step32)
      return false;
  }
  return true;
}
/// The chunk loop of First, Bound and Step, with their 32-bit copies.
constexpr ChunkLoop chunkLoop(long long First, long long Bound,
                              long long Step) {
  return {First,
          Bound,
          Step,
          static_cast<int>(First),
          static_cast<int>(Bound),
          static_cast<int>(Step)};
}
/// The chunk's type as the plugin spells it: the same layout as Chunk.
constexpr const char *ChunkTypeSpelling =
    "struct { struct { long long first, bound, step; "
    "int first32, bound32, step32; } l[3]; }";
static_assert(offsetof(ChunkLoop, Step32) == 3 * sizeof(long long) + 8 &&
                  sizeof(Chunk) == MaxLoops * 5 * sizeof(long long),
              "the chunk is what ChunkTypeSpelling declares");

/// Scalar type codes of reduction variables: kind * 100 + size.
enum ScalarKind {
  KindSigned = 1,
  KindUnsigned = 2,
  KindFloat = 3,
  KindBool = 4,
  KindComplex = 5 ///< C's _Complex float, double and long double
};

/// A C or C++ expression giving the type code of the variable named Var.
std::string scalarTypeCodeExpr(const std::string &Var, bool CPlusPlus);

/// Spellings used in descriptors and messages.
const char *reductionOpName(ReductionOp Op);
const char *mapTypeName(MapType M);
const char *compareOpName(CompareOp Op);
const char *constructName(ConstructKind K);
const char *haloDirectionName(HaloDirection D);

} // namespace abi
} // namespace homp

#endif // HOMP_ABI_H
