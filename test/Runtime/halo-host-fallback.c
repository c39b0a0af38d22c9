// Regions whose arrays have periodic or reflecting halos read past the
// arrays' ends (u[i - 1] at i = 0), which only homp's device storage holds.
// Such a region must never run on the host array instead (no device,
// 'if(0)', OMP_TARGET_OFFLOAD=DISABLED): that would read outside it
// (halo-periodic-rows.c has the periodic halo on an inner dimension that
// cannot fit in a row). Devices 7 and 8 exist nowhere; MISSING runs without
// the HOMP_DEVICES of lit's homp_devices, which the message would mention.
// RUN: %hompcc -O2 %s -o %t
// RUN: not env -u HOMP_DEVICES %t missing 16 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: not %t if 16 2>&1 | FileCheck %s --check-prefix=IF
// RUN: env OMP_TARGET_OFFLOAD=DISABLED not %t data 16 2>&1 | FileCheck %s --check-prefix=DISABLED
// RUN: %t data 16 2>&1 | FileCheck %s --check-prefix=OK --implicit-check-not=FAIL

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures;

static void check(const char *What, double Got, double Expected) {
  if (Got != Expected && failures++ < 5)
    printf("FAIL %s = %g, expected %g\n", What, Got, Expected);
}

// A 1-D periodic stencil over devices that do not exist, or with if(0).
static void fallback(int n, int Missing, int If) {
  // Guard cells around u: what the host would read for u[-1] and u[n].
  double *Buffer = malloc(sizeof(double) * (n + 2)), *u = Buffer + 1;
  double *v = malloc(sizeof(double) * n);
  Buffer[0] = Buffer[n + 1] = -1000;
  for (int i = 0; i < n; i++)
    u[i] = i + 1;
  if (Missing) {
#pragma omp target device(7, 8) \
    map(to: u[0:n] dist_data(BLOCK) halo(1:periodic)) \
    map(from: v[0:n] dist_data(BLOCK))
#pragma omp parallel for
    for (int i = 0; i < n; i++)
      v[i] = 100 * u[i - 1] + 10 * u[i] + u[i + 1];
  } else {
#pragma omp target device(*) if(If) \
    map(to: u[0:n] dist_data(BLOCK) halo(1:periodic)) \
    map(from: v[0:n] dist_data(BLOCK))
#pragma omp parallel for
    for (int i = 0; i < n; i++)
      v[i] = 100 * u[i - 1] + 10 * u[i] + u[i + 1];
  }
  for (int i = 0; i < n; i++)
    check("v[i]", v[i], 100 * u[(i + n - 1) % n] + 10 * u[i] + u[(i + 1) % n]);
  free(Buffer);
  free(v);
}
// MISSING: homp: error: region {{.*}}halo-host-fallback.c:{{[0-9]+}}:1: none of the devices of its 'device' clause exists; it cannot run on the host instead: 'u' has a periodic or reflecting halo, which the host's array does not have
// MISSING-NOT: PASS
// IF: homp: error: region {{.*}}halo-host-fallback.c:{{[0-9]+}}:1: its 'if' clause is false; it cannot run on the host instead: 'u' has a periodic or reflecting halo, which the host's array does not have
// IF-NOT: PASS

// The same stencil in a data region with a halo exchange.
static void data(int n) {
  double *Buffer = malloc(sizeof(double) * (n + 2)), *u = Buffer + 1;
  double *v = malloc(sizeof(double) * n);
  Buffer[0] = Buffer[n + 1] = -1000;
  for (int i = 0; i < n; i++)
    u[i] = i + 1;
#pragma omp target data device(*) \
    map(to: u[0:n] dist_data(BLOCK) halo(1:periodic)) \
    map(from: v[0:n] dist_data(BLOCK))
  {
#pragma omp halo_exchange(u)
#pragma omp target device(*)
#pragma omp parallel for
    for (int i = 0; i < n; i++)
      v[i] = 100 * u[i - 1] + 10 * u[i] + u[i + 1];
  }
  for (int i = 0; i < n; i++)
    check("v[i]", v[i], 100 * u[(i + n - 1) % n] + 10 * u[i] + u[(i + 1) % n]);
  free(Buffer);
  free(v);
}
// DISABLED: homp: error: region {{.*}}halo-host-fallback.c:{{[0-9]+}}:1: OMP_TARGET_OFFLOAD=DISABLED runs it on the host; it cannot run on the host instead: 'u' has a periodic or reflecting halo, which the host's array does not have
// DISABLED-NOT: PASS

int main(int argc, char **argv) {
  if (argc != 3)
    return 2;
  int N = atoi(argv[2]);
  if (!strcmp(argv[1], "missing") || !strcmp(argv[1], "if"))
    fallback(N, !strcmp(argv[1], "missing"), 0);
  else if (!strcmp(argv[1], "data"))
    data(N);
  else
    return 2;
  printf("%s\n", failures ? "FAILED" : "PASS");
  return failures != 0;
}
// OK: PASS
