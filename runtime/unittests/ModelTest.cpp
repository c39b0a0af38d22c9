//===-- ModelTest.cpp - Loop shares from the machine model ----------------===//
//
// MODEL_1 and MODEL_2 shares against values worked out by hand, CUTOFF,
// and the largest-remainder split of iterations.
//
//===----------------------------------------------------------------------===//

#include "homp/Model.h"

#include <gtest/gtest.h>

#include <limits>
#include <numeric>

using namespace homp;

namespace {

DeviceModel device(double Gflops, double BandwidthMBs = 0, double LatencyUs = 0,
                   bool NoCopies = false) {
  DeviceModel D;
  D.Type = NoCopies ? "HOST" : "CPU";
  D.Gflops = Gflops;
  D.BandwidthMBs = BandwidthMBs;
  D.LatencyUs = LatencyUs;
  D.NoCopies = NoCopies;
  return D;
}

MachineModel machine(std::vector<DeviceModel> Ds) {
  MachineModel M;
  M.Devices = std::move(Ds);
  return M;
}

void expectShares(const std::vector<double> &Got,
                  const std::vector<double> &Want) {
  ASSERT_EQ(Got.size(), Want.size());
  for (size_t I = 0; I < Want.size(); ++I)
    EXPECT_NEAR(Got[I], Want[I], 1e-12) << "device position " << I;
}

} // namespace

TEST(Model1, ProportionalToRate) {
  MachineModel M = machine({device(2), device(6), device(12)});
  LoopCost C;
  expectShares(modelShares(M, {0, 1, 2}, C, 1000, false), {0.1, 0.3, 0.6});
  // The positions pick devices of the model, in the construct's order.
  expectShares(modelShares(M, {2, 0}, C, 1000, false), {12.0 / 14, 2.0 / 14});
}

TEST(Model1, UnknownRates) {
  // An unknown rate counts as the mean of the known ones, (4 + 8) / 2.
  MachineModel M = machine({device(0), device(4), device(8)});
  expectShares(modelShares(M, {0, 1, 2}, LoopCost(), 10, false),
               {6.0 / 18, 4.0 / 18, 8.0 / 18});
  // None known (calibration): equal. A position outside the model too.
  M = machine({device(0), device(0, 0, 0, true)});
  expectShares(modelShares(M, {0, 1, 7}, LoopCost(), 10, false),
               {1.0 / 3, 1.0 / 3, 1.0 / 3});
}

TEST(Model2, ComputeAndCopies) {
  // The host computes at 1 GFLOP/s: c = 1 ns per iteration. The device at
  // 3 GFLOP/s but copies 1 byte per iteration at 1000 MB/s:
  // c = 1 ns + 1/3 ns = 4/3 ns. Without fixed costs the shares go as 1/c:
  // 1 : 3/4, i.e. 4/7 and 3/7, whatever the iteration count.
  MachineModel M = machine({device(3, 1000), device(1, 0, 0, true)});
  LoopCost C;
  C.BytesPerIteration = 1;
  C.FlopsPerIteration = 1;
  expectShares(modelShares(M, {1, 0}, C, 7000000, true), {4.0 / 7, 3.0 / 7});
  // MODEL_1 sees only the rates, 1 : 3.
  expectShares(modelShares(M, {1, 0}, C, 7000000, false), {0.25, 0.75});

  // 10^6 bytes copied once (a DUPLICATE array) cost the device a = 1 ms.
  // With N = 7e6: T0 = (N + a/c) / (1/c_host + 1/c_dev)
  //                  = (7e6 + 0.75e6) / 1.75e9 s = 31/7 ms,
  // N_host = T0 / 1 ns = 31/7 e6, N_dev = (T0 - 1 ms) / (4/3 ns) = 18/7 e6.
  C.FixedBytes = 1e6;
  expectShares(modelShares(M, {1, 0}, C, 7000000, true),
               {31.0 / 49, 18.0 / 49});
  // Latency counts like the fixed bytes: 1000 us is the same 1 ms.
  C.FixedBytes = 0;
  M.Devices[0].LatencyUs = 1000;
  expectShares(modelShares(M, {1, 0}, C, 7000000, true),
               {31.0 / 49, 18.0 / 49});
}

