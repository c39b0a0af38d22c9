// Transparency: 'target data', 'target enter data', 'target exit data' and
// 'target update' (also with 'nowait' and 'depend') compile to the same IR
// with and without homp, and run the same.
// RUN: %compare_ir %s | FileCheck %s --check-prefix=IR
// RUN: %clang_x86 %s -o %t.ref -Wl,-rpath,%llvm_lib && %t.ref > %t.ref.out
// RUN: %hompcc %s -o %t && %t > %t.out
// RUN: diff %t.ref.out %t.out
// RUN: FileCheck %s --input-file=%t.out
// IR: identical IR and diagnostics

#include <stdio.h>

#define N 64

int main(void) {
  int a[N], b[N];
  for (int i = 0; i < N; ++i) {
    a[i] = i;
    b[i] = 0;
  }

  // target data: a is copied in, b is copied back at the end of the region.
  // b[i] = 2 * i, sum over 0..63 = 2 * (63 * 64 / 2) = 4032.
#pragma omp target data map(to : a) map(from : b)
  {
#pragma omp target
    for (int i = 0; i < N; ++i)
      b[i] = 2 * a[i];
  }
  long s = 0;
  for (int i = 0; i < N; ++i)
    s += b[i];
  // CHECK: data=4032
  printf("data=%ld\n", s);

  // enter data / update / exit data. The host changes a after mapping it;
  // 'target update to' pushes the new values (a[i] = i + 1), the device
  // adds 10, 'target update from' brings a back (a[i] = i + 11):
  // sum = 64 * 11 + 63 * 64 / 2 = 704 + 2016 = 2720.
#pragma omp target enter data map(to : a[0:N])
  for (int i = 0; i < N; ++i)
    a[i] = i + 1;
#pragma omp target update to(a[0:N])
#pragma omp target
  for (int i = 0; i < N; ++i)
    a[i] += 10;
#pragma omp target update from(a[0:N])
  s = 0;
  for (int i = 0; i < N; ++i)
    s += a[i];
  // CHECK: update=2720
  printf("update=%ld\n", s);
#pragma omp target exit data map(release : a[0:N])

  // nowait and depend on the data-movement directives, ordered through a
  // dependence chain on a: a[i] = 3 * i on the host, the device adds 1:
  // sum = 3 * 2016 + 64 = 6112.
  for (int i = 0; i < N; ++i)
    a[i] = 3 * i;
#pragma omp target enter data map(to : a[0:N]) nowait depend(out : a)
#pragma omp target nowait depend(inout : a)
  for (int i = 0; i < N; ++i)
    a[i] += 1;
#pragma omp target update from(a[0:N]) nowait depend(inout : a)
#pragma omp target exit data map(delete : a[0:N]) nowait depend(in : a)
#pragma omp taskwait
  s = 0;
  for (int i = 0; i < N; ++i)
    s += a[i];
  // CHECK: nowait=6112
  printf("nowait=%ld\n", s);

  // exit data with 'from' copies the device values back: b[i] = 5.
  for (int i = 0; i < N; ++i)
    b[i] = 0;
#pragma omp target enter data map(alloc : b[0:N])
#pragma omp target
  for (int i = 0; i < N; ++i)
    b[i] = 5;
#pragma omp target exit data map(from : b[0:N])
  s = 0;
  for (int i = 0; i < N; ++i)
    s += b[i];
  // CHECK: exit=320
  printf("exit=%ld\n", s);
  return 0;
}
