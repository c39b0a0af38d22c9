// Issue 38: a data region over the ranks of an MPI job. Each rank holds its
// block of each array's rows (BLOCK along the first dimension), widened by
// the halo, on its own devices; the kernels inside follow those rows; a
// halo exchange also sends the rows at the ranks' edges to the ranks that
// hold them as halo (through host buffers); 'target update from' and the
// region's end complete every rank's host copy. PMAM'15 Figure 2's Jacobi
// (reductions of the error included) and the N-body with 'halo(*)'
// positions run unchanged and every rank checks everything against
// sequential code.
// REQUIRES: mpi
// RUN: %hompcc -O2 %s -o %t
// RUN: env HOMP_DEVICES=0,1 %mpirun -n 2 %t | sort | FileCheck %s --check-prefix=TWO --implicit-check-not=FAIL
// RUN: env HOMP_DEVICES=0 %mpirun -n 3 %t | sort | FileCheck %s --check-prefix=THREE --implicit-check-not=FAIL
// RUN: %t | FileCheck %s --check-prefix=ONE --implicit-check-not=FAIL
// RUN: rm -f %t.info.*
// RUN: env HOMP_INFO=1 HOMP_DEVICES=0,1 %mpirun -n 2 sh -c '%t 2> %t.info.$OMPI_COMM_WORLD_RANK' > /dev/null
// RUN: FileCheck %s --check-prefix=INFO < %t.info.1
// A kernel that writes a row another rank owns runs on every rank's host,
// its data gathered there; one the program does not wait for cannot, and
// stops the job, naming the rows.
// RUN: rm -f %t.near.*
// RUN: env HOMP_INFO=1 HOMP_DEVICES=0 %mpirun -n 3 sh -c '%t neighbour 2> %t.near.$OMPI_COMM_WORLD_RANK' | FileCheck %s --check-prefix=NEAR
// RUN: FileCheck %s --check-prefix=NEAR-INFO < %t.near.2
// RUN: not env HOMP_DEVICES=0 %mpirun -n 3 %t neighbour nowait 2>&1 | FileCheck %s --check-prefix=WRITE
// NEAR-COUNT-3: neighbour: PASS
// NEAR-INFO: homp[rank 2]: region {{.*}}: runs whole on every one of the 3 ranks' hosts, with the arrays its data region split over them gathered there: rank 1 would write rows [34, 68) of 'w', which it does not own (its rows are [34, 67))
// NEAR-INFO: homp[rank 2]: region {{.*}}: over 3 ranks: this rank runs iterations [67, 100) of its 100
// WRITE: homp[rank {{[012]}}]: error: region {{.*}}data-regions-over-ranks.c:{{[0-9]+}}:1: cannot run over the ranks its data region split its arrays over (rank 1 would write rows [34, 68) of 'w', which it does not own (its rows are [34, 67))), and it is 'nowait': only a kernel the program waits for can gather them (HOMP_MPI=0 runs every rank alone)
// TWO-COUNT-2: PASS all
// THREE-COUNT-3: PASS all
// ONE: PASS all
// INFO: homp[rank 1]: region {{.*}}data-regions-over-ranks.c:[[#JACOBI:]]:1: over 2 ranks: this rank holds rows [33, 66) of 'f'
// INFO: homp[rank 1]: region {{.*}}: over 2 ranks: this rank runs iterations [32, 64) of the 64 of its distributed loop
// INFO-NOT: running it on the host
// INFO: homp[rank 1]: region {{.*}}: over 2 ranks: this rank holds rows [50, 100) of 'p'
// INFO: homp[rank 1]: region {{.*}}: is whole on every one of the 2 ranks: it is inside another data region (or after 'target enter data')
// INFO: homp[rank 1]: region {{.*}}: runs whole on every one of the 2 ranks' hosts, with the arrays its data region split over them gathered there: its data region is whole on every rank
// INFO: homp[rank 1]: region {{.*}}: over 2 ranks: this rank runs iterations [50, 100) of its 100

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { N = 66, M = 20, B = 100, STEPS = 5 };
static double u[N][M], uold[N][M], f[N][M], us[N][M], uolds[N][M];
static double p[B], v[B], ps[B], vs[B], w[B];
static int failures;

static void check(const char *what, int ok) {
  if (!ok) {
    printf("FAIL %s\n", what);
    ++failures;
  }
}

/// One Jacobi sweep over the interior, sequential: the reference.
static double sweep(double (*to)[M], double (*from)[M]) {
  double err = 0;
  for (int i = 1; i < N - 1; ++i)
    for (int j = 1; j < M - 1; ++j) {
      double r = 0.25 * (from[i - 1][j] + from[i + 1][j] + from[i][j - 1] +
                         from[i][j + 1] - f[i][j]);
      err += (r - from[i][j]) * (r - from[i][j]);
      to[i][j] = r;
    }
  return err;
}

