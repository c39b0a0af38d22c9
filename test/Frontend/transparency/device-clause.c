// Transparency: the standard 'device' clause in every form that a reader of
// homp's device-list extension could mistake for a device list: a literal, a
// variable, arithmetic, the conditional operator (its ':'), a dereference
// (its '*'), a bitwise and (its '&'), the 'device_num:' modifier, extra
// parentheses, calls with several arguments, subscripts and members. All
// compile to the same IR with and without homp, on 'target' and on the data
// directives, and run the same.
// RUN: %compare_ir %s | FileCheck %s --check-prefix=IR
// RUN: %clang_x86 %s -o %t.ref -Wl,-rpath,%llvm_lib && %t.ref > %t.ref.out
// RUN: %hompcc %s -o %t && %t > %t.out
// RUN: diff %t.ref.out %t.out
// RUN: FileCheck %s --input-file=%t.out
// IR: identical IR and diagnostics
//
// The program runs on the 4 x86_64 offload devices. Each device's copy of
// the declare-target global 'tag' is set to the device's number, so a region
// that returns 'tag' tells which device it ran on.

#include <omp.h>
#include <stdio.h>

#pragma omp declare target
int tag = -1;
#pragma omp end declare target

struct config {
  int dev;
};

static int pick(int a, int b) { return a > b ? a : b; }

int main(void) {
  // CHECK: devices=4
  int n = omp_get_num_devices();
  printf("devices=%d\n", n);
  for (int d = 0; d < n; ++d) {
    tag = d;
#pragma omp target update to(tag) device(d)
  }
  tag = -1;

  int dev = 2, c = 0, one = 1, two = 2, a = 3, b = 6;
  int *p = &two;
  int arr[3] = {0, 3, 1};
  struct config cfg = {1};
  struct config *pc = &cfg;
  int r;

#define OMP(x) _Pragma(#x)
#define ON(what, expr)                                                         \
  r = -2;                                                                      \
  OMP(omp target map(from : r) device(expr))                                   \
  r = tag;                                                                     \
  printf("%s=%d\n", what, r);

  // Written out, each form once:
  r = -2;
#pragma omp target device(0) map(from : r)
  r = tag;
  // CHECK-NEXT: literal=0
  printf("literal=%d\n", r);

#pragma omp target device(dev) map(from : r)
  r = tag;
  // CHECK-NEXT: variable=2
  printf("variable=%d\n", r);

#pragma omp target device(n - 1) map(from : r)
  r = tag;
  // n - 1 = 3.
  // CHECK-NEXT: minus=3
  printf("minus=%d\n", r);

#pragma omp target device(c ? 0 : 1) map(from : r)
  r = tag;
  // c is 0: the conditional gives 1.
  // CHECK-NEXT: conditional=1
  printf("conditional=%d\n", r);

#pragma omp target device(one ? n - 1 : 0) map(from : r)
  r = tag;
  // CHECK-NEXT: conditional2=3
  printf("conditional2=%d\n", r);

#pragma omp target device(c ? 0 : one ? 2 : 3) map(from : r)
  r = tag;
  // Nested without parentheses: c ? 0 : (one ? 2 : 3) = 2.
  // CHECK-NEXT: nested_conditional=2
  printf("nested_conditional=%d\n", r);

#pragma omp target device(one ? c ? 0 : 1 : 2) map(from : r)
  r = tag;
  // one ? (c ? 0 : 1) : 2 = 1.
  // CHECK-NEXT: nested_conditional2=1
  printf("nested_conditional2=%d\n", r);

#pragma omp target device(*p) map(from : r)
  r = tag;
  // *p = two = 2.
  // CHECK-NEXT: dereference=2
  printf("dereference=%d\n", r);

#pragma omp target device(a & b) map(from : r)
  r = tag;
  // 3 & 6 = 0b011 & 0b110 = 0b010 = 2.
  // CHECK-NEXT: bitand=2
  printf("bitand=%d\n", r);

#pragma omp target device(*p & a) map(from : r)
  r = tag;
  // 2 & 3 = 2.
  // CHECK-NEXT: deref_bitand=2
  printf("deref_bitand=%d\n", r);

#pragma omp target device(device_num : 1) map(from : r)
  r = tag;
  // CHECK-NEXT: device_num=1
  printf("device_num=%d\n", r);

#pragma omp target device(device_num : c ? 2 : 3) map(from : r)
  r = tag;
  // CHECK-NEXT: device_num_conditional=3
  printf("device_num_conditional=%d\n", r);

#pragma omp target device((dev)) map(from : r)
  r = tag;
  // CHECK-NEXT: parenthesized=2
  printf("parenthesized=%d\n", r);

#pragma omp target device(pick(1, 3)) map(from : r)
  r = tag;
  // max(1, 3) = 3.
  // CHECK-NEXT: call=3
  printf("call=%d\n", r);

#pragma omp target device(arr[1] - 2) map(from : r)
  r = tag;
  // 3 - 2 = 1.
  // CHECK-NEXT: subscript=1
  printf("subscript=%d\n", r);

#pragma omp target device(cfg.dev + pc->dev) map(from : r)
  r = tag;
  // 1 + 1 = 2.
  // CHECK-NEXT: members=2
  printf("members=%d\n", r);

#pragma omp target device(omp_get_default_device()) map(from : r)
  r = tag;
  // The default device is 0.
  // CHECK-NEXT: default_device=0
  printf("default_device=%d\n", r);

  // The same forms through _Pragma in a macro.
  // CHECK-NEXT: macro_conditional=1
  ON("macro_conditional", c ? 0 : 1)
  // CHECK-NEXT: macro_dereference=2
  ON("macro_dereference", *p)
  // CHECK-NEXT: macro_bitand=2
  ON("macro_bitand", a & b)

  // The device clause on combined constructs and on the data directives.
  // x is mapped only on device (c ? 0 : 1) = 1 with value 40; device
  // (a & b) = 2 never sees it. Device *p - 1 = 1 adds 2 to its copy, which
  // stays mapped (no copy back at the end of 'target data'); the host zeroes
  // its own x and 'target update from' on device (one) = 1 brings back 42.
  int x = 40, present1 = -1, present2 = -1;
  r = 0;
#pragma omp target teams distribute parallel for device(c ? 0 : 1) reduction(+ : r)
  for (int i = 0; i < 4; ++i)
    r += tag;
  // Four iterations on device 1: r = 4 * 1 = 4.
#pragma omp target enter data map(to : x) device(c ? 0 : 1)
  present1 = omp_target_is_present(&x, 1);
  present2 = omp_target_is_present(&x, a & b);
#pragma omp target data map(tofrom : x) device(*p - 1)
  {
#pragma omp target device(device_num : *p - 1) map(tofrom : x)
    x += 2;
  }
  x = 0;
#pragma omp target update from(x) device((one))
#pragma omp target exit data map(delete : x) device(c ? 0 : 1)
  // CHECK-NEXT: combined=4 present=1,0 x=42
  printf("combined=%d present=%d,%d x=%d\n", r, present1, present2, x);
  return 0;
}
