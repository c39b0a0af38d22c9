// Observation never changes execution: with HOMP_INFO, HOMP_TRACE, both or
// neither, the program makes the same launches on the same devices, moves
// the same bytes and exchanges the same halos (homp_get_counters), and
// gets the same results, checked against sequential code. The asynchronous
// kernels (resident arrays only) stay asynchronous and are replayed under
// HOMP_INFO too: once, HOMP_INFO made every kernel wait for its devices,
// which hid a wrong answer of asynchronous kernels. Under HOMP_INFO, each
// asynchronous execution is reported when its devices are done.
// RUN: %hompcc -O2 %s -o %t
// RUN: %t > %t.plain
// RUN: env HOMP_INFO=1 %t > %t.info 2> %t.info.err
// RUN: rm -f %t.json %t.both.json
// RUN: env HOMP_TRACE=%t.json %t > %t.trace
// RUN: env HOMP_INFO=1 HOMP_TRACE=%t.both.json %t > %t.both 2>/dev/null
// RUN: diff %t.plain %t.info
// RUN: diff %t.plain %t.trace
// RUN: diff %t.plain %t.both
// RUN: FileCheck %s < %t.plain
// RUN: FileCheck %s --check-prefix=INFO < %t.info.err
// RUN: %python %S/Inputs/check-trace.py %t.both.json | FileCheck %s --check-prefix=TRACE
// CHECK: results: PASS
// CHECK: device 0: kernels=21 queued=20 iterations=
// CHECK: queued kernels: some
// CHECK: halo bytes: some
// CHECK: bad device: -1, no room: -1
// Both kernels of every sweep are reported; the first sweep's are planned,
// the next ones replayed.
// INFO-COUNT-20: iterations on {{[0-9]+}} device{{s?}}; asynchronous: the program went on while it ran
// TRACE: device 0 (CPU) kernel events={{[0-9]+}} bytes=0 iterations={{[0-9]+}} replayed={{[1-9]}}

#include <homp.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

enum { N = 10007, SWEEPS = 10 };

int main(void) {
  int n = N;
  double *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y);
  double *rx = malloc(n * sizeof *rx), *ry = malloc(n * sizeof *ry);
  for (int i = 0; i < n; ++i) {
    x[i] = rx[i] = (i % 13) * 0.5;
    y[i] = ry[i] = i % 7;
  }
  double sum = 0, rsum = 0;
#pragma omp target data device(*) map(tofrom: x[0:n] dist_data(BLOCK) halo(1)) \
    map(tofrom: y[0:n] dist_data(BLOCK))
  {
    for (int s = 0; s < SWEEPS; ++s) {
      // Resident arrays only: asynchronous (with 'nowait' or not),
      // replayed after the first sweep.
#pragma omp target device(*) nowait
#pragma omp parallel for dist_schedule(target: BLOCK)
      for (int i = 1; i < n - 1; ++i)
        y[i] = 0.5 * (x[i - 1] + x[i + 1]) + 0.5 * s;
#pragma omp taskwait
#pragma omp target device(*)
#pragma omp parallel for dist_schedule(target: BLOCK)
      for (int i = 1; i < n - 1; ++i)
        x[i] = y[i];
#pragma omp halo_exchange(x)
    }
    // A reduction waits for its devices.
#pragma omp target device(*) map(tofrom: sum)
#pragma omp parallel for reduction(+: sum) dist_schedule(target: BLOCK)
    for (int i = 0; i < n; ++i)
      sum += y[i];
  }
  for (int s = 0; s < SWEEPS; ++s) {
    for (int i = 1; i < n - 1; ++i)
      ry[i] = 0.5 * (rx[i - 1] + rx[i + 1]) + 0.5 * s;
    for (int i = 1; i < n - 1; ++i)
      rx[i] = ry[i];
  }
  for (int i = 0; i < n; ++i)
    rsum += ry[i];
  int bad = rsum != sum;
  for (int i = 0; i < n; ++i)
    bad += x[i] != rx[i] || y[i] != ry[i];
  printf("results: %s\n", bad ? "FAIL" : "PASS");

  long long queued = 0, halo = 0;
  for (int d = 0; d <= omp_get_num_devices(); ++d) {
    homp_counters_t c;
    if (homp_get_counters(d, &c, sizeof c) != 0) {
      printf("homp_get_counters(%d) failed\n", d);
      return 1;
    }
    printf("device %d: kernels=%lld queued=%lld iterations=%lld in=%lld "
           "out=%lld halo=%lld\n",
           d, c.kernels, c.queued_kernels, c.iterations, c.bytes_in,
           c.bytes_out, c.halo_bytes);
    queued += c.queued_kernels;
    halo += c.halo_bytes;
  }
  printf("queued kernels: %s\n", queued ? "some" : "none");
  printf("halo bytes: %s\n", halo ? "some" : "none");
  homp_counters_t c;
  printf("bad device: %d, no room: %d\n",
         homp_get_counters(omp_get_num_devices() + 1, &c, sizeof c),
         homp_get_counters(0, NULL, sizeof c));
  return bad != 0;
}
