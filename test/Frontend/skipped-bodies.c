// Code that clang skips in error recovery gets no homp errors either: here a
// function defined inside another, whose body clang does not parse. Regions
// clang does parse still get theirs, in any order.
// RUN: %clang_cc1_homp -fsyntax-only -fpass-plugin=%homp_pass -verify %s

void outer(double *y, int n) {
  void inner(double *y, int n) { // expected-error {{function definition is not allowed here}}
#pragma omp target device(*) map(tofrom: y[0:n] dist_data(BLOKC))
    for (int i = 0; i < n; ++i)
      y[i] = 0;
#pragma omp target data device(*) map(tofrom: y[0:n] dist_data(BLOCK, BLOCK))
    {
    }
  }
}

void parsed(double *y, int n) {
  // expected-error@+1 {{homp: unknown distribution policy 'BLOKC'}}
#pragma omp target device(*) map(tofrom: y[0:n] dist_data(BLOKC))
  for (int i = 0; i < n; ++i)
    y[i] = 0;
}