TEST(Model2, DeviceWhoseCopiesCostMoreIsCut) {
  // As above with a = 1 ms, but N = 1e5: T0 = (1e5 + 0.75e6) / 1.75e9 s
  // = 0.49 ms < a, so the device would get a negative share: it gets none
  // and the host does everything.
  MachineModel M = machine({device(3, 1000, 1000), device(1, 0, 0, true)});
  LoopCost C;
  C.BytesPerIteration = 1;
  expectShares(modelShares(M, {1, 0}, C, 100000, true), {1, 0});
}

TEST(Model2, ResolvedWithoutTheCutDevice) {
  // Three devices: the host (c = 1 ns, a = 0), a fast one (c = 0.5 ns,
  // a = 0.1 ms) and one that is costly to start (c = 1 ns, a = 2 ms).
  // With all three, N = 1e6: sum 1/c = 4e9, sum a/c = 0.2e6 + 2e6,
  // T0 = 3.2e6 / 4e9 = 0.8 ms < 2 ms: the third is cut. Re-solved:
  // T0 = (1e6 + 0.2e6) / 3e9 = 0.4 ms, N_host = 0.4e6,
  // N_fast = (0.4 - 0.1) ms / 0.5 ns = 0.6e6.
  MachineModel M =
      machine({device(1, 0, 0, true), device(2, 0, 100), device(1, 0, 2000)});
  LoopCost C; // no bytes per iteration: c is the compute term only
  expectShares(modelShares(M, {0, 1, 2}, C, 1000000, true), {0.4, 0.6, 0});
}

TEST(Model2, UnknownRatesAndBandwidths) {
  // Calibration: no rates (all count as NominalGflops = 1), bandwidths of
  // the copying devices only. Host c = 1 ns; device 0 c = 1 ns + 1 byte at
  // 1000 MB/s = 2 ns; device 1 of unknown bandwidth counts as the mean of
  // the known ones (1000 MB/s): 2 ns. Shares 1 : 1/2 : 1/2.
  MachineModel M =
      machine({device(0, 1000), device(0, 0), device(0, 0, 0, true)});
  LoopCost C;
  C.BytesPerIteration = 1;
  expectShares(modelShares(M, {2, 0, 1}, C, 1000, true), {0.5, 0.25, 0.25});
  // A model with no bandwidth at all: copies cost nothing per byte.
  M = machine({device(0), device(0, 0, 0, true)});
  expectShares(modelShares(M, {0, 1}, C, 1000, true), {0.5, 0.5});
}

TEST(Model2, NoIterations) {
  // Iterations < 1 leaves the fixed costs out: 1/c as with many.
  MachineModel M = machine({device(3, 1000, 1000), device(1, 0, 0, true)});
  LoopCost C;
  C.BytesPerIteration = 1;
  expectShares(modelShares(M, {1, 0}, C, 0, true), {4.0 / 7, 3.0 / 7});
}

TEST(Cutoff, DropsSmallSharesAndRenormalizes) {
  expectShares(applyCutoff({0.5, 0.3, 0.15, 0.05}, 0.25), {0.625, 0.375, 0, 0});
  // The largest share stays whatever the ratio.
  expectShares(applyCutoff({0.2, 0.5, 0.3}, 0.9), {0, 1, 0});
  expectShares(applyCutoff({0.5, 0.5}, 0.9), {1, 0});
  // cutoff(auto) = 1/4 keeps a share of exactly 1/4.
  expectShares(applyCutoff({0.25, 0.25, 0.25, 0.25}, 0.25),
               {0.25, 0.25, 0.25, 0.25});
  expectShares(applyCutoff({0.4, 0.6}, 0), {0.4, 0.6});
  EXPECT_TRUE(applyCutoff({}, 0.5).empty());
}

