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
#include "ProxyPool.h"
#include "Residency.h"
#include "Tracer.h"

#include "homp/Halo.h"
#include "homp/Info.h"
#include "homp/Trace.h"

#include <omp.h>

#include <chrono>
#include <cstdio>
#include <memory>

namespace homp {

namespace {

using Clock = std::chrono::steady_clock;

/// Halos of at most this many bytes in all are copied by the calling
/// thread; larger ones by each device's proxy, the devices in parallel.
constexpr size_t InlineBytes = size_t(1) << 20;

/// What one update of one array did, per position.
struct Moved {
  std::vector<int64_t> In, Out;
  std::vector<double> Seconds;
  std::vector<std::string> Routes; ///< per position, the routes it received by
};

/// Runs Copies on A's devices; false with Error when a copy fails.
bool runCopies(const ResidentArray &A, const std::vector<HaloCopy> &Copies,
               const std::string &Where, Moved &M, std::string &Error) {
  const Distribution &Dist = A.Dist;
  const size_t N = Dist.Devices.size();
  const int Host = hostDevice();
  const DeviceEnvironment &Env = deviceTypes();
  const bool ForcePeer = settings().HaloRoute == HaloRouteSetting::Peer;
  const bool ForceStaged = settings().HaloRoute == HaloRouteSetting::Staged;
  const int64_t ES = Dist.Shape.ElementSize;

  std::vector<BoxEnd> Ends(N);
  for (unsigned P = 0; P < N; ++P)
    Ends[P] = {static_cast<char *>(A.deviceAddress(P, A.HostBase)),
               Dist.Devices[P], false};
  std::vector<HaloRoute> Routes(Copies.size());
  std::vector<size_t> Offsets(Copies.size(), 0);
  size_t Staged = 0, Direct = 0;
  for (size_t C = 0; C < Copies.size(); ++C) {
    int From = Dist.Devices[Copies[C].From], To = Dist.Devices[Copies[C].To];
    Routes[C] =
        haloRoute(Env.typeOf(From), Env.typeOf(To), From == To, ForcePeer);
    if (ForceStaged && Routes[C] == HaloRoute::Peer)
      Routes[C] = HaloRoute::Staged;
    if (Routes[C] == HaloRoute::Staged) {
      Offsets[C] = Staged;
      Staged += static_cast<size_t>(Copies[C].Src.volume() * ES);
    } else {
      Direct += static_cast<size_t>(Copies[C].Src.volume() * ES);
    }
  }
  // The staging buffer lives on (per thread): updates repeat.
  thread_local std::unique_ptr<char[]> Buffer;
  thread_local size_t BufferSize = 0;
  if (BufferSize < Staged) {
    Buffer.reset(new char[Staged]);
    BufferSize = Staged;
  }
  BoxEnd Stage{Buffer.get(), Host, true};

  std::vector<std::string> Errors(N);
  std::vector<char> Failed(N, 0);
  const bool Info = settings().Info, Trace = tracing();
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
      if (Info) {
        std::string R = haloRouteName(Routes[C]);
        if (M.Routes[P].find(R) == std::string::npos)
          M.Routes[P] += (M.Routes[P].empty() ? "" : ",") + R;
      }
    }
    if (!Ok) {
      Failed[P] = 1;
      Errors[P] = "a halo copy of '" + A.Name + "' from device " +
                  std::to_string(Dist.Devices[H.From]) + " to device " +
                  std::to_string(Dist.Devices[H.To]) + " failed";
    }
    return Ok;
  };
  auto Work = [&](bool Send, unsigned P) {
    Clock::time_point Start =
        Info || Trace ? Clock::now() : Clock::time_point();
    int64_t Before = Send ? M.Out[P] : M.In[P];
    for (size_t C = 0; C < Copies.size() && !Failed[P]; ++C)
      if (Send ? Copies[C].From == P && Routes[C] == HaloRoute::Staged
               : Copies[C].To == P)
        One(Send, C);
    int64_t Moved = (Send ? M.Out[P] : M.In[P]) - Before;
    if (Trace && Moved)
      traceSpan(Dist.Devices[P], "halo",
                std::string(Send ? "halo send " : "halo receive ") + Where,
                Start, {{"bytes", traceNumber(Moved)}, {"array", traceString(A.Name)}});
    if (Info)
      M.Seconds[P] +=
          std::chrono::duration<double>(Clock::now() - Start).count();
  };
  if (Staged + Direct <= InlineBytes) {
    // Small halos (a few rows): the copies cost less than handing them to
    // the proxies. Once every device's queued work is done (the barrier),
    // this thread makes them all.
    if (asyncWorkPending()) {
      Clock::time_point Start = Clock::now();
      runOnDevices(Dist.Devices, Host, [](unsigned) {});
      if (Trace)
        traceSpan(Host, "wait", "wait for queued work " + Where, Start);
    }
    if (!Info && !Trace) {
      // One pass over the copies per step: sends, then receives.
      bool Ok = true;
      for (bool Send : {true, false})
        for (size_t C = 0; C < Copies.size() && Ok; ++C)
          if (!Send || Routes[C] == HaloRoute::Staged)
            Ok = One(Send, C);
    } else {
      // Per device, timed and traced.
      for (bool Send : {true, false})
        for (unsigned P = 0; P < N; ++P)
          Work(Send, P);
    }
  } else {
    for (bool Send : {true, false})
      runOnDevices(
          Dist.Devices, Host, [&](unsigned P) { Work(Send, P); },
          std::string(Send ? "wait for the halo sends "
                           : "wait for the halo receives ") +
              Where);
  }
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
    R.Work = M.Routes[P].empty() ? "-" : "via " + M.Routes[P];
    R.BytesIn = M.In[P];
    R.BytesOut = M.Out[P];
    R.Seconds = M.Seconds[P];
    Rows.push_back(R);
  }
  std::string Title = "halo update " + Info.Location + " of '" + A.Name +
                      "' (" + abi::haloDirectionName(Info.Desc.Direction) +
                      "): " + std::to_string(Copies) + " cop" +
                      (Copies == 1 ? "y" : "ies") + " on " +
                      std::to_string(Rows.size()) + " devices";
  std::fputs(formatReport(Title, Seconds, /*Load=*/false, Rows).c_str(),
             stderr);
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
    std::vector<unsigned> Steps;
    switch (D.Direction) {
    case abi::HaloDirection::Left:
      Steps = {SideLeft};
      break;
    case abi::HaloDirection::Right:
      Steps = {SideRight};
      break;
    case abi::HaloDirection::LeftThenRight:
      Steps = {SideLeft, SideRight};
      break;
    case abi::HaloDirection::Both:
      Steps = {SideBoth};
      break;
    }
    size_t N = A->Dist.Devices.size();
    Moved M{std::vector<int64_t>(N, 0), std::vector<int64_t>(N, 0),
            std::vector<double>(N, 0), std::vector<std::string>(N)};
    size_t Count = 0;
    bool Ok = true;
    for (unsigned Sides : Steps) {
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
