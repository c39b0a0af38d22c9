// Transparency: 'collapse(2)' and 'collapse(3)' on host and target loops,
// with unit and non-unit steps, on combined target constructs and on 'simd',
// compile to the same IR with and without homp, and run the same.
// RUN: %compare_ir %s | FileCheck %s --check-prefix=IR
// RUN: %clang_x86 %s -o %t.ref -Wl,-rpath,%llvm_lib && %t.ref > %t.ref.out
// RUN: %hompcc %s -o %t && %t > %t.out
// RUN: diff %t.ref.out %t.out
// RUN: FileCheck %s --input-file=%t.out
// IR: identical IR and diagnostics

#include <stdio.h>

#define NI 6
#define NJ 7
#define NK 5

int main(void) {
  int a[NI][NJ];
  int b[NI][NJ][NK];

  // a[i][j] = i * j: sum = (0+...+5) * (0+...+6) = 15 * 21 = 315.
#pragma omp parallel for collapse(2)
  for (int i = 0; i < NI; ++i)
    for (int j = 0; j < NJ; ++j)
      a[i][j] = i * j;
  long s = 0;
  for (int i = 0; i < NI; ++i)
    for (int j = 0; j < NJ; ++j)
      s += a[i][j];
  // CHECK: host2=315
  printf("host2=%ld\n", s);

  // Device, collapse(2): a[i][j] = i + j: sum = 7 * 15 + 6 * 21 = 231.
#pragma omp target teams distribute parallel for collapse(2) map(from : a)
  for (int i = 0; i < NI; ++i)
    for (int j = 0; j < NJ; ++j)
      a[i][j] = i + j;
  s = 0;
  for (int i = 0; i < NI; ++i)
    for (int j = 0; j < NJ; ++j)
      s += a[i][j];
  // CHECK: target2=231
  printf("target2=%ld\n", s);

  // Device, collapse(3): b = i + j + k:
  //   sum = NJ*NK*15 + NI*NK*21 + NI*NJ*10 = 525 + 630 + 420 = 1575.
#pragma omp target teams distribute parallel for collapse(3) map(from : b)
  for (int i = 0; i < NI; ++i)
    for (int j = 0; j < NJ; ++j)
      for (int k = 0; k < NK; ++k)
        b[i][j][k] = i + j + k;
  s = 0;
  for (int i = 0; i < NI; ++i)
    for (int j = 0; j < NJ; ++j)
      for (int k = 0; k < NK; ++k)
        s += b[i][j][k];
  // CHECK: target3=1575
  printf("target3=%ld\n", s);

  // Host collapse(3) with a reduction and non-unit steps: i in {0,2,4},
  // j in {1,4}, k in {0,1,2,3,4}: count = 3 * 2 * 5 = 30, sum of i * j * k =
  // (0+2+4) * (1+4) * (0+1+2+3+4) = 6 * 5 * 10 = 300.
  long cnt = 0, prod = 0;
#pragma omp parallel for collapse(3) reduction(+ : cnt, prod)
  for (int i = 0; i < NI; i += 2)
    for (int j = 1; j < NJ; j += 3)
      for (int k = 0; k < NK; ++k) {
        cnt += 1;
        prod += i * j * k;
      }
  // CHECK: host3 count=30 sum=300
  printf("host3 count=%ld sum=%ld\n", cnt, prod);

  // collapse(2) on 'target parallel for' and on 'simd':
  // count of (i, j) with i < 6, j < 7 = 42.
  long c2 = 0;
#pragma omp target parallel for collapse(2) reduction(+ : c2)
  for (int i = 0; i < NI; ++i)
    for (int j = 0; j < NJ; ++j)
      c2 += 1;
  long c3 = 0;
#pragma omp simd collapse(2) reduction(+ : c3)
  for (int i = 0; i < NI; ++i)
    for (int j = 0; j < NJ; ++j)
      c3 += 1;
  // CHECK: tpf2=42 simd2=42
  printf("tpf2=%ld simd2=%ld\n", c2, c3);
  return 0;
}
