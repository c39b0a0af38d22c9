// In a member function defined inside its class, clang resolves names once
// the class is complete, so a member declared later may be what 'host' or a
// device type name refers to. There those names alone in a 'device' clause
// are standard OpenMP; device lists stay homp's.
// RUN: %clang_cc1_homp -x c++ -fsyntax-only -fpass-plugin=%homp_pass -verify %s

struct A {
  void f(double *y, int n) {
#pragma omp target device(host) map(tofrom: y[0:n]) // expected-error {{use of undeclared identifier 'host'}}
    for (int i = 0; i < n; ++i) y[i] = 0;
#pragma omp target device(HOMP_DEVICE_HOST) map(tofrom: y[0:n]) // expected-error {{use of undeclared identifier 'HOMP_DEVICE_HOST'}}
    for (int i = 0; i < n; ++i) y[i] = 0;
#pragma omp target device(*, host) map(tofrom: y[0:n] dist_data(BLOCK))
    for (int i = 0; i < n; ++i) y[i] = 0;
#pragma omp target device(*:HOMP_DEVICE_HOST) map(tofrom: y[0:n] dist_data(BLOCK))
    for (int i = 0; i < n; ++i) y[i] = 0;
  }
};

// Outside the class body, names are resolved where the directive is.
void A_g(double *y, int n) {
#pragma omp target device(host) map(tofrom: y[0:n] dist_data(BLOCK))
  for (int i = 0; i < n; ++i) y[i] = 0;
}
