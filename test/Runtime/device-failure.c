// A device that fails before any of its results reached the host (it
// cannot allocate its part, copy it in, or launch) has its part run again
// on the host, with a warning that names the region and the device; the
// result is still right. A failure after results came back, or under
// OMP_TARGET_OFFLOAD=MANDATORY, or with data living on the devices, stops
// the program instead. HOMP_FAULT injects the failures, on devices 0 to 3.
// Device 1's part of n = 1000 elements on NDEV devices (blocks that differ
// by one at most, the larger first) is (1000 + NDEV - 2) / NDEV elements.
// HOMP_INFO keeps the failed device's row for what it did (device 1 failed
// before any copy or launch) and gives the host a row of its own for the
// part it ran instead: one launch, no copies. The imbalance compares the
// devices' shares, not the host's rerun after them: with devices 0 and 1,
// device 0's share alone.
// REQUIRES: devices-4
// RUN: %hompcc -O2 %s -o %t
// RUN: env HOMP_FAULT=1:alloc %t kernel 2>&1 | FileCheck %s --check-prefix=ALLOC -D#NDEV=%ndev
// RUN: env HOMP_FAULT=2:launch %t kernel 2>&1 | FileCheck %s --check-prefix=LAUNCH
// RUN: env HOMP_FAULT=3:copy %t kernel 2>&1 | FileCheck %s --check-prefix=COPYIN
// RUN: env HOMP_FAULT=0:launch:after=1,3:alloc %t kernel 2>&1 | FileCheck %s --check-prefix=TWO
// RUN: env HOMP_FAULT=1:alloc HOMP_INFO=1 %t kernel 2>&1 | FileCheck %s --check-prefix=INFO -D#NDEV=%ndev
// RUN: env HOMP_DEVICES=0,1 HOMP_FAULT=1:alloc HOMP_INFO=1 %t kernel 2>&1 | FileCheck %s --check-prefix=INFO2
// RUN: env HOMP_FAULT=0:launch:after=1,3:alloc HOMP_INFO=1 %t kernel 2>&1 | FileCheck %s --check-prefix=INFOTWO
// RUN: not env HOMP_FAULT=0:copy:after=2 %t kernel 2>&1 | FileCheck %s --check-prefix=COPYOUT
// RUN: not env HOMP_FAULT=1:alloc OMP_TARGET_OFFLOAD=MANDATORY %t kernel 2>&1 | FileCheck %s --check-prefix=MANDATORY -D#NDEV=%ndev
// RUN: not env HOMP_FAULT=2:alloc %t data 2>&1 | FileCheck %s --check-prefix=DATA
// RUN: not env HOMP_FAULT=one:alloc %t kernel 2>&1 | FileCheck %s --check-prefix=BAD

