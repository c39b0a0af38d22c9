// A write must stay inside what its device owns, not what it holds: its
// halo cells are never copied back, and the neighbour owns them. A loop of
// step 2 writing y[i] and y[i + 1] with y 'halo(1)' once had the owner of
// y[i] write y[i + 1] into its halo wherever a part boundary is odd, and
// that element was lost (without the halo the same loop was refused and
// ran on the host, correctly). Now both are refused the split: a kernel's
// own array runs on the host, an array a data region keeps in parts runs
// on the host gathered there; a loop that writes only what each device
// owns, reading the halo, runs split. Checked against sequential values,
// over sizes the devices divide unevenly.
// REQUIRES: devices-4
// RUN: %hompcc -O2 %s -o %t
// RUN: %t 1002 | FileCheck %s
// RUN: %t 1003 | FileCheck %s
// RUN: env HOMP_DEVICES=0,2,3 %t 999 | FileCheck %s
// RUN: env HOMP_INFO=1 %t 1002 2>&1 | FileCheck %s --check-prefix=INFO
// CHECK: kernel: PASS
// CHECK: data region: PASS
// CHECK: reading the halo: PASS
// INFO: homp: warning: region {{.*}}halo-writes.c:[[#]]:1: device {{[0-9]}} would write elements [[[#]], [[#]]) of 'y', which it does not own (it owns [{{.*}})): its copies of them are never copied back; running it on the host
// INFO: homp: region {{.*}}halo-writes.c:[[#]]:1: {{[0-9]+}} iterations on the host, with the resident arrays it uses gathered there (device {{[0-9]}} would write elements {{.*}} of 'y', which it does not own
// The split that writes only owned elements:
// INFO: homp: region {{.*}}halo-writes.c:[[#]]:1: {{[0-9]+}} iterations on {{[0-9]}} devices; asynchronous: the program went on while it ran in
// INFO: reading the halo: PASS

#include <stdio.h>
#include <stdlib.h>

static int check(const char *What, const long *y, int n, int Shift) {
  int Bad = 0;
  for (int i = 0; i < n; ++i) {
    long Want = i + Shift;
    if (n % 2 && i == n - 1)
      Want = -1 + Shift; // the loop of step 2 stops short of an odd end
    if (y[i] != Want && Bad++ < 3)
      printf("FAIL %s: y[%d] = %ld, expected %ld\n", What, i, y[i], Want);
  }
  printf("%s: %s\n", What, Bad ? "FAIL" : "PASS");
  return Bad;
}

int main(int argc, char **argv) {
  if (argc != 2)
    return 2;
  int n = atoi(argv[1]), Bad = 0;
  long *y = malloc(sizeof(long) * n), *x = malloc(sizeof(long) * n);
  for (int i = 0; i < n; ++i)
    y[i] = -1;
#pragma omp target device(*) map(tofrom: y[0:n] dist_data(BLOCK) halo(1))
#pragma omp parallel for dist_iteration(BLOCK)
  for (int i = 0; i < n - 1; i += 2) {
    y[i] = i;
    y[i + 1] = i + 1;
  }
  Bad += check("kernel", y, n, 0);
  for (int i = 0; i < n; ++i)
    y[i] = -1;
#pragma omp target data device(*) map(tofrom: y[0:n] dist_data(BLOCK) halo(1))
  {
#pragma omp target device(*)
#pragma omp parallel for dist_iteration(BLOCK)
    for (int i = 0; i < n - 1; i += 2) {
      y[i] = i;
      y[i + 1] = i + 1;
    }
#pragma omp target device(*)
#pragma omp parallel for dist_iteration(BLOCK)
    for (int i = 0; i < n; ++i)
      y[i] += 1;
  }
  Bad += check("data region", y, n, 1);
  // Each device writes x[i] only, reading y[i + 1] from its halo.
  for (int i = 0; i < n; ++i)
    y[i] = i, x[i] = -1;
#pragma omp target data device(*) map(to: y[0:n] dist_data(BLOCK) halo(0:1)) \
    map(from: x[0:n] dist_data(BLOCK))
  {
#pragma omp target device(*)
#pragma omp parallel for dist_iteration(BLOCK)
    for (int i = 0; i < n - 1; ++i)
      x[i] = y[i + 1];
  }
  x[n - 1] = n % 2 ? 0 : n;
  Bad += check("reading the halo", x, n, 1);
  free(x);
  free(y);
  return Bad != 0;
}
