//===-- homp/SchedulePolicy.h - How a loop's iterations reach the devices -*-
//C++ -*-=//
//
// The schedule of one execution of a loop whose policy has a scheduler kind
// or is AUTO (SPEC.md section 3), as a function of what is known when it
// runs: the machine model, the settings, the devices and the loop's
// profile (what its earlier executions measured). homp/Scheduler.h has the
// pieces; this puts them together:
//
//  - a loop with a kind runs it; HOMP_SCHEDULE / LOOP_DIST_POLICY override
//    the kind of AUTO loops;
//  - AUTO (the decision rule, docs/UserGuide.md "Load balancing"): the
//    first execution of a region over a device set samples, split by the
//    machine model (as MODEL_PROFILE_AUTO), or runs MODEL_2_AUTO when a
//    machine file gives every device's speed; later executions of a similar
//    size try, and then keep, the fastest of AutoTrials: one share per
//    device, rebalanced after each execution from the devices' times
//    (STEPOCL's damped rule, homp/Rebalancer.h), chunks from a queue, or
//    the fastest device alone;
//  - every share stays within the memory the model gives its device.
//
// libhomp keeps the profiles (and their file, HOMP_PROFILES), builds the
// context once, and measures; nothing here reads the environment or a
// clock.
//
//===----------------------------------------------------------------------===//

#ifndef HOMP_SCHEDULEPOLICY_H
#define HOMP_SCHEDULEPOLICY_H

#include "homp/Abi.h"
#include "homp/Environment.h"
#include "homp/MachineModel.h"
#include "homp/Model.h"
#include "homp/Rebalancer.h"
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
  bool Block = false;     ///< HOMP_SCHEDULE=BLOCK: an even split
  bool ChoseAuto = false; ///< the loop is AUTO and this is its choice
  /// AUTO after its sample: which of its trials this execution runs.
  std::optional<AutoTrial> Trial;
  std::string Why;   ///< for HOMP_INFO: where the choice came from
  int64_t Chunk = 0; ///< Queue: chunk size; Sampled: sample size
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
  /// Sampled: the sample spread over the loop's strata (RateSplit.h), or
  /// its first iterations where the region's last spread sample found the
  /// iterations' costs even (each slice is a launch of its own: matvec
  /// over 4 devices took 25% longer an execution spread).
  bool SpreadSample = true;
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

/// What one region's executions over one device set at one size class
/// taught: first the sample's rates, then damped rebalancing.
struct LoopProfile {
  std::optional<Rebalancer> Split;
  std::optional<AutoTrials> Trials; ///< from the execution after the sample
  int Executions = 0;
  int Learned = 0;       ///< executions the split learned from
  bool Restored = false; ///< started from a saved profile (HOMP_PROFILES)
  /// The split started from the model's shares, the sample agreeing with
  /// them (sampleAgrees).
  bool SplitFromModel = false;
  /// The device (position) that runs the trial of the fastest device alone.
  std::optional<unsigned> Alone;
  /// Per position: a profile kind's rest rate over its sample rate, and
  /// the executions it learned from (updateSampleBias).
  std::vector<double> SampleBias, PieceBias;
  int BiasLearned = 0;
  /// A profile kind's executions left with a contiguous sample before the
  /// next spread one (learnSampleCosts).
  int ContiguousSamples = 0;
};

/// A spread sample that found the costs even lets this many executions
/// after it sample the loop's first iterations, then one spreads again.
constexpr int RespreadEvery = 8;

/// What the schedules of a run are decided from, fixed for the run.
struct PolicyContext {
  const Settings *Env = nullptr;
  /// The machine model as loaded (a machine file, calibration, GPUs'
  /// memory), and as the schedules see it: with HOMP_EMULATE's slowdowns
  /// (emulatedModel).
  const MachineModel *Loaded = nullptr, *Model = nullptr;
  int HostId = 0;
  /// The type of an offload device (abi::DeviceType bits); null: none is
  /// known. (AUTO's trial of one device alone tells kinds apart.)
  int (*TypeOf)(int Device) = nullptr;

  /// How reports name a device: its id, or "host".
  std::string label(int Device) const;
};

/// M with the devices of Factors (per device id: how many times slower
/// HOMP_EMULATE makes it) slower. With any device slowed, every unknown
/// compute rate first becomes the known devices' mean (or the nominal
/// rate): the slowed device's rate alone would otherwise be the only one
/// known, and the model would take the others to be as slow.
MachineModel emulatedModel(MachineModel M, const std::vector<double> &Factors);

