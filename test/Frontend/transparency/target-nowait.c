// Transparency: asynchronous target regions ('target nowait' with a later
// 'taskwait', 'depend' chains between target tasks and host tasks,
// 'target teams distribute parallel for nowait', 'taskgroup' around target
// tasks) compile to the same IR with and without homp, and run the same.
// RUN: %compare_ir %s | FileCheck %s --check-prefix=IR
// RUN: %clang_x86 %s -o %t.ref -Wl,-rpath,%llvm_lib && %t.ref > %t.ref.out
// RUN: %hompcc %s -o %t && %t > %t.out
// RUN: diff %t.ref.out %t.out
// RUN: FileCheck %s --input-file=%t.out
// IR: identical IR and diagnostics

#include <stdio.h>

#define N 50

int main(void) {
  int a[N], b[N];

  // Two independent target regions launched with nowait, then taskwait:
  // a[i] = i (1225) and b[i] = 2 (100).
#pragma omp target nowait map(from : a)
  for (int i = 0; i < N; ++i)
    a[i] = i;
#pragma omp target teams distribute parallel for nowait map(from : b)
  for (int i = 0; i < N; ++i)
    b[i] = 2;
#pragma omp taskwait
  long sa = 0, sb = 0;
  for (int i = 0; i < N; ++i) {
    sa += a[i];
    sb += b[i];
  }
  // CHECK: nowait a=1225 b=100
  printf("nowait a=%ld b=%ld\n", sa, sb);

  // A dependence chain through a: set, scale on the device, then a host
  // task reads it: a[i] = 3 (i + 1): 3 * 1275 = 3825, then the host task
  // sums it.
  long total = 0;
#pragma omp parallel num_threads(2)
#pragma omp single
  {
#pragma omp target nowait depend(out : a) map(from : a)
    for (int i = 0; i < N; ++i)
      a[i] = i + 1;
#pragma omp target nowait depend(inout : a) map(tofrom : a)
    for (int i = 0; i < N; ++i)
      a[i] *= 3;
#pragma omp task depend(in : a) shared(total, a)
    for (int i = 0; i < N; ++i)
      total += a[i];
#pragma omp taskwait
  }
  // CHECK: chain=3825
  printf("chain=%ld\n", total);

  // target nowait inside a taskgroup: the end of the taskgroup waits.
  // b[i] = i * i: 49 * 50 * 99 / 6 = 40425.
#pragma omp taskgroup
  {
#pragma omp target nowait map(from : b)
    for (int i = 0; i < N; ++i)
      b[i] = i * i;
  }
  sb = 0;
  for (int i = 0; i < N; ++i)
    sb += b[i];
  // CHECK: taskgroup=40425
  printf("taskgroup=%ld\n", sb);

  // nowait with a reduction result read after taskwait: 1 + ... + 50 = 1275.
  // (With clang 19's x86_64 offload runtime a 'teams' reduction with nowait
  // hangs, in plain clang too, so this uses 'target parallel for'.)
  long r = 0;
#pragma omp target parallel for nowait reduction(+ : r) map(tofrom : r)
  for (int i = 1; i <= N; ++i)
    r += i;
#pragma omp taskwait
  // CHECK: reduction=1275
  printf("reduction=%ld\n", r);
  return 0;
}
