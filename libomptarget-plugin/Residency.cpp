//===-- Residency.cpp - Distributed arrays living on devices --------------===//

#include "Residency.h"

#include "Devices.h"
#include "ProxyPool.h"
#include "Tracer.h"

#include "homp/Trace.h"

#include <omp.h>

#include <algorithm>
#include <atomic>
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

/// Runs Job for each position of A's devices that has device storage (the
/// host uses host memory and needs nothing), all at once; false with the
/// first error if any job failed.
bool forEachDevice(const ResidentArray &A,
                   const std::function<bool(unsigned, std::string &)> &Job,
                   std::string &Error) {
  std::vector<std::string> Errors(A.Dist.Devices.size());
  std::vector<char> Failed(A.Dist.Devices.size(), 0);
  int Host = hostDevice();
  runOnDevices(A.Dist.Devices, Host, [&](unsigned P) {
    if (A.Dist.Devices[P] != Host)
      Failed[P] = !Job(P, Errors[P]);
  });
  for (size_t P = 0; P < Failed.size(); ++P)
    if (Failed[P]) {
      Error = Errors[P];
      return false;
    }
  return true;
}

/// Traces a device's copies of a resident array when it goes out of scope
/// (HOMP_TRACE).
struct TraceOnReturn {
  int Device;
  std::string Name;
  std::chrono::steady_clock::time_point Start;
  const int64_t &Bytes;
  ~TraceOnReturn() {
    if (tracing())
      traceSpan(Device, "data", Name, Start, {{"bytes", traceNumber(Bytes)}});
  }
};

ProductSet inSection(const ResidentArray &A, const ProductSet &S) {
  return S.intersect(ProductSet::of(A.Dist.Shape.Section));
}

} // namespace

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

ResidentArray *makeResident(std::unique_ptr<ResidentArray> A, bool CopyIn,
                            std::vector<int64_t> &BytesIn,
                            std::string &Error) {
  size_t N = A->Dist.Devices.size();
  A->Storage.assign(N, nullptr);
  A->Allocations.assign(N, {});
  A->Spans.assign(N, Range());
  BytesIn.assign(N, 0);
  int Host = hostDevice();
  for (size_t P = 0; P < N; ++P) {
    ProductSet Held = A->Dist.held(static_cast<unsigned>(P));
    if (A->Dist.Devices[P] != Host) {
      A->Spans[P] = A->Dist.Shape.span(Held);
    } else if (!ProductSet::of(A->Dist.Shape.Section).contains(Held)) {
      Error = edgeHalosOnHost(A->Name);
      return nullptr;
    }
  }
  // Storage in host memory (CPU offload devices) is placed in its pages so
  // that the host's memcpy copies its halos and parts at full speed.
  std::vector<PartMemory> Memory(N, PartMemory::Elsewhere);
  for (size_t P = 0; P < N; ++P) {
    int Device = A->Dist.Devices[P];
    if (Device == Host)
      Memory[P] = PartMemory::HostMemory;
    else if (placedInHostPages(Device))
      Memory[P] = PartMemory::Colored;
  }
  // Where the arrays already on each device have their element [0]...[0].
  std::vector<std::vector<intptr_t>> Others(N);
  {
    std::lock_guard<std::mutex> Lock(TableLock);
    table().forEach([&](const ResidentArray &B) {
      for (unsigned Q = 0; Q < B.Storage.size(); ++Q)
        for (size_t P = 0; P < N && B.Storage[Q]; ++P)
          if (B.Dist.Devices[Q] == A->Dist.Devices[P])
            Others[P].push_back(reinterpret_cast<intptr_t>(
                B.deviceAddress(Q, B.HostBase)));
    });
  }
  unsigned HaloDims = haloDimensions(A->Dist);
  std::vector<int64_t> Colors = storageColors(
      A->Dist.Shape, A->Spans,
      HaloDims ? A->HaloPlans.get(A->Dist, HaloDims, SideBoth)
               : std::vector<HaloCopy>(),
      Memory, reinterpret_cast<uintptr_t>(A->HostBase), Others);
  bool Ok = forEachDevice(
      *A,
      [&](unsigned P, std::string &Why) {
        std::chrono::steady_clock::time_point Start =
            std::chrono::steady_clock::now();
        TraceOnReturn Trace{A->Dist.Devices[P], "copy in '" + A->Name + "' (" +
                                                   A->Where + ")",
                            Start, BytesIn[P]};
        Storage S;
        if (!allocateStorage(A->Dist.Devices[P], A->Dist.Shape, A->Spans[P], S,
                             Why,
                             Memory[P] == PartMemory::Colored
                                 ? std::optional<int64_t>(Colors[P])
                                 : std::nullopt)) {
          Why += " for its part of '" + A->Name + "'";
          return false;
        }
        A->Storage[P] = S.Ptr;
        A->Allocations[P] = {S.Allocation, S.Bytes};
        if (CopyIn &&
            (!copyElements(Direction::ToDevice, A->Dist.Shape, A->HostBase, S,
                           inSection(*A, A->Dist.held(P)), BytesIn[P]) ||
             !fillEdgeHalos(
                 A->Dist, P, A->HostBase,
                 {static_cast<char *>(A->deviceAddress(P, A->HostBase)),
                  S.Device, false},
                 BytesIn[P]))) {
          Why = "copying '" + A->Name + "' to device " +
                std::to_string(S.Device) + " failed";
          return false;
        }
        return true;
      },
      Error);
  auto FreeAll = [&] {
    for (size_t P = 0; P < N; ++P)
      if (A->Storage[P]) {
        Storage S = storageOf(*A, static_cast<unsigned>(P));
        freeStorage(S);
      }
  };
  if (!Ok) {
    FreeAll();
    return nullptr;
  }
  std::vector<Storage> Parts;
  for (size_t P = 0; P < N; ++P)
    if (A->Storage[P])
      Parts.push_back(storageOf(*A, static_cast<unsigned>(P)));
  std::lock_guard<std::mutex> Lock(TableLock);
  std::string Name = A->Name;
  ResidentArray *R = table().insert(std::move(A));
  if (!R) {
    for (Storage &S : Parts)
      freeStorage(S);
    Error = "'" + Name + "' overlaps an array that is already distributed";
    return nullptr;
  }
  // Standard OpenMP constructs on a device (a 'target' with one device
  // number inside the data region) find the device's part present and use
  // it. A device whose part overlaps something mapped there already keeps
  // it to homp's own constructs.
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
  return R;
}

