// The cutoff is aware of data movement (issue 8): a device whose copies
// cost more than its share saves is cut too. The machine file gives four
// CPU offload devices the same rate, so MODEL_1_AUTO splits the loop
// evenly, but device 0 copies at 1 MB/s: the 1 MB table every device gets
// whole (DUPLICATE) would cost it a second, against the few microseconds
// its quarter of the loop saves the others. With a cutoff (any ratio:
// here 1%, which no share is under; 0 too) device 0 is cut; the others, alike,
// each save more than their copies cost and stay. Without a cutoff every
// device takes part, as before. The results are the sequential ones.
// REQUIRES: devices-2
// RUN: %hompcc -O2 %s -o %t
// RUN: env HOMP_MACHINE=%S/Inputs/machine-one-slow-copier.ini HOMP_INFO=1 %t 2>&1 | FileCheck %s --check-prefix=CUT
// RUN: env HOMP_MACHINE=%S/Inputs/machine-one-slow-copier.ini HOMP_INFO=1 HOMP_CUTOFF=auto %t plain 2>&1 | FileCheck %s --check-prefix=CUT
// A ratio of 0 cuts by the copies alone.
// RUN: env HOMP_MACHINE=%S/Inputs/machine-one-slow-copier.ini HOMP_INFO=1 HOMP_CUTOFF=0 %t plain 2>&1 | FileCheck %s --check-prefix=CUT
// RUN: env HOMP_MACHINE=%S/Inputs/machine-one-slow-copier.ini HOMP_INFO=1 %t plain 2>&1 | FileCheck %s --check-prefix=ALL
// A ratio above every share keeps one device: not device 0, the first of
// the equal shares, which the copies cut first.
// RUN: env HOMP_MACHINE=%S/Inputs/machine-one-slow-copier.ini HOMP_INFO=1 HOMP_CUTOFF=60%% %t plain 2>&1 | FileCheck %s --check-prefix=HALF
// HALF: homp: region {{.*}}cutoff-copies.c:{{[0-9]+}}:1: 20000 iterations on 1 device; schedule MODEL_1_AUTO ({{.*}}); cut off: 0{{(, [0-9])*}} in
// HALF-NEXT: homp:   device
// HALF-NEXT: homp:   1 {{.*}} [0, 20000)
// HALF: PASS
// The ratio alone would not cut device 0: its share is 1/4.
// CUT: homp: region {{.*}}cutoff-copies.c:{{[0-9]+}}:1: 20000 iterations on {{[0-9]+}} device{{s?}}; schedule MODEL_1_AUTO ({{.*}}); cut off: 0 in
// CUT: PASS
// ALL-NOT: cut off
// ALL: homp: region {{.*}}cutoff-copies.c:{{[0-9]+}}:1: 20000 iterations on {{[0-9]+}} devices; schedule MODEL_1_AUTO ({{.*}}) in
// ALL-NOT: cut off
// ALL: PASS

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
  const int n = 20000, m = 131072; // m doubles: 1 MB
  int plain = argc > 1 && strcmp(argv[1], "plain") == 0, failures = 0;
  double *t = malloc(sizeof(double) * m), *y = malloc(sizeof(double) * n);
  for (int i = 0; i < m; ++i)
    t[i] = i % 13;
  for (int i = 0; i < n; ++i)
    y[i] = i % 7;
  if (plain) {
#pragma omp target device(*) map(to: t[0:m] dist_data(DUPLICATE)) \
    map(tofrom: y[0:n] dist_data(ALIGN(loop)))
#pragma omp parallel for dist_schedule(target: [MODEL_1_AUTO])
    loop: for (int i = 0; i < n; ++i)
      y[i] += t[(i * 7) % m];
  } else {
#pragma omp target device(*) map(to: t[0:m] dist_data(DUPLICATE)) \
    map(tofrom: y[0:n] dist_data(ALIGN(loop2)))
#pragma omp parallel for dist_schedule(target: [MODEL_1_AUTO]) cutoff(1%)
    loop2: for (int i = 0; i < n; ++i)
      y[i] += t[(i * 7) % m];
  }
  for (int i = 0; i < n; ++i)
    if (y[i] != i % 7 + (i * 7) % m % 13 && ++failures <= 5)
      printf("FAIL: y[%d] = %g\n", i, y[i]);
  printf(failures ? "FAIL\n" : "PASS\n");
  free(t);
  free(y);
  return failures != 0;
}
