//===-- homp/Scheduler.h - Scheduling a loop over devices -------*- C++ -*-===//
//
// How the iterations of a loop with a scheduler kind (SPEC.md section 3,
// HOMP'16 section IV) reach the devices:
//
//  - the static kinds (MODEL_1_AUTO, MODEL_2_AUTO, and AUTO once a profile
//    is learned) give each device one contiguous share, by weights;
//  - SCHED_DYNAMIC and SCHED_GUIDED hand out chunks from a shared queue
//    that each device's proxy pulls from (ChunkQueue);
//  - the profile kinds run a sample first (equal shares, or the model's),
//    measure each device's rate, and split the rest by those rates.
//
// Also here: the environment forms HOMP_SCHEDULE / LOOP_DIST_POLICY
// ('KIND[,chunk][,cutoff]', HOMP's syntax), HOMP_CUTOFF and HOMP_EMULATE.
//
//===----------------------------------------------------------------------===//

#ifndef HOMP_SCHEDULER_H
#define HOMP_SCHEDULER_H

#include "homp/Abi.h"
#include "homp/IndexSet.h"

#include <array>
#include <cstdint>
#include <limits>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace homp {

/// A loop schedule as HOMP_SCHEDULE gives it: a kind (Block for BLOCK and
/// SCHED_STATIC), a chunk or sample size, and a cutoff.
struct ScheduleSetting {
  bool Block = false; ///< BLOCK / SCHED_STATIC
  abi::SchedKind Kind = abi::SchedKind::Auto;
  abi::Amount Chunk;
  abi::Cutoff Cut;
};

/// Parses 'KIND[,chunk][,cutoff]' (chunk '-1' or empty: not given; sizes
/// as iterations or 'P%'; cutoff a ratio, 'P%' or 'auto'). KIND may be
/// HOMP's omp_dist_policy_t number (1 BLOCK, 8 SCHED_DYNAMIC, 9
/// SCHED_GUIDED, 11 and 12 the models, 13 and 14 the profile kinds); its
/// cutoff is then a percentage, as HOMP reads it ('12,10%,0.01' is 0.01%).
/// std::nullopt with the accepted forms in Error when Text is not valid.
std::optional<ScheduleSetting> parseSchedule(const std::string &Text,
                                             std::string &Error);

/// Parses a cutoff: a ratio in [0, 1), a percentage below 100 ('15%') or
/// 'auto'.
std::optional<abi::Cutoff> parseCutoffText(const std::string &Text);

/// HOMP_EMULATE: device 'Device' (-1: the host) looks Factor times slower.
struct Emulation {
  int Device = 0;
  double Factor = 1;
};

/// Parses 'dev:factor,...' (dev: an id or 'host'; factor >= 1).
/// Why HOMP_EMULATE's entries do not fit a process with NumDevices offload
/// devices (an id no device has); empty when they do.
std::string emulatedDevicesProblem(const std::vector<Emulation> &E,
                                   int NumDevices);

std::optional<std::vector<Emulation>> parseEmulate(const std::string &Text,
                                                   std::string &Error);

/// How far under the mean share (1 / devices) a device's predicted share
/// must be for cutoff(auto) to cut it. HOMP'16 cuts below the mean itself;
/// then devices of equal speed whose measured shares scatter a little
/// around it (4 equal devices measured 0.27, 0.26, 0.24, 0.23) lose half
/// their number: an AXPY on 4 CPU offload devices went from 2.0 to 4.2 ms.
constexpr double AutoCutoffMargin = 0.8;

/// The cutoff ratio a construct uses: its clause, else HOMP_CUTOFF (Env),
/// else none; 'auto' is AutoCutoffMargin / Devices.
double cutoffRatio(const abi::Cutoff &Clause, const abi::Cutoff &Env,
                   unsigned Devices);

