// Using an extension without the homp pass is a warning that says what to add;
// with the pass named there is no warning.
// RUN: %clang_cc1_homp -fsyntax-only -verify=nopass %s
// RUN: %clang_cc1_homp -fsyntax-only -fpass-plugin=%homp_pass -verify=pass %s
// pass-no-diagnostics

void f(double *u, int n) {
  // nopass-warning@+1 {{homp: this file distributes regions over several devices but the homp pass is not loaded; each region will run on one device only (compile with hompcc, or add -fpass-plugin=homp-pass.so)}}
#pragma omp target device(*) map(tofrom: u[0:n] dist_data(BLOCK))
  for (int i = 0; i < n; ++i)
    u[i] += 1;
  // Once per file.
#pragma omp target data device(*) map(tofrom: u[0:n] dist_data(BLOCK))
  {
  }
}