bool releaseResident(ResidentArray *A, bool CopyOut, bool Force,
                     std::vector<int64_t> &BytesOut, std::string &Error) {
  BytesOut.assign(A->Dist.Devices.size(), 0);
  std::unique_ptr<ResidentArray> Last;
  {
    std::lock_guard<std::mutex> Lock(TableLock);
    if (!ResidentTable::release(*A) && !Force)
      return true;
    Last = table().take(A);
    if (!Last)
      return true; // already released by a forced end
    Resident.fetch_sub(1, std::memory_order_release);
    Generation.fetch_add(1, std::memory_order_acq_rel);
  }
  bool Ok = forEachDevice(
      *Last,
      [&](unsigned P, std::string &Why) {
        TraceOnReturn Trace{Last->Dist.Devices[P],
                            "copy out '" + Last->Name + "' (" + Last->Where +
                                ")",
                            std::chrono::steady_clock::now(), BytesOut[P]};
        Storage S = storageOf(*Last, P);
        bool Copied =
            !CopyOut || copyElements(Direction::FromDevice, Last->Dist.Shape,
                                     Last->HostBase, S, Last->Dist.Owned[P],
                                     BytesOut[P]);
        if (Last->Associated[P])
          omp_target_disassociate_ptr(
              Last->HostBase + S.Span.Begin * Last->Dist.Shape.ElementSize,
              S.Device);
        freeStorage(S);
        if (!Copied)
          Why = "copying '" + Last->Name + "' back from device " +
                std::to_string(S.Device) + " failed";
        return Copied;
      },
      Error);
  return Ok;
}

bool updateResident(const ResidentArray &A, Direction Dir,
                    const ProductSet &Elements, std::vector<int> Devices,
                    std::vector<int64_t> &Bytes, std::string &Error) {
  Bytes.assign(A.Dist.Devices.size(), 0);
  return forEachDevice(
      A,
      [&](unsigned P, std::string &Why) {
        if (std::find(Devices.begin(), Devices.end(), A.Dist.Devices[P]) ==
            Devices.end())
          return true;
        ProductSet What = Dir == Direction::ToDevice
                              ? inSection(A, A.Dist.held(P))
                              : A.Dist.Owned[P];
        if (copyElements(Dir, A.Dist.Shape, A.HostBase, storageOf(A, P),
                         What.intersect(Elements), Bytes[P]))
          return true;
        Why = "updating '" + A.Name + "' on device " +
              std::to_string(A.Dist.Devices[P]) + " failed";
        return false;
      },
      Error);
}

namespace {

using SplitList = std::shared_ptr<const std::vector<LabelledSplit>>;
thread_local std::vector<SplitList> ThreadRegions;
std::mutex RegionsLock;
std::vector<SplitList> &allRegions() {
  static auto *All = new std::vector<SplitList>();
  return *All;
}

bool findIn(const std::vector<SplitList> &Regions, const std::string &Label,
            unsigned K, int Id, IndexSet &Out) {
  for (auto It = Regions.rbegin(); It != Regions.rend(); ++It)
    for (const LabelledSplit &S : **It)
      if (S.Label == Label)
        return S.indices(K, Id, Out);
  return false;
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

bool labelIndices(const std::string &Label, unsigned K, int Id,
                  IndexSet &Out) {
  if (findIn(ThreadRegions, Label, K, Id, Out))
    return true;
  std::lock_guard<std::mutex> Lock(RegionsLock);
  return findIn(allRegions(), Label, K, Id, Out);
}

} // namespace homp
