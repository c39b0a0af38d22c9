// Transparency: a 'device' clause whose expression starts with '*' followed
// by '&' ('*&dev', the dereference of an address, as macros often produce)
// is standard OpenMP and compiles to the same IR with and without homp, and
// runs the same.
// RUN: %compare_ir %s | FileCheck %s --check-prefix=IR
// RUN: %clang_x86 %s -o %t.ref -Wl,-rpath,%llvm_lib && %t.ref > %t.ref.out
// RUN: %hompcc %s -o %t && %t > %t.out
// RUN: diff %t.ref.out %t.out
// RUN: FileCheck %s --input-file=%t.out
// IR: identical IR and diagnostics
//
// Each device's copy of the declare-target global 'tag' holds the device's
// number, so a region that returns 'tag' tells which device it ran on.

#include <omp.h>
#include <stdio.h>

#pragma omp declare target
int tag = -1;
#pragma omp end declare target

// A macro that reads an lvalue through its address.
#define READ(lv) *&(lv)

int main(void) {
  for (int d = 0; d < omp_get_num_devices(); ++d) {
    tag = d;
#pragma omp target update to(tag) device(d)
  }
  tag = -1;

  int dev = 2, r = -2;
#pragma omp target device(*&dev) map(from : r)
  r = tag;
  // *&dev = dev = 2.
  // CHECK: deref_address=2
  printf("deref_address=%d\n", r);

  dev = 3;
#pragma omp target device(READ(dev)) map(from : r)
  r = tag;
  // CHECK-NEXT: macro=3
  printf("macro=%d\n", r);

  int devs[2] = {1, 0};
#pragma omp target device(*&devs[0] & 1) map(from : r)
  r = tag;
  // devs[0] & 1 = 1.
  // CHECK-NEXT: deref_address_bitand=1
  printf("deref_address_bitand=%d\n", r);
  return 0;
}
