// A standard (single-device) 'target update' of elements a device holds
// but does not own, its halo: with 'halo(*)' every device holds the whole
// array. On that device alone the update would leave the owners without the
// new values ('to': the kernels of the others read their old ones, and the
// region copies the owners' values back) or copy back the halo's stale
// ones ('from'), so it is an error naming the device, the array and its
// part. Of the owned part it moves (a halo exchange then brings the
// others' copies up to date), and with a device list every device
// gets its part and halo ('to'), the host every owned part ('from').
// Checked against the values computed on the host.
// REQUIRES: devices-2
// RUN: %hompcc -g -O2 %s -o %t
// RUN: %t listed 2>&1 | FileCheck %s --check-prefix=LISTED --implicit-check-not=FAIL
// RUN: %t owned 2>&1 | FileCheck %s --check-prefix=OWNED --implicit-check-not=FAIL
// RUN: not %t whole 2>&1 | FileCheck %s --check-prefix=WHOLE
// RUN: not %t from 2>&1 | FileCheck %s --check-prefix=WHOLE
// So is a standard construct's 'always, from' map of it on one device:
// RUN: not %t kernel-from 2>&1 | FileCheck %s --check-prefix=KERNEL
// RUN: not %t exit-from 2>&1 | FileCheck %s --check-prefix=EXIT
// RUN: %t owned-from 2>&1 | FileCheck %s --check-prefix=OWNED-FROM --implicit-check-not=FAIL
// KERNEL: homp: error: 'target' at {{.*}}standard-update-halo.c:{{[0-9]+}}:1: device 0 owns only its part of 'x' (elements [0, {{[0-9]+}}), distributed by the data region at {{.*}}standard-update-halo.c:{{[0-9]+}}:1); the others' elements it holds are its halo, whose values are current only as of the last halo update: 'always, from' on it alone would copy them over the host's array; map only the part, or copy the array back with 'target update device(*) from(...)', which takes each element from its owner
// KERNEL-NOT: PASS
// EXIT: homp: error: 'target exit data' or 'target data' at {{.*}}standard-update-halo.c:{{[0-9]+}}:1: device 0 owns only its part of 'x'
// EXIT-NOT: PASS
// OWNED-FROM: owned-from: PASS
// LISTED: listed: PASS
// OWNED: owned: PASS
// WHOLE: homp: error: 'target update' at {{.*}}standard-update-halo.c:{{[0-9]+}}:1: device 0 owns only its part of 'x' (elements [0, {{[0-9]+}}), distributed by the data region at {{.*}}standard-update-halo.c:{{[0-9]+}}:1); the others' elements it holds are its halo, which an update on it alone would leave their owners without ('to') or copy back stale ('from'): name the part, or give the update a device list (device(*)), which moves each listed device's part (and halo, for 'to')
// WHOLE-NOT: PASS

#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
  if (argc != 2)
    return 2;
  enum { n = 103 };
  const char *Mode = argv[1];
  double x[n], y[n];
  omp_set_default_device(0);
  for (int i = 0; i < n; i++)
    x[i] = i;
  int bad = 0, own = n / omp_get_num_devices();
#pragma omp target data device(*) \
    map(tofrom: x[0:n] dist_data(BLOCK) halo(*)) \
    map(from: y[0:n] dist_data(BLOCK))
  {
    for (int i = 0; i < n; i++)
      x[i] = 2 * i;
    if (!strcmp(Mode, "listed") || !strcmp(Mode, "owned-from")) {
#pragma omp target update device(*) to(x[0:n])
    } else if (!strcmp(Mode, "owned")) {
      // Device 0 owns [0, own) at least: the rest keeps i, as on entry.
      for (int i = own; i < n; i++)
        x[i] = i;
#pragma omp target update to(x[0:own])
      // The other devices' copies of device 0's part are their halo.
#pragma omp halo_exchange(x)
    } else if (!strcmp(Mode, "whole")) {
#pragma omp target update to(x[0:n])
    }
#pragma omp target device(*)
#pragma omp parallel for dist_iteration(BLOCK)
    for (int i = 0; i < n; i++) {
      double t = 0;
      for (int j = 0; j < n; j++)
        t += x[j] * (j % 3);
      y[i] = t;
    }
#pragma omp target device(*)
#pragma omp parallel for dist_iteration(BLOCK)
    for (int i = 0; i < n; i++)
      x[i] += 1;
    if (!strcmp(Mode, "listed")) {
#pragma omp target update device(*) from(x[0:n])
    } else if (!strcmp(Mode, "owned")) {
#pragma omp target update from(x[0:own])
    } else if (!strcmp(Mode, "from")) {
#pragma omp target update from(x[0:n])
    } else if (!strcmp(Mode, "kernel-from")) {
#pragma omp target map(always, from: x[0:n])
      x[0] += 0;
    } else if (!strcmp(Mode, "exit-from")) {
#pragma omp target exit data map(always, from: x[0:n])
    } else if (!strcmp(Mode, "owned-from")) {
#pragma omp target map(always, from: x[0:own])
      x[0] += 0;
    }
    for (int i = 0; i < own; i++)
      bad += x[i] != 2 * i + 1;
    if (!strcmp(Mode, "listed"))
      for (int i = own; i < n; i++)
        bad += x[i] != 2 * i + 1;
  }
  double t = 0;
  for (int j = 0; j < n; j++)
    t += (!strcmp(Mode, "owned") && j >= own ? j : 2 * j) * (j % 3);
  for (int i = 0; i < n; i++) {
    bad += y[i] != t;
    bad += x[i] != (!strcmp(Mode, "owned") && i >= own ? i : 2 * i) + 1;
  }
  if (bad)
    printf("FAIL: %d wrong values\n", bad);
  printf("%s: %s\n", Mode, bad ? "FAILED" : "PASS");
  return bad != 0;
}
