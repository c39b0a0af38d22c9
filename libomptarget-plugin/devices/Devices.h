//===-- Devices.h - The devices of this process -----------------*- C++ -*-===//
//
// What libhomp knows of the machine: the offload devices libomptarget
// offers, the host's id, each device's type (from the offload plugin that
// owns it), and homp's settings from the environment.
//
//===----------------------------------------------------------------------===//

#ifndef HOMP_LIBOMPTARGET_PLUGIN_DEVICES_H
#define HOMP_LIBOMPTARGET_PLUGIN_DEVICES_H

#include "KernelArgs.h"
#include "Messages.h"

#include "homp/Abi.h"

#include "homp/DeviceSelection.h"
#include "homp/Environment.h"

#include <string>

namespace homp {

/// The devices that exist (counted once; the set does not change). Their
/// types are probed on first use of deviceTypes().
const DeviceEnvironment &deviceEnvironment();

/// The host's device id (omp_get_initial_device(), which costs a lock and
/// a table walk in libomptarget 19: read once).
inline int hostDevice() { return deviceEnvironment().InitialDevice; }

/// A device as reports name it: its id, or "host".
inline std::string deviceLabel(int Device) {
  return Device == hostDevice() ? std::string("host") : std::to_string(Device);
}

/// The teams a launch of the kernel D on Device asks for, the host's
/// 'target' having asked NumTeams: a GPU's image that runs the loop over
/// teams (abi::Descriptor::GpuTeams) gets 0, the grid its plugin sizes for
/// the launch's trip count (KernelArgs::Tripcount), where the host's
/// 'target' without teams asks one team. Args' own count is set to match.
int32_t teamsFor(const abi::Descriptor &D, int Device, int32_t NumTeams,
                 KernelArgs &Args);

/// deviceEnvironment() with Types filled in.
const DeviceEnvironment &deviceTypes();

/// The settings of the environment, read once (fatal on invalid values).
const Settings &settings();

/// Has libomptarget load onto every device the offload images registered
/// and not loaded there yet (it does so at a device's first construct).
void loadRegisteredImages();

/// Whether HOMP_FAULT makes this operation of Device fail (it counts the
/// operation).
bool injectedFault(int Device, FaultSpec::OpKind Op);

} // namespace homp

#endif // HOMP_LIBOMPTARGET_PLUGIN_DEVICES_H
