//===-- homp/Model.h - Loop shares from the machine model -------*- C++ -*-===//
//
// The analytical loop distributions of HOMP'16 section IV.B: MODEL_1_AUTO
// gives each device a share of the iterations proportional to its compute
// rate; MODEL_2_AUTO adds the cost of its copies (Hockney's alpha-beta
// model) and solves for the shares that make every device finish at the
// same time. CUTOFF (IV.E) then drops devices whose share is too small to
// pay off, and splitIterations turns shares into iteration counts.
//
// Unknown numbers (0 in the model, e.g. the compute rate of a GPU, which
// calibration cannot time): a device of unknown rate counts as the mean of the
// known rates among the devices asked about, or NominalGflops when none is
// known, so MODEL_1 treats such devices as equal. A copying device of unknown
// bandwidth counts as the mean of the known bandwidths, and with none known
// its copies cost only their latency.
//
//===----------------------------------------------------------------------===//

#ifndef HOMP_MODEL_H
#define HOMP_MODEL_H

#include "homp/Abi.h"
#include "homp/LoopSpace.h"
#include "homp/MachineModel.h"

#include <cstdint>
#include <vector>

namespace homp {

/// The rate of a device when no device's rate is known (GFLOP/s).
constexpr double NominalGflops = 1.0;

/// What one loop costs, per iteration and per device.
struct LoopCost {
  /// Copied in and out per iteration, for the arrays split with the loop.
  double BytesPerIteration = 0;
  /// Copied once per device whatever its share, e.g. DUPLICATE arrays.
  double FixedBytes = 0;
  double FlopsPerIteration = 1;
  /// The device memory the arrays take (each once, whether copied in, out
  /// or both), for the memory cap: per iteration, and whole on every
  /// device.
  double HeldPerIteration = 0, HeldFixed = 0;
};

/// One array of a kernel or a data region, as a loop's cost counts it.
struct CostedArray {
  double Bytes = 0; ///< of its section
  /// Copied in (1), out (1), both (2), or only held (0).
  int Ways = 0;
  /// Split with the loop: its bytes count per iteration.
  bool FollowsLoop = false;
  /// Split some other way: not whole on every device either, so not counted.
  bool Distributed = false;
};

/// What one iteration of a loop of Trips iterations costs (the memory
/// cap's and the model's inputs), with FlopsPerIteration operations: the
/// arrays that follow the loop copied and held per iteration (their bytes
/// over Trips), those not distributed copied and held whole on every
/// device. The one place kernels and data regions count it.
LoopCost loopCost(double FlopsPerIteration, int64_t Trips,
                  const std::vector<CostedArray> &Arrays);

/// The operations of one iteration of a kernel's innermost distributed
/// loop, from the plugin's count (D.Operations and D.BodyLoops): each body
/// loop's operations times its trip count (Bounds, by the body loop's index;
/// a loop not counted, or that would not terminate, runs once), added into
/// the loop around it. At least 1: an iteration is never free.
double bodyOperations(const abi::Descriptor &D,
                      const std::vector<LoopBounds> &Bounds);

/// The fraction of Iterations each device gets (summing to 1), for the
/// devices ModelIndex lists by their index in M.Devices (an index outside
/// M.Devices is a device of unknown numbers that needs copies).
///
/// Without data (MODEL_1_AUTO) a share is proportional to the device's
/// rate. With data (MODEL_2_AUTO) device i finishes its N_i iterations at
///   T_i = a_i + c_i N_i,  a_i = latency_i + FixedBytes / bandwidth_i,
///   c_i = BytesPerIteration / bandwidth_i + FlopsPerIteration / rate_i
/// (a_i and the bandwidth term are 0 for a device needing no copies), and
/// the N_i make every T_i the same T0:
///   T0 = (N + sum a_i / c_i) / sum 1 / c_i,  N_i = (T0 - a_i) / c_i.
/// A device whose N_i would not be positive (its fixed costs exceed T0)
/// gets 0 and the rest is solved again. With Iterations < 1 the fixed costs
/// are left out.
std::vector<double> modelShares(const MachineModel &M,
                                const std::vector<int> &ModelIndex,
                                const LoopCost &C, int64_t Iterations,
                                bool WithData);

/// CUTOFF: shares below Ratio become 0 and the rest are scaled to sum to 1;
/// the largest share (the first of equals) always stays. cutoff(auto) is
/// Ratio = AutoCutoffMargin / (number of devices) (homp/Scheduler.h).
std::vector<double> applyCutoff(std::vector<double> Shares, double Ratio);

/// What each device's share costs it, in seconds: Fixed[i] whatever the
/// share, PerIteration[i] for each iteration.
struct DeviceCosts {
  std::vector<double> Fixed, PerIteration;
};

/// MODEL_2_AUTO's a_i and c_i (modelShares) of the devices ModelIndex lists.
DeviceCosts modelCosts(const MachineModel &M,
                       const std::vector<int> &ModelIndex, const LoopCost &C);

/// CUTOFF aware of data movement: a device whose copies cost more than its
/// share saves is cut too. Device i ends its share of Iterations at
/// Fixed[i] + PerIteration[i] * Shares[i] * Iterations; the device that
/// ends last (the first of equals) is cut when the loop would end no later
/// without it, its share going to the others in proportion to theirs, and
/// so on while one is. One device always stays. Iterations < 1 (fixed
/// costs unknown) cuts nothing. Shares need not sum to 1; the result does.
std::vector<double> cutUnprofitable(std::vector<double> Shares,
                                    const DeviceCosts &Costs,
                                    int64_t Iterations);

/// Shares kept within the devices' memory: a device's share of Trips
/// iterations needs C.BytesPerIteration per iteration plus C.FixedBytes.
/// A device whose share does not fit (CapacityBytes > 0; 0 or less:
/// unknown, no limit) gets what fits, one iteration spare for rounding, and
/// the rest goes to the others in proportion to their shares, until every
/// share fits. When the devices cannot hold the loop together, Shares come
/// back as they were (the allocation then fails and says so) and Fits, if
/// given, is false. Capped, if given, tells which devices were capped.
std::vector<double> capShares(std::vector<double> Shares, int64_t Trips,
                              const LoopCost &C,
                              const std::vector<double> &CapacityBytes,
                              std::vector<bool> *Capped = nullptr,
                              bool *Fits = nullptr);

/// N iterations split by Shares (any non-negative weights), largest
/// remainder first (the lower index on ties): the counts sum to N and a
/// share of 0 gets 0. All shares 0 splits evenly.
std::vector<int64_t> splitIterations(int64_t N,
                                     const std::vector<double> &Shares);

} // namespace homp

#endif // HOMP_MODEL_H