/// Whether the model knows every device's compute rate (a machine file).
/// Calibrated rates do not count: they are a probe kernel's, and a sample of
/// the loop itself says more of how fast each device runs it. (AUTO's first
/// execution samples where it does not; AUTO over resident data memorizes.)
bool modelKnowsSpeeds(const MachineModel &M, const std::vector<int> &Devices);

/// Which kind, amount and cutoff an execution of a loop with policy P and
/// the construct's cutoff clause Cut runs, before its profile is looked at.
struct ScheduleRequest {
  bool Block = false; ///< HOMP_SCHEDULE=BLOCK
  abi::SchedKind Kind = abi::SchedKind::Auto;
  abi::Amount Amount;
  std::optional<double> Cutoff;
  std::string Why;
};
ScheduleRequest scheduleRequest(const PolicyContext &Ctx, const abi::Policy &P,
                                abi::Cutoff Cut, unsigned Devices);

/// The schedule of an execution of R over Devices (ids, by position), whose
/// loop has Trips iterations costing C each. Profile: the loop's profile
/// over Devices at this size (null: none yet); an AUTO loop with a split
/// runs its next trial, which advances Profile's trials. Shares are capped
/// by memory (capByMemory).
LoopSchedule chooseSchedule(const PolicyContext &Ctx, const ScheduleRequest &R,
                            const std::vector<int> &Devices, int64_t Trips,
                            const LoopCost &C, LoopProfile *Profile);

/// Makes S, a queue's or a sample's schedule, one share per device (Why
/// says so, with Reason): a sample's shares (the model's, or equal ones)
/// with S's cutoff (not AUTO's: its first execution measures every device,
/// and the cutoff applies to the rates it measures), a queue's equal ones
/// over the devices it kept; both within the devices' memory.
void inOneSharePerDevice(const PolicyContext &Ctx, LoopSchedule &S,
                         const std::vector<int> &Devices, int64_t Trips,
                         const std::string &Reason);

/// Shares (by position of Devices) of Trips iterations whose arrays take
/// C.HeldPerIteration each and C.HeldFixed whole on every device, kept
/// within the memory the model gives each device (memsize in a machine
/// file, a GPU's free memory; capShares). Appends "capped by memory: ..." to
/// Why when a device was capped; Fits, if given, says whether they could
/// be, and Capped which devices were.
std::vector<double> capByMemory(const PolicyContext &Ctx,
                                const std::vector<int> &Devices,
                                std::vector<double> Shares, int64_t Trips,
                                const LoopCost &C, std::string *Why = nullptr,
                                bool *Fits = nullptr,
                                std::vector<bool> *Capped = nullptr);

/// The shares a data region gives a labelled AUTO loop of Trips iterations
/// when it begins (the loop keeps them for the region's lifetime): by the
/// model, with a cutoff: HOMP_SCHEDULE's for an AUTO loop, else the loop's
/// clause Cut, else HOMP_CUTOFF (as scheduleRequest); within the devices'
/// memory, Held being what the region's arrays hold (capByMemory).
/// HOMP_SCHEDULE=BLOCK gives equal shares. The cutoff is the ratio's alone:
/// how often the region's loops will run, which the copies' cost is to be
/// weighed against, is not known when it begins.
std::vector<double> dataRegionShares(const PolicyContext &Ctx,
                                     const abi::Policy &P, abi::Cutoff Cut,
                                     const std::vector<int> &Devices,
                                     int64_t Trips, const LoopCost &Held,
                                     std::string *Why = nullptr);

/// What each device (by position) ran in one execution of an AUTO loop
/// scheduled as S, how long each took, and how long the execution took:
/// P learns from it.
void learnExecution(const PolicyContext &Ctx, LoopProfile &P,
                    const LoopSchedule &S, const std::vector<int> &Devices,
                    int64_t Trips, const std::vector<int64_t> &Iterations,
                    const std::vector<double> &Seconds, double Makespan);

/// What one execution of a profile kind's loop found of its sample
/// (per position: the device's rate on the rest over its rate on its
/// sample part, and over its rate on the pieces it ran; 0: not measured):
/// P's sample and piece biases learn from it.
void learnSampleBias(LoopProfile &P, const std::vector<double> &Observed,
                     const std::vector<double> &ObservedPieces);

/// What one execution of a profile kind's loop found of its iterations'
/// costs: with a spread sample (Spread), even or not (Uneven). After even
/// costs the next RespreadEvery - 1 executions sample contiguously.
void learnSampleCosts(LoopProfile &P, bool Spread, bool Uneven);

} // namespace homp

#endif // HOMP_SCHEDULEPOLICY_H
