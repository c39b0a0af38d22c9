// Both papers' Jacobi as written, with their halos: PMAM'15 Figure 2
// ('target data device(*)', 'halo(1,)', 'halo_exchange(uold)',
// 'collapse(2)', 'reduction(+:error)') and HOMP'16 Figure 3 ('parallel
// target data', arrays ALIGNed to the loop labelled loop1 further down,
// 'halo(1,)', 'halo_exchange'; its AUTO loop keeps the split the data
// region gave it when it began, by the machine model). u
// must match a sequential Jacobi bit for bit, the error to 1e-12, on 1 to 4
// devices, with the host, on odd sizes, and with every halo route.
// RUN: %hompcc -O2 %s -o %t
// RUN: %t 2>&1 | FileCheck %s --implicit-check-not=homp: --implicit-check-not=FAIL
// RUN: %hompcc -O2 -DDEVS="0:1" %s -o %t.1 && %t.1 2>&1 | FileCheck %s --implicit-check-not=FAIL
// RUN: %hompcc -O2 -DDEVS="0:3" -DN=41 -DM=7 %s -o %t.3 && %t.3 2>&1 | FileCheck %s --implicit-check-not=FAIL
// RUN: %hompcc -O2 -DDEVS="*, host" -DN=9 %s -o %t.h && %t.h 2>&1 | FileCheck %s --implicit-check-not=FAIL
// RUN: %hompcc -O2 -DDEVS="host, 2" %s -o %t.h2 && %t.h2 2>&1 | FileCheck %s --implicit-check-not=FAIL
// RUN: env HOMP_HALO_ROUTE=peer %t 2>&1 | FileCheck %s --implicit-check-not=FAIL
// Rows of 1.1 MB: the devices' proxies make the halo copies, not the
// program's thread (more than 1 MiB an update), peer to peer or staged.
// RUN: %hompcc -O2 -DN=12 -DM=140000 %s -o %t.big && %t.big 2>&1 | FileCheck %s --implicit-check-not=FAIL
// RUN: env HOMP_HALO_ROUTE=staged %t.big 2>&1 | FileCheck %s --implicit-check-not=FAIL
// RUN: env HOMP_HALO_ROUTE=staged HOMP_DEVICES=1,3 %t 2>&1 | FileCheck %s --implicit-check-not=FAIL
// RUN: env OMP_TARGET_OFFLOAD=DISABLED %t 2>&1 | FileCheck %s --implicit-check-not=FAIL
// RUN: env HOMP_INFO=1 %t 2>&1 | FileCheck %s --check-prefixes=INFO,INFO-%ndev --allow-unused-prefixes -D#NDEV=%ndev -DDEVICES="%devices"
// jacobi-halo-fault.test makes a halo copy fail.
// CHECK: figure 2: PASS
// CHECK: figure 3: PASS

// Each device holds its rows of uold and one row above and below; the
// exchange moves each inner boundary row (10 doubles) once each way, through
// peer to peer between the CPU offload devices (one memcpy each): 2 copies
// per pair of neighbours.
// INFO: homp: halo update {{.*}}jacobi.c:[[#FIG2:]]:13 of 'uold' (leftright): [[#mul(2, NDEV) - 2]] copies on [[DEVICES]] in
// INFO-NEXT: device
// INFO-4-NEXT: homp:   0        CPU    via peer                              0           80           80
// INFO-4-NEXT: homp:   1        CPU    via peer                              0          160          160
// INFO-4-NEXT: homp:   2        CPU    via peer                              0          160          160
// INFO-4-NEXT: homp:   3        CPU    via peer                              0           80           80
// INFO: figure 2: PASS
// INFO: homp: halo update {{.*}}jacobi.c:{{[0-9]+}}:13 of 'uold' (leftright): [[#mul(2, NDEV) - 2]] copies on [[DEVICES]] in
// INFO: figure 3: PASS

#include <math.h>
#include <stdio.h>
#include <string.h>

#ifndef DEVS
#define DEVS *
#endif
#ifndef N
#define N 34
#endif
#ifndef M
#define M 10
#endif

static double u[N][M], uold[N][M], f[N][M], useq[N][M], uoldseq[N][M];
static const int Iterations = 6;

static void init(void) {
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < M; ++j) {
      u[i][j] = useq[i][j] = (i * 7 + j * 3) % 11;
      f[i][j] = (i + j) % 5;
      uold[i][j] = -1; // never read before it is written
    }
}

