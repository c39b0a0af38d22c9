// Device failures in two more cases, against sequential values:
// - a part holding halo cells past the array's ends (a periodic halo) is
//   not rerun on the host, whose array has none ('a[-1]' would read memory
//   before it): the program stops, naming the region and the device;
// - under SCHED_PROFILE_AUTO with a cutoff, a device whose sample failed
//   takes none of the rest, and the others share it by the rates they
//   measured (the failed one, credited with a sample it never ran, looked
//   fastest, the cutoff then dropped every other, and the rest went out in
//   equal shares, a quarter of it rerun on the host). HOMP_INFO says so in
//   its title; device 1's row shows that it failed, having run nothing, and
//   the host's row the sample it ran instead (of 4 equal parts, the second).
// The failures are injected on devices 0, 1 and 3, of devices 0 to 3 (3 is
// the last, holding the periodic halo past the array's end, also where
// there are more devices).
// REQUIRES: devices-4
// RUN: %hompcc -O2 %s -o %t
// RUN: not env HOMP_DEVICES=0,1,2,3 HOMP_FAULT=0:alloc %t halo 2>&1 | FileCheck %s --check-prefix=HALO -DDEV=0
// RUN: not env HOMP_DEVICES=0,1,2,3 HOMP_FAULT=3:launch %t halo 2>&1 | FileCheck %s --check-prefix=HALO -DDEV=3
// RUN: env HOMP_DEVICES=0,1,2,3 HOMP_FAULT=1:alloc HOMP_INFO=1 %t sample 2>&1 | FileCheck %s --check-prefix=SAMPLE
// RUN: %t halo 2>&1 | FileCheck %s --check-prefix=PASS
// HALO: homp: error: region {{.*}}device-failure-cases.c:[[# @LINE + 20]]:1: device [[DEV]] {{cannot allocate|failed to run}}
// HALO-NOT: PASS
// SAMPLE: homp: warning: region {{.*}}: device 1 cannot allocate {{.*}}; running its part on the host
// SAMPLE: homp: region {{.*}}; schedule SCHED_PROFILE_AUTO, sample of 40000{{.*}}; the host ran the failed part of 1 in
// SAMPLE: homp:   1        CPU    failed{{ +}}0{{ +}}0{{ +}}0{{ +}}{{[0-9.]+$}}
// The host reran device 1's sample alone: 4 slices, a launch each.
// SAMPLE: homp:   host     HOST   [{{[0-9]+}}, {{[0-9]+}})/4{{ +}}4{{ +}}0{{ +}}0{{ +}}{{[0-9.]+$}}
// SAMPLE: PASS
// PASS: PASS

#include <stdio.h>
#include <string.h>

int main(int argc, char **argv) {
  enum { n = 1000, m = 400000 };
  static double a[n], b[n], x[m], y[m];
  int Bad = 0;
  if (!strcmp(argv[1], "halo")) {
    for (int i = 0; i < n; ++i)
      a[i] = i;
#pragma omp target device(*) map(to: a[0:n] dist_data(BLOCK) halo(1:periodic)) map(from: b[0:n] dist_data(BLOCK))
#pragma omp parallel for
    for (int i = 0; i < n; ++i)
      b[i] = a[i - 1] + a[i + 1];
    for (int i = 0; i < n; ++i)
      Bad += b[i] != a[(i + n - 1) % n] + a[(i + 1) % n];
  } else {
    double sum = 0, want = 0;
    for (int i = 0; i < m; ++i)
      x[i] = i % 13;
#pragma omp target device(*) map(tofrom: y[0:m] dist_data(ALIGN(loop))) map(to: x[0:m] dist_data(ALIGN(loop)))
#pragma omp parallel for reduction(+: sum) dist_iteration(SCHED_PROFILE_AUTO(10%)) cutoff(auto)
    for (int i = 0; i < m; ++i) {
      y[i] += 2 * x[i];
      sum += x[i];
    }
    for (int i = 0; i < m; ++i) {
      want += i % 13;
      Bad += y[i] != 2.0 * (i % 13);
    }
    Bad += sum != want;
  }
  puts(Bad ? "FAIL" : "PASS");
  return Bad != 0;
}
