// A kernel on resident arrays that runs again with the same marker values,
// loop and arrays repeats its last launches (Replay.h), with the scalars of
// this execution. Each phase checks the arrays against a sequential run:
//   scalars  a kernel repeated with scalars that change every time (one
//            of them the bound of a loop in its body, which only the
//            machine model reads)
//   bounds   its loop bounds change every second time (replay, then plan)
//   updates  the host changes an input and updates the devices in between
//   regions  data regions made again, at the same addresses or not, with
//            sizes that change and come back
//   cyclic   CYCLIC(3) arrays: several launches per device
//   rows     rows of a 2-D array, a collapse(2) kernel, two kernels taking
//            turns
// HOMP_TRACE shows the repeated launches: 'scalars' runs 10 kernels on each
// device (on 4 devices, 2503 or 2502 iterations each), the first planned, 9
// replayed, with or without HOMP_INFO (which reports every execution, the
// replayed ones too).
// RUN: %hompcc -O2 %s -o %t
// RUN: %t | FileCheck %s
// RUN: env HOMP_DEVICES=0,2 %t | FileCheck %s
// RUN: env HOMP_DEVICES="1, host" %t | FileCheck %s
// RUN: env HOMP_INFO=1 %t 2>/dev/null | FileCheck %s
// RUN: rm -f %t.json && env HOMP_TRACE=%t.json %t scalars | FileCheck %s
// RUN: %python %S/Inputs/check-trace.py %t.json | FileCheck %s --check-prefixes=TRACE,TRACE-%ndev --allow-unused-prefixes -D#NDEV=%ndev
// RUN: rm -f %t.info.json && env HOMP_INFO=1 HOMP_TRACE=%t.info.json %t scalars 2>/dev/null | FileCheck %s
// RUN: %python %S/Inputs/check-trace.py %t.info.json | FileCheck %s --check-prefixes=TRACE,TRACE-%ndev --allow-unused-prefixes -D#NDEV=%ndev
// CHECK: PASS
// TRACE: device 0 (CPU) kernel events=10 bytes=0 iterations=[[#mul(10, div(NDEV + 10009, NDEV))]] replayed=9
// TRACE-4: device 1 (CPU) kernel events=10 bytes=0 iterations=25030 replayed=9
// TRACE-4: device 2 (CPU) kernel events=10 bytes=0 iterations=25020 replayed=9
// TRACE-4: device 3 (CPU) kernel events=10 bytes=0 iterations=25020 replayed=9

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures;

static void expect(const char *what, int n, const double *got,
                   const double *want) {
  for (int i = 0; i < n; ++i)
    if (got[i] != want[i]) {
      printf("FAIL %s n=%d: [%d] = %g, expected %g\n", what, n, i, got[i],
             want[i]);
      ++failures;
      return;
    }
}

static void fill(int n, double *x, double *y, double *ref) {
  for (int i = 0; i < n; ++i) {
    x[i] = (i % 17) * 0.25;
    y[i] = ref[i] = i % 5;
  }
}

static void scalars(int n, int kernels) {
  double *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y),
         *ref = malloc(n * sizeof *ref);
  fill(n, x, y, ref);
#pragma omp target data device(*) map(to: x[0:n] dist_data(BLOCK)) \
    map(tofrom: y[0:n] dist_data(BLOCK))
  for (int k = 0; k < kernels; ++k) {
    double a = 0.5 * (k + 1);
    int s = k % 3;
#pragma omp target teams distribute parallel for device(*)
    for (int i = 0; i < n; ++i)
      for (int r = 0; r <= s; ++r)
        y[i] += a * x[i] + s;
  }
  for (int k = 0; k < kernels; ++k)
    for (int i = 0; i < n; ++i)
      for (int r = 0; r <= k % 3; ++r)
        ref[i] += 0.5 * (k + 1) * x[i] + k % 3;
  expect("scalars", n, y, ref);
  free(x);
  free(y);
  free(ref);
}

static void bounds(int n) {
  double *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y),
         *ref = malloc(n * sizeof *ref);
  fill(n, x, y, ref);
#pragma omp target data device(*) map(to: x[0:n] dist_data(BLOCK)) \
    map(tofrom: y[0:n] dist_data(BLOCK))
  for (int k = 0; k < 24; ++k) {
    int lo = (k / 2) % 7, hi = n - (k / 2) % 5;
#pragma omp target teams distribute parallel for device(*)
    for (int i = lo; i < hi; ++i)
      y[i] += x[i] + k;
  }
  for (int k = 0; k < 24; ++k)
    for (int i = (k / 2) % 7; i < n - (k / 2) % 5; ++i)
      ref[i] += x[i] + k;
  expect("bounds", n, y, ref);
  free(x);
  free(y);
  free(ref);
}

