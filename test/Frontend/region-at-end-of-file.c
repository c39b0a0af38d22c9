// A region's directive on the last line of the file (here, and of a header):
// an error at the end of the directive, not a crash.
// RUN: %clang_cc1_homp -fsyntax-only -fpass-plugin=%homp_pass -verify %s
// RUN: printf '#include "%s"\n' %s > %t.c
// RUN: %clang_cc1_homp -fsyntax-only -fpass-plugin=%homp_pass -verify %t.c

void f(double *y, int n) {
}
// expected-error@+1 {{homp: expected a complete statement after the directive}}
#pragma omp target device(*) map(tofrom: y[0:n] dist_data(BLOCK))
