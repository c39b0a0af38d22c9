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

#include "Devices.h"
#include "Observe.h"
#include "ProxyPool.h"
#include "Residency.h"

#include "homp/Halo.h"
#include "homp/Info.h"
#include "homp/Trace.h"

#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <deque>
#include <memory>

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

unsigned routeBit(HaloRoute R) { return 1u << static_cast<unsigned>(R); }

/// How each copy of an update travels, and where the staged ones lie in the
/// staging buffer.
struct Routing {
  std::vector<HaloRoute> Routes;
  std::vector<size_t> Offsets;
  size_t Staged = 0, Direct = 0; ///< bytes through the buffer, and not
};

Routing routeCopies(const ResidentArray &A,
                    const std::vector<HaloCopy> &Copies) {
  const Distribution &Dist = A.Dist;
  const DeviceEnvironment &Env = deviceTypes();
  const bool ForcePeer = settings().HaloRoute == HaloRouteSetting::Peer;
  const bool ForceStaged = settings().HaloRoute == HaloRouteSetting::Staged;
  const int64_t ES = Dist.Shape.ElementSize;
  Routing R;
  R.Routes.resize(Copies.size());
  R.Offsets.assign(Copies.size(), 0);
  for (size_t C = 0; C < Copies.size(); ++C) {
    int From = Dist.Devices[Copies[C].From], To = Dist.Devices[Copies[C].To];
    R.Routes[C] =
        haloRoute(Env.typeOf(From), Env.typeOf(To), From == To, ForcePeer);
    if (ForceStaged && R.Routes[C] == HaloRoute::Peer)
      R.Routes[C] = HaloRoute::Staged;
    size_t Bytes = static_cast<size_t>(Copies[C].Src.volume() * ES);
    if (R.Routes[C] == HaloRoute::Staged) {
      R.Offsets[C] = R.Staged;
      R.Staged += Bytes;
    } else {
      R.Direct += Bytes;
    }
  }
  return R;
}

/// The staging buffer of the calling thread, at least Bytes long. It lives
/// on: updates repeat.
char *stagingBuffer(size_t Bytes) {
  thread_local std::unique_ptr<char[]> Buffer;
  thread_local size_t BufferSize = 0;
  if (BufferSize < Bytes) {
    Buffer.reset(new char[Bytes]);
    BufferSize = Bytes;
  }
  return Buffer.get();
}

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

/// A small update's copies worked out once, for the calling thread to make:
/// a solver repeats the same update every iteration (measured: the
/// bookkeeping of a Jacobi row exchange over 4 devices was 0.5 of its
/// 3.4 us).
struct PreparedUpdate {
  uint64_t ArrayId = 0;
  const std::vector<HaloCopy> *Plan = nullptr;
  struct Op {
    BoxCopy Copy;
    size_t Index = 0; ///< into the plan
    bool DstStaged = false, SrcStaged = false;
  };
  std::vector<Op> Ops;
  /// Ops[Begin, End): one position's sends into the staging buffer, or its
  /// receives; every position's sends first.
  struct Group {
    bool Send = false;
    unsigned Position = 0;
    size_t Begin = 0, End = 0;
    int64_t Bytes = 0;
  };
  std::vector<Group> Groups;
  Moved Totals; ///< what the update moves, per position (no Seconds)
  size_t Staged = 0;
  bool Inline = false; ///< small enough for the calling thread
};

