// Distributed arrays that stay on the devices across kernels (SPEC.md
// section 6): PMAM'15 Figure 2's data region (without its halo), 'target
// enter data' / 'target update' / 'target exit data' with device lists,
// a nested data region, and a kernel that maps an array the data region
// already distributes. HOMP_INFO's byte counts show that data moves in
// once and out once: the kernels move only their 120-byte chunks.
// RUN: %hompcc -O2 %s -o %t
// RUN: %t figure2 2>&1 | FileCheck %s --check-prefix=FIG2-RESULT --implicit-check-not=homp:
// RUN: env HOMP_INFO=1 %t figure2 2>&1 | FileCheck %s --check-prefixes=FIG2,FIG2-%ndev --allow-unused-prefixes -DDEVICES="%devices"
// RUN: env HOMP_INFO=1 %t enter 2>&1 | FileCheck %s --check-prefixes=ENTER,ENTER-%ndev --allow-unused-prefixes -DDEVICES="%devices"
// RUN: env HOMP_INFO=1 %t nested 2>&1 | FileCheck %s --check-prefixes=NESTED,NESTED-%ndev --allow-unused-prefixes -DDEVICES="%devices"

#include <math.h>
#include <stdio.h>
#include <string.h>

enum { N = 34, M = 10, Iterations = 3 };
static double u[N][M], uold[N][M], f[N][M], useq[N][M], uoldseq[N][M];
static int failures;

