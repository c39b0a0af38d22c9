// Every scheduler kind of HOMP'16 (SPEC.md section 3) gives the sequential
// answer: a loop with an uneven amount of work per iteration, arrays
// aligned with it, a duplicated input and a reduction, run several times
// (AUTO learns from the earlier runs), at odd sizes and with fewer
// iterations than devices. HOMP'16 Figure 2's axpy_homp_v2 runs as written.
// RUN: %hompcc -O2 %s -o %t
// RUN: %t AUTO 2>&1 | FileCheck %s --implicit-check-not=warning
// RUN: %hompcc -O2 -DKIND=SCHED_DYNAMIC %s -o %t.dyn && %t.dyn 2>&1 | FileCheck %s --implicit-check-not=warning
// RUN: %hompcc -O2 "-DKIND=SCHED_DYNAMIC(7)" %s -o %t.dyn7 && %t.dyn7 2>&1 | FileCheck %s --implicit-check-not=warning
// RUN: %hompcc -O2 "-DKIND=SCHED_GUIDED(3%)" %s -o %t.gui && %t.gui 2>&1 | FileCheck %s --implicit-check-not=warning
// RUN: %hompcc -O2 -DKIND=MODEL_1_AUTO %s -o %t.m1 && %t.m1 2>&1 | FileCheck %s --implicit-check-not=warning
// RUN: %hompcc -O2 -DKIND=MODEL_2_AUTO "-DCUTOFF=cutoff(auto)" %s -o %t.m2 && %t.m2 2>&1 | FileCheck %s --implicit-check-not=warning
// RUN: %hompcc -O2 "-DKIND=SCHED_PROFILE_AUTO(10%)" "-DCUTOFF=cutoff(15%)" %s -o %t.sp && %t.sp 2>&1 | FileCheck %s --implicit-check-not=warning
// RUN: %hompcc -O2 "-DKIND=MODEL_PROFILE_AUTO(3)" %s -o %t.mp && %t.mp 2>&1 | FileCheck %s --implicit-check-not=warning
// RUN: %hompcc -O2 -DKIND=SCHED_STATIC %s -o %t.st && %t.st 2>&1 | FileCheck %s --implicit-check-not=warning
// With the host (schedulers-emulate.test and schedulers-trials.test run it
// with devices that look slower):
// RUN: %hompcc -O2 "-DDEVS=0:2, host" -DKIND=SCHED_DYNAMIC %s -o %t.hdyn && %t.hdyn 2>&1 | FileCheck %s --implicit-check-not=warning
// HOMP_SCHEDULE chooses the kind of AUTO loops, in HOMP's syntax:
// RUN: env HOMP_SCHEDULE=SCHED_GUIDED,2%% %t 2>&1 | FileCheck %s --implicit-check-not=warning
// RUN: env LOOP_DIST_POLICY=MODEL_PROFILE_AUTO,10%%,15%% %t 2>&1 | FileCheck %s --implicit-check-not=warning
// RUN: env HOMP_SCHEDULE=BLOCK HOMP_CUTOFF=auto %t 2>&1 | FileCheck %s --implicit-check-not=warning
// CHECK-NOT: FAIL
// CHECK: PASS

#include <stdio.h>
#include <stdlib.h>

#ifndef DEVS
#define DEVS *
#endif
#ifndef KIND
#define KIND AUTO
#endif
#ifndef CUTOFF
#define CUTOFF
#endif

#define PRAGMA(x) _Pragma(#x)
#define STR(x) #x
#define XSTR(x) STR(x)

static int failures;

// Work grows with i: an even split is uneven in time.
static long work(long i, const long *w) {
  long s = 0;
  for (long k = 0; k < (i % 97); ++k)
    s += (i * k + w[k % 5]) % 13;
  return s;
}

static void run(int n, int times) {
  long *x = malloc(sizeof(long) * (n + 1));
  long *y = malloc(sizeof(long) * (n + 1));
  long *ref = malloc(sizeof(long) * (n + 1));
  long w[5] = {3, 1, 4, 1, 5};
  for (int i = 0; i < n; ++i)
    x[i] = i % 17;
  long want = 0;
  for (int i = 0; i < n; ++i) {
    ref[i] = x[i] + work(i, w);
    want += ref[i] % 7;
  }
  for (int t = 0; t < times; ++t) {
    long sum = 0;
    for (int i = 0; i < n; ++i)
      y[i] = -1;
    PRAGMA(omp parallel target device(DEVS)
               map(tofrom: y[0:n] partition([ALIGN(loop)]))
               map(to: x[0:n] partition([ALIGN(loop)]), w[0:5]))
    PRAGMA(omp parallel for distribute dist_schedule(target:[KIND]) CUTOFF
               reduction(+: sum))
    loop: for (int i = 0; i < n; ++i) {
      y[i] = x[i] + work(i, w);
      sum += y[i] % 7;
    }
    for (int i = 0; i < n; ++i)
      if (y[i] != ref[i]) {
        printf("FAIL %s n=%d run %d: y[%d] = %ld, expected %ld\n",
               XSTR(KIND), n, t, i, y[i], ref[i]);
        ++failures;
        break;
      }
    if (sum != want) {
      printf("FAIL %s n=%d run %d: sum %ld, expected %ld\n", XSTR(KIND), n, t,
             sum, want);
      ++failures;
    }
  }
  free(x);
  free(y);
  free(ref);
}

// HOMP'16 Figure 2, as written (REAL is double).
typedef double REAL;
void axpy_homp_v2(REAL *x, REAL *y, int n, REAL a) {
#pragma omp parallel target device (*) \
    map(tofrom: y[0:n] partition([ALIGN(loop)])) \
    map(to: x[0:n] partition([ALIGN(loop)]),a,n)
#pragma omp parallel for distribute \
    dist_schedule(target:[AUTO])
  loop: for (int i = 0; i < n; ++i)
    y[i] += a * x[i];
}

static void axpy(int n) {
  REAL *x = malloc(sizeof(REAL) * n), *y = malloc(sizeof(REAL) * n);
  for (int i = 0; i < n; ++i)
    x[i] = i, y[i] = 2 * i;
  for (int t = 0; t < 3; ++t)
    axpy_homp_v2(x, y, n, 0.5);
  for (int i = 0; i < n; ++i)
    if (y[i] != 2 * i + 1.5 * i) {
      printf("FAIL axpy n=%d: y[%d] = %g\n", n, i, y[i]);
      ++failures;
      break;
    }
  free(x);
  free(y);
}

int main(void) {
  // AUTO: a sample, its five trials, up to four of them again (warm), up
  // to four again (to confirm), then its choice.
  run(1001, 16);
  run(3, 2);
  run(1, 1);
  run(0, 1);
  run(20011, 7);
  axpy(100003);
  axpy(2);
  if (!failures)
    printf("PASS\n");
  return failures != 0;
}
