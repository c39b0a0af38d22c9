// Arrays of four to eight dimensions (SPEC.md section 2: up to 8): split
// on their outermost dimension, on an inner one (parts not contiguous in
// memory), on two dimensions over a 2-D topology, with a section that
// starts inside, with a halo the kernel reads, and aligned with one
// another; the distributed loops are at most three (collapse), the inner
// dimensions' loops run inside the kernel. Every result is compared
// exactly with the same loops run sequentially on the host.
// RUN: %hompcc -O2 -DDEVS="*" %s -o %t.4 && %t.4 2>&1 | FileCheck %s --implicit-check-not=homp:
// RUN: %hompcc -O2 -DDEVS="0:3" %s -o %t.3 && %t.3 2>&1 | FileCheck %s --implicit-check-not=homp:
// RUN: %hompcc -O2 -DDEVS="*, host" %s -o %t.h && %t.h 2>&1 | FileCheck %s --implicit-check-not=homp:
// RUN: env HOMP_INFO=1 %t.4 2>&1 | FileCheck %s --check-prefix=INFO
// CHECK: PASS
// INFO: homp: region {{.*}}high-rank-arrays.c:[[#]]:1: 9 iterations
// INFO: homp: region {{.*}}high-rank-arrays.c:[[#]]:1: 180 iterations
// INFO: homp: region {{.*}}high-rank-arrays.c:[[#]]:1: 21 iterations on
// INFO: homp: region {{.*}}high-rank-arrays.c:[[#]]:1: 7 iterations
// INFO: homp: region {{.*}}high-rank-arrays.c:[[#]]:1: 15 iterations
// INFO: PASS

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { N = 9, M = 5, P = 4, Q = 3, R = 3 };
static int failures;

#define FAIL(...) (printf("FAIL " __VA_ARGS__), ++failures)

static long value(int i, int j, int k, int l, int m) {
  return (((i * 10L + j) * 10 + k) * 10 + l) * 10 + m;
}

// Compares Count longs, naming the first that differs.
static void compare(const char *What, const long *Got, const long *Want,
                    size_t Count) {
  for (size_t I = 0; I < Count; ++I)
    if (Got[I] != Want[I]) {
      FAIL("%s: element %zu is %ld, expected %ld\n", What, I, Got[I],
           Want[I]);
      return;
    }
}

int main(void) {
  // 4-D, BLOCK on the outermost dimension; the inner loops run inside.
  long(*A)[M][P][Q] = malloc(sizeof(long[N][M][P][Q]));
  long(*RefA)[M][P][Q] = malloc(sizeof(long[N][M][P][Q]));
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < M; ++j)
      for (int k = 0; k < P; ++k)
        for (int l = 0; l < Q; ++l)
          A[i][j][k][l] = RefA[i][j][k][l] = value(i, j, k, l, 0);
#pragma omp target teams distribute parallel for device(DEVS) \
    map(tofrom: A[0:N][0:M][0:P][0:Q] dist_data(BLOCK, *, *, *)) \
    dist_schedule(target: ALIGN(A))
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < M; ++j)
      for (int k = 0; k < P; ++k)
        for (int l = 0; l < Q; ++l)
          A[i][j][k][l] = 2 * A[i][j][k][l] + i - l;
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < M; ++j)
      for (int k = 0; k < P; ++k)
        for (int l = 0; l < Q; ++l)
          RefA[i][j][k][l] = 2 * RefA[i][j][k][l] + i - l;
  compare("4-D by outer blocks", &A[0][0][0][0], &RefA[0][0][0][0],
          N * M * P * Q);

  // 5-D, BLOCK on the third dimension: every device holds a slab of each
  // (i, j) plane; three loops distributed, the middle one split.
  long(*F)[M][P][Q][R] = malloc(sizeof(long[N][M][P][Q][R]));
  long(*RefF)[M][P][Q][R] = malloc(sizeof(long[N][M][P][Q][R]));
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < M; ++j)
      for (int k = 0; k < P; ++k)
        for (int l = 0; l < Q; ++l)
          for (int m = 0; m < R; ++m)
            F[i][j][k][l][m] = RefF[i][j][k][l][m] = value(i, j, k, l, m);
