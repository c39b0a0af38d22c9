// Transparency: in a member function defined inside its class, 'device(host)'
// names the member 'host' even when the member is declared later in the class
// (clang parses such bodies once the class is complete). It compiles to the
// same IR with and without homp, and runs the same.
// RUN: %compare_ir %s | FileCheck %s --check-prefix=IR
// RUN: %clang -x c++ -fopenmp -fopenmp-targets=x86_64-pc-linux-gnu %s -o %t.ref -lstdc++ -Wl,-rpath,%llvm_lib && %t.ref > %t.ref.out
// RUN: %hompcxx %s -o %t && %t > %t.out
// RUN: diff %t.ref.out %t.out
// RUN: FileCheck %s --input-file=%t.out
// IR: identical IR and diagnostics
//
// Each device's copy of the declare-target global 'tag' holds the device's
// number, so a region that returns 'tag' tells which device it ran on.

#include <omp.h>
#include <stdio.h>

#pragma omp declare target
int tag = -1;
#pragma omp end declare target

struct Machine {
  int run() {
    int r = -2;
#pragma omp target device(host) map(from : r)
    r = tag;
    return r;
  }
  int runNested() {
    struct Local {
      int run(int d) {
        int r = -2;
#pragma omp target device(HOMP_DEVICE_HOST) map(from : r)
        r = tag + d;
        return r;
      }
      int HOMP_DEVICE_HOST = 1;
    } L;
    return L.run(10);
  }
  int host = 2;
};

int main() {
  for (int d = 0; d < omp_get_num_devices(); ++d) {
    tag = d;
#pragma omp target update to(tag) device(d)
  }
  Machine M;
  // CHECK: member=2
  printf("member=%d\n", M.run());
  // CHECK-NEXT: local class member=11
  printf("local class member=%d\n", M.runNested());
  return 0;
}
