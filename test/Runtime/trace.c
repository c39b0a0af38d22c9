// HOMP_TRACE=file writes a Chrome trace (valid JSON, one track per device
// and one for the host) of every copy, kernel and halo transfer. An AXPY
// over 4 devices and the host, then a data region with a halo exchange.
// RUN: %hompcc -O2 %s -o %t
// RUN: rm -f %t.json && env HOMP_TRACE=%t.json %t | FileCheck %s --check-prefix=RESULT
// RUN: %python %S/Inputs/check-trace.py %t.json | FileCheck %s
// RUN: not env HOMP_TRACE=%t.missing/dir/trace.json %t 2>&1 | FileCheck %s --check-prefix=BAD
// RESULT: PASS

// The AXPY: 1000 elements, 200 per device: x and y in (1600 bytes each),
// y out; the host runs in place (no copies). The data region: 16 rows of 8
// doubles on 4 devices, 4 rows each: device 0 gets its rows and a halo row
// in (320 bytes) and its rows out (256); the exchange sends a row (64
// bytes) to each neighbour.
// CHECK: device 0 (CPU) copy events=2 bytes=4800 iterations=0
// CHECK-NEXT: device 0 (CPU) data events=2 bytes=576 iterations=0
// CHECK-NEXT: device 0 (CPU) halo events=1 bytes=64 iterations=0
// CHECK-NEXT: device 0 (CPU) kernel events=1 bytes=0 iterations=200
// CHECK: device 1 (CPU) halo events=1 bytes=128 iterations=0
// CHECK: device 3 (CPU) kernel events=1 bytes=0 iterations=200
// CHECK-NEXT: host kernel events=1 bytes=0 iterations=200
// CHECK-NOT: host copy
// BAD: homp: error: HOMP_TRACE='{{.*}}.missing/dir/trace.json' cannot be written; expected the path of a file to create

#include <stdio.h>

int main(void) {
  enum { n = 1000, R = 16, C = 8 };
  static double x[n], y[n], g[R][C];
  for (int i = 0; i < n; ++i)
    x[i] = i, y[i] = 1;
#pragma omp target teams distribute parallel for device(*, host) \
    map(to: x[0:n] dist_data(BLOCK)) map(tofrom: y[0:n] dist_data(BLOCK))
  for (int i = 0; i < n; ++i)
    y[i] += 2 * x[i];
  int Failures = 0;
  for (int i = 0; i < n; ++i)
    Failures += y[i] != 1 + 2 * i;
#pragma omp target data device(*) map(tofrom: g[0:R][0:C] dist_data(BLOCK, *) halo(1,))
  {
#pragma omp halo_exchange(g)
  }
  puts(Failures ? "FAIL" : "PASS");
  return 0;
}
