// Distributed regions launched at the same time from several host threads
// (an OpenMP parallel region, and nowait target tasks) share the devices'
// proxies and each still gets exactly its own result.
// RUN: %hompcc -O2 %s -o %t && %t 2>&1 | FileCheck %s --implicit-check-not=warning
// CHECK: PASS

#include <stdio.h>
#include <stdlib.h>

static void scale(double *v, int n, double f) {
#pragma omp target teams distribute parallel for device(*, host) \
    map(tofrom: v[0:n] dist_data(BLOCK))
  for (int i = 0; i < n; ++i)
    v[i] *= f;
}

int main(void) {
  enum { Threads = 3, n = 4099, Rounds = 20 };
  double *v[Threads];
  for (int t = 0; t < Threads; ++t) {
    v[t] = malloc(n * sizeof(double));
    for (int i = 0; i < n; ++i)
      v[t][i] = i;
  }
#pragma omp parallel for num_threads(Threads)
  for (int t = 0; t < Threads; ++t)
    for (int r = 0; r < Rounds; ++r)
      scale(v[t], n, t + 1.0);

  // nowait regions on disjoint arrays, completed by taskwait.
  for (int t = 0; t < Threads; ++t) {
    double *p = v[t];
#pragma omp target teams distribute parallel for device(*) nowait \
    map(tofrom: p[0:n] dist_data(BLOCK))
    for (int i = 0; i < n; ++i)
      p[i] += 1;
  }
#pragma omp taskwait

  int bad = 0;
  for (int t = 0; t < Threads; ++t) {
    double f = 1;
    for (int r = 0; r < Rounds; ++r)
      f *= t + 1.0;
    for (int i = 0; i < n; ++i)
      bad += v[t][i] != i * f + 1;
  }
  puts(bad ? "FAIL" : "PASS");
  return bad != 0;
}
