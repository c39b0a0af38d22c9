// HOMP'16 Figure 3's data region (its stencil without the rows of the
// neighbours, which need halos): arrays aligned with a loop further down,
// labelled loop1, whose split the data region decides when it begins; a
// kernel aligned with loop1 too; loop1 itself (AUTO) keeps that split,
// which for devices of equal speed is BLOCK's. Then ALIGN with a ratio.
// RUN: %hompcc -O2 %s -o %t
// RUN: %t 2>&1 | FileCheck %s --implicit-check-not=homp:
// A machine file that gives the devices' speeds keeps AUTO from memorizing
// loop1 (it would where it samples: the plain run above): the data region
// splits it by the model when it begins.
// RUN: env HOMP_MACHINE=%S/Inputs/machine-fast-host.ini HOMP_INFO=1 %t 2>&1 | FileCheck %s --check-prefixes=INFO,INFO-%ndev --allow-unused-prefixes -DDEVICES="%devices"
// CHECK: PASS

#include <math.h>
#include <stdio.h>

enum { N = 21, M = 9 };
static double u[N][M], uold[N][M], f[N][M], useq[N][M], uoldseq[N][M];
static int failures;

static void figure3(void) {
  int n = N, m = M, k = 1, nits = 3;
  double omega = 0.5, ax = 1.0, ay = 2.0, b = -6.0, tol = 0, error = 1,
         resid;
  int i, j;
  for (i = 0; i < n; ++i)
    for (j = 0; j < m; ++j) {
      u[i][j] = useq[i][j] = (i * 5 + j * 3) % 13;
      f[i][j] = (i * j) % 7;
    }
  double errseq = 1;
  for (int it = 1; it <= nits && errseq > tol; ++it) {
    errseq = 0;
    for (i = 0; i < n; i++)
      for (j = 0; j < m; j++)
        uoldseq[i][j] = useq[i][j];
    for (i = 1; i < n - 1; i++)
      for (j = 1; j < m - 1; j++) {
        resid = (ax * (uoldseq[i][j] + uoldseq[i][j]) +
                 ay * (uoldseq[i][j - 1] + uoldseq[i][j + 1]) +
                 b * uoldseq[i][j] - f[i][j]) /
                b;
        useq[i][j] = uoldseq[i][j] - omega * resid;
        errseq = errseq + resid * resid;
      }
  }

#pragma omp parallel target data device(*) \
  map(to:n, m, omega, ax, ay, b, \
    f[0:n][0:m] partition([ALIGN(loop1)], FULL)) \
  map(tofrom:u[0:n][0:m] \
    partition([ALIGN(loop1)], FULL)) \
  map(alloc:uold[0:n][0:m] \
    partition([ALIGN(loop1)], FULL))
while ((k<=nits)&&(error>tol)) {
  error = 0;
#pragma omp parallel for target device(*) collapse(2) \
  distribute dist_schedule(target:[ALIGN(loop1)])
 for(i=0;i<n;i++)
   for(j=0;j<m;j++)
     uold[i][j] = u[i][j];

#pragma omp parallel for target device(*) \
  reduction(+:error) \
  distribute dist_schedule(target:[AUTO])
loop1: for (i=0;i<n;i++) {
  if (i==0||i==n-1) continue;
  for (j=1;j<(m-1);j++) {
    resid = (ax*(uold[i][j] + uold[i][j]) \
      + ay*(uold[i][j-1] + uold[i][j+1]) \
      + b * uold[i][j] - f[i][j])/b;
    u[i][j] = uold[i][j] - omega * resid;
    error = error + resid*resid;
  }
}
  k++;
}
  fflush(stderr);
  for (i = 0; i < n; ++i)
    for (j = 0; j < m; ++j)
      if (u[i][j] != useq[i][j])
        printf("FAIL u[%d][%d] = %g, expected %g\n", i, j, u[i][j],
               useq[i][j]),
            ++failures, i = n, j = m;
  if (fabs(error - errseq) > 1e-12 * errseq)
    printf("FAIL error = %.17g, expected %.17g\n", error, errseq), ++failures;
}

// ALIGN(x, 2): each device holds the elements 2i and 2i+1 of y for the
// indices i of x it holds; ALIGN(x, 1/2) the opposite.
static void ratios(void) {
  enum { n = 50 };
  static double x[n], y[2 * n], z[n / 2];
  for (int i = 0; i < n; ++i)
    x[i] = i;
#pragma omp target teams distribute parallel for device(*) \
    map(to: x[0:n] dist_data(BLOCK)) \
    map(from: y[0:2 * n] dist_data(ALIGN(x, 2))) \
    map(from: z[0:n / 2] dist_data(ALIGN(x, 0.5))) \
    dist_schedule(target: ALIGN(x))
  for (int i = 0; i < n; ++i) {
    y[2 * i] = x[i];
    y[2 * i + 1] = -x[i];
    if (i % 2 == 0)
      z[i / 2] = x[i] * 10;
  }
  fflush(stderr);
  for (int i = 0; i < n; ++i)
    if (y[2 * i] != i || y[2 * i + 1] != -i || (i % 2 == 0 && z[i / 2] != 10 * i))
      printf("FAIL ratios at %d\n", i), ++failures, i = n;
}

int main(void) {
  figure3();
  ratios();
  fflush(stderr);
  puts(failures ? "FAIL" : "PASS");
  return failures != 0;
}

// loop1 runs over 0..20 in blocks (on 4 devices: 6, 5, 5, 5): the arrays
// hold those rows, the copy kernel runs them, and loop1 too (its first and
// last iterations skip themselves).
// INFO: homp: data region {{.*}}align-labels.c:48:1 begins: 3 distributed arrays on [[DEVICES]]
// INFO-NEXT: device
// INFO-4-NEXT: homp:   0        CPU    -                                     0          864            0
// INFO-4-NEXT: homp:   1        CPU    -                                     0          720            0
// INFO: homp: region {{.*}}align-labels.c:57:1: 189 iterations on [[DEVICES]]
// INFO-NEXT: device
// INFO-4-NEXT: homp:   0        CPU    [0, 6) x [0, 9)                       1
// INFO-4-NEXT: homp:   1        CPU    [6, 11) x [0, 9)                      1
// INFO: homp: region {{.*}}align-labels.c:63:1: 21 iterations on [[DEVICES]]
// INFO-NEXT: device
// INFO-4-NEXT: homp:   0        CPU    [0, 6)                                1
// INFO-4-NEXT: homp:   1        CPU    [6, 11)                               1
// INFO: PASS
