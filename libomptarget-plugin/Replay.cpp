//===-- Replay.cpp - Launching a kernel again as it was launched ----------===//

#include "Replay.h"

#include "Construct.h"
#include "Devices.h"
#include "ProxyPool.h"
#include "Tracer.h"

#include "homp/Trace.h"

#include <chrono>
#include <optional>
#include <string>

namespace homp {

namespace {

/// Whether entry E of clang's kernel arguments is passed as it is (a
/// scalar) or copied by value (firstprivate): its value may change from one
/// launch to the next without changing what homp does with it.
bool passedByValue(const ArgEntry &E) {
  return E.Type & (MapLiteral | MapPrivate);
}

/// Device D's launches of P with the arguments A (D's copy of clang's).
void runDevice(const PreparedLaunch &P, const PreparedLaunch::Device &D,
               DeviceArgs &A) {
  const std::vector<LaunchPiece> &Pieces = D.Work->Pieces;
  for (size_t I = 0; I < Pieces.size(); ++I) {
    abi::Chunk Chunk{};
    uint64_t Trip = chunkOfPiece(P.Nest, Pieces[I], Chunk);
    // libomptarget may rewrite the arrays it is given: a copy for all but
    // the last launch.
    std::optional<DeviceArgs> Copy;
    if (I + 1 < Pieces.size())
      Copy.emplace(A.args());
    DeviceArgs &Launch = Copy ? *Copy : A;
    Launch.args().Tripcount = Trip;
    int64_t Bytes = 0;
    DeviceChunks::Lease Held = P.Info->Chunks.pass(
        Launch, P.ChunkEntry, D.Id, D.InHostMemory, Chunk, Bytes);
    std::chrono::steady_clock::time_point Began =
        std::chrono::steady_clock::now();
    if (__tgt_target_kernel(P.Loc, D.Id, P.NumTeams, P.ThreadLimit, P.HostPtr,
                            &Launch.args()) != 0)
      constructFatal(*P.Info, "device " + std::to_string(D.Id) +
                                  " failed to run its part");
    if (tracing())
      traceSpan(D.Id, "kernel", "kernel " + P.Info->Location, Began,
                {{"iterations", traceNumber(static_cast<int64_t>(Trip))},
                 {"launch", traceNumber(static_cast<int64_t>(I + 1))},
                 {"replayed", traceNumber(1)}});
  }
}

} // namespace

bool PreparedLaunch::matches(const std::vector<long long> &V,
                             const abi::Chunk &L, uint64_t G) const {
  if (G != Generation || V.size() != Values.size() ||
      !abi::sameChunk(L, Loops))
    return false;
  const std::vector<abi::ValueSlot> &Layout = Info->Layout;
  for (size_t I = 0; I < V.size(); ++I)
    if (V[I] != Values[I] && !abi::onlyForTheModel(Layout[I].Kind))
      return false;
  return true;
}

bool replayAllowed() {
  const Settings &S = settings();
  return !S.Info && S.Emulate.empty() && S.Faults.empty();
}

bool replay(const std::shared_ptr<const PreparedLaunch> &P,
            const KernelArgs &Args, void *Loc, int32_t NumTeams,
            int32_t ThreadLimit, void *HostPtr) {
  if (Args.Version != SupportedKernelArgsVersion ||
      Args.NumArgs != P->Entries.size() || Loc != P->Loc ||
      HostPtr != P->HostPtr || NumTeams != P->NumTeams ||
      ThreadLimit != P->ThreadLimit)
    return false;
  for (unsigned K = 0; K < Args.NumArgs; ++K) {
    ArgEntry Now = argEntry(Args, K), Then = P->Entries[K];
    if (Now.Type != Then.Type ||
        (K != P->ChunkEntry && !passedByValue(Now) && Now != Then))
      return false;
  }
  // Everything the devices' jobs need, in one object their last one frees.
  struct Launches {
    std::shared_ptr<const PreparedLaunch> P;
    std::vector<int64_t> Room;
    std::vector<DeviceArgs> Args;
    FirstprivateCopies Firstprivates;
  };
  auto *L = new Launches{P, {}, {}, FirstprivateCopies(Args)};
  size_t Size = DeviceArgs::entriesSize(Args);
  L->Room.resize(Size * P->Devices.size());
  L->Args.reserve(P->Devices.size());
  std::vector<int> Ids;
  for (const PreparedLaunch::Device &D : P->Devices) {
    Ids.push_back(D.Id);
    DeviceArgs &A =
        L->Args.emplace_back(Args, L->Room.data() + Size * L->Args.size());
    for (const auto &[Entry, Value] : D.Changed)
      A.setEntry(Entry, Value);
    L->Firstprivates.apply(A);
  }
  runOnDevicesAsync(
      Ids, [L](unsigned I) { runDevice(*L->P, L->P->Devices[I], L->Args[I]); },
      [L] { delete L; });
  return true;
}

} // namespace homp
