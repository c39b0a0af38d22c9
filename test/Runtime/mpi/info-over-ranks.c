// HOMP_INFO under mpirun: each line says its rank ('homp[rank R]:'), a
// kernel split over the ranks says which iterations this rank runs, one
// that runs whole on every rank says why. Each rank's messages go to a
// file of its own (ranks write at once).
// REQUIRES: mpi
// RUN: %hompcc -O2 %s -o %t
// RUN: rm -f %t.info.*
// RUN: env HOMP_INFO=1 HOMP_DEVICES=0,1 %mpirun -n 2 sh -c '%t 2> %t.info.$OMPI_COMM_WORLD_RANK'
// RUN: FileCheck %s --check-prefixes=CHECK,RANK0 -DR=0 < %t.info.0
// RUN: FileCheck %s --check-prefixes=CHECK,RANK1 -DR=1 < %t.info.1
// HOMP_TRACE: one file per rank, the rank before the extension.
// RUN: rm -f %t.trace*.json
// RUN: env HOMP_TRACE=%t.trace.json HOMP_DEVICES=0 %mpirun -n 2 %t
// RUN: python3 -c "import json, sys; [json.load(open(f)) for f in sys.argv[1:]]" %t.trace.rank0.json %t.trace.rank1.json
// RUN: FileCheck %s --check-prefix=TRACE < %t.trace.rank1.json
// RUN: not ls %t.trace.json
// TRACE: "name":"homp rank 1"
// Without a launcher, with HOMP_MPI=1 but no launcher (a job of one rank),
// or with HOMP_MPI=0 under one, nothing changes.
// RUN: env HOMP_INFO=1 %t 2>&1 | FileCheck %s --check-prefix=ALONE
// RUN: env HOMP_INFO=1 HOMP_MPI=1 %t 2>&1 | FileCheck %s --check-prefix=ALONE
// RUN: env HOMP_INFO=1 HOMP_MPI=0 %mpirun -n 2 sh -c '%t 2> %t.alone.$OMPI_COMM_WORLD_RANK'
// RUN: FileCheck %s --check-prefix=ALONE < %t.alone.1
// RUN: not env HOMP_MPI=yes %t 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: homp: error: HOMP_MPI='yes' is not valid; expected 1 (the constructs span the MPI job's ranks) or 0 (each rank runs them alone)
// ALONE-NOT: rank
// ALONE: homp: region {{.*}}info-over-ranks.c:[[#@LINE+18]]:1: 1000 iterations on

#include <stdio.h>
#include <stdlib.h>

enum { N = 1000 };
static double x[N], y[N];

int main(void) {
  for (int i = 0; i < N; ++i) {
    x[i] = i;
    y[i] = 1;
  }
  // CHECK-NOT: homp:
  // RANK0: homp[rank 0]: region {{.*}}info-over-ranks.c:[[#@LINE+4]]:1: over 2 ranks: this rank runs iterations [0, 500) of its 1000
  // RANK1: homp[rank 1]: region {{.*}}info-over-ranks.c:[[#@LINE+3]]:1: over 2 ranks: this rank runs iterations [500, 1000) of its 1000
  // CHECK: homp[rank [[R]]]: region {{.*}}: 500 iterations on 2 devices (this rank's part of 1000 over 2 ranks) in
  // CHECK: homp[rank [[R]]]:   device
#pragma omp target device(*) map(tofrom: y[0:N] dist_data(BLOCK)) map(to: x[0:N] dist_data(BLOCK))
#pragma omp parallel for
  for (int i = 0; i < N; ++i)
    y[i] += 2 * x[i];
  // CHECK: homp[rank [[R]]]: region {{.*}}info-over-ranks.c:[[#@LINE+2]]:1: runs whole on every one of the 2 ranks: it is 'nowait'
  // CHECK: homp[rank [[R]]]: region {{.*}}: 1000 iterations on 2 devices
#pragma omp target device(*) map(tofrom: y[0:N] dist_data(BLOCK)) nowait
#pragma omp parallel for
  for (int i = 0; i < N; ++i)
    y[i] += 1;
#pragma omp taskwait
  double s = 0;
  for (int i = 0; i < N; ++i)
    s += y[i];
  printf("%s\n", s == N * 2.0 + N * (N - 1.0) ? "PASS" : "FAIL");
  return 0;
}
