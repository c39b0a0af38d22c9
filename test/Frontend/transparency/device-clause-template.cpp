// Transparency: C++ 'device' clauses whose expression has a top-level comma
// inside a template argument list ('pick<1, 3>()', 'std::integral_constant'
// style traits) are standard OpenMP and compile to the same IR with and
// without homp, and run the same.
// RUN: %compare_ir %s | FileCheck %s --check-prefix=IR
// RUN: %clang -x c++ -fopenmp -fopenmp-targets=x86_64-pc-linux-gnu %s -o %t.ref -lstdc++ -Wl,-rpath,%llvm_lib && %t.ref > %t.ref.out
// RUN: %hompcxx %s -o %t && %t > %t.out
// RUN: diff %t.ref.out %t.out
// RUN: FileCheck %s --input-file=%t.out
// IR: identical IR and diagnostics
//
// Each device's copy of the declare-target global 'tag' holds the device's
// number, so a region that returns 'tag' tells which device it ran on.

#include <omp.h>
#include <stdio.h>

#pragma omp declare target
int tag = -1;
#pragma omp end declare target

template <int A, int B> int pick() { return A > B ? A : B; }

template <typename T, int V> struct constant {
  static const int value = V;
};

template <int D, int E> int run_on() {
  int r = -2;
#pragma omp target device(pick<D, E>()) map(from : r)
  r = tag;
  return r;
}

int main() {
  for (int d = 0; d < omp_get_num_devices(); ++d) {
    tag = d;
#pragma omp target update to(tag) device(d)
  }
  tag = -1;

  int r = -2;
#pragma omp target device(pick<1, 3>()) map(from : r)
  r = tag;
  // max(1, 3) = 3.
  // CHECK: function_template=3
  printf("function_template=%d\n", r);

#pragma omp target device(constant<int, 2>::value) map(from : r)
  r = tag;
  // CHECK-NEXT: class_template=2
  printf("class_template=%d\n", r);

  // max(1, 0) = 1.
  // CHECK-NEXT: dependent=1
  printf("dependent=%d\n", run_on<1, 0>());
  return 0;
}
