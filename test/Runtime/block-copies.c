// Each device receives only its own block of a BLOCK-distributed array, and
// sends only that block back: libomptarget's own record of the copies
// (LIBOMPTARGET_INFO=32) shows 250 doubles (2000 bytes) of x and of y per
// device for n = 1000 over 4 devices, and nothing else of the arrays.
// RUN: %hompcc -O2 -g %s -o %t
// RUN: env LIBOMPTARGET_INFO=32 %t 1000 2>&1 | grep 'Name=[xy]' | sed 's/[HT][a-z]*Ptr=.*Size=/Size=/' | sort | FileCheck %s
// CHECK: omptarget device 0 info: Copying data from device to host, Size=2000, Name=y[0:n]
// CHECK-NEXT: omptarget device 0 info: Copying data from host to device, Size=2000, Name=x[0:n]
// CHECK-NEXT: omptarget device 0 info: Copying data from host to device, Size=2000, Name=y[0:n]
// CHECK-NEXT: omptarget device 1 info: Copying data from device to host, Size=2000, Name=y[0:n]
// CHECK-NEXT: omptarget device 1 info: Copying data from host to device, Size=2000, Name=x[0:n]
// CHECK-NEXT: omptarget device 1 info: Copying data from host to device, Size=2000, Name=y[0:n]
// CHECK-NEXT: omptarget device 2 info: Copying data from device to host, Size=2000, Name=y[0:n]
// CHECK-NEXT: omptarget device 2 info: Copying data from host to device, Size=2000, Name=x[0:n]
// CHECK-NEXT: omptarget device 2 info: Copying data from host to device, Size=2000, Name=y[0:n]
// CHECK-NEXT: omptarget device 3 info: Copying data from device to host, Size=2000, Name=y[0:n]
// CHECK-NEXT: omptarget device 3 info: Copying data from host to device, Size=2000, Name=x[0:n]
// CHECK-NEXT: omptarget device 3 info: Copying data from host to device, Size=2000, Name=y[0:n]
// CHECK-NOT: Name=

#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  int n = atoi(argv[1]);
  double a = 3, *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y);
  for (int i = 0; i < n; ++i) {
    x[i] = i;
    y[i] = 1;
  }
#pragma omp target device(*) map(tofrom: y[0:n] dist_data(BLOCK)) \
                             map(to: x[0:n] dist_data(BLOCK), a, n)
#pragma omp parallel for dist_iteration(BLOCK)
  for (int i = 0; i < n; ++i)
    y[i] += a * x[i];
  for (int i = 0; i < n; ++i)
    if (y[i] != 1 + 3.0 * i)
      return 1;
  return 0;
}
