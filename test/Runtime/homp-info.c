// HOMP_INFO=1 prints, for each execution of a region, its source location,
// its devices, each device's type, the indices it ran, its launches, the
// bytes it moved in and out (its part of y, 1600 bytes, and the 120-byte
// chunk), its time, and the load imbalance. The host works in place.
// A loop handed out in chunks, here a single chunk of it: the device that
// took it is the only one the imbalance compares (1.00, where the mean over
// all NDEV devices would give NDEV), and the title counts the others.
// RUN: %hompcc -O2 %s -o %t
// RUN: env HOMP_INFO=1 %t 2>&1 | FileCheck %s --check-prefixes=CHECK,CHECK-%ndev --allow-unused-prefixes -D#NDEV=%ndev
// benchmarks/balance/run.py reads the report:
// RUN: env HOMP_INFO=1 %t 2>&1 | %python %S/Inputs/balance-info.py | FileCheck %s --check-prefix=PARSED -D#NDEV=%ndev
// RUN: %t 2>&1 | FileCheck %s --check-prefix=QUIET
// RUN: env HOMP_INFO=yes %t 2>&1 | FileCheck %s --check-prefixes=CHECK,CHECK-%ndev --allow-unused-prefixes -D#NDEV=%ndev
// RUN: env HOMP_INFO=0 %t 2>&1 | FileCheck %s --check-prefix=QUIET
// RUN: not env HOMP_INFO=maybe %t 2>&1 | FileCheck %s --check-prefix=BAD

// CHECK: homp: region {{.*}}homp-info.c:[[# @LINE + 24]]:1: 1000 iterations on [[#NDEV + 1]] devices in {{[0-9.]+}} ms, imbalance {{[0-9.]+}}
// CHECK-NEXT: homp:   device   type   indices                        launches     bytes in    bytes out    time ms
// CHECK-4-NEXT: homp:   0        CPU    [0, 200)                              1         1720         1600 {{ *[0-9.]+$}}
// CHECK-4-NEXT: homp:   1        CPU    [200, 400)                            1         1720         1600 {{ *[0-9.]+$}}
// CHECK-4-NEXT: homp:   2        CPU    [400, 600)                            1         1720         1600 {{ *[0-9.]+$}}
// CHECK-4-NEXT: homp:   3        CPU    [600, 800)                            1         1720         1600 {{ *[0-9.]+$}}
// CHECK-4-NEXT: homp:   host     HOST   [800, 1000)                           1            0            0 {{ *[0-9.]+$}}
// CHECK: homp: region {{.*}}homp-info.c:[[# @LINE + 20]]:1: 1000 iterations on [[#NDEV]] device{{s?}}; schedule SCHED_DYNAMIC, chunks of 1000 in {{[0-9.]+}} ms, imbalance 1.00
// CHECK-1-SAME: {{$}}
// CHECK-2-SAME: {{^}} (1 device took no chunk){{$}}
// CHECK-3-SAME: {{^}} (2 devices took no chunk){{$}}
// CHECK-4-SAME: {{^}} (3 devices took no chunk){{$}}
// CHECK-4-COUNT-4: homp:   {{[0-3] +CPU +(- +0 +0 +0|\[0, 1000\) +1 +[0-9]+ +8000) +[0-9.]+$}}
// CHECK: PASS
// PARSED: schedule '', imbalance {{[0-9.]+}}, [[#NDEV + 1]] of [[#NDEV + 1]] devices ran
// PARSED-NEXT: schedule 'SCHED_DYNAMIC, chunks of 1000', imbalance 1.00, 1 of [[#NDEV]] devices ran
// QUIET-NOT: homp:
// QUIET: PASS
// BAD: homp: error: HOMP_INFO='maybe' is not valid; expected 1 (print each region's devices, ranges, bytes and times) or 0

#include <stdio.h>

int main(void) {
  static double y[1000];
#pragma omp target teams distribute parallel for device(*, host) map(tofrom: y dist_data(BLOCK))
  for (int i = 0; i < 1000; ++i)
    y[i] += i;
#pragma omp target device(*) map(tofrom: y[0:1000] dist_data(ALIGN(loop)))
#pragma omp parallel for dist_iteration(SCHED_DYNAMIC(1000))
  for (int i = 0; i < 1000; ++i)
    y[i] += i;
  for (int i = 0; i < 1000; ++i)
    if (y[i] != 2 * i)
      return puts("FAIL"), 1;
  puts("PASS");
  return 0;
}
