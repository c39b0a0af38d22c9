// A kernel inside a data region that would read elements its devices do
// not hold stops the program, naming both constructs: the data lives on
// the devices, so the host cannot run the kernel instead. Device 0 holds
// the first of NDEV blocks of 'a' and would read one element more; on one
// device, which holds all of 'a', the kernel runs (data-regions.c has the
// data regions that work, on any number of devices).
// REQUIRES: devices-2
// RUN: %hompcc -O2 %s -o %t
// RUN: not %t 2>&1 | FileCheck %s -D#NDEV=%ndev
// RUN: env OMP_TARGET_OFFLOAD=DISABLED %t 2>&1 | FileCheck %s --check-prefix=DISABLED
// CHECK: homp: error: region {{.*}}data-region-outside.c:[[# @LINE + 12]]:1: device 0 would use elements [1, [[#div(NDEV + 99, NDEV) + 1]]) of 'a' but holds only [0, [[#div(NDEV + 99, NDEV)]]); the loop uses 'a' at offsets 1..1 of its index and its halo there is 0:0 wide ('a' is distributed by the data region at {{.*}}data-region-outside.c:[[# @LINE + 9]]:1)
// With offloading disabled the data region and the kernel run on the host.
// DISABLED: PASS

#include <stdio.h>

int main(void) {
  enum { n = 100 };
  static double a[n], b[n];
#pragma omp target data device(*) map(to: a[0:n] dist_data(BLOCK)) \
    map(from: b[0:n] dist_data(BLOCK))
  {
#pragma omp target teams distribute parallel for device(*)
    for (int i = 0; i < n - 1; ++i)
      b[i] = a[i + 1];
  }
  puts("PASS");
  return 0;
}
