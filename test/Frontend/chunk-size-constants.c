// Chunk and sample sizes are integer constant expressions with C's types:
// unsigned and long literals ('64u', '64UL'), shifts ('1 << 6') and macros
// expanding to them give the number the descriptor carries, also before a
// '%' ('(5u * 2u)%') and in a cutoff's percentage. An unsigned
// expression that C would wrap is refused (scheduler-diagnostics.c).
// RUN: %clang_cc1_homp -fsyntax-only -fpass-plugin=%homp_pass -plugin-arg-homp print-regions %s 2>&1 | FileCheck %s --implicit-check-not=error:

#define CHUNK 64u
#define BIG (1 << 10)
#define SAMPLE (5u * 2u)

void sizes(double *y, int n) {
#pragma omp target teams distribute parallel for device(*) map(tofrom: y[0:n] dist_data(ALIGN(loop))) dist_schedule(target: SCHED_DYNAMIC(64u))
  for (int i = 0; i < n; ++i) y[i] += 1;
// CHECK: loop lt 0 auto dynamic 64\n
#pragma omp target teams distribute parallel for device(*) map(tofrom: y[0:n] dist_data(ALIGN(loop))) dist_schedule(target: SCHED_DYNAMIC(64UL))
  for (int i = 0; i < n; ++i) y[i] += 1;
// CHECK: loop lt 0 auto dynamic 64\n
#pragma omp target teams distribute parallel for device(*) map(tofrom: y[0:n] dist_data(ALIGN(loop))) dist_schedule(target: SCHED_DYNAMIC(1 << 6))
  for (int i = 0; i < n; ++i) y[i] += 1;
// CHECK: loop lt 0 auto dynamic 64\n
#pragma omp target teams distribute parallel for device(*) map(tofrom: y[0:n] dist_data(ALIGN(loop))) dist_schedule(target: SCHED_GUIDED(CHUNK))
  for (int i = 0; i < n; ++i) y[i] += 1;
// CHECK: loop lt 0 auto guided 64\n
#pragma omp target teams distribute parallel for device(*) map(tofrom: y[0:n] dist_data(ALIGN(loop))) dist_schedule(target: SCHED_PROFILE_AUTO(BIG))
  for (int i = 0; i < n; ++i) y[i] += 1;
// CHECK: loop lt 0 auto profile 1024\n

  // Shifts bind looser than '+' and '*', as in C; '>>' shifts right.
#pragma omp target teams distribute parallel for device(*) map(tofrom: y[0:n] dist_data(ALIGN(loop))) dist_schedule(target: SCHED_DYNAMIC(1 << 2 + 1))
  for (int i = 0; i < n; ++i) y[i] += 1;
// CHECK: loop lt 0 auto dynamic 8\n
#pragma omp target teams distribute parallel for device(*) map(tofrom: y[0:n] dist_data(ALIGN(loop))) dist_schedule(target: MODEL_PROFILE_AUTO(4096u >> 3 * 2))
  for (int i = 0; i < n; ++i) y[i] += 1;
// CHECK: loop lt 0 auto modelprofile 64\n

  // Unsigned arithmetic whose result is in range is C's too: '2u - 1',
  // '0xFFFFFFFF' (an unsigned int) and '1ul << 40' (64 bits).
#pragma omp target teams distribute parallel for device(*) map(tofrom: y[0:n] dist_data(ALIGN(loop))) dist_schedule(target: SCHED_DYNAMIC(2u - 1))
  for (int i = 0; i < n; ++i) y[i] += 1;
// CHECK: loop lt 0 auto dynamic 1\n
#pragma omp target teams distribute parallel for device(*) map(tofrom: y[0:n] dist_data(ALIGN(loop))) dist_schedule(target: SCHED_DYNAMIC(0xFFFFFFFF / 0xFFFF))
  for (int i = 0; i < n; ++i) y[i] += 1;
// CHECK: loop lt 0 auto dynamic 65537\n
#pragma omp target teams distribute parallel for device(*) map(tofrom: y[0:n] dist_data(ALIGN(loop))) dist_schedule(target: SCHED_DYNAMIC(1ul << 40))
  for (int i = 0; i < n; ++i) y[i] += 1;
// CHECK: loop lt 0 auto dynamic 1099511627776\n

  // A percentage may be such an expression too, and so may a cutoff's.
#pragma omp target teams distribute parallel for device(*) map(tofrom: y[0:n] dist_data(ALIGN(loop))) dist_schedule(target: SCHED_PROFILE_AUTO(SAMPLE%)) cutoff((3 * 5)%)
  for (int i = 0; i < n; ++i) y[i] += 1;
// CHECK: loop lt 0 auto profile 10%\n
// CHECK: cutoff 0.1499
#pragma omp target teams distribute parallel for device(*) map(tofrom: y[0:n] dist_data(ALIGN(loop))) dist_schedule(target: SCHED_GUIDED((1 << 1)%))
  for (int i = 0; i < n; ++i) y[i] += 1;
// CHECK: loop lt 0 auto guided 2%\n
}
