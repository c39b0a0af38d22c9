// A distributed array that an enclosing single-device 'target data' already
// maps would leave that device's part on the device and later overwrite the
// other devices' results; homp stops with an error instead. So for an array
// the construct duplicates: device 0's copy (changed there) was passed over
// for the host's values, silently.
// RUN: %hompcc -O2 %s -o %t
// RUN: not %t 2>&1 | FileCheck %s
// RUN: %hompcc -O2 -DDUP %s -o %t.dup
// RUN: not %t.dup 2>&1 | FileCheck %s --check-prefix=DUP
// DUP: homp: error: region {{.*}}already-mapped.c:{{[0-9]+}}:1: 'x' is already mapped on device 0 (by an enclosing 'target data'?); the arrays of a multi-device construct must not be mapped when it starts
// DUP-NOT: PASS
// CHECK: homp: error: region {{.*}}already-mapped.c:[[@LINE+25]]:1: 'y' is already mapped on device 0 (by an enclosing 'target data'?); the arrays of a multi-device construct must not be mapped when it starts (homp copies them itself and would not see that copy)
// CHECK-NOT: PASS

#include <stdio.h>

#ifdef DUP
int main(void) {
  static double x[1000], y[1000];
#pragma omp target data map(to: x) device(0)
  {
#pragma omp target device(0)
    for (int i = 0; i < 1000; ++i)
      x[i] = 100;
#pragma omp target device(*) map(tofrom: y[0:1000] dist_data(BLOCK)) map(to: x[0:1000])
#pragma omp parallel for
    for (int i = 0; i < 1000; ++i)
      y[i] = x[i];
  }
  puts("PASS");
  return 0;
}
#else
int main(void) {
  static double y[1000];
#pragma omp target data map(tofrom: y) device(0)
#pragma omp target teams distribute parallel for device(*) map(tofrom: y dist_data(BLOCK))
  for (int i = 0; i < 1000; ++i)
    y[i] += i;
  puts("PASS");
  return 0;
}
#endif
