// Transparency: 'declare target' for functions and global variables, in the
// list forms ('declare target(list)', 'to', 'device_type') and the
// 'begin declare target' / 'end declare target' block forms, compiles to the
// same IR with and without homp, and runs the same.
// RUN: %compare_ir %s | FileCheck %s --check-prefix=IR
// RUN: %clang_x86 %s -o %t.ref -Wl,-rpath,%llvm_lib && %t.ref > %t.ref.out
// RUN: %hompcc %s -o %t && %t > %t.out
// RUN: diff %t.ref.out %t.out
// RUN: FileCheck %s --input-file=%t.out
// IR: identical IR and diagnostics

#include <stdio.h>

// OpenMP 4.5 delimited form.
#pragma omp declare target
int scale = 3;
int triple(int x) { return scale * x; }
#pragma omp end declare target

// OpenMP 5.1 'begin declare target' with a device_type clause.
#pragma omp begin declare target device_type(any)
int table[4] = {1, 2, 3, 4};
static int lookup(int i) { return table[i & 3]; }
#pragma omp end declare target

// List forms.
int offset = 7;
#pragma omp declare target(offset)
int add_offset(int x) { return x + offset; }
#pragma omp declare target to(add_offset)

int counter;
int square(int x) { return x * x; }
#pragma omp declare target to(counter, square) device_type(any)

int main(void) {
  // triple(i) + lookup(i) + add_offset(i) + square(i) for i = 0..9:
  //   3 * 45 + (1+2+3+4 + 1+2+3+4 + 1+2) + (45 + 70) + 285
  // = 135 + 23 + 115 + 285 = 558.
  long s = 0;
#pragma omp target map(tofrom : s)
  for (int i = 0; i < 10; ++i)
    s += triple(i) + lookup(i) + add_offset(i) + square(i);
  // CHECK: functions=558
  printf("functions=%ld\n", s);

  // Globals: the device copy of 'scale' is updated with 'target update';
  // triple(5) is then 10 * 5 = 50 on the device. The host's counter is
  // copied back after the device sets it to 42.
  scale = 10;
#pragma omp target update to(scale)
  int r = 0;
#pragma omp target map(from : r)
  {
    r = triple(5);
    counter = 42;
  }
#pragma omp target update from(counter)
  // CHECK: globals=50 counter=42
  printf("globals=%d counter=%d\n", r, counter);

  // A declare-target global is always present on the device, so map(tofrom)
  // on a target construct moves no data: the host still sees 1+2+3+4 = 10
  // after the device added 10 to each element. 'target update from' then
  // copies the device values: 11 + 12 + 13 + 14 = 50.
#pragma omp target map(tofrom : table)
  for (int i = 0; i < 4; ++i)
    table[i] += 10;
  // CHECK: table_host=10
  printf("table_host=%d\n", table[0] + table[1] + table[2] + table[3]);
#pragma omp target update from(table)
  // CHECK: table_updated=50
  printf("table_updated=%d\n", table[0] + table[1] + table[2] + table[3]);
  return 0;
}
