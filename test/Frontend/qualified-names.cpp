// A distributed array used through 'this->' or a qualified name inside the
// loop escapes what homp does for the plain name (the device's part, the
// check of the elements each device touches): a compile error at the use,
// where 'this->v[i]' once lost every write in a data region and '::a[i + 1]'
// read past the parts silently. Distributing a qualified name is not
// supported yet, with a hint.
// RUN: %clang_cc1_homp -x c++ -fsyntax-only -fpass-plugin=%homp_pass -verify %s

namespace ns { double a[100], b[100]; }
double g[100], h[100];

struct S {
  double *u, *v;
  void members(int n);
};

void S::members(int n) {
#pragma omp target data device(*) map(to: u[0:n] dist_data(BLOCK)) map(tofrom: v[0:n] dist_data(BLOCK))
  {
#pragma omp target device(*)
#pragma omp parallel for
    // expected-error@+1 {{homp: write 'v' rather than 'this->v' in a distributed region: homp follows the uses of 'v' by its name alone (to give each device its part and check which elements it touches), and 'this->v' escapes both}}
    for (int i = 0; i < n; ++i) this->v[i] = u[i] + 1;
#pragma omp target device(*)
#pragma omp parallel for
    for (int i = 0; i < n; ++i) v[i] = u[i] + 1;
  }
}

void globals(int n) {
#pragma omp target device(*) map(to: g[0:n] dist_data(BLOCK)) map(tofrom: h[0:n] dist_data(BLOCK))
#pragma omp parallel for
  // expected-error@+1 {{homp: write 'g' rather than '::g' in a distributed region}}
  for (int i = 0; i < n - 1; ++i) h[i] = ::g[i + 1];

  // Qualified names of other arrays are left alone.
#pragma omp target device(*) map(tofrom: h[0:n] dist_data(BLOCK)) map(to: ns::b)
#pragma omp parallel for
  for (int i = 0; i < n; ++i) h[i] = ns::b[i];

  // expected-error@+1 {{homp: distributing 'ns::a[0:n]' (a qualified name; distribute a pointer or reference to it with a plain name, 'double *a = ns::a;') is not supported yet}}
#pragma omp target device(*) map(tofrom: ns::a[0:n] dist_data(BLOCK))
#pragma omp parallel for
  for (int i = 0; i < n; ++i) ns::a[i] = i;
}
