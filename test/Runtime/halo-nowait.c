// 'halo_exchange' right after a 'nowait' kernel that writes the array: the
// exchange is collective (SPEC section 5), so the kernel, a target task
// perhaps not started yet, ends first (as at a taskwait) and the next
// kernel reads the new halo values. It once exchanged the old ones, on
// every run. Also with the host in the list and with halo_update.
// RUN: %hompcc -O2 %s -o %t && %t 2>&1 | FileCheck %s --implicit-check-not=homp:
// RUN: %hompcc -O2 "-DDEVS=*, host" %s -o %t.host && %t.host 2>&1 | FileCheck %s --implicit-check-not=homp:
// CHECK: halo_exchange after nowait: PASS
// CHECK: halo_update after nowait: PASS

#include <stdio.h>

#ifndef DEVS
#define DEVS *
#endif

enum { N = 4001 };
static double b[N], c[N];

static void check(const char *What) {
  int bad = 0;
  for (int i = 1; i < N - 1; ++i)
    bad += c[i] != 2.0 * i + 2;
  printf("%s: %s\n", What, bad ? "FAIL" : "PASS");
}

int main(void) {
  for (int i = 0; i < N; ++i)
    b[i] = c[i] = 0;
#pragma omp target data device(DEVS) map(tofrom: b[0:N] dist_data(BLOCK) halo(1)) \
    map(tofrom: c[0:N] dist_data(BLOCK))
  {
#pragma omp target device(DEVS) nowait depend(out: b)
#pragma omp parallel for dist_iteration(BLOCK)
    for (int i = 0; i < N; ++i)
      b[i] = i + 1;
#pragma omp halo_exchange(b)
#pragma omp target device(DEVS) nowait depend(in: b)
#pragma omp parallel for dist_iteration(BLOCK)
    for (int i = 1; i < N - 1; ++i)
      c[i] = b[i - 1] + b[i + 1];
#pragma omp taskwait
  }
  check("halo_exchange after nowait");

  for (int i = 0; i < N; ++i)
    b[i] = c[i] = 0;
#pragma omp target data device(DEVS) map(tofrom: b[0:N] dist_data(BLOCK) halo(1)) \
    map(tofrom: c[0:N] dist_data(BLOCK))
  {
#pragma omp target device(DEVS) nowait
#pragma omp parallel for dist_iteration(BLOCK)
    for (int i = 0; i < N; ++i)
      b[i] = i + 1;
#pragma omp halo_update leftright(b)
#pragma omp target device(DEVS)
#pragma omp parallel for dist_iteration(BLOCK)
    for (int i = 1; i < N - 1; ++i)
      c[i] = b[i - 1] + b[i + 1];
  }
  check("halo_update after nowait");
  return 0;
}
