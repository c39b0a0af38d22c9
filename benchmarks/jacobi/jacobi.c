//===-- jacobi.c - PMAM'15 Figure 2's Jacobi on every device ---------------===//
//
// Iterations Jacobi steps on an N x M grid (M = 1026 columns; the papers'
// 2050 x 1026 is N = 2050), in these versions:
//   seq          sequential
//   mdev         hand-written multi-device OpenMP, as a user writes it
//                without homp: one host thread per device, rows in blocks,
//                'target enter data' per device, the halo rows exchanged
//                through the host with 'target update' and a barrier
//   homp         PMAM'15 Figure 2 as written: one 'target data device(*)',
//                'halo(1,)', 'halo_exchange(uold)'
//   blocks       the same over 2-D blocks: 'topology([*][*])',
//                'dist_data(BLOCK,BLOCK) halo(1,1)', 'dist_iteration(BLOCK,
//                BLOCK)' (2 x 2 on 4 devices)
//   mdev-copy, homp-copy
//                the copy kernel (uold = u) alone, Iterations times
//   mdev-halo, homp-halo
//                the halo exchange alone, Iterations times
//   mdev-compute, homp-compute
//                the compute kernel (the sweep and its reduction) alone,
//                Iterations - 1 times, after one whole iteration that
//                fills uold and its halos
// The part modes time their iterations only, not the data region's copies
// in and out, and compute no result (checksum 0).
//   direct-halo  the same bytes as the exchange moved by direct
//                omp_target_memcpy calls between the devices' buffers
// One call of the full modes is the whole data region, its copies in and
// out included.
//
// usage: jacobi MODE N REPETITIONS
//
//===----------------------------------------------------------------------===//

#include "../common/bench.h"

#include <omp.h>
#include <pthread.h>
#include <string.h>

enum { M = 1026, Iterations = 100 };

typedef struct {
  int n;
  double (*u)[M], (*uold)[M], (*f)[M];
  double error;
  int Copy, Halo, Compute; ///< which parts of an iteration run
  int Part;                ///< a part mode: time the iterations alone
  double omega, ax, ay, b;
} Grid;

/// The coefficients, as Figure 2's variables: every version reads them at
/// run time (a compiler folding constants into one version only would
/// measure the compiler).
static double omega = 0.5, ax = 1.0, ay = 2.0, b = -6.0;

static void reset(Grid *G) {
  for (int i = 0; i < G->n; ++i)
    for (int j = 0; j < M; ++j) {
      G->u[i][j] = (i * 7 + j * 3) % 11;
      G->uold[i][j] = 0;
    }
}

static void jacobi_seq(void *P) {
  Grid *G = P;
  reset(G);
  int n = G->n, m = M;
  double(*u)[M] = G->u, (*uold)[M] = G->uold, (*f)[M] = G->f, error = 0;
  double omega = G->omega, ax = G->ax, ay = G->ay, b = G->b;
  for (int k = 0; k < Iterations; ++k) {
    error = 0;
    memcpy(uold, u, sizeof(double) * n * M);
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < m - 1; j++) {
        double resid = (ax * (uold[i - 1][j] + uold[i + 1][j]) +
                        ay * (uold[i][j - 1] + uold[i][j + 1]) +
                        b * uold[i][j] - f[i][j]) /
                       b;
        u[i][j] = uold[i][j] - omega * resid;
        error += resid * resid;
      }
  }
  G->error = error;
}

/// The rows [First, First + Count) of device Dev of Devices (the papers'
/// BLOCK split).
static void rows(int n, int Dev, int Devices, int *First, int *Count) {
  int Size = n / Devices, Extra = n % Devices;
  *First = Dev * Size + (Dev < Extra ? Dev : Extra);
  *Count = Size + (Dev < Extra);
}

