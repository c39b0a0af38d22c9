// The scheduler kinds of HOMP'16 (SPEC.md section 3) and 'cutoff': what is
// accepted, and every malformed form as an error at the offending token.
// RUN: %clang_cc1_homp -fsyntax-only -fpass-plugin=%homp_pass -verify %s

#define CHUNK 64

void ok(double *y, int n) {
#pragma omp target teams distribute parallel for device(*) map(tofrom: y[0:n] dist_data(ALIGN(loop))) dist_schedule(target: SCHED_DYNAMIC(2%))
  for (int i = 0; i < n; ++i) y[i] += 1;
#pragma omp target teams distribute parallel for device(*) map(tofrom: y[0:n] dist_data(ALIGN(loop))) dist_schedule(target: SCHED_GUIDED(CHUNK * 2))
  for (int i = 0; i < n; ++i) y[i] += 1;
#pragma omp target teams distribute parallel for device(*) map(tofrom: y[0:n] dist_data(ALIGN(loop))) dist_schedule(target: SCHED_DYNAMIC(64u))
  for (int i = 0; i < n; ++i) y[i] += 1;
#pragma omp target teams distribute parallel for device(*) map(tofrom: y[0:n] dist_data(ALIGN(loop))) dist_schedule(target: SCHED_GUIDED((1<<10)))
  for (int i = 0; i < n; ++i) y[i] += 1;
#pragma omp target teams distribute parallel for device(*) map(tofrom: y[0:n] dist_data(ALIGN(loop))) dist_schedule(target: SCHED_PROFILE_AUTO(0.5%)) cutoff(15%)
  for (int i = 0; i < n; ++i) y[i] += 1;
#pragma omp target teams distribute parallel for device(*) map(tofrom: y[0:n] dist_data(ALIGN(loop))) dist_schedule(target: MODEL_PROFILE_AUTO(100%)) cutoff(auto)
  for (int i = 0; i < n; ++i) y[i] += 1;
#pragma omp target teams distribute parallel for device(*) map(tofrom: y[0:n] dist_data(ALIGN(loop))) dist_schedule(target: MODEL_1_AUTO) cutoff(0.15)
  for (int i = 0; i < n; ++i) y[i] += 1;
#pragma omp target teams distribute parallel for device(*) map(tofrom: y[0:n] dist_data(ALIGN(loop))) dist_schedule(target: MODEL_2_AUTO) cutoff(0)
  for (int i = 0; i < n; ++i) y[i] += 1;
#pragma omp target teams distribute parallel for device(*) map(tofrom: y[0:n] dist_data(ALIGN(loop))) dist_schedule(target: SCHED_STATIC)
  for (int i = 0; i < n; ++i) y[i] += 1;
#pragma omp parallel target device(*) map(tofrom: y[0:n] dist_data(ALIGN(loop1)))
#pragma omp parallel for distribute dist_schedule(target: AUTO) cutoff(1/4)
  loop1: for (int i = 0; i < n; ++i) y[i] += 1;
}