TEST(Cutoff, ADeviceWhoseCopiesCostMoreThanItsShareSavesIsCut) {
  // The host (c = 1 us, no copies) and an offload device that copies a
  // 20 MB DUPLICATE array at 4000 MB/s first (a = 5 ms), c = 1 us too.
  const DeviceCosts Costs{{0, 5e-3}, {1e-6, 1e-6}};
  // 1000 iterations half each: the host ends at 0.5 ms, the device at
  // 5.5 ms; the host alone at 1 ms: the device is cut.
  expectShares(cutUnprofitable({0.5, 0.5}, Costs, 1000), {1, 0});
  // 20000 iterations: the device ends at 15 ms, the host alone at 20: kept.
  expectShares(cutUnprofitable({0.5, 0.5}, Costs, 20000), {0.5, 0.5});
  // At 9000 the device ends at 9.5 ms, the host alone at 9: cut.
  expectShares(cutUnprofitable({0.5, 0.5}, Costs, 9000), {1, 0});
  // A device that measured no rate (an infinite cost) leaves the shares.
  const DeviceCosts Unknown{{0, 5e-3},
                            {1e-6, std::numeric_limits<double>::infinity()}};
  expectShares(cutUnprofitable({0.5, 0.5}, Unknown, 1000), {0.5, 0.5});
  // Unlike the ratio's cut, the data's may cut the largest share: the
  // device ends at 5.6 ms, the host alone at 1 ms.
  expectShares(cutUnprofitable({0.4, 0.6}, Costs, 1000), {1, 0});
  // One device always stays: alone, the device ends at 6 ms, and no cut
  // could end the loop sooner.
  expectShares(cutUnprofitable({0, 1}, Costs, 1000), {0, 1});
  // Without a trip count the fixed costs are unknown: nothing is cut.
  expectShares(cutUnprofitable({1, 3}, Costs, 0), {0.25, 0.75});
}

TEST(Cutoff, UnprofitableDevicesGoOneAtATimeFromTheOneThatEndsLast) {
  // Four devices of c = 1 us, 4000 iterations split 0.7, 0.1, 0.1, 0.1.
  // Devices 1 and 2 copy 5 and 4 ms first, device 3 0.2 ms: they end at
  // 2.8, 5.4, 4.4 and 0.6 ms. Without device 1 (shares 7/9, 0, 1/9, 1/9):
  // 3.11, 4.44 and 0.64 ms, sooner: cut. Then without device 2 (0.875, 0,
  // 0, 0.125): 3.5 and 0.7 ms, sooner than 4.44: cut. Device 0 now ends
  // last; device 3 alone would end at 4.2 ms: both stay.
  const DeviceCosts Costs{{0, 5e-3, 4e-3, 2e-4}, {1e-6, 1e-6, 1e-6, 1e-6}};
  expectShares(cutUnprofitable({0.7, 0.1, 0.1, 0.1}, Costs, 4000),
               {0.875, 0, 0, 0.125});
  // Two devices equally costly (3 ms each, ending at 3.4 ms): cutting
  // either gives its share to the other, which then ends later (3.44 ms),
  // and cutting both ends the loop at 3.5 ms: both stay.
  const DeviceCosts Equal{{0, 3e-3, 3e-3, 2e-4}, {1e-6, 1e-6, 1e-6, 1e-6}};
  expectShares(cutUnprofitable({0.7, 0.1, 0.1, 0.1}, Equal, 4000),
               {0.7, 0.1, 0.1, 0.1});
  // A share of 0 stays 0 (device 3 ends at 2.2 ms, device 0 at 2).
  expectShares(cutUnprofitable({0.5, 0, 0, 0.5}, Costs, 4000),
               {0.5, 0, 0, 0.5});
}

TEST(Cutoff, Model2SharesHaveNothingToCut) {
  // MODEL_2_AUTO already ends every device at once and drops those whose
  // fixed costs exceed that: cutting by its own costs changes nothing, and
  // whatever it cuts from other shares never makes the loop end later.
  MachineModel M = machine({device(1, 0, 0, true), device(2, 4000, 100),
                            device(1, 8000, 2000), device(4, 2000, 10)});
  LoopCost C;
  C.BytesPerIteration = 16;
  C.FixedBytes = 1e6;
  for (int64_t N : {100, 10000, 1000000, 100000000}) {
    const DeviceCosts Costs = modelCosts(M, {0, 1, 2, 3}, C);
    const std::vector<double> Shares = modelShares(M, {0, 1, 2, 3}, C, N, true);
    expectShares(cutUnprofitable(Shares, Costs, N), Shares);
    auto End = [&](const std::vector<double> &S) {
      double E = 0;
      for (size_t I = 0; I < S.size(); ++I)
        if (S[I] > 0)
          E = std::max(E, Costs.Fixed[I] + Costs.PerIteration[I] * S[I] * N);
      return E;
    };
    for (const std::vector<double> &Other :
         std::vector<std::vector<double>>{{0.25, 0.25, 0.25, 0.25},
                                          {0.1, 0.2, 0.3, 0.4},
                                          {0.7, 0.1, 0.1, 0.1}}) {
      const std::vector<double> Cut = cutUnprofitable(Other, Costs, N);
      EXPECT_LE(End(Cut), End(Other) * (1 + 1e-12)) << N;
      EXPECT_NEAR(std::accumulate(Cut.begin(), Cut.end(), 0.0), 1, 1e-12);
    }
  }
}

