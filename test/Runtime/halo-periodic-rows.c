// A periodic halo on an inner dimension must fit in a row: a device keeps
// the array's layout, where u[i][-1] is the memory of u[i-1][m-1]; when the
// device also holds that element, the halo and it would overwrite each
// other (3 columns on 2 devices: [0, 2) plus halo columns -1 and 2), and
// the region cannot run on the host instead. The columns are split over
// devices 0 and 1 (halo-host-fallback.c has the regions that must not fall
// back to the host, on any number of devices).
// REQUIRES: devices-2
// RUN: %hompcc -O2 %s -o %t
// RUN: %t 5 2>&1 | FileCheck %s --check-prefix=OK --implicit-check-not=FAIL
// RUN: %t 4 2>&1 | FileCheck %s --check-prefix=OK --implicit-check-not=FAIL
// RUN: not %t 3 2>&1 | FileCheck %s --check-prefix=ALIAS

#include <stdio.h>
#include <stdlib.h>

static int failures;

static void check(const char *What, double Got, double Expected) {
  if (Got != Expected && failures++ < 5)
    printf("FAIL %s = %g, expected %g\n", What, Got, Expected);
}

// A 3-point stencil along the rows of an n x m array with periodic columns.
static void rows(int n, int m) {
  double(*u)[m] = malloc(sizeof(double) * n * m);
  double(*v)[m] = malloc(sizeof(double) * n * m);
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      u[i][j] = i * 10 + j;
#pragma omp target device(0:2) \
    map(to: u[0:n][0:m] dist_data(*, BLOCK) halo(0, 1:periodic)) \
    map(from: v[0:n][0:m] dist_data(*, BLOCK))
#pragma omp parallel for collapse(2) dist_iteration(FULL, BLOCK)
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      v[i][j] = 100 * u[i][j - 1] + 10 * u[i][j] + u[i][j + 1];
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      check("v[i][j]", v[i][j],
            100 * u[i][(j + m - 1) % m] + 10 * u[i][j] + u[i][(j + 1) % m]);
  free(u);
  free(v);
}
// ALIAS: homp: error: region {{.*}}halo-periodic-rows.c:{{[0-9]+}}:1: dimension 1 of 'u' has 3 elements, but device 0's part [0, 2) with its halo spans 4: the device keeps the array's layout, where the halo cells past one end of a row are the elements of the next row; split the dimension over fewer devices or use a narrower halo; it cannot run on the host instead: 'u' has a periodic or reflecting halo, which the host's array does not have
// ALIAS-NOT: PASS

int main(int argc, char **argv) {
  if (argc != 2)
    return 2;
  rows(7, atoi(argv[1]));
  printf("%s\n", failures ? "FAILED" : "PASS");
  return failures != 0;
}
// OK: PASS
