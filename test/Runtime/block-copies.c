// Each device receives only its own block of a BLOCK-distributed array, and
// sends only that block back. homp's own report (HOMP_INFO, written once
// the devices are done, so lines from several devices never mix) shows 250
// doubles of x and of y in (4000 bytes, plus the 120-byte chunk and the
// scalars a and n: 4132) and 250 of y out (2000 bytes) per device for
// n = 1000 over 4 devices.
// RUN: %hompcc -O2 %s -o %t
// RUN: env HOMP_INFO=1 %t 1000 2>&1 | FileCheck %s --check-prefixes=CHECK,CHECK-%ndev --allow-unused-prefixes -DDEVICES="%devices" --implicit-check-not=FAIL
// CHECK: homp: region {{.*}}block-copies.c:[[@LINE+18]]:1: 1000 iterations on [[DEVICES]]
// CHECK-NEXT: homp:   device   type   indices                        launches     bytes in    bytes out    time ms
// CHECK-4-NEXT: homp:   0        CPU    [0, 250)                              1         4132         2000
// CHECK-4-NEXT: homp:   1        CPU    [250, 500)                            1         4132         2000
// CHECK-4-NEXT: homp:   2        CPU    [500, 750)                            1         4132         2000
// CHECK-4-NEXT: homp:   3        CPU    [750, 1000)                           1         4132         2000
// CHECK-4-NEXT: PASS

#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  int n = atoi(argv[1]);
  double a = 3, *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y);
  for (int i = 0; i < n; ++i) {
    x[i] = i;
    y[i] = 1;
  }
#pragma omp target device(*) map(tofrom: y[0:n] dist_data(BLOCK)) \
                             map(to: x[0:n] dist_data(BLOCK), a, n)
#pragma omp parallel for dist_iteration(BLOCK)
  for (int i = 0; i < n; ++i)
    y[i] += a * x[i];
  fflush(stderr);
  int Failed = 0;
  for (int i = 0; i < n; ++i)
    Failed |= y[i] != 1 + 3.0 * i;
  free(x);
  free(y);
  puts(Failed ? "FAIL" : "PASS");
  return Failed;
}
