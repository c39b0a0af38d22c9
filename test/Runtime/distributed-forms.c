// The spellings of a distributed AXPY (PMAM'15 Figure 1, HOMP'16 Figure 2,
// the combined construct, a 'teams distribute' loop in a 'target' region)
// and a distributed sum, the last three also scheduling each device's part
// over its teams ('dist_schedule(teams: static[, c])'), on 1 to 4 offload
// devices, with and without the host, for sizes 0 to 1001 (zero-trip loops,
// fewer elements than devices, odd sizes), compared exactly with a
// sequential reference. distributed-forms-from.test runs it on 'device(2:*)'.
// RUN: %hompcc -O2 -DDEVS="0:1" %s -o %t.1 && %t.1 2>&1 | FileCheck %s --implicit-check-not=warning
// RUN: %hompcc -O2 -DDEVS="0:2" %s -o %t.2 && %t.2 2>&1 | FileCheck %s --implicit-check-not=warning
// RUN: %hompcc -O2 -DDEVS="0:3" %s -o %t.3 && %t.3 2>&1 | FileCheck %s --implicit-check-not=warning
// RUN: %hompcc -O2 -DDEVS="*" %s -o %t.4 && %t.4 2>&1 | FileCheck %s --implicit-check-not=warning
// RUN: %hompcc -O2 -DDEVS="*, host" %s -o %t.4h && %t.4h 2>&1 | FileCheck %s --implicit-check-not=warning
// RUN: %hompcc -O2 -DDEVS="host" %s -o %t.h && %t.h 2>&1 | FileCheck %s --implicit-check-not=warning
// RUN: %hompcc -O2 -DDEVS="3, 1, host, 1" %s -o %t.list && %t.list 2>&1 | FileCheck %s --implicit-check-not=warning
// RUN: %hompcc -O2 -DDEVS=":2, 7, 3:5" %s -o %t.mixed && %t.mixed 2>&1 | FileCheck %s --implicit-check-not=warning
// CHECK-NOT: FAIL
// CHECK: PASS

#include <stdio.h>
#include <stdlib.h>

#define REAL double

void axpy_mdev_v2(REAL *x, REAL *y, int n, REAL a) {
#pragma omp target device(DEVS) map(tofrom: y[0:n] dist_data(BLOCK)) \
                                map(to: x[0:n] dist_data(BLOCK), a, n)
#pragma omp parallel for shared(x, y, n, a) dist_iteration(BLOCK)
  for (int i = 0; i < n; ++i)
    y[i] += a * x[i];
}

void axpy_homp_v1(REAL *x, REAL *y, int n, REAL a) {
#pragma omp parallel target device(DEVS) \
    map(tofrom: y[0:n] partition([BLOCK])) \
    map(to: x[0:n] partition([BLOCK]), a, n)
#pragma omp parallel for distribute dist_schedule(target: [ALIGN(x)])
  for (int i = 0; i < n; ++i)
    y[i] += a * x[i];
}

void axpy_combined(REAL *x, REAL *y, int n, REAL a) {
#pragma omp target teams distribute parallel for device(DEVS) \
    map(tofrom: y[0:n] dist_data(BLOCK)) map(to: x[0:n] dist_data(BLOCK)) \
    dist_iteration(BLOCK) dist_schedule(teams: static, 2)
  for (int i = 0; i < n; ++i)
    y[i] += a * x[i];
}

void axpy_teams_inner(REAL *x, REAL *y, int n, REAL a) {
#pragma omp target device(DEVS) map(tofrom: y[0:n] dist_data(BLOCK)) \
                                map(to: x[0:n] dist_data(BLOCK))
#pragma omp teams distribute parallel for dist_schedule(target: BLOCK) \
    dist_schedule(teams: static, 3)
  for (int i = 0; i < n; ++i)
    y[i] += a * x[i];
}

long sum(const int *v, int n) {
  long s = 5;
#pragma omp target teams distribute parallel for device(DEVS) \
    map(to: v[0:n] dist_data(BLOCK)) reduction(+: s) \
    dist_schedule(teams: static)
  for (int i = 0; i < n; ++i)
    s += v[i];
  return s;
}

static int failures;

static void check(const char *what, int n, const REAL *y, const REAL *ref) {
  for (int i = 0; i < n; ++i)
    if (y[i] != ref[i]) {
      printf("FAIL %s n=%d: y[%d] = %g, expected %g\n", what, n, i, y[i], ref[i]);
      ++failures;
      return;
    }
}

int main(void) {
  static const int Sizes[] = {0, 1, 2, 3, 4, 5, 7, 8, 100, 1001};
  for (unsigned s = 0; s < sizeof Sizes / sizeof Sizes[0]; ++s) {
    int n = Sizes[s];
    REAL *x = malloc((n + 1) * sizeof *x), *y = malloc((n + 1) * sizeof *y);
    REAL *ref = malloc((n + 1) * sizeof *ref);
    int *v = malloc((n + 1) * sizeof *v);
    for (int i = 0; i < n; ++i) {
      x[i] = i % 17;
      y[i] = ref[i] = 3 * i;
      v[i] = i * (i % 5);
    }
    axpy_mdev_v2(x, y, n, 2.0);
    for (int i = 0; i < n; ++i)
      ref[i] += 2.0 * x[i];
    check("axpy_mdev_v2", n, y, ref);
    axpy_homp_v1(x, y, n, -1.0);
    for (int i = 0; i < n; ++i)
      ref[i] += -1.0 * x[i];
    check("axpy_homp_v1", n, y, ref);
    axpy_combined(x, y, n, 4.0);
    for (int i = 0; i < n; ++i)
      ref[i] += 4.0 * x[i];
    check("axpy_combined", n, y, ref);
    axpy_teams_inner(x, y, n, 0.5);
    for (int i = 0; i < n; ++i)
      ref[i] += 0.5 * x[i];
    check("axpy_teams_inner", n, y, ref);
    long expected = 5;
    for (int i = 0; i < n; ++i)
      expected += v[i];
    long got = sum(v, n);
    if (got != expected) {
      printf("FAIL sum n=%d: %ld, expected %ld\n", n, got, expected);
      ++failures;
    }
    free(x);
    free(y);
    free(ref);
    free(v);
  }
  puts(failures ? "FAIL" : "PASS");
  return failures != 0;
}
