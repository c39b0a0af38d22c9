//===-- Launch.cpp - Running a distributed region on its devices ----------===//

#include "Launch.h"

#include "DeviceArgs.h"
#include "ProxyPool.h"

#include "homp/Info.h"

#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>

#include <pthread.h>

namespace homp {

namespace {

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point T) {
  return std::chrono::duration<double>(Clock::now() - T).count();
}

/// One device's share of a launch and everything it points at.
struct Slot {
  int Device = 0;
  bool IsHost = false;
  const DevicePlan *Plan = nullptr;
  Chunk ChunkCopy{};
  std::unique_ptr<DeviceArgs> Args;
  std::vector<std::vector<char>> Reductions; ///< per reduction: its copy
  std::vector<std::vector<char>> Staging;    ///< per array: duplicate copies
  int Result = 0;
  double Seconds = 0;
  int64_t BytesIn = 0, BytesOut = 0; ///< what the launch asks to copy
};

/// The kernel-argument entries of the region's variables.
struct Entries {
  unsigned Chunk = 0;
  std::vector<std::optional<unsigned>> Arrays;
  std::vector<unsigned> Reductions;
};

bool findEntries(const RegionInstance &R, const KernelArgs &Args, Entries &E,
                 std::string &Error) {
  std::vector<bool> Claimed(Args.NumArgs, false);
  std::optional<unsigned> K = claimEntry(Args, R.ChunkVar, Claimed);
  if (!K) {
    Error = "the region's kernel does not take homp's chunk variable (was it "
            "compiled by another homp version?)";
    return false;
  }
  E.Chunk = *K;
  const RegionDescriptor &D = R.Info->Desc;
  for (size_t A = 0; A < D.Arrays.size(); ++A) {
    std::optional<unsigned> AK = claimEntry(Args, R.Arrays[A].Begin, Claimed);
    if (!AK && R.Arrays[A].Length > 0) {
      Error = "'" + D.Arrays[A].Name +
              "' is not among the region's mapped arguments";
      return false;
    }
    E.Arrays.push_back(AK);
  }
  for (size_t I = 0; I < D.Reductions.size(); ++I) {
    std::optional<unsigned> RK =
        claimEntry(Args, R.Reductions[I].Address, Claimed);
    if (!RK) {
      Error = "reduction variable '" + D.Reductions[I].Name +
              "' is not among the region's mapped arguments";
      return false;
    }
    E.Reductions.push_back(*RK);
  }
  return true;
}

/// Points Slot's arguments at its part of every array and at its own chunk
/// and reduction copies. The host runs in place, so its distributed arrays
/// stay where they are.
void prepareSlot(const RegionInstance &R, const KernelArgs &Args,
                 const Entries &E, Slot &S) {
  const RegionDescriptor &D = R.Info->Desc;
  S.Args = std::make_unique<DeviceArgs>(Args);
  S.ChunkCopy = {S.Plan->ChunkFirst, S.Plan->ChunkBound, R.ChunkVar->Step};
  S.Args->setEntry(E.Chunk, &S.ChunkCopy);
  S.Args->args().Tripcount = static_cast<uint64_t>(S.Plan->Iterations.size());
  S.Staging.resize(D.Arrays.size());
  for (size_t A = 0; A < D.Arrays.size(); ++A) {
    if (!E.Arrays[A])
      continue;
    unsigned K = *E.Arrays[A];
    const ArrayValues &V = R.Arrays[A];
    if (D.Arrays[A].distributed()) {
      if (S.IsHost)
        continue;
      Range Part = S.Plan->Parts[A];
      char *Ptr =
          V.Begin + (Part.empty() ? 0 : (Part.Begin - V.Lower)) * V.ElemSize;
      S.Args->narrowEntry(K, Ptr, Part.size() * V.ElemSize);
      continue;
    }
    // A duplicate mapped back: each device writes into its own copy, which
    // starts as the host's data; the copies are merged after the launch.
    int64_t Bytes = Args.ArgSizes[K];
    S.Staging[A].assign(static_cast<char *>(Args.ArgPtrs[K]),
                        static_cast<char *>(Args.ArgPtrs[K]) + Bytes);
    S.Args->moveEntry(K, S.Staging[A].data());
    S.Args->addMapType(K, MapTo);
  }
  S.Reductions.resize(D.Reductions.size());
  for (size_t I = 0; I < D.Reductions.size(); ++I) {
    const ScalarType &T = R.Reductions[I].Type;
    S.Reductions[I].assign(T.Size, 0);
    reductionIdentity(D.Reductions[I].Op, T, S.Reductions[I].data());
    S.Args->setEntry(E.Reductions[I], S.Reductions[I].data());
  }
  // Measured now: libomptarget may rewrite the arrays during the launch.
  S.BytesIn = S.IsHost ? 0 : S.Args->bytesIn();
  S.BytesOut = S.IsHost ? 0 : S.Args->bytesOut();
}

/// The OpenMP threads each of Devices devices uses when it runs on the
/// host's cores: an equal share of the processors, at most what the program
/// would use by default (OMP_NUM_THREADS).
int cpuThreadsPerDevice(int Devices) {
  static const int Procs = omp_get_num_procs();
  static const int Default = omp_get_max_threads();
  return std::max(1, std::min(Default, Procs / std::max(1, Devices)));
}

/// A distributed array already mapped on a device (by an enclosing
/// single-device 'target data', say) would keep the device's part there
/// and later overwrite the other devices' results: refuse it.
void checkNotMapped(const RegionInstance &R, const Entries &E, const Slot &S) {
  if (S.IsHost)
    return;
  const RegionDescriptor &D = R.Info->Desc;
  for (size_t A = 0; A < D.Arrays.size(); ++A) {
    if (!D.Arrays[A].distributed() || !E.Arrays[A] || S.Plan->Parts[A].empty())
      continue;
    const ArrayValues &V = R.Arrays[A];
    const char *Part =
        V.Begin + (S.Plan->Parts[A].Begin - V.Lower) * V.ElemSize;
    if (omp_target_is_present(Part, S.Device))
      regionFatal(D, "'" + D.Arrays[A].Name + "' is already mapped on device " +
                         std::to_string(S.Device) +
                         " (by an enclosing 'target data'?); a distributed "
                         "array must not be mapped when its region starts");
  }
}

/// Whether this is the program's main thread (libhomp is loaded there).
pthread_t MainThread = pthread_self();
bool onMainThread() { return pthread_equal(pthread_self(), MainThread); }

int runOnHost(HostThunk Thunk, Slot &S) {
  std::vector<void *> Params = S.Args->hostParams();
  return Thunk(Params.data(), static_cast<int64_t>(Params.size()));
}

/// Combines the devices' reduction copies in ascending device order, then
/// with the variable's value before the region.
void combineReductions(const RegionInstance &R, std::vector<Slot *> &ById) {
  const RegionDescriptor &D = R.Info->Desc;
  for (size_t I = 0; I < D.Reductions.size(); ++I) {
    const ScalarType &T = R.Reductions[I].Type;
    std::vector<char> Acc(ById.front()->Reductions[I]);
    for (size_t S = 1; S < ById.size(); ++S)
      reductionCombine(D.Reductions[I].Op, T, Acc.data(),
                       ById[S]->Reductions[I].data());
    reductionCombine(D.Reductions[I].Op, T, R.Reductions[I].Address,
                     Acc.data());
  }
}

/// Puts the devices' copies of duplicate arrays mapped back together: an
/// element one device changed takes that value; two devices changing it to
/// different values is an error, since no single answer is right.
void mergeDuplicates(const RegionInstance &R, const Entries &E,
                     const KernelArgs &Args, std::vector<Slot *> &ById) {
  const RegionDescriptor &D = R.Info->Desc;
  for (size_t A = 0; A < D.Arrays.size(); ++A) {
    if (D.Arrays[A].distributed() || !E.Arrays[A])
      continue;
    char *Host = static_cast<char *>(Args.ArgPtrs[*E.Arrays[A]]);
    int64_t Bytes = Args.ArgSizes[*E.Arrays[A]];
    int64_t Elem = std::max<int64_t>(1, R.Arrays[A].ElemSize);
    if (Bytes % Elem)
      Elem = 1;
    std::vector<char> Original(Host, Host + Bytes);
    std::vector<int> Writer(Bytes / Elem, -1);
    for (Slot *S : ById) {
      const char *Copy = S->Staging[A].data();
      for (int64_t I = 0; I < Bytes / Elem; ++I) {
        const char *Mine = Copy + I * Elem;
        if (std::memcmp(Mine, Original.data() + I * Elem, Elem) == 0)
          continue;
        if (Writer[I] >= 0 && std::memcmp(Mine, Host + I * Elem, Elem) != 0)
          regionFatal(D, "devices " + std::to_string(Writer[I]) + " and " +
                             std::to_string(S->Device) +
                             " wrote different values to element " +
                             std::to_string(I) + " of '" + D.Arrays[A].Name +
                             "', which is not distributed; distribute it or "
                             "use a reduction");
        std::memcpy(Host + I * Elem, Mine, Elem);
        Writer[I] = S->Device;
      }
    }
  }
}

void report(const RegionInstance &R, std::vector<Slot *> &ById,
            double Seconds) {
  std::vector<DeviceReport> Rows;
  for (Slot *S : ById) {
    DeviceReport Row;
    Row.Device = S->Device;
    Row.IsHost = S->IsHost;
    Row.Iterations = S->Plan->Iterations;
    Row.FirstIndex = indexOf(R.Loop, S->Plan->Iterations.Begin);
    Row.LastIndex = indexOf(R.Loop, S->Plan->Iterations.End - 1);
    Row.BytesIn = S->BytesIn;
    Row.BytesOut = S->BytesOut;
    Row.Seconds = S->Seconds;
    Rows.push_back(Row);
  }
  std::string Text = formatRegionReport(R.Info->Desc.Location, R.Plan.TripCount,
                                        Seconds, Rows);
  std::fputs(Text.c_str(), stderr);
}

} // namespace

