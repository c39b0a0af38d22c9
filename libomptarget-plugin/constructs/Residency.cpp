//===-- Residency.cpp - Distributed arrays living on devices --------------===//

#include "Residency.h"

#include "Devices.h"
#include "Observe.h"
#include "ProxyPool.h"

#include "homp/Executor.h"

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <mutex>

namespace homp {

namespace {

std::mutex TableLock;
ResidentTable &table() {
  static auto *T = new ResidentTable(); // outlives static destructors
  return *T;
}
std::atomic<size_t> Resident{0};
std::atomic<uint64_t> Generation{0};

Storage storageOf(const ResidentArray &A, unsigned P) {
  Storage S;
  S.Device = A.Dist.Devices[P];
  S.Ptr = A.Storage[P];
  S.Span = A.Spans[P];
  if (P < A.Allocations.size()) {
    S.Allocation = A.Allocations[P].Ptr;
    S.Bytes = A.Allocations[P].Bytes;
  }
  return S;
}

/// Runs Job(I, P) for each position P with device storage of each array
/// Arrays[I], one job per device doing all of its arrays in order, all
/// devices at once: one hand-off to the devices' proxies for a whole
/// construct. False with the first error if any job failed. Seconds, when
/// given, gets each device's time on its jobs.
bool forEachPart(
    const std::vector<const ResidentArray *> &Arrays,
    const std::function<bool(size_t, unsigned, std::string &)> &Job,
    std::string &Error, DeviceSeconds *Seconds = nullptr) {
  int Host = hostDevice();
  std::vector<int> Devices;
  for (const ResidentArray *A : Arrays)
    for (int D : A->Dist.Devices)
      if (D != Host && std::find(Devices.begin(), Devices.end(), D) ==
                           Devices.end())
        Devices.push_back(D);
  std::vector<std::string> Errors(Devices.size());
  std::vector<char> Failed(Devices.size(), 0);
  std::vector<double> Took(Devices.size(), 0);
  runOnDevices(Devices, Host, [&](unsigned I) {
    auto Start = std::chrono::steady_clock::now();
    for (size_t A = 0; A < Arrays.size(); ++A)
      for (unsigned P = 0; P < Arrays[A]->Dist.Devices.size() && !Failed[I];
           ++P)
        if (Arrays[A]->Dist.Devices[P] == Devices[I])
          Failed[I] = !Job(A, P, Errors[I]);
    if (Seconds)
      Took[I] = std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                              Start)
                    .count();
  });
  if (Seconds)
    for (size_t I = 0; I < Devices.size(); ++I)
      Seconds->emplace_back(Devices[I], Took[I]);
  for (size_t I = 0; I < Failed.size(); ++I)
    if (Failed[I]) {
      Error = Errors[I];
      return false;
    }
  return true;
}

/// Publishes a device's copies of a resident array when it goes out of
/// scope (What: "copy in", "update from", ...).
struct PublishOnReturn {
  EventKind Kind;
  const char *What;
  int Device;
  const ResidentArray &A;
  std::chrono::steady_clock::time_point Start;
  const int64_t &Bytes;
  ~PublishOnReturn() {
    Event E;
    E.Kind = Kind;
    E.What = What;
    E.Device = Device;
    E.Name = &A.Where;
    E.Array = &A.Name;
    E.Bytes = Bytes;
    E.Start = Start;
    E.End = std::chrono::steady_clock::now();
    publish(E);
  }
};

/// Position P's storage, or for the host the host's array itself.
Storage partOf(const ResidentArray &A, unsigned P) {
  if (A.Dist.Devices[P] != hostDevice())
    return storageOf(A, P);
  Storage S;
  S.Device = A.Dist.Devices[P];
  S.Span = A.Dist.Shape.span(ProductSet::of(A.Dist.Shape.Section));
  S.Ptr = A.HostBase + S.Span.Begin * A.Dist.Shape.ElementSize;
  return S;
}

/// Moves the elements Elements of A between the host's memory, where
/// element [0]...[0] is at Host, and position P's storage, as the core
/// lowers an update (homp/Steps.h's lowerUpdate): to the device, what it
/// holds of them and the halo cells past the array's ends whose sources
/// they are; from it, what it owns of them. Adds the bytes to Bytes.
bool moveElements(const ResidentArray &A, unsigned P, Direction Dir,
                  const ProductSet &Elements, char *Host, int64_t &Bytes) {
  Storage S = storageOf(A, P);
  PartData Data;
  Data.Device = S.Device;
  Data.Position = P;
  Data.Arrays = {{&A.Dist, Host, nullptr, &S, &A.Name}};
  PartActions Copies;
  PartState State;
  runSteps(transport(),
           lowerUpdate(A.Dist, P, Dir == Direction::ToDevice, Elements), Data,
           Copies, State);
  Bytes += State.BytesIn + State.BytesOut;
  return State.Status == PartState::Ok;
}

/// Runs F on Device's proxy after its queued work (the calling thread for
/// the host).
void onDevice(int Device, const std::function<void()> &F) {
  runOnDevices({Device}, hostDevice(), [&](unsigned) { F(); });
}

} // namespace

