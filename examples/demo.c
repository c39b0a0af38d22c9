// The homp demo: AXPY on every offload device, checked against the host.
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  int n = 1 << 20;
  double a = 2.5;
  double *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y);
  int ndev = omp_get_num_devices();
  printf("homp demo: %d offload devices\n", ndev);
  int ok = ndev > 0;
  for (int dev = 0; dev < ndev; ++dev) {
    for (int i = 0; i < n; ++i) {
      x[i] = i;
      y[i] = n - i;
    }
#pragma omp target teams distribute parallel for device(dev) \
    map(tofrom: y[0:n]) map(to: x[0:n])
    for (int i = 0; i < n; ++i)
      y[i] += a * x[i];
    int bad = 0;
    for (int i = 0; i < n; ++i)
      bad += y[i] != (double)(n - i) + a * i;
    printf("  device %d: %s\n", dev, bad ? "FAIL" : "ok");
    ok &= !bad;
  }
  free(x);
  free(y);
  puts(ok ? "PASS" : "FAIL");
  return ok ? EXIT_SUCCESS : EXIT_FAILURE;
}
