// The memory cap (memory-cap.c) where a loop's shares are not its
// schedule's own: a labelled AUTO loop whose data region decides its split
// when the region begins (HOMP'16 Figure 3's form), and a loop run in one
// share per device because a duplicated array is mapped back. The machine
// file gives device 0 0.1 MB, far less than a quarter of x and y (16 bytes
// an iteration); the HOMP_INFO rows show device 0 never held more than
// fits, and the results are the sequential ones. Each form was seen to
// give device 0 its full quarter before it was capped.
// REQUIRES: devices-2
// RUN: %hompcc -O2 %s -o %t
// RUN: env HOMP_MACHINE=%S/Inputs/machine-memsize.ini HOMP_INFO=1 %t data 2>&1 | FileCheck %s --check-prefix=DATA
// RUN: env HOMP_MACHINE=%S/Inputs/machine-memsize.ini HOMP_INFO=1 %t data 2>&1 | %python %S/Inputs/check-cap.py 0 100000 16 | FileCheck %s --check-prefix=FITS
// RUN: env HOMP_MACHINE=%S/Inputs/machine-memsize.ini HOMP_INFO=1 %t dup 2>&1 | FileCheck %s --check-prefix=DUP
// RUN: env HOMP_MACHINE=%S/Inputs/machine-memsize.ini HOMP_INFO=1 %t dup 2>&1 | %python %S/Inputs/check-cap.py 0 100000 16 | FileCheck %s --check-prefix=FITS
// A profile kind in one share per device keeps its cutoff: the model's
// shares, with the copies counted (cutoff-copies.c's device 0, which
// copies at 1 MB/s, is cut).
// RUN: env HOMP_MACHINE=%S/Inputs/machine-one-slow-copier.ini HOMP_INFO=1 %t cut 2>&1 | FileCheck %s --check-prefix=CUT
// DATA: the AUTO loop 'rows' keeps the split its data region gave it (capped by memory: 0)
// DATA: PASS
// FITS: device 0: within its memory in {{[0-9]+}} executions
// DUP: schedule SCHED_DYNAMIC (in one share per device: 'seen' is duplicated and mapped back; capped by memory: 0)
// DUP: PASS
// CUT: schedule MODEL_PROFILE_AUTO ({{.*}}in one share per device: 'seen' is duplicated and mapped back); cut off: 0 in
// CUT: PASS

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
  int n = 200000, failures = 0, seen[64] = {0};
  double *x = malloc(sizeof(double) * n), *y = malloc(sizeof(double) * n);
  for (int i = 0; i < n; ++i) {
    x[i] = i % 101;
    y[i] = i % 7;
  }
  if (argc > 1 && !strcmp(argv[1], "data")) {
#pragma omp parallel target data device(*) map(to: x[0:n] partition([ALIGN(rows)])) \
    map(tofrom: y[0:n] partition([ALIGN(rows)]))
    {
      for (int rep = 0; rep < 3; ++rep) {
#pragma omp parallel target device(*)
#pragma omp parallel for distribute dist_schedule(target: [AUTO])
      rows:
        for (int i = 0; i < n; ++i)
          y[i] += 0.5 * x[i];
      }
    }
    for (int i = 0; i < 64; ++i)
      seen[i] = 1;
  } else {
    int cut = argc > 1 && !strcmp(argv[1], "cut");
    for (int rep = 0; rep < 3; ++rep) {
      if (cut) {
#pragma omp target device(*) map(to: x[0:n] dist_data(ALIGN(loop2))) \
    map(tofrom: y[0:n] dist_data(ALIGN(loop2)), seen[0:64])
#pragma omp parallel for dist_schedule(target: [MODEL_PROFILE_AUTO]) cutoff(1%)
      loop2:
        for (int i = 0; i < n; ++i) {
          y[i] += 0.5 * x[i];
          seen[i % 64] = 1;
        }
      } else {
#pragma omp target device(*) map(to: x[0:n] dist_data(ALIGN(loop3))) \
    map(tofrom: y[0:n] dist_data(ALIGN(loop3)), seen[0:64])
#pragma omp parallel for dist_schedule(target: [SCHED_DYNAMIC])
      loop3:
        for (int i = 0; i < n; ++i) {
          y[i] += 0.5 * x[i];
          seen[i % 64] = 1;
        }
      }
    }
  }
  for (int i = 0; i < n; ++i)
    if (y[i] != i % 7 + 3 * 0.5 * (i % 101) && ++failures <= 5)
      printf("FAIL: y[%d] = %g\n", i, y[i]);
  for (int i = 0; i < 64; ++i)
    if (seen[i] != 1 && ++failures <= 5)
      printf("FAIL: seen[%d] = %d\n", i, seen[i]);
  printf(failures ? "FAIL\n" : "PASS\n");
  free(x);
  free(y);
  return failures != 0;
}
