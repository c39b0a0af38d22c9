// Transparency: OpenMP pragmas inside '#if' / '#ifdef' / '#else' / '#elif'
// (taken and skipped branches, including skipped pragmas that are not even
// valid OpenMP, and a pragma selected by _OPENMP) compile to the same IR
// with and without homp, and run the same.
// RUN: %compare_ir %s | FileCheck %s --check-prefix=IR
// RUN: %clang_x86 %s -o %t.ref -Wl,-rpath,%llvm_lib && %t.ref > %t.ref.out
// RUN: %hompcc %s -o %t && %t > %t.out
// RUN: diff %t.ref.out %t.out
// RUN: FileCheck %s --input-file=%t.out
// IR: identical IR and diagnostics

#include <stdio.h>

#define N 40
#define USE_TEAMS 1

int main(void) {
  int a[N];
  long s = 0;

#ifdef _OPENMP
  // _OPENMP is 202011 in clang 19 (OpenMP 5.1 is the default version).
  // CHECK: openmp=202011
  printf("openmp=%d\n", _OPENMP);
#else
  printf("no openmp\n");
#endif

  // The taken branch: a[i] = 2 i: sum = 2 * 780 = 1560.
#if USE_TEAMS
#pragma omp target teams distribute parallel for map(from : a)
#else
#pragma omp target parallel for map(from : a) this_is_not_a_clause
#endif
  for (int i = 0; i < N; ++i)
    a[i] = 2 * i;
  for (int i = 0; i < N; ++i)
    s += a[i];
  // CHECK: if_branch=1560
  printf("if_branch=%ld\n", s);

  // The #else branch is taken; the skipped #if branch uses a device list
  // and homp-style spellings, which must be ignored as skipped text.
  s = 0;
#if !USE_TEAMS
#pragma omp parallel target device(0:4) map(tofrom : a dist_data(BLOCK))
#elif 0
#pragma omp target device(*)
#else
#pragma omp target map(tofrom : s) map(to : a)
#endif
  for (int i = 0; i < N; ++i)
    s += a[i] / 2;
  // sum 0..39 = 780.
  // CHECK: else_branch=780
  printf("else_branch=%ld\n", s);

  // Nested conditionals choosing between reductions.
  long r = 0;
#if defined(_OPENMP) && _OPENMP >= 201511
#if N > 100
#pragma omp parallel for reduction(- : r)
#else
#pragma omp target parallel for reduction(+ : r)
#endif
#endif
  for (int i = 1; i <= N; ++i)
    r += i;
  // 1 + ... + 40 = 820.
  // CHECK: nested=820
  printf("nested=%ld\n", r);
  return 0;
}
