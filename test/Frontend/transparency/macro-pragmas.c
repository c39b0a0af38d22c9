// Transparency: OpenMP pragmas produced by macros compile to the same IR
// (including the source locations recorded for the runtime) with and
// without homp, and run the same: '_Pragma' written directly, a
// '#define OMP(x) _Pragma(#x)' wrapper, a macro expanding to a whole
// directive with a loop, object-like macros inside clauses (sizes, device,
// num_threads), and a function-like macro named like a reduction identifier.
// RUN: %compare_ir %s | FileCheck %s --check-prefix=IR
// RUN: %clang_x86 %s -o %t.ref -Wl,-rpath,%llvm_lib && %t.ref > %t.ref.out
// RUN: %hompcc %s -o %t && %t > %t.out
// RUN: diff %t.ref.out %t.out
// RUN: FileCheck %s --input-file=%t.out
// IR: identical IR and diagnostics

#include <stdio.h>

#define OMP(x) _Pragma(#x)
#define N 50
#define DEV 1
#define THREADS 2
#define MAP_TOFROM(v) map(tofrom : v)
#define TARGET_CLAUSES device(DEV) MAP_TOFROM(s)
// A function-like macro called 'max': in 'reduction(max : m)' it is not
// followed by '(' and must stay the reduction identifier.
#define max(a, b) ((a) > (b) ? (a) : (b))

// A whole parallel loop from one macro.
#define PARALLEL_FILL(arr, n, val)                                             \
  OMP(omp parallel for num_threads(THREADS))                                   \
  for (int i_ = 0; i_ < (n); ++i_)                                             \
    (arr)[i_] = (val)

int main(void) {
  int a[N];

  // _Pragma written directly: a[i] = i: sum 0..49 = 1225.
  _Pragma("omp parallel for")
  for (int i = 0; i < N; ++i)
    a[i] = i;
  long s = 0;
  for (int i = 0; i < N; ++i)
    s += a[i];
  // CHECK: direct=1225
  printf("direct=%ld\n", s);

  // OMP(...) wrapper on a target construct with macro clauses:
  // s = 1225 + 2 * 1225 = 3675.
  OMP(omp target TARGET_CLAUSES map(to : a[0:N]))
  for (int i = 0; i < N; ++i)
    s += 2 * a[i];
  // CHECK: wrapped=3675
  printf("wrapped=%ld\n", s);

  // OMP(...) on a combined construct with a reduction and an array section
  // whose length is a macro: sum of 3 * i = 3675.
  long r = 0;
  OMP(omp target teams distribute parallel for map(to : a[0:N]) reduction(+ : r))
  for (int i = 0; i < N; ++i)
    r += 3 * a[i];
  // CHECK: combined=3675
  printf("combined=%ld\n", r);

  // A loop-generating macro: every a[i] = 7: 350.
  PARALLEL_FILL(a, N, 7);
  s = 0;
  for (int i = 0; i < N; ++i)
    s += a[i];
  // CHECK: generated=350
  printf("generated=%ld\n", s);

  // 'max' as a reduction identifier while a 'max' macro exists:
  // max over (i * 7) % 50 for i < 50 = 49 (7 is coprime to 50).
  int m = 0;
#pragma omp parallel for reduction(max : m)
  for (int i = 0; i < N; ++i)
    m = max(m, (i * 7) % N);
  // CHECK: max=49
  printf("max=%d\n", m);

  // Two _Pragma directives from one macro line: a target data region with a
  // nested target region.
#define DATA_AND_TARGET(v)                                                     \
  OMP(omp target data map(tofrom : v[0:N]))                                    \
  OMP(omp target)                                                              \
  for (int i = 0; i < N; ++i)                                                  \
    v[i] += 1
  DATA_AND_TARGET(a);
  // 8 * 50 = 400.
  s = 0;
  for (int i = 0; i < N; ++i)
    s += a[i];
  // CHECK: nested=400
  printf("nested=%ld\n", s);
  return 0;
}
