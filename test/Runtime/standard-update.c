// A standard (single-device) 'target update' of an array homp holds in
// parts. Of the device's part, or inside it, libomptarget moves it. Of a
// section reaching past the part it would move nothing (libomptarget skips
// sections it does not hold whole), silently losing the host's values: that
// is an error naming the device, the array and its part. A device holding
// none of the array moves nothing, as OpenMP says of what is not present.
// RUN: %hompcc -g -O2 %s -o %t
// RUN: %t part | FileCheck %s --check-prefix=PART
// PART: from the part: PASS
// PART: to the part: PASS
// RUN: not %t whole 2>&1 | FileCheck %s --check-prefix=WHOLE
// WHOLE: homp: error: 'target update' at {{.*}}standard-update.c:[[# @LINE + 32]]:1: device 1 holds only its part of 'y' (elements [6, 11), distributed by the data region at {{.*}}standard-update.c:[[# @LINE + 17]]:1), and libomptarget moves nothing for a section it does not hold whole: name the part, or give the update a device list (device(1:1)), which moves each listed device's part
// WHOLE-NOT: PASS
// RUN: env HOMP_DEVICES=0,2,3 %t elsewhere | FileCheck %s --check-prefix=ELSEWHERE
// ELSEWHERE: not held: PASS

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
  if (argc != 2)
    return 2;
  enum { n = 21 };
  double y[n];
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
#pragma omp target update device(1) from(y[6:5])
      for (int i = 0; i < n; i++)
        bad += y[i] != (i >= 6 && i < 11 ? -i : i);
      printf("from the part: %s\n", bad ? "FAIL" : "PASS");
      y[7] = 100;
#pragma omp target update device(1) to(y[7:1])
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
      after += y[i] != (i == 7 ? 100 : -i);
    printf("to the part: %s\n", after ? "FAIL" : "PASS");
    bad += after;
  }
  return bad != 0;
}
