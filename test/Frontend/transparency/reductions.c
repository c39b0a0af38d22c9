// Transparency: reductions with +, *, max, min, &&, ||, |, &, ^ on scalars,
// and an array-section reduction, on host and target constructs, compile to
// the same IR with and without homp, and run the same.
// RUN: %compare_ir %s | FileCheck %s --check-prefix=IR
// RUN: %clang_x86 %s -o %t.ref -Wl,-rpath,%llvm_lib && %t.ref > %t.ref.out
// RUN: %hompcc %s -o %t && %t > %t.out
// RUN: diff %t.ref.out %t.out
// RUN: FileCheck %s --input-file=%t.out
// IR: identical IR and diagnostics

#include <stdio.h>

#define N 20

int main(void) {
  int v[N];
  // v[i] = (7 * i) % 20 + 1: a permutation of 1..20 (7 is coprime to 20).
  for (int i = 0; i < N; ++i)
    v[i] = (7 * i) % N + 1;

  // Host: sum of 1..20 = 210, product of 1..10 = 3628800, max 20, min 1.
  long sum = 0, prod = 1;
  int mx = 0, mn = 1000;
#pragma omp parallel for reduction(+ : sum) reduction(max : mx) reduction(min : mn)
  for (int i = 0; i < N; ++i) {
    sum += v[i];
    if (v[i] > mx)
      mx = v[i];
    if (v[i] < mn)
      mn = v[i];
  }
#pragma omp parallel for reduction(* : prod)
  for (int i = 1; i <= 10; ++i)
    prod *= i;
  // CHECK: host sum=210 prod=3628800 max=20 min=1
  printf("host sum=%ld prod=%ld max=%d min=%d\n", sum, prod, mx, mn);

  // Target: the same reductions on the device.
  sum = 0;
  prod = 1;
  mx = 0;
  mn = 1000;
#pragma omp target teams distribute parallel for map(to : v) reduction(+ : sum) reduction(max : mx) reduction(min : mn)
  for (int i = 0; i < N; ++i) {
    sum += v[i];
    mx = v[i] > mx ? v[i] : mx;
    mn = v[i] < mn ? v[i] : mn;
  }
#pragma omp target parallel for reduction(* : prod)
  for (int i = 1; i <= 10; ++i)
    prod *= i;
  // CHECK: target sum=210 prod=3628800 max=20 min=1
  printf("target sum=%ld prod=%ld max=%d min=%d\n", sum, prod, mx, mn);

  // Logical and bitwise: all v[i] > 0 (1), not all v[i] > 1 (0), some
  // v[i] == 20 (1); OR of 1..20 = 31 (16 | 15), AND of v[i] | 32 = 32,
  // XOR of 1..20 = 20 (XOR 1..n is n when n % 4 == 0).
  int all_pos = 1, all_gt1 = 1, any20 = 0, bor = 0, band = ~0, bxor = 0;
#pragma omp target teams distribute parallel for map(to : v) \
    reduction(&& : all_pos, all_gt1) reduction(|| : any20) \
    reduction(| : bor) reduction(& : band) reduction(^ : bxor)
  for (int i = 0; i < N; ++i) {
    all_pos = all_pos && v[i] > 0;
    all_gt1 = all_gt1 && v[i] > 1;
    any20 = any20 || v[i] == 20;
    bor |= v[i];
    band &= v[i] | 32;
    bxor ^= v[i];
  }
  // CHECK: and=1 and2=0 or=1 bor=31 band=32 bxor=20
  printf("and=%d and2=%d or=%d bor=%d band=%d bxor=%d\n", all_pos, all_gt1,
         any20, bor, band, bxor);

  // Array-section reduction: a histogram of v[i] % 4 over a section.
  // 1..20 has five values in each residue class.
  int hist[6] = {0, 0, 0, 0, 0, 0};
#pragma omp parallel for reduction(+ : hist[1:4])
  for (int i = 0; i < N; ++i)
    hist[1 + v[i] % 4] += 1;
  // CHECK: hist=0 5 5 5 5 0
  printf("hist=%d %d %d %d %d %d\n", hist[0], hist[1], hist[2], hist[3],
         hist[4], hist[5]);

  // The same on the device, on a whole array: bucket i % 3 of i for
  // i = 0..19: 0+3+...+18 = 63, 1+4+...+19 = 70, 2+5+...+17 = 57.
  int b[3] = {0, 0, 0};
#pragma omp target teams distribute parallel for reduction(+ : b[0:3])
  for (int i = 0; i < N; ++i)
    b[i % 3] += i;
  // CHECK: buckets=63 70 57
  printf("buckets=%d %d %d\n", b[0], b[1], b[2]);

  // Floating-point reduction of exactly representable values:
  // sum of i / 4 for i = 0..19 = 190 / 4 = 47.5.
  double d = 0;
#pragma omp target parallel for reduction(+ : d)
  for (int i = 0; i < N; ++i)
    d += i / 4.0;
  // CHECK: double=47.50
  printf("double=%.2f\n", d);
  return 0;
}
