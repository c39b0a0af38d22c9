//===-- Construct.cpp - A distributed construct at run time ---------------===//

#include "Construct.h"

#include "Devices.h"
#include "GpuInfo.h"
#include "Observe.h"
#include "Ranks.h"

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <unordered_map>

namespace homp {

ConstructInfo &constructInfo(const char *Descriptor) {
  // Under an MPI launcher the job is joined at the first construct, before
  // anything of it can fail: its messages say the rank, its errors end the
  // job.
  rankWorld();
  static std::mutex M;
  static auto *Cache =
      new std::unordered_map<const char *, std::unique_ptr<ConstructInfo>>();
  std::lock_guard<std::mutex> Lock(M);
  std::unique_ptr<ConstructInfo> &Slot = (*Cache)[Descriptor];
  if (!Slot) {
    auto Info = std::make_unique<ConstructInfo>();
    std::string Error;
    if (!abi::decodeDescriptor(Descriptor, Info->Desc, Error)) {
      message("homp: error: %s\n", Error.c_str());
      std::exit(EXIT_FAILURE);
    }
    Info->Layout = abi::valueLayout(Info->Desc);
    Info->Location = Info->Desc.location();
    Info->PurePlans = planIsPure(Info->Desc);
    Slot = std::move(Info);
  }
  return *Slot;
}

char *ConstructValues::ArrayValues::first() const {
  Index I{};
  for (unsigned D = 0; D < Shape.Rank; ++D)
    I[D] = Shape.Section.Dims[D].Begin;
  return Base + Shape.offset(I) * Shape.ElementSize;
}

std::vector<long long> readRawValues(const ConstructInfo &Info,
                                     va_list Values) {
  std::vector<long long> Raw(Info.Layout.size());
  for (long long &X : Raw)
    X = va_arg(Values, long long);
  return Raw;
}

ConstructValues readValues(const ConstructInfo &Info, va_list Values) {
  return readValues(Info, readRawValues(Info, Values));
}

ConstructValues readValues(const ConstructInfo &Info,
                           const std::vector<long long> &Raw) {
  const abi::Descriptor &D = Info.Desc;
  ConstructValues V;
  V.Arrays.resize(D.Arrays.size());
  for (size_t A = 0; A < D.Arrays.size(); ++A) {
    ArrayShape &S = V.Arrays[A].Shape;
    S.Rank = D.Arrays[A].Rank;
    S.Section.Rank = S.Rank;
    V.Arrays[A].Own.TopologyDims.assign(D.Arrays[A].Topo.Rank, std::nullopt);
  }
  V.TopologyDims.assign(D.Topo.Rank, std::nullopt);
  V.AccessAddresses.resize(D.Accesses.size());
  V.SubscriptTerms.resize(D.Accesses.size());
  V.Reductions.resize(D.Reductions.size());
  V.DataLoops.resize(D.DataLoops.size());
  V.HaloAddresses.resize(D.HaloItems.size());
  V.BodyLoops.resize(D.BodyLoops.size());
  for (size_t L = 0; L < D.BodyLoops.size(); ++L)
    V.BodyLoops[L].Op = D.BodyLoops[L].Op;
  for (size_t L = 0; L < D.DataLoops.size(); ++L) {
    V.DataLoops[L].Nest.Rank = static_cast<unsigned>(D.DataLoops[L].Loops.size());
    for (unsigned J = 0; J < V.DataLoops[L].Nest.Rank; ++J)
      V.DataLoops[L].Nest.Loops[J].Op = D.DataLoops[L].Loops[J].Op;
  }
  for (size_t Slot = 0; Slot < Info.Layout.size(); ++Slot) {
    const abi::ValueSlot &S = Info.Layout[Slot];
    long long X = Raw[Slot];
    auto Arr = [&]() -> ConstructValues::ArrayValues & {
      return V.Arrays[S.Item];
    };
    // A block size computed at run time ('CYCLIC(n / p)') that comes out 0
    // or negative is the program's error, as a literal one is clang's.
    auto Block = [&](const std::string &Of) {
      if (X <= 0)
        constructFatal(Info, "the block size of " + Of + " is " +
                                 std::to_string(X) +
                                 " when the region runs; it must be positive");
      return X;
    };
    switch (S.Kind) {
    case abi::ValueSlot::DeviceId:
    case abi::ValueSlot::DeviceCount:
      V.DeviceValues.push_back(X);
      break;
    case abi::ValueSlot::TopologyDim:
      V.TopologyDims[S.Dim] = X;
      break;
    case abi::ValueSlot::LoopBlock:
      V.LoopBlocks[S.Item] =
          Block("loop " + std::to_string(S.Item) + "'s distribution");
      break;
    case abi::ValueSlot::ArrayBase:
      Arr().Base = reinterpret_cast<char *>(static_cast<intptr_t>(X));
      break;
    case abi::ValueSlot::ArrayElementSize:
      Arr().Shape.ElementSize = X;
      break;
    case abi::ValueSlot::ArrayLower:
      Arr().Shape.Section.Dims[S.Dim].Begin = X;
      break;
    case abi::ValueSlot::ArrayLength:
      // As libomptarget does for a negative length: an error, not an empty
      // section (which reads as the loop's fault, or nothing at all).
      if (X < 0)
        constructFatal(Info,
                       "the length of " +
                           (D.Arrays[S.Item].Rank > 1
                                ? "dimension " + std::to_string(S.Dim) + " of "
                                : std::string()) +
                           "'" + D.Arrays[S.Item].Name + "' is " +
                           std::to_string(X) +
                           " when the region runs; it must not be "
                           "negative");
      Arr().Shape.Section.Dims[S.Dim].End =
          Arr().Shape.Section.Dims[S.Dim].Begin + X;
      break;
    case abi::ValueSlot::ArrayExtent:
      Arr().Shape.Extent[S.Dim] = X;
      break;
    case abi::ValueSlot::ArrayBlock:
      Arr().Blocks[S.Dim] = Block("dimension " + std::to_string(S.Dim) +
                                  " of '" + D.Arrays[S.Item].Name + "'");
      break;
    case abi::ValueSlot::ArrayDevice:
      Arr().Own.Ids.push_back(X);
      break;
    case abi::ValueSlot::ArrayTopologyDim:
      Arr().Own.TopologyDims[S.Dim] = X;
      break;
    case abi::ValueSlot::AccessAddress:
      V.AccessAddresses[S.Item] =
          reinterpret_cast<void *>(static_cast<intptr_t>(X));
      break;
    case abi::ValueSlot::SubscriptMin:
      V.SubscriptTerms[S.Item][S.Dim].first = X;
      break;
    case abi::ValueSlot::SubscriptMax:
      V.SubscriptTerms[S.Item][S.Dim].second = X;
      break;
    case abi::ValueSlot::ReductionAddress:
      V.Reductions[S.Item].Address =
          reinterpret_cast<void *>(static_cast<intptr_t>(X));
      break;
    case abi::ValueSlot::ReductionSize:
      V.Reductions[S.Item].Size = X;
      break;
    case abi::ValueSlot::ReductionType:
      V.Reductions[S.Item].TypeCode = X;
      break;
    case abi::ValueSlot::DataLoopFirst:
      V.DataLoops[S.Item].Nest.Loops[S.Dim].First = X;
      break;
    case abi::ValueSlot::DataLoopBound:
      V.DataLoops[S.Item].Nest.Loops[S.Dim].Bound = X;
      break;
    case abi::ValueSlot::DataLoopStep:
      V.DataLoops[S.Item].Nest.Loops[S.Dim].Step = X;
      break;
    case abi::ValueSlot::DataLoopBlock:
      V.DataLoops[S.Item].Blocks[S.Dim] =
          Block("loop " + std::to_string(S.Dim) + " of the labelled loop '" +
                D.DataLoops[S.Item].Label + "'");
      break;
    case abi::ValueSlot::HaloAddress:
      V.HaloAddresses[S.Item] =
          reinterpret_cast<void *>(static_cast<intptr_t>(X));
      break;
    case abi::ValueSlot::IfCondition:
      V.IfTrue = X != 0;
      break;
    case abi::ValueSlot::BodyLoopFirst:
      V.BodyLoops[S.Item].First = X;
      break;
    case abi::ValueSlot::BodyLoopBound:
      V.BodyLoops[S.Item].Bound = X;
      break;
    case abi::ValueSlot::BodyLoopStep:
      V.BodyLoops[S.Item].Step = X;
      break;
    }
  }
  return V;
}

std::vector<int> selectDevices(const abi::Descriptor &D,
                               const ConstructValues &V) {
  const Settings &S = settings();
  const DeviceFilter *Filter = S.Devices ? &*S.Devices : nullptr;
  bool NeedTypes = Filter && Filter->Types;
  for (const abi::DeviceSpec &Spec : D.Devices)
    NeedTypes |= Spec.Types != 0;
  const DeviceEnvironment &Env =
      NeedTypes ? deviceTypes() : deviceEnvironment();
  static const std::vector<abi::DeviceSpec> DefaultDevice = {
      {abi::DeviceSpec::Default, 0, false}};
  return resolveDevices(D.Devices.empty() ? DefaultDevice : D.Devices,
                        V.DeviceValues, Env, Filter);
}

std::string noDevicesMessage() {
  return std::string("none of the devices of its 'device' clause exists") +
         (settings().Devices ? " (or HOMP_DEVICES admits none of them)" : "");
}

std::string sharedMemoryProblem(const abi::Descriptor &D,
                                const std::vector<int> &Devices) {
  if (!D.SharedMemory)
    return "";
  const std::vector<unsigned> &Types = deviceTypes().Types;
  return sharedMemoryRefusal(Devices, Types, gpusUsed(abi::TypeNVGPU, Types),
                             gpusUsed(abi::TypeAMDGPU, Types));
}

std::optional<Topology> constructTopology(const abi::Descriptor &D,
                                          const ConstructValues &V,
                                          unsigned N, std::string &Error) {
  if (D.Topo.Rank == 0)
    return Topology::line(N);
  return makeTopology(N, V.TopologyDims, Error);
}

/// Stops the program after a region's error. Errors may come from a proxy
/// thread in the middle of other devices' work: the program's exit handlers
/// and libomp's shut-down must not run then, so only the output is flushed.
[[noreturn]] static void stopProgram() {
  std::fflush(nullptr);
  abortRanks(EXIT_FAILURE); // no other rank waits for this one
  std::_Exit(EXIT_FAILURE);
}

/// An array of D with a periodic or reflecting halo, if any: the region
/// reads past its ends, which only the devices' storage has.
static const abi::Array *edgeHaloArray(const abi::Descriptor &D) {
  for (const abi::Array &A : D.Arrays)
    for (const abi::Halo &H : A.Halos)
      if ((H.Left > 0 && H.LeftEdge != abi::Edge::None) ||
          (H.Right > 0 && H.RightEdge != abi::Edge::None))
        return &A;
  return nullptr;
}

void refuseHostFallback(const ConstructInfo &Info, const std::string &Why) {
  // On the host the region would read outside the host's array.
  if (const abi::Array *A = edgeHaloArray(Info.Desc))
    constructFatal(Info, Why + "; it cannot run on the host instead: '" +
                             A->Name +
                             "' has a periodic or reflecting halo, which the "
                             "host's array does not have");
}

void constructError(const ConstructInfo &Info, const std::string &Message) {
  refuseHostFallback(Info, Message);
  if (settings().Offload == OffloadPolicy::Mandatory) {
    message("homp: error: region %s: %s (OMP_TARGET_OFFLOAD=MANDATORY)\n",
            Info.Location.c_str(), Message.c_str());
    stopProgram();
  }
  message("homp: warning: region %s: %s; running it on the host\n",
          Info.Location.c_str(), Message.c_str());
}

void constructFatal(const ConstructInfo &Info, const std::string &Message) {
  message("homp: error: region %s: %s\n", Info.Location.c_str(),
          Message.c_str());
  stopProgram();
}

void constructNote(const ConstructInfo &Info, const std::string &Message) {
  publishReport(Info.Location, [&] {
    return "homp: region " + Info.Location + ": " + Message + "\n";
  });
}

} // namespace homp
