// Problems found at run time name the region. By default the region then
// runs on the host, so the result is still right (device-failure.c has
// one that OMP_TARGET_OFFLOAD=MANDATORY makes stop the program). Devices 7 to 9
// exist nowhere; the run goes without the HOMP_DEVICES of lit's
// homp_devices, which the message would mention.
// RUN: %hompcc -O2 %s -o %t
// RUN: env -u HOMP_DEVICES %t 2>&1 | FileCheck %s
// With offloading disabled every region runs on the host, silently.
// RUN: env OMP_TARGET_OFFLOAD=DISABLED %t 2>&1 | FileCheck %s --check-prefix=DISABLED --implicit-check-not=homp
// DISABLED: PASS

#include <stdio.h>

int main(void) {
  enum { n = 100 };
  double u[n];
  for (int i = 0; i < n; ++i)
    u[i] = i;

  // No device of the list exists.
  // CHECK: homp: warning: region {{.*}}runtime-errors.c:[[@LINE+1]]:1: none of the devices of its 'device' clause exists; running it on the host
#pragma omp target teams distribute parallel for device(7:3) map(tofrom: u[0:n] dist_data(BLOCK))
  for (int i = 0; i < n; ++i)
    u[i] *= 2;

  for (int i = 0; i < n; ++i)
    if (u[i] != 2.0 * i)
      return puts("FAIL"), 1;
  // CHECK: PASS
  puts("PASS");
  return 0;
}
