//===-- Replay.h - Launching a kernel again as it was launched --*- C++ -*-===//
//
// A kernel inside a data region usually runs many times over the same
// resident arrays and the same loop: AXPY 100 times, a Jacobi sweep every
// iteration. Planning it, looking up its arrays and building each device's
// arguments again cost more than a small part takes to run on a device (an
// AXPY part of 25,000 elements on a CPU offload device). So when a kernel
// runs asynchronously (it only works on resident data, Launch.cpp), homp
// keeps what it launched on each device: a PreparedLaunch. The next
// execution of the construct whose marker values, loop and resident arrays
// are the same, and whose kernel arguments differ only in the values passed
// as they are (scalars), queues the same launches with those values.
//
//===----------------------------------------------------------------------===//

#ifndef HOMP_LIBOMPTARGET_PLUGIN_REPLAY_H
#define HOMP_LIBOMPTARGET_PLUGIN_REPLAY_H

#include "DeviceArgs.h"
#include "KernelArgs.h"

#include "homp/Abi.h"
#include "homp/KernelPlan.h"
#include "homp/LoopSpace.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace homp {

struct ConstructInfo;

/// The launches of one asynchronous execution of a kernel, and what a later
/// execution must match to repeat them.
struct PreparedLaunch {
  ConstructInfo *Info = nullptr;

  // What the construct's marker received.
  std::vector<long long> Values; ///< readRawValues
  abi::Chunk Loops{};            ///< the chunk variable: the loop nest
  uint64_t Generation = 0;       ///< residencyGeneration()

  // What clang passed to the launch.
  void *Loc = nullptr, *HostPtr = nullptr;
  int32_t NumTeams = 0, ThreadLimit = 0;
  std::vector<ArgEntry> Entries; ///< as clang made them
  unsigned ChunkEntry = 0;

  /// One device's launches.
  struct Device {
    int Id = 0;
    bool InHostMemory = false;
    const DeviceWork *Work = nullptr; ///< in Plan
    /// The entries homp changes (all but the chunk's), with their values.
    std::vector<std::pair<unsigned, ArgEntry>> Changed;
  };
  std::vector<Device> Devices;
  std::shared_ptr<const KernelPlan> Plan;
  LoopNest Nest; ///< with its trip counts
  std::string ReportTitle; ///< HOMP_INFO's, as the first execution's

  /// Whether a marker with these values starts the same launches. The
  /// values only the machine model reads (the body loops' bounds) may
  /// differ: an asynchronous kernel is never scheduled by the model.
  bool matches(const std::vector<long long> &Values, const abi::Chunk &Loops,
               uint64_t Generation) const;
};

/// Whether launches may be kept for later executions: nothing changes
/// each execution's launches (HOMP_EMULATE, HOMP_FAULT). HOMP_TRACE shows
/// replayed launches ("replayed" in their arguments); HOMP_INFO reports
/// each replay as the first execution was reported.
bool replayAllowed();

/// Queues P's launches with clang's kernel arguments Args on P's devices,
/// as Launch.cpp's asynchronous launches are. Returns false, having done
/// nothing, when Args differ from P's in more than the values passed as
/// they are.
bool replay(const std::shared_ptr<const PreparedLaunch> &P,
            const KernelArgs &Args, void *Loc, int32_t NumTeams,
            int32_t ThreadLimit, void *HostPtr);

} // namespace homp

#endif // HOMP_LIBOMPTARGET_PLUGIN_REPLAY_H