// PMAM'15 Figure 2 as written, except that the stencil reads uold[i][j]
// twice instead of uold[i-1][j] and uold[i+1][j] (rows of neighbours need
// halos, the next step).
static void figure2(void) {
  int n = N, m = M, k = 1, mits = Iterations;
  double omega = 0.5, ax = 1.0, ay = 2.0, b = -6.0, tol = 0, error = 1,
         resid;
  int i, j;
  for (i = 0; i < n; ++i)
    for (j = 0; j < m; ++j) {
      u[i][j] = useq[i][j] = (i * 7 + j * 3) % 11;
      f[i][j] = (i + j) % 5;
    }
  double errseq = 1;
  for (int it = 1; it <= mits && errseq > tol; ++it) {
    errseq = 0;
    for (i = 0; i < n; i++)
      for (j = 0; j < m; j++)
        uoldseq[i][j] = useq[i][j];
    for (i = 1; i < (n - 1); i++)
      for (j = 1; j < (m - 1); j++) {
        resid = (ax * (uoldseq[i][j] + uoldseq[i][j]) +
                 ay * (uoldseq[i][j - 1] + uoldseq[i][j + 1]) +
                 b * uoldseq[i][j] - f[i][j]) /
                b;
        useq[i][j] = uoldseq[i][j] - omega * resid;
        errseq = errseq + resid * resid;
      }
  }

#pragma omp target data device(*) \
  map(to:n, m, omega, ax, ay, b, \
  f[0:n][0:m] dist_data(BLOCK,*)) \
  map(tofrom:u[0:n][0:m] dist_data(BLOCK,*)) \
  map(alloc:uold[0:n][0:m] \
      dist_data(BLOCK,*))
while ((k<=mits)&&(error>tol))
{
  error = 0;
#pragma omp target device(*)
#pragma omp parallel for collapse(2) \
  dist_iteration(BLOCK)
  for(i=0;i<n;i++)
    for(j=0;j<m;j++)
      uold[i][j] = u[i][j];

#pragma omp target device(*)
#pragma omp parallel for private(resid) \
  collapse (2) reduction(+:error) \
  dist_iteration(BLOCK)
  for (i=1;i<(n-1);i++)
    for (j=1;j<(m-1);j++)
    {
      resid = (ax*(uold[i][j] + uold[i][j])\
              + ay*(uold[i][j-1] + uold[i][j+1])\
              + b * uold[i][j] - f[i][j])/b;
      u[i][j] = uold[i][j] - omega * resid;
      error = error + resid*resid ;
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
// FIG2-RESULT: PASS
// The data region copies f and u in (8.5 rows each per device: 9, 9, 8, 8
// rows of 10 doubles), nothing of uold; the kernels move their chunks only;
// the end copies u's rows out; each device's time is its copies' (BIG).
// FIG2: homp: data region {{.*}}data-regions.c:51:1 begins: 3 distributed arrays on [[DEVICES]]
// FIG2-NEXT: device
// FIG2-4-NEXT: homp:   0        CPU    -                                     0         1440            0 {{[0-9]+\.[0-9]{3}$}}
// FIG2-4-NEXT: homp:   1        CPU    -                                     0         1440            0 {{[0-9]+\.[0-9]{3}$}}
// FIG2-4-NEXT: homp:   2        CPU    -                                     0         1280            0 {{[0-9]+\.[0-9]{3}$}}
// FIG2-4-NEXT: homp:   3        CPU    -                                     0         1280            0 {{[0-9]+\.[0-9]{3}$}}
// FIG2: homp: region {{.*}}data-regions.c:60:1: 340 iterations on [[DEVICES]]
// FIG2-NEXT: device
// FIG2-4-NEXT: homp:   0        CPU    [0, 9) x [0, 10)                      1          120            0
// FIG2: homp: region {{.*}}data-regions.c:67:1: 256 iterations on [[DEVICES]]
// FIG2-NEXT: device
// FIG2-4-NEXT: homp:   0        CPU    [1, 9) x [1, 9)                       1          128            8
// FIG2-4-NEXT: homp:   1        CPU    [9, 18) x [1, 9)                      1          128            8
// FIG2: homp: data region {{.*}}data-regions.c:51:1 ends: 3 distributed arrays on [[DEVICES]]
// FIG2-NEXT: device
// FIG2-4-NEXT: homp:   0        CPU    -                                     0            0          720 {{[0-9]+\.[0-9]{3}$}}
// FIG2: PASS

static void enter_update_exit(void) {
  enum { n = 1000 };
  static double a[n];
  for (int i = 0; i < n; ++i)
    a[i] = i;
#pragma omp target enter data device(*) map(to: a[0:n] dist_data(BLOCK))
#pragma omp target teams distribute parallel for device(*)
  for (int i = 0; i < n; ++i)
    a[i] += 1;
  // The host's copy is stale until 'target update from'.
  if (a[7] != 7)
    printf("FAIL a[7] = %g before the update\n", a[7]), ++failures;
#pragma omp target update device(*) from(a[0:n])
  for (int i = 0; i < n; ++i)
    if (a[i] != i + 1)
      printf("FAIL a[%d] = %g after 'update from'\n", i, a[i]), ++failures,
          i = n;
  for (int i = 0; i < n; ++i)
    a[i] = 2 * i;
#pragma omp target update device(*) to(a[0:n])
#pragma omp target teams distribute parallel for device(*)
  for (int i = 0; i < n; ++i)
    a[i] += 1;
#pragma omp target exit data device(*) map(from: a[0:n])
  fflush(stderr);
  for (int i = 0; i < n; ++i)
    if (a[i] != 2 * i + 1)
      printf("FAIL a[%d] = %g after 'exit data'\n", i, a[i]), ++failures,
          i = n;
}
// ENTER: homp: 'target enter data' {{.*}} begins: 1 distributed array on [[DEVICES]]
// ENTER-NEXT: device
// ENTER-4-NEXT: homp:   0        CPU    -                                     0         2000            0 {{[0-9]+\.[0-9]{3}$}}
// ENTER: homp: region
// ENTER: homp: 'target update' {{.*}}: 1 distributed array on [[DEVICES]]
// ENTER-NEXT: device
// ENTER-4-NEXT: homp:   0        CPU    -                                     0            0         2000 {{[0-9]+\.[0-9]{3}$}}
// ENTER: homp: 'target update' {{.*}}: 1 distributed array on [[DEVICES]]
// ENTER-NEXT: device
// ENTER-4-NEXT: homp:   0        CPU    -                                     0         2000            0 {{[0-9]+\.[0-9]{3}$}}
// ENTER: homp: 'target exit data' {{.*}} ends: 1 distributed array on [[DEVICES]]
// ENTER-NEXT: device
// ENTER-4-NEXT: homp:   0        CPU    -                                     0            0         2000 {{[0-9]+\.[0-9]{3}$}}
// ENTER: PASS

static void nested(void) {
  enum { n = 400 };
  static double a[n];
  for (int i = 0; i < n; ++i)
    a[i] = i;
#pragma omp parallel target data device(*) map(tofrom: a[0:n] partition(BLOCK))
  {
    // Already distributed: one more reference, no copies, here or when the
    // inner region ends.
#pragma omp target data device(*) map(tofrom: a[0:n] dist_data(BLOCK))
    {
      // A kernel mapping it again uses the devices' parts as they are.
#pragma omp target teams distribute parallel for device(*) \
    map(tofrom: a[0:n] dist_data(BLOCK))
      for (int i = 0; i < n; ++i)
        a[i] *= 3;
    }
    if (a[5] != 5)
      printf("FAIL a[5] = %g inside the outer region\n", a[5]), ++failures;
  }
  fflush(stderr);
  for (int i = 0; i < n; ++i)
    if (a[i] != 3 * i)
      printf("FAIL a[%d] = %g\n", i, a[i]), ++failures, i = n;
}
// NESTED: homp: data region {{.*}} begins: 1 distributed array on [[DEVICES]]
// NESTED-NEXT: device
// NESTED-4-NEXT: homp:   0        CPU    -                                     0          800            0
// NESTED: homp: data region {{.*}} begins: 1 distributed array on [[DEVICES]]
// NESTED-NEXT: device
// NESTED-4-NEXT: homp:   0        CPU    -                                     0            0            0
// NESTED: homp: data region {{.*}} ends: 1 distributed array on [[DEVICES]]
// NESTED-NEXT: device
// NESTED-4-NEXT: homp:   0        CPU    -                                     0            0            0
// The kernel runs asynchronously (its arrays are resident): its report comes
// when the program waits for its devices, at the outer region's end.
// NESTED: homp: region {{.*}}: 400 iterations on [[DEVICES]]; asynchronous: the program went on while it ran in
// NESTED-NEXT: device
// NESTED-4-NEXT: homp:   0        CPU    [0, 100)                              1          120            0
// NESTED: homp: data region {{.*}} ends: 1 distributed array on [[DEVICES]]
// NESTED-NEXT: device
// NESTED-4-NEXT: homp:   0        CPU    -                                     0            0          800
// NESTED: PASS

// 8 MiB in: each device spends time on its 2 MiB.
// RUN: env HOMP_INFO=1 %t big 2>&1 | FileCheck %s --check-prefixes=BIG,BIG-%ndev --allow-unused-prefixes -DDEVICES="%devices"
static void big(void) {
  enum { n = 1 << 20 };
  static double a[n];
#pragma omp target enter data device(*) map(to: a[0:n] dist_data(BLOCK))
#pragma omp target exit data device(*) map(delete: a[0:n] dist_data(BLOCK))
}
// BIG: homp: 'target enter data' {{.*}} begins: 1 distributed array on [[DEVICES]]
// BIG-NEXT: device
// BIG-4-NEXT: homp:   0        CPU    -                                     0      2097152            0 {{([1-9][0-9]*\.[0-9]+|0\.[0-9]*[1-9][0-9]*)$}}
// BIG-4-NEXT: homp:   1        CPU    -                                     0      2097152            0 {{([1-9][0-9]*\.[0-9]+|0\.[0-9]*[1-9][0-9]*)$}}
// BIG-4-NEXT: homp:   2        CPU    -                                     0      2097152            0 {{([1-9][0-9]*\.[0-9]+|0\.[0-9]*[1-9][0-9]*)$}}
// BIG-4-NEXT: homp:   3        CPU    -                                     0      2097152            0 {{([1-9][0-9]*\.[0-9]+|0\.[0-9]*[1-9][0-9]*)$}}

int main(int argc, char **argv) {
  if (!strcmp(argv[1], "figure2"))
    figure2();
  else if (!strcmp(argv[1], "enter"))
    enter_update_exit();
  else if (!strcmp(argv[1], "nested"))
    nested();
  else
    big();
  fflush(stderr);
  puts(failures ? "FAIL" : "PASS");
  return failures != 0;
}

// Without HOMP_INFO a kernel on resident data runs asynchronously.
// RUN: %t enter 2>&1 | FileCheck %s --check-prefix=FIG2-RESULT --implicit-check-not=homp:
// RUN: %t nested 2>&1 | FileCheck %s --check-prefix=FIG2-RESULT --implicit-check-not=homp:
