// An array a data region holds whole on every device (no distribution),
// written on one device (a standard 'target device(2)', or a homp kernel
// on one device) and then read elsewhere: every device uses a current copy
// (a stale one is brought up to date first), and the end of the region,
// 'target update from' and 'exit data' copy back a current copy, not every
// device's at once (whichever landed last won: 1 to 6 wrong in 20 runs).
// A dynamic loop writing it may run its chunks on any device: it runs on
// the host, with the array gathered there (the chunks' device was guessed
// once, and the copy back came from another). Checked against sequential
// values in 20 rounds of each case.
// REQUIRES: devices-4
// RUN: %hompcc -O2 %s -o %t
// RUN: %t | FileCheck %s
// RUN: env HOMP_INFO=1 %t 2>/dev/null | FileCheck %s
// RUN: env HOMP_EMULATE=0:2,2:4 %t 2>/dev/null | FileCheck %s
// CHECK: standard kernel: PASS
// CHECK: homp kernel on one device: PASS
// CHECK: read on another device: PASS
// CHECK: update from: PASS
// CHECK: standard update: PASS
// CHECK: dynamic loop: PASS

#include <stdio.h>

enum { K = 64, N = 1000 };
static double w[K], y[N];

static int report(const char *What, int Bad) {
  printf("%s: %s\n", What, Bad ? "FAIL" : "PASS");
  return Bad;
}

int main(void) {
  int k = K, n = N, Bad = 0, B;
  // A standard kernel on device 2 writes w.
  B = 0;
  for (int Round = 0; Round < 20; ++Round) {
    for (int i = 0; i < k; ++i)
      w[i] = 0;
#pragma omp target data device(*) map(tofrom: w[0:k])
    {
#pragma omp target device(2)
      for (int i = 0; i < k; ++i)
        w[i] = i + 1 + Round;
    }
    for (int i = 0; i < k; ++i)
      B += w[i] != i + 1 + Round;
  }
  Bad += report("standard kernel", B);
  // A homp kernel on device 1 alone.
  B = 0;
  for (int Round = 0; Round < 20; ++Round) {
    for (int i = 0; i < k; ++i)
      w[i] = 0;
#pragma omp target data device(*) map(tofrom: w[0:k])
    {
#pragma omp target device(1:1)
#pragma omp parallel for dist_iteration(BLOCK)
      for (int i = 0; i < k; ++i)
        w[i] = i + 1 + Round;
    }
    for (int i = 0; i < k; ++i)
      B += w[i] != i + 1 + Round;
  }
  Bad += report("homp kernel on one device", B);
  // Written on device 3, then read by every device of a distributed loop.
  B = 0;
  for (int Round = 0; Round < 20; ++Round) {
    for (int i = 0; i < k; ++i)
      w[i] = 0;
#pragma omp target data device(*) map(to: w[0:k]) \
    map(from: y[0:n] dist_data(BLOCK))
    {
#pragma omp target device(3)
      for (int i = 0; i < k; ++i)
        w[i] = 2 * i + Round;
#pragma omp target device(*)
#pragma omp parallel for dist_iteration(BLOCK)
      for (int i = 0; i < n; ++i)
        y[i] = w[i % k];
    }
    for (int i = 0; i < n; ++i)
      B += y[i] != 2 * (i % k) + Round;
  }
  Bad += report("read on another device", B);
  // 'target update from' inside the region, after a write on device 0.
  B = 0;
  for (int Round = 0; Round < 20; ++Round) {
    for (int i = 0; i < k; ++i)
      w[i] = 0;
#pragma omp target data device(*) map(alloc: w[0:k])
    {
#pragma omp target update device(*) to(w[0:k])
#pragma omp target device(0:1)
#pragma omp parallel for dist_iteration(BLOCK)
      for (int i = 0; i < k; ++i)
        w[i] = 3 * i + Round;
#pragma omp target update device(*) from(w[0:k])
      for (int i = 0; i < k; ++i)
        B += w[i] != 3 * i + Round;
    }
  }
  Bad += report("update from", B);
  // A standard 'target update to' on device 2 changes only its copy; the
  // next read on device 1 sees it.
  B = 0;
  for (int Round = 0; Round < 20; ++Round) {
    for (int i = 0; i < k; ++i)
      w[i] = 0;
#pragma omp target data device(*) map(to: w[0:k])
    {
      for (int i = 0; i < k; ++i)
        w[i] = i + Round;
#pragma omp target update device(2) to(w[0:k])
      for (int i = 0; i < k; ++i)
        w[i] = -1;
#pragma omp target device(1) map(from: y[0:k])
      for (int i = 0; i < k; ++i)
        y[i] = w[i];
    }
    for (int i = 0; i < k; ++i)
      B += y[i] != i + Round;
  }
  Bad += report("standard update", B);
  // Chunks of a dynamic loop, on whichever device takes them.
  B = 0;
  for (int Round = 0; Round < 20; ++Round) {
    for (int i = 0; i < k; ++i)
      w[i] = 0;
#pragma omp target data device(*) map(tofrom: w[0:k])
    {
#pragma omp target device(*)
#pragma omp parallel for distribute dist_schedule(target: [SCHED_DYNAMIC(3)])
      for (int i = 2; i < 5; ++i)
        w[i] = i + Round;
    }
    for (int i = 0; i < k; ++i)
      B += w[i] != (i >= 2 && i < 5 ? i + Round : 0);
  }
  Bad += report("dynamic loop", B);
  return Bad != 0;
}
