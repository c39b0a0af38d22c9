// Transparency: the OpenMP 5.1 loop transformations 'tile sizes(...)' (one
// and two dimensions, under a worksharing loop and inside a target region)
// and 'unroll' ('partial(2)', 'partial', 'full', under 'parallel for')
// compile to the same IR with and without homp, and run the same.
// RUN: %compare_ir %s | FileCheck %s --check-prefix=IR
// RUN: %clang_x86 %s -o %t.ref -Wl,-rpath,%llvm_lib && %t.ref > %t.ref.out
// RUN: %hompcc %s -o %t && %t > %t.out
// RUN: diff %t.ref.out %t.out
// RUN: FileCheck %s --input-file=%t.out
// IR: identical IR and diagnostics

#include <stdio.h>

#define N 30
#define M 7

int main(void) {
  int a[N];
  int b[N][M];

  // tile of one loop (30 is not a multiple of 4): a[i] = i, 435.
#pragma omp tile sizes(4)
  for (int i = 0; i < N; ++i)
    a[i] = i;
  long s = 0;
  for (int i = 0; i < N; ++i)
    s += a[i];
  // CHECK: tile1=435
  printf("tile1=%ld\n", s);

  // 2-d tile under 'parallel for' (which takes the outer tile loop):
  // b[i][j] = i * M + j runs over 0..209 once: 209 * 210 / 2 = 21945.
#pragma omp parallel for
#pragma omp tile sizes(4, 3)
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < M; ++j)
      b[i][j] = i * M + j;
  s = 0;
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < M; ++j)
      s += b[i][j];
  // CHECK: tile2=21945
  printf("tile2=%ld\n", s);

  // tile inside a target region: b[i][j] = 1: 210.
#pragma omp target map(from : b)
  {
#pragma omp tile sizes(8, 2)
    for (int i = 0; i < N; ++i)
      for (int j = 0; j < M; ++j)
        b[i][j] = 1;
  }
  s = 0;
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < M; ++j)
      s += b[i][j];
  // CHECK: target_tile=210
  printf("target_tile=%ld\n", s);

  // unroll partial(2) under parallel for (odd trip count 29):
  // a[i] = 2 i for i < 29, a[29] stays 29: 2 * 406 + 29 = 841.
#pragma omp parallel for
#pragma omp unroll partial(2)
  for (int i = 0; i < N - 1; ++i)
    a[i] = 2 * i;
  s = 0;
  for (int i = 0; i < N; ++i)
    s += a[i];
  // CHECK: unroll_partial2=841
  printf("unroll_partial2=%ld\n", s);

  // unroll partial (factor chosen by the compiler) and unroll full of a
  // constant trip count: sum 0..29 = 435, and 1 + ... + 8 = 36.
  long r = 0;
#pragma omp unroll partial
  for (int i = 0; i < N; ++i)
    r += i;
  int f = 0;
#pragma omp unroll full
  for (int i = 1; i <= 8; ++i)
    f += i;
  // CHECK: unroll_partial=435 unroll_full=36
  printf("unroll_partial=%ld unroll_full=%d\n", r, f);

  // unroll partial(2) inside a target teams distribute parallel for:
  // a[i] = i + 1: 465.
#pragma omp target teams distribute parallel for map(from : a)
#pragma omp unroll partial(2)
  for (int i = 0; i < N; ++i)
    a[i] = i + 1;
  s = 0;
  for (int i = 0; i < N; ++i)
    s += a[i];
  // CHECK: target_unroll=465
  printf("target_unroll=%ld\n", s);
  return 0;
}
