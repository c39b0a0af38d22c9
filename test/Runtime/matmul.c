// PMAM'15 section 5.2's matrix multiplication, C = A x B, distributed three
// ways: by rows (A and C in row blocks, B whole), by columns (B and C in
// column blocks, A whole, the nest collapsed) and in 2-D blocks over a
// topology. Column and block parts are not contiguous: each device keeps
// the matrices' layout and gets only its own elements. Matrices are C99
// VLAs passed as pointers to rows; entries are small integers, so the
// products are exact. On 1 to 4 devices, with the host, for odd sizes.
// RUN: %hompcc -O2 -DDEVS="0:1" %s -o %t.1 && %t.1 2>&1 | FileCheck %s --implicit-check-not=homp:
// RUN: %hompcc -O2 -DDEVS="0:2" %s -o %t.2 && %t.2 2>&1 | FileCheck %s --implicit-check-not=homp:
// RUN: %hompcc -O2 -DDEVS="0:3" %s -o %t.3 && %t.3 2>&1 | FileCheck %s --implicit-check-not=homp:
// RUN: %hompcc -O2 -DDEVS="*" %s -o %t.4 && %t.4 2>&1 | FileCheck %s --implicit-check-not=homp:
// RUN: %hompcc -O2 -DDEVS="*, host" %s -o %t.h && %t.h 2>&1 | FileCheck %s --implicit-check-not=homp:
// The 2x2 topology of the blocks on 4 devices, and the copies of columns.
// RUN: %hompcc -O2 -DDEVS="*" -DINFO %s -o %t.info
// RUN: env HOMP_INFO=1 %t.info 2>&1 | FileCheck %s --check-prefixes=INFO,INFO-%ndev --allow-unused-prefixes -DDEVICES="%devices"
// CHECK-NOT: FAIL
// CHECK: PASS

#include <stdio.h>
#include <stdlib.h>

static void rows(int n, int m, int p, double A[n][m], double B[m][p],
                 double C[n][p]) {
#pragma omp target device(DEVS) map(to: A[0:n][0:m] dist_data(BLOCK, *), \
                                    B[0:m][0:p]) \
                                map(from: C[0:n][0:p] dist_data(BLOCK, *))
#pragma omp parallel for dist_iteration(BLOCK)
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < p; ++j) {
      double s = 0;
      for (int k = 0; k < m; ++k)
        s += A[i][k] * B[k][j];
      C[i][j] = s;
    }
}

static void columns(int n, int m, int p, double A[n][m], double B[m][p],
                    double C[n][p]) {
#pragma omp target teams distribute parallel for collapse(2) device(DEVS) \
    map(to: A[0:n][0:m] dist_data(DUPLICATE, DUPLICATE), \
            B[0:m][0:p] dist_data(DUPLICATE, BLOCK)) \
    map(from: C[0:n][0:p] dist_data(DUPLICATE, BLOCK)) \
    dist_iteration(FULL, BLOCK)
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < p; ++j) {
      double s = 0;
      for (int k = 0; k < m; ++k)
        s += A[i][k] * B[k][j];
      C[i][j] = s;
    }
}

static void blocks(int n, int m, int p, double A[n][m], double B[m][p],
                   double C[n][p]) {
#pragma omp target teams distribute parallel for collapse(2) device(DEVS) \
    topology([*][*]) \
    map(to: A[0:n][0:m] dist_data(BLOCK, *), \
            B[0:m][0:p] dist_data(*, BLOCK) topology([*])) \
    map(from: C[0:n][0:p] dist_data(BLOCK, BLOCK)) \
    dist_iteration(BLOCK, BLOCK)
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < p; ++j) {
      double s = 0;
      for (int k = 0; k < m; ++k)
        s += A[i][k] * B[k][j];
      C[i][j] = s;
    }
}

static int failures;