namespace {

/// Per position of A: whether Devices lists its device.
std::vector<bool> listed(const ResidentArray &A,
                         const std::vector<int> &Devices) {
  std::vector<bool> In(A.Dist.Devices.size());
  for (unsigned P = 0; P < In.size(); ++P)
    In[P] = std::find(Devices.begin(), Devices.end(), A.Dist.Devices[P]) !=
            Devices.end();
  return In;
}

} // namespace

bool refreshCopies(const ResidentArray &A, const std::vector<int> &Devices,
                   std::string &Error) {
  if (!A.Dist.duplicated())
    return true;
  std::lock_guard<std::mutex> Lock(A.CopiesLock);
  const std::vector<unsigned> Stale = A.Copies.staleAmong(listed(A, Devices));
  if (Stale.empty())
    return true;
  // From the current copy to each stale one, device to device, once the
  // current one's device is done with what it was given before.
  const ArrayShape &Sh = A.Dist.Shape;
  const ProductSet All = ProductSet::of(Sh.Section);
  const unsigned From = A.Copies.current();
  const Storage Source = partOf(A, From);
  onDevice(Source.Device, [] {});
  bool Ok = true;
  int64_t Bytes = 0;
  for (unsigned P : Stale)
    onDevice(A.Dist.Devices[P], [&] {
      Ok = Ok && copyBoxes(transport(), Sh, storageEnd(Sh, partOf(A, P)),
                           storageEnd(Sh, Source), All, Bytes);
    });
  if (!Ok) {
    Error = "bringing the copies of '" + A.Name + "' (" + A.Where +
            ") up to date failed";
    return false;
  }
  for (unsigned P : Stale)
    A.Copies.refreshed(P);
  return true;
}

void copyChanged(const ResidentArray &A, int Device) {
  if (!A.Dist.duplicated())
    return;
  std::lock_guard<std::mutex> Lock(A.CopiesLock);
  auto It = std::find(A.Dist.Devices.begin(), A.Dist.Devices.end(), Device);
  if (It == A.Dist.Devices.end())
    return;
  // Repeated launches (Replay.h) bring no copy up to date: a change of
  // which copies are current makes them plan again.
  if (A.Copies.changedOn(static_cast<unsigned>(It - A.Dist.Devices.begin()),
                         static_cast<unsigned>(A.Dist.Devices.size())))
    Generation.fetch_add(1, std::memory_order_acq_rel);
}

std::vector<ResidentArray *> duplicatesUsed(int Device, int32_t N,
                                            void *const *Ptrs, bool Refresh) {
  std::vector<ResidentArray *> Used;
  if (!anyResident() || Device == hostDevice())
    return Used;
  for (int32_t K = 0; K < N; ++K) {
    ResidentArray *R = Ptrs[K] ? acquireResident(Ptrs[K]) : nullptr;
    if (!R)
      continue;
    bool Keep = R->Dist.duplicated() && R->Dist.positionOf(Device) &&
                std::find(Used.begin(), Used.end(), R) == Used.end();
    std::string Error;
    if (Keep && Refresh && !refreshCopies(*R, {Device}, Error)) {
      message("homp: error: %s\n", Error.c_str());
      std::fflush(nullptr);
      std::_Exit(EXIT_FAILURE);
    }
    if (Keep) {
      Used.push_back(R);
      continue;
    }
    std::vector<int64_t> Ignored;
    releaseResident(R, false, false, Ignored, Error);
  }
  return Used;
}

void doneWithDuplicates(std::vector<ResidentArray *> &Used, int Device,
                        bool Changed) {
  std::vector<int64_t> Ignored;
  std::string Error;
  for (ResidentArray *R : Used) {
    if (Changed)
      copyChanged(*R, Device);
    releaseResident(R, false, false, Ignored, Error);
  }
  Used.clear();
}

namespace {

/// A's elements of the indices Rows of its dimension FollowsDim that
/// position P owns.
ProductSet ownedRows(const ResidentArray &A, unsigned P, const IndexSet &Rows) {
  ProductSet S = A.Dist.Owned[P];
  S.Dims[A.FollowsDim] = S.Dims[A.FollowsDim].intersect(Rows);
  return S;
}

} // namespace

