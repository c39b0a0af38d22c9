//===-- RegionPlanTest.cpp - Which device runs and holds what -------------===//
//
// Builds region descriptors by hand and checks every plan planRegion makes
// against references computed here: the loop is run literally, BLOCK parts
// come from the hand-written split of the papers, and every iteration must
// be run by exactly one device.
//
//===----------------------------------------------------------------------===//

#include "homp/RegionPlan.h"

#include "Reference.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <ostream>
#include <sstream>
#include <string>
#include <vector>

using namespace homp;
using namespace homp::reference;

namespace homp {
static void PrintTo(const Range &R, std::ostream *OS) {
  *OS << "[" << R.Begin << ", " << R.End << ")";
}
} // namespace homp

namespace {

ArrayDesc array(const std::string &Name, ArrayPolicy Policy,
                unsigned SameAs = 0) {
  ArrayDesc A;
  A.Name = Name;
  A.Policy = Policy;
  A.SameAs = SameAs;
  return A;
}

ArrayDesc knownUse(ArrayDesc A, int64_t Min, int64_t Max) {
  A.Uses = ArrayDesc::KnownUse;
  A.MinOffset = Min;
  A.MaxOffset = Max;
  return A;
}

ArrayDesc unknownUse(ArrayDesc A) {
  A.Uses = ArrayDesc::UnknownUse;
  return A;
}

RegionDescriptor region(std::vector<ArrayDesc> Arrays, CompareOp Op,
                        std::optional<unsigned> AlignWith = std::nullopt) {
  RegionDescriptor D;
  D.Location = "test.c:1:1";
  D.Devices = {DeviceSpecKind::All};
  D.Op = Op;
  D.LoopFollowsArray = AlignWith.has_value();
  D.LoopArray = AlignWith.value_or(0);
  D.Arrays = std::move(Arrays);
  return D;
}

LoopBounds loop(int64_t First, CompareOp Op, int64_t Bound, int64_t Step) {
  return {First, Bound, Step, Op};
}

std::string str(Range R) {
  return "[" + std::to_string(R.Begin) + ", " + std::to_string(R.End) + ")";
}

/// Both empty, or equal.
bool sameRange(Range A, Range B) { return (A.empty() && B.empty()) || A == B; }

Range intersect(Range A, Range B) {
  return {std::max(A.Begin, B.Begin), std::min(A.End, B.End)};
}

/// Checks Plan, made for a region whose loop the test can run, against the
/// references. Returns the first problem found, or an empty string.
std::string checkPlan(const RegionDescriptor &Desc, unsigned NumDevices,
                      const LoopBounds &Loop,
                      const std::vector<ArrayExtent> &Extents,
                      const RegionPlan &Plan) {
  std::ostringstream OS;
  std::optional<std::vector<int64_t>> Indices =
      runLoop(Loop.First, Loop.Op, Loop.Bound, Loop.Step);
  if (!Indices)
    return "the test's loop does not terminate";
  int64_t Trip = static_cast<int64_t>(Indices->size());
  if (Plan.TripCount != Trip) {
    OS << "trip count " << Plan.TripCount << ", expected " << Trip;
    return OS.str();
  }
  if (Plan.Devices.size() != NumDevices)
    return "wrong number of devices";

  // Every iteration exactly once.
  std::vector<int> RunBy(Trip, -1);
  for (unsigned D = 0; D < NumDevices; ++D) {
    const DevicePlan &P = Plan.Devices[D];
    if (P.Parts.size() != Desc.Arrays.size())
      return "wrong number of parts";
    if (P.Iterations.empty())
      continue;
    if (P.Iterations.Begin < 0 || P.Iterations.End > Trip) {
      OS << "device " << D << " runs " << str(P.Iterations) << " outside [0, "
         << Trip << ")";
      return OS.str();
    }
    for (int64_t K = P.Iterations.Begin; K < P.Iterations.End; ++K) {
      if (RunBy[K] != -1) {
        OS << "iteration " << K << " run by devices " << RunBy[K] << " and "
           << D;
        return OS.str();
      }
      RunBy[K] = static_cast<int>(D);
    }
    // The chunk loop, run literally, visits exactly the device's indices.
    std::optional<std::vector<int64_t>> Chunk =
        runLoop(P.ChunkFirst, Loop.Op, P.ChunkBound, Loop.Step, Trip + 5);
    std::vector<int64_t> Expected(Indices->begin() + P.Iterations.Begin,
                                  Indices->begin() + P.Iterations.End);
    if (!Chunk || *Chunk != Expected) {
      OS << "device " << D << ": chunk " << P.ChunkFirst << " .. "
         << P.ChunkBound << " does not run iterations " << str(P.Iterations);
      return OS.str();
    }
  }
  for (int64_t K = 0; K < Trip; ++K)
    if (RunBy[K] == -1) {
      OS << "iteration " << K << " (index " << (*Indices)[K]
         << ") is run by no device";
      return OS.str();
    }

  // The parts of the arrays.
  for (unsigned D = 0; D < NumDevices; ++D) {
    const DevicePlan &P = Plan.Devices[D];
    for (size_t A = 0; A < Desc.Arrays.size(); ++A) {
      const ArrayDesc &AD = Desc.Arrays[A];
      Range Whole = Extents[A].range();
      Range Expected;
      switch (AD.Policy) {
      case ArrayPolicy::Duplicate:
        Expected = Whole;
        break;
      case ArrayPolicy::Block: {
        Range R = handWrittenBlock(Extents[A].Length, NumDevices, D);
        Expected = {R.Begin + Whole.Begin, R.End + Whole.Begin};
        break;
      }
      case ArrayPolicy::SameAs: {
        Range R = handWrittenBlock(Extents[AD.SameAs].Length, NumDevices, D);
        int64_t Lower = Extents[AD.SameAs].Lower;
        Expected = intersect({R.Begin + Lower, R.End + Lower}, Whole);
        break;
      }
      case ArrayPolicy::FollowLoop:
        if (P.Iterations.empty()) {
          Expected = {0, 0};
          break;
        }
        int64_t Lo = INT64_MAX, Hi = INT64_MIN;
        for (int64_t K = P.Iterations.Begin; K < P.Iterations.End; ++K) {
          Lo = std::min(Lo, (*Indices)[K]);
          Hi = std::max(Hi, (*Indices)[K]);
        }
        Expected = intersect({Lo, Hi + 1}, Whole);
        break;
      }
      if (!sameRange(P.Parts[A], Expected)) {
        OS << "device " << D << " holds " << str(P.Parts[A]) << " of '"
           << AD.Name << "', expected " << str(Expected);
        return OS.str();
      }
    }
  }

  // Which device runs which iteration.
  std::optional<unsigned> Owner;
  if (Desc.LoopFollowsArray)
    Owner = Desc.LoopArray;
  for (size_t A = 0; A < Desc.Arrays.size() && !Owner; ++A)
    if (Desc.Arrays[A].Policy == ArrayPolicy::Block)
      Owner = static_cast<unsigned>(A);
  if (Owner) {
    // Owner computes: an iteration whose index lies in the array runs on the
    // device holding that index.
    Range Whole = Extents[*Owner].range();
    for (int64_t K = 0; K < Trip; ++K) {
      int64_t I = (*Indices)[K];
      if (I < Whole.Begin || I >= Whole.End)
        continue;
      Range Held = Plan.Devices[RunBy[K]].Parts[*Owner];
      if (I < Held.Begin || I >= Held.End) {
        OS << "iteration " << K << " (index " << I << ") runs on device "
           << RunBy[K] << ", which holds " << str(Held) << " of '"
           << Desc.Arrays[*Owner].Name << "'";
        return OS.str();
      }
    }
  } else {
    for (unsigned D = 0; D < NumDevices; ++D)
      if (!sameRange(Plan.Devices[D].Iterations,
                     handWrittenBlock(Trip, NumDevices, D))) {
        OS << "device " << D << " runs " << str(Plan.Devices[D].Iterations)
           << ", expected the BLOCK part "
           << str(handWrittenBlock(Trip, NumDevices, D));
        return OS.str();
      }
  }

  // Every known use stays inside the device's part (the plan succeeded).
  for (unsigned D = 0; D < NumDevices; ++D) {
    const DevicePlan &P = Plan.Devices[D];
    for (size_t A = 0; A < Desc.Arrays.size(); ++A) {
      const ArrayDesc &AD = Desc.Arrays[A];
      if (AD.Policy == ArrayPolicy::Duplicate || AD.Uses != ArrayDesc::KnownUse)
        continue;
      for (int64_t K = P.Iterations.Begin; K < P.Iterations.End; ++K)
        for (int64_t Off = AD.MinOffset; Off <= AD.MaxOffset; ++Off) {
          int64_t I = (*Indices)[K] + Off;
          if (I < P.Parts[A].Begin || I >= P.Parts[A].End) {
            OS << "device " << D << " uses element " << I << " of '" << AD.Name
               << "' but holds " << str(P.Parts[A]);
            return OS.str();
          }
        }
    }
  }
  return "";
}

std::string describe(const LoopBounds &L, unsigned NumDevices) {
  std::ostringstream OS;
  const char *Ops[] = {"<", "<=", ">", ">=", "!="};
  OS << "for (i = " << L.First << "; i " << Ops[static_cast<int>(L.Op)] << " "
     << L.Bound << "; i += " << L.Step << ") on " << NumDevices << " devices";
  return OS.str();
}

/// Plans and checks; the plan must succeed.
RegionPlan planAndCheck(const RegionDescriptor &Desc, unsigned NumDevices,
                        const LoopBounds &Loop,
                        const std::vector<ArrayExtent> &Extents) {
  RegionPlan Plan;
  PlanError Err{};
  bool Ok = planRegion(Desc, NumDevices, Loop, Extents, Plan, Err);
  EXPECT_TRUE(Ok) << describe(Loop, NumDevices) << ": "
                  << (Ok ? "" : describePlanError(Desc, Err, Err.Device));
  if (Ok)
    EXPECT_EQ(checkPlan(Desc, NumDevices, Loop, Extents, Plan), "")
        << describe(Loop, NumDevices);
  return Plan;
}

const CompareOp AllOps[] = {CompareOp::Less, CompareOp::LessEqual,
                            CompareOp::Greater, CompareOp::GreaterEqual,
                            CompareOp::NotEqual};

} // namespace

