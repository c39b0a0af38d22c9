// In a member function defined inside its class, the pragmas are read
// before the function's locals are declared. A name the kernel subscripts
// that is not declared there is taken for an array of a type not known
// yet: its access is described and its address computed by
// __homp_address_of, which gives 0 for anything but a pointer or array.
// Names the loop body declares stay out of it, since they are not in scope
// where the region begins (the output must compile).
// RUN: %clang_cc1_homp -x c++ -fsyntax-only -fpass-plugin=%homp_pass -plugin-arg-homp print-regions %s 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: %clang_cc1_homp -x c++ -fsyntax-only -fpass-plugin=%homp_pass %s -verify

// expected-no-diagnostics
namespace std {
template <class T, unsigned long N> struct array {
  T v[N];
  T &operator[](unsigned long i) { return v[i]; }
};
} // namespace std

struct Field {
  void run(int n) {
    double *p = u;
    double *&r = p;
#pragma omp target device(*) map(tofrom: u[0:n] dist_data(BLOCK))
#pragma omp parallel for dist_iteration(BLOCK)
    for (int i = 0; i < n; ++i) {
      double t[2] = {1, 0.5}, s, c[2];
      std::array<double, 2> w{{0.5, 0.25}};
      c[1] = t[1] + w[0];
      s = c[1] * 2;
      u[i] = p[i] * r[i] * s + later[i];
    }
  }
  double u[64];
  double *later;
};
// CHECK-LABEL: homp region:
// CHECK: access 1:u 1 1 0: L 0 0 0 0 L 0 0 0 0\naccess 1:p 1 0 0: L 0 0 0 0\naccess 1:r 1 0 0: L 0 0 0 0\naccess 5:later 1 0 0: L 0 0 0 0\n
// CHECK-SAME: __homp_address_of < __typeof__ ( p ) > :: of ( p ) , __homp_address_of < __typeof__ ( r ) > :: of ( r ) , __homp_address_of < __typeof__ ( later ) > :: of ( later )
