// HOMP_MPI_DRY_RUN=R (issue 38, DESIGN.md "Ranks (MPI)"): each distributed
// construct is planned for R ranks at its first execution and the plan
// printed (each rank's iterations and rows, the halo messages between the
// ranks and their bytes, what completing the arrays copied out moves); the
// construct then runs on this node as usual, so the results are the
// sequential ones. Plans for 1024 ranks are made here too.
//
// RUN: %hompcc -O2 %s -o %t
// RUN: %t | FileCheck %s --check-prefix=PASS
// RUN: env HOMP_MPI_DRY_RUN=3 %t 2>&1 | FileCheck %s --check-prefixes=PASS,THREE
// RUN: env HOMP_MPI_DRY_RUN=1024 %t 2>&1 | FileCheck %s --check-prefixes=PASS,MANY
// RUN: not env HOMP_MPI_DRY_RUN=0 %t 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: homp: error: HOMP_MPI_DRY_RUN='0' is not valid; expected a number of ranks from 1 to 1048576
//
// AXPY over 300 elements, y copied back: each rank's host copy of y is
// completed with the 200 elements (1600 bytes) it does not write. A
// kernel's parts and halos come from each rank's own host copy: no
// messages. The plan is the one mpirun runs (RankKernel.h): each array's
// rows are those the rank maps; a rank past the loop's iterations (1024
// ranks) maps one element.
// THREE: homp: dry run (HOMP_MPI_DRY_RUN): region {{.*}}mpi-dry-run.c:[[#AXPY:]]:1: 300 iterations over 3 ranks
// THREE-NEXT: homp:   rank 0: iterations [0, 100), 'x' rows [0, 100), 'y' rows [0, 100)
// THREE-NEXT: homp:   rank 1: iterations [100, 200), 'x' rows [100, 200), 'y' rows [100, 200)
// THREE-NEXT: homp:   rank 2: iterations [200, 300), 'x' rows [200, 300), 'y' rows [200, 300)
// THREE-NEXT: homp:   after the region, completing the arrays it copies out: 4800 bytes in all, at most 1600 bytes to a rank
// A 5-point stencil over the rows of a data region's u (halo(1,), rows of
// 10 doubles): the region completes v at its end; the halo update sends a
// row from rank 1 to each of ranks 0 and 2 and one from each to rank 1; the
// loop i = 1 .. 28 follows u's rows and copies nothing back itself.
// THREE: homp: dry run (HOMP_MPI_DRY_RUN): data region {{.*}}mpi-dry-run.c:[[#REGION:]]:1 begins: 2 arrays over 3 ranks
// THREE-NEXT: homp:   rank 0: 'u' rows [0, 10), 'v' rows [0, 10)
// THREE-NEXT: homp:   rank 1: 'u' rows [10, 20), 'v' rows [10, 20)
// THREE-NEXT: homp:   rank 2: 'u' rows [20, 30), 'v' rows [20, 30)
// THREE-NEXT: homp:   at the region's end, completing the arrays it copies out: 4800 bytes in all, at most 1600 bytes to a rank
// THREE-NEXT: homp: dry run (HOMP_MPI_DRY_RUN): halo update {{.*}}mpi-dry-run.c:[[#REGION + 2]]:{{[0-9]+}} of 'u' over 3 ranks
// THREE:      homp:   halo exchange: 4 messages, 320 bytes ('u' 320 bytes); rank 1 receives the most: 2 messages, 160 bytes
// THREE-NEXT: homp: dry run (HOMP_MPI_DRY_RUN): region {{.*}}mpi-dry-run.c:[[#REGION + 3]]:1: 28 iterations over 3 ranks
// THREE-NEXT: homp:   rank 0: iterations [0, 9), 'v' rows [0, 10), 'u' rows [0, 10)
// THREE-NEXT: homp:   rank 1: iterations [9, 19), 'v' rows [10, 20), 'u' rows [10, 20)
// THREE-NEXT: homp:   rank 2: iterations [19, 28), 'v' rows [20, 30), 'u' rows [20, 30)
// N-body positions under halo(*): every rank receives every row it does not
// own, one message from each other rank (3 doubles a body).
// THREE-NEXT: homp: dry run (HOMP_MPI_DRY_RUN): data region {{.*}} begins: 2 arrays over 3 ranks
// THREE: homp: dry run (HOMP_MPI_DRY_RUN): halo update {{.*}} of 'p' over 3 ranks
// THREE: homp:   halo exchange: 6 messages, 3072 bytes ('p' 3072 bytes); rank 1 receives the most: 2 messages, 1032 bytes
// THREE: homp: dry run (HOMP_MPI_DRY_RUN): region {{.*}}: 64 iterations over 3 ranks
//
// MANY: region {{.*}}mpi-dry-run.c:{{[0-9]+}}:1: 300 iterations over 1024 ranks
// MANY-NEXT: homp:   rank 0: iterations [0, 1), 'x' rows [0, 1), 'y' rows [0, 1)
// MANY: homp:   ... (ranks 4 to 1022)
// MANY-NEXT: homp:   rank 1023: iterations none, 'x' rows [0, 1), 'y' rows [0, 1)
// MANY: halo update {{.*}} of 'p' over 1024 ranks
// MANY: homp:   halo exchange: 4032 messages
//
// PASS: axpy: PASS
// PASS: stencil: PASS
// PASS: nbody: PASS

