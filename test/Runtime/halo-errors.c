// Halo updates the plugin cannot check (the data construct is in another
// function) are checked when they run: an array without a halo, or without
// one in a selected dimension, stops the program with an error naming the
// update, the array and where it was distributed. An array that is not
// distributed on devices has nothing to update (HOMP_INFO says so), and a
// bad HOMP_HALO_ROUTE names the variable.
// RUN: %hompcc -O2 %s -o %t
// RUN: %t plain 2>&1 | FileCheck %s --check-prefix=PLAIN --implicit-check-not=homp:
// RUN: env HOMP_INFO=1 %t plain 2>&1 | FileCheck %s --check-prefix=PLAIN-INFO
// RUN: not %t nohalo 2>&1 | FileCheck %s --check-prefix=NOHALO
// RUN: not %t dimension 2>&1 | FileCheck %s --check-prefix=DIMENSION
// RUN: not env HOMP_HALO_ROUTE=direct %t plain 2>&1 | FileCheck %s --check-prefix=ROUTE

// PLAIN: plain: PASS
// PLAIN-INFO: homp: region {{.*}}halo-errors.c:{{[0-9]+}}:13: 'p' is not distributed on devices here; its halo update does nothing
// PLAIN-INFO: plain: PASS
// NOHALO: homp: error: region {{.*}}halo-errors.c:{{[0-9]+}}:13: 'p' ('x', distributed by the data region at {{.*}}halo-errors.c:{{[0-9]+}}:1) has no halo
// NOHALO-NOT: PASS
// DIMENSION: homp: error: region {{.*}}halo-errors.c:{{[0-9]+}}:13: 'p' ('y', distributed by the data region at {{.*}}) has no halo in a dimension the update selects
// ROUTE: homp: error: HOMP_HALO_ROUTE='direct' is not valid; expected auto, staged or peer

#include <stdio.h>
#include <string.h>

enum { n = 40 };
static double x[n], y[n][8];

static void exchange(double *p) {
#pragma omp halo_exchange(p)
}

static void exchangeColumns(double (*p)[8]) {
#pragma omp halo_update leftright(p[][*])
}

int main(int argc, char **argv) {
  const char *What = argc > 1 ? argv[1] : "";
  for (int i = 0; i < n; ++i)
    x[i] = i;
  if (!strcmp(What, "plain")) {
    exchange(x);
#pragma omp target teams distribute parallel for device(*) map(tofrom: x[0:n] dist_data(BLOCK))
    for (int i = 0; i < n; ++i)
      x[i] += 1;
  } else if (!strcmp(What, "nohalo")) {
#pragma omp target data device(*) map(tofrom: x[0:n] dist_data(BLOCK))
    exchange(x);
  } else if (!strcmp(What, "dimension")) {
#pragma omp target data device(*) map(tofrom: y[0:n][0:8] dist_data(BLOCK, *) halo(1,))
    exchangeColumns(y);
  }
  fflush(stderr);
  int Failures = 0;
  for (int i = 0; i < n; ++i)
    if (x[i] != i + 1)
      ++Failures;
  printf("%s: %s\n", What, Failures ? "FAILED" : "PASS");
  return 0;
}
