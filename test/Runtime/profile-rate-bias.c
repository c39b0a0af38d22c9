// A profile kind's sample is a slice of each stratum of the loop, and,
// once it found the costs even, the loop's first iterations; here those
// are cheap (a boundary that does nothing, as a stencil's): the rate a
// device measures on its sample part is not its rate on the rest. From the
// region's second execution on, a device's sample part counts in its rate
// for what the earlier executions found it worth (its rate on the rest over
// its rate on the sample part), and HOMP_INFO says so; the first execution
// has nothing to go by. The results are exact, checked against sequential
// code, with or without a device made slower. (How many executions taught
// it depends on which devices ran pieces or a share of the rest: the count
// is not checked.)
// REQUIRES: devices-2
// RUN: %hompcc -O2 %s -o %t
// RUN: env HOMP_DEVICES=0,1 HOMP_INFO=1 %t 2>&1 | FileCheck %s
// RUN: env HOMP_DEVICES=0,1 HOMP_EMULATE=0:4 HOMP_INFO=1 %t 2>&1 | FileCheck %s
// CHECK: homp: region {{.*}}profile-rate-bias.c:[[# @LINE + 23]]:1: 20000 iterations on 2 devices; schedule SCHED_PROFILE_AUTO, sample of 2000{{(;| in)}}
// CHECK: homp: region {{.*}}profile-rate-bias.c:[[# @LINE + 22]]:1: 20000 iterations on 2 devices; schedule SCHED_PROFILE_AUTO, sample of 2000 ({{(its first iterations: the costs were even; )?}}rates corrected by {{[0-9]+}} earlier execution{{s?}}){{(;| in)}}
// CHECK: PASS

#include <stdio.h>

enum { N = 20000, Boundary = N / 100, Times = 8 };
static double x[N], y[N];

static double heavy(double v) {
  double s = 0;
  for (int k = 0; k < 2000; k++)
    s += (v + k) * 0.5 - (double)(k % 7);
  return s;
}

int main(void) {
  for (int i = 0; i < N; i++)
    x[i] = i % 101;
  int bad = 0;
  for (int t = 0; t < Times; t++) {
    for (int i = 0; i < N; i++)
      y[i] = -1;
#pragma omp target device(*) map(to: x[0:N] dist_data(ALIGN(loop))) map(tofrom: y[0:N] dist_data(ALIGN(loop)))
#pragma omp teams distribute parallel for dist_schedule(target: SCHED_PROFILE_AUTO(10%))
    for (int i = 0; i < N; i++)
      y[i] = i < Boundary ? x[i] : heavy(x[i]);
    for (int i = 0; i < N; i++)
      bad += y[i] != (i < Boundary ? x[i] : heavy(x[i]));
  }
  printf("%s\n", bad ? "FAIL" : "PASS");
  return bad != 0;
}
