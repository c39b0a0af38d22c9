// Reductions over C's complex numbers ('+', '-' and '*' on double _Complex
// and float _Complex) combine across the devices and the host, against
// sequential values (every partial sum and product is exact here). The x86
// offload images need libatomic for clang's complex reductions, as with
// plain clang.
// RUN: %hompcc -O2 %s -o %t -latomic && %t 2>&1 | FileCheck %s --implicit-check-not=warning
// CHECK: z: PASS
// CHECK: w: PASS
// CHECK: p: PASS

#include <complex.h>
#include <stdio.h>
int main(void) {
  enum { n = 1001 };
  static double x[n];
  double _Complex z = 1.0 + 2.0 * I, zw = z, p = 1.0, pw = 1.0;
  float _Complex w = 0, ww = 0;
  for (int i = 0; i < n; ++i) x[i] = (i % 7) * 0.5;
#pragma omp target device(*, host) map(to: x[0:n] dist_data(BLOCK))
#pragma omp parallel for reduction(+: z, w) reduction(*: p)
  for (int i = 0; i < n; ++i) {
    z += x[i] + x[i] * I;
    w -= (float)(i % 3) * I;
    if (i % 100 == 0) p *= (1.0 + 0.5 * I);
  }
  for (int i = 0; i < n; ++i) {
    zw += x[i] + x[i] * I;
    ww -= (float)(i % 3) * I;
    if (i % 100 == 0) pw *= (1.0 + 0.5 * I);
  }
  printf("z: %s\n", z == zw ? "PASS" : "FAIL");
  printf("w: %s\n", w == ww ? "PASS" : "FAIL");
  printf("p: %s\n", p == pw ? "PASS" : "FAIL");
  return z != zw || w != ww || p != pw;
}
