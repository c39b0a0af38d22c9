// Every diagnostic of a distributed region, at the offending token.
// RUN: %clang_cc1_homp -fsyntax-only -fpass-plugin=%homp_pass -verify %s

struct S { double *y; };
int myop(int, int);

void f(double *x, double *y, int n, struct S s, int *idx) {
  // expected-error@+1 {{homp: malformed device specifier; expected '*', 'id', 'id:count', 'id:*', ':count' or 'host'}}
#pragma omp target device(*:2) map(tofrom: y[0:n] dist_data(BLOCK))
  for (int i = 0; i < n; ++i) y[i] = 0;

  // expected-error@+1 {{homp: malformed device specifier}}
#pragma omp target device(0, , 1) map(tofrom: y[0:n] dist_data(BLOCK))
  for (int i = 0; i < n; ++i) y[i] = 0;

  // expected-error@+1 {{homp: expected a distribution policy (BLOCK, BLOCK(n), CYCLIC, CYCLIC(n), DUPLICATE, FULL, ALIGN)}}
#pragma omp target device(*) map(tofrom: y[0:n] dist_data(3))
  for (int i = 0; i < n; ++i) y[i] = 0;

  // expected-error@+1 {{homp: unknown distribution policy 'BLOKC'; expected BLOCK, CYCLIC, DUPLICATE, FULL, ALIGN, AUTO or a scheduler kind (SCHED_STATIC, SCHED_DYNAMIC, SCHED_GUIDED, MODEL_1_AUTO, MODEL_2_AUTO, SCHED_PROFILE_AUTO, MODEL_PROFILE_AUTO)}}
#pragma omp target device(*) map(tofrom: y[0:n] dist_data(BLOKC))
  for (int i = 0; i < n; ++i) y[i] = 0;

  // expected-error@+1 {{homp: 'AUTO' distributes loop iterations, not data; use ALIGN(loop) to give an array the loop's distribution}}
#pragma omp target device(*) map(tofrom: y[0:n] partition([AUTO]))
  for (int i = 0; i < n; ++i) y[i] = 0;

  // expected-error@+1 {{homp: 'DUPLICATE' distributes data, not loop iterations}}
#pragma omp target teams distribute parallel for device(*) map(tofrom: y[0:n] dist_data(BLOCK)) dist_iteration(DUPLICATE)
  for (int i = 0; i < n; ++i) y[i] = 0;

  // expected-error@+1 {{homp: distributing 's.y[0:n]' (members and expressions; distribute a variable) is not supported yet}}
#pragma omp target device(*) map(tofrom: s.y[0:n] dist_data(BLOCK))
  for (int i = 0; i < n; ++i) s.y[i] = 0;

  // expected-error@+1 {{homp: only arrays and array sections can be distributed, and '*y' is neither}}
#pragma omp target device(*) map(tofrom: *y dist_data(BLOCK))
  for (int i = 0; i < n; ++i) y[i] = 0;

  // expected-error@+1 {{homp: ALIGN(z) names neither a distributed array of this region nor its loop}}
#pragma omp target device(*) map(tofrom: y[0:n] dist_data(ALIGN(z)))
  for (int i = 0; i < n; ++i) y[i] = 0;

  // expected-error@+1 {{homp: the distribution of 'y' is aligned, through ALIGN, with itself}}
#pragma omp target device(*) map(tofrom: y[0:n] dist_data(ALIGN(x)), x[0:n] dist_data(ALIGN(y)))
  for (int i = 0; i < n; ++i) y[i] = x[i];

  // expected-error@+1 {{homp: the distribution of 'the loop' is aligned, through ALIGN, with itself}}
#pragma omp target teams distribute parallel for device(*) map(tofrom: y[0:n] dist_data(ALIGN(loop))) dist_schedule(target: ALIGN(y))
  for (int i = 0; i < n; ++i) y[i] = 0;

  // expected-error@+1 {{homp: the loop's distribution is given twice ('dist_iteration' and 'dist_schedule(target: ...)')}}
#pragma omp target teams distribute parallel for device(*) map(tofrom: y[0:n] dist_data(BLOCK)) dist_iteration(BLOCK) dist_schedule(target: BLOCK)
  for (int i = 0; i < n; ++i) y[i] = 0;

  // A 'teams' directive of its own between the target and the loop
  // directive is OpenMP's; homp's clauses do not go on it.
#pragma omp target device(*) map(tofrom: y[0:n] dist_data(BLOCK))
  // expected-error@+1 {{homp: 'dist_iteration' cannot be a clause of the 'teams' directive of a distributed region: homp's clauses go on the target or the loop directive}}
#pragma omp teams dist_iteration(BLOCK)
#pragma omp distribute parallel for
  for (int i = 0; i < n; ++i) y[i] = 0;

  // Its reductions are the loop's: homp combines those across devices.
  double c = 0, tr = 0;
#pragma omp target device(*) map(tofrom: y[0:n] dist_data(BLOCK))
  // expected-error@+1 {{homp: the teams reduce 'c', which the loop directive does not: add it to the loop's reduction (its threads would race on it), where homp combines it across devices}}
#pragma omp teams reduction(+: tr, c)
#pragma omp distribute parallel for reduction(+: tr)
  for (int i = 0; i < n; ++i) tr += y[i], c += 1;

  // One operator per variable: homp combines it across devices with one.
#pragma omp target device(*) map(tofrom: y[0:n] dist_data(BLOCK))
  // expected-error@+1 {{homp: 'tr' is reduced with another operator on the region's other directive: homp combines it across devices with one}}
#pragma omp teams reduction(+: tr)
#pragma omp distribute parallel for reduction(max: tr)
  for (int i = 0; i < n; ++i) tr = y[i] > tr ? y[i] : tr;
  // expected-error@+1 {{homp: 'tr' is reduced with another operator on the region's other directive: homp combines it across devices with one}}
#pragma omp target teams device(*) map(tofrom: y[0:n] dist_data(BLOCK)) reduction(+: tr)
#pragma omp distribute parallel for reduction(max: tr)
  for (int i = 0; i < n; ++i) tr = y[i] > tr ? y[i] : tr;

  // expected-error@+1 {{homp: a multi-device 'target' region must contain exactly one loop to distribute and nothing else}}
#pragma omp target device(*) map(tofrom: y[0:n] dist_data(BLOCK))
#pragma omp teams
  { // expected-note {{unexpected statement in the region}}
    y[0] = 1;
  }

  // expected-error@+1 {{homp: a multi-device 'target' region must contain exactly one loop to distribute and nothing else}}
#pragma omp target device(*) map(tofrom: y[0:n] dist_data(BLOCK))
  {
    y[0] = 1; // expected-note {{unexpected statement in the region}}
  }

  // expected-error@+1 {{homp: a multi-device 'target' region must contain exactly one loop to distribute and nothing else}}
#pragma omp target device(*) map(tofrom: y[0:n] dist_data(BLOCK))
  {
#pragma omp parallel for
    for (int i = 0; i < n; ++i) y[i] = 0;
    y[0] = 1; // expected-note {{unexpected statement in the region}}
  }

  // expected-error@+2 {{homp: cannot distribute this loop: the loop increment must be ++, --, +=, -= or 'var = var +/- step' on 'i'}}
#pragma omp target teams distribute parallel for device(*) map(tofrom: y[0:n] dist_data(BLOCK))
  for (int i = 1; i < n; i *= 2) y[i] = 0;

  // expected-error@+2 {{homp: cannot distribute this loop: the loop test must compare 'i' with <, <=, >, >= or !=}}
#pragma omp target teams distribute parallel for device(*) map(tofrom: y[0:n] dist_data(BLOCK))
  for (int i = 0; i + 1 < n; ++i) y[i] = 0;

  // expected-error@+2 {{homp: cannot distribute this loop: pointer and reference loop variables are not supported in a distributed loop}}
#pragma omp target teams distribute parallel for device(*) map(tofrom: y[0:n] dist_data(BLOCK))
  for (double *p = y; p < y + n; ++p) *p = 0;

  // expected-error@+1 {{homp: 'dist_iteration' is only allowed on a loop in a multi-device 'target' region}}
#pragma omp parallel for dist_iteration(BLOCK)
  for (int i = 0; i < n; ++i) y[i] = 0;

  // expected-error@+1 {{homp: 'dist_schedule(target: ...)' is only allowed on a loop in a multi-device 'target' region}}
#pragma omp parallel for dist_schedule(target: BLOCK)
  for (int i = 0; i < n; ++i) y[i] = 0;

  // expected-error@+1 {{homp: 'distribute' over devices is only allowed on a loop in a multi-device 'target' region}}
#pragma omp parallel for distribute
  for (int i = 0; i < n; ++i) y[i] = 0;

  // expected-error@+1 {{homp: 'dist_iteration' is only allowed on a loop in a multi-device 'target' region}}
#pragma omp target device(*) map(tofrom: y[0:n] dist_data(BLOCK)) dist_iteration(BLOCK)
#pragma omp parallel for
  for (int i = 0; i < n; ++i) y[i] = 0;

  int s1 = 0;
  // expected-error@+1 {{homp: the reduction 'myop' cannot be combined across devices; use a built-in operator (+ * - & | ^ && || max min)}}
#pragma omp target teams distribute parallel for device(*) map(to: y[0:n] dist_data(BLOCK)) reduction(myop: s1)
  for (int i = 0; i < n; ++i) s1 += y[i];

  int hist[4] = {0};
  // expected-error@+1 {{homp: only scalar variables can be reduced across devices, not 'hist[0:4]'}}
#pragma omp target teams distribute parallel for device(*) map(to: y[0:n] dist_data(BLOCK)) reduction(+: hist[0:4])
  for (int i = 0; i < n; ++i) hist[i % 4] += 1;

  // expected-warning@+3 {{homp: homp cannot bound which elements of 'y' this loop uses (subscript 'idx[i]' is not 'i' plus or minus constants, inner loops' variables and variables the loop does not change); the loop writes it, so it runs on one device}}
#pragma omp target teams distribute parallel for device(*) map(tofrom: y[0:n] dist_data(BLOCK)) map(to: idx[0:n])
  for (int i = 0; i < n; ++i)
    y[idx[i]] = 0;

  // expected-warning@+3 {{homp: homp cannot bound which elements of 'y' this loop uses (it is used without a subscript); the loop writes it, so it runs on one device}}
#pragma omp target teams distribute parallel for device(*) map(tofrom: y[0:n] dist_data(BLOCK))
  for (int i = 0; i < n; ++i)
    *(y + i) = 0;

  // Every device holds all of an array with 'halo(*)': reads of it need no
  // bound (x[j] beside x[i]), writes do (they must stay in the owned part).
#pragma omp target data device(*) map(tofrom: y[0:n] dist_data(BLOCK) halo(*))
  {
#pragma omp target teams distribute parallel for device(*) reduction(+: s1)
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j)
        s1 += y[j] - y[i];
    // expected-warning@+3 {{homp: homp cannot bound which elements of 'y' this loop uses (subscript 'idx[i]' is not 'i' plus or minus constants, inner loops' variables and variables the loop does not change); the loop runs on the host, with 'y' gathered there from the devices}}
#pragma omp target teams distribute parallel for device(*) map(to: idx[0:n])
    for (int i = 0; i < n; ++i)
      y[idx[i]] = y[i];
  }

  // expected-error@+1 {{homp: 'parallel teams' is not a known directive; write 'parallel target' or 'parallel for target'}}
#pragma omp parallel teams target device(*) map(tofrom: y[0:n] dist_data(BLOCK))
  for (int i = 0; i < n; ++i) y[i] = 0;

  // A misspelled clause: clang would warn and drop it and the reduction.
  double t = 0;
  // expected-error@+2 {{homp: unknown clause 'dist_iteraton' in a loop directive of a distributed region (clang would ignore it and every clause after it)}}
#pragma omp target device(*) map(tofrom: y[0:n] dist_data(BLOCK))
#pragma omp parallel for dist_iteraton(BLOCK) reduction(+: t)
  for (int i = 0; i < n; ++i)
    t += y[i];

#pragma omp target device(*) map(tofrom: y[0:n] dist_data(BLOCK))
} // expected-error {{homp: expected a complete statement after the directive}}
