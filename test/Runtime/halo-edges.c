// Periodic and reflecting halo edges (SPEC.md section 2): past the array's
// ends a device's halo holds a[n-1], a[n-2], ... (periodic: a[-1] is
// a[n-1]) or the mirrored cells (reflecting: a[-1] is a[1]), filled on
// entry and by halo_exchange, also on a single device (from its own cells)
// and for a device given by number inside the data region (a standard
// 'target' on it uses homp's resident part). A 1-D periodic stencil over a
// data region, a reflecting one in a single region, both against
// sequential code with explicit wrapping; the host, which works in place,
// cannot hold cells past the ends and says so. halo-edges-device2.test runs
// it on device 2 alone.
// RUN: %hompcc -O2 %s -o %t && %t 2>&1 | FileCheck %s --implicit-check-not=FAIL
// RUN: %hompcc -O2 -DDEVS="0:3" -DN=11 %s -o %t.3 && %t.3 2>&1 | FileCheck %s --implicit-check-not=FAIL
// RUN: %hompcc -O2 -DDEVS="0:1" %s -o %t.1 && %t.1 2>&1 | FileCheck %s --implicit-check-not=FAIL
// RUN: %hompcc -O2 -DDEVS="*, host" %s -o %t.h && not %t.h 2>&1 | FileCheck %s --check-prefix=HOST
// RUN: env HOMP_INFO=1 %t 2>&1 | FileCheck %s --check-prefixes=INFO,INFO-%ndev --allow-unused-prefixes -D#NDEV=%ndev -DDEVICES="%devices"
// CHECK: periodic: PASS
// CHECK: reflecting: PASS
// HOST: homp: error: {{.*}}the host cannot take part in 'a': it works on the array in place, where its periodic or reflecting halo past the array's ends does not exist (leave the host out of the device list)
// HOST-NOT: PASS

// 37 elements on 4 devices: parts of 10, 9, 9, 9. On entry device 0 gets
// its 10 and its right neighbour's first (88 bytes) and a[36] for a[-1]
// (8 bytes): 96 bytes; the exchange wraps a[36] to device 0 and a[0] to
// device 3: two copies per device.
// INFO: homp: data region {{.*}} begins: 2 distributed arrays on [[DEVICES]]
// INFO-NEXT: device
// INFO-4-NEXT: homp:   0        CPU    -                                     0           96            0
// INFO: homp: halo update {{.*}}halo-edges.c:{{[0-9]+}}:13 of 'a' (leftright): [[#mul(2, NDEV)]] copies on [[DEVICES]] in

#include <stdio.h>
#include <string.h>

#ifndef DEVS
#define DEVS *
#endif
#ifndef N
#define N 37
#endif

enum { n = N };
static double a[n], b[n], ref[n], tmp[n];
static int wrap(int i) { return (i + n) % n; }
static int mirror(int i) { return i < 0 ? -i : i >= n ? 2 * (n - 1) - i : i; }

static void report(const char *What, const double *Got) {
  fflush(stderr);
  int Failures = 0;
  for (int i = 0; i < n; ++i)
    if (Got[i] != ref[i] && Failures++ < 3)
      printf("FAIL %s: [%d] = %g, expected %g\n", What, i, Got[i], ref[i]);
  printf("%s: %s\n", What, Failures ? "FAILED" : "PASS");
  fflush(stdout);
}

int main(void) {
  for (int i = 0; i < n; ++i)
    a[i] = ref[i] = (i * 7) % 5;
  for (int s = 0; s < 3; ++s) {
    memcpy(tmp, ref, sizeof ref);
    for (int i = 0; i < n; ++i)
      ref[i] = 0.25 * tmp[wrap(i - 1)] + 0.5 * tmp[i] + 0.25 * tmp[wrap(i + 1)];
  }
#pragma omp target data device(DEVS) \
    map(tofrom: a[0:n] dist_data(BLOCK) halo(1:periodic)) \
    map(alloc: b[0:n] dist_data(BLOCK))
  for (int s = 0; s < 3; ++s) {
    if (s > 0) {
#pragma omp halo_exchange(a)
    }
#pragma omp target teams distribute parallel for device(DEVS)
    for (int i = 0; i < n; ++i)
      b[i] = 0.25 * a[i - 1] + 0.5 * a[i] + 0.25 * a[i + 1];
#pragma omp target teams distribute parallel for device(DEVS)
    for (int i = 0; i < n; ++i)
      a[i] = b[i];
  }
  report("periodic", a);

  // Two cells on the left, one on the right, mirrored.
  for (int i = 0; i < n; ++i)
    a[i] = (i * 3) % 7;
  for (int i = 0; i < n; ++i)
    ref[i] = a[mirror(i - 2)] - a[mirror(i + 1)];
#pragma omp target teams distribute parallel for device(DEVS) \
    map(to: a[0:n] dist_data(BLOCK) halo(2:reflecting 1:reflecting)) \
    map(from: b[0:n] dist_data(BLOCK))
  for (int i = 0; i < n; ++i)
    b[i] = a[i - 2] - a[i + 1];
  report("reflecting", b);
  return 0;
}
