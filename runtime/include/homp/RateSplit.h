//===-- homp/RateSplit.h - A profile kind's split by measured rates -*- C++
//-*-===//
//
// One execution of a loop of a profile kind (SPEC.md section 3): a sample
// of Chunk iterations split by the devices' weights, then the rest by the
// rates the sample measured.
//
// HOMP'16 samples the loop's first iterations. Where the iterations' costs
// differ along the loop (NPB-MZ's zones, smallest first; a triangular
// nest), that sample measures the cheapest part and the split of the rest
// by a uniform rate gives the devices with the last iterations the most
// work. Here the sample is spread: the loop is cut into strata, as many as
// SlicesPerDevice times the devices, and the sample is a slice at the
// start of each, the slices dealt to the devices in turn by their weights.
// Each slice is timed on its own: a device's rate is what its slices ran
// (a spread sample stands for the whole loop), and a slice's time over its
// device's rate is its stratum's cost per iteration. The rest is split in
// cost, not in iterations: each device gets a run of the rest whose
// predicted time (its strata's costs over the device's rate) ends with the
// others'.
//
// HOMP'16 also waits for the whole sample before splitting the rest: the
// devices done first sit idle until the slowest is done (one device of two
// 4 times slower: 1.15 to 1.25 times the ideal). Here a device done with
// its sample while others still run theirs takes the next piece of the
// rest, as large as its sample part, and the last device to finish its
// sample splits what is left by the rates measured so far, each device's
// share counted from when it will be free (sharesWhenFree). A device's
// sample part counts in its rate for what the region's earlier executions
// found it worth (SampleBias: the device's rate on the rest over its rate
// on its sample part), its pieces likewise (PieceBias).
//
// RateSplit is the bookkeeping of that protocol, with the clock read by
// its caller: the executor runs each device's parts on its own thread and
// calls it under one lock; the unit tests drive it with simulated devices.
//
//===----------------------------------------------------------------------===//

#ifndef HOMP_RATESPLIT_H
#define HOMP_RATESPLIT_H

#include "homp/IndexSet.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

namespace homp {

class RateSplit {
public:
  struct Input {
    int64_t N = 0;     ///< the loop's iterations
    int64_t Chunk = 0; ///< the sample's
    /// Per device: its weight for the sample (above 0: the others take no
    /// part), and the corrections of its sample part's and its pieces'
    /// rates (empty or short: 1).
    std::vector<double> Weights, SampleBias, PieceBias;
    double Cutoff = 0; ///< a device below it runs nothing of the rest
    /// The sample spread over the strata; false: the loop's first Chunk
    /// iterations, one slice per device (where the costs were found even,
    /// SchedulePolicy's SpreadSample).
    bool Spread = true;
    /// Caps the shares of Left iterations (capByMemory); none: as they are.
    std::function<std::vector<double>(std::vector<double> Shares, int64_t Left)>
        Cap;
  };

  explicit RateSplit(Input In);

  /// The strata, and so each device's slices of the sample (fewer where
  /// the sample is smaller).
  static constexpr int SlicesPerDevice = 4;
  /// How far apart the strata's costs must be (the dearest over the
  /// cheapest), every device that timed both finding as much, for the
  /// rest to be split by them; otherwise it is split in
  /// iterations. Slice times differ by noise as much: a loop of even costs
  /// over 4 devices on 2 cores measured 0.64 to 1.7 times the mean.
  static constexpr double UnevenCost = 2;

  /// Device I's part of the sample: its slices, in the order it runs them.
  const std::vector<Range> &sample(size_t I) const { return Slices[I]; }
  /// Device I ran slice R of its sample for Seconds, Ok or failing (no
  /// more counts for it then).
  void sliceFinished(size_t I, Range R, double Seconds, bool Ok);
  /// Device I ran its sample (sliceFinished for each slice); Now is the
  /// time (in seconds, from any origin the caller keeps). The last sample
  /// to finish splits the rest.
  void sampleFinished(size_t I, double Now);
  /// The next piece of the rest for device I, while the rest is not split
  /// and the device did not fail; it starts at Now.
  std::optional<IndexSet> nextPiece(size_t I, double Now);
  /// Device I ran the piece nextPiece gave it for Seconds.
  void pieceFinished(size_t I, const IndexSet &R, double Seconds, bool Ok);
  /// Whether the rest is split (once every device finished its sample).
  bool restSplit() const { return Rest.has_value(); }
  /// Device I's share of the rest (empty when it failed or was cut off):
  /// one run of the rest, which the sample's slices may cut.
  const IndexSet &restOf(size_t I) const { return (*Rest)[I]; }
  /// Device I ran its share of the rest in Seconds.
  void restFinished(size_t I, double Seconds);
  /// Each stratum's cost per iteration, as the sample measured it (mean 1
  /// over the loop), and the strata: stratum J is [bound(J), bound(J + 1)).
  /// All 1 when the costs are even (UnevenCost).
  const std::vector<double> &costs() const { return Costs; }
  int64_t bound(size_t J) const;

  /// What the execution found of device I's sample part and of its pieces
  /// against its part of the rest (sampleBiasObservation): 0 when not
  /// measured.
  double observedSampleBias(size_t I) const;
  double observedPieceBias(size_t I) const;
  /// Whether device I was cut off the rest (the cutoff, or the memory cap
  /// left it nothing), and whether it ran pieces of the rest.
  bool cutOff(size_t I) const { return CutOff[I]; }
  bool tookPieces(size_t I) const { return TookPieces[I]; }
  /// When every device failed: the iterations no device took (none are
  /// left otherwise).
  const IndexSet &unclaimed() const { return Unclaimed; }

private:
  /// The stratum holding iteration X.
  size_t stratumOf(int64_t X) const;
  /// Device I's sample, as a set.
  IndexSet sampleOf(size_t I) const;
  /// What iterations S cost, in iterations of mean cost.
  double cost(const IndexSet &S) const;
  /// The strata's costs from the slices' times (costs()).
  void measureCosts();
  void splitRest(double Now);
  /// Left cut into consecutive runs, one per device, of the costs Shares.
  std::vector<IndexSet> cutByCost(const IndexSet &Left,
                                  const std::vector<double> &Shares) const;

  Input In;
  size_t Count;
  std::vector<std::vector<Range>> Slices; ///< per device
  size_t Strata;
  std::vector<double> Costs; ///< per stratum
  /// Per stratum J and device D, at J x Count + D: the iterations of D's
  /// slice of J, and the time it took (0: not measured, or not trusted).
  std::vector<int64_t> SliceSize;
  std::vector<double> SliceSeconds;
  IndexSet Unsampled; ///< the rest not handed out yet
  size_t Sampling;    ///< devices still in their sample
  /// Per device: whether a part failed (no more counts for it), how many
  /// of its slices it ran, the seconds of its sample; the pieces it
  /// finished and their seconds; the piece it runs and when it began.
  std::vector<bool> Out, CutOff, TookPieces;
  std::vector<size_t> SlicesRun;
  std::vector<double> SampleSeconds;
  std::vector<IndexSet> PiecesDone, Running;
  std::vector<double> PieceSeconds, PieceBegan;
  /// Per device, once the strata's costs are known: the cost of its
  /// sample, and what its share of the rest cost and took.
  std::vector<double> SampleDone, RestDone, RestSeconds;
  std::optional<std::vector<IndexSet>> Rest;
  IndexSet Unclaimed;
};

} // namespace homp

#endif // HOMP_RATESPLIT_H