#pragma omp target teams distribute parallel for collapse(3) device(DEVS) \
    map(tofrom: F[0:N][0:M][0:P][0:Q][0:R] dist_data(*, *, BLOCK, *, *)) \
    dist_iteration(FULL, FULL, BLOCK)
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < M; ++j)
      for (int k = 0; k < P; ++k)
        for (int l = 0; l < Q; ++l)
          for (int m = 0; m < R; ++m)
            F[i][j][k][l][m] -= k * 7 + m;
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < M; ++j)
      for (int k = 0; k < P; ++k)
        for (int l = 0; l < Q; ++l)
          for (int m = 0; m < R; ++m)
            RefF[i][j][k][l][m] -= k * 7 + m;
  compare("5-D by inner blocks", &F[0][0][0][0][0], &RefF[0][0][0][0][0],
          N * M * P * Q * R);

  // A section of the 4-D array that starts inside, split on two
  // dimensions over a 2-D topology (2 x 2 on four devices); only what the
  // loops touch changes.
  memcpy(RefA, A, sizeof(long[N][M][P][Q]));
#pragma omp target teams distribute parallel for collapse(2) device(DEVS) \
    map(tofrom: A[1:N - 2][0:M][0:P][0:Q] dist_data(BLOCK, *, BLOCK, *)) \
    topology([*][*])
  for (int i = 1; i < N - 1; ++i)
    for (int k = 1; k < P; ++k)
      for (int j = 0; j < M; ++j)
        for (int l = 0; l < Q; ++l)
          A[i][j][k][l] += 1000;
  for (int i = 1; i < N - 1; ++i)
    for (int k = 1; k < P; ++k)
      for (int j = 0; j < M; ++j)
        for (int l = 0; l < Q; ++l)
          RefA[i][j][k][l] += 1000;
  compare("4-D section over a 2-D topology", &A[0][0][0][0], &RefA[0][0][0][0],
          N * M * P * Q);

  // A stencil over the outer dimension of a 4-D array: B reads its
  // neighbours' planes through a halo; C is aligned with B.
  long(*B)[M][P][Q] = malloc(sizeof(long[N][M][P][Q]));
  long(*C)[M][P][Q] = malloc(sizeof(long[N][M][P][Q]));
  long(*RefC)[M][P][Q] = malloc(sizeof(long[N][M][P][Q]));
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < M; ++j)
      for (int k = 0; k < P; ++k)
        for (int l = 0; l < Q; ++l) {
          B[i][j][k][l] = value(i, j, k, l, 1);
          C[i][j][k][l] = RefC[i][j][k][l] = -1;
        }
#pragma omp target teams distribute parallel for device(DEVS) \
    map(to: B[0:N][0:M][0:P][0:Q] dist_data(BLOCK, *, *, *) halo(1, , , )) \
    map(tofrom: C[0:N][0:M][0:P][0:Q] dist_data(ALIGN(B))) \
    dist_schedule(target: ALIGN(B))
  for (int i = 1; i < N - 1; ++i)
    for (int j = 0; j < M; ++j)
      for (int k = 0; k < P; ++k)
        for (int l = 0; l < Q; ++l)
          C[i][j][k][l] = B[i - 1][j][k][l] + B[i + 1][j][k][l] - B[i][j][k][l];
  for (int i = 1; i < N - 1; ++i)
    for (int j = 0; j < M; ++j)
      for (int k = 0; k < P; ++k)
        for (int l = 0; l < Q; ++l)
          RefC[i][j][k][l] = B[i - 1][j][k][l] + B[i + 1][j][k][l] -
                             B[i][j][k][l];
  compare("4-D stencil with a halo", &C[0][0][0][0], &RefC[0][0][0][0],
          N * M * P * Q);

  // A data region over a 5-D array split on its second dimension with a
  // halo there: three sweeps, the halo exchanged between them, against
  // the same sweeps on the host.
  memcpy(RefF, F, sizeof(long[N][M][P][Q][R]));
  long(*G)[M][P][Q][R] = malloc(sizeof(long[N][M][P][Q][R]));
  long(*RefG)[M][P][Q][R] = malloc(sizeof(long[N][M][P][Q][R]));
  memcpy(G, F, sizeof(long[N][M][P][Q][R]));
  memcpy(RefG, F, sizeof(long[N][M][P][Q][R]));
  for (int s = 0; s < 3; ++s) {
    for (int i = 0; i < N; ++i)
      for (int j = 1; j < M - 1; ++j)
        for (int k = 0; k < P; ++k)
          for (int l = 0; l < Q; ++l)
            for (int m = 0; m < R; ++m)
              RefG[i][j][k][l][m] = RefF[i][j - 1][k][l][m] -
                                    RefF[i][j + 1][k][l][m] + s;
    memcpy(RefF, RefG, sizeof(long[N][M][P][Q][R]));
  }
