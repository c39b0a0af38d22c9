// An error on one rank ends every rank of the job, naming the rank: none
// waits for it. Rank 1 maps a section of negative length.
// REQUIRES: mpi
// RUN: %hompcc -O2 %s -o %t
// RUN: not %mpirun -n 2 %t 2>&1 | FileCheck %s
// CHECK: homp[rank 1]: error: region {{.*}}rank-error.c:[[#@LINE+13]]:1: the length of 'y' is -1 when the region runs; it must not be negative

#include <stdio.h>
#include <stdlib.h>

static double y[100];

int main(void) {
  const char *r = getenv("OMPI_COMM_WORLD_RANK");
  int n = r && atoi(r) == 1 ? -1 : 100;
  for (int step = 0; step < 3; ++step) {
    // Rank 0 waits here for rank 1's part of the first construct, until
    // rank 1's error ends the job.
#pragma omp target device(*) map(tofrom: y[0:n] dist_data(BLOCK))
#pragma omp parallel for
    for (int i = 0; i < 100; ++i)
      y[i] += 1;
  }
  printf("not reached on rank 1\n");
  return 0;
}
