// A map item that calls a function named like a distribution clause is
// standard OpenMP: clang reads it, and its diagnostics are clang's own.
// RUN: %clang_cc1_homp -fsyntax-only -fpass-plugin=%homp_pass -verify %s

int *halo(int *p);
int *partition(int *p);

void f(int *p) {
#pragma omp target map(tofrom: *(int *)halo(p)) // expected-error {{expected addressable lvalue in 'map' clause}}
  *halo(p) = 1;
#pragma omp target map(tofrom: *(int *)partition(p)) // expected-error {{expected addressable lvalue in 'map' clause}}
  *partition(p) = 1;
#pragma omp target map(tofrom: p[*(int *)halo(p)])
  p[0] = 1;
}

// A call is an item, and cannot be distributed.
void g(int *p, int n) {
  // expected-error@+1 {{homp: only arrays and array sections can be distributed, and 'halo(p)' is neither}}
#pragma omp target device(*) map(tofrom: halo(p) dist_data(BLOCK))
  for (int i = 0; i < n; ++i) p[i] = 0;
}
