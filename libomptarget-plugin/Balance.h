//===-- Balance.h - Choosing and learning a loop's schedule -----*- C++ -*-===//
//
// Decides, for each execution of a kernel whose loop is AUTO or has a
// scheduler kind, how its iterations reach the devices (homp/Scheduler.h
// has the pieces), and learns from what each execution measured:
//
//  - a loop with a kind runs it; HOMP_SCHEDULE / LOOP_DIST_POLICY override
//    the kind of AUTO loops;
//  - AUTO (the decision rule, docs/UserGuide.md "Load balancing"): the
//    first execution of a region over a device set samples, split by the
//    machine model (as MODEL_PROFILE_AUTO), or runs MODEL_2_AUTO when a
//    machine file gives every device's speed; later executions of a similar
//    size try, and then keep, the fastest of AutoTrials (homp/Scheduler.h):
//    one share per device, rebalanced after each execution from the
//    devices' times (STEPOCL's damped rule, homp/Rebalancer.h), chunks from
//    a queue, or the fastest device alone;
//  - HOMP_EMULATE holds a device after each of its parts so that it looks
//    slower to everything, the measurements and profiles included.
//
//===----------------------------------------------------------------------===//

#ifndef HOMP_LIBOMPTARGET_PLUGIN_BALANCE_H
#define HOMP_LIBOMPTARGET_PLUGIN_BALANCE_H

#include "Construct.h"

#include "homp/Abi.h"
#include "homp/Model.h"
#include "homp/Scheduler.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace homp {

/// How one execution of a scheduled loop runs.
struct LoopSchedule {
  enum ModeTy {
    Shares,  ///< one contiguous share per device, by Weights
    Queue,   ///< chunks from a shared queue (dynamic, guided)
    Sampled, ///< a sample by Weights, then the rest by measured rates
  } Mode = Shares;
  abi::SchedKind Kind = abi::SchedKind::Auto; ///< what runs (never Auto)
  bool Block = false;    ///< HOMP_SCHEDULE=BLOCK: an even split
  bool ChoseAuto = false; ///< the loop is AUTO and this is its choice
  /// AUTO after its sample: which of its trials this execution runs.
  std::optional<AutoTrial> Trial;
  std::string Why;       ///< for HOMP_INFO: where the choice came from
  int64_t Chunk = 0;     ///< Queue: chunk size; Sampled: sample size
  /// Devices predicted below this share get none, nor those whose copies
  /// cost more than their share saves; none without a cutoff.
  std::optional<double> Cutoff;
  /// Per position: Shares, the shares; Sampled, the sample's shares;
  /// Queue, 1 for the devices that take chunks, 0 for those cut off.
  std::vector<double> Weights;
  /// Sampled, per position: what a device's sample part counts for, per
  /// iteration, when the rest is split: its rate on the rest over its rate
  /// on the sample part, as the region's earlier executions found it
  /// (updateSampleBias; empty before any did, which counts as 1).
  std::vector<double> SampleBias;
  /// The same for the pieces of the rest a device ran before the rest was
  /// split: its rate on its share over its rate on them.
  std::vector<double> PieceBias;
  LoopCost Cost; ///< of one iteration, for the model and the memory cap
  /// A sample's schedule run in one share per device (inOneSharePerDevice):
  /// AUTO's first execution learns the devices' rates from it as from a
  /// sample.
  bool FromSample = false;
  /// Per position, whether the memory cap held the device's share below
  /// what the schedule would have given it (empty: none was).
  std::vector<bool> Capped;

  /// 'SCHED_DYNAMIC, chunks of 20', 'AUTO: MODEL_2_AUTO (model)', ...
  std::string describe() const;
};

/// The schedule of an execution of Info's loop with policy P over Devices
/// (ids, by position), whose scheduled loop has Trips iterations costing C
/// each (for the model kinds).
LoopSchedule scheduleLoop(const ConstructInfo &Info, const abi::Policy &P,
                          const std::vector<int> &Devices, int64_t Trips,
                          const LoopCost &C);

/// Makes S, a queue's or a sample's schedule, one share per device (Why
/// says so, with Reason): a sample's shares (the model's, or equal ones)
/// with S's cutoff (not AUTO's: its first execution measures every device,
/// and the cutoff applies to the rates it measures), a queue's equal ones
/// over the devices it kept; both within the devices' memory.
void inOneSharePerDevice(LoopSchedule &S, const std::vector<int> &Devices,
                         int64_t Trips, const std::string &Reason);

/// Shares (by position of Devices) of Trips iterations whose arrays take
/// C.HeldPerIteration each and C.HeldFixed whole on every device, kept
/// within the memory the machine model gives each device (memsize in a
/// machine file, a GPU's free memory; capShares). Appends "capped by memory:
/// ..." to Why when a device was capped; Fits, if given, says whether they
/// could be, and Capped which devices were.
std::vector<double> capByMemory(const std::vector<int> &Devices,
                                std::vector<double> Shares, int64_t Trips,
                                const LoopCost &C, std::string *Why = nullptr,
                                bool *Fits = nullptr,
                                std::vector<bool> *Capped = nullptr);

/// The shares a data region gives a labelled AUTO loop of Trips iterations
/// when it begins (the loop keeps them for the region's lifetime): by the
/// model, with a cutoff: HOMP_SCHEDULE's for an AUTO loop, else the loop's
/// clause Cut, else HOMP_CUTOFF (as chooseSchedule); within the devices'
/// memory, Held being what the region's arrays hold (capByMemory).
/// HOMP_SCHEDULE=BLOCK gives equal shares. The cutoff is the ratio's alone:
/// how often the region's loops will run, which the copies' cost is to be
/// weighed against, is not known when it begins.
std::vector<double> dataRegionShares(const abi::Policy &P, abi::Cutoff Cut,
                                     const std::vector<int> &Devices,
                                     int64_t Trips, const LoopCost &Held,
                                     std::string *Why = nullptr);

/// What one execution of a profile kind's loop over Devices, with Trips
/// iterations, found of its sample: Observed, per position, the device's
/// rate on the rest (pieces and share) over its rate on its sample part
/// (0: not measured). The next execution's schedule counts the sample
/// parts by what the executions so far found (LoopSchedule::SampleBias).
void recordSampleBias(const ConstructInfo &Info,
                      const std::vector<int> &Devices, int64_t Trips,
                      const std::vector<double> &Observed,
                      const std::vector<double> &ObservedPieces);

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
