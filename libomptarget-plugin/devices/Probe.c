/*===-- Probe.c - The kernel that calibration times ----------------------===*/

#include "Probe.h"

#include <omp.h>

/* Keeps the result alive, so the chains are computed. */
static volatile double Sink;

int homp_probe_kernel(int Device, long Elements) {
  int Initial = omp_get_initial_device();
  int RanOnHost = 1;
  double Sum = 0;
#pragma omp target teams distribute parallel for device(Device)              \
    map(tofrom : RanOnHost) reduction(+ : Sum)
  for (long I = 0; I < Elements; ++I) {
    if (I == 0)
      RanOnHost = omp_is_initial_device();
    double A[HOMP_PROBE_CHAINS];
    for (int C = 0; C < HOMP_PROBE_CHAINS; ++C)
      A[C] = (double)(I + C);
    for (int S = 0; S < HOMP_PROBE_STEPS; ++S)
      for (int C = 0; C < HOMP_PROBE_CHAINS; ++C)
        A[C] = A[C] * 0.999999 + 1e-6;
    for (int C = 0; C < HOMP_PROBE_CHAINS; ++C)
      Sum += A[C];
  }
  Sink = Sum;
  return Device == Initial || !RanOnHost;
}
