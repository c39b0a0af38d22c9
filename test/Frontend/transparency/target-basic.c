// Transparency: a standard target region compiles to the same IR with and
// without homp (host, x86_64 device, nvptx and amdgcn devices) and runs the
// same.
// RUN: %compare_ir %s | FileCheck %s --check-prefix=IR
// RUN: %clang_x86 %s -o %t.ref -Wl,-rpath,%llvm_lib && %t.ref > %t.ref.out
// RUN: %hompcc %s -o %t && %t > %t.out
// RUN: diff %t.ref.out %t.out
// RUN: FileCheck %s --input-file=%t.out
// IR: identical IR and diagnostics
// CHECK: sum=5050

#include <stdio.h>

int main(void) {
  int a[100];
  for (int i = 0; i < 100; ++i)
    a[i] = i + 1;
  long sum = 0;
#pragma omp target map(to : a) map(tofrom : sum)
  for (int i = 0; i < 100; ++i)
    sum += a[i];
  printf("sum=%ld\n", sum);
  return 0;
}
