// AUTO's trial of the fastest device alone runs on the host when the
// machine model rates the host fastest, as it does for a data-bound loop:
// the host copies nothing. The sample measures the host sharing the cores
// with the offload devices, and could rate an offload device first: here
// the host is made 1.5 times slower (HOMP_EMULATE), so the sample always
// does, while the model, which also counts the offload devices' copies,
// still rates the host first. Every execution of that trial runs on the
// host (without the rule, every one ran on an offload device), and the
// results match sequential code.
// REQUIRES: devices-2
// RUN: %hompcc -O2 %s -o %t
// RUN: env HOMP_EMULATE=host:1.5 HOMP_INFO=1 %t > %t.info 2>&1
// RUN: FileCheck %s --input-file=%t.info
// RUN: grep -A2 "AUTO: fastest device alone" %t.info | FileCheck %s --check-prefix=ALONE
// CHECK: schedule AUTO: fastest device alone (trial {{[2-5] of [2-5]}}
// CHECK-NEXT: device type
// CHECK-NEXT: homp: host HOST
// CHECK-NOT: FAIL
// CHECK: PASS
// ALONE: homp: host HOST
// ALONE-NOT: homp: {{[0-9]+}} CPU

#include <stdio.h>
#include <stdlib.h>

enum { n = 1 << 21, Runs = 16 };
static double x[n], y[n];

int main(void) {
  for (int i = 0; i < n; ++i)
    x[i] = i % 101, y[i] = 0;
  for (int Run = 0; Run < Runs; ++Run) {
#pragma omp target device(*, host) map(to: x[0:n] dist_data(ALIGN(loop))) \
    map(tofrom: y[0:n] dist_data(ALIGN(loop)))
#pragma omp parallel for dist_iteration(AUTO)
    for (int i = 0; i < n; ++i)
      y[i] += 2 * x[i];
  }
  int Bad = 0;
  for (int i = 0; i < n; ++i)
    Bad += y[i] != Runs * 2.0 * (i % 101);
  puts(Bad ? "FAIL" : "PASS");
  return Bad != 0;
}
