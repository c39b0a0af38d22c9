/*===-- Probe.h - The kernel that calibration times -------------*- C -*-===*\
|*
|* The probe kernel (Probe.c) and what Calibrate.cpp must know of it. It is
|* built into libhomp without offload (it always runs on the host, which
|* times the host), and into one library of its own per set of kinds of
|* offload device, with images for those kinds (libhomp-probe-cpu.so,
|* libhomp-probe-cpu+nvptx.so, ...), which Calibrate.cpp loads to time the
|* offload devices. libhomp cannot carry the images itself: a library's
|* images register their plugin's devices in every program that loads it,
|* so a program built for the host or for GPUs alone would gain 4 CPU
|* devices, numbered before its GPUs. ProbeLibrary.h says which library may
|* be loaded, and when none may.
|*
\*===----------------------------------------------------------------------===*/

#ifndef HOMP_LIBOMPTARGET_PLUGIN_PROBE_H
#define HOMP_LIBOMPTARGET_PLUGIN_PROBE_H

/* Per element: HOMP_PROBE_CHAINS independent chains of HOMP_PROBE_STEPS
   multiply-adds (2 floating-point operations each), then one addition per
   chain into the sum. Independent chains keep the units busy, so the probe
   times throughput, not one chain's latency. */
#define HOMP_PROBE_CHAINS 8
#define HOMP_PROBE_STEPS 64
#define HOMP_PROBE_FLOPS_PER_ELEMENT                                           \
  ((2.0 * HOMP_PROBE_STEPS + 1) * HOMP_PROBE_CHAINS)

/* The probe's name in the library of its own, for dlsym. */
#define HOMP_PROBE_SYMBOL "homp_probe_kernel"

#ifdef __cplusplus
extern "C" {
#endif

/// Runs the probe over Elements elements on Device (an offload device id or
/// the initial device) and waits for it: 1 if it ran there, 0 if it ran on
/// the host instead of an offload device (no image for that device).
int homp_probe_kernel(int Device, long Elements);

/// The type of homp_probe_kernel.
typedef int HompProbeKernel(int Device, long Elements);

#ifdef __cplusplus
}
#endif

#endif /* HOMP_LIBOMPTARGET_PLUGIN_PROBE_H */
