//===-- LaunchSteps.cpp - One device's part of a kernel, step by step -----===//
//
// A device's part of a kernel: the core lowers it to steps (homp/Steps.h's
// lowerPart), and the core's executor (homp/Executor.h) runs them, asking
// the launcher here for what only it can do: allocations placed in the
// host's pages on CPU offload devices, each piece's launch, HOMP_EMULATE's
// hold, and the events of the copies.
//
//===----------------------------------------------------------------------===//

#include "Launcher.h"

#include "Balance.h"
#include "DeviceArgs.h"
#include "Devices.h"
#include "Observe.h"
#include "OffloadTransport.h"
#include "ProxyPool.h"

#include "homp/Halo.h"
#include "homp/Trace.h"

#include <omp.h>

namespace homp {
namespace launch {

/// Where in a page array I's storage on S's device starts (storageColors):
/// on CPU offload devices, away from the kernel's other arrays there, and
/// so that its copies run at full speed. Other devices take what they get.
std::optional<int64_t> Launcher::pageOffset(const Slot &S, size_t I,
                                            Range Span) const {
  if (S.InHostMemory || !placedInHostPages(S.Device))
    return std::nullopt;
  std::vector<std::vector<intptr_t>> Others(1);
  for (size_t J = 0; J < I; ++J)
    if (S.Items[J].Ptr)
      Others[0].push_back(reinterpret_cast<intptr_t>(
          deviceAddress(K.Values.Arrays[J].Shape, K.Values.Arrays[J].Base,
                        S.Items[J], K.Values.Arrays[J].Base)));
  const ConstructValues::ArrayValues &V = K.Values.Arrays[I];
  return storageColors(V.Shape, {Span}, {}, {PartMemory::Colored},
                       reinterpret_cast<uintptr_t>(V.Base), Others)[0];
}

std::vector<Step> Launcher::stepsOf(const Slot &S) const {
  PartInput In;
  In.Plan = S.Plan;
  In.Position = S.Position;
  In.Device = S.Device;
  In.InHostMemory = S.InHostMemory;
  In.Hold = emulationFactor(S.Device) != 1;
  In.Arrays.resize(D.Arrays.size());
  for (size_t I = 0; I < D.Arrays.size(); ++I)
    In.Arrays[I] = stepArray(I);
  return lowerPart(In);
}

StepArray Launcher::stepArray(size_t I) const {
  return {!K.ItemIsResident[I] && !E.Unused[I], abi::copiesIn(D.Arrays[I].Map),
          abi::copiesOut(D.Arrays[I].Map)};
}

bool Launcher::allocate(Slot &S, const Step &St) {
  const size_t I = St.Array;
  const ConstructValues::ArrayValues &V = K.Values.Arrays[I];
  if (E.Items[I]) {
    // An array a single-device 'target data' already maps there would
    // keep that copy and overwrite the other devices' results later; a
    // duplicate's copy there (perhaps changed on the device) would be
    // passed over for the host's values.
    const Distribution &X = S.Plan->Items[I];
    Index First{};
    for (unsigned Dm = 0; Dm < V.Shape.Rank; ++Dm)
      First[Dm] = X.Owned[S.Position].Dims[Dm].hull().Begin;
    if (omp_target_is_present(
            V.Base + V.Shape.offset(First) * V.Shape.ElementSize, S.Device)) {
      S.Status = Slot::Fatal;
      S.Error = "'" + D.Arrays[I].Name + "' is already mapped on device " +
                std::to_string(S.Device) +
                " (by an enclosing 'target data'?); the arrays of a "
                "multi-device construct must not be mapped when it starts "
                "(homp copies them itself and would not see that copy)";
      return false;
    }
  }
  if (!allocateStorage(transport(), S.Device, V.Shape, St.Span, S.Items[I],
                       S.Error, pageOffset(S, I, St.Span))) {
    S.Error += " for its part of '" + D.Arrays[I].Name + "'";
    S.Status = Slot::FailedBeforeResults;
    return false;
  }
  return true;
}

void Launcher::launch(Slot &S, DeviceArgs &A, const LaunchPiece &P) {
  Clock::time_point Began = Clock::now();
  uint64_t Trip = chunkOfPiece(K.Nest, P, S.Chunk);
  const int64_t In = S.BytesIn, Out = S.BytesOut;
  int Rc;
  if (S.IsHost) {
    std::vector<void *> Params = A.hostParams();
    runHostVersionSafely([&] {
      Rc = Thunk(Params.data(), static_cast<int64_t>(Params.size()));
    });
    if (Rc != 0) {
      S.Status = Slot::Fatal;
      S.Error = "the homp pass's host entry does not match the region";
      return;
    }
  } else {
    // libomptarget may rewrite the argument arrays it is given; what it
    // copies (the chunk, scalars) is counted before.
    DeviceArgs Launch(A.args());
    Launch.args().Tripcount = Trip;
    const int32_t Teams = teamsFor(D, S.Device, NumTeams, Launch.args());
    DeviceChunks::Lease Chunk = K.Info->Chunks.pass(
        Launch, E.Chunk, S.Device, S.InHostMemory, S.Chunk, S.BytesIn);
    S.BytesIn += Launch.bytesIn();
    S.BytesOut += Launch.bytesOut();
    Rc = injectedFault(S.Device, FaultSpec::Launch)
             ? 1
             : __tgt_target_kernel(Loc, S.Device, Teams, ThreadLimit, HostPtr,
                                   &Launch.args());
  }
  ++S.Launches;
  publishKernel(S.Device, K.Info->Location, Began, static_cast<int64_t>(Trip),
                S.Launches, S.BytesIn - In, S.BytesOut - Out,
                /*Queued=*/S.Prebuilt != nullptr);
  if (Rc != 0) {
    S.Status = Slot::FailedBeforeResults;
    S.Error = "device " + std::to_string(S.Device) + " failed to run its part";
  }
}

PartData Launcher::partData(Slot &S) const {
  PartData Data;
  Data.Device = S.Device;
  Data.Position = S.Position;
  Data.Arrays.resize(D.Arrays.size());
  for (size_t I = 0; I < D.Arrays.size(); ++I) {
    const ConstructValues::ArrayValues &V = K.Values.Arrays[I];
    PartArray &A = Data.Arrays[I];
    A.Dist = &S.Plan->Items[I];
    A.Host = V.Base;
    A.Store = &S.Items[I];
    A.Name = &D.Arrays[I].Name;
    if (I < S.Staging.size() && !S.Staging[I].empty()) {
      Range Span = V.Shape.span(ProductSet::of(V.Shape.Section));
      A.Stage = S.Staging[I].data() - Span.Begin * V.Shape.ElementSize;
    }
  }
  return Data;
}

/// What S's steps ask of the launcher: allocations placed in the host's
/// pages, its launches (with the arguments made once), its hold, and the
/// events of its copies.
class Launcher::SlotActions final : public PartActions {
public:
  SlotActions(Launcher &L, Slot &S) : L(L), S(S), Args(S.Prebuilt.get()) {}

