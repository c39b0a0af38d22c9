// Before a kernel runs over the ranks, the ranks agree on it (one small
// collective): the same construct with the same bounds and sections on
// every rank, and each rank's devices, which weigh the parts. A program
// that divides its work by rank itself (each rank maps and loops over its
// own block) runs each rank's kernel alone, as written.
// REQUIRES: mpi
// RUN: %hompcc -O2 %s -o %t
// RUN: rm -f %t.info.*
// RUN: env HOMP_INFO=1 %mpirun -n 1 -x HOMP_DEVICES=0 sh -c '%t 2> %t.info.$OMPI_COMM_WORLD_RANK' : -n 1 -x HOMP_DEVICES=0,1,2 sh -c '%t 2> %t.info.$OMPI_COMM_WORLD_RANK' | sort | FileCheck %s --check-prefix=PASS
// RUN: FileCheck %s --check-prefix=RANK0 < %t.info.0
// RUN: FileCheck %s --check-prefix=RANK1 < %t.info.1
// PASS-COUNT-2: PASS
// PASS-NOT: FAIL

#include <stdio.h>
#include <stdlib.h>

enum { N = 1000 };
static double y[N];

int main(void) {
  const char *R = getenv("OMPI_COMM_WORLD_RANK");
  const int rank = R ? atoi(R) : 0;
  for (int i = 0; i < N; ++i)
    y[i] = i;
  // The same kernel on both ranks: rank 0 has 1 device, rank 1 has 3, so
  // rank 0 runs a quarter of the loop.
  // RANK0: homp[rank 0]: region {{.*}}rank-agreement.c:[[#@LINE+2]]:1: over 2 ranks: this rank runs iterations [0, 250) of its 1000
  // RANK1: homp[rank 1]: region {{.*}}rank-agreement.c:[[#@LINE+1]]:1: over 2 ranks: this rank runs iterations [250, 1000) of its 1000
#pragma omp target device(*) map(tofrom: y[0:N] dist_data(BLOCK))
#pragma omp parallel for
  for (int i = 0; i < N; ++i)
    y[i] = 2 * y[i] + 1;
  int ok = 1;
  for (int i = 0; i < N; ++i)
    ok &= y[i] == 2.0 * i + 1;
  // Each rank its own half, divided by the program: run alone.
  // RANK0: homp[rank 0]: region {{.*}}rank-agreement.c:[[#@LINE+3]]:1: runs whole on every one of the 2 ranks: rank 1 runs it over other bounds or sections (each rank runs its own alone)
  // RANK1: homp[rank 1]: region {{.*}}rank-agreement.c:[[#@LINE+2]]:1: runs whole on every one of the 2 ranks: rank 0 runs it over other bounds or sections (each rank runs its own alone)
  const int lo = rank * (N / 2), len = N / 2;
#pragma omp target device(*) map(tofrom: y[lo:len] dist_data(BLOCK))
#pragma omp parallel for
  for (int i = lo; i < lo + len; ++i)
    y[i] = -y[i];
  for (int i = 0; i < N; ++i)
    ok &= y[i] == (i >= lo && i < lo + len ? -1 : 1) * (2.0 * i + 1);
  printf("%s\n", ok ? "PASS" : "FAIL");
  return !ok;
}
