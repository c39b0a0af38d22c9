// HOMP_TRACE=file writes a Chrome trace (valid JSON, one track per device
// and one for the host) of every copy, kernel, halo transfer and wait. An
// AXPY over the devices and the host, then a data region with a halo
// exchange; with 'waits', a data region with a large and a small halo
// exchange (trace-waits.test checks its waits).
// RUN: %hompcc -O2 %s -o %t
// RUN: rm -f %t.json && env HOMP_TRACE=%t.json %t | FileCheck %s --check-prefix=RESULT
// RUN: %python %S/Inputs/check-trace.py %t.json | FileCheck %s --check-prefixes=CHECK,CHECK-%ndev --allow-unused-prefixes
// RUN: %python %S/Inputs/check-trace.py %t.json | FileCheck %s --check-prefix=TRACKS -D#NDEV=%ndev
// RUN: %python %S/Inputs/check-trace.py --waits %t.json | FileCheck %s --check-prefix=WAIT -D#NDEV=%ndev
// RUN: rm -f %t.waits.json && env HOMP_TRACE=%t.waits.json %t waits | FileCheck %s --check-prefix=RESULT
// RUN: not env HOMP_TRACE=%t.missing/dir/trace.json %t 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: rm -f %t.chunks.json && env HOMP_TRACE=%t.chunks.json %t chunks | FileCheck %s --check-prefix=RESULT
// RUN: %python %S/Inputs/check-trace.py --total %t.chunks.json | FileCheck %s --check-prefix=CHUNKS
// RESULT: PASS

// The AXPY: 1000 elements in blocks over the NDEV devices and the host (200
// each on 4 devices): x and y in (1600 bytes each), y out; the host runs in
// place (no copies). The data region: 16 rows of 8 doubles on 4 devices, 4
// rows each: device 0 gets its rows and a halo row in (320 bytes) and its
// rows out (256); the exchange sends a row (64 bytes) to each neighbour.
// TRACKS: device 0 (CPU) kernel events=1 bytes=0 iterations=[[#div(NDEV + 1000, NDEV + 1)]]
// TRACKS: host kernel events=1 bytes=0 iterations=[[#div(1000, NDEV + 1)]]
// TRACKS-NEXT: host wait events=1 bytes=0 iterations=0
// CHECK-4: device 0 (CPU) copy events=2 bytes=4800 iterations=0
// CHECK-4-NEXT: device 0 (CPU) data events=2 bytes=576 iterations=0
// CHECK-4-NEXT: device 0 (CPU) halo events=1 bytes=64 iterations=0
// CHECK-4-NEXT: device 0 (CPU) kernel events=1 bytes=0 iterations=200
// Each device waits once, at the AXPY's end (WAIT below says how long).
// CHECK-4-NEXT: device 0 (CPU) wait events=1 bytes=0 iterations=0
// CHECK-4: device 1 (CPU) halo events=1 bytes=128 iterations=0
// CHECK-4: device 3 (CPU) kernel events=1 bytes=0 iterations=200
// CHECK-4-NEXT: device 3 (CPU) wait events=1 bytes=0 iterations=0
// CHECK-4-NEXT: host kernel events=1 bytes=0 iterations=200
// CHECK-4-NEXT: host wait events=1 bytes=0 iterations=0
// CHECK-NOT: host copy
// With 'chunks', an AXPY of 1000 elements in chunks of 10 from a shared
// queue: each chunk's copy spans count its own bytes (x and y in, 80 bytes
// each; y out, 80), whichever devices take the chunks.
// CHUNKS: all copy events=200 bytes=24000 iterations=0
// CHUNKS: all kernel events=100 bytes=0 iterations=1000
// BAD: homp: error: HOMP_TRACE='{{.*}}.missing/dir/trace.json' cannot be written; expected the path of a file to create

// Each of the AXPY's devices (NDEV and the host) waits, doing nothing else,
// until the last is done; the small halo exchange runs on the calling
// thread, without waits.
// WAIT: wait wait for the region's end {{.*}}trace.c:108:1: tracks=[[#NDEV + 1]] together=yes alone=yes
// WAIT-NOT: wait

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
  if (argc > 1 && !strcmp(argv[1], "chunks")) {
#pragma omp target device(*) map(to: x[0:n] dist_data(ALIGN(loop))) \
    map(tofrom: y[0:n] dist_data(ALIGN(loop)))
#pragma omp parallel for dist_iteration(SCHED_DYNAMIC(10))
    for (int i = 0; i < n; ++i)
      y[i] += 2 * x[i];
    int Failures = 0;
    for (int i = 0; i < n; ++i)
      Failures += y[i] != 1 + 2 * i;
    puts(Failures ? "FAIL" : "PASS");
    return 0;
  }
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
