// Subscripts with variables of inner loops that run between constants:
// 'x[i + k]' inside 'for (int k = -2; k <= 2; k++)' uses offsets -2..2 of
// i, in every form of such a loop; between variables the loop does not
// change ('k < m'), offsets computed when the construct starts (a term,
// its minimum and maximum among the marker's values). Loops whose variable
// changes in their body or is declared again there leave the subscript
// unbounded (a warning saying what homp does then), as does a use outside
// them.
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
// CHECK: \naccess 1:x 1 0 0: L 0 -2 2 0\naccess 1:y 1 1 0: L 0 0 0 0 L 0 0 0 0\n

void runTime(double *x, double *y, int n, int m) {
#pragma omp target device(*) map(to: x[0:n] dist_data(BLOCK) halo(2)) map(tofrom: y[0:n] dist_data(BLOCK))
  for (int i = 2; i < n - 2; ++i)
    for (int k = 0; k < m; k++)
      y[i] += x[i + k];
}
// CHECK-LABEL: homp region:
// CHECK: \naccess 1:y 1 1 0: L 0 0 0 0 L 0 0 0 0\naccess 1:x 1 0 0: L 0 0 0 1\n
// CHECK-SAME: ( long long ) ( void * ) ( x ) , ( ( 0LL ) + ( 0LL ) ) , ( ( 0LL ) + ( ( long long ) ( m ) + ( - 1LL ) ) ) ,

// Sums in parentheses add their terms: 'x[(i - m) + 1]' is i plus 1 - m.
void parenthesized(double *x, double *y, int n, int m) {
#pragma omp target device(*) map(to: x[0:n] dist_data(BLOCK) halo(2)) map(tofrom: y[0:n] dist_data(BLOCK))
  for (int i = 2; i < n - 2; ++i)
    y[(i)] += x[(i - m) + 1] - x[-(-i)];
}
// CHECK-LABEL: homp region:
// CHECK: \naccess 1:y 1 1 0: L 0 0 0 0 L 0 0 0 0\naccess 1:x 1 0 0: L 0 0 0 1\n
// CHECK-SAME: ( long long ) ( void * ) ( x ) , ( ( ( 1LL ) - ( ( long long ) ( m ) ) ) < ( ( 0LL ) ) ? ( ( 1LL ) - ( ( long long ) ( m ) ) ) : ( ( 0LL ) ) ) , ( ( ( 1LL ) - ( ( long long ) ( m ) ) ) > ( ( 0LL ) ) ? ( ( 1LL ) - ( ( long long ) ( m ) ) ) : ( ( 0LL ) ) ) )

void unchecked(double *x, double *y, int n, int m) {
  // expected-warning@+5 {{homp: homp cannot bound which elements of 'x' this loop uses (subscript 'i+k' uses 'k', an inner loop's variable whose range homp cannot bound (its bounds change in the loop, or its body changes it)); every device gets all of 'x'}}
#pragma omp target device(*) map(to: x[0:n] dist_data(BLOCK) halo(2)) map(tofrom: y[0:n] dist_data(BLOCK))
  for (int i = 2; i < n - 2; ++i) {
    double s = 0;
    for (int k = -1; k <= 1; k++) {
      s += x[i + k];
      k += 0;
    }
    y[i] = s;
  }
  // expected-warning@+6 {{homp: homp cannot bound which elements of 'x' this loop uses (subscript 'i+k' uses 'k', which the loop body declares); every device gets all of 'x'}}
#pragma omp target device(*) map(to: x[0:n] dist_data(BLOCK) halo(2)) map(tofrom: y[0:n] dist_data(BLOCK))
  for (int i = 2; i < n - 2; ++i) {
    for (int k = 0; k < 1; k++)
      y[i] += x[i];
    int k = 2;
    y[i] += x[i + k];
  }
  // expected-warning@+5 {{homp: homp cannot bound which elements of 'x' this loop uses (subscript 'i+k' uses 'k', an inner loop's variable whose range homp cannot bound (its bounds change in the loop, or its body changes it)); every device gets all of 'x'}}
#pragma omp target device(*) map(to: x[0:n] dist_data(BLOCK) halo(2)) map(tofrom: y[0:n] dist_data(BLOCK))
  for (int i = 2; i < n - 2; ++i)
    for (int k = 0; k < 2; k++) {
      int k = 5;
      y[i] += x[i + k];
    }
}
