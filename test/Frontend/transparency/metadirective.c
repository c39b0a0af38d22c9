// Transparency: 'metadirective' (OpenMP 5.0/5.1) with 'when' selectors on
// the implementation vendor, the device kind, user conditions evaluated at
// compile time, and a 'default' fallback, on the host and
// inside a target region, compiles to the same IR with and without homp,
// and runs the same.
// RUN: %compare_ir %s | FileCheck %s --check-prefix=IR
// RUN: %clang_x86 %s -o %t.ref -Wl,-rpath,%llvm_lib && %t.ref > %t.ref.out
// RUN: %hompcc %s -o %t && %t > %t.out
// RUN: diff %t.ref.out %t.out
// RUN: FileCheck %s --input-file=%t.out
// IR: identical IR and diagnostics

#include <stdio.h>

#define N 64
#define BIG 0

int main(void) {
  int a[N];

  // On the host the 'kind(host)' alternative (parallel for) is chosen; every
  // variant computes a[i] = i, sum 0..63 = 2016.
#pragma omp metadirective when(device = {kind(host)} : parallel for) \
    default(simd)
  for (int i = 0; i < N; ++i)
    a[i] = i;
  long s = 0;
  for (int i = 0; i < N; ++i)
    s += a[i];
  // CHECK: host_kind=2016
  printf("host_kind=%ld\n", s);

  // A compile-time user condition: BIG is 0, so the default (a plain loop
  // directive 'parallel for') runs; a[i] = 2 i: 4032.
#pragma omp metadirective when(user = {condition(BIG)} : target teams distribute parallel for map(from : a)) \
    default(parallel for)
  for (int i = 0; i < N; ++i)
    a[i] = 2 * i;
  s = 0;
  for (int i = 0; i < N; ++i)
    s += a[i];
  // CHECK: user_condition=4032
  printf("user_condition=%ld\n", s);

  // The vendor selector: clang is 'llvm'; the reduction variant runs:
  // 1 + ... + 64 = 2080.
  long r = 0;
#pragma omp metadirective when(implementation = {vendor(llvm)} : parallel for reduction(+ : r)) \
    default(parallel for reduction(+ : r))
  for (int i = 1; i <= N; ++i)
    r += i;
  // CHECK: vendor=2080
  printf("vendor=%ld\n", r);

  // Inside a target region on the x86_64 device ('arch("x86_64")' matches):
  // a[i] = 3 i: 3 * 2016 = 6048.
#pragma omp target map(from : a)
  {
#pragma omp metadirective when(device = {arch("x86_64")} : parallel for) \
    default(simd)
    for (int i = 0; i < N; ++i)
      a[i] = 3 * i;
  }
  s = 0;
  for (int i = 0; i < N; ++i)
    s += a[i];
  // CHECK: target_arch=6048
  printf("target_arch=%ld\n", s);

  // A standalone metadirective variant: 'barrier' or nothing.
#pragma omp parallel num_threads(2)
  {
#pragma omp metadirective when(implementation = {vendor(llvm)} : barrier) default()
  }
  // CHECK: standalone=done
  printf("standalone=done\n");
  return 0;
}
