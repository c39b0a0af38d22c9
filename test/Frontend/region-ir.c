// The IR clang generates from a rewritten region: on the host, the marker
// call with the descriptor and the values (every one a 64-bit integer), and
// the region's host version taking the chunk (3 loops of first, bound and
// step, 64-bit and their 32-bit copies: 120 bytes); on the device, the
// kernel taking the chunk and reading the int loop's first value and bound
// from the 32-bit copies only.
// RUN: %clang_x86 -fplugin=%homp_plugin --offload-host-only -S -emit-llvm -O0 -w %s -o %t.ll
// RUN: FileCheck %s --check-prefix=HOST < %t.ll
// RUN: FileCheck %s --check-prefix=FORMS < %t.ll
// RUN: %clang_x86 -fplugin=%homp_plugin --offload-device-only -S -emit-llvm -O0 -w %s -o - | FileCheck %s --check-prefix=DEVICE
// Warnings of the plugin follow -w and -Werror.
// RUN: %clang_x86 -fplugin=%homp_plugin -fsyntax-only %s 2>&1 | FileCheck %s --check-prefix=WARN
// RUN: %clang_x86 -fplugin=%homp_plugin -fsyntax-only -w %s 2>&1 | count 0
// RUN: not %clang_x86 -fplugin=%homp_plugin -fsyntax-only -Werror %s 2>&1 | FileCheck %s --check-prefix=WERROR

// HOST: @[[DESC:.*]] = private unnamed_addr constant [{{[0-9]+}} x i8] c"homp 10 kernel\0Aloc {{[0-9]+}}:{{.*}}region-ir.c 36 1\0Adevice all 0 0\0Aloop lt 0 block\0Aarray 1:y tofrom 1 0 0\0Adim block -1 0 0 none none\0Aarray 1:x to 1 0 0\0Adim block -1 0 0 none none\0Aaccess 1:y 1 1 0: L 0 0 0 0 L 0 0 0 0\0Aaccess 1:x 1 0 0: L 0 0 0 0\0Awork 2\0Agputeams\0A\00"
// HOST: %[[CHUNK:.*]] = alloca %struct.anon
// HOST: call i64 (ptr, ptr, ...) @__homp_region(ptr noundef @[[DESC]], ptr noundef %[[CHUNK]], i64 noundef %{{.*}}, i64 noundef 8, i64 noundef 0, i64 noundef %{{.*}}, i64 noundef %{{.*}}, i64 noundef 8, i64 noundef 0, i64 noundef %{{.*}}, i64 noundef %{{.*}}, i64 noundef %{{.*}})
// HOST: call i32 @__tgt_target_kernel(
// HOST: call void @__omp_offloading_{{.*}}_axpy_l36(ptr %[[CHUNK]]{{[,)]}}
// HOST: define internal void @__omp_offloading_{{.*}}_axpy_l36(ptr noundef nonnull align 8 dereferenceable(120) %{{.*}}

// DEVICE: %struct.anon.0 = type { i64, i64, i64, i32, i32, i32 }
// DEVICE: define weak_odr protected void @__omp_offloading_{{.*}}_axpy_l36(ptr noalias noundef %{{.*}}, ptr noundef nonnull align 8 dereferenceable(120) %{{.*}}
// DEVICE: getelementptr inbounds %struct.anon, ptr %{{.*}}, i32 0, i32 0
// DEVICE: getelementptr inbounds [3 x %struct.anon.0], ptr %{{.*}}, i64 0, i64 0
// DEVICE-NEXT: %[[FIRST:.*]] = getelementptr inbounds %struct.anon.0, ptr %{{.*}}, i32 0, i32 3
// DEVICE-NEXT: load i32, ptr %[[FIRST]]
// DEVICE-NOT: load i64
// DEVICE: %[[BOUND:.*]] = getelementptr inbounds %struct.anon.0, ptr %{{.*}}, i32 0, i32 4
// DEVICE-NEXT: load i32, ptr %[[BOUND]]

// WARN: region-ir.c:36:27: warning: homp: this file distributes regions over several devices but the homp pass is not loaded
// WERROR: region-ir.c:36:27: error: homp: this file distributes regions over several devices but the homp pass is not loaded
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
// FORMS: @[[DESC2:.*]] = private unnamed_addr constant {{.*}} c"homp 10 kernel\0Aloc {{[0-9]+}}:{{.*}}region-ir.c 60 1\0Adevice all 0 0\0Aloop lt 0 align to 1:x 1 1\0A
// FORMS: @[[DESC3:.*]] = private unnamed_addr constant {{.*}} c"homp 10 kernel\0Aloc {{[0-9]+}}:{{.*}}region-ir.c 69 1\0Adevice range 0 0\0Aloop lt 4 block\0Aarray 1:x to 1 0 0\0Adim block -1 0 0 none none\0Aaccess 1:x 1 0 0: L 0 0 0 0\0Areduction + 1:s\0Awork 2\0A\00"
// FORMS: define {{.*}}@axpy_homp_v1(
// FORMS: call i64 (ptr, ptr, ...) @__homp_region(ptr noundef @[[DESC2]], ptr noundef %[[CHUNK2:[0-9]+]],
// FORMS: call i32 @__tgt_target_kernel(
// FORMS: call void @__omp_offloading_{{.*}}_axpy_homp_v1_l60(ptr %[[CHUNK2]]{{[,)]}}
// FORMS: define {{.*}}@dot(
// FORMS: %[[S:[0-9]+]] = alloca double
// FORMS: %[[SADDR:[0-9]+]] = ptrtoint ptr %[[S]] to i64
// FORMS: call i64 (ptr, ptr, ...) @__homp_region(ptr noundef @[[DESC3]], ptr noundef %{{[0-9]+}}, i64 noundef 0, i64 noundef 2, i64 noundef %{{[0-9]+}}, i64 noundef 8, i64 noundef 0, i64 noundef %{{[0-9]+}}, i64 noundef %{{[0-9]+}}, i64 noundef %[[SADDR]], i64 noundef 8, i64 noundef 308)
// FORMS: call i32 @__tgt_target_kernel(
// DEVICE: define weak_odr protected void @__omp_offloading_{{.*}}_axpy_homp_v1_l60(
// DEVICE: define weak_odr protected void @__omp_offloading_{{.*}}_dot_l69(
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