TEST(RegionPlan, BlockArraysSplitEvenly) {
  RegionDescriptor Desc =
      region({array("x", ArrayPolicy::Block), array("y", ArrayPolicy::Block),
              array("c", ArrayPolicy::Duplicate)},
             CompareOp::Less);
  std::vector<ArrayExtent> Extents = {{0, 100}, {5, 7}, {-3, 10}};
  RegionPlan Plan =
      planAndCheck(Desc, 4, loop(0, CompareOp::Less, 100, 1), Extents);
  ASSERT_EQ(Plan.Devices.size(), 4u);
  EXPECT_EQ(Plan.Devices[0].Parts[0], (Range{0, 25}));
  EXPECT_EQ(Plan.Devices[3].Parts[0], (Range{75, 100}));
  EXPECT_EQ(Plan.Devices[0].Parts[1], (Range{5, 7}));
  EXPECT_EQ(Plan.Devices[1].Parts[1], (Range{7, 9}));
  EXPECT_EQ(Plan.Devices[2].Parts[1], (Range{9, 11}));
  EXPECT_EQ(Plan.Devices[3].Parts[1], (Range{11, 12}));
  for (const DevicePlan &P : Plan.Devices)
    EXPECT_EQ(P.Parts[2], (Range{-3, 7}));
  EXPECT_EQ(Plan.Devices[1].Iterations, (Range{25, 50}));
  EXPECT_EQ(Plan.Devices[1].ChunkFirst, 25);
  EXPECT_EQ(Plan.Devices[1].ChunkBound, 50);
}

