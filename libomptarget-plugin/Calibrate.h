//===-- Calibrate.h - Measuring the devices' copies -------------*- C++ -*-===//
//
// Without a machine file homp measures what it can: per offload device the
// latency of a small copy and the bandwidth of large ones, to and from the
// host. Compute rates are not measured (libhomp has no kernel image of its
// own to time) and stay 0, unknown; homp/Model.h says how the models treat
// that. The host needs no copies.
//
//===----------------------------------------------------------------------===//

#ifndef HOMP_LIBOMPTARGET_PLUGIN_CALIBRATE_H
#define HOMP_LIBOMPTARGET_PLUGIN_CALIBRATE_H

#include "homp/DeviceSelection.h"
#include "homp/MachineModel.h"

namespace homp {

/// The model of Env's devices (offload ids, then the host) from copies
/// timed now: latency the median of 9 copies of 8 bytes to the device,
/// bandwidth from the best of 3 copies of 8 MiB each way. A device whose
/// copies fail keeps unknown numbers, with a note.
MachineModel calibrate(const DeviceEnvironment &Env);

} // namespace homp

#endif // HOMP_LIBOMPTARGET_PLUGIN_CALIBRATE_H