bool moveRows(const ResidentArray &A, const IndexSet &Rows, unsigned From,
              unsigned To, int64_t &Bytes, std::string &Error) {
  const ProductSet Elements = ownedRows(A, From, Rows);
  if (Elements.empty() || From == To)
    return true;
  const ArrayShape &Sh = A.Dist.Shape;
  int64_t Moved = 0;
  {
    PublishOnReturn Publish{EventKind::DataIn,
                            "chunk moved in",
                            A.Dist.Devices[To],
                            A,
                            std::chrono::steady_clock::now(),
                            Moved};
    if (!copyBoxes(transport(), Sh, storageEnd(Sh, partOf(A, To)),
                   storageEnd(Sh, partOf(A, From)), Elements, Moved)) {
      Error = "moving elements " + Elements.str() + " of '" + A.Name + "' (" +
              A.Where + ") from device " +
              std::to_string(A.Dist.Devices[From]) + " to device " +
              std::to_string(A.Dist.Devices[To]) + " failed";
      return false;
    }
  }
  Bytes += Moved;
  return true;
}

void ownMovedRows(ResidentArray &A, const std::vector<RowsMoved> &Moves) {
  if (Moves.empty())
    return;
  std::lock_guard<std::mutex> Lock(TableLock);
  for (const RowsMoved &M : Moves)
    giveRows(A.Dist, A.FollowsDim, M.Rows, M.From, M.To);
  // Plans made with its old parts (cached by construct, by array id) and
  // its halo updates' copies go stale.
  A.Id = table().renumber();
  A.HaloPlans.clear();
  Generation.fetch_add(1, std::memory_order_acq_rel);
}

bool gatherShadow(const ResidentArray &A, HostShadow &Out,
                  std::string &Error) {
  Out.HostBase = A.HostBase;
  Out.Arrays = acquireResidentsByBase(A.HostBase);
  if (Out.Arrays.empty()) {
    Error = "'" + A.Name + "' is no longer resident";
    return false;
  }
  Out.Shape = Out.Arrays[0]->Dist.Shape;
  const int64_t Elem = Out.Shape.ElementSize;
  for (const ResidentArray *R : Out.Arrays) {
    Range S = R->Dist.Shape.span(ProductSet::of(R->Dist.Shape.Section));
    Out.Span = Out.Span.empty() ? S
                                : Range{std::min(Out.Span.Begin, S.Begin),
                                        std::max(Out.Span.End, S.End)};
  }
  // The host's values first: elements no section maps, and the host's own
  // parts.
  const char *From = A.HostBase + Out.Span.Begin * Elem;
  Out.Bytes.assign(From, From + Out.Span.size() * Elem);
  std::vector<unsigned> Current;
  for (const ResidentArray *R : Out.Arrays) {
    std::lock_guard<std::mutex> Lock(R->CopiesLock);
    Current.push_back(R->Copies.current());
  }
  char *Zero = Out.zero();
  std::vector<int64_t> Bytes(Out.Arrays.size(), 0);
  bool Ok = forEachPart(
      {Out.Arrays.begin(), Out.Arrays.end()},
      [&](size_t I, unsigned P, std::string &Why) {
        const ResidentArray &R = *Out.Arrays[I];
        if (R.Dist.duplicated() && P != Current[I])
          return true;
        if (moveElements(R, P, Direction::FromDevice,
                         ProductSet::of(R.Dist.Shape.Section), Zero, Bytes[I]))
          return true;
        Why = "copying '" + R.Name + "' from device " +
              std::to_string(R.Dist.Devices[P]) + " to the host failed";
        return false;
      },
      Error);
  return Ok;
}

bool scatterShadow(HostShadow &S, bool CopyBack, std::string &Error) {
  bool Ok = true;
  if (CopyBack) {
    char *Zero = S.zero();
    std::vector<int64_t> Bytes(S.Arrays.size(), 0);
    Ok = forEachPart(
        {S.Arrays.begin(), S.Arrays.end()},
        [&](size_t I, unsigned P, std::string &Why) {
          const ResidentArray &R = *S.Arrays[I];
          if (moveElements(R, P, Direction::ToDevice,
                           ProductSet::of(R.Dist.Shape.Section), Zero,
                           Bytes[I]))
            return true;
          Why = "copying '" + R.Name + "' back to device " +
                std::to_string(R.Dist.Devices[P]) + " failed";
          return false;
        },
        Error);
    // The host's parts are the host's array.
    const int Host = hostDevice();
    for (size_t I = 0; I < S.Arrays.size() && Ok; ++I) {
      const ResidentArray &R = *S.Arrays[I];
      for (unsigned P = 0; P < R.Dist.Devices.size(); ++P)
        if (R.Dist.Devices[P] == Host)
          Ok = copyElements(transport(), Direction::ToDevice, R.Dist.Shape,
                            Zero, partOf(R, P), R.Dist.Owned[P], Bytes[I]);
      std::lock_guard<std::mutex> Lock(R.CopiesLock);
      R.Copies.allCurrent();
    }
    if (!Ok && Error.empty())
      Error = "copying '" + S.Arrays[0]->Name + "' back to the host failed";
  }
  std::vector<int64_t> Ignored;
  std::string Unused;
  for (ResidentArray *R : S.Arrays)
    releaseResident(R, false, false, Ignored, Unused);
  S.Arrays.clear();
  return Ok;
}