void bad(double *y, int n) {
  // expected-error@+1 {{homp: the chunk size of SCHED_DYNAMIC must be a positive integer number of iterations or a percentage in (0, 100], such as 2%, written with literals (64, 8 * 8): homp reads it before names have values}}
#pragma omp target teams distribute parallel for device(*) map(tofrom: y[0:n] dist_data(ALIGN(loop))) dist_schedule(target: SCHED_DYNAMIC(0))
  for (int i = 0; i < n; ++i) y[i] += 1;

  // expected-error@+1 {{homp: the chunk size of SCHED_GUIDED must be a positive integer}}
#pragma omp target teams distribute parallel for device(*) map(tofrom: y[0:n] dist_data(ALIGN(loop))) dist_schedule(target: SCHED_GUIDED(-4))
  for (int i = 0; i < n; ++i) y[i] += 1;

  // expected-error@+1 {{homp: the sample size of SCHED_PROFILE_AUTO must be a positive integer}}
#pragma omp target teams distribute parallel for device(*) map(tofrom: y[0:n] dist_data(ALIGN(loop))) dist_schedule(target: SCHED_PROFILE_AUTO(120%))
  for (int i = 0; i < n; ++i) y[i] += 1;

  // A percentage of an expression is checked the same way.
  // expected-error@+1 {{homp: the sample size of SCHED_PROFILE_AUTO must be a positive integer}}
#pragma omp target teams distribute parallel for device(*) map(tofrom: y[0:n] dist_data(ALIGN(loop))) dist_schedule(target: SCHED_PROFILE_AUTO((60 * 2)%))
  for (int i = 0; i < n; ++i) y[i] += 1;
  // expected-error@+1 {{homp: the chunk size of SCHED_DYNAMIC must be}}
#pragma omp target teams distribute parallel for device(*) map(tofrom: y[0:n] dist_data(ALIGN(loop))) dist_schedule(target: SCHED_DYNAMIC((0u - 1)%))
  for (int i = 0; i < n; ++i) y[i] += 1;
  // expected-error@+1 {{homp: the chunk size of SCHED_DYNAMIC must be}}
#pragma omp target teams distribute parallel for device(*) map(tofrom: y[0:n] dist_data(ALIGN(loop))) dist_schedule(target: SCHED_DYNAMIC((n)%))
  for (int i = 0; i < n; ++i) y[i] += 1;

  // expected-error@+1 {{homp: the sample size of MODEL_PROFILE_AUTO must be a positive integer}}
#pragma omp target teams distribute parallel for device(*) map(tofrom: y[0:n] dist_data(ALIGN(loop))) dist_schedule(target: MODEL_PROFILE_AUTO(n))
  for (int i = 0; i < n; ++i) y[i] += 1;

  // expected-error@+1 {{homp: the chunk size of SCHED_DYNAMIC must be}}
#pragma omp target teams distribute parallel for device(*) map(tofrom: y[0:n] dist_data(ALIGN(loop))) dist_schedule(target: SCHED_DYNAMIC())
  for (int i = 0; i < n; ++i) y[i] += 1;

  // Sizes are folded with C's types (chunk-size-constants.c): an unsigned
  // result C would wrap to a huge number ('0u - 1', '-1u', '4294967295u + 1',
  // '0x80000000 * 2', whose literal is an unsigned int) is refused, as are a
  // shift by a negative count or by the type's width or more ('1u << 32' on
  // a 32-bit unsigned int, '1 << 63') and one that overflows.
#define ZERO 0u
  // expected-error@+1 {{homp: the chunk size of SCHED_DYNAMIC must be}}
#pragma omp target teams distribute parallel for device(*) map(tofrom: y[0:n] dist_data(ALIGN(loop))) dist_schedule(target: SCHED_DYNAMIC(0u - 1))
  for (int i = 0; i < n; ++i) y[i] += 1;
  // expected-error@+1 {{homp: the chunk size of SCHED_GUIDED must be}}
#pragma omp target teams distribute parallel for device(*) map(tofrom: y[0:n] dist_data(ALIGN(loop))) dist_schedule(target: SCHED_GUIDED(1u - 2))
  for (int i = 0; i < n; ++i) y[i] += 1;
  // expected-error@+1 {{homp: the sample size of SCHED_PROFILE_AUTO must be}}
#pragma omp target teams distribute parallel for device(*) map(tofrom: y[0:n] dist_data(ALIGN(loop))) dist_schedule(target: SCHED_PROFILE_AUTO(ZERO - 1))
  for (int i = 0; i < n; ++i) y[i] += 1;
  // expected-error@+1 {{homp: the chunk size of SCHED_DYNAMIC must be}}
#pragma omp target teams distribute parallel for device(*) map(tofrom: y[0:n] dist_data(ALIGN(loop))) dist_schedule(target: SCHED_DYNAMIC(-1u))
  for (int i = 0; i < n; ++i) y[i] += 1;
  // expected-error@+1 {{homp: the chunk size of SCHED_DYNAMIC must be}}
#pragma omp target teams distribute parallel for device(*) map(tofrom: y[0:n] dist_data(ALIGN(loop))) dist_schedule(target: SCHED_DYNAMIC(4294967295u + 1))
  for (int i = 0; i < n; ++i) y[i] += 1;
  // expected-error@+1 {{homp: the chunk size of SCHED_DYNAMIC must be}}
#pragma omp target teams distribute parallel for device(*) map(tofrom: y[0:n] dist_data(ALIGN(loop))) dist_schedule(target: SCHED_DYNAMIC(0x80000000 * 2))
  for (int i = 0; i < n; ++i) y[i] += 1;
  // expected-error@+1 {{homp: the chunk size of SCHED_DYNAMIC must be}}
#pragma omp target teams distribute parallel for device(*) map(tofrom: y[0:n] dist_data(ALIGN(loop))) dist_schedule(target: SCHED_DYNAMIC(64 << -1))
  for (int i = 0; i < n; ++i) y[i] += 1;
  // expected-error@+1 {{homp: the chunk size of SCHED_DYNAMIC must be}}
#pragma omp target teams distribute parallel for device(*) map(tofrom: y[0:n] dist_data(ALIGN(loop))) dist_schedule(target: SCHED_DYNAMIC(1u << 32))
  for (int i = 0; i < n; ++i) y[i] += 1;
  // expected-error@+1 {{homp: the chunk size of SCHED_DYNAMIC must be}}
#pragma omp target teams distribute parallel for device(*) map(tofrom: y[0:n] dist_data(ALIGN(loop))) dist_schedule(target: SCHED_DYNAMIC(3u << 31))
  for (int i = 0; i < n; ++i) y[i] += 1;
  // expected-error@+1 {{homp: the chunk size of SCHED_DYNAMIC must be}}
#pragma omp target teams distribute parallel for device(*) map(tofrom: y[0:n] dist_data(ALIGN(loop))) dist_schedule(target: SCHED_DYNAMIC(1 << 63))
  for (int i = 0; i < n; ++i) y[i] += 1;
  // expected-error@+1 {{homp: the chunk size of SCHED_DYNAMIC must be}}
#pragma omp target teams distribute parallel for device(*) map(tofrom: y[0:n] dist_data(ALIGN(loop))) dist_schedule(target: SCHED_DYNAMIC((1L << 62) << 2))
  for (int i = 0; i < n; ++i) y[i] += 1;
  // expected-error@+1 {{homp: the chunk size of SCHED_DYNAMIC must be}}
#pragma omp target teams distribute parallel for device(*) map(tofrom: y[0:n] dist_data(ALIGN(loop))) dist_schedule(target: SCHED_DYNAMIC(-64 >> 1))
  for (int i = 0; i < n; ++i) y[i] += 1;

  // expected-error@+1 {{homp: too many arguments to SCHED_DYNAMIC; expected one, the chunk or sample size}}
#pragma omp target teams distribute parallel for device(*) map(tofrom: y[0:n] dist_data(ALIGN(loop))) dist_schedule(target: SCHED_DYNAMIC(2, 4))
  for (int i = 0; i < n; ++i) y[i] += 1;

  // expected-error@+1 {{homp: too many arguments to MODEL_1_AUTO; expected none}}
#pragma omp target teams distribute parallel for device(*) map(tofrom: y[0:n] dist_data(ALIGN(loop))) dist_schedule(target: MODEL_1_AUTO(5))
  for (int i = 0; i < n; ++i) y[i] += 1;

  // expected-error@+1 {{homp: too many arguments to AUTO; expected none}}
#pragma omp target teams distribute parallel for device(*) map(tofrom: y[0:n] dist_data(ALIGN(loop))) dist_schedule(target: AUTO(5))
  for (int i = 0; i < n; ++i) y[i] += 1;

  // expected-error@+1 {{homp: 'SCHED_DYNAMIC' distributes loop iterations, not data}}
#pragma omp target device(*) map(tofrom: y[0:n] dist_data(SCHED_DYNAMIC))
  for (int i = 0; i < n; ++i) y[i] += 1;

  // expected-error@+1 {{homp: unknown distribution policy 'SCHED_DYNAMICS'}}
#pragma omp target teams distribute parallel for device(*) map(tofrom: y[0:n] dist_data(ALIGN(loop))) dist_schedule(target: SCHED_DYNAMICS)
  for (int i = 0; i < n; ++i) y[i] += 1;

  // expected-error@+1 {{homp: malformed cutoff; expected a ratio in [0, 1), a percentage below 100% or 'auto'}}
#pragma omp target teams distribute parallel for device(*) map(tofrom: y[0:n] dist_data(ALIGN(loop))) dist_schedule(target: AUTO) cutoff(1.5)
  for (int i = 0; i < n; ++i) y[i] += 1;

  // expected-error@+1 {{homp: malformed cutoff}}
#pragma omp target teams distribute parallel for device(*) map(tofrom: y[0:n] dist_data(ALIGN(loop))) dist_schedule(target: AUTO) cutoff(100%)
  for (int i = 0; i < n; ++i) y[i] += 1;

  // expected-error@+1 {{homp: malformed cutoff}}
#pragma omp target teams distribute parallel for device(*) map(tofrom: y[0:n] dist_data(ALIGN(loop))) dist_schedule(target: AUTO) cutoff(-0.1)
  for (int i = 0; i < n; ++i) y[i] += 1;

  // expected-error@+1 {{homp: malformed cutoff}}
#pragma omp target teams distribute parallel for device(*) map(tofrom: y[0:n] dist_data(ALIGN(loop))) dist_schedule(target: AUTO) cutoff(fast)
  for (int i = 0; i < n; ++i) y[i] = 0;

  // A number as HOMP_CUTOFF reads it is accepted ('1e-1', '5e0%'); out of
  // range it is not.
#pragma omp target teams distribute parallel for device(*) map(tofrom: y[0:n] dist_data(ALIGN(loop))) dist_schedule(target: AUTO) cutoff(1e-1)
  for (int i = 0; i < n; ++i) y[i] = 0;
#pragma omp target teams distribute parallel for device(*) map(tofrom: y[0:n] dist_data(ALIGN(loop))) dist_schedule(target: AUTO) cutoff(5e0%)
  for (int i = 0; i < n; ++i) y[i] = 0;
  // expected-error@+1 {{homp: malformed cutoff}}
#pragma omp target teams distribute parallel for device(*) map(tofrom: y[0:n] dist_data(ALIGN(loop))) dist_schedule(target: AUTO) cutoff(2e0)
  for (int i = 0; i < n; ++i) y[i] = 0;

  // Twice on the loop directive of the split form.
#pragma omp parallel target device(*) map(tofrom: y[0:n] partition([ALIGN(loop)]))
  // expected-error@+1 {{homp: the 'cutoff' clause is given twice}}
#pragma omp parallel for distribute dist_schedule(target: [MODEL_1_AUTO]) cutoff(0.2) cutoff(0.3)
  for (int i = 0; i < n; ++i) y[i] += 1;

  // expected-error@+1 {{homp: the 'cutoff' clause is given twice}}
#pragma omp target teams distribute parallel for device(*) map(tofrom: y[0:n] dist_data(ALIGN(loop))) dist_schedule(target: AUTO) cutoff(0.1) cutoff(0.2)
  for (int i = 0; i < n; ++i) y[i] += 1;

  // expected-error@+1 {{homp: 'cutoff' applies to AUTO and the model and profile scheduler kinds, not to SCHED_DYNAMIC}}
#pragma omp target teams distribute parallel for device(*) map(tofrom: y[0:n] dist_data(ALIGN(loop))) dist_schedule(target: SCHED_DYNAMIC) cutoff(0.1)
  for (int i = 0; i < n; ++i) y[i] += 1;

  // expected-error@+1 {{homp: 'cutoff' applies to AUTO and the model and profile scheduler kinds, not to BLOCK}}
#pragma omp target teams distribute parallel for device(*) map(tofrom: y[0:n] dist_data(BLOCK)) cutoff(0.1)
  for (int i = 0; i < n; ++i) y[i] += 1;

  // expected-error@+1 {{homp: 'cutoff' is only allowed on a loop in a multi-device 'target' region}}
#pragma omp target data device(*) map(tofrom: y[0:n] dist_data(BLOCK)) cutoff(0.1)
  { }
}