/// Copies of at most this many bytes in all are made by the calling thread.
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
  PreparedUpdate P;
  P.ArrayId = A.Id;
  P.Plan = &Copies;
  Routing R = routeCopies(A, Copies);
  P.Staged = R.Staged;
  P.Inline = R.Staged + R.Direct <= InlineBytes;
  const Distribution &Dist = A.Dist;
  const int Host = hostDevice();
  auto End = [&](unsigned Position) {
    return BoxEnd{static_cast<char *>(A.deviceAddress(Position, A.HostBase)),
                  Dist.Devices[Position], false};
  };
  // Staged ends are planned at their offsets in the buffer.
  auto StageAt = [&](size_t C) {
    return BoxEnd{reinterpret_cast<char *>(R.Offsets[C]), Host, true};
  };
  const int64_t ES = Dist.Shape.ElementSize;
  P.Totals.reset(Dist.Devices.size());
  for (bool Send : {true, false})
    for (unsigned Position = 0; Position < Dist.Devices.size(); ++Position) {
      PreparedUpdate::Group G{Send, Position, P.Ops.size(), 0, 0};
      for (size_t C = 0; C < Copies.size(); ++C) {
        const HaloCopy &H = Copies[C];
        bool Via = R.Routes[C] == HaloRoute::Staged;
        if ((Send ? H.From : H.To) != Position || (Send && !Via))
          continue;
        PreparedUpdate::Op O;
        O.Index = C;
        if (Send) {
          O.Copy =
              planBoxCopy(Dist.Shape, StageAt(C), H.Src, End(H.From), H.Src);
          O.DstStaged = true;
          G.Bytes += H.Src.volume() * ES;
          P.Totals.Out[Position] += H.Src.volume() * ES;
        } else {
          O.Copy = planBoxCopy(Dist.Shape, End(H.To), H.Dst,
                               Via ? StageAt(C) : End(H.From), H.Src);
          O.SrcStaged = Via;
          G.Bytes += H.Dst.volume() * ES;
          P.Totals.In[Position] += H.Dst.volume() * ES;
          P.Totals.Routes[Position] |= routeBit(R.Routes[C]);
          if (!Via) // what its sender sent without the buffer
            P.Totals.Out[H.From] += H.Src.volume() * ES;
        }
        P.Ops.push_back(O);
      }
      G.End = P.Ops.size();
      if (G.End > G.Begin)
        P.Groups.push_back(G);
    }
  if (Cache.size() == Kept)
    Cache.pop_back();
  Cache.push_front(std::move(P));
  return Cache.front();
}

/// Runs P's copies of A on the calling thread, adding what they moved to
/// M; false with Error when a copy fails.
bool runPrepared(const ResidentArray &A, const PreparedUpdate &P,
                 const std::string &Where, Moved &M, std::string &Error) {
  waitForQueuedWork(A.Dist, Where);
  const ptrdiff_t Stage = static_cast<ptrdiff_t>(
      reinterpret_cast<uintptr_t>(stagingBuffer(P.Staged)));
  // One clock reading per group: where one ends, the next begins.
  Clock::time_point Start = Clock::now();
  for (const PreparedUpdate::Group &G : P.Groups) {
    const int Device = A.Dist.Devices[G.Position];
    for (size_t I = G.Begin; I < G.End; ++I) {
      const PreparedUpdate::Op &O = P.Ops[I];
      if (injectedFault(Device, FaultSpec::Copy) ||
          !runBoxCopy(O.Copy, O.DstStaged ? Stage : 0,
                      O.SrcStaged ? Stage : 0)) {
        Error = copyError(A, (*P.Plan)[O.Index]);
        return false;
      }
    }
    const Clock::time_point End = Clock::now();
    publishCopy(G.Send ? EventKind::HaloSend : EventKind::HaloReceive, Device,
                Where, Start, End, G.Bytes, &A.Name);
    M.Seconds[G.Position] += std::chrono::duration<double>(End - Start).count();
    Start = End;
  }
  for (size_t Q = 0; Q < A.Dist.Devices.size(); ++Q) {
    M.In[Q] += P.Totals.In[Q];
    M.Out[Q] += P.Totals.Out[Q];
    M.Routes[Q] |= P.Totals.Routes[Q];
  }
  return true;
}

