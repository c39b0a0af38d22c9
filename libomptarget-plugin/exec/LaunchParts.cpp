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
#include "Residency.h"

#include "homp/CoreShares.h"
#include "homp/Info.h"
#include "homp/Partition.h"
#include "homp/RateSplit.h"
#include "homp/Reduction.h"
#include "homp/Scheduler.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
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
    static_cast<StepArray &>(A) = stepArray(I);
    if (!A.Moves)
      continue;
    const Distribution &X = S.Plan->Items[I];
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
  if (K.Follow) {
    runFollowing(Ids);
    return;
  }
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

/// A memorizing loop's execution that follows its chunks (homp/ChunkMemory.h):
/// each device runs the chunks it owns, then takes one from the end of the
/// device with the most left, its elements moved to it first, device to
/// device. Who ran a chunk owns it once all have run.
void Launcher::runFollowing(const std::vector<int> &Ids) {
  ChunkMemory &M = *K.Memory;
  // A device that owns no chunk holds none of a 'halo(*)' array either
  // (what it holds is its part widened), so it cannot take one: what the
  // chunk reads around its rows is not there (the runtime fuzzer found it).
  bool WholeHalo = false;
  for (const ResidentArray *R : K.Followers)
    WholeHalo |= R->Dist.Halos[R->FollowsDim].Left == abi::Halo::All ||
                 R->Dist.Halos[R->FollowsDim].Right == abi::Halo::All;
  std::vector<bool> Takes(K.Devices.size(), false);
  for (const Slot &S : Slots)
    Takes[S.Position] = !WholeHalo || !M.owned(S.Position).empty();
  // A taken chunk's elements are read from its owner's memory: the work
  // queued on every device before this kernel (an asynchronous kernel
  // writing them) is over first (the runtime fuzzer found a move that read
  // them early).
  runOnDevices(K.Devices, HostId, [](unsigned) {});
  M.beginFollow(Takes);
  std::vector<int64_t> Bytes(Slots.size(), 0);
  // Chunks taken by a device where they cannot run.
  std::mutex BackLock;
  std::vector<ChunkMemory::Taken> Back;
  runOnDevices(
      Ids, HostId,
      [&](unsigned I) {
        Slot &S = Slots[I];
        while (S.Status == Slot::Ok) {
          std::optional<ChunkMemory::Taken> T = M.next(S.Position);
          if (!T)
            break;
          const IndexSet Its(M.chunk(T->Chunk));
          if (!planChunk(S, Its)) {
            // Its elements reach past its rows here: after the others.
            S.Error.clear();
            std::lock_guard<std::mutex> Lock(BackLock);
            Back.push_back(*T);
            continue;
          }
          if (!moveChunk(S, T->Chunk, T->From, Bytes[I]))
            break;
          runPart(S, Its);
          if (S.Status == Slot::Ok)
            M.ran(T->Chunk, S.Position);
        }
      },
      regionEnd(), DeviceJobs::SharedQueue);
  // Each goes to its owner, else to the first device where it can run
  // (its owner takes no chunks), its elements moved there.
  for (const ChunkMemory::Taken &T : Back) {
    const IndexSet Its(M.chunk(T.Chunk));
    std::vector<Slot *> Order;
    for (Slot &S : Slots)
      if (S.Position == T.From)
        Order.insert(Order.begin(), &S);
      else
        Order.push_back(&S);
    bool Ran = false;
    std::string Why;
    for (Slot *S : Order) {
      if (S->Status != Slot::Ok)
        continue;
      runOnDevices({S->Device}, HostId, [&](unsigned) {
        const size_t I = static_cast<size_t>(S - Slots.data());
        if (!planChunk(*S, Its)) {
          Why = S->Error;
          S->Error.clear();
          return;
        }
        if (!moveChunk(*S, T.Chunk, T.From, Bytes[I]))
          return;
        runPart(*S, Its);
        if (S->Status == Slot::Ok) {
          M.ran(T.Chunk, S->Position);
          Ran = true;
        }
      });
      if (Ran || S->Status != Slot::Ok)
        break;
    }
    if (!Ran) {
      Slot &S = *Order.front();
      if (S.Status == Slot::Ok) {
        S.Status = Slot::Fatal;
        S.Error = "chunk " + Its.str() + " of loop '" + D.Label +
                  "' can run on none of its devices (" + Why + ")";
      }
      return;
    }
  }
  const std::vector<ChunkMemory::Move> Moves = M.endFollow();
  for (ResidentArray *R : K.Followers) {
    std::vector<RowsMoved> Rows;
    for (const ChunkMemory::Move &Mv : Moves)
      Rows.push_back({indicesOf(K.MemoryBounds, IndexSet(M.chunk(Mv.Chunk))),
                      Mv.From, Mv.To});
    ownMovedRows(*R, Rows);
  }
  int64_t Moved = 0;
  for (int64_t B : Bytes)
    Moved += B;
  K.MemoryNote += ": " + std::to_string(M.chunks()) + " chunk" +
                  (M.chunks() == 1 ? "" : "s") + " of " +
                  std::to_string(M.chunkSize()) + " taken as the devices " +
                  "became free, " + std::to_string(Moves.size()) +
                  " moved to another device (" + std::to_string(Moved) +
                  " bytes); now " + M.describe([&](unsigned P) {
                    return "device " + deviceLabel(K.Devices[P]);
                  });
}

