// The IR clang generates from a rewritten region: on the host, the marker
// call with the descriptor and the values, and the region's host version
// taking the chunk (24 bytes); on the device, the kernel taking the chunk
// and reading the loop's first value and bound from it.
// RUN: %clang_x86 -fplugin=%homp_plugin --offload-host-only -S -emit-llvm -O0 -w %s -o %t.ll
// RUN: FileCheck %s --check-prefix=HOST < %t.ll
// RUN: FileCheck %s --check-prefix=FORMS < %t.ll
// RUN: %clang_x86 -fplugin=%homp_plugin --offload-device-only -S -emit-llvm -O0 -w %s -o - | FileCheck %s --check-prefix=DEVICE
// Warnings of the plugin follow -w and -Werror.
// RUN: %clang_x86 -fplugin=%homp_plugin -fsyntax-only %s 2>&1 | FileCheck %s --check-prefix=WARN
// RUN: %clang_x86 -fplugin=%homp_plugin -fsyntax-only -w %s 2>&1 | count 0
// RUN: not %clang_x86 -fplugin=%homp_plugin -fsyntax-only -Werror %s 2>&1 | FileCheck %s --check-prefix=WERROR

// HOST: @[[DESC:.*]] = private unnamed_addr constant [{{[0-9]+}} x i8] c"homp 1\0Aloc {{.*}}region-ir.c:28:1\0Adevice all\0Aloop lt block\0Aarray y tofrom block 0 0\0Aarray x to block 0 0\0A\00"
// HOST: %[[CHUNK:.*]] = alloca %struct.anon
// HOST: call i64 (ptr, ptr, ...) @__homp_region(ptr noundef @[[DESC]], ptr noundef %[[CHUNK]], ptr noundef %{{.*}}, i64 noundef 0, i64 noundef %{{.*}}, i64 noundef 8, ptr noundef %{{.*}}, i64 noundef 0, i64 noundef %{{.*}}, i64 noundef 8)
// HOST: call i32 @__tgt_target_kernel(
// HOST: call void @__omp_offloading_{{.*}}_axpy_l28({{.*}}ptr %[[CHUNK]]{{[,)]}}
// HOST: define internal void @__omp_offloading_{{.*}}_axpy_l28({{.*}}ptr noundef nonnull align 8 dereferenceable(24) %{{.*}})

// DEVICE: define weak_odr protected void @__omp_offloading_{{.*}}_axpy_l28(ptr noalias noundef %{{.*}}, {{.*}}ptr noundef nonnull align 8 dereferenceable(24) %{{.*}})
// DEVICE: getelementptr inbounds %struct.anon, ptr %{{.*}}, i32 0, i32 0
// DEVICE: getelementptr inbounds %struct.anon, ptr %{{.*}}, i32 0, i32 1

// WARN: region-ir.c:28:27: warning: homp: this file distributes regions over several devices but the homp pass is not loaded
// WERROR: region-ir.c:28:27: error: homp: this file distributes regions over several devices but the homp pass is not loaded
void axpy(double *x, double *y, int n, double a) {
#pragma omp target device(*) map(tofrom: y[0:n] dist_data(BLOCK)) \
                             map(to: x[0:n] dist_data(BLOCK), a, n)
#pragma omp parallel for dist_iteration(BLOCK)
  for (int i = 0; i < n; ++i)
    y[i] += a * x[i];
}

// HOMP'16 Figure 2 and the combined construct with a reduction: the same
// marker call, with the loop aligned to x, and with the reduction variable's
// address, size and type (308: double) among the values.
// FORMS: @[[DESC2:.*]] = private unnamed_addr constant {{.*}} c"homp 1\0Aloc {{.*}}region-ir.c:51:1\0Adevice all\0Aloop lt array 1\0Aarray y tofrom block 0 0\0Aarray x to block 0 0\0A\00"
// FORMS: @[[DESC3:.*]] = private unnamed_addr constant {{.*}} c"homp 1\0Aloc {{.*}}region-ir.c:60:1\0Adevice range\0Aloop lt block\0Aarray x to block 0 0\0Areduction + s\0A\00"
// FORMS: define {{.*}}@axpy_homp_v1(
// FORMS: call i64 (ptr, ptr, ...) @__homp_region(ptr noundef @[[DESC2]], ptr noundef %[[CHUNK2:[0-9]+]],
// FORMS: call i32 @__tgt_target_kernel(
// FORMS: call void @__omp_offloading_{{.*}}_axpy_homp_v1_l51({{.*}}ptr %[[CHUNK2]]{{[,)]}}
// FORMS: define {{.*}}@dot(
// FORMS: %[[S:[0-9]+]] = alloca double
// FORMS: call i64 (ptr, ptr, ...) @__homp_region(ptr noundef @[[DESC3]], ptr noundef %{{[0-9]+}}, i64 noundef 0, i64 noundef 2, ptr noundef %{{[0-9]+}}, i64 noundef 0, i64 noundef %{{[0-9]+}}, i64 noundef 8, ptr noundef %[[S]], i64 noundef 8, i64 noundef 308)
// FORMS: call i32 @__tgt_target_kernel(
// DEVICE: define weak_odr protected void @__omp_offloading_{{.*}}_axpy_homp_v1_l51(
// DEVICE: define weak_odr protected void @__omp_offloading_{{.*}}_dot_l60(
void axpy_homp_v1(double *x, double *y, int n, double a) {
#pragma omp parallel target device(*) map(tofrom: y[0:n] partition([BLOCK])) \
                                      map(to: x[0:n] partition([BLOCK]), a, n)
#pragma omp parallel for distribute dist_schedule(target: [ALIGN(x)])
  for (int i = 0; i < n; ++i)
    y[i] += a * x[i];
}

double dot(double *x, int n) {
  double s = 0;
#pragma omp target teams distribute parallel for device(0:2) \
    map(to: x[0:n] dist_data(BLOCK)) reduction(+: s)
  for (int i = 0; i < n; ++i)
    s += x[i] * x[i];
  return s;
}
