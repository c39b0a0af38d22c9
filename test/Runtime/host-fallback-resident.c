// A kernel inside a data region that cannot run on its devices (a topology
// that does not arrange them, a device list of which no device exists) runs
// on the host, as any such kernel does; with the data region's arrays
// gathered there, since the host's own copies are stale (it once ran on
// them, and the data region's end copied the devices' parts over the
// result). Checked against sequential values.
// REQUIRES: devices-2
// RUN: %hompcc -O2 %s -o %t
// RUN: %t 2>&1 | FileCheck %s
// CHECK: homp: warning: region {{.*}}host-fallback-resident.c:[[#]]:1: topology [3][*] does not arrange [[#]] devices; running it on the host, with the resident arrays it uses gathered there
// CHECK: homp: warning: region {{.*}}host-fallback-resident.c:[[#]]:1: {{.*}}; running it on the host, with the resident arrays it uses gathered there
// CHECK: topology: PASS
// CHECK: no device: PASS

#include <stdio.h>

enum { N = 100 };
static double a[N];

static int expect(const char *What, double Mul, double Add) {
  int Bad = 0;
  for (int i = 0; i < N; ++i)
    Bad += a[i] != Mul * i + Add;
  printf("%s: %s\n", What, Bad ? "FAIL" : "PASS");
  return Bad;
}

int main(void) {
  int n = N, Bad = 0;
  for (int i = 0; i < n; ++i)
    a[i] = i;
#pragma omp target data device(*) map(tofrom: a[0:n] dist_data(BLOCK))
  {
#pragma omp target device(*) topology([3][*])
#pragma omp parallel for
    for (int i = 0; i < n; ++i)
      a[i] += 1;
#pragma omp target device(*)
#pragma omp parallel for
    for (int i = 0; i < n; ++i)
      a[i] *= 2;
  }
  Bad += expect("topology", 2, 2);
  for (int i = 0; i < n; ++i)
    a[i] = i;
#pragma omp target data device(*) map(tofrom: a[0:n] dist_data(BLOCK))
  {
    // Devices 40 and 41 do not exist: the list resolves to none.
#pragma omp target device(40:2)
#pragma omp parallel for
    for (int i = 0; i < n; ++i)
      a[i] += 3;
  }
  Bad += expect("no device", 1, 3);
  return Bad != 0;
}