// 'dist_schedule(teams: ...)' is the standard in-device 'dist_schedule': it
// needs OpenMP's 'teams distribute', and clang checks its kind.
void teams_schedules(double *y, int n) {
#pragma omp target teams distribute parallel for device(*) map(tofrom: y[0:n] dist_data(BLOCK)) dist_schedule(teams: static, 4)
  for (int i = 0; i < n; ++i) y[i] += 1;
  // expected-error@+2 {{homp: 'dist_schedule(teams: ...)' schedules the loop over the teams of each device; its directive needs 'teams distribute' (as in 'target teams distribute parallel for')}}
#pragma omp target device(*) map(tofrom: y[0:n] dist_data(BLOCK))
#pragma omp parallel for distribute dist_schedule(target: [BLOCK]) dist_schedule(teams: static, 2)
  for (int i = 0; i < n; ++i) y[i] += 1;
  // expected-error@+1 {{homp: 'dist_schedule(teams: ...)' schedules the loop over the teams of each device}}
#pragma omp target parallel for device(*) map(tofrom: y[0:n] dist_data(BLOCK)) dist_schedule(teams: static)
  for (int i = 0; i < n; ++i) y[i] += 1;
  // expected-error@+1 {{expected 'static' in OpenMP clause 'dist_schedule'}}
#pragma omp target teams distribute parallel for device(*) map(tofrom: y[0:n] dist_data(BLOCK)) dist_schedule(teams: dynamic)
  for (int i = 0; i < n; ++i) y[i] += 1;
}

