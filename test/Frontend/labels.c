// Labels between a homp directive and its statement, and on the loops and
// blocks inside a data region: the data region's block may be a labelled
// statement ('x: {'), which holds standard directives too. The plugin once
// read such directives' annotation tokens as identifiers
// (Token::getIdentifierInfo on an annotation: an assertion in clang's
// header, garbage in a release build), and crashed in the device compile.
// RUN: %clang_cc1_homp -fsyntax-only -fpass-plugin=%homp_pass -verify %s
// RUN: %clang_cc1_homp -fsyntax-only -fpass-plugin=%homp_pass -fopenmp-is-target-device -verify %s
// RUN: %clang_cc1_homp -fsyntax-only -fpass-plugin=%homp_pass -plugin-arg-homp print-regions %s 2>&1 | FileCheck %s
// expected-no-diagnostics

void blocks(double *a, int n) {
#pragma omp target data device(*) map(tofrom: a[0:n] dist_data(BLOCK))
  x: {
#pragma omp target device(*)
#pragma omp parallel for
    for (int i = 0; i < n; i++)
      a[i] += 1;
#pragma omp target data device(*) map(always, from: a[0:n] dist_data(BLOCK))
    y: {
    }
  }
}
// CHECK: homp region:
// CHECK: x : {
// CHECK: y : {

void loops(double *a, int n) {
#pragma omp target data device(*) map(tofrom: a[0:n] dist_data(BLOCK))
  outer:
  for (int t = 0; t < 2; ++t) {
#pragma omp target device(*)
#pragma omp parallel for
    inner: for (int i = 0; i < n; i++)
      a[i] += 1;
#pragma omp barrier
    goto done;
  done:;
  }
}