/// The chunks of SCHED_DYNAMIC (each Chunk iterations) or SCHED_GUIDED
/// (each the larger of Chunk and half the remaining iterations divided by
/// the devices) of the iterations [0, N), handed out in order to whoever
/// asks first. Thread-safe.
class ChunkQueue {
public:
  ChunkQueue(int64_t N, abi::SchedKind Kind, int64_t Chunk, unsigned Devices);
  /// The next chunk; std::nullopt when every iteration is handed out.
  std::optional<Range> next();

private:
  std::mutex M;
  int64_t Next = 0;
  const int64_t N, Chunk;
  const bool Guided;
  const unsigned Devices;
};

/// The default chunk (dynamic: 2%, guided: 1% of the loop) and sample
/// (profile kinds: 10%) sizes, as HOMP'16 section VI uses them.
abi::Amount defaultAmount(abi::SchedKind K);

/// Shares scaled to sum to 1; all zero: equal shares.
std::vector<double> normalizeShares(std::vector<double> Shares);

/// Shares of the devices by rates (iterations per second), with Cutoff
/// applied: a device below it gets 0, at least one device remains. A rate
/// of 0 (not measured) counts as an average device's.
std::vector<double> sharesByRates(std::vector<double> Rates, double Cutoff);

/// The rates of a sample: per device Iterations / Seconds; a device that
/// ran none of it gets the rate its Weight predicts, scaled as the measured
/// devices' rates are to their weights.
std::vector<double> sampleRates(const std::vector<int64_t> &Iterations,
                                const std::vector<double> &Seconds,
                                const std::vector<double> &Weights);

/// A profile kind's rates when the rest is split: per device, Done
/// iterations (of mean cost, RateSplit.h: a real number) in Seconds, SampleDone
/// of them its sample part and the others pieces of the rest; the sample part
/// counts for Bias times its iterations (updateSampleBias; 1 where Bias is
/// short or not positive). A device that finished nothing gets the rate its
/// Weight predicts, as in sampleRates, scaled as the measured devices'
/// corrected rates are. The pieces count for PieceBias times their iterations
/// in the same way (empty: as they are).
std::vector<double> correctedSampleRates(
    const std::vector<double> &Done, const std::vector<double> &SampleDone,
    const std::vector<double> &Seconds, const std::vector<double> &Weights,
    const std::vector<double> &Bias, const std::vector<double> &PieceBias = {});

/// What one execution found of a device's sample: its rate on the rest
/// (RestDone iterations of mean cost in RestSeconds, its pieces and share) over
/// its rate on its sample part (SampleDone in SampleSeconds); 0 when either was
/// not measured.
double sampleBiasObservation(double SampleDone, double SampleSeconds,
                             double RestDone, double RestSeconds);

/// Shares of Rest iterations between devices that run Rates[I] iterations
/// a second and are free after Busy[I] seconds, such that all end at the
/// same time T: device I gets Rates[I] * max(0, T - Busy[I]) iterations
/// (a device busy past T gets none). Scaled to sum to 1; a rate that is
/// not a positive number gets none, a busy time that is not a number counts
/// as 0; nothing to share (Rest <= 0): by the rates; no rate: equal shares.
std::vector<double> sharesWhenFree(const std::vector<double> &Rates,
                                   const std::vector<double> &Busy,
                                   double Rest);

/// How far a profile kind's correction of a device's sample rate may go:
/// the rate is scaled by at most this much, or its inverse.
constexpr double SampleBiasLimit = 4;

/// The correction of a profile kind's sample rates after one more
/// execution: per device, Bias (its rate on the rest, pieces and share,
/// over its rate on its sample part, as the earlier executions found it;
/// empty or short: 1) moves halfway to Observed (this execution's; a device
/// with none, 0 or not a number, keeps its own), and stays within
/// [1 / SampleBiasLimit, SampleBiasLimit]. The sample's first iterations
/// may not be the loop's (a stencil's boundary rows do less work), and a
/// small sample part is partly a launch's fixed cost: when the rest is
/// split, a device's sample part counts for its iterations times its bias
/// (bm2d over two devices, one 4x slower, each with a core: 3.37 ms an
/// execution without it, 3.19 with it, for an ideal of 3.13; over 4
/// devices on 2 cores, 2.34 and 2.20 ms).
std::vector<double> updateSampleBias(std::vector<double> Bias,
                                     const std::vector<double> &Observed);

