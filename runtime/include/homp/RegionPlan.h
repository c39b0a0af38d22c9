//===-- homp/RegionPlan.h - Which device runs and holds what ----*- C++ -*-===//
//
// Given a region's descriptor, its loop and its arrays' extents, decides for
// each participating device the iterations it runs and the part of each
// array it holds (DESIGN.md; SPEC.md sections 2 and 3):
//
//  - BLOCK arrays are split evenly over their mapped range;
//  - a loop aligned with an array (ALIGN(x)) runs the iterations whose index
//    falls in the part of x each device holds; a BLOCK loop does the same with
//    the region's first BLOCK array (owner computes) and, without one, splits
//    its iterations evenly;
//  - arrays aligned with the loop hold the indices of their device's
//    iterations; arrays aligned with an array share its partition.
//
// Then every subscript offset the plugin saw must stay inside the part the
// device holds, or the plan is refused.
//
//===----------------------------------------------------------------------===//

#ifndef HOMP_REGIONPLAN_H
#define HOMP_REGIONPLAN_H

#include "homp/LoopSpace.h"
#include "homp/RegionDescriptor.h"

#include <string>
#include <vector>

namespace homp {

/// The indices [Lower, Lower + Length) of an array the region maps.
struct ArrayExtent {
  int64_t Lower = 0;
  int64_t Length = 0;
  Range range() const { return {Lower, Lower + Length}; }
};

struct DevicePlan {
  Range Iterations;         ///< iterations k this device runs
  int64_t ChunkFirst = 0;   ///< the loop's first index for it
  int64_t ChunkBound = 0;   ///< and its test bound
  std::vector<Range> Parts; ///< per array: the indices it holds
};

struct RegionPlan {
  int64_t TripCount = 0;
  std::vector<DevicePlan> Devices;
};

/// Why a plan was refused.
struct PlanError {
  enum { BadLoop, OutsidePart } Kind;
  unsigned Array = 0;  ///< OutsidePart: the array
  unsigned Device = 0; ///< OutsidePart: the device's position
  Range Needed, Held;  ///< OutsidePart: indices used and held
};

/// Plans the region over NumDevices devices. Returns false with Err set when
/// the loop does not terminate or a device would use elements it does not
/// hold.
bool planRegion(const RegionDescriptor &Desc, unsigned NumDevices,
                const LoopBounds &Loop, const std::vector<ArrayExtent> &Arrays,
                RegionPlan &Plan, PlanError &Err);

/// Explains Err in one sentence, naming the array and device.
std::string describePlanError(const RegionDescriptor &Desc,
                              const PlanError &Err, int DeviceId);

} // namespace homp

#endif // HOMP_REGIONPLAN_H
