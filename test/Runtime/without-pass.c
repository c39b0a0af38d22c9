// Compiled with the plugin but without the homp pass, a distributed region
// is still correct: it runs whole on the first device of its list, and the
// compiler said so. libomptarget shows device 1 receiving all of y (with
// one device there is no device 1).
// REQUIRES: devices-2
// RUN: %clang_x86 -fplugin=%homp_plugin -O2 -g %s -o %t %libhomp -Wl,-rpath,%llvm_lib 2>&1 | FileCheck %s --check-prefix=WARN
// RUN: env LIBOMPTARGET_INFO=32 HOMP_INFO=1 %t 2>&1 | FileCheck %s
// WARN: warning: homp: this file distributes regions over several devices but the homp pass is not loaded; each region will run on one device only
// CHECK: homp: region {{.*}}without-pass.c:19:1: compiled without the homp pass; it runs on device 1 only
// CHECK: omptarget device 1 info: Copying data from host to device, {{.*}}Size=8000, Name=y[0:n]
// CHECK-NOT: omptarget device {{[023]}}
// CHECK: PASS

#include <stdio.h>

int main(void) {
  enum { n = 1000 };
  static double y[n];
#pragma omp target teams distribute parallel for device(1:3) map(tofrom: y[0:n] dist_data(BLOCK))
  for (int i = 0; i < n; ++i)
    y[i] = 2 * i;
  for (int i = 0; i < n; ++i)
    if (y[i] != 2 * i)
      return puts("FAIL"), 1;
  puts("PASS");
  return 0;
}