TEST(SplitIterations, LargestRemainder) {
  using V = std::vector<int64_t>;
  EXPECT_EQ(splitIterations(10, {1.0 / 3, 1.0 / 3, 1.0 / 3}), (V{4, 3, 3}));
  // 62.5 and 37.5: the tie goes to the lower index.
  EXPECT_EQ(splitIterations(100, {0.625, 0.375, 0, 0}), (V{63, 37, 0, 0}));
  // Remainders .8 and .2 (of 2.8, 4.2): the 1 left goes to the first.
  EXPECT_EQ(splitIterations(7, {0.4, 0.6}), (V{3, 4}));
  // 1.4, 4.3, 4.3: the remainder .4 is the largest.
  EXPECT_EQ(splitIterations(10, {0.14, 0.43, 0.43}), (V{2, 4, 4}));
  // A share of 0 gets nothing even when there is a remainder to give.
  EXPECT_EQ(splitIterations(7, {0.5, 0, 0.5}), (V{4, 0, 3}));
  EXPECT_EQ(splitIterations(5, {0, 1e-9, 1}), (V{0, 0, 5}));
  // Weights need not sum to 1.
  EXPECT_EQ(splitIterations(9, {2, 1}), (V{6, 3}));
  EXPECT_EQ(splitIterations(5, {0, 0}), (V{3, 2}));
  EXPECT_EQ(splitIterations(0, {1, 1}), (V{0, 0}));
  // 0.3, 0.3, 0.3, 0.3, 1.8: two left, one to each of the largest
  // remainders, .8 and then the first .3.
  EXPECT_EQ(splitIterations(3, {0.1, 0.1, 0.1, 0.1, 0.6}), (V{1, 0, 0, 0, 2}));
}

TEST(SplitIterations, SumsToNForLargeN) {
  int64_t N = (int64_t(1) << 60) + 12345;
  std::vector<double> Shares = {0.1, 0.2, 0.3, 0.4};
  std::vector<int64_t> Counts = splitIterations(N, Shares);
  EXPECT_EQ(std::accumulate(Counts.begin(), Counts.end(), int64_t(0)), N);
  for (size_t I = 0; I < Shares.size(); ++I)
    EXPECT_NEAR(double(Counts[I]) / double(N), Shares[I], 1e-9);
}

//===----------------------------------------------------------------------===//
// Shares within the devices' memory
//===----------------------------------------------------------------------===//

namespace {
LoopCost bytesPerIteration(double B, double Fixed = 0) {
  LoopCost C;
  C.BytesPerIteration = B;
  C.FixedBytes = Fixed;
  return C;
}
} // namespace

TEST(CapShares, UnknownOrLargeMemoryChangesNothing) {
  std::vector<double> S = {0.5, 0.3, 0.2};
  std::vector<bool> Capped;
  EXPECT_EQ(capShares(S, 1000, bytesPerIteration(8), {0, -1, 0}, &Capped), S);
  EXPECT_EQ(Capped, (std::vector<bool>{false, false, false}));
  EXPECT_EQ(capShares(S, 1000, bytesPerIteration(8), {1e9, 1e9, 1e9}), S);
}

TEST(CapShares, ADeviceKeepsWhatFitsAndTheOthersShareTheRest) {
  // Device 0 holds 801 bytes: 100 iterations, 99 with one spare.
  std::vector<bool> Capped;
  std::vector<double> S =
      capShares({0.5, 0.3, 0.2}, 1000, bytesPerIteration(8), {801, 0, 0}, &Capped);
  EXPECT_EQ(Capped, (std::vector<bool>{true, false, false}));
  EXPECT_NEAR(S[0], 0.099, 1e-12);
  // The other 901 iterations by 0.3 : 0.2.
  EXPECT_NEAR(S[1], 0.901 * 0.6, 1e-12);
  EXPECT_NEAR(S[2], 0.901 * 0.4, 1e-12);
}