/// The host changes x and updates the devices' parts between kernels: the
/// repeated launches read the new values.
static void updates(int n) {
  double *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y),
         *ref = malloc(n * sizeof *ref);
  fill(n, x, y, ref);
#pragma omp target data device(*) map(to: x[0:n] dist_data(BLOCK)) \
    map(tofrom: y[0:n] dist_data(BLOCK))
  for (int k = 0; k < 6; ++k) {
    for (int i = 0; i < n; ++i)
      x[i] = (i + k) % 9;
#pragma omp target update device(*) to(x[0:n])
#pragma omp target teams distribute parallel for device(*)
    for (int i = 0; i < n; ++i)
      y[i] += x[i];
  }
  for (int k = 0; k < 6; ++k)
    for (int i = 0; i < n; ++i)
      ref[i] += (i + k) % 9;
  expect("updates", n, y, ref);
  free(x);
  free(y);
  free(ref);
}

static void regions(void) {
  static const int Sizes[] = {500, 500, 537, 500, 64, 500};
  for (int r = 0; r < 6; ++r) {
    int n = Sizes[r];
    double *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y),
           *ref = malloc(n * sizeof *ref);
    fill(n, x, y, ref);
#pragma omp target data device(*) map(to: x[0:n] dist_data(BLOCK)) \
    map(tofrom: y[0:n] dist_data(BLOCK))
    for (int k = 0; k < 5; ++k) {
#pragma omp target teams distribute parallel for device(*)
      for (int i = 0; i < n; ++i)
        y[i] = 2 * y[i] + x[i];
    }
    for (int k = 0; k < 5; ++k)
      for (int i = 0; i < n; ++i)
        ref[i] = 2 * ref[i] + x[i];
    expect("regions", n, y, ref);
    free(x);
    free(y);
    free(ref);
  }
}

static void cyclic(int n) {
  double *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y),
         *ref = malloc(n * sizeof *ref);
  fill(n, x, y, ref);
#pragma omp target data device(*) map(to: x[0:n] dist_data(CYCLIC(3))) \
    map(tofrom: y[0:n] dist_data(CYCLIC(3)))
  for (int k = 0; k < 8; ++k) {
#pragma omp target teams distribute parallel for device(*) \
    dist_schedule(target: CYCLIC(3))
    for (int i = 0; i < n; ++i)
      y[i] += x[i] * (k + 1);
  }
  for (int k = 0; k < 8; ++k)
    for (int i = 0; i < n; ++i)
      ref[i] += x[i] * (k + 1);
  expect("cyclic", n, y, ref);
  free(x);
  free(y);
  free(ref);
}

static void rows(int n, int m) {
  double(*a)[m] = malloc(sizeof(double[n][m]));
  double(*b)[m] = malloc(sizeof(double[n][m]));
  double(*ra)[m] = malloc(sizeof(double[n][m]));
  double(*rb)[m] = malloc(sizeof(double[n][m]));
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < m; ++j) {
      a[i][j] = ra[i][j] = i + 0.5 * j;
      b[i][j] = rb[i][j] = 1;
    }
#pragma omp target data device(*) \
    map(tofrom: a[0:n][0:m] dist_data(BLOCK, DUPLICATE), \
                b[0:n][0:m] dist_data(BLOCK, DUPLICATE))
  for (int k = 0; k < 6; ++k) {
#pragma omp target teams distribute parallel for collapse(2) device(*)
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < m; ++j)
        b[i][j] += a[i][j] * k;
#pragma omp target teams distribute parallel for collapse(2) device(*)
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < m; ++j)
        a[i][j] = 0.5 * a[i][j] + b[i][j];
  }
  for (int k = 0; k < 6; ++k) {
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < m; ++j)
        rb[i][j] += ra[i][j] * k;
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < m; ++j)
        ra[i][j] = 0.5 * ra[i][j] + rb[i][j];
  }
  expect("rows a", n * m, &a[0][0], &ra[0][0]);
  expect("rows b", n * m, &b[0][0], &rb[0][0]);
  free(a);
  free(b);
  free(ra);
  free(rb);
}

int main(int argc, char **argv) {
  const char *only = argc > 1 ? argv[1] : "";
  if (!*only || !strcmp(only, "scalars"))
    scalars(10010, 10);
  if (!*only) {
    scalars(7, 30);
    bounds(1003);
    updates(999);
    regions();
    cyclic(1001);
    rows(37, 13);
  }
  if (!failures)
    printf("PASS\n");
  return failures != 0;
}
