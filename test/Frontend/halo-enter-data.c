// A halo directive inside a data region, on an array an 'enter data' inside
// the region made resident with a halo, after an earlier 'enter data' of
// the file had made it resident without one: which construct holds it when
// the directive runs is known only then, so the plugin does not refuse it
// (it once said "'v' has no halo", found by the differential tester); the
// runtime checks the array it finds. An array no construct gives a halo is
// still refused.
// RUN: %clang_cc1_homp -fsyntax-only -fpass-plugin=%homp_pass -verify %s

void f(double *v, double *w, int n) {
#pragma omp target enter data device(0, 2) map(to: v[0:n] dist_data(DUPLICATE))
#pragma omp target exit data device(0, 2) map(from: v[0:n])
#pragma omp target data device(1:3) map(tofrom: w[0:n] dist_data(BLOCK))
  {
#pragma omp target enter data device(1:3) map(to: v[0:n] dist_data(BLOCK) halo(1))
#pragma omp halo_exchange(v)
    // expected-error@+1 {{homp: 'w' has no halo; give it one with 'halo(...)' where it is distributed}}
#pragma omp halo_exchange(w)
#pragma omp target exit data device(1:3) map(from: v[0:n])
  }
}