TEST(RegionPlan, BlockArraysEveryLengthAndDeviceCount) {
  RegionDescriptor Desc =
      region({knownUse(array("x", ArrayPolicy::Block), 0, 0)}, CompareOp::Less);
  for (unsigned Devices = 1; Devices <= 7; ++Devices)
    for (int64_t N = 0; N <= 50; ++N)
      for (int64_t Lower : {0, 1, -4})
        planAndCheck(Desc, Devices, loop(Lower, CompareOp::Less, Lower + N, 1),
                     {{Lower, N}});
}

// Owner computes with a loop smaller than the array: for (i = 1; i < n-1; i++)
// over x[0:n], as in a stencil's interior.
TEST(RegionPlan, OwnerComputesLoopInsideArray) {
  RegionDescriptor Desc =
      region({array("c", ArrayPolicy::Duplicate),
              knownUse(array("x", ArrayPolicy::Block), 0, 0),
              knownUse(array("y", ArrayPolicy::SameAs, 1), 0, 0)},
             CompareOp::Less);
  for (unsigned Devices = 1; Devices <= 6; ++Devices)
    for (int64_t N = 0; N <= 40; ++N)
      planAndCheck(Desc, Devices, loop(1, CompareOp::Less, N - 1, 1),
                   {{0, 3}, {0, N}, {0, N}});

  RegionPlan Plan = planAndCheck(Desc, 4, loop(1, CompareOp::Less, 99, 1),
                                 {{0, 3}, {0, 100}, {0, 100}});
  EXPECT_EQ(Plan.Devices[0].Iterations, (Range{0, 24})); // i = 1 .. 24
  EXPECT_EQ(Plan.Devices[1].Iterations, (Range{24, 49}));
  EXPECT_EQ(Plan.Devices[3].Iterations, (Range{74, 98})); // i = 75 .. 98
  EXPECT_EQ(Plan.Devices[3].ChunkFirst, 75);
  EXPECT_EQ(Plan.Devices[3].ChunkBound, 99);
}

