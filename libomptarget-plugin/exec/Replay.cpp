//===-- Replay.cpp - Launching a kernel again as it was launched ----------===//

#include "Replay.h"

#include "Construct.h"
#include "Devices.h"
#include "Observe.h"
#include "ProxyPool.h"

#include "homp/Info.h"

#include <algorithm>
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

/// What a device's replayed launches did (HOMP_INFO).
struct Done {
  int64_t Launches = 0, BytesIn = 0, BytesOut = 0;
  double Seconds = 0;
};

/// Device D's launches of P with the arguments A (D's copy of clang's).
void runDevice(const PreparedLaunch &P, const PreparedLaunch::Device &D,
               DeviceArgs &A, Done &Did) {
  EventClock::time_point Start = EventClock::now();
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
    // (libomptarget may rewrite the arrays: what it copies counted before.)
    Bytes += Launch.bytesIn();
    const int64_t Back = Launch.bytesOut();
    EventClock::time_point Began = EventClock::now();
    const int32_t Teams =
        teamsFor(P.Info->Desc, D.Id, P.NumTeams, Launch.args());
    if (__tgt_target_kernel(P.Loc, D.Id, Teams, P.ThreadLimit, P.HostPtr,
                            &Launch.args()) != 0)
      constructFatal(*P.Info, "device " + std::to_string(D.Id) +
                                  " failed to run its part");
    publishKernel(D.Id, P.Info->Location, Began, static_cast<int64_t>(Trip),
                  static_cast<int64_t>(I + 1), Bytes, Back, /*Queued=*/true,
                  /*Replayed=*/true);
    ++Did.Launches;
    Did.BytesIn += Bytes;
    Did.BytesOut += Back;
  }
  Did.Seconds =
      std::chrono::duration<double>(EventClock::now() - Start).count();
}

/// HOMP_INFO's report of a replay that began at Start.
std::string reportText(const PreparedLaunch &P, const std::vector<Done> &Did,
                       EventClock::time_point Start) {
  const DeviceEnvironment &Env = deviceTypes();
  std::vector<DeviceReport> Rows;
  for (size_t I = 0; I < P.Devices.size(); ++I) {
    const PreparedLaunch::Device &D = P.Devices[I];
    DeviceReport Row;
    Row.Device = D.Id;
    Row.Type = deviceTypeName(Env.typeOf(D.Id));
    Row.Work = describeWork(P.Nest, D.Work->Iterations);
    Row.Launches = Did[I].Launches;
    Row.BytesIn = Did[I].BytesIn;
    Row.BytesOut = Did[I].BytesOut;
    Row.Seconds = Did[I].Seconds;
    Rows.push_back(Row);
  }
  std::sort(Rows.begin(), Rows.end(),
            [](const DeviceReport &A, const DeviceReport &B) {
              return A.Device < B.Device;
            });
  double Seconds =
      std::chrono::duration<double>(EventClock::now() - Start).count();
  return formatReport(P.ReportTitle, Seconds, /*Load=*/true, Rows);
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
  return S.Emulate.empty() && S.Faults.empty();
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
    std::vector<Done> Did;
    EventClock::time_point Start;
  };
  auto *L = new Launches{P,
                         {},
                         {},
                         FirstprivateCopies(Args),
                         std::vector<Done>(P->Devices.size()),
                         EventClock::now()};
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
      Ids,
      [L](unsigned I) {
        runDevice(*L->P, L->P->Devices[I], L->Args[I], L->Did[I]);
      },
      [L] {
        publishReport(
            L->P->Info->Location,
            [&] { return reportText(*L->P, L->Did, L->Start); },
            /*Queued=*/true);
        delete L;
      });
  return true;
}

} // namespace homp
