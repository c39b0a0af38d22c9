// A homp pragma whose parentheses do not balance, or with a stray token
// where a clause belongs, is one clang error at the place it breaks (and a
// note at the '(' left open), as for clang's own clauses; never a cascade
// about the extensions clang does not know ("call to undeclared function
// 'dist_data'"). The same inside a region, and for halo directives.
// RUN: %clang_cc1_homp -fsyntax-only -fpass-plugin=%homp_pass -verify %s
// RUN: not %clang_cc1_homp -fsyntax-only -fpass-plugin=%homp_pass %s 2>&1 | FileCheck %s

void f(double *x, double *y, int n) {
  // The map clause's '(' is left open: the error is at the end of the line.
  // CHECK: unbalanced-pragmas.c:[[# @LINE + 2]]:65: error: expected ')'
  // CHECK: unbalanced-pragmas.c:[[# @LINE + 1]]:33: note: to match this '('
#pragma omp target device(*) map(tofrom: y[0:n] dist_data(BLOCK) // expected-error {{expected ')'}} expected-note {{to match this '('}}
#pragma omp parallel for
  for (int i = 0; i < n; ++i) y[i] += 1;

  // The device clause's.
  // CHECK: unbalanced-pragmas.c:[[# @LINE + 1]]:26: note: to match this '('
#pragma omp target device(* map(tofrom: y[0:n] dist_data(BLOCK)) // expected-error {{expected ')'}} expected-note {{to match this '('}}
  for (int i = 0; i < n; ++i) y[i] += 1;

  // One ')' too many.
  // CHECK: unbalanced-pragmas.c:[[# @LINE + 1]]:66: error: homp: expected a clause in this directive, not ')'
#pragma omp target device(*) map(tofrom: y[0:n] dist_data(BLOCK))) // expected-error {{homp: expected a clause in this directive, not ')'}}
  for (int i = 0; i < n; ++i) y[i] += 1;

  // The construct's topology clause.
#pragma omp target device(*) topology([2][2] map(tofrom: y[0:n] dist_data(BLOCK)) // expected-error {{expected ')'}} expected-note {{to match this '('}}
  for (int i = 0; i < n; ++i) y[i] += 1;

  // A number where a clause belongs.
#pragma omp target device(*) 2 map(tofrom: y[0:n] dist_data(BLOCK)) // expected-error {{homp: expected a clause in this directive, not '2'}}
  for (int i = 0; i < n; ++i) y[i] += 1;

  // Inside a region: the loop directive's dist_schedule.
#pragma omp parallel target device(*) map(tofrom: y[0:n] partition([ALIGN(loop)]))
  {
#pragma omp parallel for distribute dist_schedule(target: [BLOCK] // expected-error {{expected ')'}} expected-note {{to match this '('}}
    for (int i = 0; i < n; ++i) y[i] += 1;
  }

  // Halo directives.
#pragma omp target data device(*) map(tofrom: y[0:n] dist_data(BLOCK) halo(1))
  {
#pragma omp halo_exchange(y // expected-error {{expected ')'}} expected-note {{to match this '('}}
#pragma omp halo_update left-right(y[*] // expected-error {{expected ')'}} expected-note {{to match this '('}}
  }

  // A standard pragma keeps clang's own diagnostics.
#pragma omp parallel for reduction(+: x[0] // expected-error {{expected ')'}} expected-note {{to match this '('}}
  for (int i = 0; i < n; ++i) x[0] += y[i];

  // After all this, a well-formed region still compiles.
#pragma omp target device(*) map(tofrom: y[0:n] dist_data(BLOCK))
#pragma omp parallel for
  for (int i = 0; i < n; ++i) y[i] += 1;
}