// Owner computes over a brute-force grid of arrays and loops, some inside the
// array and some sticking out of it. Without known uses every plan succeeds;
// with a known use at offset 0 exactly the loops that leave the array are
// refused.
TEST(RegionPlan, OwnerComputesBruteForce) {
  const int64_t Steps[] = {1, 2, 3, -1, -2, -3};
  unsigned Plans = 0;
  for (int64_t Lower : {0, 2})
    for (int64_t N = 0; N <= 10; ++N)
      for (CompareOp Op : AllOps)
        for (int64_t Step : Steps)
          for (int64_t First = -2; First <= 13; ++First)
            for (int64_t Bound = -2; Bound <= 13; ++Bound) {
              LoopBounds L = loop(First, Op, Bound, Step);
              std::optional<int64_t> Trip = tripCount(L);
              if (!Trip)
                continue;
              std::optional<std::vector<int64_t>> Indices =
                  runLoop(First, Op, Bound, Step);
              ASSERT_TRUE(Indices.has_value());
              bool Inside =
                  std::all_of(Indices->begin(), Indices->end(), [&](int64_t I) {
                    return Lower <= I && I < Lower + N;
                  });
              for (unsigned Devices : {1u, 2u, 3u, 5u}) {
                std::string What = describe(L, Devices) + " over x[" +
                                   std::to_string(Lower) + ":" +
                                   std::to_string(N) + "]";
                for (int Use = 0; Use < 3; ++Use) {
                  ArrayDesc X = array("x", ArrayPolicy::Block);
                  if (Use == 1)
                    X = unknownUse(X);
                  else if (Use == 2)
                    X = knownUse(X, 0, 0);
                  RegionDescriptor Desc =
                      region({array("c", ArrayPolicy::Duplicate), X}, Op);
                  std::vector<ArrayExtent> Extents = {{0, 1}, {Lower, N}};
                  RegionPlan Plan;
                  PlanError Err{};
                  bool Ok = planRegion(Desc, Devices, L, Extents, Plan, Err);
                  ++Plans;
                  if (Use == 2 && !Inside) {
                    EXPECT_FALSE(Ok) << What;
                    if (!Ok) {
                      EXPECT_EQ(Err.Kind, PlanError::OutsidePart) << What;
                      EXPECT_EQ(Err.Array, 1u) << What;
                    }
                    continue;
                  }
                  ASSERT_TRUE(Ok) << What << " use " << Use << ": "
                                  << describePlanError(Desc, Err, Err.Device);
                  ASSERT_EQ(checkPlan(Desc, Devices, L, Extents, Plan), "")
                      << What << " use " << Use;
                }
              }
            }
  EXPECT_GT(Plans, 10000u);
}

