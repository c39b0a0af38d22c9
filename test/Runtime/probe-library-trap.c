// The LLVM 19 behaviour that decides which probe library calibration may
// load (ProbeLibrary.h): a library loaded later that has no image for a
// device the program's image runs on gets the program's image in its table
// for that device, and the next region there ends the program on the
// tables' mismatch, under the default OMP_TARGET_OFFLOAD too. A library
// with an image for every device is harmless, images for devices the
// program does not have (no GPU here) included. If this test starts
// failing, LLVM changed, and ProbeLibrary.h's rule may relax.
// REQUIRES: probe-nvptx
// RUN: %clang_x86 %s -o %t -Wl,-rpath,%llvm_lib
// RUN: %t %homp_lib/libhomp-probe-cpu.so | FileCheck %s --check-prefix=FITS
// RUN: %t %homp_lib/libhomp-probe-cpu+nvptx.so | FileCheck %s --check-prefix=FITS
// RUN: not --crash %t %homp_lib/libhomp-probe-nvptx.so 2>&1 | FileCheck %s --check-prefix=TRAP
// FITS: before: device 0 ran there
// FITS-NEXT: loaded: yes
// FITS-NEXT: after: device 0 ran there
// FITS-NEXT: other region: 1
// TRAP: loaded: yes
// TRAP: Host and Target tables mismatch for device id 0 [1 != 2]
#include <dlfcn.h>
#include <omp.h>
#include <stdio.h>

static int onDevice(int D) {
  int Initial = 1;
#pragma omp target device(D) map(from : Initial)
  Initial = omp_is_initial_device();
  return !Initial;
}

static int other(int D) {
  int X = 0;
#pragma omp target device(D) map(tofrom : X)
  X += 1;
  return X;
}

int main(int argc, char **argv) {
  setvbuf(stdout, NULL, _IONBF, 0);
  if (argc != 2)
    return 2;
  printf("before: device 0 ran %s\n", onDevice(0) ? "there" : "on the host");
  printf("loaded: %s\n", dlopen(argv[1], RTLD_NOW | RTLD_LOCAL) ? "yes" : dlerror());
  printf("after: device 0 ran %s\n", onDevice(0) ? "there" : "on the host");
  printf("other region: %d\n", other(0));
  return 0;
}
