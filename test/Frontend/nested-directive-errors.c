// A malformed directive inside a distributed region is never dropped
// silently: an unclosed parenthesis is clang's "expected ')'" (reported by
// homp, which reads the directive); stray tokens, which clang would ignore
// with whatever clauses follow them, are homp's error.
// RUN: %clang_cc1_homp -fsyntax-only -fpass-plugin=%homp_pass -verify %s

double unclosed(double *y, int n) {
  double s = 0;
#pragma omp target device(*) map(tofrom: y[0:n] dist_data(BLOCK))
#pragma omp parallel for reduction(+: s // expected-error {{expected ')'}} expected-note {{to match this '('}}
  for (int i = 0; i < n; ++i)
    s += y[i];
  return s;
}

double unclosed_in_braces(double *y, int n) {
  double s = 0;
#pragma omp target device(*) map(tofrom: y[0:n] dist_data(BLOCK))
  {
#pragma omp parallel for reduction(+: s // expected-error {{expected ')'}} expected-note {{to match this '('}}
    for (int i = 0; i < n; ++i)
      s += y[i];
  }
  return s;
}

// In a data region, a directive with homp's extensions (the device list)
// gets the one error, not clang's complaint about the '*' it does not know.
double in_data_region(double *y, int n) {
  double s = 0;
#pragma omp target data device(*) map(tofrom: y[0:n] dist_data(BLOCK))
  {
#pragma omp target teams distribute parallel for device(*) reduction(+: s // expected-error {{expected ')'}} expected-note {{to match this '('}}
    for (int i = 0; i < n; ++i)
      s += y[i];
  }
  return s;
}

double stray_token(double *y, int n) {
  double s = 0;
#pragma omp target device(*) map(tofrom: y[0:n] dist_data(BLOCK))
  // expected-error@+1 {{homp: cannot read this directive inside a distributed region; expected directive names followed by clauses}}
#pragma omp parallel for 3 reduction(+: s)
  for (int i = 0; i < n; ++i)
    s += y[i];
  return s;
}
