// Every form a carried test may use: && chains, continuation lines, quoted
// flags, not, env, %t suffixes, %t inside double quotes, files under %t,
// rm, a literal % (%%).
// RUN: %hompcc -O2 -DDEVS="*, host" %s -o %t.host && env HOMP_INFO=1 %t.host 2>&1 | FileCheck %s
// RUN: %hompcxx -O2 \
// RUN:   -x c++ %s -o %t
// RUN: not env OMP_TARGET_OFFLOAD=MANDATORY %t bad 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: "%t" > %t.out && FileCheck %s --input-file=%t.out
// RUN: %hompcc -fopenmp-targets=x86_64-pc-linux-gnu %S/carried.c -o %t.own
// RUN: %t.own | count 1
// RUN: rm -f %t.prof && env HOMP_SCHEDULE=SCHED_GUIDED,2%% HOMP_PROFILES=%t.prof %t.own | count 1
