//===-- homp/RateSplit.h - A profile kind's split by measured rates -*- C++
//-*-===//
//
// One execution of a loop of a profile kind (SPEC.md section 3): a sample
// [0, Chunk) split by the devices' weights, then the rest [Chunk, N) by the
// rates the sample measured. HOMP'16 waits for the whole sample before
// splitting the rest: the devices done first sit idle until the slowest is
// done (one device of two 4 times slower: 1.15 to 1.25 times the ideal).
// Here a device done with its sample while others still run theirs takes
// the next piece of the rest, as large as its sample part, and the last
// device to finish its sample splits what is left by the rates measured so
// far, each device's share counted from when it will be free
// (sharesWhenFree). A device's sample part counts in its rate for what the
// region's earlier executions found it worth (SampleBias: the device's rate
// on the rest over its rate on its sample part), its pieces likewise
// (PieceBias).
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
    /// Caps the shares of Left iterations (capByMemory); none: as they are.
    std::function<std::vector<double>(std::vector<double> Shares, int64_t Left)>
        Cap;
  };

  explicit RateSplit(Input In);

  /// Device I's part of the sample.
  Range sample(size_t I) const;
  /// Device I ran its sample part for Seconds, Ok or failing; Now is the
  /// time (in seconds, from any origin the caller keeps). The last sample
  /// to finish splits the rest.
  void sampleFinished(size_t I, double Seconds, bool Ok, double Now);
  /// The next piece of the rest for device I, while the rest is not split
  /// and the device did not fail; it starts at Now.
  std::optional<Range> nextPiece(size_t I, double Now);
  /// Device I ran the piece nextPiece gave it for Seconds.
  void pieceFinished(size_t I, Range R, double Seconds, bool Ok);
  /// Whether the rest is split (once every device finished its sample).
  bool restSplit() const { return Rest.has_value(); }
  /// Device I's share of the rest (empty when it failed or was cut off).
  Range restOf(size_t I) const { return (*Rest)[I]; }
  /// Device I ran its share of the rest, Iterations of it, in Seconds.
  void restFinished(size_t I, int64_t Iterations, double Seconds);

  /// What the execution found of device I's sample part and of its pieces
  /// against its part of the rest (sampleBiasObservation): 0 when not
  /// measured.
  double observedSampleBias(size_t I) const;
  double observedPieceBias(size_t I) const;
  /// Whether device I was cut off the rest (the cutoff, or the memory cap
  /// left it nothing), and whether it ran pieces of the rest.
  bool cutOff(size_t I) const { return CutOff[I]; }
  bool tookPieces(size_t I) const { return TookPieces[I]; }
  /// When every device failed: where the iterations no device took begin
  /// (N: none are left).
  int64_t unclaimed() const { return Unclaimed; }

private:
  void finished(size_t I, int64_t Iterations, double Seconds, bool Ok);
  void splitRest(double Now);

  Input In;
  size_t Count;
  int64_t Next;    ///< the rest not handed out yet
  size_t Sampling; ///< devices still in their sample
  /// Per device: iterations and seconds of the parts it finished (sample
  /// and pieces); the piece it runs (0: none) and when it began; whether a
  /// part failed (no more for it).
  std::vector<int64_t> Done, Piece;
  std::vector<double> Seconds, PieceBegan;
  std::vector<bool> Out, CutOff, TookPieces;
  /// Per device: what its sample part and its share of the rest took.
  std::vector<int64_t> SampleDone, RestDone;
  std::vector<double> SampleSeconds, RestSeconds;
  std::optional<std::vector<Range>> Rest;
  int64_t Unclaimed;
};

} // namespace homp

#endif // HOMP_RATESPLIT_H
