// LOOP_DIST_POLICY in HOMP's own numbered form (its runtime's usage text:
// '8,10%', '12,10%,0.01%') chooses the kind of AUTO loops, as the named
// form does; HOMP_INFO names the variable that chose it. HOMP'16 Figure 2's
// AXPY, against sequential values.
// RUN: %hompcc -O2 %s -o %t
// RUN: env LOOP_DIST_POLICY=8,10%% HOMP_INFO=1 %t 2>&1 | FileCheck %s --check-prefix=DYNAMIC
// RUN: env LOOP_DIST_POLICY=12,10%%,0.01%% HOMP_INFO=1 %t 2>&1 | FileCheck %s --check-prefix=MODEL
// RUN: env LOOP_DIST_POLICY=13,5%%,auto HOMP_INFO=1 %t 2>&1 | FileCheck %s --check-prefix=PROFILE
// RUN: env LOOP_DIST_POLICY=MODEL_1_AUTO HOMP_SCHEDULE=SCHED_GUIDED HOMP_INFO=1 %t 2>&1 | FileCheck %s --check-prefix=BOTH
// RUN: not env LOOP_DIST_POLICY=10,200 %t 2>&1 | FileCheck %s --check-prefix=BAD
// DYNAMIC: schedule SCHED_DYNAMIC, chunks of 1000 (LOOP_DIST_POLICY)
// DYNAMIC: PASS
// MODEL: schedule MODEL_2_AUTO (LOOP_DIST_POLICY;
// MODEL: PASS
// PROFILE: schedule SCHED_PROFILE_AUTO, sample of 500 (LOOP_DIST_POLICY)
// PROFILE: PASS
// BOTH: schedule SCHED_GUIDED, {{.*}}(HOMP_SCHEDULE)
// BOTH: PASS
// BAD: homp: error: LOOP_DIST_POLICY='10,200' is not valid; expected KIND[,chunk][,cutoff] with KIND one of BLOCK, {{.*}} (or HOMP's ids 1, 8, 9, 11, 12, 13, 14)

#include <stdio.h>
#include <stdlib.h>

void axpy_homp_v2(double *x, double *y, int n, double a) {
#pragma omp parallel target device(*) map(tofrom: y[0:n] partition([ALIGN(loop)])) \
    map(to: x[0:n] partition([ALIGN(loop)]), a, n)
#pragma omp parallel for distribute dist_schedule(target: [AUTO])
loop:
  for (int i = 0; i < n; ++i)
    y[i] += a * x[i];
}

int main(void) {
  int n = 10000, Bad = 0;
  double *x = malloc(sizeof(double) * n), *y = malloc(sizeof(double) * n);
  for (int i = 0; i < n; ++i) {
    x[i] = i;
    y[i] = 1;
  }
  axpy_homp_v2(x, y, n, 2);
  for (int i = 0; i < n; ++i)
    Bad += y[i] != 1 + 2.0 * i;
  puts(Bad ? "FAIL" : "PASS");
  free(x);
  free(y);
  return Bad != 0;
}
