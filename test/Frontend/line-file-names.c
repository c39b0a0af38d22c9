// A #line file name holding bytes that cannot stand in a string literal as
// they are (a carriage return, a byte that is not UTF-8, a control character,
// a quote, a backslash, a trigraph) is escaped in the region's descriptor: no
// diagnostic, and the descriptor carries the name's bytes.
// RUN: %clang_cc1_homp -ftrigraphs -fpass-plugin=%homp_pass -verify -emit-llvm -o - %s | FileCheck %s
// expected-no-diagnostics

#line 1 "cr\r bad\377 ctl\001 \"q\" \\ ?\?= end.c"
void f(double *y, int n) {
#pragma omp target device(*) map(tofrom: y[0:n] dist_data(BLOCK))
  for (int i = 0; i < n; ++i)
    y[i] = 0;
}

// CHECK: c"homp 10 kernel\0Aloc 29:cr\0D bad\FF ctl\01 \22q\22 \\ ??= end.c 2 1\0A
