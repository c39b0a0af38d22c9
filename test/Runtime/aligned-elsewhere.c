// A data region's array aligned with one an enclosing region keeps on
// other devices: none of the target's parts is on this region's devices,
// so the whole array lives on its first device, and a kernel writing it
// there keeps every write (found by the differential fuzzer: the region
// stopped with an error instead). Compared with the sequential loop.
// REQUIRES: devices-2
// RUN: %hompcc -O2 %s -o %t && %t 2>&1 | FileCheck %s --implicit-check-not=homp:
// CHECK: PASS
#include <stdio.h>
enum { N = 16 };
static long anc[3], v[N];
int main(void) {
  for (int i = 0; i < N; ++i)
    v[i] = i;
#pragma omp target data device(0) map(to: anc dist_data(BLOCK))
  {
#pragma omp target data device(1) map(to: anc dist_data(BLOCK)) \
    map(tofrom: v dist_data(ALIGN(anc)))
    {
#pragma omp target teams distribute parallel for device(1)
      for (int i = 0; i < N; ++i)
        v[i] = 3 * v[i] + 1;
    }
  }
  for (int i = 0; i < N; ++i)
    if (v[i] != 3 * i + 1)
      return printf("FAIL v[%d] = %ld, expected %d\n", i, v[i], 3 * i + 1), 1;
  puts("PASS");
  return 0;
}
