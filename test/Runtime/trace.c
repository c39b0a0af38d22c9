// HOMP_TRACE=file writes a Chrome trace (valid JSON, one track per device
// and one for the host) of every copy, kernel, halo transfer and wait. An
// AXPY over 4 devices and the host, then a data region with a halo exchange;
// with 'waits', a data region with a large and a small halo exchange.
// RUN: %hompcc -O2 %s -o %t
// RUN: rm -f %t.json && env HOMP_TRACE=%t.json %t | FileCheck %s --check-prefix=RESULT
// RUN: %python %S/Inputs/check-trace.py %t.json | FileCheck %s
// RUN: %python %S/Inputs/check-trace.py --waits %t.json | FileCheck %s --check-prefix=WAIT
// RUN: rm -f %t.waits.json && env HOMP_TRACE=%t.waits.json %t waits | FileCheck %s --check-prefix=RESULT
// RUN: %python %S/Inputs/check-trace.py --waits %t.waits.json | FileCheck %s --check-prefix=WAITS
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
// Each device waits once, at the AXPY's end (WAIT below says how long).
// CHECK-NEXT: device 0 (CPU) wait events=1 bytes=0 iterations=0
// CHECK: device 1 (CPU) halo events=1 bytes=128 iterations=0
// CHECK: device 3 (CPU) kernel events=1 bytes=0 iterations=200
// CHECK-NEXT: device 3 (CPU) wait events=1 bytes=0 iterations=0
// CHECK-NEXT: host kernel events=1 bytes=0 iterations=200
// CHECK-NEXT: host wait events=1 bytes=0 iterations=0
// CHECK-NOT: host copy
// BAD: homp: error: HOMP_TRACE='{{.*}}.missing/dir/trace.json' cannot be written; expected the path of a file to create

// Each of the AXPY's 5 devices waits, doing nothing else, until the last is
// done; the small halo exchange runs on the calling thread, without waits.
// WAIT: wait wait for the region's end {{.*}}trace.c:94:1: tracks=5 together=yes alone=yes
// WAIT-NOT: wait

// A large halo exchange (rows of 1 MiB) is done by the devices' proxies,
// each waiting for the others after its sends and after its receives. The
// kernel on resident data is queued on the devices (asynchronous); the
// small exchange after it is done by the calling thread, which first waits
// for the queued kernel (on the host's track).
// WAITS: wait wait for the halo sends {{.*}}trace.c:66:13: tracks=4 together=yes alone=yes
// WAITS-NEXT: wait wait for the halo receives {{.*}}trace.c:66:13: tracks=4 together=yes alone=yes
// WAITS-NEXT: wait wait for queued work {{.*}}trace.c:74:13: tracks=1 together=yes alone=yes
// WAITS-NOT: wait

#include <stdio.h>
#include <string.h>

/// A kernel, a large and a small halo exchange in a data region; 0 when
/// every value is right.
static int waits(void) {
  enum { R = 8, C = 1 << 17, SR = 16, SC = 8 };
  static double big[R][C], small[SR][SC];
  for (int i = 0; i < R; ++i)
    for (int j = 0; j < C; ++j)
      big[i][j] = i;
  for (int i = 0; i < SR; ++i)
    for (int j = 0; j < SC; ++j)
      small[i][j] = i;
#pragma omp target data device(*) \
    map(tofrom: big[0:R][0:C] dist_data(BLOCK, *) halo(1,)) \
    map(tofrom: small[0:SR][0:SC] dist_data(BLOCK, *) halo(1,))
  {
#pragma omp halo_exchange(big)
    // Tens of milliseconds of work per device, so that it is still queued
    // or running when the calling thread reaches the next exchange.
#pragma omp target teams distribute parallel for device(*)
    for (int i = 0; i < R; ++i)
      for (int j = 0; j < C; ++j)
        for (int k = 0; k < 64; ++k)
          big[i][j] = big[i][j] * 0.5 + 1;
#pragma omp halo_exchange(small)
  }
  // x -> x/2 + 1, 64 times: 2 + (x - 2) / 2^64, which is 2 in doubles.
  int Failures = 0;
  for (int i = 0; i < R; ++i)
    Failures += big[i][C - 1] != 2.0;
  for (int i = 0; i < SR; ++i)
    Failures += small[i][SC - 1] != i;
  return Failures;
}

int main(int argc, char **argv) {
  if (argc > 1 && !strcmp(argv[1], "waits")) {
    puts(waits() ? "FAIL" : "PASS");
    return 0;
  }
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
