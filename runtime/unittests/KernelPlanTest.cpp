//===-- KernelPlanTest.cpp - Which device runs and holds what -------------===//
//
// Builds kernel descriptors by hand and checks every plan planKernel makes
// against references worked out here: loops are run literally, every
// iteration of the nest must run on exactly one device, each device's
// launch pieces (expanded with chunkOf and run literally) must run exactly
// its iterations, and every element a device's iterations touch must be in
// what it holds. Each test then checks the split its behaviour asks for.
//
//===----------------------------------------------------------------------===//

#include "homp/KernelPlan.h"

#include "homp/Partition.h"

#include "Reference.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <vector>

using namespace homp;
using namespace homp::reference;

namespace {

using Policy = homp::abi::Policy;
using Edge = homp::abi::Edge;
using Subscript = homp::abi::Subscript;
using Point = std::vector<int64_t>;
using Blocks = std::array<int64_t, MaxRank>;
using LoopBlockSizes = std::array<int64_t, homp::abi::MaxLoops>;

Policy policy(Policy::KindTy Kind) {
  Policy P;
  P.Kind = Kind;
  return P;
}
const Policy Full = policy(Policy::Full);
const Policy Block = policy(Policy::Block);
const Policy Cyclic = policy(Policy::Cyclic);

Policy alignTo(const std::string &Target, int64_t Num = 1, int64_t Den = 1) {
  Policy P = policy(Policy::Align);
  P.Target = Target;
  P.RatioNum = Num;
  P.RatioDen = Den;
  return P;
}

Policy alignToLoop() {
  Policy P = policy(Policy::Align);
  P.ToLoop = true;
  return P;
}

LoopBounds loop(int64_t First, CompareOp Op, int64_t Bound, int64_t Step = 1) {
  return {First, Bound, Step, Op};
}

/// 'for (i = Begin; i < End; i++)'.
LoopBounds upTo(int64_t Begin, int64_t End) {
  return loop(Begin, CompareOp::Less, End);
}

Subscript linear(unsigned Loop, int64_t Min, int64_t Max) {
  Subscript S;
  S.Kind = Subscript::Linear;
  S.Loop = Loop;
  S.Min = Min;
  S.Max = Max;
  return S;
}

/// x[i + Offset], i the variable of loop Loop.
Subscript at(int64_t Offset = 0, unsigned Loop = 0) {
  return linear(Loop, Offset, Offset);
}

/// A kernel under construction: its descriptor and everything planKernel is
/// given with it. Devices have ids 10, 11, ... so that ids and positions
/// differ.
struct Kernel {
  homp::abi::Descriptor Desc;
  std::vector<int> Devices;
  Topology Topo;
  LoopNest Nest;
  LoopBlockSizes LoopBlocks{};
  std::vector<ArrayShape> Shapes;
  std::vector<Blocks> ArrayBlocks;
  std::vector<ItemDevices> Own;
  std::vector<KernelPlanInput::Resident> Residents;
  std::function<bool(const std::string &, unsigned, int, IndexSet &)>
      LabelIndices;

  Kernel(std::vector<LoopBounds> Loops, std::vector<Policy> Policies,
         Topology T, LoopBlockSizes LoopBlocks = {})
      : Topo(T), LoopBlocks(LoopBlocks) {
    Desc.Kind = homp::abi::ConstructKind::Kernel;
    Desc.File = "k.c";
    Desc.Line = 4;
    Desc.Column = 1;
    for (unsigned P = 0; P < T.size(); ++P)
      Devices.push_back(10 + static_cast<int>(P));
    Nest.Rank = static_cast<unsigned>(Loops.size());
    for (unsigned L = 0; L < Nest.Rank; ++L) {
      Nest.Loops[L] = Loops[L];
      homp::abi::Loop D;
      D.Op = Loops[L].Op;
      D.Dist = Policies[L];
      Desc.Loops.push_back(D);
    }
  }

  /// Maps the section Section of Name (whose rows are Extent long) with one
  /// policy and halo per dimension; Cyclic dimensions have block sizes B.
  Kernel &array(const std::string &Name, std::vector<Policy> Dims,
                std::vector<Range> Section,
                std::vector<homp::abi::Halo> Halos = {}, Blocks B = {},
                std::vector<int64_t> Extent = {}) {
    homp::abi::Array A;
    A.Name = Name;
    A.Rank = static_cast<unsigned>(Dims.size());
    ArrayShape S;
    S.Rank = A.Rank;
    S.ElementSize = 8;
    S.Section.Rank = A.Rank;
    for (unsigned D = 0; D < A.Rank; ++D) {
      A.Dims[D] = Dims[D];
      S.Section.Dims[D] = Section[D];
      if (D > 0)
        S.Extent[D] = D < Extent.size() ? Extent[D] : Section[D].End;
    }
    for (unsigned D = 0; D < Halos.size(); ++D)
      A.Halos[D] = Halos[D];
    Desc.Arrays.push_back(A);
    Shapes.push_back(S);
    ArrayBlocks.push_back(B);
    Own.emplace_back();
    return *this;
  }

  /// The last array goes only to the devices Ids ('topology(11, 12)').
  Kernel &only(std::vector<int64_t> Ids) {
    Desc.Arrays.back().DeviceIds = static_cast<unsigned>(Ids.size());
    Own.back().Ids = std::move(Ids);
    return *this;
  }

  /// Loops take their step from the chunk (one launch may run a strided
  /// set of iterations).
  Kernel &strided() {
    for (homp::abi::Loop &L : Desc.Loops)
      L.Strided = true;
    return *this;
  }

  /// The body uses Name with these subscripts; Resident, if given, is the
  /// distribution of a data region it is resident in.
  Kernel &access(const std::string &Name,
                 std::vector<homp::abi::Subscript> Subs, bool Written,
                 const Distribution *Resident = nullptr) {
    homp::abi::Access A;
    A.Name = Name;
    A.Rank = static_cast<unsigned>(Subs.size());
    for (unsigned D = 0; D < A.Rank; ++D)
      A.Subs[D] = Subs[D];
    A.Written = Written;
    if (Written)
      A.Writes = A.Subs; // every reference writes
    Desc.Accesses.push_back(A);
    Residents.push_back(
        {Resident, Resident ? "the data region at a.c:3:1" : ""});
    return *this;
  }

  KernelPlanInput input() const {
    KernelPlanInput In;
    In.Desc = &Desc;
    In.Devices = Devices;
    In.Topo = Topo;
    In.Nest = Nest;
    In.LoopBlocks = LoopBlocks;
    In.ItemShapes = Shapes;
    In.ItemBlocks = ArrayBlocks;
    In.ItemOwnDevices = Own;
    In.AccessResidents = Residents;
    In.LabelIndices = LabelIndices;
    return In;
  }
};

std::string describe(const LoopBounds &L) {
  return "for (i = " + std::to_string(L.First) + "; i " + opName(L.Op) + " " +
         std::to_string(L.Bound) + "; i += " + std::to_string(L.Step) + ")";
}

/// The indices each loop of the nest runs, in order.
std::vector<std::vector<int64_t>> loopIndices(const LoopNest &N) {
  std::vector<std::vector<int64_t>> Idx;
  for (unsigned L = 0; L < N.Rank; ++L)
    Idx.push_back(*runLoop(N.Loops[L]));
  return Idx;
}

/// Every tuple of iteration numbers of the nest.
std::vector<Point> allIterations(const std::vector<std::vector<int64_t>> &Idx) {
  ProductSet All;
  All.Rank = static_cast<unsigned>(Idx.size());
  for (unsigned L = 0; L < All.Rank; ++L)
    All.Dims[L] = IndexSet(Range{0, static_cast<int64_t>(Idx[L].size())});
  return points(All);
}

const Distribution *distributionOf(const Kernel &K, const KernelPlan &Plan,
                                   unsigned Access) {
  const std::string &Name = K.Desc.Accesses[Access].Name;
  for (size_t I = 0; I < K.Desc.Arrays.size(); ++I)
    if (K.Desc.Arrays[I].Name == Name)
      return &Plan.Items[I];
  return K.Residents[Access].Dist;
}

std::string checkPieces(const Kernel &K, const KernelPlan &Plan);
std::string checkHeld(const Kernel &K, const KernelPlan &Plan);

/// What every plan must satisfy; the first problem found, or "".
std::string checkPlan(const Kernel &K, const KernelPlan &Plan) {
  std::ostringstream OS;
  unsigned P = static_cast<unsigned>(K.Devices.size());
  if (Plan.Work.size() != P)
    return "wrong number of devices";
  if (Plan.Items.size() != K.Desc.Arrays.size())
    return "wrong number of arrays";
  std::vector<std::vector<int64_t>> Idx = loopIndices(K.Nest);
  std::vector<Point> All = allIterations(Idx);

  // Every iteration exactly once.
  for (const Point &It : All) {
    std::vector<unsigned> By;
    for (unsigned D = 0; D < P; ++D)
      if (inSet(Plan.Work[D].Iterations, It))
        By.push_back(D);
    if (By.size() != 1) {
      OS << "iteration " << testing::PrintToString(It) << " runs on "
         << By.size() << " devices";
      return OS.str();
    }
  }
  for (unsigned D = 0; D < P; ++D)
    for (unsigned L = 0; L < K.Nest.Rank; ++L)
      if (!wellFormed(Plan.Work[D].Iterations.Dims[L]) ||
          !IndexSet(Range{0, static_cast<int64_t>(Idx[L].size())})
               .contains(Plan.Work[D].Iterations.Dims[L]))
        return "device " + std::to_string(D) + " runs iterations " +
               Plan.Work[D].Iterations.str() + " outside the loops";
  std::string Problem = checkPieces(K, Plan);
  return Problem.empty() ? checkHeld(K, Plan) : Problem;
}

/// The launch pieces, run literally, run each of a device's iterations
/// once and nothing else; the first problem found, or "".
std::string checkPieces(const Kernel &K, const KernelPlan &Plan) {
  std::ostringstream OS;
  unsigned P = static_cast<unsigned>(K.Devices.size());
  std::vector<std::vector<int64_t>> Idx = loopIndices(K.Nest);
  for (unsigned D = 0; D < P; ++D) {
    const DeviceWork &W = Plan.Work[D];
    std::multiset<Point> Ran;
    LoopNest Nest = K.Nest;
    for (unsigned L = 0; L < Nest.Rank; ++L)
      Nest.Trips[L] = static_cast<int64_t>(Idx[L].size());
    for (const LaunchPiece &Piece : W.Pieces) {
      homp::abi::Chunk Chunk{};
      uint64_t Count = chunkOfPiece(Nest, Piece, Chunk);
      std::vector<Point> Tuples = {{}};
      for (unsigned L = 0; L < K.Nest.Rank; ++L) {
        int64_t Trip = static_cast<int64_t>(Idx[L].size());
        const homp::abi::ChunkLoop &C = Chunk.Loops[L];
        std::optional<std::vector<int64_t>> V =
            runLoop(C.First, K.Nest.Loops[L].Op, C.Bound, C.Step, Trip + 1);
        if (!V)
          return "a chunk of loop " + std::to_string(L) + " does not terminate";
        std::vector<Point> Longer;
        for (const Point &T : Tuples)
          for (int64_t I : *V) {
            Longer.push_back(T);
            Longer.back().push_back(I);
          }
        Tuples = Longer;
      }
      if (Tuples.size() != Count)
        return "chunkOfPiece counts " + std::to_string(Count) +
               " iterations in a piece of " + std::to_string(Tuples.size());
      Ran.insert(Tuples.begin(), Tuples.end());
    }
    std::multiset<Point> Want;
    for (const Point &It : points(W.Iterations)) {
      Point I;
      for (unsigned L = 0; L < K.Nest.Rank; ++L)
        I.push_back(Idx[L][It[L]]);
      Want.insert(I);
    }
    if (Ran != Want) {
      OS << "device " << D << " has " << W.Pieces.size() << " pieces that run "
         << Ran.size() << " iterations, not its " << Want.size() << " "
         << W.Iterations.str();
      return OS.str();
    }
  }
  return "";
}

/// Every element a device's iterations touch is held by the device; the
/// first problem found, or "".
std::string checkHeld(const Kernel &K, const KernelPlan &Plan) {
  std::ostringstream OS;
  unsigned P = static_cast<unsigned>(K.Devices.size());
  std::vector<std::vector<int64_t>> Idx = loopIndices(K.Nest);
  for (unsigned A = 0; A < K.Desc.Accesses.size(); ++A) {
    const homp::abi::Access &Use = K.Desc.Accesses[A];
    const Distribution *X = distributionOf(K, Plan, A);
    if (!X || X->duplicated() || Use.Rank != X->Shape.Rank)
      continue;
    for (unsigned D = 0; D < P; ++D) {
      if (Plan.Work[D].Iterations.empty())
        continue;
      std::optional<unsigned> Q = X->positionOf(K.Devices[D]);
      if (!Q)
        return "device " + std::to_string(D) + " holds no part of " + Use.Name;
      ProductSet Held = X->held(*Q);
      for (const Point &It : points(Plan.Work[D].Iterations))
        for (unsigned Dm = 0; Dm < Use.Rank; ++Dm) {
          const Subscript &S = Use.Subs[Dm];
          if (S.Kind != Subscript::Linear)
            continue;
          for (int64_t C = S.Min; C <= S.Max; ++C) {
            int64_t E = Idx[S.Loop][It[S.Loop]] + C;
            if (!Held.Dims[Dm].contains(E)) {
              OS << "device " << D << " uses element " << E << " of "
                 << Use.Name << " but holds " << Held.str();
              return OS.str();
            }
          }
        }
    }
  }
  return "";
}

std::optional<KernelPlan> plan(const Kernel &K) {
  KernelPlanInput In = K.input();
  KernelPlan Plan;
  std::string Error;
  if (!planKernel(In, Plan, Error)) {
    ADD_FAILURE() << "refused: " << Error;
    return std::nullopt;
  }
  std::string Problem = checkPlan(K, Plan);
  if (!Problem.empty()) {
    ADD_FAILURE() << Problem;
    return std::nullopt;
  }
  return Plan;
}

std::string refusal(const Kernel &K) {
  KernelPlanInput In = K.input();
  KernelPlan Plan;
  std::string Error;
  EXPECT_FALSE(planKernel(In, Plan, Error));
  EXPECT_FALSE(Error.empty());
  return Error;
}

/// Why K runs on the host with its resident arrays gathered there
/// (KernelPlan::OnHost); a failure when it is planned otherwise.
std::string onHost(const Kernel &K) {
  KernelPlanInput In = K.input();
  KernelPlan Plan;
  std::string Error;
  EXPECT_TRUE(planKernel(In, Plan, Error)) << Error;
  EXPECT_EQ(Plan.Placement, KernelPlan::OnHost);
  EXPECT_TRUE(Plan.Work.empty() && Plan.Items.empty());
  return Plan.Why;
}

/// The indices device Pos runs of loop L.
std::set<int64_t> indicesRun(const Kernel &K, const KernelPlan &Plan,
                             unsigned Pos, unsigned L = 0) {
  std::vector<int64_t> Idx = *runLoop(K.Nest.Loops[L]);
  std::set<int64_t> S;
  for (int64_t It : members(Plan.Work[Pos].Iterations.Dims[L]))
    S.insert(Idx[It]);
  return S;
}

std::set<int64_t> asSet(const IndexSet &S) {
  std::vector<int64_t> M = members(S);
  return std::set<int64_t>(M.begin(), M.end());
}

std::set<int64_t> range(int64_t Begin, int64_t End);
std::set<int64_t> rangeOf(Range R) { return range(R.Begin, R.End); }

std::set<int64_t> range(int64_t Begin, int64_t End) {
  std::set<int64_t> S;
  for (int64_t I = Begin; I < End; ++I)
    S.insert(I);
  return S;
}

std::set<int64_t> intersection(const std::set<int64_t> &A, Range R) {
  std::set<int64_t> S;
  for (int64_t I : A)
    if (R.contains(I))
      S.insert(I);
  return S;
}

/// A BLOCK distribution of [Begin, End) made by hand, with the given parts.
Distribution residentBlock(std::vector<int> Devices, std::vector<Range> Parts,
                           Range Section) {
  Distribution D;
  D.Shape.Rank = 1;
  D.Shape.ElementSize = 8;
  D.Shape.Section.Rank = 1;
  D.Shape.Section.Dims[0] = Section;
  D.Devices = Devices;
  for (const Range &R : Parts) {
    ProductSet P;
    P.Rank = 1;
    P.Dims[0] = IndexSet(R);
    D.Owned.push_back(P);
  }
  D.Split[0] = true;
  D.Kinds[0] = Policy::Block;
  return D;
}

const CompareOp AllOps[] = {CompareOp::Less, CompareOp::LessEqual,
                            CompareOp::Greater, CompareOp::GreaterEqual,
                            CompareOp::NotEqual};

/// Loops of every comparison and step, with between 0 and about 15
/// iterations.
std::vector<LoopBounds> sampleLoops() {
  std::vector<LoopBounds> Loops;
  for (CompareOp Op : AllOps)
    for (int64_t Step : {-3, -2, -1, 1, 2, 3})
      for (int64_t First : {-6, -1, 0, 5})
        for (int64_t Bound : {-7, -2, 0, 4, 9}) {
          LoopBounds L = loop(First, Op, Bound, Step);
          if (tripCount(L))
            Loops.push_back(L);
        }
  return Loops;
}

} // namespace

