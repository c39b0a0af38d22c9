// Transparency of invalid standard OpenMP: a 'device' clause starting with
// '*&' (a dereference, standard OpenMP's) followed by stray tokens gets
// exactly clang's diagnostics (a warning that the extra tokens are
// ignored, or clang's errors), not homp's device-list errors on top: the
// plugin once read '*&devs[0] & 1' as homp's '*' and reported "expected a
// clause in this directive" (found by a pragma fuzzer).
// RUN: %compare_ir %s | FileCheck %s --check-prefix=IR
// RUN: %clang_cc1_homp -fsyntax-only -fpass-plugin=%homp_pass -verify %s
// RUN: %clang_cc1_homp -fsyntax-only -fpass-plugin=%homp_pass -verify -DBROKEN %s
// RUN: %clang -cc1 -fopenmp -fsyntax-only -verify -DBROKEN %s
// IR: identical IR and diagnostics

int devs[2] = {1, 0};
double y[8];

void stray(int n) {
  // expected-warning@+1 {{extra tokens at the end of '#pragma omp target' are ignored}}
#pragma omp target device(*&devs[0] & 1)) map(tofrom: y[0:8])
  for (int i = 0; i < n; ++i)
    y[i] += 1;
  // expected-warning@+1 {{extra tokens at the end of '#pragma omp target' are ignored}}
#pragma omp target device(*&devs[0] & 1) 1
  for (int i = 0; i < n; ++i)
    y[i] += 1;
  // expected-warning@+1 {{extra tokens at the end of '#pragma omp target' are ignored}}
#pragma omp target device(*&devs[0] & 1) (y)
  for (int i = 0; i < n; ++i)
    y[i] += 1;
}

#ifdef BROKEN
void broken(int n) {
  // expected-error@+2 {{expected ')'}} expected-note@+2 {{to match this '('}}
  // expected-error@+1 {{expected expression}}
#pragma omp target device(*&devs[0] & 1) map(
  for (int i = 0; i < n; ++i)
    y[i] += 1;
}
#endif
