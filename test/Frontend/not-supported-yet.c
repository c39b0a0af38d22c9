// Extensions homp does not implement yet are clang errors at the offending
// token, and the directive is dropped so nothing else is reported.
// RUN: %clang_cc1_homp -fsyntax-only -fpass-plugin=%homp_pass -verify %s

void f(double *u, int n, double (*m)[8],
       double (*q)[2][2][2][2][2][2][2][2]) {
  // PMAM'15 Table 3's first row: one array in two items.
  // expected-error@+1 {{homp: mapping 'u' twice in one construct with a distribution (distribute one section of it) is not supported yet}}
#pragma omp target device(0, 1) map(to: u[0:n/2] dist_data(DUPLICATE) topology(0, 1), u[n/2:n/2] dist_data(DUPLICATE) topology(1), n)
  for (int i = 0; i < n; ++i)
    u[i] += 1;

  // expected-error@+1 {{homp: mapping 'u' twice in one construct with a distribution}}
#pragma omp target data device(*) map(to: u[0:n/2]) map(tofrom: u[0:n] dist_data(BLOCK))
  {
  }
  // expected-error@+1 {{homp: distributing a nest of more than 3 collapsed loops is not supported yet}}
#pragma omp target teams distribute parallel for device(*) collapse(4) map(tofrom: m[0:n][0:8] dist_data(BLOCK))
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < 8; ++j)
      for (int k = 0; k < 2; ++k)
        for (int l = 0; l < 2; ++l)
          m[i][j] += 1;

  // expected-error@+1 {{homp: distributing arrays of more than 8 dimensions is not supported yet}}
#pragma omp target device(*) map(tofrom: q[0:n][0:2][0:2][0:2][0:2][0:2][0:2][0:2][0:2] dist_data(BLOCK))
  for (int i = 0; i < n; ++i)
    q[i][0][0][0][0][0][0][0][0] += 1;

  // expected-error@+1 {{homp: a topology of more than 3 dimensions is not supported yet}}
#pragma omp target device(*) topology([1][1][1][1]) map(tofrom: u[0:n] dist_data(BLOCK))
  for (int i = 0; i < n; ++i)
    u[i] += 1;

  // expected-error@+1 {{homp: 'use_device_ptr' on a data region over a device list (each device has its own address; use a standard 'target data device(d)' for one) is not supported yet}}
#pragma omp target data device(*) map(tofrom: u[0:n] dist_data(BLOCK)) use_device_ptr(u)
  { u[0] = 1; }

  // expected-error@+1 {{homp: 'use_device_addr' on a data region over a device list}}
#pragma omp target data device(*) map(tofrom: u[0:n] dist_data(BLOCK)) use_device_addr(u[0:n])
  { u[0] = 1; }

  // Clauses that need the iterations before a device's own, on the loop
  // directive and on a combined construct (each device's part would get
  // them wrong).
  int j = 0;
  double last = 0;
  // expected-error@+2 {{homp: 'linear' on a distributed loop (each device's part would start the variable from its initial value) is not supported yet}}
#pragma omp target device(*) map(tofrom: u[0:n] dist_data(BLOCK))
#pragma omp parallel for linear(j:2)
  for (int i = 0; i < n; ++i)
    u[i] = j;

  // expected-error@+1 {{homp: 'lastprivate' on a distributed loop (one device runs the last iteration; compute the value after the loop) is not supported yet}}
#pragma omp target teams distribute parallel for device(*) lastprivate(last) map(tofrom: u[0:n] dist_data(BLOCK))
  for (int i = 0; i < n; ++i)
    last = u[i];

  // 'ordered' as a clause, and as it reads without parentheses (a word of
  // the loop directive's name).
#pragma omp target device(*) map(tofrom: u[0:n] dist_data(BLOCK))
  // expected-error@+1 {{homp: 'ordered' on a distributed loop (the devices run their parts at the same time, so the iterations cannot run in order across them) is not supported yet}}
#pragma omp parallel for ordered dist_iteration(BLOCK)
  for (int i = 0; i < n; ++i) {
#pragma omp ordered
    u[i] = j++;
  }
#pragma omp target device(*) map(tofrom: u[0:n] dist_data(BLOCK))
  // expected-error@+1 {{homp: 'ordered' on a distributed loop}}
#pragma omp parallel for ordered(1)
  for (int i = 0; i < n; ++i) {
#pragma omp ordered
    u[i] = j++;
  }
}