//===----------------------------------------------------------------------===//
// Loops split by their own policy
//===----------------------------------------------------------------------===//

TEST(KernelPlan, BlockLoopWithoutArraysSplitsItsIterationsLikeBlock) {
  for (const LoopBounds &L : sampleLoops())
    for (unsigned P = 1; P <= 5; ++P) {
      Kernel K({L}, {Block}, Topology::line(P));
      std::optional<KernelPlan> Plan = plan(K);
      ASSERT_TRUE(Plan) << describe(L) << " over " << P;
      int64_t Trip = *tripCount(L);
      for (unsigned D = 0; D < P; ++D)
        EXPECT_EQ(Plan->Work[D].Iterations.Dims[0],
                  IndexSet(handWrittenBlock(Trip, P, D)))
            << describe(L) << " device " << D << " of " << P;
    }
}

TEST(KernelPlan, CyclicLoopWithoutArraysDealsItsIterations) {
  for (const LoopBounds &L : sampleLoops())
    for (unsigned P = 1; P <= 4; ++P)
      for (int64_t B = 1; B <= 3; ++B) {
        Kernel K({L}, {Cyclic}, Topology::line(P), {B, 0, 0});
        std::optional<KernelPlan> Plan = plan(K);
        ASSERT_TRUE(Plan) << describe(L);
        int64_t Trip = *tripCount(L);
        for (unsigned D = 0; D < P; ++D) {
          std::set<int64_t> Want;
          for (int64_t It = 0; It < Trip; ++It)
            if (cyclicOwner(It, B, P) == D)
              Want.insert(It);
          EXPECT_EQ(Plan->Work[D].Iterations.Dims[0], setOf(Want))
              << describe(L) << " CYCLIC(" << B << ") device " << D;
        }
      }
}

// An array split by rows only over a 2x2 topology: the two devices of a
// row of the topology own the same rows, and each runs its columns of them.
// Each copies back what it writes, not all it owns (the second copy back
// undid the first's columns once); writing the same elements from two of
// them is not split; a resident array held so runs on the host.
TEST(KernelPlan, DevicesOwningAlikeCopyBackWhatTheyWrite) {
  Kernel K({upTo(0, 4), upTo(0, 6)}, {Block, Block}, Topology{{2, 2}});
  K.array("m", {Block, Full}, {{0, 4}, {0, 6}})
      .access("m", {linear(0, 0, 0), linear(1, 0, 0)}, true);
  std::optional<KernelPlan> Plan = plan(K);
  ASSERT_TRUE(Plan);
  ASSERT_EQ(Plan->CopyBack.size(), 1u);
  ASSERT_EQ(Plan->CopyBack[0].size(), 4u);
  for (unsigned D = 0; D < 4; ++D) {
    // Device D runs rows [2 (D / 2), +2) and columns [3 (D % 2), +3).
    EXPECT_EQ(Plan->CopyBack[0][D].Dims[0],
              IndexSet(Range{2 * (D / 2), 2 * (D / 2) + 2}));
    EXPECT_EQ(Plan->CopyBack[0][D].Dims[1],
              IndexSet(Range{3 * (D % 2), 3 * (D % 2) + 3}));
  }
  // Every device writes column 0 of its rows.
  Kernel Same({upTo(0, 4), upTo(0, 6)}, {Block, Block}, Topology{{2, 2}});
  Subscript Zero;
  Zero.Kind = Subscript::Invariant;
  Same.array("m", {Block, Full}, {{0, 4}, {0, 6}})
      .array("y", {Block, Block}, {{0, 4}, {0, 6}})
      .access("m", {linear(0, 0, 0), Zero}, true)
      .access("y", {linear(0, 0, 0), linear(1, 0, 0)}, true);
  KernelPlanInput In = Same.input();
  KernelPlan P;
  std::string Error;
  ASSERT_TRUE(planKernel(In, P, Error)) << Error;
  EXPECT_EQ(P.Placement, KernelPlan::OneDevice);
  EXPECT_NE(P.Why.find("at the same elements"), std::string::npos);
  // Nothing shared: no copy-back sets.
  Kernel Own({upTo(0, 4), upTo(0, 6)}, {Block, Block}, Topology{{2, 2}});
  Own.array("m", {Block, Block}, {{0, 4}, {0, 6}})
      .access("m", {linear(0, 0, 0), linear(1, 0, 0)}, true);
  std::optional<KernelPlan> OwnPlan = plan(Own);
  ASSERT_TRUE(OwnPlan);
  EXPECT_TRUE(OwnPlan->CopyBack[0].empty());
}

// dist_iteration(BLOCK, FULL): every device runs the whole inner loop.
TEST(KernelPlan, FullLoopsRunWhollyOnEveryDevice) {
  Kernel K({upTo(0, 6), upTo(0, 5)}, {Block, Full}, Topology::line(3));
  std::optional<KernelPlan> Plan = plan(K);
  ASSERT_TRUE(Plan);
  for (unsigned D = 0; D < 3; ++D) {
    EXPECT_EQ(Plan->Work[D].Iterations.Dims[0],
              IndexSet(handWrittenBlock(6, 3, D)));
    EXPECT_EQ(Plan->Work[D].Iterations.Dims[1], IndexSet(Range{0, 5}));
  }
}

//===----------------------------------------------------------------------===//
// Loops split by a scheduler
//===----------------------------------------------------------------------===//

const Policy Auto = policy(Policy::Auto);

// Uneven shares of an AUTO loop: each device runs its share, the arrays
// aligned with the loop hold what it runs, and a device with no share holds
// nothing of them.
TEST(KernelPlan, SchedulerSharesSplitTheLoopAndItsAlignedArrays) {
  for (const LoopBounds &L : sampleLoops()) {
    int64_t Trip = *tripCount(L);
    Kernel K({L}, {Auto}, Topology::line(3));
    K.array("y", {alignToLoop()}, {Range{-10, 10}});
    K.access("y", {at(0)}, true);
    KernelPlanInput In = K.input();
    In.Scheduled = {IndexSet(Range{0, Trip / 3}), IndexSet(),
                    IndexSet(Range{Trip / 3, Trip})};
    KernelPlan Plan;
    std::string Error;
    ASSERT_TRUE(planKernel(In, Plan, Error)) << Error;
    EXPECT_EQ(checkPlan(K, Plan), "") << describe(L);
    EXPECT_EQ(Plan.ScheduledLoop, 0);
    for (unsigned D = 0; D < 3; ++D) {
      EXPECT_EQ(Plan.Work[D].Iterations.Dims[0], In.Scheduled[D]);
      // It holds what it runs (with steps above 1, the span between).
      std::set<int64_t> Runs =
          intersection(indicesRun(K, Plan, D), Range{-10, 10});
      std::set<int64_t> Held = asSet(Plan.Items[0].Owned[D].Dims[0]);
      EXPECT_TRUE(std::includes(Held.begin(), Held.end(), Runs.begin(),
                                Runs.end()))
          << describe(L) << " device " << D;
      if (Runs.empty())
        EXPECT_TRUE(Held.empty()) << describe(L) << " device " << D;
      else
        EXPECT_TRUE(*Held.begin() >= *Runs.begin() &&
                    *Held.rbegin() <= *Runs.rbegin())
            << describe(L) << " device " << D;
    }
  }
}

// One chunk of a dynamic schedule: only its iterations are planned, on the
// device that took it.
TEST(KernelPlan, SchedulerChunkPlansOnlyItsIterations) {
  Kernel K({upTo(0, 100)}, {Auto}, Topology::line(4));
  K.array("y", {alignToLoop()}, {Range{0, 100}});
  K.array("w", {Full}, {Range{0, 7}});
  K.access("y", {at(0)}, true);
  K.access("w", {Subscript()}, false);
  KernelPlanInput In = K.input();
  In.Scheduled.assign(4, IndexSet());
  In.Scheduled[2] = IndexSet(Range{40, 60});
  KernelPlan Plan;
  std::string Error;
  ASSERT_TRUE(planKernel(In, Plan, Error)) << Error;
  EXPECT_EQ(Plan.ScheduledLoop, 0);
  for (unsigned D = 0; D < 4; ++D) {
    EXPECT_EQ(Plan.Work[D].Iterations.empty(), D != 2);
    EXPECT_EQ(Plan.Items[0].Owned[D].Dims[0],
              D == 2 ? IndexSet(Range{40, 60}) : IndexSet());
  }
  ASSERT_EQ(Plan.Work[2].Pieces.size(), 1u);
  EXPECT_EQ(Plan.Work[2].Pieces[0].Loops[0].Begin, 40);
  EXPECT_EQ(Plan.Work[2].Pieces[0].Loops[0].Count, 20);
}