bool Launcher::moveChunk(Slot &S, int64_t Chunk, unsigned From,
                         int64_t &Bytes) {
  if (From == S.Position)
    return true;
  const IndexSet Rows =
      indicesOf(K.MemoryBounds, IndexSet(K.Memory->chunk(Chunk)));
  for (const ResidentArray *R : K.Followers)
    if (!moveRows(*R, Rows, From, S.Position, Bytes, S.Error)) {
      S.Status = Slot::Fatal;
      return false;
    }
  return true;
}

bool Launcher::planChunk(Slot &S, const IndexSet &Iterations) {
  auto Plan = std::make_unique<KernelPlan>();
  if (!planChunkOn(K, S.Position, Iterations, *Plan, S.PartDists, S.Error))
    return false;
  adoptPart(S, std::move(Plan), Iterations);
  return true;
}

bool planChunkOn(const KernelInstance &K, unsigned Position,
                 const IndexSet &Iterations, KernelPlan &Out,
                 std::vector<std::unique_ptr<Distribution>> &Dists,
                 std::string &Error) {
  KernelPlanInput In = K.PlanIn;
  In.Scheduled.assign(K.Devices.size(), IndexSet());
  In.Scheduled[Position] = Iterations;
  In.ChunkOfLabel = true;
  const IndexSet Rows = indicesOf(K.MemoryBounds, Iterations);
  Dists.clear();
  auto Owning = [&](const Distribution *&X) {
    for (const ResidentArray *R : K.Followers)
      if (X == &R->Dist) {
        auto Mine = std::make_unique<Distribution>(R->Dist);
        for (unsigned P = 0; P < Mine->Owned.size(); ++P)
          giveRows(*Mine, R->FollowsDim, Rows, P, Position);
        X = Mine.get();
        Dists.push_back(std::move(Mine));
        return;
      }
  };
  for (const Distribution *&X : In.ItemResidents)
    Owning(X);
  for (KernelPlanInput::Resident &R : In.AccessResidents)
    Owning(R.Dist);
  std::string Why;
  if (!planKernel(In, Out, Why) || Out.Placement != KernelPlan::Split) {
    Error = "chunk " + Iterations.str() + " of loop '" + K.Info->Desc.Label +
            "' cannot run on device " + deviceLabel(K.Devices[Position]) +
            ": " + (Why.empty() ? Out.Why : Why);
    return false;
  }
  return true;
}

