// A stencil reads u[i+1], which the BLOCK part of the device that owns u[i]
// does not hold at its upper edge, and u has no halo: the loop only reads
// u, an array of the region's own, so each device's copy of its part
// brings that element too (an implicit read halo), silently; HOMP_INFO
// says so, and OMP_TARGET_OFFLOAD=MANDATORY has nothing to refuse. (A
// loop that writes past what a device owns is refused: halo-writes.c.)
// REQUIRES: devices-2
// RUN: %hompcc -O2 %s -o %t
// RUN: %t 2>&1 | FileCheck %s --implicit-check-not=homp
// RUN: env OMP_TARGET_OFFLOAD=MANDATORY %t 2>&1 | FileCheck %s --implicit-check-not=homp
// RUN: env HOMP_INFO=1 %t 2>&1 | FileCheck %s --check-prefix=INFO -D#NDEV=%ndev
// With offloading disabled it runs on the host, silently.
// RUN: env OMP_TARGET_OFFLOAD=DISABLED %t 2>&1 | FileCheck %s --implicit-check-not=homp

#include <stdio.h>

int main(void) {
  enum { n = 100 };
  double u[n], v[n];
  for (int i = 0; i < n; ++i)
    u[i] = v[i] = i;
  // INFO: homp: region {{.*}}read-halo.c:[[@LINE+2]]:1: 99 iterations on [[#NDEV]] devices; each device also gets the elements of 'u' it reads around its part (a read halo of 0:1) in
  // INFO-NEXT: homp:   device
#pragma omp target device(*) map(to: u[0:n] dist_data(BLOCK)) map(tofrom: v[0:n] dist_data(BLOCK))
#pragma omp parallel for
  for (int i = 0; i < n - 1; ++i)
    v[i] = u[i] + u[i + 1];
  for (int i = 0; i < n; ++i)
    if (v[i] != (i < n - 1 ? 2.0 * i + 1 : i))
      return puts("FAIL"), 1;
  // CHECK: PASS
  // INFO: PASS
  puts("PASS");
  return 0;
}
