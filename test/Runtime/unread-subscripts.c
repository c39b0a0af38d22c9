// A loop inside a data region whose subscript the plugin cannot read
// ('p[i + d]' with d in -w..w, w a variable): the one loop follows the
// parts of the array it reads (owner computes), so each device reads its
// part and halo only. It was split by its own policy instead, and devices
// read elements they did not hold. Sizes the devices divide unevenly;
// checked against sequential code. (The compile-time warning that homp
// cannot check the subscript stays; Frontend tests check it.)
// RUN: %hompcc -O2 %s -o %t
// RUN: %t 9 2 | FileCheck %s
// RUN: %t 30 2 | FileCheck %s
// RUN: %t 101 3 | FileCheck %s
// RUN: env HOMP_DEVICES=1,2,3 %t 40 1 | FileCheck %s
// CHECK: halo-wide stencil: PASS
// CHECK: written too: PASS

#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  if (argc != 3)
    return 2;
  int n = atoi(argv[1]), w = atoi(argv[2]);
  long *p = malloc(sizeof(long) * n), *q = malloc(sizeof(long) * n);
  for (int i = 0; i < n; i++)
    p[i] = i * i % 13, q[i] = 0;
  long s = 0, want = 0;
  for (int i = 2; i < n - 2; i++)
    for (int d = -w; d <= w; d++)
      want += i >= w && i < n - w ? p[i + d] : 0;
#pragma omp target data device(*) map(to: p[0:n] dist_data(BLOCK) halo(3))
  {
#pragma omp target device(*)
#pragma omp parallel for dist_iteration(BLOCK) reduction(+: s)
    for (int i = w; i < n - w; i++)
      for (int d = -w; d <= w; d++)
        s += i >= 2 && i < n - 2 ? p[i + d] : 0;
    // The loop writes an array of its own too: q's parts lead.
#pragma omp target device(*) map(from: q[0:n] dist_data(BLOCK))
#pragma omp parallel for dist_iteration(BLOCK)
    for (int i = w; i < n - w; i++) {
      long t = 0;
      for (int d = -w; d <= w; d++)
        t += p[i + d];
      q[i] = t;
    }
  }
  printf("halo-wide stencil: %s (%ld, expected %ld)\n", s == want ? "PASS" : "FAIL", s, want);
  int bad = 0;
  for (int i = w; i < n - w; i++) {
    long t = 0;
    for (int d = -w; d <= w; d++)
      t += p[i + d];
    bad += q[i] != t;
  }
  printf("written too: %s\n", bad ? "FAIL" : "PASS");
  free(p);
  free(q);
  return s != want || bad;
}
