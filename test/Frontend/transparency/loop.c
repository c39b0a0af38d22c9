// Transparency: the OpenMP 5 'loop' construct, alone and combined
// ('target teams loop', 'target parallel loop', 'teams loop', 'parallel
// loop', 'loop bind(...)'), compiles to the same IR with and without homp,
// and runs the same.
// RUN: %compare_ir %s | FileCheck %s --check-prefix=IR
// RUN: %clang_x86 %s -o %t.ref -Wl,-rpath,%llvm_lib && %t.ref > %t.ref.out
// RUN: %hompcc %s -o %t && %t > %t.out
// RUN: diff %t.ref.out %t.out
// RUN: FileCheck %s --input-file=%t.out
// IR: identical IR and diagnostics

#include <stdio.h>

#define N 96

static long sum(const int *a) {
  long s = 0;
  for (int i = 0; i < N; ++i)
    s += a[i];
  return s;
}

int main(void) {
  int a[N];

  // Sum 0..95 = 95 * 96 / 2 = 4560.
#pragma omp target teams loop map(from : a)
  for (int i = 0; i < N; ++i)
    a[i] = i;
  // CHECK: target_teams_loop=4560
  printf("target_teams_loop=%ld\n", sum(a));

  // a[i] = 2 i + 1: 96^2 = 9216.
#pragma omp target parallel loop map(from : a)
  for (int i = 0; i < N; ++i)
    a[i] = 2 * i + 1;
  // CHECK: target_parallel_loop=9216
  printf("target_parallel_loop=%ld\n", sum(a));

  // 'teams loop' and a nested 'loop bind(parallel)' in a target region:
  // a[i] = 5: 480.
#pragma omp target map(from : a)
#pragma omp teams loop
  for (int i = 0; i < N; ++i)
    a[i] = 5;
  // CHECK: teams_loop=480
  printf("teams_loop=%ld\n", sum(a));

#pragma omp target parallel map(tofrom : a)
  {
#pragma omp loop bind(parallel)
    for (int i = 0; i < N; ++i)
      a[i] += i;
  }
  // 480 + 4560 = 5040.
  // CHECK: loop_bind=5040
  printf("loop_bind=%ld\n", sum(a));

  // Host 'parallel loop' with a reduction: sum 1..96 = 4656.
  long r = 0;
#pragma omp parallel loop reduction(+ : r)
  for (int i = 1; i <= N; ++i)
    r += i;
  // CHECK: parallel_loop=4656
  printf("parallel_loop=%ld\n", r);
  return 0;
}
