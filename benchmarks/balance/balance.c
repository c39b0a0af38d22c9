//===-- balance.c - HOMP'16 Table IV kernels under every schedule ---------===//
//
// The six kernels of HOMP'16's evaluation (Table IV), each a loop whose
// policy is AUTO, over every offload device and the host:
//   axpy       y += a * x                      data-intensive
//   matvec     y = A x (n x n)                 compute-data balanced
//   matmul     C = A B (n x n)                 compute-intensive
//   stencil2d  13-point star stencil (n x n)   balanced, neighbours
//   sum        the sum of x, a reduction       data-intensive, reduction
//   bm2d       block matching (n x n): for each pixel the smallest sum of
//              absolute differences between its 4 x 4 block in one frame
//              and the blocks at displacements up to 2 in the other
//              compute-intensive, neighbours
// Arrays follow the loop (partition([ALIGN(loop)]), HOMP'16 Figure 2's
// axpy_homp_v2); rows a kernel reads beyond its own come as a halo.
//
// Because the loops are AUTO, one binary runs every scheduler kind:
// HOMP_SCHEDULE chooses the kind of AUTO loops (HOMP_SCHEDULE=SCHED_DYNAMIC,2%,
// ...), HOMP_DEVICES the devices (0,1,2,3 without the host, 2 for device 2
// alone), HOMP_EMULATE their speeds, HOMP_CUTOFF the cutoff.
//
// usage: balance KERNEL MODE N WARMUP REPETITIONS
//   MODE  seq   sequential host loop (the reference)
//         host  the host alone, 'parallel for'
//         homp  the AUTO loop over device(*, host)
// Runs WARMUP untimed executions (AUTO learns from them), then REPETITIONS
// timed ones; outputs are reset before each, untimed. Prints
//   MODE KERNEL:N MEDIAN_SECONDS MEAN_SECONDS CHECKSUM
//   times T1 T2 ...      (every execution, the warm-up ones first)
// (the first line is the other benchmarks' with the kernel in the size, so
// the GPU bundle's run.sh checks it against seq's as it does theirs)
// benchmarks/balance/run.py checks the checksum against seq's.
//
//===----------------------------------------------------------------------===//

#include "../common/bench.h"

#include <math.h>
#include <string.h>

enum { Radius = 3, Window = 4, Search = 2 };

typedef struct {
  long n;
  double a, s;
  double *x, *y, *y0, *A, *B, *C;
} Data;

static double weighted(const double *V, long Count) {
  double S = 0;
  for (long I = 0; I < Count; ++I)
    S += V[I] * (double)(I % 7 + 1);
  return S;
}

// ---- axpy -------------------------------------------------------------------

static void axpy_alloc(Data *D) {
  long n = D->n;
  D->a = 0.5;
  D->x = malloc(n * sizeof(double));
  D->y = malloc(n * sizeof(double));
  D->y0 = malloc(n * sizeof(double));
  for (long i = 0; i < n; ++i) {
    D->x[i] = (i % 1000) * 0.001;
    D->y0[i] = (i % 17) * 0.25;
  }
}
static void axpy_reset(Data *D) { memcpy(D->y, D->y0, D->n * sizeof(double)); }
static double axpy_sum(Data *D) { return weighted(D->y, D->n); }

static void axpy_seq(Data *D) {
  long n = D->n;
  double a = D->a, *x = D->x, *y = D->y;
  for (long i = 0; i < n; ++i)
    y[i] += a * x[i];
}

static void axpy_host(Data *D) {
  long n = D->n;
  double a = D->a, *x = D->x, *y = D->y;
#pragma omp parallel for
  for (long i = 0; i < n; ++i)
    y[i] += a * x[i];
}

static void axpy_homp(Data *D) {
  long n = D->n;
  double a = D->a, *x = D->x, *y = D->y;
#pragma omp parallel target device(*, host) \
    map(tofrom: y[0:n] partition([ALIGN(loop)])) \
    map(to: x[0:n] partition([ALIGN(loop)]), a, n)
#pragma omp parallel for distribute dist_schedule(target:[AUTO])
loop:
  for (long i = 0; i < n; ++i)
    y[i] += a * x[i];
}

// ---- matvec -----------------------------------------------------------------

static void matvec_alloc(Data *D) {
  long n = D->n;
  D->A = malloc(n * n * sizeof(double));
  D->x = malloc(n * sizeof(double));
  D->y = malloc(n * sizeof(double));
  for (long i = 0; i < n * n; ++i)
    D->A[i] = (i % 13) * 0.125 - 0.5;
  for (long i = 0; i < n; ++i)
    D->x[i] = (i % 11) * 0.1;
}
static void matvec_reset(Data *D) { memset(D->y, 0, D->n * sizeof(double)); }
static double matvec_sum(Data *D) { return weighted(D->y, D->n); }

