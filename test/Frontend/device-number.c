// A distributed region or data region with one device number keeps clang's
// check of that number, though homp passes its marker in the clause.
// RUN: %clang_cc1_homp -fsyntax-only -fpass-plugin=%homp_pass -verify %s

void f(double *y, int n) {
#pragma omp target device(-1) map(tofrom: y[0:n] dist_data(BLOCK)) // expected-error {{argument to 'device' clause must be a non-negative integer value}}
  for (int i = 0; i < n; ++i)
    y[i] = 0;

#pragma omp target teams distribute parallel for device((1 - 4) * 2) map(tofrom: y[0:n] dist_data(BLOCK)) // expected-error {{argument to 'device' clause must be a non-negative integer value}}
  for (int i = 0; i < n; ++i)
    y[i] = 0;

#pragma omp target data device(-1) map(tofrom: y[0:n] dist_data(BLOCK)) // expected-error {{argument to 'device' clause must be a non-negative integer value}}
  {
  }

#pragma omp target device(-(1 << 2)) map(tofrom: y[0:n] dist_data(BLOCK)) // expected-error {{argument to 'device' clause must be a non-negative integer value}}
  for (int i = 0; i < n; ++i)
    y[i] = 0;

  // Not constants, or not negative: nothing to say at compile time.
#pragma omp target device(n - 5) map(tofrom: y[0:n] dist_data(BLOCK))
  for (int i = 0; i < n; ++i)
    y[i] = 0;
#pragma omp target device(7 / 2 - 3) map(tofrom: y[0:n] dist_data(BLOCK))
  for (int i = 0; i < n; ++i)
    y[i] = 0;
  // Unsigned, as in C: never negative.
#pragma omp target device(0u - 1) map(tofrom: y[0:n] dist_data(BLOCK))
  for (int i = 0; i < n; ++i)
    y[i] = 0;
}
