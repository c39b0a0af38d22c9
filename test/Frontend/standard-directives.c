// Standard OpenMP keeps clang's own diagnostics, at the same places, when
// the plugin has taken over '#pragma omp'.
// RUN: %clang_cc1_homp -fsyntax-only -fpass-plugin=%homp_pass -verify %s
// RUN: %clang -cc1 -fopenmp -fsyntax-only -verify %s

#define OMP(x) _Pragma(#x)

void f(double *u, int n, int dev) {
  // expected-warning@+1 {{extra tokens at the end of '#pragma omp target' are ignored}}
#pragma omp target nosuchclause map(tofrom: u[0:n])
  for (int i = 0; i < n; ++i)
    u[i] += 1;

  // expected-error@+1 {{expected '(' after 'device'}}
#pragma omp target device map(tofrom: u[0:n])
  for (int i = 0; i < n; ++i)
    u[i] += 1;

  // expected-error@+1 {{expected an OpenMP directive}}
#pragma omp nosuchdirective
  ;

  // A '#pragma omp' nested in another by _Pragma is reported as clang does.
  // expected-error@+1 {{unexpected OpenMP directive}}
#pragma omp target OMP(omp parallel) map(tofrom: u[0:n])
  for (int i = 0; i < n; ++i)
    u[i] += 1;

  OMP(omp target device(dev) map(tofrom: u[0:n]))
  for (int i = 0; i < n; ++i)
    u[i] += 1;
}