// ALIGN(y): the loop follows y, not the region's first BLOCK array x.
TEST(RegionPlan, LoopAlignedWithArray) {
  std::vector<ArrayExtent> Extents = {{0, 100}, {50, 100}};
  RegionDescriptor Desc =
      region({array("x", ArrayPolicy::Block),
              knownUse(array("y", ArrayPolicy::Block), 0, 0)},
             CompareOp::Less, 1);
  RegionPlan Plan =
      planAndCheck(Desc, 4, loop(50, CompareOp::Less, 150, 1), Extents);
  EXPECT_EQ(Plan.Devices[0].Iterations, (Range{0, 25}));
  EXPECT_EQ(Plan.Devices[0].Parts[1], (Range{50, 75}));
  EXPECT_EQ(Plan.Devices[0].ChunkFirst, 50);
  EXPECT_EQ(Plan.Devices[0].ChunkBound, 75);
  EXPECT_EQ(Plan.Devices[3].Iterations, (Range{75, 100}));
  EXPECT_EQ(Plan.Devices[3].ChunkBound, 150);

  // Reversed and with a step of 2 as well.
  planAndCheck(Desc, 3, loop(149, CompareOp::GreaterEqual, 50, -1), Extents);
  planAndCheck(Desc, 3, loop(50, CompareOp::Less, 150, 2), Extents);
  planAndCheck(Desc, 5, loop(148, CompareOp::Greater, 49, -3), Extents);

  // Without ALIGN(y) the loop follows x, and y's use leaves its part.
  RegionDescriptor Unaligned = Desc;
  Unaligned.LoopFollowsArray = false;
  RegionPlan P;
  PlanError Err{};
  ASSERT_FALSE(planRegion(Unaligned, 4, loop(50, CompareOp::Less, 150, 1),
                          Extents, P, Err));
  EXPECT_EQ(Err.Kind, PlanError::OutsidePart);
  EXPECT_EQ(Err.Array, 1u);
}

// Arrays that follow the loop hold exactly their device's indices.
TEST(RegionPlan, ArraysFollowingTheLoop) {
  RegionDescriptor Desc =
      region({knownUse(array("z", ArrayPolicy::FollowLoop), 0, 0),
              unknownUse(array("w", ArrayPolicy::FollowLoop))},
             CompareOp::Less);
  RegionPlan Plan = planAndCheck(Desc, 3, loop(10, CompareOp::Less, 90, 1),
                                 {{0, 100}, {0, 50}});
  EXPECT_EQ(Plan.Devices[0].Iterations, (Range{0, 27}));
  EXPECT_EQ(Plan.Devices[0].Parts[0], (Range{10, 37}));
  EXPECT_EQ(Plan.Devices[1].Parts[0], (Range{37, 64}));
  EXPECT_EQ(Plan.Devices[2].Parts[0], (Range{64, 90}));
  EXPECT_EQ(Plan.Devices[1].Parts[1], (Range{37, 50}));
  EXPECT_TRUE(Plan.Devices[2].Parts[1].empty());

  for (unsigned Devices = 1; Devices <= 6; ++Devices)
    for (CompareOp Op : AllOps)
      for (int64_t Step : {1, 2, -1, -2}) {
        int64_t First = Step > 0 ? 3 : 96, Bound = Step > 0 ? 97 : 2;
        if (Op == CompareOp::NotEqual) {
          if (Step == 2 || Step == -2)
            continue;
        } else if ((Step > 0) !=
                   (Op == CompareOp::Less || Op == CompareOp::LessEqual)) {
          continue;
        }
        RegionDescriptor D = Desc;
        D.Op = Op;
        planAndCheck(D, Devices, loop(First, Op, Bound, Step),
                     {{0, 100}, {0, 50}});
      }

  // With a BLOCK array the loop follows it and z follows the loop.
  RegionDescriptor Mixed =
      region({knownUse(array("x", ArrayPolicy::Block), 0, 0),
              knownUse(array("z", ArrayPolicy::FollowLoop), 0, 0)},
             CompareOp::Less);
  Plan = planAndCheck(Mixed, 4, loop(0, CompareOp::Less, 64, 1),
                      {{0, 64}, {0, 64}});
  for (const DevicePlan &P : Plan.Devices)
    EXPECT_EQ(P.Parts[1], P.Parts[0]);
}

TEST(RegionPlan, ArraysSameAsAnother) {
  RegionDescriptor Desc =
      region({knownUse(array("x", ArrayPolicy::Block), 0, 0),
              knownUse(array("y", ArrayPolicy::SameAs, 0), 0, 0),
              unknownUse(array("w", ArrayPolicy::SameAs, 0))},
             CompareOp::Less);
  RegionPlan Plan = planAndCheck(Desc, 4, loop(0, CompareOp::Less, 100, 1),
                                 {{0, 100}, {0, 100}, {10, 40}});
  for (const DevicePlan &P : Plan.Devices)
    EXPECT_EQ(P.Parts[1], P.Parts[0]);
  EXPECT_EQ(Plan.Devices[0].Parts[2], (Range{10, 25}));
  EXPECT_EQ(Plan.Devices[1].Parts[2], (Range{25, 50}));
  EXPECT_TRUE(Plan.Devices[2].Parts[2].empty());
  EXPECT_TRUE(Plan.Devices[3].Parts[2].empty());

  // The array it follows need not come first.
  RegionDescriptor Later =
      region({knownUse(array("y", ArrayPolicy::SameAs, 1), 0, 0),
              knownUse(array("x", ArrayPolicy::Block), 0, 0)},
             CompareOp::Less);
  for (unsigned Devices = 1; Devices <= 5; ++Devices)
    planAndCheck(Later, Devices, loop(0, CompareOp::Less, 37, 1),
                 {{0, 37}, {0, 37}});
}