// 'dist_schedule' of a distributed loop without its modifier, or with
// nothing after 'target:', is homp's error at the argument, not clang's
// "unexpected clause"; OpenMP's own 'dist_schedule(static)' stays clang's.
void schedule_modifiers(double *y, int n) {
#pragma omp target device(*) map(tofrom: y[0:n] dist_data(BLOCK))
  // expected-error@+1 {{homp: expected a loop policy after 'target:'}}
#pragma omp parallel for distribute dist_schedule(target:)
  for (int i = 0; i < n; ++i) y[i] += 1;
#pragma omp target device(*) map(tofrom: y[0:n] dist_data(BLOCK))
  // expected-error@+1 {{homp: 'dist_schedule' of a distributed loop starts with 'target:' (homp's policy, such as 'target: [AUTO]') or 'teams:' (OpenMP's schedule over a device's teams)}}
#pragma omp parallel for distribute dist_schedule(targets: [AUTO])
  for (int i = 0; i < n; ++i) y[i] += 1;
#pragma omp target device(*) map(tofrom: y[0:n] dist_data(BLOCK))
  // expected-error@+1 {{homp: 'dist_schedule' of a distributed loop starts with 'target:'}}
#pragma omp parallel for distribute dist_schedule(SCHED_DYNAMIC(4))
  for (int i = 0; i < n; ++i) y[i] += 1;
  // expected-error@+1 {{homp: 'dist_schedule' of a distributed loop starts with 'target:'}}
#pragma omp target teams distribute parallel for device(*) map(tofrom: y[0:n] dist_data(BLOCK)) dist_schedule(target AUTO)
  for (int i = 0; i < n; ++i) y[i] += 1;
#pragma omp target device(*) map(tofrom: y[0:n] dist_data(BLOCK))
  // expected-error@+1 {{homp: expected a distribution policy (BLOCK, BLOCK(n), CYCLIC, CYCLIC(n), FULL, ALIGN, AUTO or a scheduler kind: SCHED_STATIC, SCHED_DYNAMIC, SCHED_GUIDED, MODEL_1_AUTO, MODEL_2_AUTO, SCHED_PROFILE_AUTO, MODEL_PROFILE_AUTO)}}
#pragma omp parallel for distribute dist_schedule(target: [])
  for (int i = 0; i < n; ++i) y[i] += 1;
#pragma omp target teams distribute parallel for device(*) map(tofrom: y[0:n] dist_data(BLOCK)) dist_schedule(static, 4)
  for (int i = 0; i < n; ++i) y[i] += 1;
}
