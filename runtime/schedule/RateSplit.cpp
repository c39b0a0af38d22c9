//===-- RateSplit.cpp - A profile kind's split by measured rates ----------===//

#include "homp/RateSplit.h"

#include "homp/Partition.h"
#include "homp/Scheduler.h"

#include <algorithm>
#include <cmath>

namespace homp {

RateSplit::RateSplit(Input Given)
    : In(std::move(Given)), Count(In.Weights.size()), Slices(Count),
      Sampling(Count), Out(Count, false), CutOff(Count, false),
      TookPieces(Count, false), SlicesRun(Count, 0), SampleSeconds(Count, 0),
      PiecesDone(Count), Running(Count), PieceSeconds(Count, 0),
      PieceBegan(Count, 0), SampleDone(Count, 0), RestDone(Count, 0),
      RestSeconds(Count, 0) {
  auto Fill = [&](std::vector<double> &Bias) { Bias.resize(Count, 1.0); };
  Fill(In.SampleBias);
  Fill(In.PieceBias);
  In.N = std::max<int64_t>(0, In.N);
  const int64_t Sample = std::clamp<int64_t>(In.Chunk, 0, In.N);
  // The devices that sample: those of a positive weight, if any.
  std::vector<double> W = In.Weights;
  double Sum = 0;
  for (double &X : W)
    Sum += X = X > 0 && std::isfinite(X) ? X : 0;
  if (!(Sum > 0)) {
    std::fill(W.begin(), W.end(), 1.0);
    Sum = static_cast<double>(Count);
  }
  const int64_t Sampled =
      std::count_if(W.begin(), W.end(), [](double X) { return X > 0; });
  Strata = static_cast<size_t>(std::clamp<int64_t>(
      In.Spread ? SlicesPerDevice : 1, 1,
      std::max<int64_t>(1, Sample / std::max<int64_t>(1, Sampled))));
  Costs.assign(Strata, 1.0);
  SliceSize.assign(Strata * Count, 0);
  SliceSeconds.assign(Strata * Count, 0);
  // Stratum J's slice in its middle (its cost is the stratum's mean where
  // the cost changes evenly), cut between the devices by their weights:
  // every device samples every stratum, so the devices' rates compare
  // like with like.
  IndexSet Taken;
  const int64_t S = static_cast<int64_t>(Strata);
  for (size_t J = 0; J < Strata && Count > 0; ++J) {
    const int64_t I = static_cast<int64_t>(J);
    const int64_t Size = std::min(Sample * (I + 1) / S - Sample * I / S,
                                  bound(J + 1) - bound(J));
    const int64_t Begin =
        Strata == 1 ? 0 : bound(J) + (bound(J + 1) - bound(J) - Size) / 2;
    for (size_t D = 0; D < Count; ++D) {
      const Range P = weightedBlockPart(Size, W, static_cast<unsigned>(D));
      SliceSize[J * Count + D] = P.size();
      if (P.size() > 0) {
        Slices[D].push_back({Begin + P.Begin, Begin + P.End});
        Taken.add(Slices[D].back());
      }
    }
  }
  // Each device runs its slices from a different place in the loop: its
  // first slice runs cold (sliceFinished), and the strata it leaves to the
  // others' slices lie apart.
  for (size_t D = 0; D < Count; ++D) {
    std::vector<Range> &Mine = Slices[D];
    if (Mine.size() > 1)
      std::rotate(Mine.begin(),
                  Mine.begin() +
                      static_cast<std::ptrdiff_t>(D * Mine.size() /
                                                  std::max<size_t>(1, Count)),
                  Mine.end());
  }
  Unsampled = IndexSet(Range{0, In.N}).minus(Taken);
}

int64_t RateSplit::bound(size_t J) const {
  return In.N * static_cast<int64_t>(J) / static_cast<int64_t>(Strata);
}

size_t RateSplit::stratumOf(int64_t X) const {
  size_t J = In.N > 0
                 ? static_cast<size_t>(X * static_cast<int64_t>(Strata) / In.N)
                 : 0;
  J = std::min(J, Strata - 1);
  while (J + 1 < Strata && bound(J + 1) <= X)
    ++J;
  while (J > 0 && bound(J) > X)
    --J;
  return J;
}

IndexSet RateSplit::sampleOf(size_t I) const {
  IndexSet Sample;
  for (const Range &R : Slices[I])
    Sample = Sample.unite(IndexSet(R)); // not in order: rotated
  return Sample;
}

double RateSplit::cost(const IndexSet &S) const {
  double Total = 0;
  for (const Range &R : S.ranges())
    for (size_t J = stratumOf(R.Begin); J < Strata && bound(J) < R.End; ++J)
      Total += static_cast<double>(std::min(R.End, bound(J + 1)) -
                                   std::max(R.Begin, bound(J))) *
               Costs[J];
  return Total;
}

void RateSplit::sliceFinished(size_t I, Range R, double Took, bool Ok) {
  if (!Ok)
    Out[I] = true;
  if (Out[I])
    return;
  // A device's first slice runs cold (page faults in new storage, its
  // caches): its time counts for the device's rate, not for its stratum's
  // cost, where the device has other slices to tell it.
  if (SlicesRun[I] > 0 || Slices[I].size() == 1)
    SliceSeconds[stratumOf(R.Begin) * Count + I] = Took;
  ++SlicesRun[I];
  SampleSeconds[I] += Took;
}

void RateSplit::measureCosts() {
  // A device's rate is what its slices ran; a stratum's cost per iteration
  // is its slices' times over their devices' rates (the mean of those
  // trusted).
  std::vector<double> Rate(Count, 0);
  for (size_t I = 0; I < Count; ++I) {
    const int64_t Its = sampleOf(I).size();
    if (!Out[I] && SampleSeconds[I] > 0 && Its > 0)
      Rate[I] = static_cast<double>(Its) / SampleSeconds[I];
  }
  std::vector<double> Measured(Strata, 0);
  for (size_t J = 0; J < Strata; ++J) {
    double Sum = 0;
    int Found = 0;
    for (size_t D = 0; D < Count; ++D) {
      const size_t K = J * Count + D;
      if (Rate[D] > 0 && SliceSeconds[K] > 0 && SliceSize[K] > 0) {
        Sum += SliceSeconds[K] * Rate[D] / static_cast<double>(SliceSize[K]);
        ++Found;
      }
    }
    Measured[J] = Found ? Sum / Found : 0;
  }
  // A stratum without a trusted time takes its measured neighbours' mean
  // (past the ends, the nearest one's).
  std::vector<double> Filled = Measured;
  for (size_t J = 0; J < Strata; ++J) {
    if (Filled[J] > 0)
      continue;
    double Left = 0, Right = 0;
    for (size_t K = J; K-- > 0 && !(Left > 0);)
      Left = Measured[K];
    for (size_t K = J + 1; K < Strata && !(Right > 0); ++K)
      Right = Measured[K];
    Filled[J] = Left > 0 && Right > 0 ? (Left + Right) / 2
                : Left > 0            ? Left
                                      : Right;
  }
  const auto [Lo, Hi] = std::minmax_element(Filled.begin(), Filled.end());
  if (!(*Lo > 0) || !(*Hi >= UnevenCost * *Lo))
    return; // even, or not measured: all 1
  // Noise makes one slice's time differ from the next (devices sharing
  // cores take turns): the costs count only where every device that timed
  // both the dearest and the cheapest stratum saw the one UnevenCost times
  // dearer at least, and one did.
  const size_t Dear = static_cast<size_t>(Hi - Filled.begin()),
               Cheap = static_cast<size_t>(Lo - Filled.begin());
  bool Agree = false;
  for (size_t D = 0; D < Count; ++D) {
    const size_t A = Dear * Count + D, B = Cheap * Count + D;
    if (!(Rate[D] > 0) || !(SliceSeconds[A] > 0) || !(SliceSeconds[B] > 0) ||
        SliceSize[A] <= 0 || SliceSize[B] <= 0)
      continue;
    const double Ratio = (SliceSeconds[A] / static_cast<double>(SliceSize[A])) /
                         (SliceSeconds[B] / static_cast<double>(SliceSize[B]));
    if (!(Ratio >= UnevenCost))
      return;
    Agree = true;
  }
  if (!Agree)
    return;
  double Mean = 0;
  for (size_t J = 0; J < Strata; ++J)
    Mean += Filled[J] * static_cast<double>(bound(J + 1) - bound(J));
  Mean /= static_cast<double>(In.N);
  for (size_t J = 0; J < Strata; ++J)
    Costs[J] = Filled[J] / Mean;
}

void RateSplit::sampleFinished(size_t, double Now) {
  if (--Sampling == 0)
    splitRest(Now);
}

/// The first Count indices of S from Next on; Next moves past them.
static IndexSet takeFrom(const IndexSet &S, int64_t &Next, int64_t Count) {
  IndexSet Out;
  for (const Range &R : S.ranges()) {
    if (Count <= 0)
      break;
    if (R.End <= Next)
      continue;
    const int64_t B = std::max(R.Begin, Next);
    const int64_t E = std::min(R.End, B + Count);
    Out.add({B, E});
    Count -= E - B;
    Next = E;
  }
  return Out;
}

std::optional<IndexSet> RateSplit::nextPiece(size_t I, double Now) {
  if (Rest || Out[I] || Unsampled.empty())
    return std::nullopt;
  int64_t Next = Unsampled.hull().Begin;
  Running[I] =
      takeFrom(Unsampled, Next, std::max<int64_t>(1, sampleOf(I).size()));
  Unsampled = Unsampled.minus(Running[I]);
  TookPieces[I] = true;
  PieceBegan[I] = Now;
  return Running[I];
}

void RateSplit::pieceFinished(size_t I, const IndexSet &R, double Took,
                              bool Ok) {
  Running[I] = IndexSet();
  if (!Ok)
    Out[I] = true;
  if (Out[I])
    return;
  PiecesDone[I] = PiecesDone[I].unite(R);
  PieceSeconds[I] += Took;
}

void RateSplit::restFinished(size_t I, double Took) {
  RestDone[I] += cost((*Rest)[I]);
  RestSeconds[I] += Took;
}

double RateSplit::observedSampleBias(size_t I) const {
  return sampleBiasObservation(SampleDone[I], SampleSeconds[I], RestDone[I],
                               RestSeconds[I]);
}

double RateSplit::observedPieceBias(size_t I) const {
  return sampleBiasObservation(cost(PiecesDone[I]), PieceSeconds[I],
                               RestDone[I], RestSeconds[I]);
}

std::vector<IndexSet>
RateSplit::cutByCost(const IndexSet &Left,
                     const std::vector<double> &Shares) const {
  // Where in Left the cost before it reaches Target (to the nearest
  // iteration).
  auto At = [&](double Target) {
    double Spent = 0;
    for (const Range &R : Left.ranges())
      for (size_t J = stratumOf(R.Begin); J < Strata && bound(J) < R.End; ++J) {
        const int64_t B = std::max(R.Begin, bound(J)),
                      E = std::min(R.End, bound(J + 1));
        const double Here = static_cast<double>(E - B) * Costs[J];
        if (Spent + Here >= Target)
          return std::min<int64_t>(
              E, B + std::llround((Target - Spent) / Costs[J]));
        Spent += Here;
      }
    return Left.hull().End;
  };
  std::vector<IndexSet> Parts(Count);
  size_t Last = Count;
  for (size_t I = 0; I < Count; ++I)
    if (Shares[I] > 0)
      Last = I;
  const double Total = cost(Left);
  double Before = 0;
  int64_t From = Left.hull().Begin;
  for (size_t I = 0; I < Count && I <= Last; ++I) {
    if (!(Shares[I] > 0))
      continue;
    Before += Shares[I];
    const int64_t To =
        I == Last ? Left.hull().End : std::max(From, At(Before * Total));
    Parts[I] = Left.intersect(IndexSet(Range{From, To}));
    From = To;
  }
  return Parts;
}

void RateSplit::splitRest(double Now) {
  measureCosts();
  // What each device finished, in iterations of mean cost.
  std::vector<double> Done(Count, 0), Seconds(Count, 0);
  for (size_t I = 0; I < Count; ++I) {
    if (Out[I])
      continue;
    SampleDone[I] = cost(sampleOf(I));
    Done[I] = SampleDone[I] + cost(PiecesDone[I]);
    Seconds[I] = SampleSeconds[I] + PieceSeconds[I];
  }
  std::vector<IndexSet> Parts(Count);
  const IndexSet Left = Unsampled;
  Unsampled = IndexSet();
  // The sample parts and the pieces count for what the region's earlier
  // executions found them worth against the share (SampleBias, PieceBias):
  // small parts run slower than a share (each copies and launches on its
  // own), and some loops' first iterations do less work.
  const std::vector<double> Rates = correctedSampleRates(
      Done, SampleDone, Seconds, In.Weights, In.SampleBias, In.PieceBias);
  std::vector<double> Working;
  {
    const std::vector<double> Measured =
        correctedSampleRates(Done, SampleDone, Seconds, In.Weights, {}, {});
    for (size_t I = 0; I < Count; ++I)
      if (!Out[I])
        Working.push_back(Measured[I]);
  }
  if (Working.empty()) {
    Unclaimed = Left;
    Rest = std::move(Parts);
    return;
  }
  // The cutoff compares the devices' rates as measured (also when the
  // pieces left nothing to split, not when the sample was the whole loop):
  // a device it cuts runs nothing of the rest, so a correction that cut it
  // could never be learned again. A device that finished nothing is rated
  // by its weight; with nothing measured at all, the rates are equal.
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
    if (!Running[I].empty())
      Busy[I] = cost(Running[I]) / Rate - (Now - PieceBegan[I]);
  }
  if (Left.empty()) {
    Rest = std::move(Parts);
    return;
  }
  const double LeftCost = cost(Left);
  Parts = cutByCost(Left, normalizeShares(sharesWhenFree(Use, Busy, LeftCost)));
  if (In.Cap) {
    // The memory cap counts iterations.
    const int64_t N = Left.size();
    std::vector<double> Its(Count);
    for (size_t I = 0; I < Count; ++I)
      Its[I] = static_cast<double>(Parts[I].size()) / static_cast<double>(N);
    const std::vector<double> Capped = In.Cap(Its, N);
    if (Capped != Its) {
      int64_t Next = Left.hull().Begin;
      for (size_t I = 0; I < Count; ++I)
        Parts[I] = takeFrom(Left, Next, weightedBlockPart(N, Capped, I).size());
    }
  }
  for (size_t I = 0; I < Count; ++I)
    if (Use[I] > 0 && Parts[I].empty() && Busy[I] <= 0)
      CutOff[I] = true; // the memory cap left it none
  Rest = std::move(Parts);
}

} // namespace homp