static void matvec_seq(Data *D) {
  long n = D->n;
  double(*A)[n] = (void *)D->A, *x = D->x, *y = D->y;
  for (long i = 0; i < n; ++i) {
    double s = 0;
    for (long j = 0; j < n; ++j)
      s += A[i][j] * x[j];
    y[i] = s;
  }
}

static void matvec_host(Data *D) {
  long n = D->n;
  double(*A)[n] = (void *)D->A, *x = D->x, *y = D->y;
#pragma omp parallel for
  for (long i = 0; i < n; ++i) {
    double s = 0;
    for (long j = 0; j < n; ++j)
      s += A[i][j] * x[j];
    y[i] = s;
  }
}

static void matvec_homp(Data *D) {
  long n = D->n;
  double(*A)[n] = (void *)D->A, *x = D->x, *y = D->y;
#pragma omp parallel target device(*, host) \
    map(from: y[0:n] partition([ALIGN(loop)])) \
    map(to: A[0:n][0:n] partition([ALIGN(loop)], FULL), x[0:n], n)
#pragma omp parallel for distribute dist_schedule(target:[AUTO])
loop:
  for (long i = 0; i < n; ++i) {
    double s = 0;
    for (long j = 0; j < n; ++j)
      s += A[i][j] * x[j];
    y[i] = s;
  }
}

// ---- matmul -----------------------------------------------------------------

static void matmul_alloc(Data *D) {
  long n = D->n;
  D->A = malloc(n * n * sizeof(double));
  D->B = malloc(n * n * sizeof(double));
  D->C = malloc(n * n * sizeof(double));
  for (long i = 0; i < n * n; ++i) {
    D->A[i] = (i % 7) * 0.5 - 1;
    D->B[i] = (i % 5) * 0.25;
  }
}
static void matmul_reset(Data *D) {
  memset(D->C, 0, D->n * D->n * sizeof(double));
}
static double matmul_sum(Data *D) { return weighted(D->C, D->n * D->n); }

static void matmul_seq(Data *D) {
  long n = D->n;
  double(*A)[n] = (void *)D->A, (*B)[n] = (void *)D->B, (*C)[n] = (void *)D->C;
  for (long i = 0; i < n; ++i)
    for (long j = 0; j < n; ++j) {
      double s = 0;
      for (long k = 0; k < n; ++k)
        s += A[i][k] * B[k][j];
      C[i][j] = s;
    }
}

static void matmul_host(Data *D) {
  long n = D->n;
  double(*A)[n] = (void *)D->A, (*B)[n] = (void *)D->B, (*C)[n] = (void *)D->C;
#pragma omp parallel for
  for (long i = 0; i < n; ++i)
    for (long j = 0; j < n; ++j) {
      double s = 0;
      for (long k = 0; k < n; ++k)
        s += A[i][k] * B[k][j];
      C[i][j] = s;
    }
}

static void matmul_homp(Data *D) {
  long n = D->n;
  double(*A)[n] = (void *)D->A, (*B)[n] = (void *)D->B, (*C)[n] = (void *)D->C;
#pragma omp parallel target device(*, host) \
    map(from: C[0:n][0:n] partition([ALIGN(loop)], FULL)) \
    map(to: A[0:n][0:n] partition([ALIGN(loop)], FULL), B[0:n][0:n], n)
#pragma omp parallel for distribute dist_schedule(target:[AUTO])
loop:
  for (long i = 0; i < n; ++i)
    for (long j = 0; j < n; ++j) {
      double s = 0;
      for (long k = 0; k < n; ++k)
        s += A[i][k] * B[k][j];
      C[i][j] = s;
    }
}

// ---- stencil2d: 13 points, Radius 3 in each direction -----------------------

// Literals, not a global array: with LLVM 19 a constant global array read in
// a target region crashes libomptarget's x86 offload plugin (without homp too).
#define C0 0.4
#define C1 0.1
#define C2 0.05
#define C3 0.025

static void grid_alloc(Data *D) {
  long n = D->n;
  D->A = malloc(n * n * sizeof(double));
  D->B = malloc(n * n * sizeof(double));
  D->C = malloc(n * n * sizeof(double));
  for (long i = 0; i < n * n; ++i) {
    D->A[i] = (i * 7 % 29) * 0.1;
    D->B[i] = ((i + 3 * (i / n)) * 7 % 29) * 0.1; // A shifted a little
  }
}
static void grid_reset(Data *D) {
  memset(D->C, 0, D->n * D->n * sizeof(double));
}
static double grid_sum(Data *D) { return weighted(D->C, D->n * D->n); }