// A scheduler shares its loop out over every device: with another loop of
// the nest split too (by its policy, or following an array), each device
// would run a diagonal of blocks and most of the nest would run nowhere.
TEST(KernelPlan, AScheduledLoopMustBeTheOnlySplitLoop) {
  for (bool Follows : {false, true}) {
    Kernel K({upTo(0, 8), upTo(0, 12)}, {Block, Auto}, Topology::line(4));
    if (Follows) {
      K.Desc.Loops[0].Implicit = K.Desc.Loops[0].NoPolicy = true;
      K.array("v", {Block, Full}, {Range{0, 8}, Range{0, 12}});
    } else {
      K.array("v", {Full, Full}, {Range{0, 8}, Range{0, 12}});
    }
    K.access("v", {at(0), at(1)}, true);
    KernelPlanInput In = K.input();
    In.Scheduled = {IndexSet(Range{0, 3}), IndexSet(Range{3, 6}),
                    IndexSet(Range{6, 9}), IndexSet(Range{9, 12})};
    KernelPlan Plan;
    std::string Error;
    EXPECT_FALSE(planKernel(In, Plan, Error)) << Follows;
    EXPECT_EQ(Error, "loop 0 of the nest is split as well as loop 1, which a "
                     "scheduler shares out over all the devices: the other "
                     "loops must run whole (FULL, or no policy over arrays "
                     "not split along them)");
  }
  // The other loop whole: the scheduler's shares of the inner loop.
  Kernel K({upTo(0, 8), upTo(0, 12)}, {Full, Auto}, Topology::line(4));
  K.array("v", {Full, Full}, {Range{0, 8}, Range{0, 12}});
  K.access("v", {at(0), at(1)}, true);
  KernelPlanInput In = K.input();
  In.Scheduled = {IndexSet(Range{0, 3}), IndexSet(Range{3, 6}),
                  IndexSet(Range{6, 9}), IndexSet(Range{9, 12})};
  KernelPlan Plan;
  std::string Error;
  ASSERT_TRUE(planKernel(In, Plan, Error)) << Error;
  EXPECT_EQ(Plan.Work[2].Iterations.Dims[0], IndexSet(Range{0, 8}));
  EXPECT_EQ(Plan.Work[2].Iterations.Dims[1], IndexSet(Range{6, 9}));
}

// Owner computes comes first: an array of its own BLOCK split decides,
// and the scheduler's split is not used.
TEST(KernelPlan, OwnerComputesOverridesTheScheduler) {
  Kernel K({upTo(0, 12)}, {Auto}, Topology::line(2));
  K.array("x", {Block}, {Range{0, 12}});
  K.access("x", {at(0)}, true);
  KernelPlanInput In = K.input();
  In.Scheduled = {IndexSet(Range{0, 2}), IndexSet(Range{2, 12})};
  KernelPlan Plan;
  std::string Error;
  ASSERT_TRUE(planKernel(In, Plan, Error)) << Error;
  EXPECT_EQ(Plan.ScheduledLoop, -1);
  EXPECT_EQ(Plan.Work[0].Iterations.Dims[0], IndexSet(Range{0, 6}));
}

// Random nests of one to three loops, each BLOCK, CYCLIC(n) or FULL, over
// topologies with one dimension per split loop: every iteration runs once,
// and each split loop is split along its own axis.
TEST(KernelPlan, RandomNestsOverMatchingTopologiesRunEveryIterationOnce) {
  Random R(42);
  std::vector<LoopBounds> Loops = sampleLoops();
  for (int Case = 0; Case < 300; ++Case) {
    unsigned Rank = static_cast<unsigned>(R.between(1, 3));
    std::vector<LoopBounds> Nest;
    std::vector<Policy> Policies;
    LoopBlockSizes LoopBlocks{};
    std::vector<unsigned> Dims;
    for (unsigned L = 0; L < Rank; ++L) {
      Nest.push_back(Loops[R.between(0, Loops.size() - 1)]);
      switch (R.between(0, 2)) {
      case 0:
        Policies.push_back(Full);
        break;
      case 1:
        Policies.push_back(Block);
        Dims.push_back(static_cast<unsigned>(R.between(1, 3)));
        break;
      default:
        Policies.push_back(Cyclic);
        LoopBlocks[L] = R.between(1, 3);
        Dims.push_back(static_cast<unsigned>(R.between(1, 3)));
      }
    }
    if (Dims.empty())
      Dims.push_back(1);
    Kernel K(Nest, Policies, Topology{Dims}, LoopBlocks);
    if (Case % 2)
      K.strided();
    std::optional<KernelPlan> Plan = plan(K);
    ASSERT_TRUE(Plan) << "case " << Case;
    for (unsigned D = 0; D < K.Topo.size(); ++D)
      for (unsigned L = 0, Axis = 0; L < Rank; ++L) {
        int64_t Trip = *tripCount(Nest[L]);
        IndexSet Want(Range{0, Trip});
        if (Policies[L].Kind != Policy::Full) {
          unsigned Parts = Dims[Axis], Part = K.Topo.coords(D)[Axis];
          ++Axis;
          Want = Policies[L].Kind == Policy::Block
                     ? IndexSet(handWrittenBlock(Trip, Parts, Part))
                     : cyclicPart(Trip, LoopBlocks[L], Parts, Part);
        }
        ASSERT_EQ(Plan->Work[D].Iterations.Dims[L], Want)
            << "case " << Case << " device " << D << " loop " << L;
      }
  }
}

//===----------------------------------------------------------------------===//
// Owner computes
//===----------------------------------------------------------------------===//

// for (i = 1; i < n - 1; i++) x[i] = ...; with x BLOCK over [0, n): each
// device runs exactly the iterations whose element it owns.
TEST(KernelPlan, OwnerComputesRunsTheIterationsOfOwnedElements) {
  for (int64_t N = 2; N <= 30; ++N)
    for (unsigned P = 1; P <= 5; ++P) {
      Kernel K({upTo(1, N - 1)}, {Block}, Topology::line(P));
      K.array("x", {Block}, {{0, N}}).access("x", {at()}, true);
      std::optional<KernelPlan> Plan = plan(K);
      ASSERT_TRUE(Plan) << "n=" << N << " over " << P;
      for (unsigned D = 0; D < P; ++D) {
        Range Own = handWrittenBlock(N, P, D);
        EXPECT_EQ(indicesRun(K, *Plan, D), intersection(range(1, N - 1), Own))
            << "n=" << N << " device " << D << " of " << P;
      }
    }
}

// Iterations whose element lies beyond every part go to the nearest
// device: those before the first part to the first device, those after the
// last to the last.
TEST(KernelPlan, OwnerComputesGivesTheLeftoverEndsToTheEndDevices) {
  for (unsigned P = 1; P <= 4; ++P) {
    // for (i = -2; i < 12; i++) ... x[i] ..., x BLOCK over [0, 10) with a
    // periodic halo of 2.
    Kernel K({upTo(-2, 12)}, {Block}, Topology::line(P));
    K.array("x", {Block}, {{0, 10}}, {{2, 2, Edge::Periodic, Edge::Periodic}})
        .access("x", {at()}, false);
    std::optional<KernelPlan> Plan = plan(K);
    ASSERT_TRUE(Plan) << P;
    for (unsigned D = 0; D < P; ++D) {
      std::set<int64_t> Want =
          intersection(range(0, 10), handWrittenBlock(10, P, D));
      if (D == 0)
        Want.insert({-2, -1});
      if (D == P - 1)
        Want.insert({10, 11});
      EXPECT_EQ(indicesRun(K, *Plan, D), Want) << "device " << D << " of " << P;
    }
  }
}

// Iterations between two parts go to the device owning the part before
// them.
TEST(KernelPlan, OwnerComputesGivesAGapToTheDeviceBeforeIt) {
  // A data region's x whose parts leave 4 .. 7 to no one; its halo holds
  // them.
  Distribution X =
      residentBlock({10, 11, 12}, {{0, 4}, {8, 10}, {10, 12}}, {0, 12});
  X.Halos[0] = {4, 4, Edge::None, Edge::None};
  Kernel K({upTo(0, 12)}, {Block}, Topology::line(3));
  K.access("x", {at()}, false, &X);
  std::optional<KernelPlan> Plan = plan(K);
  ASSERT_TRUE(Plan);
  EXPECT_EQ(indicesRun(K, *Plan, 0), range(0, 8));
  EXPECT_EQ(indicesRun(K, *Plan, 1), range(8, 10));
  EXPECT_EQ(indicesRun(K, *Plan, 2), range(10, 12));
}

// A 1-D x over a 2x2 grid leads loop 0; its leftover last iteration goes to
// both devices of the last row, which split loop 1 between them.
TEST(KernelPlan, AGapGoesToEveryDeviceOwningThePartBeforeIt) {
  Kernel K({upTo(0, 8), upTo(0, 6)}, {Block, Block}, Topology{{2, 2}});
  K.array("x", {Block}, {{0, 8}}, {{0, 1, Edge::None, Edge::Periodic}})
      .access("x", {at(+1)}, false);
  std::optional<KernelPlan> Plan = plan(K);
  ASSERT_TRUE(Plan);
  for (unsigned D = 0; D < 4; ++D) {
    EXPECT_EQ(indicesRun(K, *Plan, D, 0), D < 2 ? range(0, 3) : range(3, 8))
        << D;
    EXPECT_EQ(Plan->Work[D].Iterations.Dims[1],
              IndexSet(handWrittenBlock(6, 2, D % 2)))
        << D;
  }
}

// y[i] = x[i + 1]: the device owning x[i + 1] runs iteration i; iteration
// n - 1, whose x[n] only the periodic halo holds, goes to the last device.
TEST(KernelPlan, OwnerComputesFollowsTheOffsetOfTheSubscript) {
  const int64_t N = 13;
  for (unsigned P = 1; P <= 4; ++P) {
    Kernel K({upTo(0, N)}, {Block}, Topology::line(P));
    K.array("x", {Block}, {{0, N}}, {{0, 1, Edge::None, Edge::Periodic}})
        .access("x", {at(+1)}, false);
    std::optional<KernelPlan> Plan = plan(K);
    ASSERT_TRUE(Plan) << P;
    for (unsigned D = 0; D < P; ++D) {
      Range Own = handWrittenBlock(N, P, D);
      std::set<int64_t> Want =
          intersection(range(Own.Begin - 1, Own.End - 1), Range{0, N});
      if (D == P - 1)
        Want.insert(N - 1);
      EXPECT_EQ(indicesRun(K, *Plan, D), Want) << "device " << D << " of " << P;
    }
  }
}

// y[i] = x[i + 1] with x mapped as x[1:n]: the body uses x at a constant
// offset only, and the plan follows it (it was refused once).
TEST(KernelPlan, AnAccessAtAConstantOffsetOnlyPlans) {
  const int64_t N = 17;
  for (unsigned P = 1; P <= 5; ++P) {
    Kernel K({upTo(0, N)}, {Block}, Topology::line(P));
    K.array("x", {Block}, {{1, N + 1}})
        .array("y", {Full}, {{0, N}})
        .access("y", {at()}, true)
        .access("x", {at(+1)}, false);
    std::optional<KernelPlan> Plan = plan(K);
    ASSERT_TRUE(Plan) << P;
    for (unsigned D = 0; D < P; ++D)
      EXPECT_EQ(indicesRun(K, *Plan, D), range(handWrittenBlock(N, P, D).Begin,
                                               handWrittenBlock(N, P, D).End))
          << "device " << D << " of " << P;
  }
}

// The same with y distributed too: the written array leads, and x's parts
// are exactly what the shifted reads need.
TEST(KernelPlan, TheWrittenArrayLeadsOwnerComputes) {
  const int64_t N = 17;
  for (unsigned P = 1; P <= 5; ++P) {
    Kernel K({upTo(0, N)}, {Block}, Topology::line(P));
    K.array("x", {Block}, {{1, N + 1}})
        .array("y", {Block}, {{0, N}})
        .access("x", {at(+1)}, false)
        .access("y", {at()}, true);
    std::optional<KernelPlan> Plan = plan(K);
    ASSERT_TRUE(Plan) << P;
    for (unsigned D = 0; D < P; ++D)
      EXPECT_EQ(Plan->Work[D].Iterations.Dims[0],
                IndexSet(handWrittenBlock(N, P, D)));
  }
}

// Random loops over x BLOCK on [0, n), x[i] written: each device runs the
// iterations whose index it owns.
TEST(KernelPlan, OwnerComputesForLoopsOfEveryShape) {
  Random R(41);
  for (int Case = 0; Case < 400; ++Case) {
    int64_t N = R.between(1, 40);
    unsigned P = static_cast<unsigned>(R.between(1, 6));
    // A loop from First to Last, both in [0, n), either way, with any
    // comparison that fits the direction.
    int64_t First = R.between(0, N - 1), Last = R.between(0, N - 1);
    bool Up = First <= Last;
    int64_t Step = R.between(1, 3) * (Up ? 1 : -1);
    LoopBounds L;
    switch (R.between(0, 2)) {
    case 0:
      L = loop(First, Up ? CompareOp::Less : CompareOp::Greater,
               Up ? Last + 1 : Last - 1, Step);
      break;
    case 1:
      L = loop(First, Up ? CompareOp::LessEqual : CompareOp::GreaterEqual, Last,
               Step);
      break;
    default:
      L = loop(First, CompareOp::NotEqual, Up ? Last + 1 : Last - 1,
               Up ? 1 : -1);
    }
    ASSERT_TRUE(tripCount(L)) << describe(L);
    Kernel K({L}, {Block}, Topology::line(P));
    K.array("x", {Block}, {{0, N}}).access("x", {at()}, true);
    std::optional<KernelPlan> Plan = plan(K);
    ASSERT_TRUE(Plan) << describe(L) << " n=" << N << " over " << P;
    std::vector<int64_t> Idx = *runLoop(L);
    for (unsigned D = 0; D < P; ++D)
      EXPECT_EQ(indicesRun(K, *Plan, D),
                intersection(std::set<int64_t>(Idx.begin(), Idx.end()),
                             handWrittenBlock(N, P, D)))
          << describe(L) << " n=" << N << " device " << D << " of " << P;
  }
}

