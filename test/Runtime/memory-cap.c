// A device's share stays within its memory (issue 8): the machine file's
// memsize (homp's key) gives device 0 0.1 MB, far less than a quarter of
// the loop's arrays. Model kinds, AUTO (whose 'fastest device alone' trial
// then takes another device) and a profile kind cap device 0 and give the
// rest to the others; the result is the sequential one. The HOMP_INFO rows
// show device 0 never held more than fits (16 bytes an iteration: x and y).
// On one device there are no others to take the rest (the shares then stay
// as they are).
// REQUIRES: devices-2
// RUN: %hompcc -O2 %s -o %t.m1
// RUN: env HOMP_MACHINE=%S/Inputs/machine-memsize.ini %t.m1 2>&1 | FileCheck %s --implicit-check-not=warning
// RUN: env HOMP_MACHINE=%S/Inputs/machine-memsize.ini HOMP_INFO=1 %t.m1 2>&1 | FileCheck %s --check-prefix=MODEL -DDEVICES="%devices"
// RUN: env HOMP_MACHINE=%S/Inputs/machine-memsize.ini HOMP_INFO=1 %t.m1 2>&1 | %python %S/Inputs/check-cap.py 0 100000 16 | FileCheck %s --check-prefix=FITS
// RUN: %hompcc -O2 -DKIND=AUTO %s -o %t.auto
// RUN: env HOMP_MACHINE=%S/Inputs/machine-memsize.ini HOMP_INFO=1 %t.auto 2>&1 | FileCheck %s --check-prefixes=AUTO,AUTO-%ndev --allow-unused-prefixes
// RUN: env HOMP_MACHINE=%S/Inputs/machine-memsize.ini HOMP_INFO=1 %t.auto 2>&1 | %python %S/Inputs/check-cap.py 0 100000 16 | FileCheck %s --check-prefix=FITS
// RUN: env HOMP_MACHINE=%S/Inputs/machine-memsize.ini HOMP_INFO=1 HOMP_DEVICES=0,1 HOMP_SCHEDULE=SCHED_PROFILE_AUTO,8%% %t.auto 2>&1 | FileCheck %s --check-prefix=PROFILE
// Without memsize nothing is capped.
// RUN: env HOMP_MACHINE=%S/../Driver/Inputs/machine.ini HOMP_INFO=1 %t.m1 2>&1 | FileCheck %s --check-prefix=NOCAP
// CHECK: PASS
// MODEL: 200000 iterations on [[DEVICES]]; schedule MODEL_1_AUTO (model: 2 operations, 24 bytes copied per iteration; capped by memory: 0)
// Device 0 holds x and y once each, 16 bytes an iteration (24 are copied,
// y both ways): 10^5 / 16 - 1 iterations.
// MODEL-NEXT: homp:   device
// MODEL-NEXT: homp: 0 CPU [0, 6249)
// MODEL: PASS
// FITS: device 0: within its memory in {{[0-9]+}} executions
// AUTO: schedule AUTO: MODEL_2_AUTO (first execution: machine model; model: 2 operations, 24 bytes copied per iteration; capped by memory: 0)
// AUTO: 200000 iterations on 1 device; schedule AUTO: fastest device alone (trial {{[2-5] of [2-5]}}{{.*}}); cut off: 0
// AUTO-4-SAME: {{^}}, {{[0-9]}}, {{[0-9]}} in
// AUTO: PASS
// PROFILE: schedule SCHED_PROFILE_AUTO, sample of 16000 (HOMP_SCHEDULE; capped by memory: 0)
// PROFILE: PASS
// NOCAP-NOT: capped
// NOCAP: PASS

#include <stdio.h>
#include <stdlib.h>

#ifndef KIND
#define KIND MODEL_1_AUTO
#endif
#define PRAGMA(x) _Pragma(#x)

int main(void) {
  int n = 200000, failures = 0;
  double *x = malloc(sizeof(double) * n), *y = malloc(sizeof(double) * n);
  for (int i = 0; i < n; ++i) {
    x[i] = i % 101;
    y[i] = i % 7;
  }
  // For AUTO, a first execution, its four trials, then its choice.
  for (int rep = 0; rep < 7; ++rep) {
    PRAGMA(omp target device(*) map(to: x[0:n] dist_data(ALIGN(loop))) \
           map(tofrom: y[0:n] dist_data(ALIGN(loop))))
    PRAGMA(omp parallel for dist_schedule(target: [KIND]))
    loop: for (int i = 0; i < n; ++i)
      y[i] += 0.5 * x[i];
  }
  for (int i = 0; i < n; ++i)
    if (y[i] != i % 7 + 7 * 0.5 * (i % 101) && ++failures <= 5)
      printf("FAIL: y[%d] = %g\n", i, y[i]);
  printf(failures ? "FAIL\n" : "PASS\n");
  free(x);
  free(y);
  return failures != 0;
}
