// A distributed array that an enclosing single-device 'target data' already
// maps would leave that device's part on the device and later overwrite the
// other devices' results; homp stops with an error instead.
// RUN: %hompcc -O2 %s -o %t
// RUN: not %t 2>&1 | FileCheck %s
// CHECK: homp: error: region {{.*}}already-mapped.c:[[@LINE+8]]:1: 'y' is already mapped on device 0 (by an enclosing 'target data'?); a distributed array must not be mapped when its region starts
// CHECK-NOT: PASS

#include <stdio.h>

int main(void) {
  static double y[1000];
#pragma omp target data map(tofrom: y) device(0)
#pragma omp target teams distribute parallel for device(*) map(tofrom: y dist_data(BLOCK))
  for (int i = 0; i < 1000; ++i)
    y[i] += i;
  puts("PASS");
  return 0;
}