TEST(KernelPlan, CyclicLoopFollowsACyclicArrayOfTheSameBlock) {
  const int64_t N = 29;
  for (unsigned P = 1; P <= 4; ++P) {
    // The loop starts at 2: dealing its own iterations would differ.
    Kernel K({upTo(2, N)}, {Cyclic}, Topology::line(P), {3, 0, 0});
    K.array("x", {Cyclic}, {{0, N}}, {}, {3, 0, 0}).access("x", {at()}, true);
    std::optional<KernelPlan> Plan = plan(K);
    ASSERT_TRUE(Plan) << P;
    for (unsigned D = 0; D < P; ++D) {
      std::set<int64_t> Want;
      for (int64_t I = 2; I < N; ++I)
        if (cyclicOwner(I, 3, P) == D)
          Want.insert(I);
      EXPECT_EQ(indicesRun(K, *Plan, D), Want) << "device " << D << " of " << P;
    }
  }
}

// A CYCLIC(3) loop does not follow a CYCLIC(2) array: it deals its own
// iterations, which then use elements their devices do not hold.
TEST(KernelPlan, CyclicLoopDoesNotFollowAnArrayOfAnotherBlock) {
  Kernel K({upTo(0, 12)}, {Cyclic}, Topology::line(2), {3, 0, 0});
  K.array("x", {Cyclic}, {{0, 12}}, {}, {2, 0, 0}).access("x", {at()}, true);
  EXPECT_EQ(refusal(K), "device 10 would use elements {[0, 3), [6, 9)} of "
                        "'x' but holds only {[0, 2), [4, 6), [8, 10)}");
  // Nor a BLOCK loop a CYCLIC array.
  Kernel B({upTo(0, 12)}, {Block}, Topology::line(2));
  B.array("x", {Cyclic}, {{0, 12}}, {}, {2, 0, 0}).access("x", {at()}, true);
  EXPECT_EQ(refusal(B), "device 10 would use elements [0, 6) of 'x' but "
                        "holds only {[0, 2), [4, 6), [8, 10)}");
}

// A loop the program gave no policy follows the array whatever its kind:
// CYCLIC(2) and BLOCK(3) dealt round-robin, against brute force, over 1 to
// 4 devices; the program's own BLOCK loop does not (above).
TEST(KernelPlan, ALoopWithoutAPolicyFollowsAnArrayDealtRoundRobin) {
  const int64_t N = 23;
  for (int64_t B : {2, 3})
    for (unsigned P = 1; P <= 4; ++P) {
      Kernel K({upTo(0, N)}, {Block}, Topology::line(P));
      K.Desc.Loops[0].NoPolicy = true;
      K.array("x", {Cyclic}, {{0, N}}, {}, {B, 0, 0}).access("x", {at()}, true);
      std::optional<KernelPlan> Plan = plan(K);
      ASSERT_TRUE(Plan) << B << " " << P;
      for (unsigned D = 0; D < P; ++D) {
        std::set<int64_t> Want;
        for (int64_t I = 0; I < N; ++I)
          if (cyclicOwner(I, B, P) == D)
            Want.insert(I);
        EXPECT_EQ(indicesRun(K, *Plan, D), Want)
            << "block " << B << ", device " << D << " of " << P;
      }
    }
}

//===----------------------------------------------------------------------===//
// Footprints and halos
//===----------------------------------------------------------------------===//

// x[i-1] + x[i+1] needs one element of x on each side of a device's part:
// an array of the kernel's own that the loop only reads gets them copied in
// (a read halo), over 1 to 6 devices; one it writes is refused (another
// device owns those elements).
TEST(KernelPlan, AStencilWithoutAHaloReadsAroundItsParts) {
  for (unsigned P = 1; P <= 6; ++P) {
    Kernel K({upTo(1, 19)}, {Block}, Topology::line(P));
    K.array("x", {Block}, {{0, 20}})
        .array("y", {Block}, {{0, 20}})
        .access("x", {linear(0, -1, 1)}, false)
        .access("y", {at()}, true);
    std::optional<KernelPlan> Plan = plan(K);
    ASSERT_TRUE(Plan) << P;
    for (unsigned D = 0; D < P; ++D) {
      const Range Part = handWrittenBlock(20, P, D);
      std::set<int64_t> Held;
      for (int64_t I = Part.Begin; I < Part.End; ++I)
        for (int64_t J = I - 1; J <= I + 1; ++J)
          if (J >= 0 && J < 20)
            Held.insert(J);
      std::set<int64_t> Got;
      Plan->Items[0].held(D).forEachBox([&](const Box &B) {
        for (int64_t I = B.Dims[0].Begin; I < B.Dims[0].End; ++I)
          Got.insert(I);
      });
      EXPECT_EQ(Got, Held) << "device " << D << " of " << P;
      EXPECT_EQ(Plan->Items[0].Owned[D].Dims[0],
                IndexSet(handWrittenBlock(20, P, D)));
      EXPECT_EQ(indicesRun(K, *Plan, D),
                intersection(range(1, 19), handWrittenBlock(20, P, D)));
    }
    if (P > 1) {
      ASSERT_EQ(Plan->WidenedNotes.size(), 1u);
      EXPECT_EQ(Plan->WidenedNotes[0],
                "each device also gets the elements of 'x' it reads around "
                "its part (a read halo of 1:1)");
    }
  }
  Kernel W({upTo(1, 19)}, {Block}, Topology::line(4));
  W.array("x", {Block}, {{0, 20}}).access("x", {linear(0, -1, 1)}, true);
  EXPECT_EQ(refusal(W),
            "device 10 would use elements [0, 6) of 'x' but holds only "
            "[0, 5); the loop uses 'x' at offsets -1..1 of its index and its "
            "halo there is 0:0 wide");
}

TEST(KernelPlan, AStencilWithAHaloPlans) {
  for (unsigned P = 1; P <= 6; ++P) {
    Kernel K({upTo(1, 19)}, {Block}, Topology::line(P));
    K.array("x", {Block}, {{0, 20}}, {{1, 1, Edge::None, Edge::None}})
        .array("y", {Block}, {{0, 20}})
        .access("x", {linear(0, -1, 1)}, false)
        .access("y", {at()}, true);
    std::optional<KernelPlan> Plan = plan(K);
    ASSERT_TRUE(Plan) << P;
    for (unsigned D = 0; D < P; ++D)
      EXPECT_EQ(indicesRun(K, *Plan, D),
                intersection(range(1, 19), handWrittenBlock(20, P, D)));
  }
}

// Owner computes with an array on devices 11 and 12 only: the others run
// nothing.
TEST(KernelPlan, ArraysOnSomeDevicesGiveTheLoopToThem) {
  Kernel K({upTo(0, 20)}, {Block}, Topology::line(4));
  K.array("x", {Block}, {{0, 20}}).only({12, 11}).access("x", {at()}, true);
  std::optional<KernelPlan> Plan = plan(K);
  ASSERT_TRUE(Plan);
  EXPECT_TRUE(indicesRun(K, *Plan, 0).empty());
  EXPECT_EQ(indicesRun(K, *Plan, 1), range(0, 10));
  EXPECT_EQ(indicesRun(K, *Plan, 2), range(10, 20));
  EXPECT_TRUE(indicesRun(K, *Plan, 3).empty());
}

// A duplicate that a device running iterations does not hold is refused,
// whatever its subscripts.
TEST(KernelPlan, ADeviceRunningIterationsWithoutTheArrayIsRefused) {
  Kernel K({upTo(0, 20)}, {Block}, Topology::line(2));
  K.array("y", {Block}, {{0, 20}})
      .array("w", {Full}, {{0, 7}})
      .only({11})
      .access("y", {at()}, true)
      .access("w", {Subscript()}, false);
  EXPECT_EQ(refusal(K), "device 10 runs iterations of this kernel but holds "
                        "no part of 'w'");
}

// A split array some devices hold nothing of (1 element over 4 devices)
// is fine where their iterations use none of it (past its section: the
// body guards them).
TEST(KernelPlan, DevicesHoldingNoneOfASplitArrayMayRunOtherIterations) {
  Kernel K({upTo(0, 8)}, {Block}, Topology::line(4));
  K.array("y", {Block}, {{0, 8}})
      .array("x", {Block}, {{0, 1}})
      .access("y", {at()}, true)
      .access("x", {at()}, false);
  // (plan() would check every use against the parts, guards unseen.)
  KernelPlanInput In = K.input();
  KernelPlan Plan;
  std::string Error;
  ASSERT_TRUE(planKernel(In, Plan, Error)) << Error;
  EXPECT_EQ(indicesRun(K, Plan, 3), range(6, 8));
}

// A loop past the section of an array it writes would write outside the
// devices' storage: refused, for split and duplicated arrays. Reading there
// is allowed (the body may guard it, above).
TEST(KernelPlan, WritingPastTheMappedSectionIsRefused) {
  for (Policy X : {Block, Full}) {
    Kernel K({upTo(0, 20)}, {Block}, Topology::line(2));
    K.array("x", {X}, {{5, 10}}).access("x", {at()}, true);
    EXPECT_EQ(refusal(K), "device 10 would use elements [0, 5) of 'x', "
                          "outside the section [5, 10) the construct maps: "
                          "the loop runs past it");
  }
  // A stencil reaching one past the ends is not refused for that.
  Kernel K({upTo(0, 10)}, {Block}, Topology::line(2));
  K.array("x", {Block}, {{0, 10}}, {{1, 1, Edge::None, Edge::None}})
      .access("x", {linear(0, -1, 1)}, true);
  K.Desc.Accesses.back().Writes[0] = at(); // 'x[i] = x[i - 1] + x[i + 1]'
  // (plan() would check every use against the parts, guards unseen.)
  KernelPlanInput In = K.input();
  KernelPlan Plan;
  std::string Error;
  EXPECT_TRUE(planKernel(In, Plan, Error)) << Error;
}

TEST(KernelPlan, TheRefusalNamesTheHaloWidths) {
  Kernel K({upTo(0, 19)}, {Block}, Topology::line(2));
  K.array("x", {Block}, {{0, 20}}, {{1, 0, Edge::None, Edge::None}})
      .access("x", {linear(0, -1, 1)}, true);
  EXPECT_EQ(refusal(K),
            "device 10 would use elements [0, 11) of 'x' but holds only "
            "[0, 10); the loop uses 'x' at offsets -1..1 of its index and its "
            "halo there is 1:0 wide");
  // Only read, the halo widens on the side it was short.
  Kernel R({upTo(1, 19)}, {Block}, Topology::line(2));
  R.array("x", {Block}, {{0, 20}}, {{1, 0, Edge::None, Edge::None}})
      .array("y", {Block}, {{0, 20}})
      .access("x", {linear(0, -1, 1)}, false)
      .access("y", {at()}, true);
  std::optional<KernelPlan> Plan = plan(R);
  ASSERT_TRUE(Plan);
  EXPECT_EQ(Plan->Items[0].Halos[0].Left, 1);
  EXPECT_EQ(Plan->Items[0].Halos[0].Right, 1);
}

// for (i = 0; i < 12; i += 2) x[i] = ...; with x CYCLIC(1) and the loop
// CYCLIC(1) too: device 0 owns every element the loop touches, though not
// the odd ones between them.
TEST(KernelPlan, AStridedLoopNeedsOnlyTheElementsItTouches) {
  Kernel K({loop(0, CompareOp::Less, 12, 2)}, {Cyclic}, Topology::line(2),
           {1, 0, 0});
  K.array("x", {Cyclic}, {{0, 12}}, {}, {1, 0, 0}).access("x", {at()}, true);
  std::optional<KernelPlan> Plan = plan(K);
  ASSERT_TRUE(Plan);
  EXPECT_EQ(indicesRun(K, *Plan, 0), (std::set<int64_t>{0, 2, 4, 6, 8, 10}));
  EXPECT_TRUE(indicesRun(K, *Plan, 1).empty());
  // x[i + 1] is on the other device: read there, device 0 gets those
  // elements too (a read halo; written, it would be refused, as any write
  // of elements another device owns).
  Kernel L({loop(0, CompareOp::Less, 12, 2)}, {Cyclic}, Topology::line(2),
           {1, 0, 0});
  L.array("x", {Cyclic}, {{0, 12}}, {}, {1, 0, 0})
      .array("y", {Cyclic}, {{0, 12}}, {}, {1, 0, 0})
      .access("y", {at()}, true)
      .access("x", {at(+1)}, false);
  std::optional<KernelPlan> Read = plan(L);
  ASSERT_TRUE(Read);
  for (int64_t I : {1, 3, 5, 7, 9, 11})
    EXPECT_TRUE(Read->Items[0].held(0).Dims[0].contains(I)) << I;
}

// A strided stencil over a BLOCK array with a halo: checked element by
// element, devices on every side.
TEST(KernelPlan, AStridedStencilWithAHaloPlans) {
  for (unsigned P = 1; P <= 5; ++P) {
    Kernel K({loop(1, CompareOp::Less, 29, 3)}, {Block}, Topology::line(P));
    K.array("x", {Block}, {{0, 30}}, {{1, 1, Edge::None, Edge::None}})
        .array("y", {Block}, {{0, 30}})
        .access("x", {linear(0, -1, 1)}, false)
        .access("y", {at()}, true);
    ASSERT_TRUE(plan(K)) << P;
  }
}

// What homp cannot bound it does not guess: an array of the kernel read
// at a subscript the plugin could not read is whole on every device.
TEST(KernelPlan, AnArrayReadAtAnUnknownSubscriptIsWhole) {
  Kernel K({upTo(0, 20)}, {Block}, Topology::line(4));
  K.array("x", {Block}, {{0, 20}})
      .array("y", {Block}, {{0, 20}})
      .access("x", {Subscript()}, false)
      .access("y", {at()}, true);
  std::optional<KernelPlan> Plan = plan(K);
  ASSERT_TRUE(Plan);
  EXPECT_TRUE(Plan->Items[0].Whole);
  EXPECT_FALSE(Plan->Items[1].Whole);
  for (unsigned D = 0; D < 4; ++D) {
    EXPECT_EQ(Plan->Items[0].held(D), ProductSet::of(Box{1, {Range{0, 20}}}));
    EXPECT_EQ(Plan->Items[0].Owned[D].Dims[0],
              IndexSet(handWrittenBlock(20, 4, D)));
  }
  ASSERT_EQ(Plan->WidenedNotes.size(), 1u);
  EXPECT_NE(Plan->WidenedNotes[0].find("'x'"), std::string::npos);
}

// Written there, the kernel runs on one device, where every array is
// whole; with a resident array among its arrays, on the host.
TEST(KernelPlan, AnArrayWrittenAtAnUnknownSubscriptRunsOnOneDevice) {
  Kernel K({upTo(0, 20)}, {Block}, Topology::line(4));
  K.array("y", {Block}, {{0, 20}}).access("y", {Subscript()}, true);
  K.Desc.Accesses.back().Why = "subscript 'idx[i]' is not 'i' plus ...";
  KernelPlanInput In = K.input();
  KernelPlan Plan;
  std::string Error;
  ASSERT_TRUE(planKernel(In, Plan, Error)) << Error;
  EXPECT_EQ(Plan.Placement, KernelPlan::OneDevice);
  EXPECT_EQ(Plan.Why, "homp cannot bound the elements of 'y' the loop uses "
                      "(subscript 'idx[i]' is not 'i' plus ...), and the loop "
                      "writes it");
  // On one device, it runs.
  Kernel One({upTo(0, 20)}, {Block}, Topology::line(1));
  One.array("y", {Block}, {{0, 20}}).access("y", {Subscript()}, true);
  EXPECT_TRUE(plan(One));
  Distribution X = residentBlock({10, 11, 12, 13},
                                 {{0, 5}, {5, 10}, {10, 15}, {15, 20}}, {0, 20});
  K.access("x", {at()}, false, &X);
  EXPECT_NE(onHost(K).find("the loop writes it"), std::string::npos);
}

// A device whose part and halo hold the whole array may read it anywhere,
// but not write it anywhere: its halo cells are another device's (a loop
// on one device wrote them, and the writes were lost; found by the
// differential tester).
TEST(KernelPlan, AnUnknownWriteNeedsTheWholeArrayOwned) {
  Distribution X = residentBlock({10, 11}, {{0, 3}, {3, 5}}, {0, 5});
  X.Halos[0] = {2, 2, Edge::None, Edge::None};
  Kernel Read({upTo(0, 3)}, {Block}, Topology::line(2));
  Read.array("y", {Block}, {{0, 3}}).access("y", {at()}, true);
  Read.access("x", {Subscript()}, false, &X);
  KernelPlanInput In = Read.input();
  In.Devices = {10, 11};
  // Device 10 alone runs (y's parts follow x's first), holding all of x.
  KernelPlan P;
  std::string Error;
  ASSERT_TRUE(planKernel(In, P, Error)) << Error;
  Kernel Write({upTo(0, 3)}, {Block}, Topology::line(2));
  Write.access("x", {Subscript()}, true, &X);
  EXPECT_NE(onHost(Write).find("homp cannot bound the elements of 'x'"),
            std::string::npos);
}

// An index the same in every iteration ('x[c]') is checked as one element:
// read by devices that do not hold it, an array of the kernel is whole on
// every device (no halo would hold it), a resident one makes the kernel
// run on the host; written there by several devices, it is refused.
TEST(KernelPlan, AnInvariantSubscriptIsCheckedAsItsElements) {
  Subscript S;
  S.Kind = Subscript::Invariant;
  S.Min = S.Max = 3;
  Kernel K({upTo(0, 20)}, {Block}, Topology::line(4));
  K.array("x", {Block}, {{0, 20}})
      .array("y", {Block}, {{0, 20}})
      .access("x", {S}, false)
      .access("y", {at()}, true);
  std::optional<KernelPlan> Plan = plan(K);
  ASSERT_TRUE(Plan);
  EXPECT_TRUE(Plan->Items[0].Whole);
  ASSERT_EQ(Plan->WidenedNotes.size(), 1u);
  EXPECT_EQ(Plan->WidenedNotes[0], "device 11 would use elements [3, 4) of 'x' "
                                   "but holds only [5, 10): every device holds "
                                   "all of 'x'");
  Distribution X = residentBlock({10, 11, 12, 13},
                                 {{0, 5}, {5, 10}, {10, 15}, {15, 20}}, {0, 20});
  Kernel R({upTo(0, 20)}, {Block}, Topology::line(4));
  R.array("y", {Block}, {{0, 20}}).access("y", {at()}, true).access(
      "x", {S}, false, &X);
  EXPECT_EQ(onHost(R).rfind("device 11 would use elements [3, 4) of 'x'", 0),
            0u);
  Kernel W({upTo(0, 20)}, {Block}, Topology::line(4));
  W.array("x", {Block}, {{0, 20}}).access("x", {S}, true);
  EXPECT_EQ(refusal(W), "device 11 would use elements [3, 4) of 'x' but holds "
                        "only [5, 10)");
  Kernel One({upTo(0, 20)}, {Block}, Topology::line(1));
  One.array("x", {Block}, {{0, 20}}).access("x", {S}, false);
  EXPECT_TRUE(plan(One));
}

// An access whose inner loop runs no iteration (offsets Min > Max, from
// run-time bounds) touches nothing.
TEST(KernelPlan, AnAccessWithAnEmptyRangeTouchesNothing) {
  Kernel K({upTo(0, 20)}, {Block}, Topology::line(2));
  K.array("y", {Block}, {{0, 20}})
      .access("y", {at()}, true)
      .access("x", {linear(0, 3, 2)}, false);
  Distribution X = residentBlock({10, 11}, {{0, 10}, {10, 20}}, {0, 20});
  K.Residents.back().Dist = &X;
  EXPECT_TRUE(plan(K));
}

//===----------------------------------------------------------------------===//
// ALIGN
//===----------------------------------------------------------------------===//

TEST(KernelPlan, ALoopAlignedWithAnArrayRunsItsParts) {
  for (unsigned P = 1; P <= 4; ++P) {
    Kernel K({upTo(0, 14)}, {alignTo("x")}, Topology::line(P));
    K.array("x", {Cyclic}, {{0, 14}}, {}, {2, 0, 0});
    std::optional<KernelPlan> Plan = plan(K);
    ASSERT_TRUE(Plan) << P;
    for (unsigned D = 0; D < P; ++D)
      EXPECT_EQ(Plan->Work[D].Iterations.Dims[0],
                Plan->Items[0].Owned[D].Dims[0])
          << "device " << D << " of " << P;
  }
}

// ALIGN(x, 2): element j of x goes with indices 2j and 2j + 1.
TEST(KernelPlan, ALoopAlignedWithARatio) {
  Kernel K({upTo(0, 20)}, {alignTo("x", 2)}, Topology::line(3));
  K.array("x", {Block}, {{0, 10}});
  std::optional<KernelPlan> Plan = plan(K);
  ASSERT_TRUE(Plan);
  for (unsigned D = 0; D < 3; ++D) {
    Range Own = handWrittenBlock(10, 3, D);
    EXPECT_EQ(indicesRun(K, *Plan, D), range(2 * Own.Begin, 2 * Own.End)) << D;
  }
}

// A loop aligned with x that the body reads at x[i + 1] runs the
// iterations whose x[i + 1] the device owns.
TEST(KernelPlan, ALoopAlignedWithAnArrayFollowsItsSubscript) {
  Kernel K({upTo(0, 11)}, {alignTo("x")}, Topology::line(3));
  K.array("x", {Block}, {{0, 12}}).access("x", {at(+1)}, false);
  std::optional<KernelPlan> Plan = plan(K);
  ASSERT_TRUE(Plan);
  EXPECT_EQ(indicesRun(K, *Plan, 0), range(0, 3));
  EXPECT_EQ(indicesRun(K, *Plan, 1), range(3, 7));
  EXPECT_EQ(indicesRun(K, *Plan, 2), range(7, 11));
}

// Arrays aligned with the loop own the indices their device runs.
TEST(KernelPlan, ArraysAlignedWithTheLoopHoldTheirDevicesIndices) {
  for (const LoopBounds &L :
       {upTo(0, 23), loop(22, CompareOp::GreaterEqual, 0, -1),
        loop(3, CompareOp::NotEqual, 20, 1)})
    for (unsigned P = 1; P <= 5; ++P) {
      Kernel K({L}, {Block}, Topology::line(P));
      K.array("y", {alignToLoop()}, {{0, 23}}).access("y", {at()}, true);
      std::optional<KernelPlan> Plan = plan(K);
      ASSERT_TRUE(Plan) << describe(L);
      for (unsigned D = 0; D < P; ++D)
        EXPECT_EQ(members(Plan->Items[0].Owned[D].Dims[0]),
                  members(setOf(indicesRun(K, *Plan, D))))
            << describe(L) << " device " << D << " of " << P;
    }
}

TEST(KernelPlan, ArraysAlignedWithACollapsedNestHoldItsRectangles) {
  Kernel K({upTo(0, 6), upTo(0, 8)}, {Block, Block}, Topology{{2, 2}});
  K.array("u", {alignToLoop(), alignToLoop()}, {{0, 6}, {0, 8}})
      .access("u", {at(0, 0), at(0, 1)}, true);
  std::optional<KernelPlan> Plan = plan(K);
  ASSERT_TRUE(Plan);
  for (unsigned D = 0; D < 4; ++D) {
    EXPECT_EQ(Plan->Items[0].Owned[D].Dims[0],
              IndexSet(handWrittenBlock(6, 2, D / 2)));
    EXPECT_EQ(Plan->Items[0].Owned[D].Dims[1],
              IndexSet(handWrittenBlock(8, 2, D % 2)));
  }
}

// y ALIGN(x) listed before x: arrays are distributed in whatever order
// their alignments allow.
TEST(KernelPlan, ArraysAlignWithArraysListedAfterThem) {
  Kernel K({upTo(0, 12)}, {Block}, Topology::line(3));
  K.array("y", {alignTo("x")}, {{0, 12}})
      .array("x", {Block}, {{0, 12}})
      .access("y", {at()}, true);
  std::optional<KernelPlan> Plan = plan(K);
  ASSERT_TRUE(Plan);
  for (unsigned D = 0; D < 3; ++D)
    EXPECT_EQ(Plan->Items[0].Owned[D], Plan->Items[1].Owned[D]) << D;
}

TEST(KernelPlan, ALoopAlignedWithItselfIsRefused) {
  Kernel K({upTo(0, 12)}, {alignToLoop()}, Topology::line(3));
  EXPECT_EQ(refusal(K), "loop 0 of the nest is aligned with itself");
}

TEST(KernelPlan, ALoopAlignedWithNothingKnownIsRefused) {
  Kernel K({upTo(0, 12)}, {alignTo("nowhere")}, Topology::line(3));
  EXPECT_EQ(refusal(K),
            "the loop is aligned with 'nowhere', which is neither a "
            "distributed array it can follow nor a labelled loop of an "
            "enclosing data region");
}

//===----------------------------------------------------------------------===//
// Topologies and collapsed nests
//===----------------------------------------------------------------------===//

