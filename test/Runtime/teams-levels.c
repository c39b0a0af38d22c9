// A kernel launched by the program's own thread after a proxy's launched
// one (a 'nowait' kernel's task, then a kernel on one device): libomp 19
// keeps a worker's record of the teams it served, and a worker that had
// served a proxy's kernel, one level deep in OpenMP's nesting, took the
// next kernel's parallel reduction for a teams reduction and stopped the
// program ("Assertion failure at kmp_csupport.cpp(3588)"; found by the
// differential tester). homp launches from the program's thread at the
// proxies' level too. Checked against sequential values.
// REQUIRES: devices-4
// RUN: %hompcc -O2 %s -o %t
// RUN: env HOMP_DEVICES=2 %t | FileCheck %s
// RUN: env HOMP_DEVICES=2 OMP_NUM_THREADS=4 %t | FileCheck %s
// RUN: %t | FileCheck %s
// CHECK: max 6, sum 571: PASS

#include <stdio.h>

enum { N = 1000 };
static long v[N], w[N];

int main(void) {
  int n = N;
  long Max = 0, Sum = 0;
#pragma omp target teams distribute parallel for device(*) \
    map(tofrom: v[0:n] dist_data(CYCLIC)) dist_iteration(BLOCK) nowait
  for (int i = 0; i < n; i += 1)
    v[i] += i % 7;
#pragma omp taskwait
#pragma omp target device(1:2) map(tofrom: w[0:n] dist_data(BLOCK))
#pragma omp parallel for dist_iteration(BLOCK) reduction(max: Max)
  for (int i = 0; i < n; i += 1) {
    w[i] = i % 7;
    Max = w[i] > Max ? w[i] : Max;
  }
#pragma omp target teams distribute parallel for device(*) \
    map(to: w[0:n] dist_data(BLOCK)) reduction(+: Sum)
  for (int i = 0; i < n; i += 1)
    Sum += w[i] >= 3;
  long Want = 0;
  for (int i = 0; i < n; ++i)
    Want += i % 7 >= 3;
  int Bad = Max != 6 || Sum != Want;
  for (int i = 0; i < n; ++i)
    Bad += v[i] != i % 7;
  printf("max %ld, sum %ld: %s\n", Max, Sum, Bad ? "FAIL" : "PASS");
  return Bad != 0;
}
