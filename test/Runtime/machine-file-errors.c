// A missing or malformed machine file (HOMP_MACHINE, OMP_DEV_SPEC_FILE) is
// an error naming the variable at the program's first distributed
// construct, whether or not a loop of the program needs the model (this
// one is BLOCK); it was reported only where a loop first used the model.
// An AUTO loop's program ends with the same error, and with HOMP_PROFILES
// set no warning about a loop being scheduled (the error used to end the
// program while the profiles' lock was held, which their writer at exit
// then waited for).
// RUN: %hompcc -O2 %s -o %t
// RUN: %hompcc -O2 -DKIND=AUTO %s -o %t.auto
// RUN: %t | FileCheck %s --check-prefix=GOOD
// RUN: not env HOMP_MACHINE=%t.none.ini %t 2>&1 | FileCheck %s --check-prefix=NOFILE -DFILE=%t.none.ini
// RUN: not env OMP_DEV_SPEC_FILE=%S/../Driver/Inputs/machine-bad.ini %t 2>&1 | FileCheck %s --check-prefix=BADFILE -DFILE=%S/../Driver/Inputs/machine-bad.ini
// Nothing reads it where offload is disabled.
// RUN: env OMP_TARGET_OFFLOAD=DISABLED HOMP_MACHINE=%t.none.ini %t | FileCheck %s --check-prefix=GOOD
// RUN: rm -f %t.profiles
// RUN: not env HOMP_MACHINE=%t.none.ini HOMP_PROFILES=%t.profiles %t.auto 2>&1 | FileCheck %s --check-prefix=NOFILE -DFILE=%t.none.ini --implicit-check-not=warning
// GOOD: PASS
// NOFILE: homp: error: HOMP_MACHINE='[[FILE]]': [[FILE]]: cannot be read: No such file or directory
// NOFILE-NOT: PASS
// BADFILE: homp: error: OMP_DEV_SPEC_FILE='[[FILE]]': [[FILE]]:4: 'bandwidth = -6000': must not be negative
// BADFILE-NOT: PASS

#include <stdio.h>

#ifndef KIND
#define KIND BLOCK
#endif
#define PRAGMA(x) _Pragma(#x)

int main(void) {
  enum { n = 1000 };
  double y[n];
  for (int i = 0; i < n; ++i)
    y[i] = i;
  PRAGMA(omp target device(*) map(tofrom: y[0:n] dist_data(ALIGN(loop))))
  PRAGMA(omp parallel for dist_schedule(target: [KIND]))
  loop: for (int i = 0; i < n; ++i)
    y[i] = 2 * y[i] + 1;
  for (int i = 0; i < n; ++i)
    if (y[i] != 2.0 * i + 1)
      return printf("FAIL: y[%d] = %g\n", i, y[i]), 1;
  puts("PASS");
  return 0;
}
