// An inner loop of a collapsed nest that the program gives no policy
// follows the arrays split along it (SPEC section 3: "without any loop
// policy a loop ... is distributed like the arrays it is aligned with"):
// a 9-point stencil over 2-D blocks on a [*][*] topology (2x2 on 4
// devices, 1xN on 1, 2, 3 or 5), written without
// dist_iteration, in a data region and in a kernel of its own, and with a
// policy for the outer loop only; arrays split by columns only, where the
// rows run whole on every device; odd sizes, against sequential code.
// RUN: %hompcc -O2 %s -o %t && %t 2>&1 | FileCheck %s --implicit-check-not=FAIL --implicit-check-not=warning
// RUN: env HOMP_INFO=1 %t 2>&1 | FileCheck %s --check-prefixes=INFO,INFO-%ndev --allow-unused-prefixes
// CHECK: data region: PASS
// CHECK: own kernel: PASS
// CHECK: outer policy only: PASS
// CHECK: columns: PASS
// Every device runs the rectangle of the blocks it holds: rows 1-4 and
// columns 1-3 of the 9 x 7 grid's interior on device 0.
// INFO: homp: region {{.*}}implicit-loops.c:{{[0-9]+}}:1: 35 iterations on {{[0-9]+ devices?}}
// INFO-NEXT: device
// INFO-4-NEXT: homp:   0        CPU    [1, 5) x [1, 4)
// INFO-4-NEXT: homp:   1        CPU    [1, 5) x [4, 6)
// INFO-4-NEXT: homp:   2        CPU    [5, 8) x [1, 4)
// INFO-4-NEXT: homp:   3        CPU    [5, 8) x [4, 6)
// Columns only: every device runs all 9 rows of its columns.
// INFO-4: homp:   0        CPU    [0, 9) x [0, 2)
// INFO-4-NEXT: homp:   1        CPU    [0, 9) x [2, 4)
// INFO-4-NEXT: homp:   2        CPU    [0, 9) x [4, 6)
// INFO-4-NEXT: homp:   3        CPU    [0, 9) x [6, 7)

#include <stdio.h>
#include <stdlib.h>

enum { Steps = 3 };

static void sequential(int n, int m, double (*u)[m]) {
  double (*v)[m] = malloc(sizeof(double) * n * m);
  for (int s = 0; s < Steps; ++s) {
    for (int i = 1; i < n - 1; ++i)
      for (int j = 1; j < m - 1; ++j) {
        double Sum = 0;
        for (int a = -1; a <= 1; ++a)
          for (int b = -1; b <= 1; ++b)
            Sum += u[i + a][j + b];
        v[i][j] = Sum / 9;
      }
    for (int i = 1; i < n - 1; ++i)
      for (int j = 1; j < m - 1; ++j)
        u[i][j] = v[i][j];
  }
  free(v);
}

static void init(int n, int m, double (*u)[m]) {
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < m; ++j)
      u[i][j] = (i * m + j) * 7 % 13;
}

static void inDataRegion(int n, int m, double (*u)[m], double (*v)[m]) {
#pragma omp target data device(*) \
    map(tofrom: u[0:n][0:m] dist_data(BLOCK, BLOCK) halo(1, 1) topology([*][*])) \
    map(alloc: v[0:n][0:m] dist_data(BLOCK, BLOCK) topology([*][*]))
  for (int s = 0; s < Steps; ++s) {
#pragma omp halo_exchange(u)
#pragma omp target device(*)
#pragma omp parallel for collapse(2)
    for (int i = 1; i < n - 1; ++i)
      for (int j = 1; j < m - 1; ++j) {
        double Sum = 0;
        for (int a = -1; a <= 1; ++a)
          for (int b = -1; b <= 1; ++b)
            Sum += u[i + a][j + b];
        v[i][j] = Sum / 9;
      }
#pragma omp target device(*)
#pragma omp parallel for collapse(2)
    for (int i = 1; i < n - 1; ++i)
      for (int j = 1; j < m - 1; ++j)
        u[i][j] = v[i][j];
  }
}

// v = 2u + 1 in each device's rectangle; with an outer policy only when
// Outer.
static void ownKernel(int n, int m, double (*u)[m], double (*v)[m],
                      int Outer) {
  if (Outer) {
#pragma omp target teams distribute parallel for collapse(2) device(*) \
    topology([*][*]) dist_iteration(BLOCK) \
    map(to: u[0:n][0:m] dist_data(BLOCK, BLOCK)) \
    map(from: v[0:n][0:m] dist_data(BLOCK, BLOCK))
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < m; ++j)
        v[i][j] = 2 * u[i][j] + 1;
  } else {
#pragma omp target teams distribute parallel for collapse(2) device(*) \
    topology([*][*]) map(to: u[0:n][0:m] dist_data(BLOCK, BLOCK)) \
    map(from: v[0:n][0:m] dist_data(BLOCK, BLOCK))
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < m; ++j)
        v[i][j] = 2 * u[i][j] + 1;
  }
}

static void columns(int n, int m, double (*u)[m], double (*v)[m]) {
#pragma omp target device(*) map(to: u[0:n][0:m] dist_data(*, BLOCK)) \
    map(from: v[0:n][0:m] dist_data(*, BLOCK))
#pragma omp parallel for collapse(2)
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < m; ++j)
      v[i][j] = 2 * u[i][j] + 1;
}

int main(void) {
  const int Sizes[][2] = {{2, 2}, {3, 5}, {4, 4}, {5, 3}, {9, 7}, {33, 64}};
  int Bad[4] = {0, 0, 0, 0};
  for (unsigned K = 0; K < sizeof Sizes / sizeof Sizes[0]; ++K) {
    int n = Sizes[K][0], m = Sizes[K][1];
    double (*u)[m] = malloc(sizeof(double) * n * m);
    double (*v)[m] = malloc(sizeof(double) * n * m);
    double (*r)[m] = malloc(sizeof(double) * n * m);
    init(n, m, u);
    init(n, m, r);
    sequential(n, m, r);
    inDataRegion(n, m, u, v);
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < m; ++j)
        if (u[i][j] != r[i][j] && Bad[0]++ < 3)
          printf("FAIL: %d x %d: u[%d][%d] = %g, expected %g\n", n, m, i, j,
                 u[i][j], r[i][j]);
    for (int Outer = 0; Outer < 2; ++Outer) {
      init(n, m, u);
      ownKernel(n, m, u, v, Outer);
      for (int i = 0; i < n; ++i)
        for (int j = 0; j < m; ++j)
          if (v[i][j] != 2 * u[i][j] + 1 && Bad[1 + Outer]++ < 3)
            printf("FAIL: %d x %d, outer policy %d: v[%d][%d] = %g\n", n, m,
                   Outer, i, j, v[i][j]);
    }
    init(n, m, u);
    columns(n, m, u, v);
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < m; ++j)
        if (v[i][j] != 2 * u[i][j] + 1 && Bad[3]++ < 3)
          printf("FAIL: %d x %d, columns: v[%d][%d] = %g\n", n, m, i, j,
                 v[i][j]);
    free(u);
    free(v);
    free(r);
  }
  printf("data region: %s\n", Bad[0] ? "FAIL" : "PASS");
  printf("own kernel: %s\n", Bad[1] ? "FAIL" : "PASS");
  printf("outer policy only: %s\n", Bad[2] ? "FAIL" : "PASS");
  printf("columns: %s\n", Bad[3] ? "FAIL" : "PASS");
  return Bad[0] || Bad[1] || Bad[2] || Bad[3];
}