// collapse(2) with BLOCK, BLOCK over a 2x2 topology: each device runs a
// rectangle, with or without an array to follow.
TEST(KernelPlan, CollapsedBlockBlockOverATwoByTwoGivesRectangles) {
  for (bool WithArray : {false, true}) {
    Kernel K({upTo(0, 7), loop(9, CompareOp::Greater, 0, -1)}, {Block, Block},
             Topology{{2, 2}});
    if (WithArray)
      K.array("a", {Block, Block}, {{0, 7}, {1, 10}})
          .access("a", {at(0, 0), at(0, 1)}, true);
    std::optional<KernelPlan> Plan = plan(K);
    ASSERT_TRUE(Plan);
    for (unsigned D = 0; D < 4; ++D) {
      const ProductSet &It = Plan->Work[D].Iterations;
      EXPECT_EQ(It.boxCount(), 1u) << "a rectangle";
      EXPECT_EQ(It.Dims[0], IndexSet(handWrittenBlock(7, 2, D / 2)));
      // Loop 1 runs down from 9: its iterations follow the array's index
      // order without it, and are the same ones.
      std::set<int64_t> Cols = indicesRun(K, *Plan, D, 1);
      Range Own = handWrittenBlock(9, 2, D % 2);
      EXPECT_EQ(Cols, WithArray ? range(1 + Own.Begin, 1 + Own.End)
                                : range(9 - Own.End + 1, 9 - Own.Begin + 1))
          << D;
      EXPECT_EQ(Plan->Work[D].Pieces.size(), 1u);
    }
  }
}

// An inner loop the program gave no policy (abi::Loop::Implicit) follows
// the array split along it: a data region's 2-D blocks over 2x2 devices,
// used by a kernel over the line of the same four devices ('device(*)'),
// where dist_iteration(BLOCK, BLOCK) would need two topology dimensions.
TEST(KernelPlan, AnImplicitInnerLoopFollowsTheArraySplitAlongIt) {
  Distribution A;
  A.Shape.Rank = 2;
  A.Shape.ElementSize = 8;
  A.Shape.Extent[1] = 9;
  A.Shape.Section.Rank = 2;
  A.Shape.Section.Dims[0] = {0, 7};
  A.Shape.Section.Dims[1] = {0, 9};
  A.Devices = {10, 11, 12, 13};
  for (unsigned D = 0; D < 4; ++D) {
    ProductSet P;
    P.Rank = 2;
    P.Dims[0] = IndexSet(handWrittenBlock(7, 2, D / 2));
    P.Dims[1] = IndexSet(handWrittenBlock(9, 2, D % 2));
    A.Owned.push_back(P);
  }
  A.Split[0] = A.Split[1] = true;
  A.Kinds[0] = A.Kinds[1] = Policy::Block;
  for (bool Implicit : {false, true}) {
    Kernel K({upTo(0, 7), upTo(0, 9)}, {Block, Implicit ? Block : Full},
             Topology::line(4));
    K.Desc.Loops[1].Implicit = Implicit;
    K.access("a", {at(0, 0), at(0, 1)}, true, &A);
    if (!Implicit) {
      // The inner loop whole on each device: two run each iteration.
      EXPECT_EQ(refusal(K), "devices 10 and 11 would both run some "
                            "iterations: the arrays its loops follow are "
                            "split in more dimensions than the nest splits "
                            "loops (a FULL loop over a split dimension?)");
      continue;
    }
    std::optional<KernelPlan> Plan = plan(K);
    ASSERT_TRUE(Plan);
    for (unsigned D = 0; D < 4; ++D) {
      EXPECT_EQ(indicesRun(K, *Plan, D, 0),
                rangeOf(handWrittenBlock(7, 2, D / 2)));
      EXPECT_EQ(indicesRun(K, *Plan, D, 1),
                rangeOf(handWrittenBlock(9, 2, D % 2)));
    }
  }
}

// Two implicit loops following resident arrays split along the same line
// of devices (b by rows, a by columns) would meet on a diagonal: refused,
// naming the loops and the topology.
TEST(KernelPlan, ImplicitLoopsFollowingSplitsOnOneLineAreRefused) {
  auto Resident = [](unsigned SplitDim) {
    Distribution X;
    X.Shape.Rank = 2;
    X.Shape.ElementSize = 8;
    X.Shape.Extent[1] = 8;
    X.Shape.Section.Rank = 2;
    X.Shape.Section.Dims[0] = {0, 8};
    X.Shape.Section.Dims[1] = {0, 8};
    X.Devices = {10, 11};
    for (unsigned D = 0; D < 2; ++D) {
      ProductSet P = ProductSet::of(X.Shape.Section);
      P.Dims[SplitDim] = IndexSet(handWrittenBlock(8, 2, D));
      X.Owned.push_back(P);
    }
    X.Split[SplitDim] = true;
    X.Kinds[SplitDim] = Policy::Block;
    return X;
  };
  const Distribution A = Resident(1), B = Resident(0);
  Kernel K({upTo(0, 8), upTo(0, 8)}, {Block, Block}, Topology::line(2));
  K.Desc.Loops[0].Implicit = K.Desc.Loops[1].Implicit = true;
  K.Desc.Loops[0].NoPolicy = K.Desc.Loops[1].NoPolicy = true;
  K.access("b", {at(0, 0), at(0, 1)}, true, &B);
  K.access("a", {at(0, 0), at(0, 1)}, false, &A);
  EXPECT_EQ(refusal(K),
            "32 iterations would run on no device: loops 0 and 1 of the nest "
            "are both split (by their policies or the arrays they follow) over "
            "a 1-dimensional topology (2), so each device runs only the "
            "iterations where its parts of them meet");
}

// Without an array split along it, it runs whole on every device and takes
// no dimension of the topology.
TEST(KernelPlan, AnImplicitInnerLoopWithoutASplitArrayRunsWhole) {
  Kernel K({upTo(0, 8), upTo(0, 5)}, {Block, Block}, Topology::line(2));
  K.Desc.Loops[1].Implicit = true;
  K.array("a", {Block, Full}, {{0, 8}, {0, 5}})
      .access("a", {at(0, 0), at(0, 1)}, true);
  std::optional<KernelPlan> Plan = plan(K);
  ASSERT_TRUE(Plan);
  for (unsigned D = 0; D < 2; ++D) {
    EXPECT_EQ(indicesRun(K, *Plan, D, 0), rangeOf(handWrittenBlock(8, 2, D)));
    EXPECT_EQ(indicesRun(K, *Plan, D, 1), range(0, 5));
  }
}

// Loop 0 without a policy is implicit too when an inner loop is (the
// plugin marks both): over an array split by columns only, the rows run
// whole and the columns follow the array, on a line of 4 devices.
TEST(KernelPlan, AnImplicitOuterLoopRunsWholeWhenOnlyColumnsAreSplit) {
  Kernel K({upTo(0, 9), upTo(0, 7)}, {Block, Block}, Topology::line(4));
  K.Desc.Loops[0].Implicit = K.Desc.Loops[1].Implicit = true;
  K.array("a", {Full, Block}, {{0, 9}, {0, 7}})
      .access("a", {at(0, 0), at(0, 1)}, true);
  std::optional<KernelPlan> Plan = plan(K);
  ASSERT_TRUE(Plan);
  for (unsigned D = 0; D < 4; ++D) {
    EXPECT_EQ(indicesRun(K, *Plan, D, 0), range(0, 9));
    EXPECT_EQ(indicesRun(K, *Plan, D, 1), rangeOf(handWrittenBlock(7, 4, D)));
  }
}

// When no loop finds an array split along it after all, loop 0 is BLOCK
// as without the mark: every device running every iteration would be
// wrong.
TEST(KernelPlan, AnImplicitOuterLoopIsBlockWhenNoLoopFollowsAnArray) {
  Kernel K({upTo(0, 9), upTo(0, 7)}, {Block, Block}, Topology::line(4));
  K.Desc.Loops[0].Implicit = K.Desc.Loops[1].Implicit = true;
  K.array("a", {Full, Full}, {{0, 9}, {0, 7}})
      .access("a", {at(0, 0), at(0, 1)}, true);
  std::optional<KernelPlan> Plan = plan(K);
  ASSERT_TRUE(Plan);
  for (unsigned D = 0; D < 4; ++D) {
    EXPECT_EQ(indicesRun(K, *Plan, D, 0), rangeOf(handWrittenBlock(9, 4, D)));
    EXPECT_EQ(indicesRun(K, *Plan, D, 1), range(0, 7));
  }
}

TEST(KernelPlan, ThreeCollapsedLoopsOverATwoByTwoByTwo) {
  Kernel K({upTo(0, 4), upTo(0, 5), upTo(0, 3)}, {Block, Block, Block},
           Topology{{2, 2, 2}});
  std::optional<KernelPlan> Plan = plan(K);
  ASSERT_TRUE(Plan);
  for (unsigned D = 0; D < 8; ++D) {
    std::array<unsigned, homp::abi::MaxTopologyRank> C = K.Topo.coords(D);
    EXPECT_EQ(Plan->Work[D].Iterations.Dims[0],
              IndexSet(handWrittenBlock(4, 2, C[0])));
    EXPECT_EQ(Plan->Work[D].Iterations.Dims[1],
              IndexSet(handWrittenBlock(5, 2, C[1])));
    EXPECT_EQ(Plan->Work[D].Iterations.Dims[2],
              IndexSet(handWrittenBlock(3, 2, C[2])));
  }
}

TEST(KernelPlan, OneLoopOverATwoByTwoIsRefused) {
  Kernel K({upTo(0, 16)}, {Block}, Topology{{2, 2}});
  EXPECT_EQ(refusal(K), "devices 10 and 11 would both run some iterations: the "
                        "loop nest splits fewer loops than the devices' "
                        "topology (2x2) has dimensions");
}

TEST(KernelPlan, MoreSplitLoopsThanTopologyDimensionsAreRefused) {
  Kernel K({upTo(0, 4), upTo(0, 4)}, {Block, Block}, Topology::line(2));
  EXPECT_EQ(refusal(K), "the loop nest splits 2 loops over a 1-dimensional "
                        "topology (2)");
}

TEST(KernelPlan, ALoopThatDoesNotTerminateIsRefused) {
  Kernel K({upTo(0, 4), loop(0, CompareOp::Less, 4, -1)}, {Block, Full},
           Topology::line(2));
  EXPECT_EQ(refusal(K), "loop 1 of the nest would not terminate: its step is "
                        "zero or goes away from its bound");
}

//===----------------------------------------------------------------------===//
// Resident arrays and labelled loops
//===----------------------------------------------------------------------===//

// The parts of a data region's array, however uneven, decide which device
// runs which iteration.
TEST(KernelPlan, OwnerComputesFollowsAResidentArray) {
  Distribution X = residentBlock(
      {10, 11, 12, 13}, {{0, 2}, {2, 10}, {10, 11}, {11, 16}}, {0, 16});
  Kernel K({upTo(0, 16)}, {Block}, Topology::line(4));
  K.access("x", {at()}, true, &X);
  std::optional<KernelPlan> Plan = plan(K);
  ASSERT_TRUE(Plan);
  EXPECT_EQ(indicesRun(K, *Plan, 0), range(0, 2));
  EXPECT_EQ(indicesRun(K, *Plan, 1), range(2, 10));
  EXPECT_EQ(indicesRun(K, *Plan, 2), range(10, 11));
  EXPECT_EQ(indicesRun(K, *Plan, 3), range(11, 16));
}

// 'x[i + d]' with d an inner loop of variable bounds: the plugin cannot
// read the subscript, and the one loop follows x's parts even so (its own
// BLOCK split, [0, 4) [4, 8) [8, 12) [12, 16), would have device 10 read
// x[2..5] beyond its part and halo).
TEST(KernelPlan, AOneLoopKernelFollowsAnArrayWhoseSubscriptIsUnread) {
  Distribution X = residentBlock(
      {10, 11, 12, 13}, {{0, 2}, {2, 10}, {10, 11}, {11, 16}}, {0, 16});
  // Of an array of the kernel, read: whole on every device, and the loop
  // follows its parts.
  Kernel K({upTo(0, 16)}, {Block}, Topology::line(4));
  K.array("x", {Block}, {{0, 16}}).access("x", {Subscript{}}, false);
  std::optional<KernelPlan> Plan = plan(K);
  ASSERT_TRUE(Plan);
  EXPECT_TRUE(Plan->Items[0].Whole);
  EXPECT_EQ(indicesRun(K, *Plan, 0), range(0, 4));
  // A resident one: its parts are all the devices hold, and homp cannot
  // bound what the loop reads of them: on the host, gathered there.
  Kernel R({upTo(0, 16)}, {Block}, Topology::line(4));
  R.access("x", {Subscript{}}, false, &X);
  R.Desc.Accesses.back().Why = "subscript 'i+d' is not ...";
  EXPECT_EQ(onHost(R), "homp cannot bound the elements of 'x' the loop uses "
                       "(subscript 'i+d' is not ...) and 'x' is distributed "
                       "by the data region at a.c:3:1");
  // The same subscript with its offsets known when the construct runs
  // ('d' from -w to w, w = 1): the loop follows x's parts, with halos.
  Distribution H = X;
  H.Halos[0] = {1, 1, Edge::None, Edge::None};
  Kernel T({upTo(1, 15)}, {Block}, Topology::line(4));
  T.access("x", {linear(0, -1, 1)}, false, &H);
  std::optional<KernelPlan> TPlan = plan(T);
  ASSERT_TRUE(TPlan);
  EXPECT_EQ(indicesRun(T, *TPlan, 1), range(2, 10));
}

