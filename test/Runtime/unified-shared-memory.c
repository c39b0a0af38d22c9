// A program that requires unified_shared_memory: every device works on the
// host's memory, so homp copies nothing for distributed arrays (kernels,
// data regions, halo updates) and says so in HOMP_INFO; the results are
// the sequential ones. The x86 offload devices share the host's memory (a
// GPU whose driver reports no pageable memory access is left out, with a
// warning: seen on an H200, docs/Platforms.md).
// REQUIRES: host-memory
// RUN: %hompcc -O2 %s -o %t
// RUN: %t 2>&1 | FileCheck %s --implicit-check-not=homp:
// RUN: env HOMP_INFO=1 %t 2>&1 | FileCheck %s --check-prefix=INFO -DDEVICES="%devices"
// Calibrating loads a probe library compiled without 'requires': LLVM 19
// takes it (it would end the program had the library registered
// requirements that differ).
// RUN: rm -rf %t.cache && env XDG_CACHE_HOME=%t.cache HOMP_SCHEDULE=MODEL_1_AUTO %t 2>&1 | FileCheck %s --implicit-check-not=homp:
// RUN: %hompcc -O2 "-DDEVS=*, host" %s -o %t.host && %t.host 2>&1 | FileCheck %s --implicit-check-not=homp:
// CHECK: PASS
// INFO: homp: region {{.*}}unified-shared-memory.c:{{[0-9]+}}:{{[0-9]+}}: 1000 iterations on [[DEVICES]]; unified shared memory: no copies
// INFO: homp: data region {{.*}} begins: 2 distributed arrays on [[DEVICES]]; unified shared memory: the devices use the host's copy
// INFO: the devices share the host's memory (unified_shared_memory): the halo update copies nothing
// A periodic halo has no place under unified shared memory:
// RUN: %hompcc -O2 -DPERIODIC %s -o %t.periodic && not %t.periodic 2>&1 | FileCheck %s --check-prefix=PERIODIC
// PERIODIC: homp: error: region {{.*}}: 'u' has a periodic or reflecting halo, but under 'requires unified_shared_memory' every device works on the host's array in place, where cells past its ends do not exist
// PERIODIC-NOT: PASS

#include <stdio.h>
#include <stdlib.h>

#pragma omp requires unified_shared_memory

#ifndef DEVS
#define DEVS *
#endif
#define PRAGMA(x) _Pragma(#x)

int main(void) {
  int n = 1000, failures = 0;
  double *x = malloc(sizeof(double) * n), *y = malloc(sizeof(double) * n);
  double *u = malloc(sizeof(double) * n), *v = malloc(sizeof(double) * n);
  for (int i = 0; i < n; ++i)
    x[i] = i, y[i] = 1, u[i] = i % 7, v[i] = 0;

#ifdef PERIODIC
  double *w = malloc(sizeof(double) * n);
  PRAGMA(omp target device(DEVS) map(to: u[0:n] dist_data(BLOCK) halo(1:periodic))
             map(from: w[0:n] dist_data(BLOCK)))
  PRAGMA(omp parallel for)
  for (int i = 0; i < n; ++i)
    w[i] = u[i - 1] + u[i + 1];
  free(w);
#endif

  double sum = 0;
  PRAGMA(omp target device(DEVS) map(tofrom: y[0:n] dist_data(BLOCK))
             map(to: x[0:n] dist_data(BLOCK)))
  PRAGMA(omp parallel for reduction(+: sum))
  for (int i = 0; i < n; ++i) {
    y[i] += 2 * x[i];
    sum += x[i];
  }
  for (int i = 0; i < n; ++i)
    if (y[i] != 1 + 2.0 * i) {
      printf("FAIL y[%d] = %g\n", i, y[i]);
      ++failures;
      break;
    }
  if (sum != n * (n - 1) / 2.0)
    printf("FAIL sum %g\n", sum), ++failures;

  // A 1-D stencil in a data region with a halo, twice.
  double *ref = malloc(sizeof(double) * n), *tmp = malloc(sizeof(double) * n);
  for (int i = 0; i < n; ++i)
    ref[i] = u[i];
  for (int t = 0; t < 2; ++t) {
    for (int i = 1; i < n - 1; ++i)
      tmp[i] = ref[i - 1] + ref[i + 1];
    for (int i = 1; i < n - 1; ++i)
      ref[i] = tmp[i];
  }
  PRAGMA(omp target data device(DEVS) map(tofrom: u[0:n] dist_data(BLOCK) halo(1))
             map(alloc: v[0:n] dist_data(BLOCK)))
  {
    for (int t = 0; t < 2; ++t) {
#pragma omp halo_exchange(u)
      PRAGMA(omp target device(DEVS))
      PRAGMA(omp parallel for dist_iteration(BLOCK))
      for (int i = 1; i < n - 1; ++i)
        v[i] = u[i - 1] + u[i + 1];
      PRAGMA(omp target device(DEVS))
      PRAGMA(omp parallel for dist_iteration(BLOCK))
      for (int i = 1; i < n - 1; ++i)
        u[i] = v[i];
    }
  }
  for (int i = 0; i < n; ++i)
    if (u[i] != ref[i]) {
      printf("FAIL u[%d] = %g, expected %g\n", i, u[i], ref[i]);
      ++failures;
      break;
    }
  printf(failures ? "FAIL\n" : "PASS\n");
  free(x);
  free(y);
  free(u);
  free(v);
  free(ref);
  free(tmp);
  return failures != 0;
}
