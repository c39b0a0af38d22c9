// The homp demo: AXPY (y += a * x) split over every offload device and the
// host, as in PMAM'15 Figure 1, checked against a sequential loop.
// Run with HOMP_INFO=1 to see how the loop and its arrays were split.
#include <stdio.h>
#include <stdlib.h>

static void axpy(double *x, double *y, int n, double a) {
#pragma omp target device(*, host) map(tofrom: y[0:n] dist_data(BLOCK)) \
                                   map(to: x[0:n] dist_data(BLOCK), a, n)
#pragma omp parallel for shared(x, y, n, a) dist_iteration(BLOCK)
  for (int i = 0; i < n; ++i)
    y[i] += a * x[i];
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 10000000;
  double a = 2.5;
  double *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y);
  for (int i = 0; i < n; ++i) {
    x[i] = i % 1000;
    y[i] = n - i;
  }
  axpy(x, y, n, a);
  long bad = 0;
  for (int i = 0; i < n; ++i)
    bad += y[i] != (double)(n - i) + a * (i % 1000);
  free(x);
  free(y);
  printf("axpy of %d elements over all devices and the host: %s\n", n,
         bad ? "FAIL" : "PASS");
  return bad ? EXIT_FAILURE : EXIT_SUCCESS;
}