#pragma omp target data device(DEVS) \
    map(tofrom: F[0:N][0:M][0:P][0:Q][0:R] dist_data(*, BLOCK, *, *, *) \
                halo(, 1, , , )) \
    map(tofrom: G[0:N][0:M][0:P][0:Q][0:R] dist_data(*, ALIGN(F)))
  for (int s = 0; s < 3; ++s) {
    if (s > 0) {
#pragma omp halo_exchange(F)
    }
#pragma omp target teams distribute parallel for collapse(2) device(DEVS)
    for (int i = 0; i < N; ++i)
      for (int j = 1; j < M - 1; ++j)
        for (int k = 0; k < P; ++k)
          for (int l = 0; l < Q; ++l)
            for (int m = 0; m < R; ++m)
              G[i][j][k][l][m] = F[i][j - 1][k][l][m] - F[i][j + 1][k][l][m] + s;
#pragma omp target teams distribute parallel for collapse(2) device(DEVS)
    for (int i = 0; i < N; ++i)
      for (int j = 1; j < M - 1; ++j)
        for (int k = 0; k < P; ++k)
          for (int l = 0; l < Q; ++l)
            for (int m = 0; m < R; ++m)
              F[i][j][k][l][m] = G[i][j][k][l][m];
  }
  compare("5-D sweeps with halo exchanges", &F[0][0][0][0][0],
          &RefF[0][0][0][0][0], N * M * P * Q * R);
  compare("5-D sweeps' second array", &G[0][0][0][0][0], &RefG[0][0][0][0][0],
          N * M * P * Q * R);

  // Eight dimensions, the most homp distributes: BLOCK on the second.
  enum { E = 2 };
  static long H[3][5][E][E][E][E][E][E], RefH[3][5][E][E][E][E][E][E];
  long *Flat = &H[0][0][0][0][0][0][0][0], *RefFlat = &RefH[0][0][0][0][0][0][0][0];
  for (size_t I = 0; I < sizeof(H) / sizeof(long); ++I)
    Flat[I] = RefFlat[I] = (long)I;
#pragma omp target teams distribute parallel for collapse(2) device(DEVS) \
    map(tofrom: H dist_data(*, BLOCK)) dist_iteration(FULL, BLOCK)
  for (int a = 0; a < 3; ++a)
    for (int b = 0; b < 5; ++b)
      for (int c = 0; c < E; ++c)
        for (int d = 0; d < E; ++d)
          for (int e = 0; e < E; ++e)
            for (int f = 0; f < E; ++f)
              for (int g = 0; g < E; ++g)
                for (int h = 0; h < E; ++h)
                  H[a][b][c][d][e][f][g][h] =
                      H[a][b][c][d][e][f][g][h] * 3 + a - b + h;
  for (int a = 0; a < 3; ++a)
    for (int b = 0; b < 5; ++b)
      for (int c = 0; c < E; ++c)
        for (int d = 0; d < E; ++d)
          for (int e = 0; e < E; ++e)
            for (int f = 0; f < E; ++f)
              for (int g = 0; g < E; ++g)
                for (int h = 0; h < E; ++h)
                  RefH[a][b][c][d][e][f][g][h] =
                      RefH[a][b][c][d][e][f][g][h] * 3 + a - b + h;
  compare("8-D by blocks of the second dimension", Flat, RefFlat,
          sizeof(H) / sizeof(long));

  free(A);
  free(RefA);
  free(F);
  free(RefF);
  free(G);
  free(RefG);
  free(B);
  free(C);
  free(RefC);
  fflush(stderr);
  puts(failures ? "FAIL" : "PASS");
  return failures != 0;
}
