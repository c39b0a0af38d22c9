// Subscript offsets are the ones the loop uses, not 0 and those: with
// x[1:n] in blocks, 'y[i] = x[i + 1]' reads on each device exactly the
// block of x it holds, so the region is distributed (it used to be refused
// and run on the host). A negative offset alone works the same.
// RUN: %hompcc -O2 %s -o %t && env HOMP_INFO=1 %t 2>&1 | FileCheck %s --implicit-check-not=warning -DDEVICES="%devices"
// CHECK: homp: region {{.*}}offsets.c:[[@LINE+11]]:1: 1000 iterations on [[DEVICES]]
// CHECK: homp: region {{.*}}offsets.c:[[@LINE+16]]:1: 1000 iterations on [[DEVICES]]
// CHECK: PASS

#include <stdio.h>

int main(void) {
  enum { n = 1000 };
  static double x[n + 1], y[n], z[n + 3];
  for (int i = 0; i <= n; ++i)
    x[i] = i * 3;
#pragma omp target teams distribute parallel for device(*) \
    map(to: x[1:n] dist_data(BLOCK)) map(from: y[0:n] dist_data(BLOCK))
  for (int i = 0; i < n; ++i)
    y[i] = x[i + 1];
  for (int i = 0; i < n; ++i)
    z[i + 3] = y[i];
#pragma omp target teams distribute parallel for device(*) \
    map(tofrom: z[3:n] dist_data(BLOCK))
  for (int i = 3; i < n + 3; ++i)
    z[i] = z[i] - 3;
  fflush(stderr);
  for (int i = 0; i < n; ++i)
    if (y[i] != 3.0 * (i + 1) || z[i + 3] != 3.0 * i)
      return printf("FAIL %d: %g %g\n", i, y[i], z[i + 3]), 1;
  puts("PASS");
  return 0;
}
