// A halo directive is a statement: it is accepted wherever a statement is
// (a member function defined in its class, whose body clang reads once the
// class is complete; a lambda, also one at namespace scope; a function
// template; a nested class's member), and outside any function it is
// homp's error at the directive (halo-diagnostics.c has the C forms).
// RUN: %clang_cc1_homp -x c++ -std=c++17 -fsyntax-only -fpass-plugin=%homp_pass -verify %s

double g[16];

struct Grid {
  double u[16];
  void step() {
#pragma omp halo_exchange(u)
  }
  struct Inner {
    double w[16];
    void step() {
#pragma omp halo_update left(w)
    }
  };
  void later();
};

void Grid::later() {
#pragma omp halo_exchange(u)
}

template <typename T> void exchange(T *a) {
#pragma omp halo_exchange(a)
}
template void exchange<double>(double *);

auto AtNamespaceScope = [] {
#pragma omp halo_exchange(g)
};

namespace n {
// expected-error@+1 {{homp: 'halo_exchange' is a statement: it must be inside a function}}
#pragma omp halo_exchange(g)
}

// expected-error@+1 {{homp: 'halo_update' is a statement: it must be inside a function}}
#pragma omp halo_update right(g)
