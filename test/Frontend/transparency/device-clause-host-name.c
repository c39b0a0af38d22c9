// Transparency: a 'device' clause whose expression is an ordinary variable
// or enumerator that happens to be called 'host' is standard OpenMP (the
// name is not reserved) and compiles to the same IR with and without homp,
// and runs the same.
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

struct machine {
  int host;
};

static int offload_to(int host) {
  int r = -2;
#pragma omp target device(host) map(from : r)
  r = tag;
  return r;
}

int main(void) {
  for (int d = 0; d < omp_get_num_devices(); ++d) {
    tag = d;
#pragma omp target update to(tag) device(d)
  }
  tag = -1;

  // A local variable named 'host'.
  int host = 3, r = -2;
#pragma omp target device(host) map(from : r)
  r = tag;
  // CHECK: variable=3
  printf("variable=%d\n", r);

  // A parameter named 'host'.
  // CHECK-NEXT: parameter=2
  printf("parameter=%d\n", offload_to(2));

  // A struct member named 'host' (three tokens: m.host).
  struct machine m = {1};
#pragma omp target device(m.host) map(from : r)
  r = tag;
  // CHECK-NEXT: member=1
  printf("member=%d\n", r);

  // 'host' on the data directives.
  int x = 7;
  host = 1;
#pragma omp target enter data map(to : x) device(host)
  // x is present on device 1 only.
  // CHECK-NEXT: present=1,0
  printf("present=%d,%d\n", omp_target_is_present(&x, 1),
         omp_target_is_present(&x, 0));
#pragma omp target exit data map(delete : x) device(host)
  return 0;
}