/// The sequential Jacobi both figures compute; returns the last error.
static double reference(void) {
  double omega = 0.5, ax = 1.0, ay = 2.0, b = -6.0, error = 1;
  for (int it = 1; it <= Iterations && error > 0; ++it) {
    error = 0;
    memcpy(uoldseq, useq, sizeof useq);
    for (int i = 1; i < N - 1; i++)
      for (int j = 1; j < M - 1; j++) {
        double resid = (ax * (uoldseq[i - 1][j] + uoldseq[i + 1][j]) +
                        ay * (uoldseq[i][j - 1] + uoldseq[i][j + 1]) +
                        b * uoldseq[i][j] - f[i][j]) /
                       b;
        useq[i][j] = uoldseq[i][j] - omega * resid;
        error = error + resid * resid;
      }
  }
  return error;
}

static void check(const char *Figure, double error, double errseq) {
  fflush(stderr);
  int failures = 0;
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < M; ++j)
      if (u[i][j] != useq[i][j] && failures++ < 3)
        printf("FAIL %s: u[%d][%d] = %g, expected %g\n", Figure, i, j, u[i][j],
               useq[i][j]);
  // The error sums N x M squares in another order: within (n - 1) eps of
  // the sum, a sum of positive terms in floating point.
  if (fabs(error - errseq) > (1e-12 + 2.3e-16 * N * M) * errseq)
    printf("FAIL %s: error = %.17g, expected %.17g\n", Figure, error, errseq),
        ++failures;
  printf("%s: %s\n", Figure, failures ? "FAILED" : "PASS");
  fflush(stdout);
}

static void figure2(void) {
  init();
  double errseq = reference();
  int n = N, m = M, k = 1, mits = Iterations;
  double omega = 0.5, ax = 1.0, ay = 2.0, b = -6.0, tol = 0, error = 1,
         resid;
  int i, j;
#pragma omp target data device(DEVS) \
  map(to:n, m, omega, ax, ay, b, \
  f[0:n][0:m] dist_data(BLOCK,*)) \
  map(tofrom:u[0:n][0:m] dist_data(BLOCK,*)) \
  map(alloc:uold[0:n][0:m] \
      dist_data(BLOCK,*) halo(1,))
while ((k<=mits)&&(error>tol))
{
  error = 0;
#pragma omp target device(DEVS)
#pragma omp parallel for collapse(2) \
  dist_iteration(BLOCK)
  for(i=0;i<n;i++)
    for(j=0;j<m;j++)
      uold[i][j] = u[i][j];

#pragma omp halo_exchange (uold)

#pragma omp target device(DEVS)
#pragma omp parallel for private(resid) \
  collapse (2) reduction(+:error) \
  dist_iteration(BLOCK)
  for (i=1;i<(n-1);i++)
    for (j=1;j<(m-1);j++)
    {
      resid = (ax*(uold[i-1][j] + uold[i+1][j])\
              + ay*(uold[i][j-1] + uold[i][j+1])\
              + b * uold[i][j] - f[i][j])/b;
      u[i][j] = uold[i][j] - omega * resid;
      error = error + resid*resid ;
    }
  k++;
}
  check("figure 2", error, errseq);
}

static void figure3(void) {
  init();
  double errseq = reference();
  int n = N, m = M, k = 1, nits = Iterations;
  double omega = 0.5, ax = 1.0, ay = 2.0, b = -6.0, tol = 0, error = 1,
         resid;
  int i, j;
#pragma omp parallel target data device(DEVS) \
  map(to:n, m, omega, ax, ay, b, \
    f[0:n][0:m] partition([ALIGN(loop1)], FULL)) \
  map(tofrom:u[0:n][0:m] \
    partition([ALIGN(loop1)], FULL)) \
  map(alloc:uold[0:n][0:m] \
    partition([ALIGN(loop1)], FULL) halo(1,))
while ((k<=nits)&&(error>tol)) {
  error = 0;
#pragma omp parallel for target device(DEVS) collapse(2) \
  distribute dist_schedule(target:[ALIGN(loop1)])
 for(i=0;i<n;i++)
   for(j=0;j<m;j++)
     uold[i][j] = u[i][j];

#pragma omp halo_exchange (uold)

#pragma omp parallel for target device(DEVS) \
  reduction(+:error) \
  distribute dist_schedule(target:[AUTO])
loop1: for (i=0;i<n;i++) {
  if (i==0||i==n-1) continue;
  for (j=1;j<(m-1);j++) {
    resid = (ax*(uold[i-1][j] + uold[i+1][j]) \
      + ay*(uold[i][j-1] + uold[i][j+1]) \
      + b * uold[i][j] - f[i][j])/b;
    u[i][j] = uold[i][j] - omega * resid;
    error = error + resid*resid;
  }
}
  k++;
}
  check("figure 3", error, errseq);
}

int main(void) {
  figure2();
  figure3();
  return 0;
}
