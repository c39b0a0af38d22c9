//===-- StepsTest.cpp - What a device does for its part of a kernel -------===//
//
// Lowers hand-made plans of 1-D arrays over three devices (ids 10, 11, 12,
// so that ids and positions differ) and checks each device's steps against
// the parts and halos worked out here by hand.
//
//===----------------------------------------------------------------------===//

#include "homp/Steps.h"

#include "Reference.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

using namespace homp;

namespace {

using Policy = homp::abi::Policy;

/// An array of N doubles, [0, N) mapped, split by Kind over three devices
/// with Halo on both sides (and Edge at both ends).
Distribution distribute(Policy::KindTy Kind, int64_t N, int64_t Halo = 0,
                        homp::abi::Edge Edge = homp::abi::Edge::None) {
  homp::abi::Array A;
  A.Name = "a";
  A.Rank = 1;
  A.Dims[0].Kind = Kind;
  A.Halos[0] = {Halo, Halo, Edge, Edge};
  ArrayShape S;
  S.ElementSize = 8;
  S.Section.Rank = 1;
  S.Section.Dims[0] = {0, N};
  DistributionContext Ctx;
  Ctx.Topo.Dims = {3};
  Ctx.Devices = {10, 11, 12};
  std::string Error;
  std::optional<Distribution> X = distributeArray(A, S, {1, 1, 1}, Ctx, Error);
  EXPECT_TRUE(X) << Error;
  return X ? *X : Distribution();
}

ProductSet set(Range R) {
  Box B;
  B.Rank = 1;
  B.Dims[0] = R;
  return ProductSet::of(B);
}

/// A plan of Arrays whose every device launches Pieces pieces.
KernelPlan planOf(std::vector<Distribution> Arrays, unsigned Pieces = 1) {
  KernelPlan P;
  P.Items = std::move(Arrays);
  P.Work.resize(3);
  for (DeviceWork &W : P.Work)
    W.Pieces.resize(Pieces);
  return P;
}

PartInput partOf(const KernelPlan &Plan, unsigned Position,
                 std::vector<StepArray> Arrays) {
  PartInput In;
  In.Plan = &Plan;
  In.Position = Position;
  In.Device = 10 + static_cast<int>(Position);
  In.Arrays = std::move(Arrays);
  return In;
}

const StepArray To{true, true, false}, From{true, false, true},
    ToFrom{true, true, true}, Stays{false, true, true};

/// The steps as text: 'alloc 0 [9, 21)', 'in 0 [9, 21)', 'launch 1', ...
std::vector<std::string> text(const std::vector<Step> &Steps) {
  std::vector<std::string> Out;
  for (const Step &S : Steps) {
    std::string A = " " + std::to_string(S.Array);
    switch (S.Kind) {
    case Step::Alloc:
      Out.push_back("alloc" + A + " [" + std::to_string(S.Span.Begin) + ", " +
                    std::to_string(S.Span.End) + ")");
      break;
    case Step::CopyIn:
      Out.push_back("in" + A + " " + S.Elements.str());
      break;
    case Step::FillEdge:
      Out.push_back("edge" + A);
      break;
    case Step::Launch:
      Out.push_back("launch " + std::to_string(S.Piece));
      break;
    case Step::CopyOut:
      Out.push_back((S.ToStage ? "stage" : "out") + A + " " + S.Elements.str());
      break;
    case Step::Free:
      Out.push_back("free" + A);
      break;
    case Step::Hold:
      Out.push_back("hold");
      break;
    }
  }
  return Out;
}

using Lines = std::vector<std::string>;

TEST(Steps, AStencilCopiesInWhatItHoldsAndBackWhatItOwns) {
  // u read with a halo of 1, v written: 30 elements over 3 devices.
  KernelPlan Plan = planOf(
      {distribute(Policy::Block, 30, 1), distribute(Policy::Block, 30)}, 2);
  EXPECT_EQ(text(lowerPart(partOf(Plan, 1, {To, From}))),
            (Lines{"alloc 0 [9, 21)", "in 0 " + set({9, 21}).str(),
                   "alloc 1 [10, 20)", "launch 0", "launch 1",
                   "out 1 " + set({10, 20}).str(), "free 0", "free 1"}));
  // The end devices' halos stop at the array's ends.
  EXPECT_EQ(text(lowerPart(partOf(Plan, 0, {To, From})))[0], "alloc 0 [0, 11)");
}

TEST(Steps, ATofromArrayComesBackAfterEveryLaunch) {
  KernelPlan Plan = planOf({distribute(Policy::Block, 30)}, 3);
  EXPECT_EQ(text(lowerPart(partOf(Plan, 2, {ToFrom}))),
            (Lines{"alloc 0 [20, 30)", "in 0 " + set({20, 30}).str(),
                   "launch 0", "launch 1", "launch 2",
                   "out 0 " + set({20, 30}).str(), "free 0"}));
}

TEST(Steps, ArraysThatStayWhereTheyAreHaveNoSteps) {
  // A data region's resident array, or one the body does not use.
  KernelPlan Plan =
      planOf({distribute(Policy::Block, 30), distribute(Policy::Block, 30)});
  EXPECT_EQ(text(lowerPart(partOf(Plan, 0, {Stays, From}))),
            (Lines{"alloc 1 [0, 10)", "launch 0", "out 1 " + set({0, 10}).str(),
                   "free 1"}));
}

TEST(Steps, WorkInTheHostsMemoryOnlyLaunches) {
  KernelPlan Plan = planOf({distribute(Policy::Block, 30, 1)}, 2);
  PartInput In = partOf(Plan, 1, {ToFrom});
  In.InHostMemory = true;
  EXPECT_EQ(text(lowerPart(In)), (Lines{"launch 0", "launch 1"}));
  In.Hold = true;
  EXPECT_EQ(text(lowerPart(In)), (Lines{"launch 0", "launch 1", "hold"}));
}

TEST(Steps, AnEmulatedSlowDeviceHoldsLast) {
  KernelPlan Plan = planOf({distribute(Policy::Block, 30)});
  PartInput In = partOf(Plan, 0, {To});
  In.Hold = true;
  EXPECT_EQ(text(lowerPart(In)),
            (Lines{"alloc 0 [0, 10)", "in 0 " + set({0, 10}).str(), "launch 0",
                   "free 0", "hold"}));
}

TEST(Steps, ADuplicateCopiedBackStartsAsTheHostsAndComesBackToStaging) {
  // Every device holds all of it; from alone, it is still copied in, so
  // that what a device leaves alone compares equal when they are merged.
  KernelPlan Plan = planOf({distribute(Policy::Full, 12)});
  ASSERT_TRUE(Plan.Items[0].duplicated());
  EXPECT_EQ(text(lowerPart(partOf(Plan, 2, {From}))),
            (Lines{"alloc 0 [0, 12)", "in 0 " + set({0, 12}).str(), "launch 0",
                   "stage 0 " + set({0, 12}).str(), "free 0"}));
  // Read only, it is not copied back.
  EXPECT_EQ(text(lowerPart(partOf(Plan, 2, {To}))),
            (Lines{"alloc 0 [0, 12)", "in 0 " + set({0, 12}).str(), "launch 0",
                   "free 0"}));
}

TEST(Steps, PeriodicEdgesAreHeldAndFilledAfterTheCopyIn) {
  KernelPlan Plan =
      planOf({distribute(Policy::Block, 30, 2, homp::abi::Edge::Periodic)});
  // Device 0 holds [-2, 12): its storage spans the cells before the
  // array's start, which the copy in leaves to FillEdge.
  EXPECT_EQ(text(lowerPart(partOf(Plan, 0, {To}))),
            (Lines{"alloc 0 [-2, 12)", "in 0 " + set({0, 12}).str(), "edge 0",
                   "launch 0", "free 0"}));
  // A device with no edge cells fills nothing; written arrays that are not
  // copied in fill nothing either.
  EXPECT_EQ(text(lowerPart(partOf(Plan, 1, {To})))[2], "launch 0");
  EXPECT_EQ(text(lowerPart(partOf(Plan, 0, {From})))[1], "launch 0");
}

TEST(Steps, DevicesOwningAlikeCopyBackWhatTheirIterationsWrite) {
  KernelPlan Plan = planOf({distribute(Policy::Block, 30)});
  // The plan's CopyBack is by the array's positions, found by device id.
  Plan.CopyBack = {{set({0, 4}), set({12, 15}), set({25, 27})}};
  EXPECT_EQ(text(lowerPart(partOf(Plan, 1, {From})))[2],
            "out 0 " + set({12, 15}).str());
}

TEST(Steps, ADeviceHoldingNothingOfAnArrayAllocatesNothing) {
  // 2 elements over 3 devices: the last holds none.
  KernelPlan Plan = planOf({distribute(Policy::Block, 2)});
  ASSERT_TRUE(Plan.Items[0].held(2).empty());
  EXPECT_EQ(text(lowerPart(partOf(Plan, 2, {ToFrom}))), (Lines{"launch 0"}));
}

TEST(Steps, AnUpdateToCopiesWhatTheDeviceHoldsOfTheElements) {
  // Device 1 holds [9, 21) of a halo of 1: an update of [0, 12) reaches
  // its part and its left halo cell.
  Distribution X = distribute(Policy::Block, 30, 1);
  EXPECT_EQ(text(lowerUpdate(X, 1, true, set({0, 12}))),
            (Lines{"in 0 " + set({9, 12}).str()}));
  // Nothing of them on device 2.
  EXPECT_TRUE(lowerUpdate(X, 2, true, set({0, 12})).empty());
  // From the device: what it owns of them.
  EXPECT_EQ(text(lowerUpdate(X, 1, false, set({0, 12}))),
            (Lines{"out 0 " + set({10, 12}).str()}));
}

TEST(Steps, AnUpdateToRefillsEdgeCellsFromTheUpdatedElements) {
  // Periodic: device 0 holds [-1, 11), its cell -1 standing for element
  // 29; device 2 holds [19, 31), its cell 30 for element 0.
  Distribution X = distribute(Policy::Block, 30, 1, homp::abi::Edge::Periodic);
  EXPECT_EQ(text(lowerUpdate(X, 0, true, set({0, 30}))),
            (Lines{
                "in 0 " + set({0, 11}).str(),
                "edge 0",
            }));
  // The executor fills only the cells whose sources were updated: the
  // FillEdge carries the updated elements.
  std::vector<Step> Last = lowerUpdate(X, 2, true, set({0, 5}));
  ASSERT_EQ(Last.size(), 1u);
  EXPECT_EQ(Last[0].Kind, Step::FillEdge);
  EXPECT_EQ(Last[0].Elements, set({0, 5}));
  // A device without edge cells fills nothing.
  EXPECT_EQ(text(lowerUpdate(X, 1, true, set({0, 30}))),
            (Lines{"in 0 " + set({9, 21}).str()}));
}

TEST(Steps, WhatRunsAfterAFailure) {
  for (Step::KindTy K : {Step::Alloc, Step::CopyIn, Step::FillEdge,
                         Step::Launch, Step::CopyOut, Step::Free, Step::Hold})
    EXPECT_TRUE(stepRunsAfter(K, false, false)) << K;
  // A failure before the results reached the host: nothing is copied back,
  // the storage is freed, an emulated device is still held.
  for (Step::KindTy K :
       {Step::Alloc, Step::CopyIn, Step::FillEdge, Step::Launch, Step::CopyOut})
    EXPECT_FALSE(stepRunsAfter(K, true, false)) << K;
  EXPECT_TRUE(stepRunsAfter(Step::Free, true, false));
  EXPECT_TRUE(stepRunsAfter(Step::Hold, true, false));
  // A copy back that failed: the other arrays still come back.
  EXPECT_TRUE(stepRunsAfter(Step::CopyOut, false, true));
  EXPECT_FALSE(stepRunsAfter(Step::Launch, false, true));
}

/// An array of ElementSize-byte elements cut with the sub-parts: Held and
/// Owned elements on the device.
SubPartArray cut(bool In, bool Out, double Held, double Owned,
                 double ElementSize = 8) {
  return {{true, In, Out}, true, ElementSize, Held, Owned};
}

TEST(Steps, SmallSharesRunWhole) {
  // An AXPY share of 64 K doubles: 1.5 MiB in and out.
  EXPECT_EQ(subPartCount(
                {cut(true, false, 65536, 65536), cut(true, true, 65536, 65536)},
                false, 0, 65536),
            1);
  EXPECT_EQ(subPartCount({}, true, 24, 65536), 1);
}

TEST(Steps, LargeSharesRunInSubPartsOfAboutAMebibyte) {
  // An owner-computes AXPY share of 1 M doubles: 24 MiB copied.
  EXPECT_EQ(subPartCount({cut(true, false, 1 << 20, 1 << 20),
                          cut(true, true, 1 << 20, 1 << 20)},
                         false, 0, 1 << 20),
            24);
  // A scheduler's share: its bytes per iteration.
  EXPECT_EQ(
      subPartCount({cut(true, true, 1 << 20, 1 << 20)}, true, 16, 1 << 20), 16);
  // Never more sub-parts than iterations: 100 rows of 1 MiB each.
  EXPECT_EQ(subPartCount({cut(true, true, 100 * 131072.0, 100 * 131072.0)},
                         false, 0, 100),
            100);
}

TEST(Steps, WhatEverySubPartCopiesAgainLimitsThem) {
  // 24 MiB of cut arrays and a 1 MiB table every sub-part copies in again:
  // at most 1 + 24 / 8 = 4 sub-parts, which would be 6 MiB each: whole.
  SubPartArray Table{{true, true, false}, false, 8, 131072, 131072};
  EXPECT_EQ(subPartCount({cut(true, false, 1 << 20, 1 << 20),
                          cut(true, true, 1 << 20, 1 << 20), Table},
                         false, 0, 1 << 20),
            1);
  // A small table limits nothing that matters: 4 KiB.
  Table.Held = Table.Owned = 512;
  EXPECT_EQ(subPartCount({cut(true, false, 1 << 20, 1 << 20),
                          cut(true, true, 1 << 20, 1 << 20), Table},
                         false, 0, 1 << 20),
            24);
  // Halo cells of a cut array count as copied again: 16.25 MiB with a
  // halo of 256 KiB, at most 1 + 16.25 / 2 sub-parts.
  EXPECT_EQ(subPartCount({cut(true, true, (1 << 20) + 32768, 1 << 20)}, false,
                         0, 1 << 20),
            9);
}

TEST(Steps, AnArrayCopiedBackButNotCutKeepsTheShareWhole) {
  // Each sub-part would copy all of it back, over what the ones before
  // wrote.
  SubPartArray Whole{{true, false, true}, false, 8, 1 << 20, 1 << 20};
  EXPECT_EQ(subPartCount({cut(true, false, 1 << 20, 1 << 20), Whole}, false, 0,
                         1 << 20),
            1);
  // Not moving (resident), it does not count.
  Whole.Moves = false;
  EXPECT_EQ(subPartCount({cut(true, false, 1 << 20, 1 << 20), Whole}, false, 0,
                         1 << 20),
            8);
}

} // namespace
