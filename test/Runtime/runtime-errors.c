// Problems found at run time name the region. By default the region then
// runs on the host, so the result is still right; under
// OMP_TARGET_OFFLOAD=MANDATORY the program stops.
// RUN: %hompcc -O2 %s -o %t
// RUN: %t 2>&1 | FileCheck %s
// RUN: not env OMP_TARGET_OFFLOAD=MANDATORY %t 2>&1 | FileCheck %s --check-prefix=MANDATORY
// With offloading disabled every region runs on the host, silently.
// RUN: env OMP_TARGET_OFFLOAD=DISABLED %t 2>&1 | FileCheck %s --check-prefix=DISABLED --implicit-check-not=homp
// DISABLED: PASS

#include <stdio.h>

int main(void) {
  enum { n = 100 };
  double u[n], v[n];
  for (int i = 0; i < n; ++i)
    u[i] = v[i] = i;

  // A stencil reads u[i+1], which the BLOCK part of the device that owns
  // u[i] does not hold at its upper edge (halos are needed).
  // CHECK: homp: warning: region {{.*}}runtime-errors.c:[[@LINE+3]]:1: device 0 would use elements [0, 26) of 'u' but holds only [0, 25); the loop uses 'u' at offsets 0..1 of its index and its halo there is 0:0 wide; running it on the host
  // MANDATORY: homp: error: region {{.*}}runtime-errors.c:[[@LINE+2]]:1: device 0 would use elements [0, 26) of 'u' but holds only [0, 25){{.*}}(OMP_TARGET_OFFLOAD=MANDATORY)
  // MANDATORY-NOT: PASS
#pragma omp target device(*) map(to: u[0:n] dist_data(BLOCK)) map(tofrom: v[0:n] dist_data(BLOCK))
#pragma omp parallel for
  for (int i = 0; i < n - 1; ++i)
    v[i] = u[i] + u[i + 1];

  // No device of the list exists.
  // CHECK: homp: warning: region {{.*}}runtime-errors.c:[[@LINE+1]]:1: none of the devices of its 'device' clause exists; running it on the host
#pragma omp target teams distribute parallel for device(7:3) map(tofrom: u[0:n] dist_data(BLOCK))
  for (int i = 0; i < n; ++i)
    u[i] *= 2;

  for (int i = 0; i < n; ++i) {
    double want = i < n - 1 ? 2.0 * i + 1 : i;
    if (v[i] != want || u[i] != 2.0 * i)
      return puts("FAIL"), 1;
  }
  // CHECK: PASS
  puts("PASS");
  return 0;
}
