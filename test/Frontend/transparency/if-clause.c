// Transparency: the 'if' clause with and without directive-name modifiers
// ('if(target: c)', 'if(parallel: c)', 'if(c)', 'if(target update: c)',
// 'if(target data: c)', 'if(target enter data: c)'), with conditions that
// hold and that do not, compiles to the same IR with and without homp, and
// runs the same.
// RUN: %compare_ir %s | FileCheck %s --check-prefix=IR
// RUN: %clang_x86 %s -o %t.ref -Wl,-rpath,%llvm_lib && %t.ref > %t.ref.out
// RUN: %hompcc %s -o %t && %t > %t.out
// RUN: diff %t.ref.out %t.out
// RUN: FileCheck %s --input-file=%t.out
// IR: identical IR and diagnostics
//
// omp_is_initial_device() is 1 when a region falls back to the host and 0
// on an offload device; omp_in_parallel() tells whether a parallel region
// is active.

#include <omp.h>
#include <stdio.h>

int main(void) {
  int yes = 1, no = 0, n = 10, on_host = -1, in_par = -1;

#pragma omp target if (target : yes) map(from : on_host)
  on_host = omp_is_initial_device();
  // CHECK: target_true=0
  printf("target_true=%d\n", on_host);

#pragma omp target if (target : no) map(from : on_host)
  on_host = omp_is_initial_device();
  // CHECK-NEXT: target_false=1
  printf("target_false=%d\n", on_host);

#pragma omp target if (n > 5) map(from : on_host)
  on_host = omp_is_initial_device();
  // CHECK-NEXT: plain_true=0
  printf("plain_true=%d\n", on_host);

#pragma omp target if (n > 50 ? 1 : 0) map(from : on_host)
  on_host = omp_is_initial_device();
  // CHECK-NEXT: conditional_false=1
  printf("conditional_false=%d\n", on_host);

  // Both modifiers on a combined construct: offloaded, but not parallel.
#pragma omp target parallel if (target : yes) if (parallel : no) map(from : on_host, in_par)
  {
    on_host = omp_is_initial_device();
    in_par = omp_in_parallel();
  }
  // CHECK-NEXT: combined host=0 parallel=0
  printf("combined host=%d parallel=%d\n", on_host, in_par);

  // Host-side parallel with a false 'if' is inactive.
#pragma omp parallel if (parallel : no) num_threads(2)
  in_par = omp_in_parallel();
  // CHECK-NEXT: host_parallel=0
  printf("host_parallel=%d\n", in_par);

  // 'if' on the data directives: x is mapped only when the condition holds;
  // the update with a false condition moves nothing.
  int x = 5, present_yes = -1, present_no = -1;
#pragma omp target enter data map(to : x) if (target enter data : no)
  present_no = omp_target_is_present(&x, omp_get_default_device());
#pragma omp target enter data map(to : x) if (yes)
  present_yes = omp_target_is_present(&x, omp_get_default_device());
  // CHECK-NEXT: present=0,1
  printf("present=%d,%d\n", present_no, present_yes);
  x = 9;
#pragma omp target update to(x) if (target update : no)
  int seen = 0;
#pragma omp target map(from : seen) map(to : x)
  seen = x;
  // The device copy still holds 5: x is present, so 'map(to : x)' does
  // not copy it again.
  // CHECK-NEXT: seen=5
  printf("seen=%d\n", seen);
#pragma omp target update to(x) if (yes)
#pragma omp target map(from : seen) map(to : x)
  seen = x;
  // CHECK-NEXT: seen_after_update=9
  printf("seen_after_update=%d\n", seen);
#pragma omp target exit data map(delete : x) if (target exit data : yes)

  // target data with a false 'if': the nested region maps a itself.
  int a[4] = {1, 2, 3, 4};
#pragma omp target data map(tofrom : a) if (target data : no)
  {
#pragma omp target map(tofrom : a)
    for (int i = 0; i < 4; ++i)
      a[i] *= 10;
  }
  // 10 + 20 + 30 + 40 = 100.
  // CHECK-NEXT: data_false=100
  printf("data_false=%d\n", a[0] + a[1] + a[2] + a[3]);
  return 0;
}
