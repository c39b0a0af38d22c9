// AXPY over every offload device, for tests that compile it from elsewhere.
#include <stdio.h>

#ifdef LINE_NAME
#line 1 "my \"file\": v2.c"
#elif defined(LINE_BYTES)
#line 1 "cr\r bad\377 ctl\001 end.c"
#endif
int main(void) {
  enum { n = 1000 };
  static double x[n], y[n];
  for (int i = 0; i < n; ++i) {
    x[i] = i;
    y[i] = 1;
  }
#pragma omp target teams distribute parallel for device(*) \
    map(to: x dist_data(BLOCK)) map(tofrom: y dist_data(BLOCK))
  for (int i = 0; i < n; ++i)
    y[i] += 2 * x[i];
  fflush(stderr);
  for (int i = 0; i < n; ++i)
    if (y[i] != 1 + 2.0 * i)
      return puts("FAIL"), 1;
  puts("PASS");
  return 0;
}