/// The ways AUTO runs a loop once it has sampled it (docs/UserGuide.md,
/// "Load balancing"): the split rebalanced from the devices' times, the
/// machine model's split (MODEL_2_AUTO: the devices' times alone miss what
/// the copies of one device cost the others), chunks from a queue
/// (SCHED_DYNAMIC, HOMP'16's choice for loops between data and compute), or
/// the device the split rates fastest alone (a loop whose copies cost more
/// than the other devices' help saves).
enum class AutoTrial { Balanced, Model, Dynamic, Alone };
const char *autoTrialName(AutoTrial T);

/// The device (a position in Split) that AUTO's trial of the fastest device
/// alone runs on: the one the split rates highest; but HostByModel, the
/// host's position when the machine model rates the host highest, if the
/// split keeps it (the host copies nothing, which the model knows, while
/// the sample measured it sharing the cores with the offload devices); and
/// Before, the device the trial ran on last time, while it is of the same
/// kind (Kinds: per position, equal for the host or for offload devices of
/// one type) and the split rates it within AloneStickWithin of that device's
/// share (devices of one speed take turns at the top of a split that is
/// still learning, and a trial on another device starts cold).
unsigned aloneDevice(const std::vector<double> &Split,
                     std::optional<unsigned> HostByModel,
                     std::optional<unsigned> Before,
                     const std::vector<int> &Kinds);
constexpr double AloneStickWithin = 0.8;

/// AUTO tries the fastest device alone only where it may win: where the
/// host takes part (it copies nothing, which the sample, measuring every
/// device sharing the cores, does not show), or where the sample's split
/// rates one device at this share or more. Elsewhere the others' help is
/// worth more than it costs: the fastest of 4 CPU offload devices alone,
/// its share under 0.35, took 3.9 to 6.1 times the best kind's time in its
/// trial and again in its warm retry (axpy, matvec, stencil2d, sum).
constexpr double AloneWorthShare = 0.5;

/// AUTO's balanced split starts from the model's shares rather than its
/// sample's rates where the two agree within this factor (sampleAgrees);
/// the model's trial would then run the same split, and is left out, and
/// the split is patient (Rebalancer): it moves only on what several
/// executions' times show, and half way (damped from 2).
/// A first execution is cold and, on devices that share cores, noisy: the
/// samples of 4 equal CPU offload devices on 2 cores measured rates 1.1 to
/// 4.3 times apart (6 runs each of axpy, matvec, stencil2d, sum, bm2d; a
/// median of 2.2), and the split made from them took 1.5 to 2.4 times the
/// even split's time in its first executions (stencil2d, matvec). A GPU
/// among CPUs is over 10x off; a device HOMP_EMULATE slows is in the model.
/// A device the model does not know to be 2 to 5 times slower costs the
/// split's first executions, until its times move it.
constexpr double SampleAgreesWithin = 5;

/// Whether the sample's rates (per position; 0: left out) agree with the
/// model's shares (per position): each device's measured rate over its
/// predicted share is within SampleAgreesWithin of every other's, and both
/// leave out the same devices.
bool sampleAgrees(const std::vector<double> &Rates,
                  const std::vector<double> &Model);

/// SCHED_DYNAMIC can only gain over a balanced split what the split's
/// slowest device takes over the mean (and loses its chunks' launches):
/// AUTO tries it only after a balanced execution whose imbalance (slowest
/// over mean device time) is at least this. A balanced split within it
/// leaves dynamic under 10% to win, which 50 launches per loop eat (a 2-D
/// stencil's SCHED_DYNAMIC trial over 4 CPU offload devices took 1.5 to
/// 1.8 times the even split's 1.6 ms).
constexpr double DynamicWorthImbalance = 1.1;

/// The slowest over the mean of Seconds' positive times (1: none, or one).
double imbalanceOf(const std::vector<double> &Seconds);

