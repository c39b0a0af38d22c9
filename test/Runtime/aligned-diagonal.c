// A data region's array whose two dimensions follow splits along the same
// topology dimension (x's and y's, each BLOCK over the line of devices)
// would leave most of its elements on no device: the region stops with an
// error naming the array and how much its parts hold, rather than run with
// elements nobody keeps.
// REQUIRES: devices-2
// RUN: %hompcc -O2 %s -o %t
// RUN: not %t 2>&1 | FileCheck %s
// CHECK: homp: error: region {{.*}}aligned-diagonal.c:[[#@LINE+5]]:1: the parts of 'd' hold {{[0-9]+}} of its 16 elements: two of its dimensions follow splits along the same topology dimension, which leaves the rest on no device
// CHECK-NOT: PASS
#include <stdio.h>
static double x[4], y[4], d[4][4];
int main(void) {
#pragma omp target data device(*) map(to: x dist_data(BLOCK), y dist_data(BLOCK)) \
    map(tofrom: d dist_data(ALIGN(x), ALIGN(y)))
  {
#pragma omp target teams distribute parallel for collapse(2) device(*)
    for (int i = 0; i < 4; ++i)
      for (int j = 0; j < 4; ++j)
        d[i][j] = i + j;
  }
  puts("PASS");
  return 0;
}