bool anyResident() { return Resident.load(std::memory_order_acquire) != 0; }

uint64_t residencyGeneration() {
  return Generation.load(std::memory_order_acquire);
}

/// The array Find picks from the table, with a reference taken.
template <typename F> static ResidentArray *acquireWith(F &&Find) {
  if (!anyResident())
    return nullptr;
  std::lock_guard<std::mutex> Lock(TableLock);
  ResidentArray *A = Find(table());
  if (A)
    ++A->RefCount;
  return A;
}

ResidentArray *acquireResident(const void *Addr) {
  return acquireWith([&](ResidentTable &T) { return T.find(Addr); });
}

ResidentArray *acquireResidentByBase(const void *Base) {
  return acquireWith([&](ResidentTable &T) { return T.findByBase(Base); });
}

std::vector<ResidentArray *> acquireResidentsByBase(const void *Base) {
  if (!anyResident())
    return {};
  std::lock_guard<std::mutex> Lock(TableLock);
  std::vector<ResidentArray *> All = table().findAllByBase(Base);
  for (ResidentArray *A : All)
    ++A->RefCount;
  return All;
}

void *residentAddressFor(int Device, const void *Host) {
  if (!anyResident())
    return nullptr;
  std::lock_guard<std::mutex> Lock(TableLock);
  const ResidentArray *A = table().findByBase(Host);
  if (!A || A->HostBase != Host)
    return nullptr;
  for (size_t P = 0; P < A->Dist.Devices.size(); ++P)
    if (A->Dist.Devices[P] == Device && A->Storage[P])
      return A->deviceAddress(static_cast<unsigned>(P), Host);
  return nullptr;
}

bool refillEdgeHalos(int Device, const void *Begin, int64_t Bytes,
                     std::string &Error) {
  if (!anyResident() || Bytes <= 0)
    return true;
  ResidentArray *A = acquireResident(Begin);
  if (!A)
    return true;
  bool Ok = true;
  std::optional<unsigned> P = A->Dist.positionOf(Device);
  const ArrayShape &Sh = A->Dist.Shape;
  const ProductSet Section = ProductSet::of(Sh.Section);
  if (P && A->Storage[*P] && A->Dist.holdsPastEnds(*P)) {
    // The elements the bytes hold, whole or in part.
    const int64_t Elem = Sh.ElementSize;
    const int64_t First =
        (static_cast<const char *>(Begin) - A->HostBase) / Elem;
    const int64_t End =
        (static_cast<const char *>(Begin) + Bytes - A->HostBase + Elem - 1) /
        Elem;
    int64_t Moved = 0;
    const BoxEnd To{static_cast<char *>(A->deviceAddress(*P, A->HostBase)),
                    Device, false};
    for (const Box &B : Sh.boxesOf({First, End}))
      Ok = Ok && fillEdgeHalos(transport(), A->Dist, *P, A->HostBase, To, Moved,
                               ProductSet::of(B).intersect(Section));
    if (!Ok)
      Error = "filling the halo cells past the ends of '" + A->Name +
              "' on device " + std::to_string(Device) + " failed";
  }
  std::vector<int64_t> Ignored;
  std::string Unused;
  releaseResident(A, false, false, Ignored, Unused);
  return Ok;
}

namespace {

/// Whether the host bytes [B, E) reach elements of A that position P
/// holds but does not own (its halo); never for a duplicate, whose every
/// copy is kept current.
bool reachesHalo(const ResidentArray &A, size_t P, uintptr_t B, uintptr_t E) {
  if (A.Dist.duplicated())
    return false;
  const int64_t Elem = A.Dist.Shape.ElementSize;
  const uintptr_t Base = reinterpret_cast<uintptr_t>(A.HostBase);
  const Range Offsets{static_cast<int64_t>(B - Base) / Elem,
                      static_cast<int64_t>(E - Base + Elem - 1) / Elem};
  for (const Box &X : A.Dist.Shape.boxesOf(Offsets))
    if (!A.Dist.Owned[P].contains(ProductSet::of(X)))
      return true;
  return false;
}

/// "device D owns only its part of 'A' (elements ..., distributed by ...);
/// the others' elements it holds are its halo".
std::string ownsOnly(const ResidentArray &A, size_t P, int Device) {
  return "device " + std::to_string(Device) + " owns only its part of '" +
         A.Name + "' (elements " + A.Dist.Owned[P].str() + ", distributed by " +
         A.Where + "); the others' elements it holds are its halo";
}

} // namespace