static void jacobi_mdev(void *P) {
  Grid *G = P;
  reset(G);
  int n = G->n, m = M, ndev = omp_get_num_devices();
  double(*u)[M] = G->u, (*uold)[M] = G->uold, (*f)[M] = G->f;
  double omega = G->omega, ax = G->ax, ay = G->ay, b = G->b;
  double errors[64] = {0}, error = 0;
  // OpenMP's barrier and single misbehave in threads that run x86 offload
  // kernels (their teams use the same libomp, see DESIGN.md): the threads
  // synchronise with a POSIX barrier.
  pthread_barrier_t Barrier;
  pthread_barrier_init(&Barrier, NULL, ndev);
#pragma omp parallel num_threads(ndev)
  {
    int dev = omp_get_thread_num(), first, count;
    rows(n, dev, ndev, &first, &count);
    int last = first + count - 1;
    // Held rows: the part and one row on each side inside the grid.
    int lo = first > 0 ? first - 1 : 0;
    int hi = last < n - 1 ? last + 1 : n - 1;
    int ibegin = first > 1 ? first : 1, iend = last < n - 2 ? last + 1 : n - 1;
#pragma omp target enter data device(dev) map(to: u[first:count][0:m], \
    f[first:count][0:m]) map(alloc: uold[lo:hi - lo + 1][0:m])
    pthread_barrier_wait(&Barrier);
    double Start = bench_now();
    const int Prime = G->Part && G->Compute; // one whole iteration first
    for (int k = 0; k < Iterations; ++k) {
      if (G->Copy || (Prime && k == 0)) {
        // The sections are present: the map clauses only give the kernel
        // their device addresses (a pointer's pointee outside them would
        // not be translated).
        // Figure 2's kernels as they are, on one device each: 'target'
        // with a 'parallel for' inside (the same code as homp's).
#pragma omp target device(dev) \
    map(alloc: u[first:count][0:m], uold[lo:hi - lo + 1][0:m])
#pragma omp parallel for collapse(2)
        for (int i = first; i <= last; i++)
          for (int j = 0; j < m; j++)
            uold[i][j] = u[i][j];
      }
      if (G->Halo || (Prime && k == 0)) {
        // Boundary rows out to the host, then the neighbours' in.
        if (first > 0) {
#pragma omp target update device(dev) from(uold[first:1][0:m])
        }
        if (last < n - 1) {
#pragma omp target update device(dev) from(uold[last:1][0:m])
        }
        pthread_barrier_wait(&Barrier);
        if (first > 0) {
#pragma omp target update device(dev) to(uold[first - 1:1][0:m])
        }
        if (last < n - 1) {
#pragma omp target update device(dev) to(uold[last + 1:1][0:m])
        }
      }
      if (G->Compute) {
        double e = 0;
#pragma omp target device(dev) map(tofrom: e) map(alloc: u[first:count][0:m], \
    f[first:count][0:m], uold[lo:hi - lo + 1][0:m])
#pragma omp parallel for collapse(2) reduction(+:e)
        for (int i = ibegin; i < iend; i++)
          for (int j = 1; j < m - 1; j++) {
            double resid = (ax * (uold[i - 1][j] + uold[i + 1][j]) +
                            ay * (uold[i][j - 1] + uold[i][j + 1]) +
                            b * uold[i][j] - f[i][j]) /
                           b;
            u[i][j] = uold[i][j] - omega * resid;
            e += resid * resid;
          }
        errors[dev] = e;
      }
      pthread_barrier_wait(&Barrier);
      if (dev == 0) {
        error = 0;
        for (int d = 0; d < ndev; ++d)
          error += errors[d];
      }
      if (Prime && k == 0)
        Start = bench_now();
    }
    if (dev == 0 && G->Part)
      bench_inner = bench_now() - Start;
#pragma omp target exit data device(dev) map(from: u[first:count][0:m]) \
    map(delete: f[first:count][0:m], uold[lo:hi - lo + 1][0:m])
  }
  pthread_barrier_destroy(&Barrier);
  G->error = error;
}

