// Transparency: C++ function and class templates containing target regions
// (with map clauses and reductions on dependent types, non-type template
// parameters in clauses, and explicit instantiation), instantiated for int
// and double, compile to the same IR with and without homp, and run the
// same.
// RUN: %compare_ir %s | FileCheck %s --check-prefix=IR
// RUN: %clang -x c++ -fopenmp -fopenmp-targets=x86_64-pc-linux-gnu %s -o %t.ref -lstdc++ -Wl,-rpath,%llvm_lib && %t.ref > %t.ref.out
// RUN: %hompcxx %s -o %t && %t > %t.out
// RUN: diff %t.ref.out %t.out
// RUN: FileCheck %s --input-file=%t.out
// IR: identical IR and diagnostics

#include <stdio.h>

template <typename T> T sum(const T *a, int n) {
  T s = 0;
#pragma omp target teams distribute parallel for map(to : a[0:n]) reduction(+ : s)
  for (int i = 0; i < n; ++i)
    s += a[i];
  return s;
}

template <typename T> void axpy(T alpha, const T *x, T *y, int n) {
#pragma omp target map(to : x[0:n]) map(tofrom : y[0:n]) firstprivate(alpha)
  for (int i = 0; i < n; ++i)
    y[i] = alpha * x[i] + y[i];
}

// A non-type template parameter in a clause (num_threads, collapse) and as
// the array extent.
template <typename T, int N> T trace_of_identity_plus(T c) {
  T m[N][N];
  T t = 0;
#pragma omp target parallel for collapse(2) num_threads(2) map(from : m)
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j)
      m[i][j] = (i == j ? T(1) : T(0)) + c;
  for (int i = 0; i < N; ++i)
    t += m[i][i];
  return t;
}

template <typename T> struct Buffer {
  T data[8];
  T total() const {
    T s = 0;
#pragma omp target map(to : data) map(tofrom : s)
    for (int i = 0; i < 8; ++i)
      s += data[i];
    return s;
  }
};

// Explicit instantiation definitions.
template int sum<int>(const int *, int);
template double sum<double>(const double *, int);

int main() {
  int ia[10];
  double da[10];
  for (int i = 0; i < 10; ++i) {
    ia[i] = i + 1;
    da[i] = (i + 1) * 0.5;
  }
  // 1 + ... + 10 = 55; half of that is 27.5.
  // CHECK: sum<int>=55 sum<double>=27.50
  printf("sum<int>=%d sum<double>=%.2f\n", sum(ia, 10), sum(da, 10));

  // y = 2 x + y with x[i] = i + 1 and y[i] = 1: sum = 2 * 55 + 10 = 120;
  // with x[i] = (i + 1) / 2: 2 * 27.5 + 10 = 65.
  int iy[10];
  double dy[10];
  for (int i = 0; i < 10; ++i) {
    iy[i] = 1;
    dy[i] = 1.0;
  }
  axpy(2, ia, iy, 10);
  axpy(2.0, da, dy, 10);
  // CHECK: axpy<int>=120 axpy<double>=65.00
  printf("axpy<int>=%d axpy<double>=%.2f\n", sum(iy, 10), sum(dy, 10));

  // trace(I + c) over an N x N matrix = N * (1 + c): 4 * 3 = 12 and
  // 3 * 1.25 = 3.75.
  // CHECK: trace<int,4>=12 trace<double,3>=3.75
  printf("trace<int,4>=%d trace<double,3>=%.2f\n",
         trace_of_identity_plus<int, 4>(2),
         trace_of_identity_plus<double, 3>(0.25));

  // Buffer<T>::total: 0 + 1 + ... + 7 = 28; 0.25 * 28 = 7.
  Buffer<int> bi;
  Buffer<double> bd;
  for (int i = 0; i < 8; ++i) {
    bi.data[i] = i;
    bd.data[i] = i * 0.25;
  }
  // CHECK: Buffer<int>=28 Buffer<double>=7.00
  printf("Buffer<int>=%d Buffer<double>=%.2f\n", bi.total(), bd.total());
  return 0;
}
