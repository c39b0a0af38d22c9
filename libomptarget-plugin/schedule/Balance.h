//===-- Balance.h - Choosing and learning a loop's schedule -----*- C++ -*-===//
//
// The layer around the core's schedule policy (homp/SchedulePolicy.h): the
// context it decides from (settings, machine model, HOMP_EMULATE), built
// once; the loops' profiles, in memory and in their file (HOMP_PROFILES),
// which each execution's schedule reads and each execution's measurements
// update; and HOMP_EMULATE's hold, which makes a device look slower to
// everything, the measurements and profiles included.
//
//===----------------------------------------------------------------------===//

#ifndef HOMP_LIBOMPTARGET_PLUGIN_BALANCE_H
#define HOMP_LIBOMPTARGET_PLUGIN_BALANCE_H

#include "Construct.h"

#include "homp/Abi.h"
#include "homp/Model.h"
#include "homp/SchedulePolicy.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace homp {

/// What this run's schedules are decided from (fatal on an invalid machine
/// file or HOMP_EMULATE).
const PolicyContext &policyContext();

/// The schedule of an execution of Info's loop with policy P over Devices
/// (ids, by position), whose scheduled loop has Trips iterations costing C
/// each (for the model kinds).
LoopSchedule scheduleLoop(const ConstructInfo &Info, const abi::Policy &P,
                          const std::vector<int> &Devices, int64_t Trips,
                          const LoopCost &C);

/// What one execution of a profile kind's loop over Devices, with Trips
/// iterations, found of its sample: Observed, per position, the device's
/// rate on the rest (pieces and share) over its rate on its sample part
/// (0: not measured). The next execution's schedule counts the sample
/// parts by what the executions so far found (LoopSchedule::SampleBias).
/// Spread, Uneven: whether the sample was spread, and found the
/// iterations' costs uneven (learnSampleCosts).
void recordSampleBias(const ConstructInfo &Info,
                      const std::vector<int> &Devices, int64_t Trips,
                      const std::vector<double> &Observed,
                      const std::vector<double> &ObservedPieces, bool Spread,
                      bool Uneven);

/// What each device (by position) ran in one execution of an AUTO loop
/// scheduled as S, how long each took, and how long the execution took:
/// AUTO's profile learns from it.
void recordExecution(const ConstructInfo &Info, const LoopSchedule &S,
                     const std::vector<int> &Devices, int64_t Trips,
                     const std::vector<int64_t> &Iterations,
                     const std::vector<double> &Seconds, double Makespan);

/// HOMP_EMULATE: the factor Device (an id, or the host's) is slowed by.
double emulationFactor(int Device);

/// After a part of Seconds on Device: holds it (factor - 1) x Seconds.
void emulateSlowdown(int Device, double Seconds);

} // namespace homp

#endif // HOMP_LIBOMPTARGET_PLUGIN_BALANCE_H