/// AUTO's choice among its trials, from the times of whole executions:
/// after the sample, two balanced executions (the split settles), then the
/// model's split, dynamic and alone once each, those not ruled out
/// (ruleOut: what was measured or predicted shows they cannot win). Those first executions are
/// cold (page faults in new storage, caches), and a trial's first time can
/// be several times its time once warm: each trial, the balanced split
/// included, whose shortest time is at most RetryWithin times the shortest
/// time of any trial so far runs once more, right after them (measured:
/// SCHED_DYNAMIC over devices 4x and 20x slower, 12.6 ms in its trial,
/// 1.1 ms warm; the balanced split of a 13-point stencil over 4 equal
/// devices, 5.3 ms cold, 0.8 ms warm). One warm time per trial is not
/// enough on a loop of a few milliseconds, where other programs and the OS
/// make one execution's time differ from the next's by tens of percent
/// (once at 2.1 ms, steady at 3 ms, beat a trial at 2.4 ms): so each
/// contender, a trial whose shortest time is at most ConfirmWithin times
/// the best typical time, runs once more to confirm, the one with the
/// shortest typical time first, the contenders found again after each. A
/// trial is confirmed once at most (at most four confirmations), and its
/// last three times are then its last cold one and two warm ones. From then
/// on the trial with the shortest typical time runs, the runner-up again
/// every 16th execution in case things changed. With one device: always
/// balanced.
class AutoTrials {
public:
  /// The executions after the sample that try each way once.
  static constexpr int Opening = 5;
  /// A trial runs again, warm, when its shortest time was at most this many
  /// times the shortest time of any trial so far.
  static constexpr double RetryWithin = 8;
  /// After the warm retries, a trial whose shortest time is at most this
  /// many times the best typical time runs again to confirm it.
  static constexpr double ConfirmWithin = 1.3;
  /// Why the next execution runs a trial again, if it does.
  enum class Repeat { None, Warm, Confirm };
  explicit AutoTrials(unsigned Devices);
  /// What the next execution runs.
  AutoTrial next() const;
  /// Whether, and why, the next execution runs a trial again.
  Repeat repeatingNext() const;
  /// The execution after next() ran T in Seconds.
  void record(AutoTrial T, double Seconds);
  /// The typical time of T so far; +infinity when it has not run.
  double typical(AutoTrial T) const;
  /// Starts from a saved profile (SavedProfiles.h): the trials' typical
  /// times Typical (+infinity: not run) stand for the opening, and no trial
  /// runs again.
  void restore(const std::array<double, 4> &Typical);
  /// Executions recorded.
  int executions() const { return Executions; }
  /// The opening's executions: Opening, less the trials ruled out.
  int opening() const { return static_cast<int>(Order.size()); }
  /// Leaves T out of the opening, and so out of everything after it, while
  /// the opening has not reached it: what was measured or predicted shows
  /// it cannot win, or that it would run what another trial runs. Why says
  /// which ("no device alone: none has half the split"). The balanced
  /// split is never left out.
  void ruleOut(AutoTrial T, const std::string &Why);
  bool ruledOut(AutoTrial T) const {
    return !Left[static_cast<int>(T)].empty();
  }
  /// Why the trials left out were, "; "-joined ("" when none was).
  std::string ruledOutWhy() const;

private:
  /// After the opening, the trial that runs again warm next, if any.
  std::optional<AutoTrial> warmRetry() const;
  /// After the warm retries, the trial that runs again to confirm, if any.
  std::optional<AutoTrial> confirmation() const;
  /// The shortest of T's last three times; +infinity when it has not run.
  double shortest(AutoTrial T) const;

  unsigned Devices;
  int Executions = 0;
  /// The opening's trials in order, less those ruled out (opening()).
  std::vector<AutoTrial> Order;
  std::array<std::string, 4> Left; ///< per trial: why it was ruled out
  /// The shortest time recorded, of any trial (what RetryWithin scales).
  double Fastest = std::numeric_limits<double>::infinity();
  int Repeats = 0;               ///< warm retries and confirmations recorded
  bool Settled = false;          ///< a steady execution came: no more repeats
  std::array<int, 4> WarmRuns{}; ///< per trial: executions after the opening
  std::array<std::vector<double>, 4> Times; ///< the last three per trial
};

} // namespace homp

#endif // HOMP_SCHEDULER_H
