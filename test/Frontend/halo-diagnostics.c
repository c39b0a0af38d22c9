// Malformed halo directives are clang errors at the offending token, and
// the well-formed ones compile to a call of libhomp's halo entry point
// (checked by -ast-print in the second run).
// RUN: %clang_cc1_homp -fsyntax-only -fpass-plugin=%homp_pass -verify %s
// RUN: %clang_cc1_homp -fpass-plugin=%homp_pass -DWELL_FORMED -ast-print %s | FileCheck %s

#ifndef WELL_FORMED
void f(double *u, double (*v)[8], double *w, int n) {
#pragma omp target data device(*) map(tofrom: u[0:n] dist_data(BLOCK) halo(1), v[0:n][0:8] dist_data(BLOCK, BLOCK) halo(1, 2), w[0:n] dist_data(BLOCK))
  {
    // expected-error@+1 {{homp: unknown halo update direction 'up'; expected left, right, left-right or leftright}}
#pragma omp halo_update up(u)

    // expected-error@+1 {{homp: malformed halo_update; expected a direction (left, right, left-right or leftright) with a list of arrays, 'halo_update left(A, ...)'}}
#pragma omp halo_update

    // expected-error@+1 {{homp: malformed halo_exchange; expected 'halo_exchange(A, ...)'}}
#pragma omp halo_exchange(u) left(v)

    // expected-error@+1 {{homp: expected an array name, optionally with '[*]' (update this dimension) or '[]' (do not) per dimension}}
#pragma omp halo_exchange(u + 1)

    // expected-error@+1 {{homp: expected an array name}}
#pragma omp halo_update left(v[1][*])

    // expected-error@+1 {{homp: expected an array name}}
#pragma omp halo_update right(v[][])

    // expected-error@+1 {{homp: expected an array name}}
#pragma omp halo_exchange()

    // expected-error@+1 {{homp: 'w' has no halo; give it one with 'halo(...)' where it is distributed}}
#pragma omp halo_exchange(u, w)

    // expected-error@+1 {{homp: a halo update of more than 8 dimensions is not supported yet}}
#pragma omp halo_update leftright(v[*][*][*][*][*][*][*][*][*])
  }
}

double fileArray[8];
// A halo directive is a statement: outside a function it is homp's error,
// at the directive, and nothing else (clang said "expected identifier or
// '('" before).
// expected-error@+1 {{homp: 'halo_exchange' is a statement: it must be inside a function}}
#pragma omp halo_exchange(fileArray)
// expected-error@+1 {{homp: 'halo_update' is a statement: it must be inside a function}}
#pragma omp halo_update left(fileArray)
#else
void g(double *u, double (*v)[8], int n) {
#pragma omp target data device(*) map(tofrom: u[0:n] dist_data(BLOCK) halo(1), v[0:n][0:8] dist_data(BLOCK, BLOCK) halo(1, 2))
  {
#pragma omp halo_exchange(u, v)
#pragma omp halo_update left-right(v[*][])
#pragma omp halo_update right(v[][*])
  }
}
// An array whose data construct is not in sight (another function) is
// checked when the program runs.
void h(double *x) {
#pragma omp halo_update left(x)
}
// CHECK-LABEL: void g(
// CHECK: __homp_halo("homp 10 halo\nloc {{[0-9]+}}:{{.*}}halo-diagnostics.c [[#@LINE-11]] 13\nhalo leftright\nhaloitem 1:u 0\nhaloitem 1:v 0\n", (long long)(void *)(u), (long long)(void *)(v));
// CHECK: __homp_halo("homp 10 halo\nloc {{.*}} [[#@LINE-11]] 13\nhalo left-right\nhaloitem 1:v 1\n", (long long)(void *)(v));
// CHECK: __homp_halo("homp 10 halo\nloc {{.*}} [[#@LINE-11]] 13\nhalo right\nhaloitem 1:v 2\n", (long long)(void *)(v));
// CHECK-LABEL: void h(
// CHECK: __homp_halo("homp 10 halo\nloc {{.*}}\nhalo left\nhaloitem 1:x 0\n", (long long)(void *)(x));
#endif
