// Asynchronous kernels (kernels on resident arrays that the program does
// not wait for) come before whatever the program does next on their
// devices, also when that is standard OpenMP: a single-device 'target' on
// device 0's part, a 'target update' of it, omp_target_memcpy and
// omp_target_memcpy_rect from it. Each sees the values of all the kernels
// before it, and what it writes is not overwritten by them. 20 data regions
// of 5 kernels each, every kind of access. N divides evenly over 1 to 8
// devices: device 0's part is N / devices.
// RUN: %hompcc -O2 %s -o %t
// RUN: %t target | FileCheck %s
// RUN: %t update | FileCheck %s
// RUN: %t memcpy | FileCheck %s
// RUN: %t rect | FileCheck %s
// CHECK: PASS

#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { Repetitions = 20, Kernels = 5, N = 403200 };

int main(int argc, char **argv) {
  if (argc != 2)
    return 2;
  const char *How = argv[1];
  int n = N, q = N / omp_get_num_devices(), bad = 0;
  double *a = malloc(sizeof(double) * n);
  double Want = q - 1; // a[q - 1], device 0's last element, at the end
  for (int k = 0; k < Kernels; k++)
    Want = Want * 1.5 + 1;
  for (int Rep = 0; Rep < Repetitions; Rep++) {
    for (int i = 0; i < n; i++)
      a[i] = i;
    double Got = -1;
#pragma omp target data device(*) map(tofrom: a[0:n] dist_data(BLOCK))
    {
      for (int k = 0; k < Kernels; k++) {
#pragma omp target device(*)
#pragma omp parallel for
        for (int i = 0; i < n; i++)
          a[i] = a[i] * 1.5 + 1;
      }
      if (!strcmp(How, "target")) {
        // Reads the last element of device 0's part, writes its first.
#pragma omp target device(0) map(tofrom: a[0:q]) map(from: Got)
        {
          Got = a[q - 1];
          a[0] = -7;
        }
      } else if (!strcmp(How, "update")) {
#pragma omp target update device(0) from(a[0:q])
        Got = a[q - 1];
      } else {
        double *D = omp_get_mapped_ptr(&a[0], 0);
        int Host = omp_get_initial_device();
        if (!strcmp(How, "memcpy")) {
          omp_target_memcpy(&Got, D, sizeof(double), 0,
                            sizeof(double) * (q - 1), Host, 0);
        } else {
          size_t Volume[1] = {1}, DstOffsets[1] = {0},
                 SrcOffsets[1] = {(size_t)q - 1}, DstDims[1] = {1},
                 SrcDims[1] = {(size_t)q};
          omp_target_memcpy_rect(&Got, D, sizeof(double), 1, Volume,
                                 DstOffsets, SrcOffsets, DstDims, SrcDims,
                                 Host, 0);
        }
      }
    }
    if (Got != Want && bad++ < 3)
      printf("FAIL %s saw a[%d] = %g, expected %g\n", How, q - 1, Got, Want);
    if (!strcmp(How, "target") && a[0] != -7 && bad++ < 3)
      printf("FAIL a[0] = %g after the data region, expected -7\n", a[0]);
  }
  free(a);
  puts(bad ? "FAILED" : "PASS");
  return bad != 0;
}
