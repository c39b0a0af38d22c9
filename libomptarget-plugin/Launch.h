//===-- Launch.h - Running a distributed region on its devices --*- C++ -*-===//

#ifndef HOMP_LIBOMPTARGET_PLUGIN_LAUNCH_H
#define HOMP_LIBOMPTARGET_PLUGIN_LAUNCH_H

#include "KernelArgs.h"
#include "Region.h"

namespace homp {

/// The host version of a region's kernel, built by the homp pass: it calls
/// the region's host fallback with the given kernel parameters, after
/// checking their number; it returns non-zero when the number is wrong.
using HostThunk = int (*)(void **Params, int64_t NumParams);

/// Runs the region R (consumed) with clang's kernel arguments Args: each
/// device of its plan runs its chunk on its proxy thread, the host (if it
/// takes part) runs in place through Thunk; reductions and duplicates are
/// combined afterwards. Returns 0, or non-zero when the region must run on
/// the host instead (clang then calls the host fallback).
int launchRegion(RegionInstance *R, void *Loc, int32_t NumTeams,
                 int32_t ThreadLimit, void *HostPtr, KernelArgs *Args,
                 HostThunk Thunk);

} // namespace homp

#endif // HOMP_LIBOMPTARGET_PLUGIN_LAUNCH_H