namespace {

/// The first non-empty Check(A, P, B, E) over the arrays homp holds whose
/// host bytes overlap [B, E) = [Begin, Begin + Bytes), P being Device's
/// position in A: why a standard construct on Device must not move those
/// bytes. Empty when none.
template <typename F>
std::string standardProblem(int Device, const void *Begin, int64_t Bytes,
                            F &&Check) {
  if (!anyResident() || Bytes <= 0)
    return "";
  const uintptr_t B = reinterpret_cast<uintptr_t>(Begin),
                  E = B + static_cast<uintptr_t>(Bytes);
  std::lock_guard<std::mutex> Lock(TableLock);
  std::string Why;
  table().forEach([&](const ResidentArray &A) {
    if (!Why.empty() || E <= A.hostBegin() || A.hostEnd() <= B)
      return;
    if (std::optional<unsigned> P = A.Dist.positionOf(Device))
      Why = Check(A, *P, B, E);
  });
  return Why;
}

} // namespace

std::string partialUpdate(int Device, const void *Begin, int64_t Bytes) {
  return standardProblem(
      Device, Begin, Bytes,
      [&](const ResidentArray &A, size_t P, uintptr_t B,
          uintptr_t E) -> std::string {
        const int64_t Elem = A.Dist.Shape.ElementSize;
        const uintptr_t Base = reinterpret_cast<uintptr_t>(A.HostBase);
        const uintptr_t PartBegin = Base + A.Spans[P].Begin * Elem,
                        PartEnd = Base + A.Spans[P].End * Elem;
        if (A.Associated[P] && PartBegin <= B && E <= PartEnd) {
          // Held whole, but elements other devices own would be moved on
          // this device alone: their owners would not get the new values
          // ('to', later copied back from the owners) and the host would
          // get this device's copies of them, refreshed only by halo
          // updates ('from').
          if (!reachesHalo(A, P, B, E))
            return "";
          return ownsOnly(A, P, Device) +
                 ", which an update on it alone would leave their owners "
                 "without ('to') or copy back stale ('from'): name the "
                 "part, or give the update a device list (device(*)), which "
                 "moves each listed device's part (and halo, for 'to')";
        }
        return "device " + std::to_string(Device) +
               " holds only its part of '" + A.Name + "' (elements " +
               A.Dist.Owned[P].str() + ", distributed by " + A.Where +
               "), and libomptarget moves nothing for a section it does "
               "not hold whole: name the part, or give the update a device "
               "list (device(" +
               std::to_string(Device) +
               ":1)), which moves each listed device's part";
      });
}

std::string haloCopiedOut(int Device, const void *Begin, int64_t Bytes) {
  return standardProblem(
      Device, Begin, Bytes,
      [&](const ResidentArray &A, size_t P, uintptr_t B,
          uintptr_t E) -> std::string {
        if (!A.Associated[P] || !reachesHalo(A, P, B, E))
          return "";
        return ownsOnly(A, P, Device) +
               ", whose values are current only as of the last halo "
               "update: 'always, from' on it alone would copy them over the "
               "host's array; map only the part, or copy the array back "
               "with 'target update device(*) from(...)', which takes each "
               "element from its owner";
      });
}

