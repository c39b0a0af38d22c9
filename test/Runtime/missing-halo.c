// A stencil reads u[i+1], which the BLOCK part of the device that owns u[i]
// does not hold at its upper edge (halos are needed): the region is named,
// and by default it runs on the host, so the result is still right; under
// OMP_TARGET_OFFLOAD=MANDATORY the program stops. Device 0 holds the first
// of NDEV blocks of u; one device would hold all of u, so 2 are needed.
// REQUIRES: devices-2
// RUN: %hompcc -O2 %s -o %t
// RUN: %t 2>&1 | FileCheck %s -D#NDEV=%ndev
// RUN: not env OMP_TARGET_OFFLOAD=MANDATORY %t 2>&1 | FileCheck %s --check-prefix=MANDATORY -D#NDEV=%ndev
// With offloading disabled it runs on the host, silently.
// RUN: env OMP_TARGET_OFFLOAD=DISABLED %t 2>&1 | FileCheck %s --check-prefix=DISABLED --implicit-check-not=homp
// DISABLED: PASS

#include <stdio.h>

int main(void) {
  enum { n = 100 };
  double u[n], v[n];
  for (int i = 0; i < n; ++i)
    u[i] = v[i] = i;
  // CHECK: homp: warning: region {{.*}}missing-halo.c:[[@LINE+3]]:1: device 0 would use elements [0, [[#div(NDEV + 99, NDEV) + 1]]) of 'u' but holds only [0, [[#div(NDEV + 99, NDEV)]]); the loop uses 'u' at offsets 0..1 of its index and its halo there is 0:0 wide; running it on the host
  // MANDATORY: homp: error: region {{.*}}missing-halo.c:[[@LINE+2]]:1: device 0 would use elements [0, [[#div(NDEV + 99, NDEV) + 1]]) of 'u' but holds only [0, [[#div(NDEV + 99, NDEV)]]){{.*}}(OMP_TARGET_OFFLOAD=MANDATORY)
  // MANDATORY-NOT: PASS
#pragma omp target device(*) map(to: u[0:n] dist_data(BLOCK)) map(tofrom: v[0:n] dist_data(BLOCK))
#pragma omp parallel for
  for (int i = 0; i < n - 1; ++i)
    v[i] = u[i] + u[i + 1];
  for (int i = 0; i < n; ++i)
    if (v[i] != (i < n - 1 ? 2.0 * i + 1 : i))
      return puts("FAIL"), 1;
  // CHECK: PASS
  puts("PASS");
  return 0;
}