#include <stdio.h>

enum { N = 300, R = 30, C = 10, B = 64 };
static double x[N], y[N], u[R][C], v[R][C], p[B][3], a[B][3];

int main(void) {
  int bad = 0;
  for (int i = 0; i < N; ++i)
    x[i] = i, y[i] = 1;
#pragma omp target teams distribute parallel for device(*) map(to: x[0:N] dist_data(BLOCK)) map(tofrom: y[0:N] dist_data(ALIGN(x))) dist_schedule(target: ALIGN(x))
  for (int i = 0; i < N; ++i)
    y[i] += 2 * x[i];
  for (int i = 0; i < N; ++i)
    bad += y[i] != 1 + 2.0 * i;
  printf("axpy: %s\n", bad ? "FAIL" : "PASS");

  for (int i = 0; i < R; ++i)
    for (int j = 0; j < C; ++j)
      u[i][j] = i * C + j, v[i][j] = 0;
#pragma omp target data device(*) map(to: u[0:R][0:C] dist_data(BLOCK, *) halo(1,)) map(tofrom: v[0:R][0:C] dist_data(BLOCK, *))
  {
#pragma omp halo_exchange(u)
#pragma omp target device(*)
#pragma omp parallel for dist_iteration(BLOCK)
    for (int i = 1; i < R - 1; ++i)
      for (int j = 1; j < C - 1; ++j)
        v[i][j] = u[i - 1][j] + u[i + 1][j] + u[i][j - 1] + u[i][j + 1];
  }
  int sbad = 0;
  for (int i = 1; i < R - 1; ++i)
    for (int j = 1; j < C - 1; ++j)
      sbad += v[i][j] != 4.0 * (i * C + j);
  printf("stencil: %s\n", sbad ? "FAIL" : "PASS");

  for (int i = 0; i < B; ++i)
    for (int d = 0; d < 3; ++d)
      p[i][d] = i + 0.5 * d;
#pragma omp target data device(*) map(to: p[0:B][0:3] dist_data(BLOCK, *) halo(*,)) map(from: a[0:B][0:3] dist_data(BLOCK, *))
  {
#pragma omp halo_exchange(p)
#pragma omp target device(*)
#pragma omp parallel for dist_iteration(BLOCK)
    for (int i = 0; i < B; ++i)
      for (int d = 0; d < 3; ++d) {
        double s = 0;
        for (int j = 0; j < B; ++j)
          s += p[j][d] - p[i][d];
        a[i][d] = s;
      }
  }
  int nbad = 0;
  for (int i = 0; i < B; ++i)
    for (int d = 0; d < 3; ++d) {
      double s = 0;
      for (int j = 0; j < B; ++j)
        s += p[j][d] - p[i][d];
      nbad += a[i][d] != s;
    }
  printf("nbody: %s\n", nbad ? "FAIL" : "PASS");
  return bad || sbad || nbad;
}
