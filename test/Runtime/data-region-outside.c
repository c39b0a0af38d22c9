// A kernel inside a data region that would read elements its devices do
// not hold runs on the host, the data region's arrays gathered there from
// the devices (and the ones it writes copied back to them), with a warning
// naming both constructs, once per construct; the results are the
// sequential ones. Device 0 holds the first of NDEV blocks of 'a' and would
// read one element more; on one device, which holds all of 'a', the kernel
// runs there (data-regions.c has the data regions that work, on any number
// of devices). Under OMP_TARGET_OFFLOAD=MANDATORY it is an error.
// REQUIRES: devices-2
// RUN: %hompcc -O2 %s -o %t
// RUN: %t 2>&1 | FileCheck %s -D#NDEV=%ndev
// RUN: not env OMP_TARGET_OFFLOAD=MANDATORY %t 2>&1 | FileCheck %s --check-prefix=MANDATORY
// RUN: env OMP_TARGET_OFFLOAD=DISABLED %t 2>&1 | FileCheck %s --check-prefix=DISABLED
// CHECK: homp: warning: region {{.*}}data-region-outside.c:[[# @LINE + 18]]:1: device 0 would use elements [1, [[#div(NDEV + 99, NDEV) + 1]]) of 'a' but holds only [0, [[#div(NDEV + 99, NDEV)]]); the loop uses 'a' at offsets 1..1 of its index and its halo there is 0:0 wide ('a' is distributed by the data region at {{.*}}data-region-outside.c:[[# @LINE + 15]]:1); running it on the host, with the resident arrays it uses gathered there
// CHECK-NOT: homp: warning
// CHECK: PASS
// MANDATORY: homp: error: region {{.*}}data-region-outside.c:{{[0-9]+}}:1: device 0 would use {{.*}} (OMP_TARGET_OFFLOAD=MANDATORY)
// MANDATORY-NOT: PASS
// With offloading disabled the data region and the kernel run on the host.
// DISABLED: PASS

#include <stdio.h>

int main(void) {
  enum { n = 100 };
  static double a[n], b[n];
  for (int i = 0; i < n; ++i)
    a[i] = i, b[i] = -1;
#pragma omp target data device(*) map(to: a[0:n] dist_data(BLOCK)) \
    map(tofrom: b[0:n] dist_data(BLOCK))
  for (int Step = 0; Step < 3; ++Step) {
#pragma omp target teams distribute parallel for device(*)
    for (int i = 0; i < n - 1; ++i)
      b[i] = a[i + 1] + Step;
  }
  int Bad = b[n - 1] != -1;
  for (int i = 0; i < n - 1; ++i)
    Bad += b[i] != i + 1 + 2;
  puts(Bad ? "FAIL" : "PASS");
  return Bad != 0;
}
