//===-- RateSplit.cpp - A profile kind's split by measured rates ----------===//

#include "homp/RateSplit.h"

#include "homp/Partition.h"
#include "homp/Scheduler.h"

#include <algorithm>

namespace homp {

RateSplit::RateSplit(Input Given)
    : In(std::move(Given)), Count(In.Weights.size()),
      Next(std::min(In.Chunk, In.N)), Sampling(Count), Done(Count, 0),
      Piece(Count, 0), Seconds(Count, 0), PieceBegan(Count, 0),
      Out(Count, false), CutOff(Count, false), TookPieces(Count, false),
      SampleDone(Count, 0), RestDone(Count, 0), SampleSeconds(Count, 0),
      RestSeconds(Count, 0), Unclaimed(In.N) {
  auto Fill = [&](std::vector<double> &Bias) { Bias.resize(Count, 1.0); };
  Fill(In.SampleBias);
  Fill(In.PieceBias);
}

Range RateSplit::sample(size_t I) const {
  return weightedBlockPart(std::min(In.Chunk, In.N), In.Weights, I);
}

void RateSplit::finished(size_t I, int64_t Iterations, double S, bool Ok) {
  Out[I] = !Ok;
  if (Ok) {
    Done[I] += Iterations;
    Seconds[I] += S;
  }
}

void RateSplit::sampleFinished(size_t I, double S, bool Ok, double Now) {
  finished(I, sample(I).size(), S, Ok);
  SampleDone[I] = Done[I];
  SampleSeconds[I] = Seconds[I];
  if (--Sampling == 0)
    splitRest(Now);
}

std::optional<Range> RateSplit::nextPiece(size_t I, double Now) {
  if (Rest || Out[I] || Next >= In.N)
    return std::nullopt;
  const int64_t Size = std::max<int64_t>(1, sample(I).size());
  Range R{Next, std::min(In.N, Next + Size)};
  Next = R.End;
  Piece[I] = R.size();
  TookPieces[I] = true;
  PieceBegan[I] = Now;
  return R;
}

void RateSplit::pieceFinished(size_t I, Range R, double S, bool Ok) {
  Piece[I] = 0;
  finished(I, R.size(), S, Ok);
}

void RateSplit::restFinished(size_t I, int64_t Iterations, double S) {
  RestDone[I] += Iterations;
  RestSeconds[I] += S;
}

double RateSplit::observedSampleBias(size_t I) const {
  return sampleBiasObservation(SampleDone[I], SampleSeconds[I], RestDone[I],
                               RestSeconds[I]);
}

double RateSplit::observedPieceBias(size_t I) const {
  // What a device finished beyond its sample part is its pieces.
  return sampleBiasObservation(Done[I] - SampleDone[I],
                               Seconds[I] - SampleSeconds[I], RestDone[I],
                               RestSeconds[I]);
}

void RateSplit::splitRest(double Now) {
  std::vector<Range> Parts(Count, Range{Next, Next});
  const int64_t Left = In.N - Next;
  // The sample parts and the pieces count for what the region's earlier
  // executions found them worth against the share (SampleBias, PieceBias):
  // a sample's first iterations may cost less than the loop's, and small
  // parts run slower than a share (each copies and launches on its own).
  const std::vector<double> Rates = correctedSampleRates(
      Done, SampleDone, Seconds, In.Weights, In.SampleBias, In.PieceBias);
  std::vector<double> Working;
  {
    const std::vector<double> Measured = sampleRates(Done, Seconds, In.Weights);
    for (size_t I = 0; I < Count; ++I)
      if (!Out[I])
        Working.push_back(Measured[I]);
  }
  if (Working.empty()) {
    Unclaimed = Next;
    Rest = std::move(Parts);
    return;
  }
  // The cutoff compares the devices' rates as measured (also when the
  // pieces left nothing to split, not when the sample was the whole loop):
  // a device it cuts runs nothing of the rest, so a correction that cut it
  // could never be learned again. sampleRates predicts a device that
  // finished nothing from its weight; with nothing measured at all, the
  // rates are equal.
  const std::vector<double> Kept = sharesByRates(Working, In.Cutoff);
  std::vector<double> Use(Count, 0), Busy(Count, 0);
  for (size_t I = 0, W = 0; I < Count; ++I) {
    if (Out[I])
      continue;
    const double Rate = Rates[I] > 0 ? Rates[I] : 1;
    if (!(Kept[W++] > 0)) {
      CutOff[I] = In.Chunk < In.N;
      continue;
    }
    Use[I] = Rate;
    if (Piece[I] > 0)
      Busy[I] = static_cast<double>(Piece[I]) / Rate - (Now - PieceBegan[I]);
  }
  if (Left <= 0) {
    Rest = std::move(Parts);
    return;
  }
  std::vector<double> Shares = sharesWhenFree(Use, Busy, Left);
  if (In.Cap)
    Shares = In.Cap(std::move(Shares), Left);
  for (size_t I = 0; I < Count; ++I) {
    if (Use[I] > 0 && !(Shares[I] > 0) && Busy[I] <= 0)
      CutOff[I] = true; // the memory cap left it none
    const Range P = weightedBlockPart(Left, Shares, I);
    Parts[I] = {Next + P.Begin, Next + P.End};
  }
  Next = In.N;
  Rest = std::move(Parts);
}

} // namespace homp
