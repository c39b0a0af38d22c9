// A device failing under a scheduler that hands out chunks or a sample
// takes no more of the loop, and the host runs the chunk or sample that
// failed: the results and the reduction still match sequential code, with
// a warning naming the region and the device. A failure after some of the
// device's chunks came back reruns only the failed one. HOMP_FAULT injects
// the failures, on devices 0 to 3. (Which device takes which chunk of a
// queue depends on timing: those runs check the results only.)
// REQUIRES: devices-4
// RUN: %hompcc -O2 %s -o %t
// RUN: env HOMP_FAULT=1:alloc %t profile 2>&1 | FileCheck %s --check-prefix=SAMPLE
// RUN: env HOMP_FAULT=2:launch %t auto 2>&1 | FileCheck %s --check-prefix=AUTO
// RUN: env HOMP_FAULT=0:copy,3:launch %t guided 2>&1 | FileCheck %s --check-prefix=RESULTS
// RUN: env HOMP_FAULT=1:alloc:after=2 %t dynamic 2>&1 | FileCheck %s --check-prefix=RESULTS
// A profile kind's device that fails after its sample, on a piece of the
// rest or on its share of it (device 0 slower: the others take pieces):
// RUN: env HOMP_FAULT=1:launch:after=1 %t profile 2>&1 | FileCheck %s --check-prefix=RESULTS
// RUN: env HOMP_FAULT=1:launch:after=1 HOMP_EMULATE=0:20 %t profile 2>&1 | FileCheck %s --check-prefix=RESULTS
// RUN: env HOMP_FAULT=1:launch:after=2 HOMP_EMULATE=0:20 %t profile 2>&1 | FileCheck %s --check-prefix=RESULTS
// RUN: env HOMP_FAULT=0:alloc,1:alloc,2:alloc,3:alloc %t dynamic 2>&1 | FileCheck %s --check-prefix=RESULTS
// RUN: env HOMP_FAULT=0:alloc,1:alloc,2:alloc,3:alloc %t profile 2>&1 | FileCheck %s --check-prefix=RESULTS
// RUN: not env HOMP_FAULT=1:alloc OMP_TARGET_OFFLOAD=MANDATORY %t profile 2>&1 | FileCheck %s --check-prefix=MANDATORY

// SAMPLE: homp: warning: region {{.*}}device-failure-schedules.c:[[# @LINE + 21]]:1: device 1 cannot allocate {{[0-9]+}} bytes for its part of '{{x|y}}'; running its part on the host
// SAMPLE: profile: PASS
// AUTO: homp: warning: region {{.*}}device-failure-schedules.c:[[# @LINE + 26]]:1: device 2 failed to run its part; running its part on the host
// AUTO: auto: PASS
// RESULTS-NOT: error
// RESULTS: : PASS
// MANDATORY: homp: error: region {{.*}}device-failure-schedules.c:[[# @LINE + 15]]:1: device 1 cannot allocate
// MANDATORY-NOT: PASS

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
  enum { n = 30011, Rounds = 3 };
  static double x[n], y[n];
  long sum = 0, want = 0;
  for (int i = 0; i < n; ++i)
    x[i] = i;
  for (int r = 0; r < Rounds; ++r) {
    if (!strcmp(argv[1], "profile")) {
#pragma omp target device(*) map(tofrom: y[0:n] dist_data(ALIGN(loop))) map(to: x[0:n] dist_data(ALIGN(loop)))
#pragma omp parallel for reduction(+: sum) dist_iteration(SCHED_PROFILE_AUTO(10%))
      for (int i = 0; i < n; ++i) {
        y[i] += 2 * x[i];
        sum += (long)x[i] % 7;
      }
    } else if (!strcmp(argv[1], "auto")) {
#pragma omp target device(*) map(tofrom: y[0:n] dist_data(ALIGN(loop))) map(to: x[0:n] dist_data(ALIGN(loop)))
#pragma omp parallel for reduction(+: sum) dist_iteration(AUTO)
      for (int i = 0; i < n; ++i) {
        y[i] += 2 * x[i];
        sum += (long)x[i] % 7;
      }
    } else if (!strcmp(argv[1], "guided")) {
#pragma omp target device(*) map(tofrom: y[0:n] dist_data(ALIGN(loop))) map(to: x[0:n] dist_data(ALIGN(loop)))
#pragma omp parallel for reduction(+: sum) dist_iteration(SCHED_GUIDED(100))
      for (int i = 0; i < n; ++i) {
        y[i] += 2 * x[i];
        sum += (long)x[i] % 7;
      }
    } else {
#pragma omp target device(*) map(tofrom: y[0:n] dist_data(ALIGN(loop))) map(to: x[0:n] dist_data(ALIGN(loop)))
#pragma omp parallel for reduction(+: sum) dist_iteration(SCHED_DYNAMIC(500))
      for (int i = 0; i < n; ++i) {
        y[i] += 2 * x[i];
        sum += (long)x[i] % 7;
      }
    }
  }
  int Bad = 0;
  for (int i = 0; i < n; ++i) {
    Bad += y[i] != Rounds * 2.0 * i;
    want += Rounds * (i % 7);
  }
  printf("%s: %s\n", argv[1], Bad || sum != want ? "FAIL" : "PASS");
  return Bad != 0 || sum != want;
}
