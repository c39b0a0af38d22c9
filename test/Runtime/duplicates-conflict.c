// A scalar that is not distributed but mapped back from several devices,
// each writing a different value into it: two devices writing different
// values to one element is an error, not a silent race (duplicates.c has
// the writes that merge, on any number of devices).
// REQUIRES: devices-2
// RUN: %hompcc -O2 %s -o %t
// RUN: not %t 2>&1 | FileCheck %s

#include <stdio.h>

int main(void) {
  enum { n = 64 };
  int y[n], count = 0;
  for (int i = 0; i < n; ++i)
    y[i] = i;
  // Every device writes its own iteration count into the same scalar.
  // CHECK: homp: error: region {{.*}}duplicates-conflict.c:[[@LINE+1]]:1: devices 0 and 1 wrote different values to element 0 of 'count', which is not distributed; distribute it or use a reduction
#pragma omp target device(*) map(to: y[0:n] dist_data(BLOCK)) map(tofrom: count)
  for (int i = 0; i < n; ++i)
    count = y[i];
  // CHECK-NOT: PASS
  puts("PASS");
  return 0;
}
