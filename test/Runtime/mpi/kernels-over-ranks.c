// Issue 38: the same program under mpirun. Each kernel runs first over the
// ranks (a contiguous part of its loop each), then over each rank's
// devices; afterwards every rank's host arrays are complete and the
// reductions combined, so every rank checks everything against sequential
// code. Kernels homp cannot split safely run whole on every rank (writes it
// cannot bound, 'nowait') and are right too; info-over-ranks.c shows which
// ran how, data-regions-over-ranks.c data regions over the ranks.
// REQUIRES: mpi
// RUN: %hompcc -O2 %s -o %t
// RUN: env HOMP_DEVICES=0,1 %mpirun -n 2 %t | sort | FileCheck %s --check-prefixes=CHECK,TWO --implicit-check-not=FAIL
// RUN: env HOMP_DEVICES=0 %mpirun -n 3 %t | sort | FileCheck %s --check-prefixes=CHECK,THREE --implicit-check-not=FAIL
// RUN: %t | FileCheck %s --check-prefix=ALONE --implicit-check-not=FAIL
// TWO-COUNT-2: PASS all
// THREE-COUNT-3: PASS all
// ALONE: PASS all
// CHECK-NOT: FAIL

#include <stdio.h>
#include <stdlib.h>

static int failures;
static void check(const char *what, int ok) {
  if (!ok) {
    printf("FAIL %s (rank %s)\n", what,
           getenv("OMPI_COMM_WORLD_RANK") ? getenv("OMPI_COMM_WORLD_RANK")
                                          : "-");
    ++failures;
  }
}

enum { N = 1001, ROWS = 37, COLS = 29 };
static double x[N], y[N], want[N];
static double in[ROWS][COLS], out[ROWS][COLS];

