void axpy(double *x, double *y, int n, double a) {
#pragma omp target teams distribute parallel for device(*) map(tofrom: y[0:n] dist_data(BLOCK)) map(to: x[0:n] dist_data(BLOCK))
  for (int i = 0; i < n; ++i)
    y[i] += a * x[i];
}
void plain(double *y, int n, int dev) {
#pragma omp target device(dev) map(tofrom: y[0:n])
  for (int i = 0; i < n; ++i)
    y[i] += 1;
}