  bool allocate(Transport &, const PartData &, const Step &St,
                PartState &) override {
    return L.allocate(S, St);
  }
  void launch(const PartData &, const Step &St, PartState &) override {
    if (!Args) {
      Built.emplace(L.argsFor(S));
      Args = &*Built;
    }
    L.launch(S, *Args, S.Work->Pieces[St.Piece]);
  }
  void hold(const PartData &, PartState &) override { L.hold(S); }
  void copied(bool In, EventClock::time_point Start, int64_t Bytes) override {
    if (!S.InHostMemory)
      publishCopy(In ? EventKind::CopyIn : EventKind::CopyOut, S.Device,
                  L.K.Info->Location, In ? S.Began : Start, Bytes);
  }

private:
  Launcher &L;
  Slot &S;
  DeviceArgs *Args;
  std::optional<DeviceArgs> Built;
};

void Launcher::hold(Slot &S) {
  // HOMP_EMULATE: the device stays busy as if it were slower.
  double Part = secondsSince(S.Began);
  Event E;
  E.Kind = EventKind::Hold;
  E.Device = S.Device;
  E.Name = &K.Info->Location;
  E.Start = Clock::now();
  emulateSlowdown(S.Device, Part);
  E.End = Clock::now();
  const std::vector<std::pair<std::string, std::string>> Args = {
      {"part_us", traceNumber(static_cast<int64_t>(Part * 1e6))},
      {"factor", traceString(std::to_string(emulationFactor(S.Device)))}};
  E.Args = &Args;
  publish(E);
}

void Launcher::runSlot(Slot &S) {
  S.Began = Clock::now();
  SlotActions Actions(*this, S);
  runSteps(transport(), stepsOf(S), partData(S), Actions, S);
  S.Seconds += secondsSince(S.Began);
}

} // namespace launch
} // namespace homp