int launchRegion(RegionInstance *Instance, void *Loc, int32_t NumTeams,
                 int32_t ThreadLimit, void *HostPtr, KernelArgs *Args,
                 HostThunk Thunk) {
  std::unique_ptr<RegionInstance> R(Instance);
  const RegionDescriptor &D = R->Info->Desc;
  Clock::time_point Start = Clock::now();
  if (Args->Version != SupportedKernelArgsVersion) {
    regionError(D, "clang passed kernel arguments of version " +
                       std::to_string(Args->Version) +
                       "; homp supports version " +
                       std::to_string(SupportedKernelArgsVersion));
    return 1; // clang runs the whole region on the host
  }
  Entries E;
  std::string Error;
  if (!findEntries(*R, *Args, E, Error)) {
    regionError(D, Error);
    return 1;
  }
  int Host = omp_get_initial_device();
  std::vector<Slot> Slots;
  Slots.reserve(R->Devices.size());
  for (size_t I = 0; I < R->Devices.size(); ++I) {
    if (R->Plan.Devices[I].Iterations.empty())
      continue;
    Slot S;
    S.Device = R->Devices[I];
    S.IsHost = S.Device == Host;
    S.Plan = &R->Plan.Devices[I];
    if (S.IsHost && !Thunk) {
      regionError(D, "the host cannot take part: the homp pass found no host "
                     "version of the region");
      return 1;
    }
    Slots.push_back(std::move(S));
  }
  for (Slot &S : Slots) {
    prepareSlot(*R, *Args, E, S);
    checkNotMapped(*R, E, S);
  }

  // Each offload device runs on its proxy; the calling thread runs the host's
  // part or, when it may launch kernels itself (the program's main thread,
  // outside any parallel region), one device's, saving a hand-off. Devices
  // on the host's CPU (x86_64 offload devices, the host) share its cores:
  // each runs its OpenMP teams with its share of them.
  int Threads = cpuThreadsPerDevice(static_cast<int>(Slots.size()));
  auto Run = [&](Slot &S) {
    Clock::time_point T = Clock::now();
    S.Result = S.IsHost
                   ? runOnHost(Thunk, S)
                   : __tgt_target_kernel(Loc, S.Device, NumTeams, ThreadLimit,
                                         HostPtr, &S.Args->args());
    S.Seconds = secondsSince(T);
  };
  Slot *Here = nullptr;
  for (Slot &S : Slots)
    if (S.IsHost)
      Here = &S;
  if (!Here && !Slots.empty() && onMainThread() && omp_get_level() == 0)
    Here = &Slots.back();
  Completion Done(static_cast<int>(Slots.size()) - (Here ? 1 : 0));
  for (Slot &S : Slots) {
    if (&S == Here)
      continue;
    ProxyPool::get().run(S.Device, [&, SP = &S] {
      omp_set_num_threads(Threads);
      Run(*SP);
      Done.done();
    });
  }
  if (Here) {
    int Before = omp_get_max_threads();
    omp_set_num_threads(Threads);
    Run(*Here);
    omp_set_num_threads(Before);
  }
  Done.wait();

  // A device that failed had its data left untouched on the host: its part
  // runs again, in place, on the host.
  const std::string Mismatch =
      "the homp pass's host entry does not match the region";
  for (Slot &S : Slots) {
    if (S.Result == 0)
      continue;
    if (S.IsHost)
      regionFatal(D, Mismatch);
    std::string Failed =
        "device " + std::to_string(S.Device) + " failed to run its part";
    if (!Thunk || settings().Offload == OffloadPolicy::Mandatory)
      regionFatal(D, Failed);
    std::fprintf(stderr,
                 "homp: warning: region %s: %s; running it on the "
                 "host\n",
                 D.Location.c_str(), Failed.c_str());
    S.IsHost = true;
    prepareSlot(*R, *Args, E, S);
    if (runOnHost(Thunk, S) != 0)
      regionFatal(D, Mismatch);
  }

  std::vector<Slot *> ById;
  for (Slot &S : Slots)
    ById.push_back(&S);
  std::sort(ById.begin(), ById.end(),
            [](const Slot *A, const Slot *B) { return A->Device < B->Device; });
  if (!ById.empty()) {
    combineReductions(*R, ById);
    mergeDuplicates(*R, E, *Args, ById);
  }
  if (settings().Info)
    report(*R, ById, secondsSince(Start));
  return 0;
}

} // namespace homp
