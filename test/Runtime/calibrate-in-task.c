// The machine model is measured the first time a loop needs it (AUTO here),
// on a thread of its own; when that happens in a task of the program's
// parallel region, libomp's clean-up of the measuring thread, had it ended,
// would wait for the region (a hang, found by the differential tester).
// With an empty cache each run measures. Checked against sequential values.
// RUN: %hompcc -O2 %s -o %t
// RUN: rm -rf %t.cache && env XDG_CACHE_HOME=%t.cache %t | FileCheck %s
// RUN: rm -rf %t.cache && env XDG_CACHE_HOME=%t.cache OMP_NUM_THREADS=4 %t | FileCheck %s
// CHECK: PASS

#include <stdio.h>

enum { N = 128 };
static long v[N];

int main(void) {
  int n = N, Bad = 0;
#pragma omp parallel
#pragma omp single
  {
#pragma omp target device(*) map(tofrom: v[0:n] dist_data(BLOCK)) nowait \
    depend(inout: v[0])
#pragma omp parallel for distribute dist_schedule(target: [AUTO])
    for (int i = 0; i < n; i += 1)
      v[i] += i % 7;
#pragma omp taskwait
  }
  for (int i = 0; i < n; ++i)
    Bad += v[i] != i % 7;
  puts(Bad ? "FAIL" : "PASS");
  return Bad != 0;
}