static void run(int n, int m, int p) {
  double(*A)[m] = malloc(sizeof(double[n][m]) + 1);
  double(*B)[p] = malloc(sizeof(double[m][p]) + 1);
  double(*C)[p] = malloc(sizeof(double[n][p]) + 1);
  double(*R)[p] = malloc(sizeof(double[n][p]) + 1);
  for (int i = 0; i < n; ++i)
    for (int k = 0; k < m; ++k)
      A[i][k] = (i * 7 + k * 3) % 11 - 5;
  for (int k = 0; k < m; ++k)
    for (int j = 0; j < p; ++j)
      B[k][j] = (k * 5 + j) % 7 - 3;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < p; ++j) {
      R[i][j] = 0;
      for (int k = 0; k < m; ++k)
        R[i][j] += A[i][k] * B[k][j];
    }
  void (*Kernels[])(int, int, int, double[n][m], double[m][p],
                    double[n][p]) = {rows, columns, blocks};
  const char *Names[] = {"rows", "columns", "blocks"};
  for (int K = 0; K < 3; ++K) {
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < p; ++j)
        C[i][j] = -1;
    Kernels[K](n, m, p, A, B, C);
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < p; ++j)
        if (C[i][j] != R[i][j]) {
          printf("FAIL %s %dx%dx%d: C[%d][%d] = %g, expected %g\n", Names[K],
                 n, m, p, i, j, C[i][j], R[i][j]);
          ++failures;
          i = n;
          break;
        }
  }
  free(A);
  free(B);
  free(C);
  free(R);
}

int main(void) {
#ifdef INFO
  run(4, 3, 6);
#else
  static const int Sizes[][3] = {{1, 1, 1}, {3, 2, 5}, {17, 9, 13},
                                 {64, 64, 64}, {65, 31, 33}, {2, 7, 1}};
  for (unsigned S = 0; S < sizeof Sizes / sizeof Sizes[0]; ++S)
    run(Sizes[S][0], Sizes[S][1], Sizes[S][2]);
#endif
  fflush(stderr);
  puts(failures ? "FAIL" : "PASS");
  return failures != 0;
}

// Bytes in: each device's part of A and B (and whole A or B where they are
// not split) and the 120-byte chunk; bytes out: its part of C.
// Rows: device d holds row d of A and C; B is whole on every device (a
// fifth device would hold no row, and run nothing).
// INFO: homp: region {{.*}}matmul.c:24:1: 4 iterations on {{[1-4] devices?}}{{ }}
// INFO-NEXT: device
// INFO-4-NEXT: homp:   0        CPU    [0, 1)                                1          288           48
// INFO-4: homp:   3        CPU    [3, 4)                                1          288           48
// Columns: device d runs columns j of C and holds those of B and C: 2 of
// the 6 columns for the first two devices, 1 for the others; A is whole.
// INFO: homp: region {{.*}}matmul.c:39:1: 24 iterations on [[DEVICES]]
// INFO-NEXT: device
// INFO-4-NEXT: homp:   0        CPU    [0, 4) x [0, 2)                       1          264           64
// INFO-4-NEXT: homp:   1        CPU    [0, 4) x [2, 4)                       1          264           64
// INFO-4-NEXT: homp:   2        CPU    [0, 4) x [4, 5)                       1          240           32
// INFO-4-NEXT: homp:   3        CPU    [0, 4) x [5, 6)                       1          240           32
// Blocks: a 2x2 topology of rectangles.
// INFO: homp: region {{.*}}matmul.c:55:1: 24 iterations on [[DEVICES]]
// INFO-4-SAME: {{^}} (topology 2x2)
// INFO-NEXT: device
// INFO-4-NEXT: homp:   0        CPU    [0, 2) x [0, 3)                       1          240           48
// INFO-4-NEXT: homp:   1        CPU    [0, 2) x [3, 6)                       1          240           48
// INFO-4-NEXT: homp:   2        CPU    [2, 4) x [0, 3)                       1          240           48
// INFO-4-NEXT: homp:   3        CPU    [2, 4) x [3, 6)                       1          240           48
// INFO: PASS