/// Runs Copies on A's devices, adding what they moved to M; false with
/// Error when a copy fails. Small updates by the calling thread (prepared),
/// larger ones by each device's proxy.
bool runCopies(const ResidentArray &A, const std::vector<HaloCopy> &Copies,
               const std::string &Where, Moved &M, std::string &Error) {
  const PreparedUpdate &Prepared = prepared(A, Copies);
  if (Prepared.Inline)
    return runPrepared(A, Prepared, Where, M, Error);
  const Distribution &Dist = A.Dist;
  const size_t N = Dist.Devices.size();
  const int Host = hostDevice();
  const int64_t ES = Dist.Shape.ElementSize;

  std::vector<BoxEnd> Ends(N);
  for (unsigned P = 0; P < N; ++P)
    Ends[P] = {static_cast<char *>(A.deviceAddress(P, A.HostBase)),
               Dist.Devices[P], false};
  const Routing R = routeCopies(A, Copies);
  const std::vector<HaloRoute> &Routes = R.Routes;
  const std::vector<size_t> &Offsets = R.Offsets;
  BoxEnd Stage{stagingBuffer(R.Staged), Host, true};

  std::vector<std::string> Errors(N);
  std::vector<char> Failed(N, 0);
  // Copy C's send (into the staging buffer) or receive; false on failure.
  auto One = [&](bool Send, size_t C) {
    const HaloCopy &H = Copies[C];
    bool Via = Routes[C] == HaloRoute::Staged;
    unsigned P = Send ? H.From : H.To;
    bool Ok;
    if (Send) {
      Ok = !injectedFault(Dist.Devices[P], FaultSpec::Copy) &&
           copyBox(Dist.Shape, {Stage.Base + Offsets[C], Host, true}, H.Src,
                   Ends[P], H.Src);
      M.Out[P] += H.Src.volume() * ES;
    } else {
      BoxEnd From =
          Via ? BoxEnd{Stage.Base + Offsets[C], Host, true} : Ends[H.From];
      Ok = !injectedFault(Dist.Devices[P], FaultSpec::Copy) &&
           copyBox(Dist.Shape, Ends[P], H.Dst, From, H.Src);
      M.In[P] += H.Dst.volume() * ES;
      M.Routes[P] |= routeBit(Routes[C]);
    }
    if (!Ok) {
      Failed[P] = 1;
      Errors[P] = copyError(A, H);
    }
    return Ok;
  };
  auto Work = [&](bool Send, unsigned P) {
    Clock::time_point Start = Clock::now();
    int64_t Before = Send ? M.Out[P] : M.In[P];
    for (size_t C = 0; C < Copies.size() && !Failed[P]; ++C)
      if (Send ? Copies[C].From == P && Routes[C] == HaloRoute::Staged
               : Copies[C].To == P)
        One(Send, C);
    if (int64_t Moved = (Send ? M.Out[P] : M.In[P]) - Before)
      publishCopy(Send ? EventKind::HaloSend : EventKind::HaloReceive,
                  Dist.Devices[P], Where, Start, Moved, &A.Name);
    M.Seconds[P] += std::chrono::duration<double>(Clock::now() - Start).count();
  };
  for (bool Send : {true, false})
    runOnDevices(
        Dist.Devices, Host, [&](unsigned P) { Work(Send, P); },
        WaitLabel{Send ? "wait for the halo sends"
                       : "wait for the halo receives",
                  &Where});
  // Bytes a device sent without the buffer: what its receivers got.
  for (size_t C = 0; C < Copies.size(); ++C)
    if (Routes[C] != HaloRoute::Staged)
      M.Out[Copies[C].From] += Copies[C].Src.volume() * ES;
  for (size_t P = 0; P < N; ++P)
    if (Failed[P]) {
      Error = Errors[P];
      return false;
    }
  return true;
}

void report(const ConstructInfo &Info, const ResidentArray &A, size_t Copies,
            const Moved &M, double Seconds) {
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
      if (M.Routes[P] & routeBit(Route))
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
  message("%s", formatReport(Title, Seconds, /*Load=*/false, Rows).c_str());
}

} // namespace

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
    if (Ok && settings().Info)
      report(Info, *A, Count, M,
             std::chrono::duration<double>(Clock::now() - Start).count());
    std::vector<int64_t> Bytes;
    std::string Ignored;
    releaseResident(A, abi::copiesOut(A->Map), false, Bytes, Ignored);
    if (!Ok)
      constructFatal(Info, Error);
  }
}

} // namespace homp
