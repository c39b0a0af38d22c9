// halo(*) (SPEC.md section 2), the all-gather halo: every device holds the
// whole extent of the dimension and owns its block. STEPOCL's N-body
// pattern: each step every device reads all positions and updates its own
// bodies; halo_exchange refreshes every device's copy from the owners, so
// the positions stay on the devices between steps. Checked bit for bit
// against the same steps run sequentially, on 1 to 4 devices, with the
// host, on odd sizes (fewer bodies than devices too), 1-D and 2-D arrays
// (pos[n][3] with halo(*,)), and every halo route.
// RUN: %hompcc -O2 %s -o %t
// RUN: %t 1001 4 2>&1 | FileCheck %s --implicit-check-not=homp: --implicit-check-not=FAIL
// RUN: %t 3 3 2>&1 | FileCheck %s --implicit-check-not=FAIL
// RUN: %t 1 2 2>&1 | FileCheck %s --implicit-check-not=FAIL
// RUN: env HOMP_HALO_ROUTE=staged %t 37 3 2>&1 | FileCheck %s --implicit-check-not=FAIL
// RUN: env HOMP_HALO_ROUTE=peer %t 37 3 2>&1 | FileCheck %s --implicit-check-not=FAIL
// RUN: env HOMP_DEVICES=2 %t 37 3 2>&1 | FileCheck %s --implicit-check-not=FAIL
// RUN: %hompcc -O2 -DDEVS="*, host" %s -o %t.h && %t.h 101 3 2>&1 | FileCheck %s --implicit-check-not=FAIL
// RUN: env OMP_TARGET_OFFLOAD=DISABLED %t 37 3 2>&1 | FileCheck %s --implicit-check-not=FAIL
// Each device receives what it does not own and nothing else: 40 bodies
// of 8 bytes, 10 per device on 4, each receiving 30 from its 3 peers
// (240 bytes) and sending its 10 to each of them (240 bytes).
// RUN: env HOMP_INFO=1 %t 40 1 2>&1 | FileCheck %s --check-prefixes=INFO,INFO-%ndev --allow-unused-prefixes -D#NDEV=%ndev -DDEVICES="%devices"
// CHECK: 1-D: PASS
// CHECK: 2-D: PASS
// INFO: homp: halo update {{.*}}halo-whole.c:{{[0-9]+}}:13 of 'x' (leftright): [[#mul(NDEV, NDEV) - NDEV]] copies on [[DEVICES]] in
// INFO-NEXT: device
// INFO-4-NEXT: homp:   0        CPU    via peer                              0          240          240
// INFO-4-NEXT: homp:   1        CPU    via peer                              0          240          240
// INFO-4-NEXT: homp:   2        CPU    via peer                              0          240          240
// INFO-4-NEXT: homp:   3        CPU    via peer                              0          240          240
// INFO: 1-D: PASS

#include <stdio.h>
#include <stdlib.h>

#ifndef DEVS
#define DEVS *
#endif

static int failures;

static void check(const char *What, int I, double Got, double Expected) {
  if (Got != Expected && failures++ < 5)
    printf("FAIL %s[%d] = %.17g, expected %.17g\n", What, I, Got, Expected);
}

static const double Dt = 1e-3;

// One body's pull from all the others along one line.
static double pull(const double *x, int n, int i) {
  double f = 0;
  for (int j = 0; j < n; j++)
    f += (x[j] - x[i]) / (1.0 + (x[j] - x[i]) * (x[j] - x[i]));
  return f;
}

static void oneD(int n, int steps) {
  double *x = malloc(sizeof(double) * n), *v = malloc(sizeof(double) * n);
  double *xs = malloc(sizeof(double) * n), *vs = malloc(sizeof(double) * n);
  for (int i = 0; i < n; i++) {
    x[i] = xs[i] = (i * 37 % 101) * 0.01;
    v[i] = vs[i] = 0;
  }
  for (int s = 0; s < steps; s++) {
    for (int i = 0; i < n; i++)
      vs[i] += Dt * pull(xs, n, i);
    for (int i = 0; i < n; i++)
      xs[i] += Dt * vs[i];
  }

#pragma omp target data device(DEVS) \
    map(tofrom: x[0:n] dist_data(BLOCK) halo(*)) \
    map(tofrom: v[0:n] dist_data(BLOCK))
  {
    for (int s = 0; s < steps; s++) {
#pragma omp target device(DEVS)
#pragma omp parallel for dist_iteration(BLOCK)
      for (int i = 0; i < n; i++) {
        double f = 0;
        for (int j = 0; j < n; j++)
          f += (x[j] - x[i]) / (1.0 + (x[j] - x[i]) * (x[j] - x[i]));
        v[i] += Dt * f;
      }
#pragma omp target device(DEVS)
#pragma omp parallel for dist_iteration(BLOCK)
      for (int i = 0; i < n; i++)
        x[i] += Dt * v[i];
#pragma omp halo_exchange(x)
    }
  }
  for (int i = 0; i < n; i++) {
    check("x", i, x[i], xs[i]);
    check("v", i, v[i], vs[i]);
  }
  printf("1-D: %s\n", failures ? "FAILED" : "PASS");
  free(x);
  free(v);
  free(xs);
  free(vs);
}

// Positions as rows of 3 coordinates: the rows are split, the columns whole.
static void twoD(int n, int steps) {
  double(*p)[3] = malloc(sizeof(double) * 3 * n);
  double(*ps)[3] = malloc(sizeof(double) * 3 * n);
  double *c = malloc(sizeof(double) * n), *cs = malloc(sizeof(double) * n);
  for (int i = 0; i < n; i++)
    for (int d = 0; d < 3; d++)
      p[i][d] = ps[i][d] = ((i + 1) * (d + 3) % 17) * 0.1;
  for (int s = 0; s < steps; s++) {
    for (int i = 0; i < n; i++) {
      double m = 0;
      for (int j = 0; j < n; j++)
        m += ps[j][0] * ps[i][1] - ps[j][2];
      cs[i] = m;
    }
    for (int i = 0; i < n; i++)
      for (int d = 0; d < 3; d++)
        ps[i][d] += Dt * cs[i] * (d + 1);
  }

#pragma omp target data device(DEVS) \
    map(tofrom: p[0:n][0:3] dist_data(BLOCK, *) halo(*,)) \
    map(from: c[0:n] dist_data(BLOCK))
  {
    for (int s = 0; s < steps; s++) {
#pragma omp target device(DEVS)
#pragma omp parallel for dist_iteration(BLOCK)
      for (int i = 0; i < n; i++) {
        double m = 0;
        for (int j = 0; j < n; j++)
          m += p[j][0] * p[i][1] - p[j][2];
        c[i] = m;
      }
#pragma omp target device(DEVS)
#pragma omp parallel for dist_iteration(BLOCK)
      for (int i = 0; i < n; i++)
        for (int d = 0; d < 3; d++)
          p[i][d] += Dt * c[i] * (d + 1);
#pragma omp halo_exchange(p)
    }
  }
  for (int i = 0; i < n; i++) {
    check("c", i, c[i], cs[i]);
    for (int d = 0; d < 3; d++)
      check("p", i * 3 + d, p[i][d], ps[i][d]);
  }
  printf("2-D: %s\n", failures ? "FAILED" : "PASS");
  free(p);
  free(ps);
  free(c);
  free(cs);
}

int main(int argc, char **argv) {
  if (argc != 3)
    return 2;
  int n = atoi(argv[1]), steps = atoi(argv[2]);
  oneD(n, steps);
  twoD(n, steps);
  return failures != 0;
}
