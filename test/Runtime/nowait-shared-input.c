// Regions running at the same time (nowait target tasks) that map the same
// input array with a distribution each get their own parts of it: homp's
// copies of one region are not taken for an enclosing 'target data' of the
// other.
// RUN: %hompcc -O2 %s -o %t && %t 2>&1 | FileCheck %s --implicit-check-not=homp:
// CHECK: PASS

#include <stdio.h>

int main(void) {
  enum { n = 10007, Regions = 6, Rounds = 10 };
  static double x[n], out[Regions][n];
  for (int i = 0; i < n; ++i)
    x[i] = i % 97;
  for (int r = 0; r < Rounds; ++r) {
    for (int k = 0; k < Regions; ++k) {
      double *o = out[k];
#pragma omp target teams distribute parallel for device(*) nowait \
    map(to: x[0:n] dist_data(BLOCK)) map(from: o[0:n] dist_data(BLOCK))
      for (int i = 0; i < n; ++i)
        o[i] = x[i] * (k + 1) + r;
    }
#pragma omp taskwait
    for (int k = 0; k < Regions; ++k)
      for (int i = 0; i < n; ++i)
        if (out[k][i] != x[i] * (k + 1) + r)
          return printf("FAIL round %d region %d: out[%d] = %g\n", r, k, i,
                        out[k][i]),
                 1;
  }
  puts("PASS");
  return 0;
}