namespace {

void freeAll(ResidentArray &A) {
  for (size_t P = 0; P < A.Storage.size(); ++P)
    if (A.Storage[P]) {
      Storage S = storageOf(A, static_cast<unsigned>(P));
      freeStorage(transport(), S);
      A.Storage[P] = nullptr;
    }
}

/// Allocates A's storage on each of its devices (but the host), placed in
/// the host's pages on CPU offload devices, away from the arrays already
/// there (the table's and Others').
bool allocateParts(ResidentArray &A, const std::vector<ResidentArray *> &Others,
                   std::string &Error) {
  size_t N = A.Dist.Devices.size();
  A.Storage.assign(N, nullptr);
  A.Allocations.assign(N, {});
  A.Spans.assign(N, Range());
  int Host = hostDevice();
  for (size_t P = 0; P < N; ++P) {
    ProductSet Held = A.Dist.held(static_cast<unsigned>(P));
    if (A.Dist.Devices[P] != Host) {
      A.Spans[P] = A.Dist.Shape.span(Held);
      // What it owns may change chunk by chunk (ownMovedRows).
      if (A.Follows) {
        const Range All =
            A.Dist.Shape.span(ProductSet::of(A.Dist.Shape.Section));
        A.Spans[P] = {std::min(All.Begin, A.Spans[P].Begin),
                      std::max(All.End, A.Spans[P].End)};
      }
    } else if (!ProductSet::of(A.Dist.Shape.Section).contains(Held)) {
      Error = edgeHalosOnHost(A.Name);
      return false;
    }
  }
  // Storage in host memory (CPU offload devices) is placed in its pages so
  // that the host's memcpy copies its halos and parts at full speed.
  std::vector<PartMemory> Memory(N, PartMemory::Elsewhere);
  for (size_t P = 0; P < N; ++P) {
    int Device = A.Dist.Devices[P];
    if (Device == Host)
      Memory[P] = PartMemory::HostMemory;
    else if (placedInHostPages(Device))
      Memory[P] = PartMemory::Colored;
  }
  // Where the arrays already on each device have their element [0]...[0].
  std::vector<std::vector<intptr_t>> Placed(N);
  auto AddPlaced = [&](const ResidentArray &B) {
    for (unsigned Q = 0; Q < B.Storage.size(); ++Q)
      for (size_t P = 0; P < N && B.Storage[Q]; ++P)
        if (B.Dist.Devices[Q] == A.Dist.Devices[P])
          Placed[P].push_back(
              reinterpret_cast<intptr_t>(B.deviceAddress(Q, B.HostBase)));
  };
  {
    std::lock_guard<std::mutex> Lock(TableLock);
    table().forEach(AddPlaced);
  }
  for (const ResidentArray *B : Others)
    AddPlaced(*B);
  unsigned HaloDims = haloDimensions(A.Dist);
  std::vector<int64_t> Colors = storageColors(
      A.Dist.Shape, A.Spans,
      HaloDims ? A.HaloPlans.get(A.Dist, HaloDims, SideBoth)
               : std::vector<HaloCopy>(),
      Memory, reinterpret_cast<uintptr_t>(A.HostBase), Placed);
  for (size_t P = 0; P < N; ++P) {
    if (A.Dist.Devices[P] == Host)
      continue;
    Storage S;
    if (!allocateStorage(
            transport(), A.Dist.Devices[P], A.Dist.Shape, A.Spans[P], S, Error,
            Memory[P] == PartMemory::Colored ? std::optional<int64_t>(Colors[P])
                                             : std::nullopt)) {
      Error += " for its part of '" + A.Name + "'";
      freeAll(A);
      return false;
    }
    A.Storage[P] = S.Ptr;
    A.Allocations[P] = {S.Allocation, S.Bytes};
  }
  return true;
}

} // namespace

std::vector<ResidentArray *>
makeResidents(std::vector<std::unique_ptr<ResidentArray>> Arrays,
              const std::vector<bool> &CopyIn,
              std::vector<std::vector<int64_t>> &BytesIn, std::string &Error,
              DeviceSeconds *Seconds) {
  std::vector<ResidentArray *> Made;
  for (std::unique_ptr<ResidentArray> &A : Arrays)
    Made.push_back(A.get());
  BytesIn.assign(Arrays.size(), {});
  for (size_t I = 0; I < Arrays.size(); ++I)
    BytesIn[I].assign(Arrays[I]->Dist.Devices.size(), 0);
  auto FreeAll = [&] {
    for (std::unique_ptr<ResidentArray> &A : Arrays)
      freeAll(*A);
  };
  // Allocated one after the other, so each is placed away from the last;
  // then copied in by every device at once.
  for (size_t I = 0; I < Arrays.size(); ++I)
    if (!allocateParts(*Arrays[I], {Made.begin(), Made.begin() + I}, Error)) {
      FreeAll();
      return {};
    }
  bool Ok = forEachPart(
      {Made.begin(), Made.end()},
      [&](size_t I, unsigned P, std::string &Why) {
        const ResidentArray &A = *Made[I];
        if (!CopyIn[I])
          return true;
        PublishOnReturn Publish{EventKind::DataIn,
                                "copy in",
                                A.Dist.Devices[P],
                                A,
                                std::chrono::steady_clock::now(),
                                BytesIn[I][P]};
        if (!moveElements(A, P, Direction::ToDevice,
                          ProductSet::of(A.Dist.Shape.Section), A.HostBase,
                          BytesIn[I][P])) {
          Why = "copying '" + A.Name + "' to device " +
                std::to_string(A.Dist.Devices[P]) + " failed";
          return false;
        }
        return true;
      },
      Error, Seconds);
  if (!Ok) {
    FreeAll();
    return {};
  }
  std::lock_guard<std::mutex> Lock(TableLock);
  for (size_t I = 0; I < Arrays.size(); ++I) {
    std::string Name = Arrays[I]->Name;
    std::vector<Storage> Parts;
    for (unsigned P = 0; P < Arrays[I]->Storage.size(); ++P)
      if (Arrays[I]->Storage[P])
        Parts.push_back(storageOf(*Arrays[I], P));
    ResidentArray *R = table().insert(std::move(Arrays[I]));
    if (!R) {
      Error = "'" + Name + "' overlaps an array that is already distributed";
      for (Storage &S : Parts)
        freeStorage(transport(), S);
      for (size_t J = I + 1; J < Arrays.size(); ++J)
        freeAll(*Arrays[J]);
      return {};
    }
    // Standard OpenMP constructs on a device (a 'target' with one device
    // number inside the data region) find the device's part present and
    // use it. A device whose part overlaps something mapped there already
    // keeps it to homp's own constructs.
    size_t N = R->Dist.Devices.size();
    R->Associated.assign(N, false);
    for (size_t P = 0; P < N; ++P)
      if (R->Storage[P])
        R->Associated[P] =
            omp_target_associate_ptr(
                R->HostBase + R->Spans[P].Begin * R->Dist.Shape.ElementSize,
                R->Storage[P],
                static_cast<size_t>(R->Spans[P].size() *
                                    R->Dist.Shape.ElementSize),
                0, R->Dist.Devices[P]) == 0;
    Resident.fetch_add(1, std::memory_order_release);
    Generation.fetch_add(1, std::memory_order_acq_rel);
  }
  return Made;
}

