//===-- Calibrate.h - Measuring the devices ---------------------*- C++ -*-===//
//
// Without a machine file homp measures what it can: per offload device the
// latency of a small copy and the bandwidth of large ones, to and from the
// host, and per device and for the host the compute rate of a probe kernel
// (Probe.h). The probe has images for x86_64 and for the GPU architectures
// homp was built for (HOMP_PROBE_GPU_ARCHS), in one library per set of kinds
// of devices (ProbeLibrary.h). Where none may be loaded (a GPU of another
// architecture among the devices, a GPU of their vendor the program does
// not use, a kind homp has no probe for), the CPU offload devices take the
// host's rate (the same cores) and the GPUs keep rate 0, unknown: homp/Model.h
// says how the models treat that. The host needs no copies.
//
//===----------------------------------------------------------------------===//

#ifndef HOMP_LIBOMPTARGET_PLUGIN_CALIBRATE_H
#define HOMP_LIBOMPTARGET_PLUGIN_CALIBRATE_H

#include "ProbeLibrary.h"

#include "homp/DeviceSelection.h"
#include "homp/MachineModel.h"

#include <vector>

namespace homp {

/// The model of Env's devices (offload ids, then the host) from copies and
/// kernels timed now: latency the median of 9 copies of 8 bytes to the
/// device, bandwidth from the best of 3 copies of 8 MiB each way, compute
/// rate from the best of 3 launches of the probe kernel of about 2 ms each
/// (in rounds over the devices) on the host and each device the probe has
/// an image for (probeLaunchElements sizes them), one rate
/// for all of those and one bandwidth and latency for the CPU devices
/// (oneModelOnTheHostsCores, homp/MachineModel.h).
/// A device whose copies fail, or that the probe cannot run on, keeps
/// unknown numbers, with a note.
MachineModel calibrate(const DeviceEnvironment &Env);

/// The kinds of offload device homp built the probe kernel for, with the
/// architectures of their images (HOMP_PROBE_GPU_ARCHS).
const std::vector<ProbeKind> &probeKinds();

/// libhomp's folder, with its final '/' (where the libraries it loads on
/// demand lie); "" if unknown.
std::string libhompFolder();

/// The probe library calibration loads for Env's offload devices, in
/// libhomp's folder (chooseProbeLibrary); "" with Why when none may be
/// loaded.
std::string probeLibraryPath(const DeviceEnvironment &Env, std::string &Why);

} // namespace homp

#endif // HOMP_LIBOMPTARGET_PLUGIN_CALIBRATE_H
