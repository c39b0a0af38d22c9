// A standard (single-device) kernel inside a data region that holds 'y' in
// parts, using 'y' with no map clause (OpenMP's zero-length section of a
// pointer, as code relying on an enclosing 'target data' writes it): the
// device's part stands for 'y', so the kernel's own indices reach its
// elements. On device 2 the update was lost silently (the kernel got the
// host's pointer; the region's end copied the old part back over it).
// With a section inside the part, libomptarget finds it itself. The
// kernel runs on the first, middle or last of the NDEV devices of
// 'device(*)' (0, 2 or 3 of 4).
// RUN: %hompcc -O2 %s -o %t
// RUN: %t first %ndev | FileCheck %s
// RUN: %t middle %ndev | FileCheck %s
// RUN: %t last %ndev | FileCheck %s
// CHECK: no map: PASS
// CHECK: a section of the part: PASS

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
  if (argc != 3)
    return 2;
  int Devices = atoi(argv[2]), n = 1000;
  int dev = !strcmp(argv[1], "first")    ? 0
            : !strcmp(argv[1], "middle") ? Devices / 2
                                         : Devices - 1;
  // BLOCK over the devices: parts that differ by one at most, the larger
  // first (on 4 devices, device d holds [250 d, 250 (d + 1))).
  int lo = dev * (n / Devices) + (dev < n % Devices ? dev : n % Devices);
  int hi = lo + n / Devices + (dev < n % Devices);
  double *y = malloc(sizeof(double) * n);
  for (int i = 0; i < n; i++)
    y[i] = i;
#pragma omp target data device(*) map(tofrom: y[0:n] dist_data(BLOCK))
  {
#pragma omp target device(dev)
    for (int i = lo; i < hi; i++)
      y[i] += 1;
  }
  int bad = 0;
  for (int i = 0; i < n; i++)
    bad += y[i] != i + (i >= lo && i < hi);
  printf("no map: %s\n", bad ? "FAIL" : "PASS");

#pragma omp target data device(*) map(tofrom: y[0:n] dist_data(BLOCK))
  {
#pragma omp target device(dev) map(tofrom: y[lo:hi - lo])
    for (int i = lo; i < hi; i++)
      y[i] += 1;
  }
  bad = 0;
  for (int i = 0; i < n; i++)
    bad += y[i] != i + 2 * (i >= lo && i < hi);
  printf("a section of the part: %s\n", bad ? "FAIL" : "PASS");
  free(y);
  return 0;
}