int main(void) {
  // PMAM'15 Figure 1: AXPY.
  for (int i = 0; i < N; ++i) {
    x[i] = i % 13;
    y[i] = i % 7;
    want[i] = y[i] + 3.0 * x[i];
  }
  double a = 3.0;
#pragma omp target device(*) map(tofrom: y[0:N] dist_data(BLOCK)) map(to: x[0:N] dist_data(BLOCK))
#pragma omp parallel for
  for (int i = 0; i < N; ++i)
    y[i] += a * x[i];
  int same = 1;
  for (int i = 0; i < N; ++i)
    same &= y[i] == want[i];
  check("axpy", same);

  // Reductions of every operator, with the variables' values before.
  long sum = 5, prod = 2, mn = 1000, mx = -1000, band = ~0L, bor = 0, bxor = 3;
  int land = 1, lor = 0;
  double dsum = 0.5;
#pragma omp target device(*) map(to: x[0:N] dist_data(BLOCK)) map(tofrom: sum, prod, mn, mx, band, bor, bxor, land, lor, dsum)
#pragma omp parallel for reduction(+: sum, dsum) reduction(*: prod) reduction(min: mn) reduction(max: mx) reduction(&: band) reduction(|: bor) reduction(^: bxor) reduction(&&: land) reduction(||: lor)
  for (int i = 0; i < N; ++i) {
    long v = (long)x[i];
    sum += v;
    dsum += x[i];
    prod *= (i % 100 == 0) ? 2 : 1;
    mn = v - i < mn ? v - i : mn;
    mx = v + i > mx ? v + i : mx;
    band &= ~(1L << (i % 40));
    bor |= 1L << (i % 50);
    bxor ^= v;
    land = land && (v < 13);
    lor = lor || (v == 12);
  }
  long wsum = 5, wprod = 2, wmn = 1000, wmx = -1000, wband = ~0L, wbor = 0,
       wbxor = 3;
  int wland = 1, wlor = 0;
  double wdsum = 0.5;
  for (int i = 0; i < N; ++i) {
    long v = (long)x[i];
    wsum += v;
    wdsum += x[i];
    wprod *= (i % 100 == 0) ? 2 : 1;
    wmn = v - i < wmn ? v - i : wmn;
    wmx = v + i > wmx ? v + i : wmx;
    wband &= ~(1L << (i % 40));
    wbor |= 1L << (i % 50);
    wbxor ^= v;
    wland = wland && (v < 13);
    wlor = wlor || (v == 12);
  }
  check("reductions", sum == wsum && prod == wprod && mn == wmn &&
                          mx == wmx && band == wband && bor == wbor &&
                          bxor == wbxor && land == wland && lor == wlor &&
                          dsum == wdsum);

  // A 5-point stencil over rows of a 2-D array: each rank reads a row of
  // its neighbours' beyond its own.
  for (int i = 0; i < ROWS; ++i)
    for (int j = 0; j < COLS; ++j) {
      in[i][j] = (i * 31 + j * 17) % 23;
      out[i][j] = -1;
    }
#pragma omp target device(*) map(to: in[0:ROWS][0:COLS] dist_data(BLOCK, *) halo(1,)) map(tofrom: out[0:ROWS][0:COLS] dist_data(BLOCK, *))
#pragma omp parallel for collapse(2)
  for (int i = 1; i < ROWS - 1; ++i)
    for (int j = 1; j < COLS - 1; ++j)
      out[i][j] = in[i - 1][j] + in[i + 1][j] + in[i][j - 1] + in[i][j + 1] -
                  4 * in[i][j];
  same = 1;
  for (int i = 0; i < ROWS; ++i)
    for (int j = 0; j < COLS; ++j) {
      double w = i == 0 || j == 0 || i == ROWS - 1 || j == COLS - 1
                     ? -1
                     : in[i - 1][j] + in[i + 1][j] + in[i][j - 1] +
                           in[i][j + 1] - 4 * in[i][j];
      same &= out[i][j] == w;
    }
  check("stencil rows", same);

  // A strided loop counting down.
  for (int i = 0; i < N; ++i)
    y[i] = want[i] = i;
#pragma omp target device(*) map(tofrom: y[0:N] dist_data(BLOCK))
#pragma omp parallel for
  for (int i = N - 1; i >= 2; i -= 3)
    y[i] = 2 * y[i] + 1;
  for (int i = N - 1; i >= 2; i -= 3)
    want[i] = 2 * want[i] + 1;
  same = 1;
  for (int i = 0; i < N; ++i)
    same &= y[i] == want[i];
  check("strided", same);

  // Fewer iterations than ranks: the last rank runs none.
  double tiny[2] = {1, 2}, tsum = 0;
#pragma omp target device(*) map(tofrom: tiny[0:2] dist_data(BLOCK), tsum)
#pragma omp parallel for reduction(+: tsum)
  for (int i = 0; i < 2; ++i) {
    tiny[i] *= 10;
    tsum += tiny[i];
  }
  check("tiny", tiny[0] == 10 && tiny[1] == 20 && tsum == 30);

  // Two elements per iteration (y[i], y[i + 1], i += 2): the ranks' writes
  // stay apart, the kernel is split.
  for (int i = 0; i < N; ++i)
    y[i] = want[i] = 0;
#pragma omp target device(*) map(tofrom: y[0:N])
#pragma omp parallel for
  for (int i = 0; i < N - 1; i += 2) {
    y[i] = i;
    y[i + 1] = -i;
  }
  for (int i = 0; i < N - 1; i += 2) {
    want[i] = i;
    want[i + 1] = -i;
  }
  same = 1;
  for (int i = 0; i < N; ++i)
    same &= y[i] == want[i];
  check("pairs", same);

  // Every rank could write first[0], and y at subscripts homp cannot
  // bound: such kernels run whole on every rank.
  int first[1] = {0}, idx[N];
  for (int i = 0; i < N; ++i) {
    idx[i] = (i * 10) % N; // a permutation: 10 and 1001 are coprime
    y[i] = want[i] = 0;
  }
#pragma omp target device(*) map(tofrom: y[0:N], first[0:1]) map(to: idx[0:N])
#pragma omp parallel for
  for (int i = 0; i < N; ++i) {
    y[idx[i]] = i;
    if (i == 0)
      first[0] = 42;
  }
  for (int i = 0; i < N; ++i)
    want[idx[i]] = i;
  same = first[0] == 42;
  for (int i = 0; i < N; ++i)
    same &= y[i] == want[i];
  check("unbounded writes", same);

  // 'nowait' and a data region with two kernels and an update inside.
  for (int i = 0; i < N; ++i)
    y[i] = want[i] = i % 11;
#pragma omp target device(*) map(tofrom: y[0:N] dist_data(BLOCK)) nowait
#pragma omp parallel for
  for (int i = 0; i < N; ++i)
    y[i] += 1;
#pragma omp taskwait
#pragma omp target data device(*) map(tofrom: y[0:N] dist_data(BLOCK)) map(to: x[0:N] dist_data(BLOCK))
  {
#pragma omp target device(*)
#pragma omp parallel for
    for (int i = 0; i < N; ++i)
      y[i] *= 2;
#pragma omp target update device(*) from(y[0:N])
    for (int i = 0; i < N; ++i)
      y[i] += 1;
#pragma omp target update device(*) to(y[0:N])
#pragma omp target device(*)
#pragma omp parallel for
    for (int i = 0; i < N; ++i)
      y[i] += x[i];
  }
  for (int i = 0; i < N; ++i)
    want[i] = ((want[i] + 1) * 2 + 1) + x[i];
  same = 1;
  for (int i = 0; i < N; ++i)
    same &= y[i] == want[i];
  check("nowait and data region", same);

  if (!failures)
    printf("PASS all\n");
  return failures != 0;
}
