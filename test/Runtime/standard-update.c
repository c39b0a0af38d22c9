// A standard (single-device) 'target update' of an array homp holds in
// parts. Of the device's part, or inside it, libomptarget moves it. Of a
// section reaching past the part it would move nothing (libomptarget skips
// sections it does not hold whole), silently losing the host's values: that
// is an error naming the device, the array and its part. A device holding
// none of the array moves nothing, as OpenMP says of what is not present.
// The updates are device 1's: of 21 elements in blocks over NDEV devices
// (that differ by one at most, the larger first) it holds [6, 11) on 4.
// REQUIRES: devices-2
// RUN: %hompcc -g -O2 %s -o %t
// RUN: %t part %ndev | FileCheck %s --check-prefix=PART
// PART: from the part: PASS
// PART: to the part: PASS
// RUN: not %t whole %ndev 2>&1 | FileCheck %s --check-prefix=WHOLE -D#NDEV=%ndev
// WHOLE: homp: error: 'target update' at {{.*}}standard-update.c:[[# @LINE + 35]]:1: device 1 holds only its part of 'y' (elements [[[#div(NDEV + 20, NDEV)]], [[#div(NDEV + 20, NDEV) + div(NDEV + 19, NDEV)]]), distributed by the data region at {{.*}}standard-update.c:[[# @LINE + 20]]:1), and libomptarget moves nothing for a section it does not hold whole: name the part, or give the update a device list (device(1:1)), which moves each listed device's part
// WHOLE-NOT: PASS
// RUN: env HOMP_DEVICES=0,2,3 %t elsewhere %ndev | FileCheck %s --check-prefix=ELSEWHERE
// ELSEWHERE: not held: PASS

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
  if (argc != 3)
    return 2;
  enum { n = 21 };
  double y[n];
  // Device 1's part: [lo, lo + len).
  int Devices = atoi(argv[2]), lo = n / Devices + (n % Devices > 0),
      len = n / Devices + (n % Devices > 1);
  for (int i = 0; i < n; i++)
    y[i] = i;
  int bad = 0;
#pragma omp target data device(*) map(tofrom: y[0:n] dist_data(BLOCK))
  {
#pragma omp target device(*)
#pragma omp parallel for
    for (int i = 0; i < n; i++)
      y[i] = -y[i];
    if (strcmp(argv[1], "part") == 0) {
      // Device 1 holds y[6:5] on 4 devices.
#pragma omp target update device(1) from(y[lo:len])
      for (int i = 0; i < n; i++)
        bad += y[i] != (i >= lo && i < lo + len ? -i : i);
      printf("from the part: %s\n", bad ? "FAIL" : "PASS");
      y[lo + 1] = 100;
#pragma omp target update device(1) to(y[lo + 1:1])
    } else if (strcmp(argv[1], "whole") == 0) {
#pragma omp target update device(1) from(y[0:n])
    } else {
      // Device 1 is not among the region's devices.
#pragma omp target update device(1) from(y[0:n])
      for (int i = 0; i < n; i++)
        bad += y[i] != i;
      printf("not held: %s\n", bad ? "FAIL" : "PASS");
    }
  }
  if (strcmp(argv[1], "part") == 0) {
    int after = 0;
    for (int i = 0; i < n; i++)
      after += y[i] != (i == lo + 1 ? 100 : -i);
    printf("to the part: %s\n", after ? "FAIL" : "PASS");
    bad += after;
  }
  return bad != 0;
}
