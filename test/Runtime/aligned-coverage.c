// A data region's array aligned with something that covers less than its
// section (a shorter array, a loop over the interior) still gives every
// element a home on a device: kernels that write the elements beyond run
// there, or on the host with the arrays gathered, and no write is lost.
// (Before, those elements belonged to no device: a kernel run on the host
// wrote them into a gathered copy that nothing kept.) The host's array of a
// 'to' item is never changed. Results are compared with the same loops run
// sequentially.
// The last case's warning (on one device there is none) is left out.
// RUN: %hompcc -O2 -DDEVS="*" %s -o %t.4 && %t.4 2>&1 | grep -v 'would run on no device' | FileCheck %s --implicit-check-not=homp:
// RUN: %hompcc -O2 -DDEVS="0:3" %s -o %t.3 && %t.3 2>&1 | grep -v 'would run on no device' | FileCheck %s --implicit-check-not=homp:
// RUN: %hompcc -O2 -DDEVS="*, host" -DWITH_HOST %s -o %t.h && %t.h 2>&1 | grep -v 'would run on no device' | FileCheck %s --implicit-check-not=homp:
// CHECK: PASS

#include <stdio.h>
#include <string.h>

enum { N = 10, M = 5, P = 3 };
static double a[N], b[2 * N], c[2 * N], u[N], w[N];
static long F[N][M][P], G[N][M][P], RefF[N][M][P];
static int failures;

#define FAIL(...) (printf("FAIL " __VA_ARGS__), ++failures)

int main(void) {
  // 'b' is twice as long as 'a', whose split it follows: its second half
  // belongs to the last device.
  for (int i = 0; i < 2 * N; ++i)
    b[i] = c[i] = -1;
#pragma omp target data device(DEVS) map(to: a dist_data(BLOCK)) \
    map(tofrom: b dist_data(ALIGN(a)))
  {
#pragma omp target teams distribute parallel for device(DEVS)
    for (int i = 0; i < 2 * N; ++i)
      b[i] = i * 0.5;
  }
  for (int i = 0; i < 2 * N; ++i)
    if (b[i] != i * 0.5)
      FAIL("b[%d] = %g, expected %g\n", i, b[i], i * 0.5), i = 2 * N;

  // The same as a 'to' item: the kernels see their writes, the host's
  // array keeps its values (but for the host's own part when it is one of
  // the devices: that part is the host's array, as OpenMP's mapping on a
  // device sharing the host's memory).
  for (int i = 0; i < 2 * N; ++i)
    b[i] = -1;
#pragma omp target data device(DEVS) map(to: a dist_data(BLOCK)) \
    map(to: b dist_data(ALIGN(a))) map(tofrom: c dist_data(ALIGN(a)))
  {
#pragma omp target teams distribute parallel for device(DEVS)
    for (int i = 0; i < 2 * N; ++i)
      b[i] = i + 1;
#pragma omp target teams distribute parallel for device(DEVS)
    for (int i = 0; i < 2 * N; ++i)
      c[i] = 2 * b[i];
  }
  for (int i = 0; i < 2 * N; ++i) {
#ifndef WITH_HOST
    if (b[i] != -1)
      FAIL("the host's b[%d] = %g, expected -1\n", i, b[i]), i = 2 * N;
    else
#endif
    if (c[i] != 2 * (i + 1))
      FAIL("c[%d] = %g, expected %d\n", i, c[i], 2 * (i + 1)), i = 2 * N;
  }

  // Aligned with a labelled loop over the interior: the two ends belong to
  // the first and the last device; a later kernel writes every element.
  for (int i = 0; i < N; ++i)
    u[i] = w[i] = i;
#pragma omp target data device(DEVS) \
    map(tofrom: u[0:N] dist_data(ALIGN(inner)), w[0:N] dist_data(ALIGN(inner)))
  {
#pragma omp parallel for target device(DEVS) distribute \
    dist_schedule(target: [BLOCK])
  inner:
    for (int i = 1; i < N - 1; ++i)
      u[i] = 10 * w[i];
#pragma omp target teams distribute parallel for device(DEVS)
    for (int i = 0; i < N; ++i)
      w[i] = u[i] + 1;
  }
  for (int i = 0; i < N; ++i) {
    double U = i > 0 && i < N - 1 ? 10 * i : i;
    if (u[i] != U || w[i] != U + 1)
      FAIL("u[%d], w[%d] = %g, %g, expected %g, %g\n", i, i, u[i], w[i], U,
           U + 1),
          i = N;
  }

  // G's first dimension follows F's split one (its second, over [0, M)):
  // the nest's two loops would split along the same devices, so its
  // kernels run on the host with the arrays gathered, three sweeps.
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < M; ++j)
      for (int k = 0; k < P; ++k)
        F[i][j][k] = G[i][j][k] = RefF[i][j][k] = i * 100 + j * 10 + k;
  for (int s = 0; s < 3; ++s) {
    long Tmp[N][M][P];
    memcpy(Tmp, RefF, sizeof RefF);
    for (int i = 0; i < N; ++i)
      for (int j = 1; j < M - 1; ++j)
        for (int k = 0; k < P; ++k)
          RefF[i][j][k] = Tmp[i][j - 1][k] - Tmp[i][j + 1][k] + s;
  }
#pragma omp target data device(DEVS) \
    map(tofrom: F dist_data(*, BLOCK, *) halo(, 1, )) \
    map(tofrom: G dist_data(ALIGN(F)))
  for (int s = 0; s < 3; ++s) {
    if (s > 0) {
#pragma omp halo_exchange(F)
    }
#pragma omp target teams distribute parallel for collapse(2) device(DEVS)
    for (int i = 0; i < N; ++i)
      for (int j = 1; j < M - 1; ++j)
        for (int k = 0; k < P; ++k)
          G[i][j][k] = F[i][j - 1][k] - F[i][j + 1][k] + s;
#pragma omp target teams distribute parallel for collapse(2) device(DEVS)
    for (int i = 0; i < N; ++i)
      for (int j = 1; j < M - 1; ++j)
        for (int k = 0; k < P; ++k)
          F[i][j][k] = G[i][j][k];
  }
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < M; ++j)
      for (int k = 0; k < P; ++k)
        if (F[i][j][k] != RefF[i][j][k])
          FAIL("F[%d][%d][%d] = %ld, expected %ld\n", i, j, k, F[i][j][k],
               RefF[i][j][k]),
              i = N, j = M, k = P;
  fflush(stderr);
  puts(failures ? "FAIL" : "PASS");
  return failures != 0;
}
