// Transparency: C++ lambdas defined and called inside target regions
// (capturing by value and by reference, and passed to a function template
// called on the device), a lambda called inside a parallel loop of a
// combined construct, and a lambda whose body contains a target region,
// compile to the same IR with and without homp, and run the same.
// RUN: %compare_ir %s | FileCheck %s --check-prefix=IR
// RUN: %clang -x c++ -fopenmp -fopenmp-targets=x86_64-pc-linux-gnu %s -o %t.ref -lstdc++ -Wl,-rpath,%llvm_lib && %t.ref > %t.ref.out
// RUN: %hompcxx %s -o %t && %t > %t.out
// RUN: diff %t.ref.out %t.out
// RUN: FileCheck %s --input-file=%t.out
// IR: identical IR and diagnostics

#include <stdio.h>

#define N 16

// Called on the device with a lambda created there.
template <typename F> void apply(int n, int *out, F f) {
  for (int i = 0; i < n; ++i)
    out[i] = f(i);
}

static long total(const int *a, int n) {
  long s = 0;
  for (int i = 0; i < n; ++i)
    s += a[i];
  return s;
}

int main() {
  int a[N];

  // A lambda defined in the target region, capturing 'k' by value:
  // a[i] = 3 * i + 1: sum = 3 * 120 + 16 = 376.
  int k = 3;
#pragma omp target map(from : a) firstprivate(k)
  {
    auto f = [k](int i) { return k * i + 1; };
    for (int i = 0; i < N; ++i)
      a[i] = f(i);
  }
  // CHECK: in_target=376
  printf("in_target=%ld\n", total(a, N));

  // A lambda capturing a device-side accumulator by reference:
  // sum of i * i for i < 16 = 15 * 16 * 31 / 6 = 1240.
  long acc = 0;
#pragma omp target map(tofrom : acc)
  {
    auto add = [&acc](long v) { acc += v; };
    for (int i = 0; i < N; ++i)
      add((long)i * i);
  }
  // CHECK: by_reference=1240
  printf("by_reference=%ld\n", acc);

  // A lambda created in the region and passed to a function template:
  // a[i] = i - 5 + 10 = i + 5: sum = 120 + 80 = 200.
  int shift = 10;
#pragma omp target map(from : a) map(to : shift)
  apply(N, a, [=](int i) { return i - 5 + shift; });
  // CHECK: passed=200
  printf("passed=%ld\n", total(a, N));

  // A lambda defined before the region, captured (it is a firstprivate
  // object) and called in a combined construct: a[i] = 2 i: sum = 240.
  auto twice = [](int i) { return 2 * i; };
#pragma omp target teams distribute parallel for map(from : a)
  for (int i = 0; i < N; ++i)
    a[i] = twice(i);
  // CHECK: combined=240
  printf("combined=%ld\n", total(a, N));

  // A lambda that contains a target region, called twice:
  // run(2) sums 2 * i for i < 16 = 240, run(-1) gives -120.
  auto run = [](int scale) {
    long s = 0;
#pragma omp target map(tofrom : s)
    for (int i = 0; i < N; ++i)
      s += scale * i;
    return s;
  };
  // CHECK: contains_target=240,-120
  printf("contains_target=%ld,%ld\n", run(2), run(-1));

  return 0;
}