int main(int argc, char **argv) {
  if (argc > 1 && strcmp(argv[1], "neighbour") == 0) {
    // Pairs w[i], w[i + 1] from even i: over 3 ranks (rows [0, 34),
    // [34, 67), [67, 100)) rank 1's last pair reaches rank 2's first row.
    // Every rank's host then runs the kernel, with w gathered; 'nowait'
    // leaves no moment to gather it.
    const int Nowait = argc > 2;
    for (int i = 0; i < B; ++i)
      w[i] = 1;
#pragma omp target data device(*) map(tofrom: w[0:B] dist_data(BLOCK) halo(1))
    {
      if (Nowait) {
#pragma omp target device(*) nowait
#pragma omp parallel for
        for (int i = 0; i < B - 1; i += 2) {
          w[i] += i;
          w[i + 1] -= i;
        }
      } else {
#pragma omp target device(*)
#pragma omp parallel for
        for (int i = 0; i < B - 1; i += 2) {
          w[i] += i;
          w[i + 1] -= i;
        }
      }
#pragma omp taskwait
#pragma omp target device(*)
#pragma omp parallel for
      for (int i = 0; i < B; ++i)
        w[i] *= 2;
    }
    int ok = 1;
    for (int i = 0; i < B; ++i)
      ok &= w[i] == 2.0 * (i % 2 ? 1 - (i - 1) : 1 + i);
    printf("neighbour: %s\n", ok ? "PASS" : "FAIL");
    return !ok;
  }
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < M; ++j) {
      f[i][j] = ((i * 7 + j * 3) % 11) * 0.01;
      u[i][j] = us[i][j] = (i == 0 || j == 0) ? 1.0 : 0.0;
      uold[i][j] = uolds[i][j] = 0;
    }
  // PMAM'15 Figure 2: u and uold in turn, the error each sweep.
  double err = 0, errs = 0, mid = 0;
#pragma omp target data device(*) map(to: f[0:N][0:M] dist_data(BLOCK, *)) map(tofrom: u[0:N][0:M] dist_data(BLOCK, *) halo(1,)) map(alloc: uold[0:N][0:M] dist_data(BLOCK, *) halo(1,))
  {
    for (int s = 0; s < STEPS; ++s) {
#pragma omp target device(*)
#pragma omp parallel for collapse(2)
      for (int i = 0; i < N; ++i)
        for (int j = 0; j < M; ++j)
          uold[i][j] = u[i][j];
#pragma omp halo_exchange(uold)
      err = 0;
#pragma omp target device(*) map(tofrom: err)
#pragma omp parallel for collapse(2) reduction(+: err)
      for (int i = 1; i < N - 1; ++i)
        for (int j = 1; j < M - 1; ++j) {
          double r = 0.25 * (uold[i - 1][j] + uold[i + 1][j] + uold[i][j - 1] +
                             uold[i][j + 1] - f[i][j]);
          err += (r - uold[i][j]) * (r - uold[i][j]);
          u[i][j] = r;
        }
      if (s == 2) {
        // The host's copy, current on every rank.
#pragma omp target update device(*) from(u[0:N][0:M])
        for (int i = 0; i < N; ++i)
          mid += u[i][i % M] * (i + 1);
      }
    }
  }
  double mids = 0;
  for (int s = 0; s < STEPS; ++s) {
    memcpy(uolds, us, sizeof us);
    errs = sweep(us, uolds);
    if (s == 2)
      for (int i = 0; i < N; ++i)
        mids += us[i][i % M] * (i + 1);
  }
  int same = fabs(err - errs) <= 1e-12 * fabs(errs) && mid == mids;
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < M; ++j)
      same &= u[i][j] == us[i][j];
  check("jacobi", same);

  // N-body: every rank reads every position ('halo(*)'), updates its own.
  for (int i = 0; i < B; ++i) {
    p[i] = ps[i] = (i * 37 % 101) * 0.01;
    v[i] = vs[i] = 0;
  }
#pragma omp target data device(*) map(tofrom: p[0:B] dist_data(BLOCK) halo(*)) map(tofrom: v[0:B] dist_data(BLOCK))
  {
    for (int s = 0; s < STEPS; ++s) {
#pragma omp target device(*)
#pragma omp parallel for
      for (int i = 0; i < B; ++i) {
        double a = 0;
        for (int j = 0; j < B; ++j)
          a += (p[j] - p[i]) / (1.0 + (p[j] - p[i]) * (p[j] - p[i]));
        v[i] += 0.01 * a;
      }
#pragma omp target device(*)
#pragma omp parallel for
      for (int i = 0; i < B; ++i)
        p[i] += 0.01 * v[i];
#pragma omp halo_exchange(p)
    }
  }
  for (int s = 0; s < STEPS; ++s) {
    for (int i = 0; i < B; ++i) {
      double a = 0;
      for (int j = 0; j < B; ++j)
        a += (ps[j] - ps[i]) / (1.0 + (ps[j] - ps[i]) * (ps[j] - ps[i]));
      vs[i] += 0.01 * a;
    }
    for (int i = 0; i < B; ++i)
      ps[i] += 0.01 * vs[i];
  }
  same = 1;
  for (int i = 0; i < B; ++i)
    same &= p[i] == ps[i] && v[i] == vs[i];
  check("nbody", same);

  // A region inside one split over the ranks is whole on every rank; a
  // kernel over both runs on every rank's host, both arrays gathered there.
  for (int i = 0; i < B; ++i) {
    p[i] = ps[i] = i;
    v[i] = vs[i] = 2 * i;
  }
#pragma omp target data device(*) map(tofrom: p[0:B] dist_data(BLOCK) halo(1))
  {
#pragma omp target data device(*) map(tofrom: v[0:B] dist_data(BLOCK))
    {
#pragma omp target device(*)
#pragma omp parallel for
      for (int i = 1; i < B - 1; ++i)
        v[i] += p[i - 1] + p[i + 1];
    }
#pragma omp target device(*)
#pragma omp parallel for
    for (int i = 0; i < B; ++i)
      p[i] *= 3;
  }
  for (int i = 1; i < B - 1; ++i)
    vs[i] += ps[i - 1] + ps[i + 1];
  same = 1;
  for (int i = 0; i < B; ++i)
    same &= p[i] == 3.0 * ps[i] && v[i] == vs[i];
  check("nested", same);

  if (!failures)
    printf("PASS all\n");
  return failures != 0;
}
