// A distributed region in a fat binary: the plugin rewrites the region the
// same way in the host compile and in each device compile (nvptx, amdgcn,
// x86_64), the images are all there, and the binary runs the region over
// the x86_64 devices and the host.
// REQUIRES: nvptx-toolchain, amdgcn-toolchain
// RUN: %hompcc -O2 -c --offload-arch=sm_80,gfx90a,x86_64 -fplugin-arg-homp-print-regions %s -o %t.o 2>&1 | FileCheck %s --check-prefix=REWRITE
// RUN: %hompcc -O2 --offload-arch=sm_80,gfx90a,x86_64 %s -o %t
// RUN: llvm-objdump --offloading %t | FileCheck %s --check-prefix=IMAGES
// RUN: env HOMP_INFO=1 %t 2>&1 | FileCheck %s --check-prefix=EXEC

// REWRITE-COUNT-4: homp region:
// REWRITE-NOT: homp region:
// IMAGES-DAG: triple          nvptx64-nvidia-cuda
// IMAGES-DAG: triple          amdgcn-amd-amdhsa
// IMAGES-DAG: triple          x86_64-pc-linux-gnu
// EXEC: homp: region {{.*}}distributed-fat-binary.c:25:1: 4096 iterations on {{[5-9]}} devices
// EXEC: homp:   host
// EXEC: PASS

#include <stdio.h>

int main(void) {
  enum { n = 4096 };
  static float x[n], y[n];
#pragma omp target teams distribute parallel for device(*, host) \
    map(to: x dist_data(BLOCK)) map(tofrom: y dist_data(BLOCK))
  for (int i = 0; i < n; ++i)
    y[i] = 2 * x[i] + i;
  for (int i = 0; i < n; ++i)
    if (y[i] != i)
      return puts("FAIL"), 1;
  puts("PASS");
  return 0;
}
