// Arrays of two and three dimensions in every form homp distributes: a
// fixed-size global, a pointer to rows with a section that starts inside,
// and a 3-D array split on its middle dimension (parts that are not
// contiguous: each device keeps the layout and gets only its own planes'
// rows). Results are compared exactly with the sequential loops.
// RUN: %hompcc -O2 -DDEVS="0:3" %s -o %t.3 && %t.3 2>&1 | FileCheck %s --implicit-check-not=homp:
// RUN: %hompcc -O2 -DDEVS="*, host" %s -o %t.h && %t.h 2>&1 | FileCheck %s --implicit-check-not=homp:
// RUN: %hompcc -O2 -DDEVS="*" %s -o %t.4 && env HOMP_INFO=1 %t.4 2>&1 | FileCheck %s --check-prefixes=INFO,INFO-%ndev --allow-unused-prefixes -DDEVICES="%devices"
// CHECK: PASS

#include <stdio.h>
#include <stdlib.h>

enum { N = 13, M = 7, P = 5 };
static int G[N][M];
static int failures;

#define FAIL(...) (printf("FAIL " __VA_ARGS__), ++failures)

int main(void) {
  // A fixed-size global, whole, split by rows; the loop aligned with it.
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < M; ++j)
      G[i][j] = i * 100 + j;
#pragma omp target teams distribute parallel for collapse(2) device(DEVS) \
    map(tofrom: G dist_data(BLOCK)) dist_schedule(target: ALIGN(G))
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < M; ++j)
      G[i][j] = -G[i][j];
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < M; ++j)
      if (G[i][j] != -(i * 100 + j))
        FAIL("G[%d][%d] = %d\n", i, j, G[i][j]), i = N, j = M;

  // A pointer to rows, a section starting at row 2 and column 1 of the
  // rows: only rows 2..N-2 and columns 1..M-2 are touched.
  int (*R)[M] = malloc(sizeof(int[N][M]));
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < M; ++j)
      R[i][j] = i + j;
#pragma omp target teams distribute parallel for collapse(2) device(DEVS) \
    map(tofrom: R[2:N - 3][0:M] dist_data(BLOCK, *))
  for (int i = 2; i < N - 1; ++i)
    for (int j = 1; j < M - 1; ++j)
      R[i][j] *= 3;
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < M; ++j) {
      int Want = (i >= 2 && i < N - 1 && j >= 1 && j < M - 1) ? 3 * (i + j)
                                                              : i + j;
      if (R[i][j] != Want)
        FAIL("R[%d][%d] = %d, expected %d\n", i, j, R[i][j], Want), i = N,
            j = M;
    }

  // A 3-D array split on its middle dimension; the nest's middle loop
  // follows it.
  int(*T)[M][P] = malloc(sizeof(int[N][M][P]));
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < M; ++j)
      for (int k = 0; k < P; ++k)
        T[i][j][k] = i * 10000 + j * 100 + k;
#pragma omp target teams distribute parallel for collapse(3) device(DEVS) \
    map(tofrom: T[0:N][0:M][0:P] dist_data(*, BLOCK, *)) \
    dist_iteration(FULL, BLOCK, FULL)
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < M; ++j)
      for (int k = 0; k < P; ++k)
        T[i][j][k] += 1;
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < M; ++j)
      for (int k = 0; k < P; ++k)
        if (T[i][j][k] != i * 10000 + j * 100 + k + 1)
          FAIL("T[%d][%d][%d] = %d\n", i, j, k, T[i][j][k]), i = N, j = M,
                                                              k = P;
  free(R);
  free(T);
  fflush(stderr);
  puts(failures ? "FAIL" : "PASS");
  return failures != 0;
}

// G: 4 row blocks of 13 rows: 4, 3, 3, 3 rows of 7 ints in and out.
// INFO: homp: region {{.*}}nd-arrays.c:25:1: 91 iterations on [[DEVICES]]
// INFO-NEXT: device
// INFO-4-NEXT: homp:   0        CPU    [0, 4) x [0, 7)                       1          232          112
// INFO-4-NEXT: homp:   1        CPU    [4, 7) x [0, 7)                       1          204           84
// R: the 10 rows of the section in blocks of 3, 3, 2, 2.
// INFO: homp: region {{.*}}nd-arrays.c:41:1: 50 iterations on [[DEVICES]]
// INFO-NEXT: device
// INFO-4-NEXT: homp:   0        CPU    [2, 5) x [1, 6)                       1          204           84
// INFO-4: homp:   3        CPU    [10, 12) x [1, 6)                     1          176           56
// T: middle dimension in blocks of 2, 2, 2, 1 planes' rows: 13 x 2 x 5
// ints per device for the first three.
// INFO: homp: region {{.*}}nd-arrays.c:62:1: 455 iterations on [[DEVICES]]
// INFO-NEXT: device
// INFO-4-NEXT: homp:   0        CPU    [0, 13) x [0, 2) x [0, 5)             1          640          520
// INFO-4: homp:   3        CPU    [0, 13) x [6, 7) x [0, 5)             1          380          260
// INFO: PASS