ResidentArray *makeResident(std::unique_ptr<ResidentArray> A, bool CopyIn,
                            std::vector<int64_t> &BytesIn,
                            std::string &Error) {
  std::vector<std::unique_ptr<ResidentArray>> One;
  One.push_back(std::move(A));
  std::vector<std::vector<int64_t>> Bytes;
  std::vector<ResidentArray *> Made =
      makeResidents(std::move(One), {CopyIn}, Bytes, Error);
  BytesIn = Bytes.empty() ? std::vector<int64_t>() : Bytes[0];
  return Made.empty() ? nullptr : Made[0];
}

bool releaseResidents(const std::vector<Release> &Releases,
                      std::vector<std::vector<int64_t>> &BytesOut,
                      std::string &Error, DeviceSeconds *Seconds) {
  BytesOut.assign(Releases.size(), {});
  std::vector<std::unique_ptr<ResidentArray>> Last;
  std::vector<ResidentArray *> Gone;
  std::vector<size_t> Which; ///< per array of Gone, its release
  {
    std::lock_guard<std::mutex> Lock(TableLock);
    for (size_t I = 0; I < Releases.size(); ++I) {
      ResidentArray *A = Releases[I].Array;
      BytesOut[I].assign(A->Dist.Devices.size(), 0);
      if (!ResidentTable::release(*A) && !Releases[I].Force)
        continue;
      std::unique_ptr<ResidentArray> Taken = table().take(A);
      if (!Taken)
        continue; // already released by a forced end
      Resident.fetch_sub(1, std::memory_order_release);
      Generation.fetch_add(1, std::memory_order_acq_rel);
      Gone.push_back(Taken.get());
      Which.push_back(I);
      Last.push_back(std::move(Taken));
    }
  }
  if (Gone.empty())
    return true;
  // A duplicated array comes back from one current copy: the others may
  // miss a change (Copies), and copied back at once the last would win.
  std::vector<unsigned> Current;
  for (const ResidentArray *A : Gone) {
    std::lock_guard<std::mutex> Lock(A->CopiesLock);
    Current.push_back(A->Copies.current());
  }
  return forEachPart(
      {Gone.begin(), Gone.end()},
      [&](size_t G, unsigned P, std::string &Why) {
        const ResidentArray &A = *Gone[G];
        size_t I = Which[G];
        PublishOnReturn Publish{EventKind::DataOut,
                                "copy out",
                                A.Dist.Devices[P],
                                A,
                                std::chrono::steady_clock::now(),
                                BytesOut[I][P]};
        Storage S = storageOf(A, P);
        bool Back = Releases[I].CopyOut &&
                    (!A.Dist.duplicated() || P == Current[G]);
        bool Copied =
            !Back || moveElements(A, P, Direction::FromDevice,
                                  ProductSet::of(A.Dist.Shape.Section),
                                  A.HostBase, BytesOut[I][P]);
        if (A.Associated[P])
          omp_target_disassociate_ptr(
              A.HostBase + S.Span.Begin * A.Dist.Shape.ElementSize, S.Device);
        freeStorage(transport(), S);
        if (!Copied)
          Why = "copying '" + A.Name + "' back from device " +
                std::to_string(S.Device) + " failed";
        return Copied;
      },
      Error, Seconds);
}

std::string notPresent(const std::string &Name) {
  return "'" + Name +
         "' is not on the devices (map(present: ...)): no data region or "
         "'target enter data' before this construct distributes it";
}

bool releaseResident(ResidentArray *A, bool CopyOut, bool Force,
                     std::vector<int64_t> &BytesOut, std::string &Error) {
  std::vector<std::vector<int64_t>> Bytes;
  bool Ok = releaseResidents({{A, CopyOut, Force}}, Bytes, Error);
  BytesOut = Bytes[0];
  return Ok;
}

