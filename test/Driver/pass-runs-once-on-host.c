// In an offload compile through hompcc the pass runs once on the host module
// and leaves each device module alone, at -O0 and at -O2.
// RUN: %hompcc -O0 -c -Rpass-analysis=homp %s -o %t.o 2>&1 | FileCheck %s
// RUN: %hompcc -O2 -c -Rpass-analysis=homp %s -o %t.o 2>&1 | FileCheck %s
// CHECK-DAG: homp pass: device module {{.*}} left unchanged
// CHECK-DAG: homp pass: host module
// CHECK-NOT: homp pass: host module

void scale(double *y, int n) {
#pragma omp target teams distribute parallel for map(tofrom: y[0:n])
  for (int i = 0; i < n; ++i)
    y[i] *= 2;
}