TEST(CapShares, CapsCascade) {
  // Device 0 is capped; the rest then overflows device 1 too.
  std::vector<bool> Capped;
  std::vector<double> S = capShares({0.4, 0.4, 0.2}, 1000, bytesPerIteration(1),
                                    {101, 351, 0}, &Capped);
  EXPECT_EQ(Capped, (std::vector<bool>{true, true, false}));
  EXPECT_NEAR(S[0], 0.1, 1e-12);
  EXPECT_NEAR(S[1], 0.35, 1e-12);
  EXPECT_NEAR(S[2], 0.55, 1e-12);
}

TEST(CapShares, FixedBytesAndZeroShares) {
  std::vector<bool> Capped;
  // Device 0 cannot even hold the duplicated arrays: it gets nothing.
  std::vector<double> S = capShares({0.5, 0.5, 0}, 100, bytesPerIteration(1, 1000),
                                    {999, 0, 0}, &Capped);
  EXPECT_EQ(S, (std::vector<double>{0, 1, 0})) << "a share of 0 stays 0";
  EXPECT_EQ(Capped, (std::vector<bool>{true, false, false}));
}

TEST(CapShares, WhatDoesNotFitStaysAsItWas) {
  std::vector<double> S = {0.5, 0.5};
  bool Fits = true;
  EXPECT_EQ(capShares(S, 1000, bytesPerIteration(8), {800, 800}, nullptr, &Fits),
            S);
  EXPECT_FALSE(Fits);
  // Devices with no share take none of the rest.
  EXPECT_EQ(capShares({1, 0}, 1000, bytesPerIteration(8), {800, 0}, nullptr,
                      &Fits),
            (std::vector<double>{1, 0}));
  EXPECT_FALSE(Fits);
  capShares(S, 1000, bytesPerIteration(8), {8000, 8000}, nullptr, &Fits);
  EXPECT_TRUE(Fits);
}

TEST(CapShares, TheIterationsFit) {
  // Whatever the split rounds to, no device gets more than it holds.
  for (int64_t Trips : {7, 100, 999, 100003})
    for (double Room : {50.0, 333.0, 4096.0}) {
      std::vector<double> Cap = {Room * 8, 0, Room * 8 * 3, 0};
      std::vector<double> S =
          capShares({0.4, 0.1, 0.4, 0.1}, Trips, bytesPerIteration(8), Cap);
      std::vector<int64_t> Its = splitIterations(Trips, S);
      for (size_t I = 0; I < Cap.size(); ++I)
        if (Cap[I] > 0 && Room * 4 < double(Trips))
          EXPECT_LE(double(Its[I]) * 8, Cap[I])
              << Trips << " iterations, device " << I;
    }
}

//===--- Operations of a loop body ----------------------------------------===//

namespace {

homp::abi::BodyLoop bodyLoop(int Parent, int64_t Ops, bool Counted = true,
                       CompareOp Op = CompareOp::Less) {
  homp::abi::BodyLoop L;
  L.Op = Op;
  L.Parent = Parent;
  L.Operations = Ops;
  L.Counted = Counted;
  return L;
}

LoopBounds bounds(int64_t First, int64_t Bound, int64_t Step = 1,
                  CompareOp Op = CompareOp::Less) {
  return {First, Bound, Step, Op};
}

} // namespace

TEST(BodyOperations, WithoutLoopsTheBodysCountAtLeastOne) {
  homp::abi::Descriptor D;
  EXPECT_EQ(bodyOperations(D, {}), 1); // an empty body is not free
  D.Operations = 5;
  EXPECT_EQ(bodyOperations(D, {}), 5);
}

TEST(BodyOperations, ALoopMultipliesItsBodyByItsTrips) {
  // s = 0; for (k = 0; k < 64; ++k) s += a[i][k] * b[k][j]; c[i][j] = s;
  homp::abi::Descriptor D;
  D.BodyLoops = {bodyLoop(-1, 2)};
  EXPECT_EQ(bodyOperations(D, {bounds(0, 64)}), 128);
  // Three more operations outside it; the loop running backwards by 2.
  D.Operations = 3;
  D.BodyLoops[0].Op = CompareOp::GreaterEqual;
  EXPECT_EQ(bodyOperations(D, {bounds(63, 0, -2, CompareOp::GreaterEqual)}),
            3 + 32 * 2);
}