// ALLOC: homp: warning: region {{.*}}device-failure.c:[[# @LINE + 48]]:1: device 1 cannot allocate [[#mul(8, div(NDEV + 998, NDEV))]] bytes for its part of 'x'; running its part on the host
// ALLOC: PASS
// LAUNCH: homp: warning: region {{.*}}device-failure.c:[[# @LINE + 46]]:1: device 2 failed to run its part; running its part on the host
// LAUNCH: PASS
// COPYIN: homp: warning: region {{.*}}: copying 'x' to device 3 failed; running its part on the host
// COPYIN: PASS
// TWO-DAG: homp: warning: region {{.*}}: device 3 cannot allocate
// TWO-DAG: homp: warning: region {{.*}}: device 0 failed to run its part
// TWO: PASS
// INFO: homp: region {{.*}}device-failure.c:[[# @LINE + 39]]:1: 1000 iterations on [[#NDEV]] devices; the host ran the failed part of 1 in {{[0-9.]+}} ms, imbalance {{[0-9.]+$}}
// INFO-NEXT: homp:   device
// INFO-NEXT: homp:   0        {{[A-Z]+ +}}[0, [[#div(NDEV + 999, NDEV)]]){{ +}}1{{ +[0-9]+ +[0-9]+ +[0-9.]+$}}
// INFO-NEXT: homp:   1        {{[A-Z]+ +}}failed{{ +}}0{{ +}}0{{ +}}0{{ +}}{{[0-9.]+$}}
// INFO: homp:   host     HOST   {{\[}}[[#div(NDEV + 999, NDEV)]], [[#div(NDEV + 999, NDEV) + div(NDEV + 998, NDEV)]]){{ +}}1{{ +}}0{{ +}}0{{ +}}{{[0-9.]+$}}
// INFO: PASS
// INFO2: homp: region {{.*}}: 1000 iterations on 2 devices; the host ran the failed part of 1 in {{[0-9.]+}} ms, imbalance 1.00{{$}}
// INFO2-NEXT: homp:   device
// INFO2-NEXT: homp:   0        {{[A-Z]+ +}}[0, 500){{ +}}1{{ +[0-9]+ +[0-9]+ +[0-9.]+$}}
// INFO2-NEXT: homp:   1        {{[A-Z]+ +}}failed{{ +}}0{{ +}}0{{ +}}0{{ +}}{{[0-9.]+$}}
// INFO2-NEXT: homp:   host     HOST   [500, 1000){{ +}}1{{ +}}0{{ +}}0{{ +}}{{[0-9.]+$}}
// INFO2: PASS
// Device 0 failed at its launch in the second round, after its copies in;
// the host ran both failed parts, in one row.
// INFOTWO: the host ran the failed part of 0, 3 in
// INFOTWO-NEXT: homp:   device
// INFOTWO-NEXT: homp:   0        {{[A-Z]+ +}}failed{{ +}}1{{ +[0-9]+ +[0-9]+ +[0-9.]+$}}
// INFOTWO: homp:   3        {{[A-Z]+ +}}failed{{ +}}0{{ +}}0{{ +}}0{{ +}}{{[0-9.]+$}}
// INFOTWO: homp:   host     HOST   [0, {{[0-9]+}})/2{{ +}}2{{ +}}0{{ +}}0{{ +}}{{[0-9.]+$}}
// INFOTWO: PASS
// COPYOUT: homp: error: region {{.*}}device-failure.c:[[# @LINE + 19]]:1: copying 'y' back from device 0 failed
// COPYOUT-NOT: PASS
// MANDATORY: homp: error: region {{.*}}device-failure.c:[[# @LINE + 17]]:1: device 1 cannot allocate [[#mul(8, div(NDEV + 998, NDEV))]] bytes for its part of 'x'
// MANDATORY-NOT: PASS
// DATA: homp: error: region {{.*}}device-failure.c:[[# @LINE + 23]]:1: device 2 cannot allocate {{[0-9]+}} bytes for its part of 'x'
// DATA-NOT: PASS
// BAD: homp: error: HOMP_FAULT='one:alloc' is not valid: 'one:alloc' is not 'device:alloc', 'device:copy' or 'device:launch', optionally followed by ':after=N'

#include <stdio.h>
#include <string.h>

int main(int argc, char **argv) {
  enum { n = 1000, Rounds = 3 };
  static double x[n], y[n];
  long sum = 0, want = 0;
  for (int i = 0; i < n; ++i)
    x[i] = i;
  if (strcmp(argv[1], "kernel") == 0) {
    for (int r = 0; r < Rounds; ++r) {
#pragma omp target teams distribute parallel for device(*) reduction(+: sum) \
    map(to: x[0:n] dist_data(BLOCK)) map(tofrom: y[0:n] dist_data(BLOCK))
      for (int i = 0; i < n; ++i) {
        y[i] += x[i];
        sum += (long)x[i];
      }
    }
  } else {
#pragma omp target data device(*) map(to: x[0:n] dist_data(BLOCK)) \
    map(tofrom: y[0:n] dist_data(BLOCK))
    for (int r = 0; r < Rounds; ++r) {
#pragma omp target teams distribute parallel for device(*) reduction(+: sum)
      for (int i = 0; i < n; ++i) {
        y[i] += x[i];
        sum += (long)x[i];
      }
    }
  }
  fflush(stderr);
  for (int i = 0; i < n; ++i) {
    want += Rounds * i;
    if (y[i] != Rounds * x[i])
      return printf("FAIL y[%d] = %g\n", i, y[i]), 1;
  }
  if (sum != want)
    return printf("FAIL sum = %ld, expected %ld\n", sum, want), 1;
  puts("PASS");
  return 0;
}
