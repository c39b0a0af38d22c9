// Device type filters and HOMP_DEVICES select devices by the type of the
// offload plugin that owns them: the 4 x86_64 offload devices are CPU
// devices and the host is HOST. With only those 4 there is no GPU, and the
// GPU filters find nothing (CHECK-4); a GPU would be one of NDEV devices.
// HOMP_DEVICES in the RUN lines replaces lit's homp_devices, so the test
// needs the 4 CPU devices.
// REQUIRES: devices-4
// RUN: %hompcc -O2 %s -o %t
// RUN: env HOMP_INFO=1 %t 2>&1 | FileCheck %s --check-prefixes=CHECK,CHECK-%ndev --allow-unused-prefixes -D#NDEV=%ndev
// RUN: env HOMP_INFO=1 HOMP_DEVICES=0,2 %t 2>&1 | FileCheck %s --check-prefix=IDS
// RUN: env HOMP_INFO=1 HOMP_DEVICES=host,cpu %t 2>&1 | FileCheck %s --check-prefix=TYPES
// RUN: not env HOMP_DEVICES=3,fpga %t 2>&1 | FileCheck %s --check-prefix=BAD

#include <stdio.h>

enum { n = 100 };
static double y[n];
static int failures;

#define PRAGMA(x) _Pragma(#x)
#define SCALE(...)                                                             \
  PRAGMA(omp target teams distribute parallel for device(__VA_ARGS__)          \
             map(tofrom: y dist_data(BLOCK)))                                  \
  for (int i = 0; i < n; ++i)                                                  \
    y[i] *= 2;

static void check(const char *what, double f) {
  fflush(stderr);
  for (int i = 0; i < n; ++i)
    if (y[i] != i * f)
      printf("FAIL %s: y[%d] = %g\n", what, i, y[i]), ++failures;
}

int main(void) {
  for (int i = 0; i < n; ++i)
    y[i] = i;
  // CHECK: homp: region {{.*}}: 100 iterations on 4 devices
  // CHECK-NEXT: device
  // CHECK-NEXT: homp:   0        CPU
  // IDS: homp: region {{.*}}: 100 iterations on 2 devices
  // IDS-NEXT: device
  // IDS-NEXT: homp:   0        CPU
  // IDS-NEXT: homp:   2        CPU
  // TYPES: homp: region {{.*}}: 100 iterations on 4 devices
  SCALE(*:HOMP_DEVICE_CPU)
  check("*:CPU", 2);
  // CHECK: homp: region {{.*}}: 100 iterations on 2 devices
  // CHECK-NEXT: device
  // CHECK-NEXT: homp:   1        CPU
  // CHECK-NEXT: homp:   2        CPU
  SCALE(1:2:OMP_DEVICE_CPU)
  check("1:2:CPU", 4);
  // CHECK: homp: region {{.*}}: 100 iterations on 3 devices
  SCALE(0:3 & OMP_DEVICE_CPU)
  check("0:3 & CPU", 8);
  // CHECK: homp: region {{.*}}: 100 iterations on [[#NDEV + 1]] devices
  // CHECK: homp:   host     HOST
  // TYPES: homp: region {{.*}}: 100 iterations on 5 devices
  SCALE(*:HOMP_DEVICE_ALL, HOMP_DEVICE_HOST)
  check("ALL, HOST", 16);
  // No NVIDIA GPU: the region runs on the host, with a warning.
  // CHECK-4: homp: warning: region {{.*}}: none of the devices of its 'device' clause exists; running it on the host
  // IDS: homp: warning: region {{.*}}: none of the devices of its 'device' clause exists (or HOMP_DEVICES admits none of them); running it on the host
  SCALE(*:HOMP_DEVICE_NVGPU)
  check("NVGPU", 32);
  // CHECK-4: homp: warning: region {{.*}}: none of the devices
  SCALE(0:*:HOMP_DEVICE_GPU)
  check("GPU", 64);
  puts(failures ? "FAIL" : "PASS");
  // CHECK: PASS
  // IDS: PASS
  // TYPES: PASS
  return failures != 0;
}
// BAD: homp: error: HOMP_DEVICES='3,fpga' is not valid: 'fpga' is neither a device id, 'host' nor a device type; expected a comma-separated list such as '0,2', 'NVGPU,CPU' or '1,host'