#define STENCIL_BODY                                                           \
  if (i < Radius || i >= n - Radius)                                           \
    continue;                                                                  \
  for (long j = Radius; j < n - Radius; ++j)                                   \
    out[i][j] = C0 * in[i][j] +                                          \
                C1 * (in[i - 1][j] + in[i + 1][j] + in[i][j - 1] +       \
                            in[i][j + 1]) +                                    \
                C2 * (in[i - 2][j] + in[i + 2][j] + in[i][j - 2] +       \
                            in[i][j + 2]) +                                    \
                C3 * (in[i - 3][j] + in[i + 3][j] + in[i][j - 3] +       \
                            in[i][j + 3]);

static void stencil2d_seq(Data *D) {
  long n = D->n;
  double(*in)[n] = (void *)D->A, (*out)[n] = (void *)D->C;
  for (long i = 0; i < n; ++i) {
    STENCIL_BODY
  }
}

static void stencil2d_host(Data *D) {
  long n = D->n;
  double(*in)[n] = (void *)D->A, (*out)[n] = (void *)D->C;
#pragma omp parallel for
  for (long i = 0; i < n; ++i) {
    STENCIL_BODY
  }
}

static void stencil2d_homp(Data *D) {
  long n = D->n;
  double(*in)[n] = (void *)D->A, (*out)[n] = (void *)D->C;
#pragma omp parallel target device(*, host) \
    map(tofrom: out[0:n][0:n] partition([ALIGN(loop)], FULL)) \
    map(to: in[0:n][0:n] partition([ALIGN(loop)], FULL) halo(3,), n)
#pragma omp parallel for distribute dist_schedule(target:[AUTO])
loop:
  for (long i = 0; i < n; ++i) {
    STENCIL_BODY
  }
}

// ---- sum ----------------------------------------------------------------------

static void sum_alloc(Data *D) {
  long n = D->n;
  D->x = malloc(n * sizeof(double));
  for (long i = 0; i < n; ++i)
    D->x[i] = (i % 1000) * 0.001;
}
static void sum_reset(Data *D) { D->s = 0; }
static double sum_sum(Data *D) { return D->s; }

static void sum_seq(Data *D) {
  long n = D->n;
  double *x = D->x, s = 0;
  for (long i = 0; i < n; ++i)
    s += x[i];
  D->s = s;
}

static void sum_host(Data *D) {
  long n = D->n;
  double *x = D->x, s = 0;
#pragma omp parallel for reduction(+: s)
  for (long i = 0; i < n; ++i)
    s += x[i];
  D->s = s;
}

static void sum_homp(Data *D) {
  long n = D->n;
  double *x = D->x, s = 0;
#pragma omp parallel target device(*, host) \
    map(to: x[0:n] partition([ALIGN(loop)]), n)
#pragma omp parallel for distribute dist_schedule(target:[AUTO]) \
    reduction(+: s)
loop:
  for (long i = 0; i < n; ++i)
    s += x[i];
  D->s = s;
}

// ---- bm2d: block matching -----------------------------------------------------
// For each pixel (i, j) whose blocks lie inside the frames: the smallest sum
// of absolute differences between the Window x Window block at (i, j) of
// frame cur and the blocks of frame ref displaced by up to Search rows and
// columns.

// BM_ROWS spells out Window = 4 rows and Search = 2.
enum { BmLow = Search, BmHalo = Search + Window - 1 };

// Rows as i plus or minus a literal, so that homp can check them against
// the halo: BM_ROWS(dy, rows i+dy .. i+dy+3 of ref).
#define BM_ROW(U, REF)                                                         \
  for (int v = 0; v < Window; ++v)                                             \
    sad += fabs(cur[i + U][j + v] - ref[REF][j + dx + v]);
#define BM_ROWS(R0, R1, R2, R3)                                                \
  for (int dx = -Search; dx <= Search; ++dx) {                                 \
    double sad = 0;                                                            \
    BM_ROW(0, R0) BM_ROW(1, R1) BM_ROW(2, R2) BM_ROW(3, R3)                    \
    best = sad < best ? sad : best;                                            \
  }
#define BM2D_BODY                                                              \
  if (i < BmLow || i >= n - BmHalo)                                            \
    continue;                                                                  \
  for (long j = BmLow; j < n - BmHalo; ++j) {                                  \
    double best = INFINITY;                                                    \
    BM_ROWS(i - 2, i - 1, i, i + 1)                                            \
    BM_ROWS(i - 1, i, i + 1, i + 2)                                            \
    BM_ROWS(i, i + 1, i + 2, i + 3)                                            \
    BM_ROWS(i + 1, i + 2, i + 3, i + 4)                                        \
    BM_ROWS(i + 2, i + 3, i + 4, i + 5)                                        \
    out[i][j] = best;                                                          \
  }

