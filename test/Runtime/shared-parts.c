// An array split along fewer topology axes than the loop (rows only, over
// a 2x2 topology): the two devices of a row of the topology own the same
// rows, and each runs its columns of them. Each copies back only what it
// wrote: copied back whole, the second undid the first's columns (once
// hidden by devices that happened to run one after the other; with other
// arrays resident, they ran at once). Kept on the devices by a data region,
// such an array written by a kernel runs on the host, gathered there, so
// that the copies stay alike. Checked against sequential values.
// REQUIRES: devices-4
// RUN: %hompcc -O2 %s -o %t
// RUN: %t 2>/dev/null | FileCheck %s
// RUN: %t 2>&1 >/dev/null | FileCheck %s --check-prefix=WARN
// RUN: env HOMP_INFO=1 %t 2>&1 >/dev/null | FileCheck %s --check-prefix=INFO
// CHECK-COUNT-10: kernel: PASS
// CHECK-COUNT-10: kernel, other arrays resident: PASS
// WARN: homp: warning: region {{.*}}shared-parts.c:[[#]]:1: several devices hold the same part of 'm' (distributed by the data region at {{.*}}shared-parts.c:[[#]]:1), and the loop writes it; running it on the host, with the resident arrays it uses gathered there
// CHECK: data region: PASS
// INFO: homp: region {{.*}}shared-parts.c:[[#]]:1: 56 iterations on 4 devices (topology 2x2)

#include <stdio.h>

#define R 9
#define C 8
static long m[R][C], src[R][C], v[64];

static int check(const char *What) {
  int Bad = 0;
  for (int i = 0; i < R; ++i)
    for (int j = 0; j < C; ++j) {
      long Want = i * 5 + j + (i >= 1 && i < R - 1 ? (i - 1) * 3 + j + j : 0);
      Bad += m[i][j] != Want;
    }
  printf("%s: %s\n", What, Bad ? "FAIL" : "PASS");
  return Bad;
}

static void reset(void) {
  for (int i = 0; i < R; ++i)
    for (int j = 0; j < C; ++j)
      m[i][j] = i * 5 + j, src[i][j] = i * 3 + j;
}

static void kernel(void) {
#pragma omp target device(*) topology([2][*]) \
    map(tofrom: m[0:R][0:C] dist_data(BLOCK, *)) \
    map(to: src[0:R][0:C] dist_data(BLOCK, BLOCK))
#pragma omp parallel for collapse(2) dist_iteration(BLOCK, BLOCK)
  for (int i = 1; i < R - 1; ++i)
    for (int j = 0; j < C; ++j)
      m[i][j] += src[i][j] - 3 + j;
}

int main(void) {
  int n = 64, Bad = 0;
  int B = 0;
  for (int Round = 0; Round < 10; ++Round) {
    reset();
    kernel();
    B += check("kernel") != 0;
  }
  Bad += B;
  B = 0;
  for (int Round = 0; Round < 10; ++Round) {
    reset();
#pragma omp target enter data device(*) map(to: v[0:n] dist_data(BLOCK))
    kernel();
#pragma omp target exit data device(*) map(from: v[0:n])
    B += check("kernel, other arrays resident") != 0;
  }
  Bad += B;
  reset();
#pragma omp target data device(*) topology([2][*]) \
    map(tofrom: m[0:R][0:C] dist_data(BLOCK, *)) \
    map(to: src[0:R][0:C] dist_data(BLOCK, BLOCK) halo(1,))
  {
#pragma omp target device(*) topology([2][*])
#pragma omp parallel for collapse(2) dist_iteration(BLOCK, BLOCK)
    for (int i = 1; i < R - 1; ++i)
      for (int j = 0; j < C; ++j)
        m[i][j] += src[i - 1][j] + j;
  }
  Bad += check("data region");
  return Bad != 0;
}
