// Sections that start past 0 in an inner dimension ('a[0:n][1:m - 1]'):
// clang 19 passes them as the contiguous range around them, from the
// array's first element, and homp must still take them as the items (it
// once forwarded them to libomptarget and every result was lost, silently).
// A kernel's own item, a data region's with a kernel inside that maps
// nothing, enter/update/exit data; rows, columns and duplicates. Checked
// against sequential code. A duplicate kept on the devices and written on
// several of them runs on the host, the array gathered there: their
// copies would differ (inner-offsets-duplicate.test).
// RUN: %hompcc -O2 "-DDIST=BLOCK, *" %s -o %t.rows
// RUN: %t.rows kernel | FileCheck %s
// RUN: %t.rows region | FileCheck %s
// RUN: %t.rows enter | FileCheck %s
// RUN: env HOMP_DEVICES=1 %t.rows region | FileCheck %s
// RUN: %hompcc -O2 "-DDIST=*, BLOCK" %s -o %t.cols
// RUN: %t.cols kernel | FileCheck %s
// RUN: %t.cols region | FileCheck %s
// RUN: %t.cols enter | FileCheck %s
// RUN: %hompcc -O2 -DDIST=DUPLICATE %s -o %t.dup
// RUN: %t.dup kernel | FileCheck %s
// CHECK: PASS

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
  if (argc != 2)
    return 2;
  int n = 8, m = 6, bad = 0;
  double(*a)[m] = malloc(sizeof(double) * n * m);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < m; ++j)
      a[i][j] = i * 100 + j;
  if (strcmp(argv[1], "kernel") == 0) {
#pragma omp target device(*) map(tofrom: a[0:n][1:m - 1] dist_data(DIST))
#pragma omp parallel for collapse(2)
    for (int i = 0; i < n; ++i)
      for (int j = 1; j < m; ++j)
        a[i][j] = -a[i][j];
  } else if (strcmp(argv[1], "region") == 0) {
#pragma omp target data device(*) map(tofrom: a[0:n][1:m - 1] dist_data(DIST))
    {
#pragma omp target device(*)
#pragma omp parallel for collapse(2)
      for (int i = 0; i < n; ++i)
        for (int j = 1; j < m; ++j)
          a[i][j] = -a[i][j];
    }
  } else {
#pragma omp target enter data device(*) map(to: a[0:n][1:m - 1] dist_data(DIST))
#pragma omp target device(*)
#pragma omp parallel for collapse(2)
    for (int i = 0; i < n; ++i)
      for (int j = 1; j < m; ++j)
        a[i][j] = -a[i][j];
#pragma omp target update device(*) from(a[0:n][1:m - 1])
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < m; ++j)
        bad += a[i][j] != (j >= 1 ? -(i * 100 + j) : i * 100 + j);
#pragma omp target exit data device(*) map(from: a[0:n][1:m - 1])
  }
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < m; ++j)
      bad += a[i][j] != (j >= 1 ? -(i * 100 + j) : i * 100 + j);
  puts(bad ? "FAIL" : "PASS");
  free(a);
  return bad != 0;
}