// A DUPLICATE array kept on the devices, written by a kernel on several of
// them: their copies would differ, and the one copied back would hold only
// its device's writes (a silently wrong result once). On one device, or
// only read, it is fine.
TEST(KernelPlan, WritingAResidentDuplicateOnSeveralDevicesRunsOnTheHost) {
  Distribution X = residentBlock({10, 11}, {{0, 12}, {0, 12}}, {0, 12});
  X.Split[0] = false;
  X.Kinds[0] = Policy::Full;
  Kernel K({upTo(0, 12)}, {Block}, Topology::line(2));
  K.access("x", {at()}, true, &X);
  EXPECT_EQ(onHost(K),
            "'x' is whole on every device of the data region at a.c:3:1 "
            "(DUPLICATE), and this kernel writes it on 2 devices, which would "
            "leave their copies different: distribute it, or write it in a "
            "kernel on one device");
  Kernel Read({upTo(0, 12)}, {Block}, Topology::line(2));
  Read.access("x", {at()}, false, &X);
  EXPECT_TRUE(plan(Read));
  Kernel One({upTo(0, 12)}, {Block}, Topology::line(1));
  One.access("x", {at()}, true, &X);
  EXPECT_TRUE(plan(One));
}

// The resident array lists the devices in another order: matched by id.
TEST(KernelPlan, ResidentPartsAreMatchedByDeviceId) {
  Distribution X =
      residentBlock({12, 10, 11}, {{0, 4}, {4, 8}, {8, 12}}, {0, 12});
  Kernel K({upTo(0, 12)}, {Block}, Topology::line(3));
  K.access("x", {at()}, false, &X);
  std::optional<KernelPlan> Plan = plan(K);
  ASSERT_TRUE(Plan);
  EXPECT_EQ(indicesRun(K, *Plan, 0), range(4, 8));
  EXPECT_EQ(indicesRun(K, *Plan, 1), range(8, 12));
  EXPECT_EQ(indicesRun(K, *Plan, 2), range(0, 4));
}

TEST(KernelPlan, ADeviceHoldingNoPartOfAResidentArrayRunsOnTheHost) {
  // x covers what devices 10 and 11 run; device 12 has none of it.
  Distribution X = residentBlock({10, 11}, {{0, 4}, {4, 12}}, {0, 12});
  Kernel K({upTo(0, 12)}, {Block}, Topology::line(3));
  K.array("y", {Block}, {{0, 12}})
      .access("y", {at()}, true)
      .access("x", {at()}, false, &X);
  EXPECT_EQ(onHost(K), "device 12 runs iterations of this kernel but holds "
                       "no part of 'x' ('x' is distributed by the data region "
                       "at a.c:3:1)");
}

TEST(KernelPlan, AResidentArrayWithoutTheNeededHaloRunsOnTheHost) {
  Distribution X = residentBlock({10, 11}, {{0, 6}, {6, 12}}, {0, 12});
  Kernel K({upTo(1, 11)}, {Block}, Topology::line(2));
  K.array("y", {Block}, {{0, 12}})
      .access("y", {at()}, true)
      .access("x", {linear(0, -1, 1)}, false, &X);
  EXPECT_EQ(onHost(K),
            "device 10 would use elements [0, 7) of 'x' but holds only "
            "[0, 6); the loop uses 'x' at offsets -1..1 of its index and its "
            "halo there is 0:0 wide ('x' is distributed by the data region at "
            "a.c:3:1)");
}

// loop1: for (...) inside 'target data map(... ALIGN(loop1))': the loop
// keeps the split the data region gave it, even against its own policy.
TEST(KernelPlan, ALabelledLoopKeepsItsDataRegionsSplit) {
  const std::map<int, IndexSet> Split = {{10, IndexSet(Range{0, 3})},
                                         {11, IndexSet(Range{3, 4})},
                                         {12, IndexSet(Range{4, 15})}};
  std::vector<std::string> Asked;
  Kernel K({upTo(0, 15)}, {Block}, Topology::line(3));
  K.Desc.Label = "loop1";
  K.array("y", {alignTo("loop1")}, {{0, 15}}).access("y", {at()}, true);
  K.LabelIndices = [&](const std::string &Label, unsigned L, int Id,
                       IndexSet &Out) {
    Asked.push_back(Label + " " + std::to_string(L));
    if (Label != "loop1" || L != 0)
      return false;
    Out = Split.at(Id);
    return true;
  };
  std::optional<KernelPlan> Plan = plan(K);
  ASSERT_TRUE(Plan);
  for (unsigned D = 0; D < 3; ++D) {
    EXPECT_EQ(indicesRun(K, *Plan, D), asSet(Split.at(10 + D))) << D;
    EXPECT_EQ(Plan->Items[0].Owned[D].Dims[0], Split.at(10 + D)) << D;
  }
  EXPECT_FALSE(Asked.empty());
  for (const std::string &A : Asked)
    EXPECT_EQ(A, "loop1 0");
}

// The same without any array: the loop's own BLOCK would split it evenly.
TEST(KernelPlan, ALabelledLoopKeepsItsSplitAgainstItsOwnPolicy) {
  Kernel K({loop(14, CompareOp::GreaterEqual, 0, -1)}, {Block},
           Topology::line(3));
  K.Desc.Label = "loop1";
  K.LabelIndices = [](const std::string &Label, unsigned L, int Id,
                      IndexSet &Out) {
    if (Label != "loop1" || L != 0)
      return false;
    Out = Id == 10   ? IndexSet(Range{0, 3})
          : Id == 11 ? IndexSet(Range{3, 4})
                     : IndexSet(Range{4, 15});
    return true;
  };
  std::optional<KernelPlan> Plan = plan(K);
  ASSERT_TRUE(Plan);
  EXPECT_EQ(indicesRun(K, *Plan, 0), range(0, 3));
  EXPECT_EQ(indicesRun(K, *Plan, 1), range(3, 4));
  EXPECT_EQ(indicesRun(K, *Plan, 2), range(4, 15));
}

//===----------------------------------------------------------------------===//
// Launches
//===----------------------------------------------------------------------===//

// Each device's blocks of a CYCLIC(2) loop launch as two strided runs, one
// per position in the block, when the loop takes its step from the chunk.
TEST(KernelPlan, LaunchPiecesOfAStridedCyclicLoopAreStridedRuns) {
  Kernel K({upTo(0, 30)}, {Cyclic}, Topology::line(3), {2, 0, 0});
  K.strided();
  std::optional<KernelPlan> Plan = plan(K);
  ASSERT_TRUE(Plan);
  for (unsigned D = 0; D < 3; ++D) {
    ASSERT_EQ(Plan->Work[D].Pieces.size(), 2u) << D;
    EXPECT_EQ(Plan->Work[D].Pieces[0].Loops[0], (Strided{2 * D, 5, 6}));
    EXPECT_EQ(Plan->Work[D].Pieces[1].Loops[0], (Strided{2 * D + 1, 5, 6}));
  }
}

// Otherwise, and always for '!=' (which could not stop on a strided
// bound), each block is a launch.
TEST(KernelPlan, LaunchPiecesOfOtherCyclicLoopsAreItsBlocks) {
  Kernel K({upTo(0, 30)}, {Cyclic}, Topology::line(3), {2, 0, 0});
  std::optional<KernelPlan> Plan = plan(K);
  ASSERT_TRUE(Plan);
  for (unsigned D = 0; D < 3; ++D) {
    ASSERT_EQ(Plan->Work[D].Pieces.size(), 5u) << D;
    for (unsigned B = 0; B < 5; ++B)
      EXPECT_EQ(Plan->Work[D].Pieces[B].Loops[0],
                (Strided{6 * B + 2 * D, 2, 1}));
  }
  Kernel NE({loop(0, CompareOp::NotEqual, 30)}, {Cyclic}, Topology::line(3),
            {2, 0, 0});
  NE.strided();
  Plan = plan(NE);
  ASSERT_TRUE(Plan);
  for (unsigned D = 0; D < 3; ++D)
    EXPECT_EQ(Plan->Work[D].Pieces.size(), 5u) << D;
}

TEST(KernelPlan, LaunchPiecesOfACollapsedCyclicNest) {
  Kernel K({upTo(0, 9), loop(10, CompareOp::GreaterEqual, -1, -1)},
           {Cyclic, Cyclic}, Topology{{2, 3}}, {1, 2, 0});
  K.strided();
  std::optional<KernelPlan> Plan = plan(K);
  ASSERT_TRUE(Plan);
  for (unsigned D = 0; D < 6; ++D) {
    const ProductSet &It = Plan->Work[D].Iterations;
    size_t Runs0 = It.Dims[0].stridedRuns().size();
    size_t Runs1 = It.Dims[1].stridedRuns().size();
    EXPECT_EQ(Plan->Work[D].Pieces.size(), Runs0 * Runs1) << D;
  }
}

TEST(KernelPlan, DevicesWithoutIterationsHaveNoPieces) {
  Kernel K({upTo(0, 2)}, {Block}, Topology::line(4));
  std::optional<KernelPlan> Plan = plan(K);
  ASSERT_TRUE(Plan);
  EXPECT_EQ(Plan->Work[0].Pieces.size(), 1u);
  EXPECT_EQ(Plan->Work[1].Pieces.size(), 1u);
  EXPECT_TRUE(Plan->Work[2].Pieces.empty());
  EXPECT_TRUE(Plan->Work[3].Pieces.empty());
}

TEST(KernelPlan, AnEmptyLoopPlansNothing) {
  Kernel K({upTo(5, 5)}, {Block}, Topology::line(3));
  K.array("x", {Block}, {{0, 10}}).access("x", {at()}, true);
  std::optional<KernelPlan> Plan = plan(K);
  ASSERT_TRUE(Plan);
  for (const DeviceWork &W : Plan->Work) {
    EXPECT_TRUE(W.Iterations.empty());
    EXPECT_TRUE(W.Pieces.empty());
  }
}

//===----------------------------------------------------------------------===//
// A device's share cut in sub-parts
//===----------------------------------------------------------------------===//

namespace {

/// Cuts every device's share of Whole along Loop into Parts sub-parts and
/// checks each: it runs its stretch of the share and nothing else, holds
/// every element it touches, and holds no element its device does not;
/// the sub-parts of an array written and copied back own the device's part
/// between them, each element once. The first problem found, or "".
std::string checkCut(const Kernel &K, const KernelPlan &Whole, unsigned Loop,
                     int64_t Parts) {
  KernelPlanInput In = K.input();
  std::vector<bool> Copied(K.Desc.Arrays.size(), true);
  for (unsigned Pos = 0; Pos < K.Devices.size(); ++Pos) {
    Range Share = Whole.Work[Pos].Iterations.Dims[Loop].hull();
    if (Share.size() < Parts)
      continue;
    std::vector<std::vector<IndexSet>> Owned(K.Desc.Arrays.size());
    for (int64_t Pt = 0; Pt < Parts; ++Pt) {
      Range R{Share.Begin + Share.size() * Pt / Parts,
              Share.Begin + Share.size() * (Pt + 1) / Parts};
      std::string At = "device " + std::to_string(Pos) + " sub-part " +
                       std::to_string(Pt) + " of " + std::to_string(Parts) +
                       " " + IndexSet(R).str() + ": ";
      KernelPlan Sub;
      std::string Why;
      if (!planSubPart(In, Whole, Pos, Loop, R, Copied, Sub, Why))
        return At + "refused: " + Why;
      ProductSet Want = Whole.Work[Pos].Iterations;
      Want.Dims[Loop] = IndexSet(R);
      if (!(Sub.Work[Pos].Iterations == Want))
        return At + "runs " + Sub.Work[Pos].Iterations.str();
      for (unsigned Other = 0; Other < K.Devices.size(); ++Other)
        if (Other != Pos && !Sub.Work[Other].Iterations.empty())
          return At + "device " + std::to_string(Other) + " runs too";
      std::string Problem = checkPieces(K, Sub);
      if (Problem.empty())
        Problem = checkHeld(K, Sub);
      if (!Problem.empty())
        return At + Problem;
      for (size_t A = 0; A < K.Desc.Arrays.size(); ++A) {
        const Distribution &X = Sub.Items[A], &W = Whole.Items[A];
        if (!W.held(Pos).contains(X.held(Pos)))
          return At + "holds " + X.held(Pos).str() + " of " +
                 K.Desc.Arrays[A].Name + ", not only of " + W.held(Pos).str();
        Owned[A].push_back(X.Owned[Pos].Dims[0]);
      }
    }
    for (size_t A = 0; A < K.Desc.Arrays.size(); ++A) {
      bool Written = false;
      for (const homp::abi::Access &Use : K.Desc.Accesses)
        Written |= Use.Name == K.Desc.Arrays[A].Name && Use.Written;
      if (!Written || Whole.Items[A].duplicated())
        continue;
      IndexSet All;
      int64_t Count = 0;
      for (const IndexSet &O : Owned[A]) {
        All = All.unite(O);
        Count += O.size();
      }
      if (All != Whole.Items[A].Owned[Pos].Dims[0] || Count != All.size())
        return "device " + std::to_string(Pos) + "'s sub-parts own " +
               std::to_string(Count) + " elements of " + K.Desc.Arrays[A].Name +
               ", together " + All.str() + ", of its part " +
               Whole.Items[A].Owned[Pos].Dims[0].str();
    }
  }
  return "";
}

/// planSubPart's refusal of Pos's share of K cut to R of loop Loop.
std::string cutRefusal(const Kernel &K, unsigned Pos, Range R,
                       unsigned Loop = 0) {
  std::optional<KernelPlan> Whole = plan(K);
  if (!Whole)
    return "no plan";
  KernelPlan Sub;
  std::string Why;
  EXPECT_FALSE(planSubPart(K.input(), *Whole, Pos, Loop, R,
                           std::vector<bool>(K.Desc.Arrays.size(), true), Sub,
                           Why));
  return Why;
}

} // namespace

