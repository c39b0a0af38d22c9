//===-- RegionPlan.cpp - Which device runs and holds what -----------------===//

#include "homp/RegionPlan.h"

#include <algorithm>
#include <sstream>

namespace homp {

static Range intersect(Range A, Range B) {
  Range R{std::max(A.Begin, B.Begin), std::min(A.End, B.End)};
  return R.empty() ? Range{0, 0} : R;
}

/// Owner computes: each device runs the iterations whose index it holds.
/// Iterations below or above every part go to the devices at the ends.
static void ownerComputes(const LoopBounds &Loop, int64_t Trip,
                          const std::vector<Range> &Parts,
                          std::vector<DevicePlan> &Devices) {
  for (size_t D = 0; D < Devices.size(); ++D)
    Devices[D].Iterations = iterationsIn(Loop, Trip, Parts[D]);
  DevicePlan *Lowest = nullptr, *Highest = nullptr;
  for (DevicePlan &P : Devices) {
    if (P.Iterations.empty())
      continue;
    if (!Lowest || P.Iterations.Begin < Lowest->Iterations.Begin)
      Lowest = &P;
    if (!Highest || P.Iterations.End > Highest->Iterations.End)
      Highest = &P;
  }
  if (!Lowest) {
    Devices.front().Iterations = {0, Trip};
    return;
  }
  Lowest->Iterations.Begin = 0;
  Highest->Iterations.End = Trip;
}

bool planRegion(const RegionDescriptor &Desc, unsigned NumDevices,
                const LoopBounds &Loop, const std::vector<ArrayExtent> &Arrays,
                RegionPlan &Plan, PlanError &Err) {
  std::optional<int64_t> Trip = tripCount(Loop);
  if (!Trip) {
    Err = {PlanError::BadLoop, 0, 0, {}, {}};
    return false;
  }
  Plan.TripCount = *Trip;
  Plan.Devices.assign(NumDevices, DevicePlan());
  size_t NumArrays = Desc.Arrays.size();
  for (DevicePlan &P : Plan.Devices)
    P.Parts.assign(NumArrays, Range());

  // Arrays with a partition of their own.
  for (size_t A = 0; A < NumArrays; ++A) {
    const ArrayDesc &AD = Desc.Arrays[A];
    for (unsigned D = 0; D < NumDevices; ++D) {
      Range Whole = Arrays[A].range();
      if (AD.Policy == ArrayPolicy::Duplicate) {
        Plan.Devices[D].Parts[A] = Whole;
      } else if (AD.Policy == ArrayPolicy::Block) {
        Range R = blockPart(Arrays[A].Length, NumDevices, D);
        Plan.Devices[D].Parts[A] = {R.Begin + Whole.Begin, R.End + Whole.Begin};
      }
    }
  }
  for (size_t A = 0; A < NumArrays; ++A)
    if (Desc.Arrays[A].Policy == ArrayPolicy::SameAs)
      for (DevicePlan &P : Plan.Devices)
        P.Parts[A] =
            intersect(P.Parts[Desc.Arrays[A].SameAs], Arrays[A].range());

  // The loop.
  std::optional<unsigned> Owner;
  if (Desc.LoopFollowsArray)
    Owner = Desc.LoopArray;
  else
    for (size_t A = 0; A < NumArrays && !Owner; ++A)
      if (Desc.Arrays[A].Policy == ArrayPolicy::Block)
        Owner = static_cast<unsigned>(A);
  if (Owner) {
    std::vector<Range> Parts;
    for (const DevicePlan &P : Plan.Devices)
      Parts.push_back(P.Parts[*Owner]);
    ownerComputes(Loop, *Trip, Parts, Plan.Devices);
  } else {
    for (unsigned D = 0; D < NumDevices; ++D)
      Plan.Devices[D].Iterations = blockPart(*Trip, NumDevices, D);
  }

  for (DevicePlan &P : Plan.Devices) {
    if (P.Iterations.empty())
      continue;
    chunkBounds(Loop, *Trip, P.Iterations, P.ChunkFirst, P.ChunkBound);
    for (size_t A = 0; A < NumArrays; ++A)
      if (Desc.Arrays[A].Policy == ArrayPolicy::FollowLoop)
        P.Parts[A] =
            intersect(indexRange(Loop, P.Iterations), Arrays[A].range());
  }

  // Every use the plugin could see must hit the device's own part.
  for (unsigned D = 0; D < NumDevices; ++D) {
    const DevicePlan &P = Plan.Devices[D];
    if (P.Iterations.empty())
      continue;
    Range Indices = indexRange(Loop, P.Iterations);
    for (size_t A = 0; A < NumArrays; ++A) {
      const ArrayDesc &AD = Desc.Arrays[A];
      if (!AD.distributed() || AD.Uses != ArrayDesc::KnownUse)
        continue;
      Range Needed{Indices.Begin + AD.MinOffset, Indices.End + AD.MaxOffset};
      if (!P.Parts[A].contains(Needed)) {
        Err = {PlanError::OutsidePart, static_cast<unsigned>(A), D, Needed,
               P.Parts[A]};
        return false;
      }
    }
  }
  return true;
}

std::string describePlanError(const RegionDescriptor &Desc,
                              const PlanError &Err, int DeviceId) {
  std::ostringstream OS;
  if (Err.Kind == PlanError::BadLoop) {
    OS << "the loop's step is zero or goes away from its bound, so it would "
          "not terminate";
    return OS.str();
  }
  const ArrayDesc &A = Desc.Arrays[Err.Array];
  OS << "device " << DeviceId << " would use elements [" << Err.Needed.Begin
     << ", " << Err.Needed.End << ") of '" << A.Name << "' but holds only [";
  OS << Err.Held.Begin << ", " << Err.Held.End << ")";
  if (A.MinOffset != 0 || A.MaxOffset != 0)
    OS << "; the loop reads '" << A.Name << "' at offsets " << A.MinOffset
       << ".." << A.MaxOffset << " (halos are not supported yet)";
  else
    OS << "; align the loop with '" << A.Name
       << "' (dist_schedule(target: ALIGN(" << A.Name
       << "))) or make its extent match the loop's";
  return OS.str();
}

} // namespace homp
