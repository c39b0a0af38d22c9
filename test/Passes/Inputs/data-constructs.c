void data(double *x, double *y, int n) {
#pragma omp target data device(*) map(to: x[0:n] dist_data(BLOCK)) map(tofrom: y[0:n] dist_data(BLOCK))
  {
#pragma omp target update device(*) from(y[0:n])
  }
#pragma omp target enter data device(*) map(to: x[0:n] dist_data(BLOCK)) nowait
#pragma omp target exit data device(*) map(release: x[0:n])
}
void plain(double *y, int n, int dev) {
#pragma omp target enter data device(dev) map(to: y[0:n])
#pragma omp target exit data device(dev) map(from: y[0:n])
}
