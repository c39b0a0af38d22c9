// A construct homp rewrites is a statement. Outside every function it is an
// error at the directive (plain clang says "unexpected OpenMP directive"),
// and what follows it is parsed as usual: never accepted silently, never
// rewritten into declarations that fail somewhere else. The directive right
// after a function's closing brace is read before the parser leaves the
// function: it is outside too, whatever comments or preprocessor lines lie
// between.
// RUN: %clang_cc1_homp -fsyntax-only -fpass-plugin=%homp_pass -verify %s
// RUN: %clang_cc1_homp -x c++ -fsyntax-only -fpass-plugin=%homp_pass -verify %s

double x[64];

// expected-error@+1 {{homp: '#pragma omp target' is a statement: it must be inside a function}}
#pragma omp target device(*)
int first(void) { return 0; }

// expected-error@+1 {{homp: '#pragma omp target teams distribute parallel for' is a statement: it must be inside a function}}
#pragma omp target teams distribute parallel for device(*) map(tofrom: x[0:64] dist_data(BLOCK))
int second(void) { return 1; } /* a comment
   over lines } */
#define UNUSED 1
// expected-error@+1 {{homp: '#pragma omp target data' is a statement: it must be inside a function}}
#pragma omp target data device(*) map(to: x[0:64] dist_data(BLOCK))
int third(void) { return 2; } // "a quote
#if 0
}
#endif
// expected-error@+1 {{homp: '#pragma omp target enter data' is a statement: it must be inside a function}}
#pragma omp target enter data device(*) map(to: x[0:64] dist_data(BLOCK))

// expected-error@+1 {{homp: '#pragma omp target update' is a statement: it must be inside a function}}
#pragma omp target update device(*) to(x[0:64])

#define DIST _Pragma("omp target device(*) map(tofrom: x[0:64] dist_data(BLOCK))")
void fourth(void) {}
DIST // expected-error {{homp: '#pragma omp target' is a statement: it must be inside a function}}

// The same directives inside a function are accepted, also right after a
// nested block's closing brace.
void inside(int c) {
  if (c) {
    x[0] = 1;
  }
#pragma omp target device(*) map(tofrom: x[0:64] dist_data(BLOCK))
#pragma omp parallel for
  for (int i = 0; i < 64; ++i) {
    x[i] += 1;
  }
  /* } */
#pragma omp target update device(*) from(x[0:64])
  {
  } // }
#pragma omp target device(*) map(tofrom: x[0:64] dist_data(BLOCK))
#pragma omp parallel for
  for (int i = 0; i < 64; ++i)
    x[i] += 1;
  DIST
  for (int i = 0; i < 64; ++i)
    x[i] += 1;
}