// for (i = n-1; i >= 0; i--): device 0 holds the low indices, which the last
// iterations visit.
TEST(RegionPlan, ReversedLoop) {
  RegionDescriptor Desc =
      region({knownUse(array("x", ArrayPolicy::Block), 0, 0)},
             CompareOp::GreaterEqual);
  RegionPlan Plan = planAndCheck(
      Desc, 4, loop(102, CompareOp::GreaterEqual, 0, -1), {{0, 103}});
  EXPECT_EQ(Plan.Devices[0].Parts[0], (Range{0, 26}));
  EXPECT_EQ(Plan.Devices[0].Iterations, (Range{77, 103}));
  EXPECT_EQ(Plan.Devices[0].ChunkFirst, 25);
  EXPECT_EQ(Plan.Devices[0].ChunkBound, 0);
  EXPECT_EQ(Plan.Devices[3].Iterations, (Range{0, 25}));
  EXPECT_EQ(Plan.Devices[3].ChunkFirst, 102);

  for (unsigned Devices = 1; Devices <= 6; ++Devices)
    for (int64_t N = 0; N <= 30; ++N) {
      planAndCheck(Desc, Devices, loop(N - 1, CompareOp::GreaterEqual, 0, -1),
                   {{0, N}});
      RegionDescriptor Gt = Desc;
      Gt.Op = CompareOp::Greater;
      planAndCheck(Gt, Devices, loop(N - 1, CompareOp::Greater, -1, -1),
                   {{0, N}});
      RegionDescriptor Ne = Desc;
      Ne.Op = CompareOp::NotEqual;
      planAndCheck(Ne, Devices, loop(N - 1, CompareOp::NotEqual, -1, -1),
                   {{0, N}});
    }
}

TEST(RegionPlan, StepTwo) {
  RegionDescriptor Desc =
      region({knownUse(array("x", ArrayPolicy::Block), 0, 0)}, CompareOp::Less);
  RegionPlan Plan =
      planAndCheck(Desc, 4, loop(0, CompareOp::Less, 100, 2), {{0, 100}});
  EXPECT_EQ(Plan.TripCount, 50);
  EXPECT_EQ(Plan.Devices[0].Iterations, (Range{0, 13}));  // 0 .. 24
  EXPECT_EQ(Plan.Devices[1].Iterations, (Range{13, 25})); // 26 .. 48
  EXPECT_EQ(Plan.Devices[1].ChunkFirst, 26);
  EXPECT_EQ(Plan.Devices[1].ChunkBound, 50);

  for (unsigned Devices = 1; Devices <= 6; ++Devices)
    for (int64_t N = 0; N <= 30; ++N) {
      planAndCheck(Desc, Devices, loop(0, CompareOp::Less, N, 2), {{0, N}});
      planAndCheck(Desc, Devices, loop(1, CompareOp::Less, N, 2), {{0, N}});
      RegionDescriptor Le = Desc;
      Le.Op = CompareOp::LessEqual;
      planAndCheck(Le, Devices, loop(0, CompareOp::LessEqual, N - 1, 2),
                   {{0, N}});
      RegionDescriptor Ge = Desc;
      Ge.Op = CompareOp::GreaterEqual;
      planAndCheck(Ge, Devices, loop(N - 1, CompareOp::GreaterEqual, 0, -2),
                   {{0, N}});
    }
}

