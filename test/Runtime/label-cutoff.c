// A labelled loop's own cutoff clause, and HOMP_SCHEDULE's cutoff, apply to
// the split its data region decides for it when the region begins, as they
// do to a kernel of its own (HOMP'16 Figure 3's form). With the machine
// file the model gives each CPU offload device 10/65 of the loop and the
// host 25/65, so a cutoff of 0.3 leaves the host alone.
// RUN: %hompcc -O2 %s -o %t
// RUN: env HOMP_MACHINE=%S/Inputs/machine-fast-host.ini HOMP_INFO=1 %t clause 2>&1 | FileCheck %s
// RUN: env HOMP_MACHINE=%S/Inputs/machine-fast-host.ini HOMP_SCHEDULE=MODEL_1_AUTO,-1,0.3 HOMP_INFO=1 %t none 2>&1 | FileCheck %s
// A profile kind's cutoff leaves a device that measured slow in the sample
// only its sample, and HOMP_INFO names it.
// RUN: env HOMP_EMULATE=0:50 HOMP_INFO=1 %t profile 2>&1 | FileCheck %s --check-prefix=PROFILE
// PROFILE: homp: region {{.*}}label-cutoff.c:[[# @LINE + 49]]:1: 200000 iterations on {{[0-9]+}} devices; schedule SCHED_PROFILE_AUTO, sample of 20000; cut off: 0{{(,| in)}}
// PROFILE: PASS
// A device cut off after its sample keeps its row, the sample, but is left
// out of the imbalance, as a device cut off before the loop has no row:
// with device 0 and the host, the host's time alone, 1.00. Device 0 is
// made 200 times slower and the host's threads exist before the sample, so
// that a busy machine does not make the host's sample look as slow.
// RUN: env HOMP_EMULATE=0:200 HOMP_INFO=1 %t sample 2>&1 | FileCheck %s --check-prefix=SAMPLE
// SAMPLE: homp: region {{.*}}label-cutoff.c:[[# @LINE + 50]]:1: 200000 iterations on 2 devices; schedule SCHED_PROFILE_AUTO, sample of 20000; cut off: 0{{(; the sample found .*)?}} in {{[0-9.]+}} ms, imbalance 1.00{{$}}
// SAMPLE-NEXT: homp:   device
// SAMPLE-NEXT: homp:   0        CPU    [{{[0-9]+}}, {{[0-9]+}})/4{{ +}}4{{ +[0-9]+ +[0-9]+ +[0-9.]+$}}
// SAMPLE-NEXT: homp:   host     HOST   [0, 200000)/5{{ +[0-9]+ +}}0{{ +}}0{{ +[0-9.]+$}}
// SAMPLE: PASS
// Without a cutoff every device takes part.
// RUN: env HOMP_MACHINE=%S/Inputs/machine-fast-host.ini HOMP_INFO=1 %t none 2>&1 | FileCheck %s --check-prefix=ALL
// CHECK: homp: region {{.*}}label-cutoff.c:{{45|76}}:1: 1000 iterations on 1 device;
// CHECK: homp: region {{.*}}label-cutoff.c:{{54|85}}:1: 1000 iterations on 1 device; the {{MODEL_1_AUTO|AUTO}} loop 'loop1' keeps the split its data region gave it
// CHECK: PASS
// ALL: homp: region {{.*}}label-cutoff.c:85:1: 1000 iterations on {{[2-9]}} devices; the AUTO loop 'loop1'
// ALL: PASS

#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
  int n = strcmp(argv[1], "profile") && strcmp(argv[1], "sample") ? 1000 : 200000,
      Bad = 0;
  double *x = malloc(sizeof(double) * n), *y = malloc(sizeof(double) * n);
  for (int i = 0; i < n; ++i)
    x[i] = i, y[i] = 1;
  if (!strcmp(argv[1], "clause")) {
#pragma omp parallel target device(*, host) map(tofrom: y[0:n] partition([ALIGN(loop0)])) \
    map(to: x[0:n] partition([ALIGN(loop0)]))
#pragma omp parallel for distribute dist_schedule(target: [MODEL_1_AUTO]) cutoff(0.3)
  loop0:
    for (int i = 0; i < n; ++i)
      y[i] += x[i];
#pragma omp parallel target data device(*, host) map(to: x[0:n] partition([ALIGN(loop1)])) \
    map(tofrom: y[0:n] partition([ALIGN(loop1)]))
    {
#pragma omp parallel target device(*, host)
#pragma omp parallel for distribute dist_schedule(target: [MODEL_1_AUTO]) cutoff(0.3)
    loop1:
      for (int i = 0; i < n; ++i)
        y[i] += x[i];
    }
  } else if (!strcmp(argv[1], "profile")) {
#pragma omp parallel target device(*, host) map(tofrom: y[0:n] partition([ALIGN(loop3)])) \
    map(to: x[0:n] partition([ALIGN(loop3)]))
#pragma omp parallel for distribute dist_schedule(target: [SCHED_PROFILE_AUTO(10%)]) cutoff(15%)
  loop3:
    for (int i = 0; i < n; ++i)
      y[i] += 2 * x[i];
  } else if (!strcmp(argv[1], "sample")) {
#pragma omp parallel
    Bad += omp_get_num_threads() < 1;
#pragma omp target device(0, host) map(tofrom: y[0:n] dist_data(ALIGN(loop))) \
    map(to: x[0:n] dist_data(ALIGN(loop)))
#pragma omp parallel for dist_iteration(SCHED_PROFILE_AUTO(10%)) cutoff(15%)
    for (int i = 0; i < n; ++i)
      y[i] += 2 * x[i];
  } else {
#pragma omp parallel target device(*, host) map(tofrom: y[0:n] partition([ALIGN(loop2)])) \
    map(to: x[0:n] partition([ALIGN(loop2)]))
#pragma omp parallel for distribute dist_schedule(target: [AUTO])
  loop2:
    for (int i = 0; i < n; ++i)
      y[i] += x[i];
#pragma omp parallel target data device(*, host) map(to: x[0:n] partition([ALIGN(loop1)])) \
    map(tofrom: y[0:n] partition([ALIGN(loop1)]))
    {
#pragma omp parallel target device(*, host)
#pragma omp parallel for distribute dist_schedule(target: [AUTO])
    loop1:
      for (int i = 0; i < n; ++i)
        y[i] += x[i];
    }
  }
  for (int i = 0; i < n; ++i)
    Bad += y[i] != 1 + 2.0 * i;
  puts(Bad ? "FAIL" : "PASS");
  free(x);
  free(y);
  return Bad != 0;
}