TEST(BodyOperations, NestedAndSiblingLoops) {
  // for (k < 4) { 1 op; for (l < 5) { 2 ops } }  for (m < 3) { 7 ops }
  homp::abi::Descriptor D;
  D.Operations = 1;
  D.BodyLoops = {bodyLoop(-1, 1), bodyLoop(0, 2), bodyLoop(-1, 7)};
  EXPECT_EQ(bodyOperations(D, {bounds(0, 4), bounds(0, 5), bounds(0, 3)}),
            1 + 4 * (1 + 5 * 2) + 3 * 7);
}

TEST(BodyOperations, LoopsNotCountedRunOnce) {
  // A triangular inner loop (bounds of the loop around it), not counted.
  homp::abi::Descriptor D;
  D.BodyLoops = {bodyLoop(-1, 1), bodyLoop(0, 4, /*Counted=*/false)};
  EXPECT_EQ(bodyOperations(D, {bounds(0, 10), LoopBounds()}), 10 * (1 + 4));
  // A loop that would not terminate by its values also counts once.
  D.BodyLoops[1].Counted = true;
  EXPECT_EQ(bodyOperations(D, {bounds(0, 10), bounds(0, 8, 0)}), 10 * 5);
}

TEST(BodyOperations, EmptyLoopsAddNothing) {
  homp::abi::Descriptor D;
  D.Operations = 2;
  D.BodyLoops = {bodyLoop(-1, 9)};
  EXPECT_EQ(bodyOperations(D, {bounds(5, 5)}), 2);
  D.Operations = 0;
  EXPECT_EQ(bodyOperations(D, {bounds(5, 0)}), 1);
}

// A device's share of S iterations of a loop of Trips copies, by loopCost,
// BytesPerIteration * S + FixedBytes; counted element by element: the rows
// of the arrays split with the loop that the share holds, each once per
// way, and every element of the arrays whole on every device.
TEST(LoopCost, PredictsTheBytesADeviceCopies) {
  const int64_t Trips = 96, Row = 10 * 8; // 10 doubles per iteration
  std::vector<CostedArray> Arrays(4);
  Arrays[0] = {static_cast<double>(Trips * Row), 2, true, false}; // tofrom, aligned
  Arrays[1] = {static_cast<double>(Trips * Row), 1, true, false}; // to, aligned
  Arrays[2] = {4000, 1, false, false};                           // duplicated
  Arrays[3] = {8000, 2, false, true}; // split another way: not counted
  LoopCost C = loopCost(7, Trips, Arrays);
  EXPECT_EQ(C.FlopsPerIteration, 7);
  for (int64_t Share : {0, 1, 13, 48, 96}) {
    double Copied = 0, Held = 0;
    for (int64_t I = 0; I < Share; ++I) {
      Copied += 2 * Row + 1 * Row;
      Held += 2 * Row;
    }
    Copied += 4000;
    Held += 4000;
    EXPECT_DOUBLE_EQ(C.BytesPerIteration * Share + C.FixedBytes, Copied)
        << Share;
    EXPECT_DOUBLE_EQ(C.HeldPerIteration * Share + C.HeldFixed, Held) << Share;
  }
}

TEST(LoopCost, HeldArraysMoveNothing) {
  // A data region's arrays for the memory cap: held, never copied (Ways 0).
  std::vector<CostedArray> Arrays = {{800, 0, true, false}, {64, 0, false, false}};
  LoopCost C = loopCost(1, 100, Arrays);
  EXPECT_EQ(C.BytesPerIteration, 0);
  EXPECT_EQ(C.FixedBytes, 0);
  EXPECT_DOUBLE_EQ(C.HeldPerIteration, 8);
  EXPECT_DOUBLE_EQ(C.HeldFixed, 64);
  // No iterations: the whole section per "iteration", not a division by 0.
  EXPECT_DOUBLE_EQ(loopCost(1, 0, Arrays).HeldPerIteration, 800);
}