TEST(RegionPlan, FewerIterationsThanDevices) {
  RegionDescriptor Desc =
      region({knownUse(array("x", ArrayPolicy::Block), 0, 0)}, CompareOp::Less);
  RegionPlan Plan =
      planAndCheck(Desc, 5, loop(0, CompareOp::Less, 3, 1), {{0, 3}});
  for (unsigned D = 0; D < 3; ++D)
    EXPECT_EQ(Plan.Devices[D].Iterations,
              (Range{static_cast<int64_t>(D), static_cast<int64_t>(D) + 1}));
  EXPECT_TRUE(Plan.Devices[3].Iterations.empty());
  EXPECT_TRUE(Plan.Devices[4].Iterations.empty());
  EXPECT_TRUE(Plan.Devices[3].Parts[0].empty());
  EXPECT_TRUE(Plan.Devices[4].Parts[0].empty());

  // Without arrays the iterations themselves are split.
  RegionDescriptor NoArrays = region({}, CompareOp::Less);
  Plan = planAndCheck(NoArrays, 4, loop(0, CompareOp::Less, 2, 1), {});
  EXPECT_EQ(Plan.Devices[0].Iterations, (Range{0, 1}));
  EXPECT_EQ(Plan.Devices[1].Iterations, (Range{1, 2}));
  EXPECT_TRUE(Plan.Devices[2].Iterations.empty());
  EXPECT_TRUE(Plan.Devices[3].Iterations.empty());
  for (unsigned Devices = 1; Devices <= 9; ++Devices)
    for (int64_t N = 0; N <= 12; ++N)
      planAndCheck(NoArrays, Devices, loop(0, CompareOp::Less, N, 1), {});
}

TEST(RegionPlan, ZeroTripLoops) {
  RegionDescriptor WithArray =
      region({knownUse(array("x", ArrayPolicy::Block), 0, 0),
              knownUse(array("z", ArrayPolicy::FollowLoop), 0, 0)},
             CompareOp::Less);
  RegionDescriptor NoArrays = region({}, CompareOp::Less);
  const LoopBounds Empty[] = {loop(5, CompareOp::Less, 5, 1),
                              loop(9, CompareOp::Less, 5, 2),
                              loop(5, CompareOp::LessEqual, 4, 1),
                              loop(5, CompareOp::Greater, 5, -1),
                              loop(3, CompareOp::GreaterEqual, 4, -3),
                              loop(7, CompareOp::NotEqual, 7, 1)};
  for (const LoopBounds &L : Empty)
    for (unsigned Devices = 1; Devices <= 4; ++Devices) {
      RegionDescriptor A = WithArray, B = NoArrays;
      A.Op = B.Op = L.Op;
      RegionPlan Plan = planAndCheck(A, Devices, L, {{0, 10}, {0, 10}});
      EXPECT_EQ(Plan.TripCount, 0);
      for (const DevicePlan &P : Plan.Devices)
        EXPECT_TRUE(P.Iterations.empty());
      Plan = planAndCheck(B, Devices, L, {});
      EXPECT_EQ(Plan.TripCount, 0);
      for (const DevicePlan &P : Plan.Devices)
        EXPECT_TRUE(P.Iterations.empty());
    }
}

// for (i = 0; i < n-1; i++) y[i] = x[i+1]: with x BLOCK, device 0 needs
// x[25] which device 1 holds.
TEST(RegionPlan, UseAtOffsetPlusOneIsRefused) {
  RegionDescriptor Desc =
      region({knownUse(array("c", ArrayPolicy::Duplicate), 0, 1),
              knownUse(array("x", ArrayPolicy::Block), 0, 1)},
             CompareOp::Less);
  std::vector<ArrayExtent> Extents = {{0, 100}, {0, 100}};
  LoopBounds L = loop(0, CompareOp::Less, 99, 1);
  RegionPlan Plan;
  PlanError Err{};
  ASSERT_FALSE(planRegion(Desc, 4, L, Extents, Plan, Err));
  EXPECT_EQ(Err.Kind, PlanError::OutsidePart);
  EXPECT_EQ(Err.Array, 1u);
  EXPECT_EQ(Err.Device, 0u);
  EXPECT_EQ(Err.Needed, (Range{0, 26}));
  EXPECT_EQ(Err.Held, (Range{0, 25}));

  std::string Message = describePlanError(Desc, Err, 7);
  EXPECT_NE(Message.find("'x'"), std::string::npos) << Message;
  EXPECT_NE(Message.find("device 7"), std::string::npos) << Message;
  EXPECT_NE(Message.find("0..1"), std::string::npos) << Message;
  EXPECT_EQ(Message.find("'c'"), std::string::npos) << Message;

  // The same loop with unknown or no uses is planned.
  for (int Use = 0; Use < 2; ++Use) {
    RegionDescriptor D = Desc;
    D.Arrays[1].Uses = Use ? ArrayDesc::UnknownUse : ArrayDesc::NoUse;
    planAndCheck(D, 4, L, Extents);
  }
  // On one device the whole array is held.
  planAndCheck(Desc, 1, L, Extents);
}