static void bm2d_seq(Data *D) {
  long n = D->n;
  double(*cur)[n] = (void *)D->A, (*ref)[n] = (void *)D->B,
  (*out)[n] = (void *)D->C;
  for (long i = 0; i < n; ++i) {
    BM2D_BODY
  }
}

static void bm2d_host(Data *D) {
  long n = D->n;
  double(*cur)[n] = (void *)D->A, (*ref)[n] = (void *)D->B,
  (*out)[n] = (void *)D->C;
#pragma omp parallel for
  for (long i = 0; i < n; ++i) {
    BM2D_BODY
  }
}

static void bm2d_homp(Data *D) {
  long n = D->n;
  double(*cur)[n] = (void *)D->A, (*ref)[n] = (void *)D->B,
  (*out)[n] = (void *)D->C;
#pragma omp parallel target device(*, host) \
    map(tofrom: out[0:n][0:n] partition([ALIGN(loop)], FULL)) \
    map(to: cur[0:n][0:n] partition([ALIGN(loop)], FULL) halo(3,), \
            ref[0:n][0:n] partition([ALIGN(loop)], FULL) halo(2|5,), n)
#pragma omp parallel for distribute dist_schedule(target:[AUTO])
loop:
  for (long i = 0; i < n; ++i) {
    BM2D_BODY
  }
}

// ---- driver -------------------------------------------------------------------

typedef void (*Step)(Data *);

typedef struct {
  const char *Name;
  Step Alloc, Reset, Seq, Host, Homp;
  double (*Checksum)(Data *);
} Kernel;

static const Kernel Kernels[] = {
    {"axpy", axpy_alloc, axpy_reset, axpy_seq, axpy_host, axpy_homp,
     axpy_sum},
    {"matvec", matvec_alloc, matvec_reset, matvec_seq, matvec_host,
     matvec_homp, matvec_sum},
    {"matmul", matmul_alloc, matmul_reset, matmul_seq, matmul_host,
     matmul_homp, matmul_sum},
    {"stencil2d", grid_alloc, grid_reset, stencil2d_seq, stencil2d_host,
     stencil2d_homp, grid_sum},
    {"sum", sum_alloc, sum_reset, sum_seq, sum_host, sum_homp, sum_sum},
    {"bm2d", grid_alloc, grid_reset, bm2d_seq, bm2d_host, bm2d_homp,
     grid_sum},
};

int main(int argc, char **argv) {
  if (argc != 6) {
    fprintf(stderr,
            "usage: %s KERNEL seq|host|homp N WARMUP REPETITIONS\n", argv[0]);
    return 2;
  }
  const Kernel *K = NULL;
  for (size_t I = 0; I < sizeof Kernels / sizeof *Kernels; ++I)
    if (!strcmp(argv[1], Kernels[I].Name))
      K = &Kernels[I];
  const char *Mode = argv[2];
  Step Fn = !K                       ? NULL
            : !strcmp(Mode, "seq")  ? K->Seq
            : !strcmp(Mode, "host") ? K->Host
            : !strcmp(Mode, "homp") ? K->Homp
                                    : NULL;
  Data D = {.n = atol(argv[3])};
  int Warmup = atoi(argv[4]), Reps = atoi(argv[5]);
  if (!Fn || D.n < 1 || Warmup < 0 || Reps < 1) {
    fprintf(stderr, "%s: bad arguments\n", argv[0]);
    return 2;
  }
  K->Alloc(&D);
  int Total = Warmup + Reps;
  double *Times = malloc(Total * sizeof(double));
  for (int R = 0; R < Total; ++R) {
    K->Reset(&D);
    double Start = bench_now();
    Fn(&D);
    Times[R] = bench_now() - Start;
  }
  double Checksum = K->Checksum(&D), Mean = 0;
  double *Timed = malloc(Reps * sizeof(double));
  for (int R = 0; R < Reps; ++R)
    Mean += (Timed[R] = Times[Warmup + R]) / Reps;
  qsort(Timed, Reps, sizeof(double), bench_compare);
  printf("%s %s:%ld %.9f %.9f %.9e\ntimes", Mode, K->Name, D.n,
         Timed[Reps / 2], Mean, Checksum);
  for (int R = 0; R < Total; ++R)
    printf(" %.9f", Times[R]);
  printf("\n");
  return 0;
}
