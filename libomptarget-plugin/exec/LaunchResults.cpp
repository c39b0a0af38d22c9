//===-- LaunchResults.cpp - What a kernel's devices brought back ----------===//
//
// Reductions combined, duplicated arrays merged, and HOMP_INFO's report of
// an execution (Launcher.h).
//
//===----------------------------------------------------------------------===//

#include "Launcher.h"

#include "Devices.h"
#include "Machine.h"
#include "Observe.h"
#include "ProxyPool.h"

#include "homp/Info.h"
#include "homp/Partition.h"
#include "homp/Reduction.h"
#include "homp/Scheduler.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace homp {
namespace launch {

std::vector<Slot *> Launcher::slotsById() {
  std::vector<Slot *> ById;
  for (Slot &S : Slots)
    ById.push_back(&S);
  std::sort(ById.begin(), ById.end(),
            [](const Slot *A, const Slot *B) { return A->Device < B->Device; });
  return ById;
}

ProductSet Launcher::ranBy(const Slot &S) const {
  if (!S.Work || (!S.Parts && S.Status == Slot::FailedBeforeResults))
    return ProductSet{K.Nest.Rank, {}};
  ProductSet Ran = S.Work->Iterations;
  if (S.Parts)
    Ran.Dims[S.PartLoop] = S.Ran;
  return Ran;
}

void Launcher::combineReductions(std::vector<Slot *> &ById) {
  for (size_t I = 0; I < D.Reductions.size(); ++I) {
    ScalarType T = reductionType(I);
    std::vector<char> Acc(ById.front()->Reductions[I]);
    for (size_t S = 1; S < ById.size(); ++S)
      reductionCombine(D.Reductions[I].Op, T, Acc.data(),
                       ById[S]->Reductions[I].data());
    reductionCombine(D.Reductions[I].Op, T, K.Values.Reductions[I].Address,
                     Acc.data());
  }
}

/// Puts the devices' copies of duplicate arrays mapped back together: an
/// element one device changed takes that value; two devices changing it to
/// different values is an error, since no single answer is right.
void Launcher::mergeDuplicates(std::vector<Slot *> &ById) {
  for (size_t A = 0; A < D.Arrays.size(); ++A) {
    if (!isDuplicateBack(A) || K.ItemIsResident[A])
      continue;
    const ConstructValues::ArrayValues &V = K.Values.Arrays[A];
    Range Span = V.Shape.span(ProductSet::of(V.Shape.Section));
    int64_t Elem = V.Shape.ElementSize;
    char *Host = V.Base + Span.Begin * Elem;
    int64_t Count = Span.size();
    std::vector<char> Original(Host, Host + Count * Elem);
    std::vector<int> Writer(Count, -1);
    for (Slot *S : ById) {
      if (S->Staging[A].empty())
        continue;
      const char *Copy = S->Staging[A].data();
      for (int64_t I = 0; I < Count; ++I) {
        const char *Mine = Copy + I * Elem;
        if (std::memcmp(Mine, Original.data() + I * Elem, Elem) == 0)
          continue;
        if (Writer[I] >= 0 && std::memcmp(Mine, Host + I * Elem, Elem) != 0)
          constructFatal(*K.Info,
                         "devices " + std::to_string(Writer[I]) + " and " +
                             std::to_string(S->Device) +
                             " wrote different values to element " +
                             std::to_string(Span.Begin + I) + " of '" +
                             D.Arrays[A].Name +
                             "', which is not distributed; distribute it or "
                             "use a reduction");
        std::memcpy(Host + I * Elem, Mine, Elem);
        Writer[I] = S->Device;
      }
    }
  }
}

std::string Launcher::reportText(std::vector<Slot *> &ById, double Seconds) {
  const DeviceEnvironment &Env = deviceTypes();
  std::vector<DeviceReport> Rows;
  auto RowOf = [&](const Slot &S, const ProductSet &Ran) {
    DeviceReport Row;
    Row.Device = S.Device;
    Row.IsHost = S.Device == HostId;
    Row.Type = deviceTypeName(Env.typeOf(S.Device));
    Row.Work = describeWork(K.Nest, Ran);
    Row.Failed = S.Status == Slot::FailedBeforeResults;
    if (S.CutOff || (Ran.empty() && Row.Failed))
      Row.Share = DeviceReport::LeftOut;
    else if (Ran.empty())
      Row.Share = DeviceReport::NoChunk;
    Row.Launches = S.Launches;
    Row.BytesIn = S.BytesIn;
    Row.BytesOut = S.BytesOut;
    Row.Seconds = S.Seconds;
    return Row;
  };
  for (Slot *S : ById)
    Rows.push_back(RowOf(*S, ranBy(*S)));
  // The host's reruns of failed parts are the host's row (its id is the
  // last), after its own part when it took part.
  if (!HostReruns.empty()) {
    DeviceReport Host;
    std::vector<ProductSet> Ran;
    if (!ById.empty() && ById.back()->Device == HostId) {
      Host = Rows.back();
      Ran.push_back(ranBy(*ById.back()));
      Rows.pop_back();
    } else {
      Host.Device = HostId;
      Host.IsHost = true;
      Host.Type = deviceTypeName(Env.typeOf(HostId));
      Host.Share = DeviceReport::LeftOut;
    }
    for (const Slot &Again : HostReruns) {
      Ran.push_back(ranBy(Again));
      Host.Launches += Again.Launches;
      Host.Seconds += Again.Seconds;
      Host.RerunSeconds += Again.Seconds;
    }
    Host.Work = describeWork(K.Nest, Ran);
    Rows.push_back(Host);
  }
  return formatReport(reportTitle(ById.size()), Seconds, /*Load=*/true, Rows);
}

std::string Launcher::reportTitle(size_t Devices) const {
  std::string Title = "region " + K.Info->Location + ": " +
                      std::to_string(K.Nest.iterations()) + " iterations on " +
                      std::to_string(Devices) + " device" +
                      (Devices == 1 ? "" : "s") +
                      (K.RankPart.empty() ? "" : " (" + K.RankPart + ")");
  if (K.Topo.rank() > 1)
    Title += " (topology " + K.Topo.str() + ")";
  if (D.SharedMemory)
    Title += "; unified shared memory: no copies";
  if (K.Sched) {
    Title += "; schedule " + K.Sched->describe();
    if (!K.CutOff.empty())
      Title += "; cut off: " + K.CutOff;
    if (!K.SampleCosts.empty())
      Title += "; " + K.SampleCosts;
    if (K.Follow)
      Title += "; " + K.MemoryNote;
  } else if (!K.NotScheduled.empty()) {
    Title += "; " + K.NotScheduled;
    // A memorizing loop that kept its chunks: where they are, written only
    // when a report is asked for.
    if (K.Memory)
      Title += ": " + K.Memory->describe([&](unsigned P) {
        return "device " + deviceLabel(K.Devices[P]);
      });
  }
  if (!K.OneDeviceWhy.empty())
    Title += "; on device " + deviceLabel(K.Devices.front()) +
             " alone, where every array is whole: " + K.OneDeviceWhy;
  for (const std::string &Note : K.Plan->WidenedNotes)
    Title += "; " + Note;
  if (!RerunOf.empty())
    Title += "; the host ran the failed part of " + RerunOf;
  if (!Slots.empty() && Slots.front().Prebuilt)
    Title += "; asynchronous: the program went on while it ran";
  return Title;
}

} // namespace launch
} // namespace homp