/// The profile kinds: a sample split by the weights, then the rest by the
/// rates measured (homp/RateSplit.h), each device's parts on its own
/// thread.
void Launcher::runSampled(const std::vector<int> &Ids) {
  const LoopSchedule &Sch = *K.Sched;
  const int64_t N = K.SchedTrips;
  const size_t Count = Slots.size();
  RateSplit::Input In;
  In.N = N;
  In.Chunk = Sch.Chunk;
  In.Cutoff = Sch.Cutoff.value_or(0);
  In.Spread = Sch.SpreadSample;
  std::vector<int> SlotIds;
  for (const Slot &S : Slots) {
    In.Weights.push_back(Sch.Weights[S.Position]);
    SlotIds.push_back(S.Device);
  }
  // The pieces' correction only where each device on the host's cores has
  // one of its own: on shared cores, pieces run time-sliced while other
  // devices sample, and their rate says little of the share's (learning it
  // made bm2d over 4 devices on 2 cores, one 4x slower, 13% slower; with a
  // core each, 4% faster).
  const bool OwnCores =
      static_cast<size_t>(hostCoreDevices(SlotIds, deviceTypes())) <=
      processCpus().size();
  for (const Slot &S : Slots) {
    In.SampleBias.push_back(
        S.Position < Sch.SampleBias.size() ? Sch.SampleBias[S.Position] : 1.0);
    In.PieceBias.push_back(OwnCores && S.Position < Sch.PieceBias.size()
                               ? Sch.PieceBias[S.Position]
                               : 1.0);
  }
  In.Cap = [&](std::vector<double> Shares, int64_t Left) {
    return capByMemory(policyContext(), SlotIds, Shares, Left, Sch.Cost);
  };
  RateSplit Split(std::move(In));
  std::mutex M; // guards Split
  const Clock::time_point Start = Clock::now();
  auto Now = [&] { return secondsSince(Start); };

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
        auto Run = [&](Range R, int64_t Parts) {
          Clock::time_point Began = Clock::now();
          runRange(S, R, Parts);
          if (Sch.ChoseAuto)
            sched_yield();
          return secondsSince(Began);
        };
        // A set of iterations (the sample's slices cut the rest) runs a
        // run at a time.
        auto RunSet = [&](const IndexSet &Its, bool Cut) {
          double Took = 0;
          for (const Range &R : Its.ranges())
            Took += Run(R, Cut ? subParts(S, R.size()) : 1);
          return Took;
        };
        for (const Range &R : Split.sample(I)) {
          const double Took = Run(R, 1);
          std::lock_guard<std::mutex> Lock(M);
          Split.sliceFinished(I, R, Took, S.Status == Slot::Ok);
        }
        std::unique_lock<std::mutex> Lock(M);
        Split.sampleFinished(I, Now());
        while (std::optional<IndexSet> R = Split.nextPiece(I, Now())) {
          Lock.unlock();
          const double Took = RunSet(*R, false);
          Lock.lock();
          Split.pieceFinished(I, *R, Took, S.Status == Slot::Ok);
        }
        if (!Split.restSplit())
          return;
        const IndexSet Mine = Split.restOf(I);
        Lock.unlock();
        const double Took = RunSet(Mine, true);
        if (S.Status == Slot::Ok && !Mine.empty()) {
          Lock.lock();
          Split.restFinished(I, Took);
        }
      },
      regionEnd(), DeviceJobs::SharedQueue);
  const std::vector<double> &Costs = Split.costs();
  const auto [Lo, Hi] = std::minmax_element(Costs.begin(), Costs.end());
  const bool Uneven = *Hi > *Lo;
  if (Uneven) {
    char Text[160];
    std::snprintf(Text, sizeof Text,
                  "the sample found the iterations' costs uneven (%.2g to "
                  "%.2g times the mean over %zu strata): the rest split by "
                  "cost",
                  *Lo, *Hi, Costs.size());
    K.SampleCosts = Text;
  }
  // What the rest found of the sample parts and of the costs, for the next
  // execution of a profile kind (not AUTO's first: its parts give their
  // cores up, its share does not, and AUTO does not sample again).
  if (!Sch.ChoseAuto) {
    std::vector<double> Observed(K.Devices.size(), 0),
        ObservedPieces(K.Devices.size(), 0);
    for (size_t I = 0; I < Count; ++I)
      if (Slots[I].Status == Slot::Ok) {
        Observed[Slots[I].Position] = Split.observedSampleBias(I);
        ObservedPieces[Slots[I].Position] = Split.observedPieceBias(I);
      }
    recordSampleBias(*K.Info, K.Devices, N, Observed, ObservedPieces,
                     Sch.SpreadSample, Uneven);
  }

  // The cutoff may leave a device only its sample: HOMP_INFO says so, and
  // leaves it out of the imbalance unless it ran pieces of the rest too.
  for (size_t I = 0; I < Count; ++I)
    if (Split.cutOff(I) && Slots[I].Status == Slot::Ok) {
      K.CutOff += (K.CutOff.empty() ? "" : ", ") + deviceLabel(Slots[I].Device);
      Slots[I].CutOff = !Split.tookPieces(I);
    }
  // When every device failed, what no device took goes to the host with
  // the first failed part.
  if (!Split.unclaimed().empty())
    for (Slot &S : Slots)
      if (S.Status == Slot::FailedBeforeResults) {
        S.Failed = S.Failed.unite(Split.unclaimed());
        break;
      }
}

} // namespace launch
} // namespace homp
