// Extensions homp does not implement yet are clang errors at the offending
// token, and the directive is dropped so nothing else is reported.
// RUN: %clang_cc1_homp -fsyntax-only -fpass-plugin=%homp_pass -verify %s

void f(double *u, int n, double (*m)[8]) {
  // expected-error@+1 {{homp: 'halo' in a map clause is not supported yet}}
#pragma omp target map(tofrom: u[0:n] halo(1,))
  for (int i = 0; i < n; ++i)
    u[i] += 1;

  // expected-error@+1 {{homp: 'halo_exchange' is not supported yet}}
#pragma omp halo_exchange(u)

  // expected-error@+1 {{homp: 'halo_update' is not supported yet}}
#pragma omp halo_update leftright(u)

  // expected-error@+1 {{homp: the 'topology' clause is not supported yet}}
#pragma omp target topology([2][2]) map(tofrom: u[0:n])
  for (int i = 0; i < n; ++i)
    u[i] += 1;

  // expected-error@+1 {{homp: the 'cutoff' clause is not supported yet}}
#pragma omp target teams distribute parallel for cutoff(0.1) map(tofrom: u[0:n])
  for (int i = 0; i < n; ++i)
    u[i] += 1;

  // expected-error@+1 {{homp: 'dist_schedule(teams: ...)' is not supported yet}}
#pragma omp target teams distribute dist_schedule(teams: static, 4) map(tofrom: u[0:n])
  for (int i = 0; i < n; ++i)
    u[i] += 1;

  // expected-error@+1 {{homp: selecting devices by type is not supported yet}}
#pragma omp target device(*:HOMP_DEVICE_NVGPU) map(tofrom: u[0:n] dist_data(BLOCK))
  for (int i = 0; i < n; ++i)
    u[i] += 1;

  // expected-error@+1 {{homp: selecting devices by type is not supported yet}}
#pragma omp target device(0:10 & OMP_DEVICE_NVGPU) map(tofrom: u[0:n] dist_data(BLOCK))
  for (int i = 0; i < n; ++i)
    u[i] += 1;

  // expected-error@+1 {{homp: BLOCK(n) is not supported yet}}
#pragma omp target device(*) map(tofrom: u[0:n] dist_data(BLOCK(4)))
  for (int i = 0; i < n; ++i)
    u[i] += 1;

  // expected-error@+1 {{homp: 'CYCLIC' is not supported yet}}
#pragma omp target device(*) map(tofrom: u[0:n] dist_data(CYCLIC))
  for (int i = 0; i < n; ++i)
    u[i] += 1;

  // expected-error@+1 {{homp: AUTO is not supported yet}}
#pragma omp target teams distribute parallel for device(*) map(tofrom: u[0:n] partition([ALIGN(loop)])) dist_schedule(target: [AUTO])
  for (int i = 0; i < n; ++i)
    u[i] += 1;

  // expected-error@+1 {{homp: 'SCHED_DYNAMIC' is not supported yet}}
#pragma omp target teams distribute parallel for device(*) map(tofrom: u[0:n] dist_data(BLOCK)) dist_schedule(target: SCHED_DYNAMIC)
  for (int i = 0; i < n; ++i)
    u[i] += 1;

  // expected-error@+1 {{homp: an ALIGN ratio is not supported yet}}
#pragma omp target device(*) map(tofrom: u[0:n] dist_data(ALIGN(loop, 2)))
  for (int i = 0; i < n; ++i)
    u[i] += 1;

  // expected-error@+1 {{homp: distributing more than one dimension of an array is not supported yet}}
#pragma omp target device(*) map(tofrom: m[0:n][0:8] dist_data(BLOCK, BLOCK))
  for (int i = 0; i < n; ++i)
    m[i][0] += 1;

  // expected-error@+1 {{homp: distributing a multi-dimensional array section is not supported yet}}
#pragma omp target device(*) map(tofrom: m[0:n][0:8] dist_data(BLOCK))
  for (int i = 0; i < n; ++i)
    m[i][0] += 1;

  // expected-error@+1 {{homp: distributed data on 'target data', 'target enter data', 'target exit data' and 'target update' is not supported yet}}
#pragma omp target data device(*) map(tofrom: u[0:n] dist_data(BLOCK))
  {
  }

  // expected-error@+1 {{homp: distributed data on 'target data', 'target enter data', 'target exit data' and 'target update' is not supported yet}}
#pragma omp target enter data device(*) map(to: u[0:n] dist_data(BLOCK))
}
