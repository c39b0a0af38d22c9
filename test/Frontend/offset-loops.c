// Subscripts with variables of inner loops that run between constants:
// 'x[i + k]' inside 'for (int k = -2; k <= 2; k++)' uses offsets -2..2 of
// i, in every form of such a loop. Loops whose variable changes in their
// body, is declared again there, or runs to a bound that is not a constant
// leave the subscript unchecked (a warning), as does a use outside them.
// RUN: %clang_cc1_homp -fsyntax-only -fpass-plugin=%homp_pass -plugin-arg-homp print-regions %s 2>&1 | FileCheck %s
// RUN: %clang_cc1_homp -fsyntax-only -fpass-plugin=%homp_pass -verify %s

#define R 1

void forms(double *x, double *y, int n) {
#pragma omp target device(*) map(to: x[0:n] dist_data(BLOCK) halo(2)) map(tofrom: y[0:n] dist_data(BLOCK))
  for (int i = 2; i < n - 2; ++i) {
    double s = 0;
    for (int k = -2; k <= 2; k++)
      s += x[i + k];
    for (int k = 4; k > 0; k -= 2)
      s += x[i - k + 2];
    for (int k = 0; k < 3; k++) {
      for (int d = -R; d < R + 1; ++d)
        s += x[i - k + 1] * x[d + i];
    }
    y[i] = s;
  }
}
// CHECK-LABEL: homp region:
// CHECK: \naccess 1:x 1 0 L 0 -2 2\naccess 1:y 1 1 L 0 0 0\n

void unchecked(double *x, double *y, int n, int m) {
  // expected-warning@+5 {{homp: homp cannot check which elements of 'x' this loop uses (subscript 'i+k' is not 'i' plus or minus constants and inner loops' variables)}}
#pragma omp target device(*) map(to: x[0:n] dist_data(BLOCK) halo(2)) map(tofrom: y[0:n] dist_data(BLOCK))
  for (int i = 2; i < n - 2; ++i) {
    double s = 0;
    for (int k = -1; k <= 1; k++) {
      s += x[i + k];
      k += 0;
    }
    y[i] = s;
  }
  // expected-warning@+4 {{homp: homp cannot check which elements of 'x' this loop uses (subscript 'i+k' is not 'i' plus or minus constants and inner loops' variables)}}
#pragma omp target device(*) map(to: x[0:n] dist_data(BLOCK) halo(2)) map(tofrom: y[0:n] dist_data(BLOCK))
  for (int i = 2; i < n - 2; ++i)
    for (int k = 0; k < m; k++)
      y[i] += x[i + k];
  // expected-warning@+6 {{homp: homp cannot check which elements of 'x' this loop uses (subscript 'i+k' is not 'i' plus or minus constants and inner loops' variables)}}
#pragma omp target device(*) map(to: x[0:n] dist_data(BLOCK) halo(2)) map(tofrom: y[0:n] dist_data(BLOCK))
  for (int i = 2; i < n - 2; ++i) {
    for (int k = 0; k < 1; k++)
      y[i] += x[i];
    int k = 2;
    y[i] += x[i + k];
  }
  // expected-warning@+5 {{homp: homp cannot check which elements of 'x' this loop uses (subscript 'i+k' is not 'i' plus or minus constants and inner loops' variables)}}
#pragma omp target device(*) map(to: x[0:n] dist_data(BLOCK) halo(2)) map(tofrom: y[0:n] dist_data(BLOCK))
  for (int i = 2; i < n - 2; ++i)
    for (int k = 0; k < 2; k++) {
      int k = 5;
      y[i] += x[i + k];
    }
}
