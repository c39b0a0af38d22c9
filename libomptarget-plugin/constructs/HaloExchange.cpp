//===-- HaloExchange.cpp - 'halo_exchange' and 'halo_update' --------------===//
//
// A halo update of a resident array (SPEC.md section 5) executes the copies
// the core plans (homp/Halo.h) once every device's earlier work on the array
// is done: first the senders copy what travels through the host into a host
// buffer, then each device receives its halo cells (from that buffer, from
// host memory, or peer to peer from the sender). Small halos are copied by
// the calling thread after waiting for the devices' queues; larger ones by
// each device's proxy, where the first step is the barrier. The caller
// returns when the halos are filled, so later work sees them.
//
//===----------------------------------------------------------------------===//

#include "HaloExchange.h"

#include "RankKernel.h"

#include "Devices.h"
#include "Messages.h"
#include "Observe.h"
#include "OffloadTransport.h"
#include "ProxyPool.h"
#include "Residency.h"

#include "homp/Halo.h"
#include "homp/Info.h"
#include "homp/RankPlan.h"
#include "homp/Trace.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <deque>
#include <optional>

namespace homp {

namespace {

using Clock = std::chrono::steady_clock;

/// What one update of one array did, per position.
struct Moved {
  std::vector<int64_t> In, Out;
  std::vector<double> Seconds;
  std::vector<unsigned> Routes; ///< per position, the routes it received by
                                ///< (bit 1 << HaloRoute)

  /// N positions, each at zero (keeping the vectors' room: an update per
  /// solver iteration allocates nothing).
  void reset(size_t N) {
    In.assign(N, 0);
    Out.assign(N, 0);
    Seconds.assign(N, 0);
    Routes.assign(N, 0);
  }
};

/// Waits for the work queued on the devices of an update (the barrier
/// before the calling thread makes its copies).
void waitForQueuedWork(const Distribution &Dist, const std::string &Where) {
  if (!asyncWorkPending())
    return;
  Event E;
  E.Kind = EventKind::Wait;
  E.Device = hostDevice();
  E.What = "wait for queued work";
  E.Name = &Where;
  E.Start = Clock::now();
  runOnDevices(Dist.Devices, hostDevice(), [](unsigned) {});
  E.End = Clock::now();
  publish(E);
}

std::string copyError(const ResidentArray &A, const HaloCopy &H) {
  return "a halo copy of '" + A.Name + "' from device " +
         std::to_string(A.Dist.Devices[H.From]) + " to device " +
         std::to_string(A.Dist.Devices[H.To]) + " failed";
}

/// An update's copies worked out once (a solver repeats the same update
/// every iteration; measured: the bookkeeping of a Jacobi row exchange over
/// 4 devices was 0.5 of its 3.4 us): the core's program and its copies
/// planned for the transport.
struct PreparedUpdate {
  uint64_t ArrayId = 0;
  const std::vector<HaloCopy> *Plan = nullptr;
  HaloProgram Program;
  std::vector<PlannedHaloCopy> Planned; ///< by Program.Order
  bool Inline = false; ///< small enough for the calling thread
};

/// Copies of at most this many bytes in all are made by the calling thread,
/// after waiting for the devices' queues; larger ones by each device's
/// proxy, where the first step is the barrier.
constexpr size_t InlineBytes = size_t(1) << 20;

const PreparedUpdate &prepared(const ResidentArray &A,
                               const std::vector<HaloCopy> &Copies) {
  // A few per thread, the most recent first: an update of several arrays
  // alternates between them. Ids are never reused, so an entry of an array
  // that is gone matches nothing.
  constexpr size_t Kept = 8;
  thread_local std::deque<PreparedUpdate> Cache;
  for (auto It = Cache.begin(); It != Cache.end(); ++It)
    if (It->ArrayId == A.Id && It->Plan == &Copies) {
      if (It != Cache.begin())
        std::iter_swap(It, Cache.begin());
      return Cache.front();
    }
  const Distribution &Dist = A.Dist;
  const size_t N = Dist.Devices.size();
  PreparedUpdate P;
  P.ArrayId = A.Id;
  P.Plan = &Copies;
  std::vector<unsigned> Types(N);
  for (size_t Q = 0; Q < N; ++Q)
    Types[Q] = deviceTypes().typeOf(Dist.Devices[Q]);
  P.Program = haloProgram(Dist, Copies, Types, settings().HaloRoute);
  const HaloProgram &Pr = P.Program;
  P.Inline = Pr.Staged + Pr.Direct <= InlineBytes;
  std::vector<BoxEnd> Ends(N);
  for (unsigned Q = 0; Q < N; ++Q)
    Ends[Q] = {static_cast<char *>(A.deviceAddress(Q, A.HostBase)),
               Dist.Devices[Q], false};
  P.Planned = planHaloCopies(Dist.Shape, Copies, Pr, Ends, transport().host());
  if (Cache.size() == Kept)
    Cache.pop_back();
  Cache.push_front(std::move(P));
  return Cache.front();
}

/// Runs group G of P's program of A, with the staging buffer at Stage,
/// from Start on: publishes it and adds its time to M. Returns when it
/// ended, or std::nullopt with Error when a copy failed.
std::optional<Clock::time_point>
runGroup(const ResidentArray &A, const PreparedUpdate &P, size_t G,
         const char *Stage, const std::string &Where, Clock::time_point Start,
         Moved &M, std::string &Error) {
  const HaloProgram::Group &Gr = P.Program.Groups[G];
  size_t Failed = 0;
  if (!runHaloGroup(transport(), P.Program, P.Planned, G, Stage, Failed)) {
    Error = copyError(A, (*P.Plan)[Failed]);
    return std::nullopt;
  }
  const Clock::time_point End = Clock::now();
  publishCopy(Gr.Send ? EventKind::HaloSend : EventKind::HaloReceive,
              A.Dist.Devices[Gr.Position], Where, Start, End, Gr.Bytes,
              &A.Name);
  M.Seconds[Gr.Position] += std::chrono::duration<double>(End - Start).count();
  return End;
}

/// Runs Copies on A's devices, adding what they moved to M; false with
/// Error when a copy fails. Small updates by the calling thread, larger
/// ones by each device's proxy.
bool runCopies(const ResidentArray &A, const std::vector<HaloCopy> &Copies,
               const std::string &Where, Moved &M, std::string &Error) {
  const PreparedUpdate &P = prepared(A, Copies);
  const HaloProgram &Pr = P.Program;
  const char *Stage = transport().staging(Pr.Staged);
  const size_t N = A.Dist.Devices.size();
  if (P.Inline) {
    waitForQueuedWork(A.Dist, Where);
    // One clock reading per group: where one ends, the next begins.
    Clock::time_point Start = Clock::now();
    for (size_t G = 0; G < Pr.Groups.size(); ++G) {
      std::optional<Clock::time_point> End =
          runGroup(A, P, G, Stage, Where, Start, M, Error);
      if (!End)
        return false;
      Start = *End;
    }
  } else {
    std::vector<std::string> Errors(N);
    for (bool Send : {true, false})
      runOnDevices(
          A.Dist.Devices, hostDevice(),
          [&](unsigned Q) {
            const int G = (Send ? Pr.SendGroup : Pr.ReceiveGroup)[Q];
            if (G >= 0 && Errors[Q].empty())
              runGroup(A, P, static_cast<size_t>(G), Stage, Where, Clock::now(),
                       M, Errors[Q]);
          },
          WaitLabel{Send ? "wait for the halo sends"
                         : "wait for the halo receives",
                    &Where});
    for (const std::string &E : Errors)
      if (!E.empty()) {
        Error = E;
        return false;
      }
  }
  for (size_t Q = 0; Q < N; ++Q) {
    M.In[Q] += Pr.In[Q];
    M.Out[Q] += Pr.Out[Q];
    M.Routes[Q] |= Pr.RoutesIn[Q];
  }
  return true;
}

std::string reportText(const ConstructInfo &Info, const ResidentArray &A,
                       size_t Copies, const Moved &M, double Seconds) {
  const DeviceEnvironment &Env = deviceTypes();
  const int Host = hostDevice();
  std::vector<DeviceReport> Rows;
  for (size_t P = 0; P < A.Dist.Devices.size(); ++P) {
    DeviceReport R;
    R.Device = A.Dist.Devices[P];
    R.IsHost = R.Device == Host;
    R.Type = deviceTypeName(Env.typeOf(R.Device));
    std::string Via;
    for (HaloRoute Route : {HaloRoute::Local, HaloRoute::Host, HaloRoute::Peer,
                            HaloRoute::Staged})
      if (M.Routes[P] & haloRouteBit(Route))
        Via += (Via.empty() ? "" : ",") + std::string(haloRouteName(Route));
    R.Work = Via.empty() ? "-" : "via " + Via;
    R.BytesIn = M.In[P];
    R.BytesOut = M.Out[P];
    R.Seconds = M.Seconds[P];
    Rows.push_back(R);
  }
  std::string Title = "halo update " + Info.Location + " of '" + A.Name +
                      "' (" + abi::haloDirectionName(Info.Desc.Direction) +
                      "): " + std::to_string(Copies) + " cop" +
                      (Copies == 1 ? "y" : "ies") + " on " +
                      std::to_string(Rows.size()) +
                      (Rows.size() == 1 ? " device" : " devices");
  return formatReport(Title, Seconds, /*Load=*/false, Rows);
}

} // namespace

/// HOMP_MPI_DRY_RUN: the messages between ranks that the update of A (as
/// the program names it, Name) takes, at its first execution: its halo
/// along its first split dimension (the other dimensions' stay within each
/// rank).
static void printRankPlan(const ConstructInfo &Info, const std::string &Name,
                          const ResidentArray &A) {
  if (settings().MpiDryRun <= 0 ||
      !firstDryRun(Info.Location + " '" + Name + "'"))
    return;
  RankPlanInput In;
  In.Ranks = settings().MpiDryRun;
  In.Loop = false;
  In.Arrays.push_back(rankArrayOf(Name, A.Dist, false));
  message("%s", describeRankPlan(In, planRanks(In),
                                 "halo update " + Info.Location + " of '" +
                                     Name + "'")
                    .c_str());
}

void haloUpdate(const ConstructInfo &Info, const ConstructValues &V) {
  const abi::Descriptor &D = Info.Desc;
  if (D.SharedMemory) {
    constructNote(Info, "the devices share the host's memory "
                        "(unified_shared_memory): the halo update copies "
                        "nothing");
    return;
  }
  for (size_t I = 0; I < D.HaloItems.size(); ++I) {
    const abi::HaloItem &Item = D.HaloItems[I];
    // Not distributed on devices (no data region holds it, or the program
    // was compiled without the homp pass): nothing but the host's copy,
    // or one device's whole copy, exists; it has no halo to fill.
    ResidentArray *A = acquireResidentByBase(V.HaloAddresses[I]);
    if (!A) {
      constructNote(Info, "'" + Item.Name +
                              "' is not distributed on devices here; its "
                              "halo update does nothing");
      continue;
    }
    Clock::time_point Start = Clock::now();
    const unsigned Rank = A->Dist.Shape.Rank;
    const unsigned Have = haloDimensions(A->Dist);
    // 'p' ('x', distributed by the data region at FILE:LINE:COL)
    auto Named = [&] {
      return "'" + Item.Name + "' (" +
             (A->Name == Item.Name ? "" : "'" + A->Name + "', ") +
             "distributed by " + A->Where + ")";
    };
    std::string Error;
    if (Item.Dims >> Rank)
      Error = Named() + " has " + std::to_string(Rank) + " dimension" +
              (Rank == 1 ? "" : "s") + ", fewer than the halo update selects";
    else if (Have == 0)
      Error = Named() + " has no halo";
    else if (Item.Dims & ~Have)
      Error = Named() + " has no halo in a dimension the update selects";
    if (!Error.empty()) {
      std::vector<int64_t> Bytes;
      std::string Ignored;
      releaseResident(A, abi::copiesOut(A->Map), false, Bytes, Ignored);
      constructFatal(Info, Error);
    }
    unsigned Dims = Item.Dims ? Item.Dims : Have;
    printRankPlan(Info, Item.Name, *A);
    // The sides each step fills (0: no step).
    unsigned Steps[2] = {SideBoth, 0};
    switch (D.Direction) {
    case abi::HaloDirection::Left:
      Steps[0] = SideLeft;
      break;
    case abi::HaloDirection::Right:
      Steps[0] = SideRight;
      break;
    case abi::HaloDirection::LeftThenRight:
      Steps[0] = SideLeft;
      Steps[1] = SideRight;
      break;
    case abi::HaloDirection::Both:
      break;
    }
    thread_local Moved M;
    M.reset(A->Dist.Devices.size());
    size_t Count = 0;
    bool Ok = true;
    for (unsigned Sides : Steps) {
      if (!Sides)
        continue;
      const std::vector<HaloCopy> &Copies =
          A->HaloPlans.get(A->Dist, Dims, Sides);
      Count += Copies.size();
      if (Ok)
        Ok = runCopies(*A, Copies, Info.Location, M, Error);
    }
    // Between ranks: the halo rows each holds of the others' (collective).
    if (Ok && A->Ranks)
      exchangeRankHalos(Info, *A, D.Direction != abi::HaloDirection::Right,
                        D.Direction != abi::HaloDirection::Left);
    if (Ok)
      publishReport(Info.Location, [&] {
        return reportText(
            Info, *A, Count, M,
            std::chrono::duration<double>(Clock::now() - Start).count());
      });
    std::vector<int64_t> Bytes;
    std::string Ignored;
    releaseResident(A, abi::copiesOut(A->Map), false, Bytes, Ignored);
    if (!Ok)
      constructFatal(Info, Error);
  }
}

} // namespace homp
