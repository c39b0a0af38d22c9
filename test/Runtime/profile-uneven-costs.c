// A profile kind over iterations whose costs grow along the loop, as
// NPB-MZ's zones do (smallest first): the sample is spread over the loop
// (a slice in the middle of each stratum, every device sampling each), so
// the rates measured stand for the whole loop, and the rest is split by the
// strata's measured costs, not in iterations. HOMP_INFO says when the costs
// were found uneven; whether they are depends on how busy the machine is (a
// slice's time says little then, and the rest is split in iterations): the
// unit tests check that on simulated devices, this test only the line's
// form. The results are exact, checked against sequential code, over 2 and
// 4 devices, with one made 4 times slower, and for both profile kinds; the
// shares of the rest are runs the sample's slices cut. (Whether the devices
// finish together is measured in benchmarks/balance, not here.)
// REQUIRES: devices-4
// RUN: %hompcc -O2 %s -o %t
// RUN: env HOMP_DEVICES=0,1 HOMP_INFO=1 %t 2>&1 | FileCheck %s
// RUN: env HOMP_EMULATE=1:4 %t 2>&1 | FileCheck %s --check-prefix=PASS
// RUN: env HOMP_SCHEDULE=MODEL_PROFILE_AUTO,10% HOMP_INFO=1 %t 2>&1 | FileCheck %s --check-prefix=MODEL
// CHECK: homp: region {{.*}}profile-uneven-costs.c:[[# @LINE + 27]]:1: 4000 iterations on 2 devices; schedule SCHED_PROFILE_AUTO, sample of 400{{( \(rates corrected by [0-9]+ earlier executions?\))?}}{{(; the sample found the iterations' costs uneven \([0-9.e+-]+ to [0-9.e+-]+ times the mean over 4 strata\): the rest split by cost)?}} in {{[0-9.]+}} ms
// CHECK: PASS
// PASS: PASS
// MODEL: homp: region {{.*}}profile-uneven-costs.c:[[# @LINE + 35]]:1: 4000 iterations on 4 devices; schedule MODEL_PROFILE_AUTO, sample of 400 (HOMP_SCHEDULE;
// MODEL: PASS

#include <stdio.h>

enum { Z = 4000, Times = 4 };
static double x[Z], y[Z], w[Z];

// Zone z's work: 1 to 20 units, growing along the loop.
static double zone(double v, int z) {
  double s = 0;
  int units = 1 + 19 * z / Z;
  for (int k = 0; k < 300 * units; k++)
    s += (v + k) * 0.5 - (double)(k % 7);
  return s;
}

int main(void) {
  for (int z = 0; z < Z; z++)
    x[z] = z % 101;
  int bad = 0;
  for (int t = 0; t < Times; t++) {
    for (int z = 0; z < Z; z++)
      y[z] = -1;
#pragma omp target device(*) map(to: x[0:Z] dist_data(ALIGN(loop))) map(tofrom: y[0:Z] dist_data(ALIGN(loop)))
#pragma omp teams distribute parallel for dist_schedule(target: SCHED_PROFILE_AUTO(10%))
    for (int z = 0; z < Z; z++)
      y[z] = zone(x[z], z);
    for (int z = 0; z < Z; z++)
      bad += y[z] != zone(x[z], z);
  }
  // The same loop as AUTO, which HOMP_SCHEDULE names the kind of.
  for (int t = 0; t < Times; t++) {
    for (int z = 0; z < Z; z++)
      w[z] = -1;
#pragma omp target device(*) map(to: x[0:Z] dist_data(ALIGN(loop))) map(tofrom: w[0:Z] dist_data(ALIGN(loop)))
#pragma omp teams distribute parallel for dist_schedule(target: AUTO)
    for (int z = 0; z < Z; z++)
      w[z] = zone(x[z], z);
    for (int z = 0; z < Z; z++)
      bad += w[z] != zone(x[z], z);
  }
  printf("%s\n", bad ? "FAIL" : "PASS");
  return bad != 0;
}