// y[i + c] written from x[i + c] and z[i + c - 1 .. i + c + 1] (z has a
// halo of 1): loops of every shape and offset over the interior, any number
// of sub-parts.
TEST(SubParts, CutAnOwnerComputesShareExactly) {
  Random R(7);
  for (int Case = 0; Case < 300; ++Case) {
    const int64_t N = R.between(3, 40);
    const unsigned P = static_cast<unsigned>(R.between(1, 4));
    const int64_t C = R.between(-2, 2);
    const int64_t Steps[] = {-3, -2, -1, 1, 2, 3};
    const int64_t Step = Steps[R.between(0, 5)];
    // The loop runs the indices i with i + C in [1, N - 1).
    LoopBounds L = Step > 0
                       ? loop(1 - C, CompareOp::Less, N - 1 - C, Step)
                       : loop(N - 2 - C, CompareOp::GreaterEqual, 1 - C, Step);
    Kernel K({L}, {Block}, Topology::line(P));
    K.array("y", {Block}, {{0, N}})
        .array("x", {Block}, {{0, N}})
        .array("z", {Block}, {{0, N}}, {{1, 1, Edge::None, Edge::None}})
        .access("y", {at(C)}, true)
        .access("x", {at(C)}, false)
        .access("z", {linear(0, C - 1, C + 1)}, false);
    std::optional<KernelPlan> Whole = plan(K);
    ASSERT_TRUE(Whole) << describe(L);
    for (int64_t Parts = 1; Parts <= 5; ++Parts)
      EXPECT_EQ(checkCut(K, *Whole, 0, Parts), "")
          << describe(L) << " over " << P << ", y[i + " << C << "]";
  }
}

// Jacobi's rows: u written, uold read one row either side from its halo, f
// read; columns whole.
TEST(SubParts, CutAStencilByRows) {
  for (unsigned P = 1; P <= 4; ++P) {
    Kernel K({upTo(1, 29), upTo(1, 9)}, {Block, Full}, Topology::line(P));
    K.array("u", {Block, Full}, {{0, 30}, {0, 10}})
        .array("uold", {Block, Full}, {{0, 30}, {0, 10}},
               {{1, 1, Edge::None, Edge::None}})
        .array("f", {Block, Full}, {{0, 30}, {0, 10}})
        .access("u", {at(), at(0, 1)}, true)
        .access("uold", {linear(0, -1, 1), linear(1, -1, 1)}, false)
        .access("f", {at(), at(0, 1)}, false);
    std::optional<KernelPlan> Whole = plan(K);
    ASSERT_TRUE(Whole);
    for (int64_t Parts = 1; Parts <= 6; ++Parts)
      EXPECT_EQ(checkCut(K, *Whole, 0, Parts), "") << P << " " << Parts;
  }
}

// Arrays the device does not copy (resident ones) keep their parts; so do
// the dimensions another loop subscripts.
TEST(SubParts, CutOnlyTheCopiedArraysAlongTheLoop) {
  Kernel K({upTo(0, 16), upTo(0, 8)}, {Block, Block}, Topology{{2, 2}});
  K.array("a", {Block, Block}, {{0, 16}, {0, 8}})
      .array("b", {Block, Block}, {{0, 16}, {0, 8}})
      .access("a", {at(), at(0, 1)}, true)
      .access("b", {at(), at(0, 1)}, false);
  std::optional<KernelPlan> Whole = plan(K);
  ASSERT_TRUE(Whole);
  EXPECT_EQ(checkCut(K, *Whole, 0, 3), "");
  KernelPlan Sub;
  std::string Why;
  ASSERT_TRUE(
      planSubPart(K.input(), *Whole, 3, 0, {8, 10}, {true, false}, Sub, Why))
      << Why;
  EXPECT_EQ(Sub.Items[0].Owned[3].Dims[0], IndexSet(Range{8, 10}));
  EXPECT_EQ(Sub.Items[0].Owned[3].Dims[1], IndexSet(Range{4, 8}));
  EXPECT_EQ(Sub.Items[1].Owned[3], Whole->Items[1].Owned[3]);
}

TEST(SubParts, RefuseWhatCannotBeCutExactly) {
  // Written at two offsets: which sub-part would copy y[i + 1] back?
  Kernel Two({upTo(0, 19)}, {Block}, Topology::line(2));
  Two.array("y", {Block}, {{0, 20}}, {{1, 1, Edge::None, Edge::None}})
      .access("y", {linear(0, 0, 1)}, true);
  Two.Desc.Accesses.back().Writes[0] = at(); // 'y[i] = y[i + 1]'
  EXPECT_NE(cutRefusal(Two, 0, {0, 5}).find("several offsets"),
            std::string::npos);
  // A subscript the plugin could not read, of an array only read (whole
  // on each device; one written runs on one device, above).
  Kernel Unknown({upTo(0, 20)}, {Block}, Topology::line(2));
  Unknown.array("y", {Block}, {{0, 20}})
      .array("z", {Block}, {{0, 20}})
      .access("y", {Subscript()}, false)
      .access("z", {at()}, true);
  Unknown.Desc.Arrays.front().Map = homp::abi::MapType::To;
  EXPECT_NE(cutRefusal(Unknown, 0, {0, 5}).find("subscript"),
            std::string::npos);
  // Halo cells past the array's ends.
  Kernel Ring({upTo(0, 20)}, {Block}, Topology::line(2));
  Ring.array("x", {Block}, {{0, 20}}, {{1, 1, Edge::Periodic, Edge::Periodic}})
      .access("x", {linear(0, -1, 1)}, false);
  EXPECT_NE(cutRefusal(Ring, 0, {0, 5}).find("past the array's ends"),
            std::string::npos);
  // Copied back but split along the other loop only: each sub-part would
  // copy its device's whole part back.
  Kernel Cols({upTo(0, 8), upTo(0, 8)}, {Full, Block}, Topology::line(2));
  Cols.array("c", {Block}, {{0, 8}}).access("c", {at(0, 1)}, true);
  std::optional<KernelPlan> ColsPlan = plan(Cols);
  ASSERT_TRUE(ColsPlan);
  EXPECT_FALSE(
      cutAlongLoop(Cols.Desc, Cols.Desc.Accesses, 0, ColsPlan->Items[0], 0));
  EXPECT_TRUE(
      cutAlongLoop(Cols.Desc, Cols.Desc.Accesses, 0, ColsPlan->Items[0], 1));
  EXPECT_NE(cutRefusal(Cols, 0, {0, 2}).find("not split along loop 0"),
            std::string::npos);
  // Columns: each sub-part would copy a piece of every row.
  Kernel Columns({upTo(0, 6), upTo(0, 40)}, {Full, Block}, Topology::line(2));
  Columns.array("m", {Full, Block}, {{0, 6}, {0, 40}})
      .access("m", {at(), at(0, 1)}, true);
  EXPECT_NE(cutRefusal(Columns, 0, {0, 5}, 1).find("of each of its rows"),
            std::string::npos);
  // Iterations that are not the device's.
  Kernel Axpy({upTo(0, 20)}, {Block}, Topology::line(2));
  Axpy.array("y", {Block}, {{0, 20}}).access("y", {at()}, true);
  EXPECT_NE(cutRefusal(Axpy, 0, {5, 15}).find("not a run"), std::string::npos);
  // A sub-part that would read halo cells only: x[i + 3] of device 0's
  // last iteration lies past its part of x, in its halo; cut to that
  // iteration alone, the sub-part would own none of x.
  Kernel Far({upTo(0, 17)}, {Block}, Topology::line(2));
  Far.array("y", {Block}, {{0, 17}})
      .array("x", {Block}, {{0, 20}}, {{0, 3, Edge::None, Edge::None}})
      .access("y", {at()}, true)
      .access("x", {at(3)}, false);
  EXPECT_NE(cutRefusal(Far, 0, {8, 9}).find("would use elements"),
            std::string::npos);
  std::optional<KernelPlan> Whole = plan(Far);
  ASSERT_TRUE(Whole);
  EXPECT_EQ(checkCut(Far, *Whole, 0, 3), "");
}

//===----------------------------------------------------------------------===//
// The plan cache of a construct
//===----------------------------------------------------------------------===//

// Every field a plan depends on tells two inputs apart; equal inputs plan
// alike, so the cache hands back the first plan and nothing else.
TEST(KernelPlanCache, ReusesAPlanOnlyForTheSameInput) {
  const int64_t N = 20;
  Distribution R1 = residentBlock({10, 11}, {{0, 10}, {10, 20}}, {0, N});
  Distribution R2 = residentBlock({10, 11}, {{0, 10}, {10, 20}}, {0, N});
  Kernel K({upTo(0, N)}, {Block}, Topology::line(2));
  K.array("x", {Block}, {{0, N}}).access("x", {at()}, true, &R1);
  const KernelPlanInput Base = K.input();
  KernelPlanCache Cache;
  EXPECT_EQ(Cache.find(Base, {7}), nullptr);
  auto Plan = std::make_shared<KernelPlan>();
  std::string Error;
  ASSERT_TRUE(planKernel(Base, *Plan, Error)) << Error;
  Cache.store(Base, {7}, Plan);
  EXPECT_EQ(Cache.find(K.input(), {7}), Plan);
  EXPECT_EQ(Cache.find(Base, {8}), nullptr) << "another resident array";

  std::vector<std::pair<std::string, std::function<void(KernelPlanInput &)>>>
      Changes = {
          {"devices", [](KernelPlanInput &In) { In.Devices[1] = 12; }},
          {"topology",
           [](KernelPlanInput &In) { In.Topo = Topology::line(3); }},
          {"first", [](KernelPlanInput &In) { In.Nest.Loops[0].First = 1; }},
          {"bound", [](KernelPlanInput &In) { In.Nest.Loops[0].Bound = 19; }},
          {"step", [](KernelPlanInput &In) { In.Nest.Loops[0].Step = 2; }},
          {"comparison",
           [](KernelPlanInput &In) {
             In.Nest.Loops[0].Op = CompareOp::NotEqual;
           }},
          {"loop block", [](KernelPlanInput &In) { In.LoopBlocks[0] = 3; }},
          {"section",
           [](KernelPlanInput &In) {
             In.ItemShapes[0].Section.Dims[0] = {1, N};
           }},
          {"empty section",
           [](KernelPlanInput &In) {
             In.ItemShapes[0].Section.Dims[0] = {5, 5};
           }},
          {"element size",
           [](KernelPlanInput &In) { In.ItemShapes[0].ElementSize = 4; }},
          {"array block", [](KernelPlanInput &In) { In.ItemBlocks[0][0] = 2; }},
          {"array device ids",
           [](KernelPlanInput &In) { In.ItemOwnDevices.assign(1, {{7}, {}}); }},
          {"array topology",
           [](KernelPlanInput &In) {
             In.ItemOwnDevices.assign(1, {{}, {std::nullopt}});
           }},
          {"resident of an access",
           [&](KernelPlanInput &In) { In.AccessResidents[0].Dist = &R2; }},
          {"resident item",
           [&](KernelPlanInput &In) {
             In.ItemResidents.assign(1, &R1);
           }},
          {"scheduled iterations",
           [](KernelPlanInput &In) {
             In.Scheduled = {IndexSet(Range{0, 4}), IndexSet(Range{4, 20})};
           }},
      };
  for (auto &[What, Change] : Changes) {
    KernelPlanInput In = K.input();
    Change(In);
    EXPECT_FALSE(samePlanInput(Base, In)) << What;
    EXPECT_EQ(Cache.find(In, {7}), nullptr) << What;
  }
  // The same empty section twice is the same input.
  KernelPlanInput A = K.input(), B = K.input();
  A.ItemShapes[0].Section.Dims[0] = B.ItemShapes[0].Section.Dims[0] = {5, 5};
  EXPECT_TRUE(samePlanInput(A, B));
}

TEST(KernelPlanCache, PlansFollowingALabelAreNotPure) {
  Kernel K({upTo(0, 8)}, {alignTo("loop1")}, Topology::line(2));
  EXPECT_FALSE(planIsPure(K.Desc));
  Kernel A({upTo(0, 8)}, {Block}, Topology::line(2));
  A.array("x", {Block}, {{0, 8}}).array("y", {alignTo("x")}, {{0, 8}});
  EXPECT_TRUE(planIsPure(A.Desc)) << "aligned with an array of its own";
  A.array("z", {alignTo("loop1")}, {{0, 8}});
  EXPECT_FALSE(planIsPure(A.Desc)) << "an array aligned with a label";
  Kernel L({upTo(0, 8)}, {alignToLoop()}, Topology::line(2));
  EXPECT_TRUE(planIsPure(L.Desc));
}
