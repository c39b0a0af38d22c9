// The machine model weighs each device's computing against its copies with
// the operations the plugin counts in the loop body (issue 8; HOMP'16 IV.B).
// Machine: the host and four CPU offload devices, all 1 GFLOP/s, copies at
// 100 MB/s. Each iteration copies 16 bytes (x in, y out).
//  - 'spread': 2 operations times an inner loop of m = 1000 trips counted
//    before the region: 2000 operations against 160 ns of copies, so every
//    device gets about a fifth (the host a little more: it copies nothing).
//  - 'triangle': the inner loop's bound is the loop variable, so it counts
//    once: 2 operations against 80 ns of copies (y out; x, not split, is
//    copied whole), and the host takes it all.
//  - 'slowed': the spread loop over the four offload devices, calibrated
//    (compute rates unknown), device 0 emulated 4x slower: it gets a
//    quarter of what each other device gets (1080 / 13 = 83).
// All give the sequential result. The shares named are those of the four
// offload devices (CHECK-4, SLOWED-4); with another number of devices the
// triangle still goes to the host, cutting off every device from 0 on.
// RUN: %hompcc -O2 %s -o %t
// RUN: env HOMP_MACHINE=%S/Inputs/machine-slow-copies.ini HOMP_INFO=1 %t 2>&1 | FileCheck %s --check-prefixes=CHECK,CHECK-%ndev --allow-unused-prefixes -D#NDEV=%ndev
// RUN: rm -rf %t.cache && env XDG_CACHE_HOME=%t.cache HOMP_EMULATE=0:4 HOMP_INFO=1 %t 2>&1 | FileCheck %s --check-prefixes=SLOWED,SLOWED-%ndev --allow-unused-prefixes -DDEVICES="%devices"
// CHECK-LABEL: homp: region {{.*}}model-operations.c:{{[0-9]+}}:1: 1080 iterations on
// CHECK-SAME: {{^}} [[#NDEV + 1]] devices; schedule MODEL_2_AUTO (model: 2000 operations, 16 bytes copied per iteration)
// CHECK-4: homp:   0 {{.*}} [0, 213)
// CHECK-4: homp:   1 {{.*}} [213, 425)
// CHECK-4: homp:   2 {{.*}} [425, 638)
// CHECK-4: homp:   3 {{.*}} [638, 850)
// CHECK-4: homp:   host {{.*}} [850, 1080)
// CHECK-LABEL: homp: region {{.*}}: 1080 iterations on 1 device; schedule MODEL_2_AUTO (model: 2 operations, 8 bytes copied per iteration); cut off: 0
// CHECK-4-SAME: {{^}}, 1, 2, 3 in
// CHECK: homp:   host {{.*}} [0, 1080)
// CHECK: spread: PASS
// CHECK: triangle: PASS
// CHECK: slowed: PASS
// SLOWED: homp: region {{.*}}: 1080 iterations on [[DEVICES]]; schedule MODEL_2_AUTO (model: 2000 operations, 16 bytes copied per iteration)
// SLOWED-4: homp:   0 {{.*}} [0, 8{{[2-4]}})
// SLOWED: slowed: PASS

#include <stdio.h>
#include <stdlib.h>

static int check(const char *What, const double *y, const double *ref,
                 int n) {
  int failures = 0;
  for (int i = 0; i < n; ++i)
    if (y[i] != ref[i] && ++failures <= 5)
      printf("%s: FAIL: y[%d] = %g, not %g\n", What, i, y[i], ref[i]);
  printf("%s: %s\n", What, failures ? "FAIL" : "PASS");
  return failures;
}

/// The loops' sequential result: inner loops of m trips, or of i trips
/// (Triangle).
static void reference(const double *x, double *ref, int n, int m,
                      int Triangle) {
  for (int i = 0; i < n; ++i) {
    double s = 0;
    for (int k = 0; k < (Triangle ? i : m); ++k)
      s += x[Triangle ? k : i] * k;
    ref[i] = s;
  }
}

int main(void) {
  int n = 1080, m = 1000;
  double *x = malloc(sizeof(double) * n), *y = malloc(sizeof(double) * n);
  double *ref = malloc(sizeof(double) * n);
  for (int i = 0; i < n; ++i)
    x[i] = (i % 13) * 0.25;

  reference(x, ref, n, m, 0);
#pragma omp target device(*, host) map(to: x[0:n] dist_data(ALIGN(spread))) \
    map(from: y[0:n] dist_data(ALIGN(spread)))
#pragma omp parallel for dist_schedule(target: [MODEL_2_AUTO])
spread:
  for (int i = 0; i < n; ++i) {
    double s = 0;
    for (int k = 0; k < m; ++k)
      s += x[i] * k;
    y[i] = s;
  }
  int failures = check("spread", y, ref, n);

  reference(x, ref, n, m, 1);
#pragma omp target device(*, host) map(to: x[0:n]) \
    map(from: y[0:n] dist_data(ALIGN(triangle)))
#pragma omp parallel for dist_schedule(target: [MODEL_2_AUTO])
triangle:
  for (int i = 0; i < n; ++i) {
    double s = 0;
    for (int k = 0; k < i; ++k)
      s += x[k] * k;
    y[i] = s;
  }
  failures += check("triangle", y, ref, n);

  reference(x, ref, n, m, 0);
#pragma omp target device(*) map(to: x[0:n] dist_data(ALIGN(slowed))) \
    map(from: y[0:n] dist_data(ALIGN(slowed)))
#pragma omp parallel for dist_schedule(target: [MODEL_2_AUTO])
slowed:
  for (int i = 0; i < n; ++i) {
    double s = 0;
    for (int k = 0; k < m; ++k)
      s += x[i] * k;
    y[i] = s;
  }
  failures += check("slowed", y, ref, n);
  free(x);
  free(y);
  free(ref);
  return failures != 0;
}
