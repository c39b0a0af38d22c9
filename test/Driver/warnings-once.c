// An offload compile through hompcc compiles the file for the host and for
// each offload target, with the same pragmas; the plugin's warnings are
// printed once, by the host's compilation. -Werror still stops the build
// there. Errors too are printed once: a -c compile stops after the host's,
// and hompcc -fsyntax-only checks the host's syntax first, the targets'
// only when it passes (clang checks each apart).
// RUN: %hompcc -O2 -c %s -o %t.o 2>&1 | FileCheck %s
// RUN: %hompcc -fsyntax-only %s 2>&1 | FileCheck %s
// RUN: not %hompcc -O2 -Werror -c %s -o %t.o 2>&1 | FileCheck %s --check-prefix=WERROR
// RUN: not %hompcc -fsyntax-only -Werror %s 2>&1 | FileCheck %s --check-prefix=WERROR
// RUN: not %hompcc -fsyntax-only -DMALFORMED %s 2>&1 | FileCheck %s --check-prefix=MALFORMED
// RUN: not %hompcc -c -DMALFORMED %s -o %t.o 2>&1 | FileCheck %s --check-prefix=MALFORMED
// CHECK: warnings-once.c:[[# @LINE + 15]]:11: warning: homp: homp cannot bound which elements of 'x'
// CHECK-NOT: warning: homp
// WERROR: warnings-once.c:[[# @LINE + 13]]:11: error: homp: homp cannot bound which elements of 'x'
// WERROR-NOT: error: homp
// MALFORMED: warnings-once.c:[[# @LINE + 17]]:{{[0-9]+}}: error: homp: malformed halo
// MALFORMED-NOT: error: homp

void gather(double *x, double *y, const int *idx, int n) {
#pragma omp target data device(*) map(to: x[0:n] dist_data(BLOCK)) \
    map(from: y[0:n] dist_data(BLOCK))
  {
#pragma omp target device(*) map(to: idx[0:n])
#pragma omp parallel for dist_iteration(ALIGN(y))
    for (int i = 0; i < n; ++i)
      y[i] =
          x[idx[i]];
  }
}

#ifdef MALFORMED
void malformed(double *a, int n) {
#pragma omp target data device(*) map(tofrom: a[0:n] dist_data(BLOCK) halo(1|))
  {}
}
#endif
