// The plugin counts the operations of a kernel's loop body for the machine
// model (WorkAnalysis.h): 'work N' for the body outside its loops, and a
// 'bodyloop OP PARENT OPS COUNTED' per canonical loop inside it, whose
// bounds and step are values when its trip count can be computed before
// the region.
// RUN: %clang_cc1_homp -fsyntax-only -fpass-plugin=%homp_pass -plugin-arg-homp print-regions %s 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: %clang_cc1_homp -x c++ -fsyntax-only -fpass-plugin=%homp_pass -plugin-arg-homp print-regions %s 2>&1 | FileCheck %s --check-prefixes=CHECK,CXX --implicit-check-not=error:

double sqrt(double);
struct Sizes { int n; };
#define SCALE(v) ((v) * 0.5)

// Negation, an addition and a product; the dereference and the cast are
// free.
void axpyish(double *x, double *y, double *p, int n) {
#pragma omp target device(*) map(tofrom: y[0:n] dist_data(BLOCK)) map(to: x[0:n] dist_data(BLOCK))
#pragma omp parallel for dist_iteration(BLOCK)
  for (int i = 0; i < n; ++i)
    y[i] = -x[i] + *p * (double)n;
}
// CHECK-LABEL: homp region:
// CHECK: access 1:x 1 0 0: L 0 0 0 0\nwork 3\ngputeams\n" , ( void * ) & __homp_chunk_0 ,

// Loops inside the body, parents first:
//  0: k < i uses the loop variable: not counted (one trip);
//  1: k < m uses a local of the body: not counted;
//  2: k >= s.n, counted; 3 inside it, l < ps->n * 2, counted;
//  4 inside 3, under '#pragma omp simd': two operations, a call, and the
//     macro's product.
// Outside them: n / 2, the while test and t /= 2 (the while body once).
void loops(double *x, double *y, int n, struct Sizes s, struct Sizes *ps) {
#pragma omp target device(*) map(tofrom: y[0:n] dist_data(BLOCK)) map(to: x[0:n])
#pragma omp parallel for dist_iteration(BLOCK)
  for (int i = 0; i < n; ++i) {
    double t = 0;
    for (int k = 0; k < i; ++k)
      t += x[k];
    int m = n / 2;
    for (int k = 0; k < m; k += 2)
      t -= x[k];
    for (int k = n - 1; k >= s.n; k--)
      for (int l = 0; l < ps->n * 2; l++) {
#pragma omp simd
        for (int q = 0; q < 4; ++q)
          t = SCALE(t) + sqrt(x[q]);
      }
    while (t > 1)
      t /= 2;
    y[i] = t;
  }
}
// CHECK-LABEL: homp region:
// CHECK: access 1:y 1 1 0: L 0 0 0 0 L 0 0 0 0\nwork 3\nbodyloop lt -1 1 0\nbodyloop lt -1 1 0\nbodyloop ge -1 0 1\nbodyloop lt 2 0 1\nbodyloop lt 3 3 1\ngputeams\n"
// The counted loops' first, bound and step, in order:
// CHECK-SAME: ( long long ) ( n - 1 ) , ( long long ) ( s . n ) , - ( long long ) ( 1 ) , ( long long ) ( 0 ) , ( long long ) ( ps -> n * 2 ) , ( long long ) ( 1 ) , ( long long ) ( 0 ) , ( long long ) ( 4 ) , ( long long ) ( 1 ) ) )

// A bound that calls a function is not evaluated again: not counted.
int size(int);
void calls(double *y, int n) {
#pragma omp target device(*) map(tofrom: y[0:n] dist_data(BLOCK))
#pragma omp parallel for dist_iteration(BLOCK)
  for (int i = 0; i < n; ++i)
    for (int k = 0; k < size(n); k += 1)
      y[i] += 1;
}
// CHECK-LABEL: homp region:
// CHECK: access 1:y 1 1 0: L 0 0 0 0 L 0 0 0 0\nbodyloop lt -1 1 0\ngputeams\n" , ( void * ) & __homp_chunk_2 , ( long long ) ( void * ) ( y ) , ( long long ) sizeof ( ( y ) [ 0 ] ) , ( long long ) ( 0 ) , ( long long ) ( n ) , ( long long ) ( void * ) ( y ) ) )

// A store of a constant computes nothing: no 'work' record.
void fill(double *y, int n) {
#pragma omp target device(*) map(tofrom: y[0:n] dist_data(BLOCK))
#pragma omp parallel for dist_iteration(BLOCK)
  for (int i = 0; i < n; ++i)
    y[i] = -1;
}
// CHECK-LABEL: homp region:
// CHECK: access 1:y 1 1 0: L 0 0 0 0 L 0 0 0 0\ngputeams\n" ,

#ifdef __cplusplus
// A named cast's brackets are not comparisons: one product.
void casts(double *y, int n) {
#pragma omp target device(*) map(tofrom: y[0:n] dist_data(BLOCK))
#pragma omp parallel for dist_iteration(BLOCK)
  for (int i = 0; i < n; ++i)
    y[i] = static_cast<double>(i) * static_cast<const volatile double>(n);
}
// CXX-LABEL: homp region:
// CXX: access 1:y 1 1 0: L 0 0 0 0 L 0 0 0 0\nwork 1\ngputeams\n" ,

// A loop over a class type (an iterator) is not counted: its bounds do not
// convert to integers. 'auto' from an integer literal, an integer typedef,
// and a variable declared before the region are counted.
struct It {
  int v;
  bool operator!=(const It &o) const { return v != o.v; }
  It &operator++() { ++v; return *this; }
};
typedef unsigned long my_size;
void iterators(double *y, int n, It first, It last, my_size m) {
  long k;
#pragma omp target device(*) map(tofrom: y[0:n] dist_data(BLOCK))
#pragma omp parallel for dist_iteration(BLOCK)
  for (int i = 0; i < n; ++i) {
    for (It p = first; p != last; ++p)
      y[i] += p.v;
    for (auto a = 0; a < n; ++a)
      y[i] += 1;
    for (my_size b = 0; b < m; ++b)
      y[i] += 2;
    for (k = 0; k < n; k += 3)
      y[i] += 3;
  }
}
// CXX-LABEL: homp region:
// CXX: access 1:y 1 1 0: L 0 0 0 0 L 0 0 0 0\nbodyloop ne -1 1 0\nbodyloop lt -1 1 1\nbodyloop lt -1 1 1\nbodyloop lt -1 1 1\ngputeams\n" ,
// CXX-SAME: ( long long ) ( 0 ) , ( long long ) ( n ) , ( long long ) ( 1 ) , ( long long ) ( 0 ) , ( long long ) ( m ) , ( long long ) ( 1 ) , ( long long ) ( 0 ) , ( long long ) ( n ) , ( long long ) ( 3 ) ) )
#endif
