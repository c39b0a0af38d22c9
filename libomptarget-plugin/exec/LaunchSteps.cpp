//===-- LaunchSteps.cpp - One device's part of a kernel, step by step -----===//
//
// The executor of a device's part: the core lowers it to steps
// (homp/Steps.h's lowerPart), and Launcher::runSlot runs them in order:
// allocations placed in the host's pages on CPU offload devices, copies in
// and out, the edge halos, each piece's launch, and HOMP_EMULATE's hold.
// It decides nothing of its own beyond where in a page storage starts.
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
    In.Arrays[I] = {!K.ItemIsResident[I] && !E.Unused[I],
                    abi::copiesIn(D.Arrays[I].Map),
                    abi::copiesOut(D.Arrays[I].Map)};
  return lowerPart(In);
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
    DeviceChunks::Lease Chunk = K.Info->Chunks.pass(
        Launch, E.Chunk, S.Device, S.InHostMemory, S.Chunk, S.BytesIn);
    S.BytesIn += Launch.bytesIn();
    S.BytesOut += Launch.bytesOut();
    Rc = injectedFault(S.Device, FaultSpec::Launch)
             ? 1
             : __tgt_target_kernel(Loc, S.Device, NumTeams, ThreadLimit,
                                   HostPtr, &Launch.args());
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

void Launcher::runStep(Slot &S, const Step &St, DeviceArgs *&Args,
                       std::optional<DeviceArgs> &Built) {
  auto Failed = [&](const char *Where) {
    const bool Back = St.Kind == Step::CopyOut;
    if (Back && S.Status != Slot::Ok)
      return;
    S.Status = Back ? Slot::FailedAfterResults : Slot::FailedBeforeResults;
    S.Error = "copying '" + D.Arrays[St.Array].Name + "' " + Where +
              " device " + std::to_string(S.Device) + " failed";
  };
  const size_t I = St.Array;
  const ConstructValues::ArrayValues *V =
      I < K.Values.Arrays.size() ? &K.Values.Arrays[I] : nullptr;
  switch (St.Kind) {
  case Step::Alloc:
    allocate(S, St);
    return;
  case Step::CopyIn:
    if (!copyElements(transport(), Direction::ToDevice, V->Shape, V->Base,
                      S.Items[I], St.Elements, S.BytesIn))
      Failed("to");
    return;
  case Step::FillEdge:
    if (!fillEdgeHalos(transport(), S.Plan->Items[I], S.Position, V->Base,
                       storageEnd(V->Shape, S.Items[I]), S.BytesIn,
                       St.Elements))
      Failed("to");
    return;
  case Step::Launch:
    if (!Args) {
      Built.emplace(argsFor(S));
      Args = &*Built;
    }
    launch(S, *Args, S.Work->Pieces[St.Piece]);
    return;
  case Step::CopyOut: {
    char *Host = V->Base;
    if (St.ToStage) {
      Range Span = V->Shape.span(ProductSet::of(V->Shape.Section));
      Host = S.Staging[I].data() - Span.Begin * V->Shape.ElementSize;
    }
    if (!copyElements(transport(), Direction::FromDevice, V->Shape, Host,
                      S.Items[I], St.Elements, S.BytesOut))
      Failed("back from");
    return;
  }
  case Step::Free:
    freeStorage(transport(), S.Items[I]);
    return;
  case Step::Hold:
    hold(S);
    return;
  }
}

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
  const std::vector<Step> Steps = stepsOf(S);
  DeviceArgs *Args = S.Prebuilt.get();
  std::optional<DeviceArgs> Built;
  size_t N = 0;
  // Runs the steps from N on while InPhase takes their kind: those that
  // still run after what failed before them.
  auto RunWhile = [&](auto InPhase) {
    for (; N < Steps.size() && InPhase(Steps[N].Kind); ++N)
      if (stepRunsAfter(Steps[N].Kind,
                        S.Status != Slot::Ok &&
                            S.Status != Slot::FailedAfterResults,
                        S.Status == Slot::FailedAfterResults))
        runStep(S, Steps[N], Args, Built);
  };
  // The copies in and the copies out are one event each (of this part: a
  // scheduled loop's slot runs several).
  int64_t Before = S.BytesIn;
  RunWhile([](Step::KindTy K) {
    return K == Step::Alloc || K == Step::CopyIn || K == Step::FillEdge;
  });
  if (!S.InHostMemory)
    publishCopy(EventKind::CopyIn, S.Device, K.Info->Location, S.Began,
                S.BytesIn - Before);
  RunWhile([](Step::KindTy K) { return K == Step::Launch; });
  if (S.Status == Slot::Ok && !S.InHostMemory) {
    Clock::time_point Out = Clock::now();
    Before = S.BytesOut;
    RunWhile([](Step::KindTy K) { return K == Step::CopyOut; });
    publishCopy(EventKind::CopyOut, S.Device, K.Info->Location, Out,
                S.BytesOut - Before);
  }
  RunWhile([](Step::KindTy) { return true; });
  S.Seconds += secondsSince(S.Began);
}

} // namespace launch
} // namespace homp
