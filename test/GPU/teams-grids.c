// Full grids for distributed loops (issue: GPU-grade execution): the
// papers' kernels as written ('target' + 'parallel for', HOMP'16's
// 'parallel for target') run on a GPU as 'teams distribute parallel for'
// over the device's chunk, whose trip count each launch passes, where
// plain OpenMP runs them as one team (the kernel environment's MinTeams
// and MaxTeams are 1: PMAM'15's Jacobi took 16 ms a sweep on an H200).
// Each kernel of PMAM'15's Jacobi and matmul by rows (test/Runtime), of
// AXPY (examples/demo.c) and of the forms below, compiled for sm_90 and
// gfx90a: a teams kernel (MaxTeams 0, no bound) that distributes. A loop
// with a clause 'distribute parallel for' reads otherwise ('if') stays one
// team. The host's and the x86_64 offload devices' images keep 'parallel
// for', one team as before (as teams, AXPY over 4 CPU offload devices took
// 10% longer); the descriptor says 'gputeams', and libhomp asks a GPU for
// the grid its plugin sizes for each launch's trip count rather than the
// one team the host's 'target' asks for.
// REQUIRES: nvptx-toolchain, amdgcn-toolchain
//
// RUN: %hompcc -O2 --offload-arch=sm_90 --offload-device-only -S -emit-llvm %S/../Runtime/jacobi.c -o %t.jacobi.sm90.ll
// RUN: FileCheck %s --check-prefix=JACOBI < %t.jacobi.sm90.ll
// RUN: %hompcc -O2 --offload-arch=gfx90a --offload-device-only -S -emit-llvm %S/../Runtime/jacobi.c -o %t.jacobi.gfx90a.ll
// RUN: FileCheck %s --check-prefix=JACOBI < %t.jacobi.gfx90a.ll
// RUN: %hompcc -O2 -DDEVS="*" --offload-arch=sm_90 --offload-device-only -S -emit-llvm %S/../Runtime/matmul.c -o %t.matmul.sm90.ll
// RUN: FileCheck %s --check-prefix=MATMUL < %t.matmul.sm90.ll
// RUN: %hompcc -O2 -DDEVS="*" --offload-arch=gfx90a --offload-device-only -S -emit-llvm %S/../Runtime/matmul.c -o %t.matmul.gfx90a.ll
// RUN: FileCheck %s --check-prefix=MATMUL < %t.matmul.gfx90a.ll
// RUN: %hompcc -O2 --offload-arch=sm_90 --offload-device-only -S -emit-llvm %S/../../examples/demo.c -o %t.axpy.sm90.ll
// RUN: FileCheck %s --check-prefix=AXPY < %t.axpy.sm90.ll
// RUN: %hompcc -O2 --offload-arch=gfx90a --offload-device-only -S -emit-llvm %S/../../examples/demo.c -o %t.axpy.gfx90a.ll
// RUN: FileCheck %s --check-prefix=AXPY < %t.axpy.gfx90a.ll
// RUN: %hompcc -O2 --offload-arch=sm_90 --offload-device-only -S -emit-llvm %s -o %t.forms.sm90.ll
// RUN: FileCheck %s --check-prefix=FORMS < %t.forms.sm90.ll
// RUN: %hompcc -O2 --offload-arch=gfx90a --offload-device-only -S -emit-llvm %s -o %t.forms.gfx90a.ll
// RUN: FileCheck %s --check-prefix=FORMS < %t.forms.gfx90a.ll
// RUN: %hompcc -O2 --offload-arch=x86_64 --offload-device-only -S -emit-llvm %s -o - | FileCheck %s --check-prefix=CPU
// RUN: %hompcc -O2 --offload-host-only -S -emit-llvm %s -o - | FileCheck %s --check-prefixes=CPU,HOST
// CPU-NOT: __kmpc_fork_teams
// HOST: gputeams\0A
// CPU-NOT: __kmpc_fork_teams
//
// A kernel environment: { generic state machine, nested parallelism,
// mode, MinThreads, MaxThreads, MinTeams, MaxTeams, ... }.
// Jacobi's four kernels (PMAM'15 Figure 2, HOMP'16 Figure 3): none one team.
// JACOBI-COUNT-4: _kernel_environment = {{.*}}ConfigurationEnvironmentTy { i8 {{[0-9]+}}, i8 {{[0-9]+}}, i8 {{[0-9]+}}, i32 {{[0-9]+}}, i32 {{[0-9]+}}, i32 0, i32 0,
// JACOBI-NOT: _kernel_environment =
// JACOBI: __kmpc_distribute_static_init
// MATMUL: _kernel_environment = {{.*}}ConfigurationEnvironmentTy { i8 {{[0-9]+}}, i8 {{[0-9]+}}, i8 {{[0-9]+}}, i32 {{[0-9]+}}, i32 {{[0-9]+}}, i32 0, i32 0,
// MATMUL-NOT: i32 1, i32 1, i32 {{[0-9]+}}, i32 {{[0-9]+}} }, ptr
// MATMUL: __kmpc_distribute_static_init
// AXPY-COUNT-1: _kernel_environment = {{.*}}ConfigurationEnvironmentTy { i8 {{[0-9]+}}, i8 {{[0-9]+}}, i8 {{[0-9]+}}, i32 {{[0-9]+}}, i32 {{[0-9]+}}, i32 0, i32 0,
// AXPY: __kmpc_distribute_static_init
//
// The forms below, in order of their lines: three teams kernels, then the
// 'if' loop's one team.
// FORMS: @__omp_offloading_{{.*}}_simd_form_l[[#@LINE + 9]]_kernel_environment = {{.*}}, i32 0, i32 0,
// FORMS: @__omp_offloading_{{.*}}_collapsed_l[[#@LINE + 16]]_kernel_environment = {{.*}}, i32 0, i32 0,
// FORMS: @__omp_offloading_{{.*}}_homp16_form_l[[#@LINE + 23]]_kernel_environment = {{.*}}, i32 0, i32 0,
// FORMS: @__omp_offloading_{{.*}}_if_form_l[[#@LINE + 29]]_kernel_environment = {{.*}}, i32 1, i32 1,

enum { n = 1000, m = 64 };
static double x[n], y[n], a2[n][m];

void simd_form(double a) {
#pragma omp target device(*) map(to: x[0:n] dist_data(BLOCK)) \
    map(tofrom: y[0:n] dist_data(BLOCK))
#pragma omp parallel for simd dist_iteration(BLOCK)
  for (int i = 0; i < n; ++i)
    y[i] += a * x[i];
}

void collapsed(void) {
#pragma omp target device(*) map(tofrom: a2[0:n][0:m] dist_data(BLOCK, *))
#pragma omp parallel for collapse(2) schedule(static, 4) dist_iteration(BLOCK)
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < m; ++j)
      a2[i][j] = i + j;
}

void homp16_form(void) {
#pragma omp parallel for target device(*) map(tofrom: y[0:n] dist_data(BLOCK)) \
    distribute dist_schedule(target: [BLOCK])
  for (int i = 0; i < n; ++i)
    y[i] = 2 * y[i];
}

void if_form(int wide) {
#pragma omp target device(*) map(tofrom: y[0:n] dist_data(BLOCK))
#pragma omp parallel for if(wide) dist_iteration(BLOCK)
  for (int i = 0; i < n; ++i)
    y[i] += 1;
}