// for (i = 1; i < n; i++) y[i] = x[i-1]: device 0 is fine, device 1 needs
// x[24].
TEST(RegionPlan, UseAtOffsetMinusOneNamesTheDevice) {
  RegionDescriptor Desc =
      region({knownUse(array("x", ArrayPolicy::Block), -1, 0),
              knownUse(array("y", ArrayPolicy::SameAs, 0), 0, 0)},
             CompareOp::Less);
  std::vector<ArrayExtent> Extents = {{0, 100}, {0, 100}};
  RegionPlan Plan;
  PlanError Err{};
  ASSERT_FALSE(planRegion(Desc, 4, loop(1, CompareOp::Less, 100, 1), Extents,
                          Plan, Err));
  EXPECT_EQ(Err.Kind, PlanError::OutsidePart);
  EXPECT_EQ(Err.Array, 0u);
  EXPECT_EQ(Err.Device, 1u);
  EXPECT_EQ(Err.Needed, (Range{24, 50}));
  EXPECT_EQ(Err.Held, (Range{25, 50}));
  std::string Message = describePlanError(Desc, Err, 3);
  EXPECT_NE(Message.find("'x'"), std::string::npos) << Message;
  EXPECT_NE(Message.find("device 3"), std::string::npos) << Message;
}

// A second BLOCK array whose extent differs from the loop's owner.
TEST(RegionPlan, MisalignedSecondBlockArrayIsRefused) {
  RegionDescriptor Desc =
      region({knownUse(array("x", ArrayPolicy::Block), 0, 0),
              knownUse(array("half", ArrayPolicy::Block), 0, 0)},
             CompareOp::Less);
  std::vector<ArrayExtent> Extents = {{0, 100}, {0, 50}};
  RegionPlan Plan;
  PlanError Err{};
  ASSERT_FALSE(
      planRegion(Desc, 4, loop(0, CompareOp::Less, 50, 1), Extents, Plan, Err));
  EXPECT_EQ(Err.Kind, PlanError::OutsidePart);
  EXPECT_EQ(Err.Array, 1u);
  EXPECT_EQ(Err.Device, 0u);
  std::string Message = describePlanError(Desc, Err, 0);
  EXPECT_NE(Message.find("'half'"), std::string::npos) << Message;
  EXPECT_NE(Message.find("device 0"), std::string::npos) << Message;

  Desc.Arrays[1].Uses = ArrayDesc::UnknownUse;
  planAndCheck(Desc, 4, loop(0, CompareOp::Less, 50, 1), Extents);
}

TEST(RegionPlan, NonTerminatingLoopIsBadLoop) {
  RegionDescriptor Desc =
      region({array("x", ArrayPolicy::Block)}, CompareOp::Less);
  const LoopBounds Bad[] = {
      loop(0, CompareOp::Less, 10, 0), loop(0, CompareOp::Less, 10, -1),
      loop(10, CompareOp::GreaterEqual, 0, 1),
      loop(0, CompareOp::NotEqual, 10, 2), loop(10, CompareOp::NotEqual, 0, 1)};
  for (const LoopBounds &L : Bad) {
    RegionPlan Plan;
    PlanError Err{};
    EXPECT_FALSE(planRegion(Desc, 2, L, {{0, 10}}, Plan, Err))
        << describe(L, 2);
    EXPECT_EQ(Err.Kind, PlanError::BadLoop) << describe(L, 2);
    EXPECT_FALSE(describePlanError(Desc, Err, 0).empty());
  }
}

// A descriptor as the plugin writes it.
TEST(RegionPlan, FromParsedDescriptor) {
  RegionDescriptor Desc;
  std::string Error;
  ASSERT_TRUE(parseRegionDescriptor("homp 1\n"
                                    "loc axpy.c:10:3\n"
                                    "device all\n"
                                    "loop lt block\n"
                                    "array x to block 0 0\n"
                                    "array y tofrom block 0 0\n"
                                    "array a to dup ?\n",
                                    Desc, Error))
      << Error;
  for (unsigned Devices = 1; Devices <= 4; ++Devices)
    planAndCheck(Desc, Devices, loop(0, CompareOp::Less, 1000, 1),
                 {{0, 1000}, {0, 1000}, {0, 1}});
}
