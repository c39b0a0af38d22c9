// AUTO keeps what it learned across runs (HOMP_PROFILES=FILE, by default
// the program's own file in the cache folder): the first run
// samples, tries and confirms, settles, and writes its profile at exit; the
// next run starts from it ("saved profile" in HOMP_INFO), without sampling
// and without trying or confirming again. Both give the sequential answer. A file that is not a profiles file is left alone, with
// a warning; a file that cannot be written is a warning at exit.
// RUN: %hompcc -O2 %s -o %t
// RUN: rm -rf %t.prof %t.copy && env HOMP_PROFILES=%t.prof HOMP_INFO=1 %t 2>&1 | FileCheck %s --check-prefix=FIRST
// RUN: FileCheck %s --check-prefixes=FILE,FILE-%ndev --allow-unused-prefixes < %t.prof
// RUN: env HOMP_PROFILES=%t.prof HOMP_INFO=1 %t 2>&1 | FileCheck %s --check-prefixes=AGAIN,AGAIN-%ndev --allow-unused-prefixes
// RUN: env HOMP_PROFILES=%t.prof %t 2>&1 | FileCheck %s --check-prefix=QUIET
// RUN: FileCheck %s --check-prefixes=FILE,FILE-%ndev --allow-unused-prefixes < %t.prof
// RUN: echo "not a profiles file" > %t.bad && cp %t.bad %t.copy
// RUN: env HOMP_PROFILES=%t.bad %t 2>&1 | FileCheck %s --check-prefix=BAD -DFILE=%t.bad
// RUN: cmp %t.bad %t.copy
// RUN: env HOMP_PROFILES=%t.missing/dir/p %t 2>&1 | FileCheck %s --check-prefix=UNWRITABLE -DFILE=%t.missing/dir/p
// A directory, for profiles or for a machine file, is said to be one.
// RUN: rm -rf %t.dir && mkdir %t.dir && env HOMP_PROFILES=%t.dir %t 2>&1 | FileCheck %s --check-prefix=DIR -DFILE=%t.dir
// DIR: homp: warning: HOMP_PROFILES='[[FILE]]': is a directory; name a file in it, where AUTO's profiles can be saved
// DIR: PASS
// RUN: not env HOMP_MACHINE=%t.dir %t 2>&1 | FileCheck %s --check-prefix=MACHINE-DIR -DFILE=%t.dir
// MACHINE-DIR: homp: error: HOMP_MACHINE='[[FILE]]': [[FILE]]: cannot be read: Is a directory
// RUN: not env HOMP_PROFILES= %t 2>&1 | FileCheck %s --check-prefix=EMPTY
// Unset, the program's own file in the cache folder: the program's name
// and a hash of its path and the node. A copy of the program elsewhere has
// a file of its own; with 'off' nothing is read or written; a cache that
// cannot be written is no warning.
// RUN: rm -rf %t.cache %t.other && env -u HOMP_PROFILES XDG_CACHE_HOME=%t.cache HOMP_INFO=1 %t 2>&1 | FileCheck %s --check-prefix=FIRST
// RUN: ls %t.cache/homp | FileCheck %s --check-prefix=CACHED -DNAME=%basename_t.tmp
// RUN: env -u HOMP_PROFILES XDG_CACHE_HOME=%t.cache HOMP_INFO=1 %t 2>&1 | FileCheck %s --check-prefixes=AGAIN,AGAIN-%ndev --allow-unused-prefixes
// RUN: cp %t %t.other && env -u HOMP_PROFILES XDG_CACHE_HOME=%t.cache HOMP_INFO=1 %t.other 2>&1 | FileCheck %s --check-prefix=FIRST
// RUN: ls %t.cache/homp | FileCheck %s --check-prefix=CACHED-TWO -DNAME=%basename_t.tmp
// RUN: env HOMP_PROFILES=OFF XDG_CACHE_HOME=%t.cache HOMP_INFO=1 %t 2>&1 | FileCheck %s --check-prefix=FIRST
// RUN: ls %t.cache/homp | FileCheck %s --check-prefix=CACHED-TWO -DNAME=%basename_t.tmp
// RUN: env -u HOMP_PROFILES XDG_CACHE_HOME=/proc/homp-cache %t 2>&1 | FileCheck %s --check-prefix=QUIET
// The folder keeps the 256 programs' files written last (a harness that
// builds programs at new paths would fill it): the oldest go.
// RUN: rm -rf %t.many && mkdir -p %t.many/homp && %python -c "import os, sys; d = sys.argv[1]; names = [os.path.join(d, 'profiles-old%%d-00000000.txt' %% i) for i in range(300)]; [open(f, 'w').write('# homp profiles 1\n') for f in names]; [os.utime(f, (1e9 + i, 1e9 + i)) for i, f in enumerate(names)]" %t.many/homp
// RUN: env -u HOMP_PROFILES XDG_CACHE_HOME=%t.many %t 2>&1 | FileCheck %s --check-prefix=QUIET
// RUN: ls %t.many/homp | grep -c '^profiles-' | FileCheck %s --check-prefix=KEPT
// RUN: ls %t.many/homp | FileCheck %s --check-prefix=PRUNED -DNAME=%basename_t.tmp
// KEPT: {{^}}256{{$}}
// PRUNED-NOT: profiles-old44-00000000.txt
// PRUNED: profiles-old45-00000000.txt
// PRUNED: profiles-[[NAME]]-{{[0-9a-f]+}}.txt
// CACHED: profiles-[[NAME]]-{{[0-9a-f]+}}.txt
// CACHED-TWO-DAG: profiles-[[NAME]]-{{[0-9a-f]+}}.txt
// CACHED-TWO-DAG: profiles-[[NAME]].other-{{[0-9a-f]+}}.txt
// FIRST: iterations on {{[0-9]+ devices?}}; schedule AUTO: MODEL_PROFILE_AUTO, sample of {{[0-9]+}} (first execution: sampling; model: {{.*}})
// FIRST: trial 1 of {{[2-5]}}
// FIRST: fastest of the trials
// FIRST-NOT: trial again
// FIRST: PASS
// FILE: # homp profiles 1
// FILE-NEXT: profile devices=
// FILE-4-SAME: {{^}}0,1,2,3 class=15 learned={{[0-9]+}} split={{[0-9.e+-]+}},{{[0-9.e+-]+}},{{[0-9.e+-]+}},{{[0-9.e+-]+}} trials={{[0-9.e+-]+}},{{[-0-9.e+]+}},{{[-0-9.e+]+}},{{[-0-9.e+]+}} region=
// FILE-SAME: {{.*}}profiles.c:{{[0-9]+}}:1
// FILE-NOT: profile
// AGAIN-NOT: sampling
// AGAIN: iterations on
// AGAIN-4-SAME: {{^}} {{[1-4]}} device{{s?}}; schedule AUTO:
// AGAIN-SAME: (saved profile of an earlier run; {{.*}}fastest of the trials: balanced split
// AGAIN-NOT: sampling
// AGAIN-NOT: trial again
// AGAIN: PASS
// QUIET-NOT: homp:
// QUIET: PASS
// BAD: homp: warning: HOMP_PROFILES='[[FILE]]': line 1: expected '# homp profiles 1'; AUTO starts without saved profiles, and the file is left as it is
// BAD: PASS
// UNWRITABLE: PASS
// UNWRITABLE-NEXT: homp: warning: HOMP_PROFILES='[[FILE]]': cannot be written (No such file or directory); AUTO's profiles of this run are lost
// EMPTY: homp: error: HOMP_PROFILES='' is not valid; expected the path of a file to keep AUTO's profiles in across runs, or off

#include <stdio.h>
#include <stdlib.h>

int main(void) {
  int n = 20011; // 15 bits: size class 15
  double *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y),
         *ref = malloc(n * sizeof *ref);
  for (int i = 0; i < n; ++i) {
    x[i] = i % 13;
    y[i] = ref[i] = i % 7;
  }
  for (int t = 0; t < 16; ++t) {
    for (int i = 0; i < n; ++i)
      ref[i] += 0.5 * x[i];
#pragma omp target device(*) map(to: x[0:n] dist_data(ALIGN(loop))) \
    map(tofrom: y[0:n] dist_data(ALIGN(loop)))
#pragma omp parallel for distribute dist_schedule(target: [AUTO])
    loop: for (int i = 0; i < n; ++i)
      y[i] += 0.5 * x[i];
  }
  int bad = 0;
  for (int i = 0; i < n; ++i)
    bad += y[i] != ref[i];
  printf(bad ? "FAIL: %d wrong\n" : "PASS\n", bad);
  fflush(stdout);
  free(x);
  free(y);
  free(ref);
  return bad != 0;
}
