// Transparency: combined and composite constructs ('target parallel for',
// 'target parallel', 'target simd', 'target teams distribute parallel for',
// 'target teams distribute parallel for simd', 'distribute parallel for',
// 'parallel for', 'simd', 'parallel for simd') compile to the same IR with
// and without homp, and run the same.
// RUN: %compare_ir %s | FileCheck %s --check-prefix=IR
// RUN: %clang_x86 %s -o %t.ref -Wl,-rpath,%llvm_lib && %t.ref > %t.ref.out
// RUN: %hompcc %s -o %t && %t > %t.out
// RUN: diff %t.ref.out %t.out
// RUN: FileCheck %s --input-file=%t.out
// IR: identical IR and diagnostics

#include <stdio.h>

#define N 128

static long sum(const int *a) {
  long s = 0;
  for (int i = 0; i < N; ++i)
    s += a[i];
  return s;
}

int main(void) {
  int a[N];
  float x[N], y[N];

  // Sum 0..127 = 127 * 128 / 2 = 8128.
#pragma omp target parallel for map(from : a)
  for (int i = 0; i < N; ++i)
    a[i] = i;
  // CHECK: target_parallel_for=8128
  printf("target_parallel_for=%ld\n", sum(a));

  // Each thread of 'target parallel' writes its share through 'for'.
  // a[i] = 2 * i: 16256.
#pragma omp target parallel map(from : a) num_threads(2)
  {
#pragma omp for
    for (int i = 0; i < N; ++i)
      a[i] = 2 * i;
  }
  // CHECK: target_parallel=16256
  printf("target_parallel=%ld\n", sum(a));

  // a[i] = i + 1: 128 * 129 / 2 = 8256.
#pragma omp target simd map(from : a)
  for (int i = 0; i < N; ++i)
    a[i] = i + 1;
  // CHECK: target_simd=8256
  printf("target_simd=%ld\n", sum(a));

  // a[i] = 3 * i: 3 * 8128 = 24384.
#pragma omp target teams distribute parallel for map(from : a)
  for (int i = 0; i < N; ++i)
    a[i] = 3 * i;
  // CHECK: ttdpf=24384
  printf("ttdpf=%ld\n", sum(a));

  // saxpy: x[i] = i, y[i] = 1, y = 2 x + y, so y[i] = 2 i + 1;
  // sum = 2 * 8128 + 128 = 16384 (exact in float).
  for (int i = 0; i < N; ++i) {
    x[i] = (float)i;
    y[i] = 1.0f;
  }
#pragma omp target teams distribute parallel for simd map(to : x) map(tofrom : y)
  for (int i = 0; i < N; ++i)
    y[i] = 2.0f * x[i] + y[i];
  float fs = 0;
  for (int i = 0; i < N; ++i)
    fs += y[i];
  // CHECK: ttdpfs=16384.0
  printf("ttdpfs=%.1f\n", fs);

  // distribute parallel for inside target teams: a[i] = i % 7; 128 = 18 * 7
  // + 2, so the sum is 18 * 21 + (0 + 1) = 379.
#pragma omp target teams map(from : a)
#pragma omp distribute parallel for
  for (int i = 0; i < N; ++i)
    a[i] = i % 7;
  // CHECK: distribute_parallel_for=379
  printf("distribute_parallel_for=%ld\n", sum(a));

  // Host-side parallel for, simd and parallel for simd: a[i] = 1, then
  // a[i] += i, then a[i] *= 2: sum = 2 * (128 + 8128) = 16512.
#pragma omp parallel for
  for (int i = 0; i < N; ++i)
    a[i] = 1;
#pragma omp simd
  for (int i = 0; i < N; ++i)
    a[i] += i;
#pragma omp parallel for simd
  for (int i = 0; i < N; ++i)
    a[i] *= 2;
  // CHECK: host=16512
  printf("host=%ld\n", sum(a));

  // simd with simdlen, safelen and a reduction:
  // sum of i for i < 128 = 8128.
  long r = 0;
#pragma omp simd simdlen(4) safelen(8) reduction(+ : r)
  for (int i = 0; i < N; ++i)
    r += i;
  // CHECK: simd_reduction=8128
  printf("simd_reduction=%ld\n", r);
  return 0;
}