static void jacobi_homp(void *P) {
  Grid *G = P;
  reset(G);
  int n = G->n, m = M, k = 1, mits = Iterations, i, j;
  int Copy = G->Copy, Halo = G->Halo, Compute = G->Compute;
  int Prime = G->Part && Compute; // one whole iteration first
  double(*u)[M] = G->u, (*uold)[M] = G->uold, (*f)[M] = G->f;
  double omega = G->omega, ax = G->ax, ay = G->ay, b = G->b;
  double tol = 0, error = 1, resid;
#pragma omp target data device(*) \
  map(to:n, m, omega, ax, ay, b, \
  f[0:n][0:m] dist_data(BLOCK,*)) \
  map(tofrom:u[0:n][0:m] dist_data(BLOCK,*)) \
  map(alloc:uold[0:n][0:m] \
      dist_data(BLOCK,*) halo(1,))
{ // Figure 2's loop, and the timing of the part modes around it.
double Start = bench_now();
while ((k<=mits)&&(error>tol))
{
  error = 0;
  if (Copy || (Prime && k == 1)) {
#pragma omp target device(*)
#pragma omp parallel for collapse(2) \
  dist_iteration(BLOCK)
  for(i=0;i<n;i++)
    for(j=0;j<m;j++)
      uold[i][j] = u[i][j];
  }
  if (Halo || (Prime && k == 1)) {
#pragma omp halo_exchange (uold)
  }
  if (Compute) {
#pragma omp target device(*)
#pragma omp parallel for private(resid) \
  collapse (2) reduction(+:error) \
  dist_iteration(BLOCK)
  for (i=1;i<(n-1);i++)
    for (j=1;j<(m-1);j++)
    {
      resid = (ax*(uold[i-1][j] + uold[i+1][j])\
              + ay*(uold[i][j-1] + uold[i][j+1])\
              + b * uold[i][j] - f[i][j])/b;
      u[i][j] = uold[i][j] - omega * resid;
      error = error + resid*resid ;
    }
  } else {
    error = 1;
  }
  if (Prime && k == 1)
    Start = bench_now();
  k++;
}
  if (G->Part) {
    // A halo exchange and a compute kernel (its reduction) are complete when
    // they return; queued copy kernels end before this update of one
    // element.
    double End = bench_now();
#pragma omp target update device(*) from(u[0:1][0:1])
    bench_inner = (Copy ? bench_now() : End) - Start;
  }
}
  G->error = G->Part ? 0 : error;
}

/// Figure 2 over 2-D blocks: the grid and the loops BLOCK in both
/// dimensions over a [*][*] topology (2 x 2 on 4 devices), a one-cell halo
/// on all four sides, so every exchange moves columns (strided) besides rows.
static void jacobi_blocks(void *P) {
  Grid *G = P;
  reset(G);
  int n = G->n, m = M, k = 1, mits = Iterations, i, j;
  double(*u)[M] = G->u, (*uold)[M] = G->uold, (*f)[M] = G->f;
  double omega = G->omega, ax = G->ax, ay = G->ay, b = G->b;
  double tol = 0, error = 1, resid;
#pragma omp target data device(*) topology([*][*]) \
  map(to:n, m, omega, ax, ay, b, \
  f[0:n][0:m] dist_data(BLOCK,BLOCK)) \
  map(tofrom:u[0:n][0:m] dist_data(BLOCK,BLOCK)) \
  map(alloc:uold[0:n][0:m] \
      dist_data(BLOCK,BLOCK) halo(1,1))
{
while ((k<=mits)&&(error>tol))
{
  error = 0;
#pragma omp target device(*) topology([*][*])
#pragma omp parallel for collapse(2) \
  dist_iteration(BLOCK, BLOCK)
  for(i=0;i<n;i++)
    for(j=0;j<m;j++)
      uold[i][j] = u[i][j];
#pragma omp halo_exchange (uold)
#pragma omp target device(*) topology([*][*])
#pragma omp parallel for private(resid) \
  collapse (2) reduction(+:error) \
  dist_iteration(BLOCK, BLOCK)
  for (i=1;i<(n-1);i++)
    for (j=1;j<(m-1);j++)
    {
      resid = (ax*(uold[i-1][j] + uold[i+1][j])\
              + ay*(uold[i][j-1] + uold[i][j+1])\
              + b * uold[i][j] - f[i][j])/b;
      u[i][j] = uold[i][j] - omega * resid;
      error = error + resid*resid ;
    }
  k++;
}
}
  G->error = error;
}

