// A loop the program gives no policy follows the split of the arrays it
// uses whatever its kind (SPEC section 3: "without any loop policy a loop
// ... is distributed like the arrays it is aligned with"): CYCLIC(3) in a
// kernel's own map and in a data region, BLOCK(n) rows, CYCLIC(2) x BLOCK
// on a [*][*] topology (2x2 on 4 devices), arrays aligned with a labelled
// loop further down, and a kernel in a function of its own that cannot see
// the data region's split. So does a loop a scheduler would share out (owner
// computes comes first). Each against sequential code; none runs on the host.
// RUN: %hompcc -O2 %s -o %t && %t 2>&1 | FileCheck %s --implicit-check-not=FAIL --implicit-check-not=warning
// RUN: env HOMP_INFO=1 %t 2>&1 | FileCheck %s --check-prefixes=INFO,INFO-%ndev --allow-unused-prefixes -DDEVICES="%devices"
// CHECK: own kernel, CYCLIC(3): PASS
// CHECK: data region, CYCLIC(3): PASS
// CHECK: data region, BLOCK(2) rows: PASS
// CHECK: 2x2, CYCLIC(2) x BLOCK: PASS
// CHECK: 2x2, aligned to a label: PASS
// CHECK: data region, CYCLIC(3), AUTO: PASS
// Device 0 runs the blocks of 3 it holds, 0-2 and 12-14, in one launch per
// block: the kernel in a function of its own too.
// INFO: homp: region {{.*}}no-policy-loops.c:[[# @LINE + 38]]:1: 23 iterations on [[DEVICES]]
// INFO-4: homp:   0        CPU    [0, 15)/2
// INFO: homp: region {{.*}}no-policy-loops.c:[[# @LINE + 24]]:1: 23 iterations on [[DEVICES]]
// INFO-4: homp:   0        CPU    [0, 15)/2
// Rows 0-1, 4-5, 8-9 and 12 of the first column block on device 0, in two
// strided launches (rows 0, 4, 8, 12 and 1, 5, 9).
// INFO: homp: region {{.*}}no-policy-loops.c:{{[0-9]+}}:1: 65 iterations on [[DEVICES]]
// INFO-4-SAME: {{^}} (topology 2x2)
// INFO-NEXT: device
// INFO-4-NEXT: homp:   0        CPU    [0, 13)/4 x [0, 3)                    2

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int check(const char *What, int n, const double *a, const double *want) {
  int Bad = 0;
  for (int i = 0; i < n; ++i)
    Bad += a[i] != want[i];
  printf("%s: %s\n", What, Bad ? "FAIL" : "PASS");
  return Bad != 0;
}

/// A kernel in a function of its own: the plugin cannot see how the data
/// region around its call splits 'a'.
static void scale(double *a, int n) {
#pragma omp target device(*)
#pragma omp parallel for
  for (int i = 0; i < n; ++i)
    a[i] = 3 * a[i] - i;
}

int main(void) {
  enum { n = 23, r = 13, m = 5 };
  int Fails = 0;
  double a[n], want[n];
  for (int i = 0; i < n; ++i) a[i] = want[i] = i + 0.5;
  for (int i = 0; i < n; ++i) want[i] = 2 * want[i] + i;
#pragma omp target device(*) map(tofrom: a[0:n] dist_data(CYCLIC(3)))
#pragma omp parallel for
  for (int i = 0; i < n; ++i)
    a[i] = 2 * a[i] + i;
  Fails += check("own kernel, CYCLIC(3)", n, a, want);

  for (int i = 0; i < n; ++i) want[i] = 3 * want[i] - i;
  for (int i = 0; i < n; ++i) want[i] = 3 * want[i] - i;
#pragma omp target data device(*) map(tofrom: a[0:n] dist_data(CYCLIC(3)))
  {
#pragma omp target device(*)
#pragma omp parallel for
    for (int i = 0; i < n; ++i)
      a[i] = 3 * a[i] - i;
    scale(a, n);
  }
  Fails += check("data region, CYCLIC(3)", n, a, want);

  double (*b)[m] = malloc(sizeof(double) * r * m), (*bw)[m] = malloc(sizeof(double) * r * m);
  for (int i = 0; i < r; ++i) for (int j = 0; j < m; ++j) b[i][j] = bw[i][j] = i * 10 + j;
  for (int i = 0; i < r; ++i) for (int j = 0; j < m; ++j) bw[i][j] = bw[i][j] * 2 + j;
#pragma omp target data device(*) map(tofrom: b[0:r][0:m] dist_data(BLOCK(2), *))
#pragma omp target device(*)
#pragma omp parallel for
  for (int i = 0; i < r; ++i)
    for (int j = 0; j < m; ++j)
      b[i][j] = b[i][j] * 2 + j;
  Fails += check("data region, BLOCK(2) rows", r * m, &b[0][0], &bw[0][0]);

  for (int i = 0; i < r; ++i) for (int j = 0; j < m; ++j) bw[i][j] = bw[i][j] - i * j;
#pragma omp target data device(*) topology([*][*]) map(tofrom: b[0:r][0:m] dist_data(CYCLIC(2), BLOCK))
#pragma omp target device(*) topology([*][*])
#pragma omp parallel for collapse(2)
  for (int i = 0; i < r; ++i)
    for (int j = 0; j < m; ++j)
      b[i][j] = b[i][j] - i * j;
  Fails += check("2x2, CYCLIC(2) x BLOCK", r * m, &b[0][0], &bw[0][0]);

  for (int i = 0; i < r; ++i) for (int j = 0; j < m; ++j) bw[i][j] = 2 * (bw[i][j] + 1);
#pragma omp target data device(*) topology([*][*]) map(tofrom: b[0:r][0:m] dist_data(ALIGN(lp), ALIGN(lp)))
  {
#pragma omp target device(*) topology([*][*])
#pragma omp parallel for collapse(2)
    for (int i = 0; i < r; ++i)
      for (int j = 0; j < m; ++j)
        b[i][j] += 1;
#pragma omp target device(*) topology([*][*])
#pragma omp parallel for collapse(2) dist_iteration(BLOCK, BLOCK)
lp: for (int i = 0; i < r; ++i)
      for (int j = 0; j < m; ++j)
        b[i][j] *= 2;
  }
  Fails += check("2x2, aligned to a label", r * m, &b[0][0], &bw[0][0]);

  for (int i = 0; i < n; ++i) want[i] = want[i] / 2 + 1;
#pragma omp target data device(*) map(tofrom: a[0:n] dist_data(CYCLIC(3)))
#pragma omp target device(*)
#pragma omp parallel for dist_iteration(AUTO)
  for (int i = 0; i < n; ++i)
    a[i] = a[i] / 2 + 1;
  Fails += check("data region, CYCLIC(3), AUTO", n, a, want);
  free(b); free(bw);
  return Fails;
}
