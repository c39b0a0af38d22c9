// Without -fopenmp the plugin leaves '#pragma omp' to clang, which ignores it
// (and warns only under -Wsource-uses-openmp), extensions included.
// RUN: %clang -cc1 -load %homp_plugin -fsyntax-only -verify %s
// RUN: %clang -cc1 -load %homp_plugin -fsyntax-only -Wsource-uses-openmp -verify=warn %s
// expected-no-diagnostics

void f(double *u, int n) {
  // warn-warning@+1 {{unexpected '#pragma omp ...' in program}}
#pragma omp target device(*) map(tofrom: u[0:n] dist_data(BLOCK))
  for (int i = 0; i < n; ++i)
    u[i] += 1;
}