/// The exchange's bytes moved by direct device-to-device copies: each
/// device's buffer holds its rows and a halo row on each side.
static void halo_direct(void *P) {
  Grid *G = P;
  int n = G->n, ndev = omp_get_num_devices();
  size_t Row = sizeof(double) * M;
  char *Buffers[64];
  int First[64], Count[64];
  for (int d = 0; d < ndev; ++d) {
    rows(n, d, ndev, &First[d], &Count[d]);
    Buffers[d] = omp_target_alloc(Row * (Count[d] + 2), d);
  }
  double Start = bench_now();
  for (int k = 0; k < Iterations; ++k)
    for (int d = 0; d + 1 < ndev; ++d) {
      // d's last row to d+1's left halo row, d+1's first row to d's right.
      omp_target_memcpy(Buffers[d + 1], Buffers[d], Row, 0, Row * Count[d],
                        d + 1, d);
      omp_target_memcpy(Buffers[d], Buffers[d + 1], Row,
                        Row * (Count[d] + 1), Row, d, d + 1);
    }
  bench_inner = bench_now() - Start;
  for (int d = 0; d < ndev; ++d)
    omp_target_free(Buffers[d], d);
  G->error = 0;
}

static double checksum(void *P) {
  Grid *G = P;
  if (G->Part)
    return 0;
  double S = G->error;
  for (int i = 0; i < G->n; ++i)
    for (int j = 0; j < M; ++j)
      S += G->u[i][j];
  return S;
}

int main(int argc, char **argv) {
  if (argc != 4) {
    fprintf(stderr,
            "usage: %s seq|mdev|homp|blocks|mdev-copy|homp-copy|mdev-halo|homp-halo|"
            "mdev-compute|homp-compute|direct-halo N REPETITIONS\n",
            argv[0]);
    return 2;
  }
  const char *Mode = argv[1];
  int n = atoi(argv[2]), reps = atoi(argv[3]);
  Grid G = {n, NULL, NULL, NULL, 0, 1, 1, 1, 0, omega, ax, ay, b};
  void (*Fn)(void *) = NULL;
  if (!strcmp(Mode, "seq"))
    Fn = jacobi_seq;
  else if (!strncmp(Mode, "mdev", 4))
    Fn = jacobi_mdev;
  else if (!strncmp(Mode, "homp", 4))
    Fn = jacobi_homp;
  else if (!strcmp(Mode, "direct-halo"))
    Fn = halo_direct;
  else if (!strcmp(Mode, "blocks"))
    Fn = jacobi_blocks;
  const char *Part = strchr(Mode, '-');
  if (Part) {
    G.Copy = !strcmp(Part, "-copy");
    G.Halo = !strcmp(Part, "-halo");
    G.Compute = !strcmp(Part, "-compute");
    G.Part = 1;
    if (!G.Copy && !G.Halo && !G.Compute)
      Fn = NULL;
  }
  if (!Fn || n < 3 || reps < 1 || omp_get_num_devices() > 64) {
    fprintf(stderr, "%s: bad arguments\n", argv[0]);
    return 2;
  }
  G.u = malloc(sizeof(double) * n * M);
  G.uold = malloc(sizeof(double) * n * M);
  G.f = malloc(sizeof(double) * n * M);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < M; ++j)
      G.f[i][j] = (i + j) % 5;
  bench_run(Mode, n, reps, Fn, &G, checksum);
  free(G.u);
  free(G.uold);
  free(G.f);
  return 0;
}
