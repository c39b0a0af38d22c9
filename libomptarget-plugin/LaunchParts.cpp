//===-- LaunchParts.cpp - Running a kernel's loop in parts ----------------===//
//
// A device's share in sub-parts, and loops a scheduler splits at run time:
// chunks from a shared queue, or a sample and then the rest by the rates
// the sample measured (Launcher.h).
//
//===----------------------------------------------------------------------===//

#include "Launcher.h"

#include "Devices.h"
#include "Machine.h"
#include "Observe.h"
#include "ProxyPool.h"

#include "homp/CoreShares.h"
#include "homp/Info.h"
#include "homp/Partition.h"
#include "homp/Reduction.h"
#include "homp/Scheduler.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace homp {
namespace launch {

/// Operations per byte copied from which a loop counts as compute-bound
/// (bm2d 96, matmul 32; a 13-point stencil 1.2, matvec 0.25, AXPY 0.08).
constexpr double ComputeBound = 8;

void Launcher::runPart(Slot &S, const IndexSet &Iterations) {
  // A launch of the part that failed may have brought a reduction back.
  std::vector<std::vector<char>> Before = S.Reductions;
  runSlot(S);
  // A compute-bound loop's device gives its core up between parts: another
  // device's thread waiting for that core (devices outnumbering the cores)
  // runs now, not at the end of the system's time slice, which can be as
  // long as the loop: a profile kind's device would finish its sample last
  // (bm2d over 4 devices on 2 cores, device 0 4 times slower,
  // SCHED_PROFILE_AUTO: 2.4 to 2.9 ms an execution, 2.2 to 2.3 with the
  // yield). A data-bound loop's device keeps it: its next part finds the
  // core's cache its own (a sum of 4e6 took 2.3 ms yielding, 1.9 without);
  // but see runSampled for AUTO's first execution.
  if (K.Sched &&
      K.Sched->Cost.FlopsPerIteration >=
          ComputeBound * std::max(1.0, K.Sched->Cost.BytesPerIteration))
    sched_yield();
  if (S.Status == Slot::FailedBeforeResults) {
    S.Failed = S.Failed.unite(Iterations);
    S.Reductions = std::move(Before);
  }
}

int64_t Launcher::subParts(const Slot &S, int64_t Iterations) const {
  const bool Scheduled = K.Plan->ScheduledLoop >= 0;
  if (S.InHostMemory || !placedInHostPages(S.Device) ||
      (Scheduled && K.Sched->Mode == LoopSchedule::Queue))
    return 1;
  std::vector<SubPartArray> Arrays(D.Arrays.size());
  for (size_t I = 0; I < D.Arrays.size(); ++I) {
    SubPartArray &A = Arrays[I];
    A.Moves = !K.ItemIsResident[I] && !E.Unused[I];
    if (!A.Moves)
      continue;
    const Distribution &X = S.Plan->Items[I];
    A.In = abi::copiesIn(D.Arrays[I].Map);
    A.Out = abi::copiesOut(D.Arrays[I].Map);
    // A scheduled loop's arrays aligned to it are cut with it (planPart);
    // an owner-computes loop's arrays split along the loop (cutShare).
    A.Cut = Scheduled ? followsLoop(D, D.Arrays[I])
                      : cutAlongLoop(D, K.PlanIn.Accesses, I, itemDist(I),
                                     S.PartLoop);
    A.ElementSize = static_cast<double>(K.Values.Arrays[I].Shape.ElementSize);
    A.Held = static_cast<double>(X.held(S.Position).volume());
    A.Owned = static_cast<double>(X.Owned[S.Position].volume());
  }
  return subPartCount(Arrays, Scheduled,
                      Scheduled ? K.Sched->Cost.BytesPerIteration : 0,
                      Iterations);
}

/// Sub-part P of Parts of R.
static Range subPart(Range R, int64_t P, int64_t Parts) {
  return {R.Begin + R.size() * P / Parts, R.Begin + R.size() * (P + 1) / Parts};
}

void Launcher::runRange(Slot &S, Range R, int64_t Parts,
                        std::vector<std::unique_ptr<KernelPlan>> *Cut) {
  for (int64_t P = 0; P < Parts; ++P) {
    IndexSet Part(subPart(R, P, Parts));
    if (Part.empty())
      continue;
    if (S.Status == Slot::FailedBeforeResults) {
      S.Failed = S.Failed.unite(Part);
    } else if (S.Status == Slot::Ok) {
      if (Cut)
        adoptPart(S, std::move((*Cut)[P]), Part);
      if (Cut || planPart(S, Part))
        runPart(S, Part);
    }
  }
}

std::vector<std::unique_ptr<KernelPlan>>
Launcher::cutShare(const Slot &S, Range Share, int64_t Parts) const {
  std::vector<bool> Copied(D.Arrays.size());
  for (size_t I = 0; I < D.Arrays.size(); ++I)
    Copied[I] = !K.ItemIsResident[I] && !E.Unused[I];
  std::vector<std::unique_ptr<KernelPlan>> Plans;
  std::string Why;
  for (int64_t P = 0; P < Parts; ++P) {
    auto Plan = std::make_unique<KernelPlan>();
    if (!planSubPart(K.PlanIn, *K.Plan, S.Position, S.PartLoop,
                     subPart(Share, P, Parts), Copied, *Plan, Why))
      return {};
    Plans.push_back(std::move(Plan));
  }
  return Plans;
}

void Launcher::runShare(Slot &S) {
  if (K.Plan->ScheduledLoop < 0) {
    // Owner computes: cut along the nest's first distributed loop (not
    // FULL), when the device runs consecutive iterations of it (cutShare
    // says whether its arrays can follow).
    const ProductSet &Its = S.Work->Iterations;
    unsigned L = 0;
    while (L < K.Nest.Rank && !D.Loops[L].Dist.distributed())
      ++L;
    if (L == K.Nest.Rank || Its.Dims[L].size() < 2 ||
        Its.Dims[L].ranges().size() != 1) {
      runSlot(S);
      return;
    }
    S.PartLoop = L;
  }
  const Range Share = S.Work->Iterations.Dims[S.PartLoop].hull();
  const int64_t Parts = subParts(S, Share.size());
  std::vector<std::unique_ptr<KernelPlan>> Cut;
  if (Parts > 1 && K.Plan->ScheduledLoop < 0)
    Cut = cutShare(S, Share, Parts);
  if (Parts <= 1 || (K.Plan->ScheduledLoop < 0 && Cut.empty()))
    runSlot(S);
  else
    runRange(S, Share, Parts, Cut.empty() ? nullptr : &Cut);
}

/// A loop a scheduler splits into parts at run time: chunks from a shared
/// queue that each device takes as it finishes the last, or a sample by
/// weights and then the rest by the rates the sample measured.
void Launcher::runScheduled(const std::vector<int> &Ids) {
  const LoopSchedule &Sch = *K.Sched;
  int64_t N = K.SchedTrips;
  if (Sch.Mode == LoopSchedule::Queue) {
    ChunkQueue Queue(N, Sch.Kind, Sch.Chunk,
                     static_cast<unsigned>(Slots.size()));
    runOnDevices(
        Ids, HostId,
        [&](unsigned I) {
          Slot &S = Slots[I];
          while (S.Status == Slot::Ok) {
            std::optional<Range> C = Queue.next();
            if (!C || !planPart(S, IndexSet(*C)))
              break;
            runPart(S, IndexSet(*C));
          }
        },
        regionEnd(), DeviceJobs::SharedQueue);
    // When every device failed, what they left of the queue goes to the
    // host with the first failed part.
    for (Slot &S : Slots)
      if (S.Status == Slot::FailedBeforeResults) {
        while (std::optional<Range> C = Queue.next())
          S.Failed = S.Failed.unite(IndexSet(*C));
        break;
      }
    return;
  }
  runSampled(Ids);
}

/// The profile kinds: a sample [0, Chunk) split by the weights, then the
/// rest [Chunk, N) by the rates measured. HOMP'16 waits for the whole
/// sample before splitting the rest: the devices done first sit idle until
/// the slowest is done (one device of two 4 times slower: 1.15 to 1.25
/// times the ideal). Here a device done with its sample while others still
/// run theirs takes the next piece of the rest, as large as its sample
/// part, and the last device to finish its sample splits what is left by
/// the rates measured so far, each device's share counted from when it
/// will be free (sharesWhenFree). A device's sample part counts in its
/// rate for what the region's earlier executions found it worth
/// (SampleBias: the device's rate on the rest over its rate on its sample
/// part); its pieces count as they are, being the rest's iterations.
void Launcher::runSampled(const std::vector<int> &Ids) {
  const LoopSchedule &Sch = *K.Sched;
  const int64_t N = K.SchedTrips;
  const size_t Count = Slots.size();
  std::vector<double> Weights;
  std::vector<int> SlotIds;
  for (const Slot &S : Slots) {
    Weights.push_back(Sch.Weights[S.Position]);
    SlotIds.push_back(S.Device);
  }
  // Guarded by M. Per slot (every slot has a weight above 0: the others
  // take no part): iterations and seconds of the parts it has finished;
  // the piece it runs (size 0: none) and when it began.
  std::mutex M;
  int64_t Next = std::min(Sch.Chunk, N); // the rest not handed out yet
  size_t Sampling = Count;               // devices still in their sample
  std::vector<int64_t> Done(Count, 0), Piece(Count, 0);
  std::vector<double> Seconds(Count, 0);
  std::vector<Clock::time_point> PieceBegan(Count);
  std::vector<bool> Out(Count, false); // a part failed: no more for it
  std::optional<std::vector<Range>> Rest;
  int64_t Unclaimed = N; // every device failed: what is left of the rest
  std::vector<bool> CutOff(Count, false), TookPieces(Count, false);
  // Per slot: the iterations and seconds of its sample part, and of its
  // part of the rest (the pieces and its share), which tell the region's
  // next executions how far the sample's rate was from the rest's.
  std::vector<int64_t> SampleDone(Count, 0), RestDone(Count, 0);
  std::vector<double> SampleSeconds(Count, 0), RestSeconds(Count, 0);
  std::vector<double> SlotBias; // none learned yet: 1 (correctedSampleRates)
  // The pieces' correction only where each device on the host's cores has
  // one of its own: on shared cores, pieces run time-sliced while other
  // devices sample, and their rate says little of the share's (learning it
  // made bm2d over 4 devices on 2 cores, one 4x slower, 13% slower; with a
  // core each, 4% faster).
  const bool OwnCores =
      static_cast<size_t>(hostCoreDevices(SlotIds, deviceTypes())) <=
      processCpus().size();
  std::vector<double> SlotPieceBias;
  for (const Slot &S : Slots) {
    SlotBias.push_back(
        S.Position < Sch.SampleBias.size() ? Sch.SampleBias[S.Position] : 1.0);
    SlotPieceBias.push_back(OwnCores && S.Position < Sch.PieceBias.size()
                                ? Sch.PieceBias[S.Position]
                                : 1.0);
  }
  // Per slot: the iterations and seconds of the pieces it ran.
  std::vector<int64_t> PieceDone(Count, 0);
  std::vector<double> PieceSeconds(Count, 0);

  // Under M, once the last sample is done: each working device's share of
  // [Next, N), by its rate and when it will be free.
  auto SplitRest = [&] {
    std::vector<Range> Parts(Count, Range{Next, Next});
    const int64_t Left = N - Next;
    // The sample parts and the pieces count for what the region's earlier
    // executions found them worth against the share (SampleBias,
    // PieceBias): a sample's first iterations may cost less than the
    // loop's, and small parts run slower than a share (each copies and
    // launches on its own).
    std::vector<double> Rates = correctedSampleRates(
        Done, SampleDone, Seconds, Weights, SlotBias, SlotPieceBias);
    std::vector<double> Working;
    {
      std::vector<double> Measured = sampleRates(Done, Seconds, Weights);
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
    // pieces left nothing to split, not when the sample was the whole
    // loop): a device it cuts runs nothing of the rest, so a correction
    // that cut it could never be learned again. sampleRates predicts a
    // device that finished nothing from its weight; with nothing measured
    // at all, the rates are equal.
    std::vector<double> Kept = sharesByRates(Working, Sch.Cutoff.value_or(0));
    std::vector<double> Use(Count, 0), Busy(Count, 0);
    Clock::time_point Now = Clock::now();
    for (size_t I = 0, W = 0; I < Count; ++I) {
      if (Out[I])
        continue;
      double Rate = Rates[I] > 0 ? Rates[I] : 1;
      if (!(Kept[W++] > 0)) {
        CutOff[I] = Sch.Chunk < N;
        continue;
      }
      Use[I] = Rate;
      if (Piece[I] > 0)
        Busy[I] = static_cast<double>(Piece[I]) / Rate -
                  std::chrono::duration<double>(Now - PieceBegan[I]).count();
    }
    if (Left <= 0) {
      Rest = std::move(Parts);
      return;
    }
    std::vector<double> Shares =
        capByMemory(policyContext(), SlotIds, sharesWhenFree(Use, Busy, Left),
                    Left, Sch.Cost);
    for (size_t I = 0; I < Count; ++I) {
      if (Use[I] > 0 && !(Shares[I] > 0) && Busy[I] <= 0)
        CutOff[I] = true; // the memory cap left it none
      Range P = weightedBlockPart(Left, Shares, I);
      Parts[I] = {Next + P.Begin, Next + P.End};
    }
    Next = N;
    Rest = std::move(Parts);
  };

  runOnDevices(
      Ids, HostId,
      [&](unsigned I) {
        Slot &S = Slots[I];
        // The sample part and the pieces. A range given to a device that
        // failed goes to the host with the part that failed (runRange: no
        // more of the loop runs there). AUTO's first execution measures
        // every device: until the rest is split, each gives its core up
        // after each part whatever the loop (runPart does only for
        // compute-bound loops), or a device that got no time slice until
        // the others were done would be measured late, on a part the wait
        // made look slow (AUTO's stencil2d over 4 devices on 2 cores, 5
        // processes each: a median of 1.03 ms an execution after learning,
        // 0.91 with the yield).
        auto Run = [&](Range R) {
          runRange(S, R, 1);
          if (Sch.ChoseAuto)
            sched_yield();
        };
        // Under M: what a part that ran tells of the device's rate.
        auto Finished = [&](Range R, Clock::time_point Began) {
          Out[I] = S.Status != Slot::Ok;
          if (!Out[I]) {
            Done[I] += R.size();
            Seconds[I] += secondsSince(Began);
          }
        };
        Range Sample = weightedBlockPart(std::min(Sch.Chunk, N), Weights, I);
        Clock::time_point Began = Clock::now();
        Run(Sample);
        const int64_t PieceSize = std::max<int64_t>(1, Sample.size());
        std::unique_lock<std::mutex> Lock(M);
        Finished(Sample, Began);
        SampleDone[I] = Done[I];
        SampleSeconds[I] = Seconds[I];
        if (--Sampling == 0)
          SplitRest();
        while (!Rest && !Out[I] && Next < N) {
          Range R{Next, std::min(N, Next + PieceSize)};
          Next = R.End;
          Piece[I] = R.size();
          TookPieces[I] = true;
          PieceBegan[I] = Began = Clock::now();
          Lock.unlock();
          Run(R);
          Lock.lock();
          Piece[I] = 0;
          Finished(R, Began);
        }
        PieceDone[I] = Done[I] - SampleDone[I];
        PieceSeconds[I] = Seconds[I] - SampleSeconds[I];
        if (!Rest)
          return;
        Range Mine = (*Rest)[I];
        Lock.unlock();
        Began = Clock::now();
        runRange(S, Mine, subParts(S, Mine.size()));
        if (S.Status == Slot::Ok && Mine.size() > 0) {
          RestDone[I] += Mine.size();
          RestSeconds[I] += secondsSince(Began);
        }
      },
      regionEnd(), DeviceJobs::SharedQueue);
  // What the rest found of the sample parts, for the next execution of a
  // profile kind (not AUTO's first: its parts give their cores up, its
  // share does not, and AUTO does not sample again).
  if (!Sch.ChoseAuto) {
    std::vector<double> Observed(K.Devices.size(), 0),
        ObservedPieces(K.Devices.size(), 0);
    for (size_t I = 0; I < Count; ++I)
      if (Slots[I].Status == Slot::Ok) {
        Observed[Slots[I].Position] = sampleBiasObservation(
            SampleDone[I], SampleSeconds[I], RestDone[I], RestSeconds[I]);
        ObservedPieces[Slots[I].Position] = sampleBiasObservation(
            PieceDone[I], PieceSeconds[I], RestDone[I], RestSeconds[I]);
      }
    recordSampleBias(*K.Info, K.Devices, N, Observed, ObservedPieces);
  }

  // The cutoff may leave a device only its sample: HOMP_INFO says so, and
  // leaves it out of the imbalance unless it ran pieces of the rest too.
  for (size_t I = 0; I < Count; ++I)
    if (CutOff[I] && Slots[I].Status == Slot::Ok) {
      K.CutOff += (K.CutOff.empty() ? "" : ", ") + deviceLabel(Slots[I].Device);
      Slots[I].CutOff = !TookPieces[I];
    }
  // When every device failed, what no device took goes to the host with
  // the first failed part.
  if (Unclaimed < N)
    for (Slot &S : Slots)
      if (S.Status == Slot::FailedBeforeResults) {
        S.Failed = S.Failed.unite(IndexSet(Range{Unclaimed, N}));
        break;
      }
}

} // namespace launch
} // namespace homp
