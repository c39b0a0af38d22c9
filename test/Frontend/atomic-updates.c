// '#pragma omp atomic', or a 'critical' section, updating a variable the
// construct does not distribute: each device would update its own copy,
// and copies that agree were taken as one (a count of 250 for 1000 on 4
// devices, silently). A compile error at the variable, naming the
// reduction to use. Updates of distributed arrays, of the loop's reduction
// variables and of the body's own variables, and atomic reads, writes and
// captures are left alone.
// RUN: %clang_cc1_homp -fsyntax-only -fpass-plugin=%homp_pass -verify %s

void f(double *x, double *y, int *hist, int n) {
  int cnt = 0, v = 0;
#pragma omp target device(*) map(tofrom: y[0:n] dist_data(BLOCK), cnt)
#pragma omp parallel for
  for (int i = 0; i < n; ++i) {
    y[i] = i;
#pragma omp atomic
    // expected-error@+1 {{homp: 'cnt' is updated atomically by the iterations of every device, but each device updates its own copy and the copies are not combined: use a reduction on the loop ('reduction(+: cnt)' for a count or a sum, 'reduction(max: cnt)' for a maximum)}}
    cnt += 1;
  }

#pragma omp target device(*) map(tofrom: y[0:n] dist_data(BLOCK), cnt)
#pragma omp parallel for
  for (int i = 0; i < n; ++i) {
#pragma omp atomic update
    // expected-error@+1 {{homp: 'cnt' is updated atomically}}
    ++cnt;
  }

  double mx = 0;
#pragma omp target device(*) map(tofrom: y[0:n] dist_data(BLOCK), cnt, mx)
#pragma omp parallel for
  for (int i = 0; i < n; ++i) {
#pragma omp critical
    {
      // expected-error@+1 {{homp: 'mx' is updated in a critical section by the iterations of every device}}
      if (y[i] > mx) mx = y[i];
    }
  }
#pragma omp target device(*) map(tofrom: y[0:n] dist_data(BLOCK), cnt)
#pragma omp parallel for
  for (int i = 0; i < n; ++i)
#pragma omp critical(count)
    // expected-error@+1 {{homp: 'cnt' is updated in a critical section}}
    cnt++;

  // The else branch, and a member of a struct mapped back.
  struct { double acc; } st = {0};
#pragma omp target device(*) map(tofrom: y[0:n] dist_data(BLOCK), mx, st)
#pragma omp parallel for
  for (int i = 0; i < n; ++i) {
#pragma omp critical
    if (y[i] < 0)
      y[i] = 0;
    else
      // expected-error@+1 {{homp: 'mx' is updated in a critical section}}
      mx += 1;
  }
#pragma omp target device(*) map(tofrom: y[0:n] dist_data(BLOCK), mx, st)
#pragma omp parallel for
  for (int i = 0; i < n; ++i) {
#pragma omp critical
    // expected-error@+1 {{homp: 'st' is updated in a critical section}}
    st.acc += y[i];
  }

  // Fine: variables private to the loop or the construct, and one not
  // mapped back (its updates stay on the devices, as in OpenMP).
  int j, k = 0;
  double t0 = 0;
#pragma omp target device(*) map(tofrom: y[0:n] dist_data(BLOCK), cnt) firstprivate(t0)
#pragma omp parallel for private(j) firstprivate(k)
  for (int i = 0; i < n; ++i) {
#pragma omp critical
    for (j = 0; j < 3; ++j)
      y[i] += j + k++ + t0++;
  }
#pragma omp target device(*) map(tofrom: y[0:n] dist_data(BLOCK)) map(to: mx)
#pragma omp parallel for
  for (int i = 0; i < n; ++i) {
#pragma omp critical
    mx += y[i];
  }

  // Fine: a distributed array, a reduction variable, an atomic read, the
  // body's own variable in a critical section.
#pragma omp target device(*) map(tofrom: y[0:n] dist_data(BLOCK)) map(tofrom: cnt)
#pragma omp parallel for reduction(+: cnt)
  for (int i = 0; i < n; ++i) {
#pragma omp atomic
    y[i] += 1;
#pragma omp atomic
    cnt++;
    int w;
#pragma omp atomic read
    w = cnt;
    y[i] += w;
    double t = y[i];
#pragma omp critical
    {
      t += 1;
      y[i] = t;
      cnt += 2;
    }
  }
}
