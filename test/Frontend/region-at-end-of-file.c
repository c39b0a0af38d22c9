// A region's directive on the last line of the file (here, and of a header),
// after the last function: an error at the directive, not a crash
// (statement-errors.c has a directive with no statement inside a function).
// RUN: %clang_cc1_homp -fsyntax-only -fpass-plugin=%homp_pass -verify %s
// RUN: printf '#include "%s"\n' %s > %t.c
// RUN: %clang_cc1_homp -fsyntax-only -fpass-plugin=%homp_pass -verify %t.c

void f(double *y, int n) {
}
// expected-error@+1 {{homp: '#pragma omp target' is a statement: it must be inside a function}}
#pragma omp target device(*) map(tofrom: y[0:n] dist_data(BLOCK))