bool updateResident(const ResidentArray &A, Direction Dir,
                    const ProductSet &Elements, std::vector<int> Devices,
                    std::vector<int64_t> &Bytes, std::string &Error,
                    DeviceSeconds *Seconds) {
  Bytes.assign(A.Dist.Devices.size(), 0);
  // A duplicated array's copies: those listed first come up to date; then
  // one of them is copied out, or all of them in (and those not listed
  // miss the update).
  std::optional<unsigned> From;
  if (A.Dist.duplicated()) {
    if (!refreshCopies(A, Devices, Error))
      return false;
    for (unsigned P = 0; P < A.Dist.Devices.size() && !From; ++P)
      if (std::find(Devices.begin(), Devices.end(), A.Dist.Devices[P]) !=
          Devices.end())
        From = P;
    if (Dir == Direction::ToDevice) {
      std::lock_guard<std::mutex> Lock(A.CopiesLock);
      if (A.Copies.updatedOnly(listed(A, Devices)))
        Generation.fetch_add(1, std::memory_order_acq_rel);
    }
  }
  return forEachPart(
      {&A},
      [&](size_t, unsigned P, std::string &Why) {
        if (std::find(Devices.begin(), Devices.end(), A.Dist.Devices[P]) ==
            Devices.end())
          return true;
        if (From && Dir == Direction::FromDevice && P != *From)
          return true;
        const bool In = Dir == Direction::ToDevice;
        PublishOnReturn Publish{In ? EventKind::DataIn : EventKind::DataOut,
                                In ? "update to" : "update from",
                                A.Dist.Devices[P],
                                A,
                                std::chrono::steady_clock::now(),
                                Bytes[P]};
        // Halo cells past the array's ends come from the updated elements
        // too (moveElements).
        if (moveElements(A, P, Dir, Elements, A.HostBase, Bytes[P]))
          return true;
        Why = "updating '" + A.Name + "' on device " +
              std::to_string(A.Dist.Devices[P]) + " failed";
        return false;
      },
      Error, Seconds);
}

namespace {

using SplitList = std::shared_ptr<const std::vector<LabelledSplit>>;
thread_local std::vector<SplitList> ThreadRegions;
std::mutex RegionsLock;
std::vector<SplitList> &allRegions() {
  static auto *All = new std::vector<SplitList>();
  return *All;
}

/// The innermost split of Label in Regions; nullptr if none.
const LabelledSplit *findIn(const std::vector<SplitList> &Regions,
                            const std::string &Label) {
  for (auto It = Regions.rbegin(); It != Regions.rend(); ++It)
    for (const LabelledSplit &S : **It)
      if (S.Label == Label)
        return &S;
  return nullptr;
}

} // namespace

void enterDataRegion(SplitList L) {
  ThreadRegions.push_back(L);
  std::lock_guard<std::mutex> Lock(RegionsLock);
  allRegions().push_back(std::move(L));
}

void leaveDataRegion(const std::vector<LabelledSplit> *L) {
  auto Drop = [&](std::vector<SplitList> &V) {
    for (auto It = V.rbegin(); It != V.rend(); ++It)
      if (It->get() == L) {
        V.erase(std::next(It).base());
        return;
      }
  };
  Drop(ThreadRegions);
  std::lock_guard<std::mutex> Lock(RegionsLock);
  Drop(allRegions());
}

std::string labelNote(const std::string &Label) {
  if (const LabelledSplit *S = findIn(ThreadRegions, Label))
    return S->Note;
  std::lock_guard<std::mutex> Lock(RegionsLock);
  const LabelledSplit *S = findIn(allRegions(), Label);
  return S ? S->Note : "";
}

std::optional<LabelMemory> labelMemory(const std::string &Label) {
  auto Of = [](const LabelledSplit *S) -> std::optional<LabelMemory> {
    if (!S || !S->Memory)
      return std::nullopt;
    return LabelMemory{S->Memory, S->MemoryLoop, S->MemoryBounds, S->Devices,
                       S->MemoryByAuto};
  };
  if (const LabelledSplit *S = findIn(ThreadRegions, Label))
    return Of(S);
  std::lock_guard<std::mutex> Lock(RegionsLock);
  return Of(findIn(allRegions(), Label));
}

long residentReferences(const ResidentArray &A) {
  std::lock_guard<std::mutex> Lock(TableLock);
  return A.RefCount;
}

bool labelIndices(const std::string &Label, unsigned K, int Id,
                  IndexSet &Out) {
  if (const LabelledSplit *S = findIn(ThreadRegions, Label);
      S && S->indices(K, Id, Out))
    return true;
  std::lock_guard<std::mutex> Lock(RegionsLock);
  const LabelledSplit *S = findIn(allRegions(), Label);
  return S && S->indices(K, Id, Out);
}

} // namespace homp
