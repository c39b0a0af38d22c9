//===-- npbmz.c - An NPB-MZ miniature: uneven zones, boundary exchange ----===//
//
// BT-MZ's zone structure (NPB-MZ, the hybrid OpenMP+HIP runtime paper): a
// mesh of N x N zones whose widths grow geometrically along x and along y,
// so that the largest zone has about 20 times the points of the smallest;
// every zone is NZ = 8 planes deep. A call runs STEPS = 5 steps; a step
// exchanges each zone's boundary with its four neighbours (their edge lines,
// NPB's exch_qbc) and runs SWEEPS = 4 smoothing sweeps over each zone (the
// per-zone solver). Zones are the coarse-grain tasks: the loop over zones
// is what is spread over the devices.
//
// u[z][k][j][i] is zone z's plane k, with one ghost line around (padded to
// the largest zone); f[z][side][k][t] its four edge lines, written by its
// step, read by its neighbours' next step (two copies, fa and fb, swapped).
// Each zone's step is sequential code, so every version computes the same
// bits in any order and on any device.
//
// MODE is one of:
//   seq      sequential host loops (the reference)
//   mdev     hand-written multi-device OpenMP, the hybrid paper's dynamic
//            zone queue with the memorized assignment: one host thread per
//            device takes zones from a shared counter at the first step,
//            maps each zone it takes, and runs the same zones at every
//            later step with their data resident; the edge lines go
//            through the host after each step
//   homp     homp, data resident: u and the edge lines BLOCK over the zones
//            (the edge lines with halo(*,): a halo width is a literal, and
//            a zone reads zones N away), the zone loop BLOCK
//            (owner computes), halo_exchange of the edge lines each step
//   memo     homp, data resident and the zone loop SCHED_DYNAMIC(1): SPEC
//            3's memorizing scheduler, the arrays ALIGN(zones); the first
//            step hands the zones out as the devices become free, each
//            zone's data moving with it, and the later steps keep them
//   auto     memo's program with the zone loop AUTO, which memorizes too
//            where no machine file gives the devices' speeds
//   dynamic  homp, SCHED_DYNAMIC(1) over the zones, each step mapping its
//            data (nothing resident)
//   profile  homp, SCHED_PROFILE_AUTO over the zones, each step mapping its
//            data (the sample spread over the zones, the rest split by the
//            zones' measured costs)
//
// usage: npbmz MODE N REPETITIONS     (N zones per side: 4 is BT-MZ class
//                                      W's and A's 16 zones, 8 class B's 64)
//
//===----------------------------------------------------------------------===//

#include "../../common/bench.h"

#include <math.h>
#include <omp.h>
#include <string.h>

enum { Steps = 5, Sweeps = 4, NZ = 8, West = 0, East = 1, South = 2, North = 3 };

typedef struct {
  int n, zones, mx, my, m; ///< zones per side, zones, padded extents
  int *wx, *wy;            ///< zone widths along x and y
  double *u, *u0, *fa, *fb;
} Mesh;

// The padded extents, as the kernels' array types.
#define U(M) ((double(*)[NZ][(M)->my + 2][(M)->mx + 2])(M)->u)
#define F(M, p) ((double(*)[4][NZ][(M)->m])(p))

// Zone z's edge lines of plane k, from its nx x ny points, into f.
#define EDGES_OUT(u, f, nx, ny, z, k)                                          \
  do {                                                                         \
    for (int j = 1; j <= (ny); ++j) {                                          \
      f[z][West][k][j - 1] = u[z][k][j][1];                                    \
      f[z][East][k][j - 1] = u[z][k][j][nx];                                   \
    }                                                                          \
    for (int i = 1; i <= (nx); ++i) {                                          \
      f[z][South][k][i - 1] = u[z][k][1][i];                                   \
      f[z][North][k][i - 1] = u[z][k][ny][i];                                  \
    }                                                                          \
  } while (0)

// One zone's step: its ghost lines from its neighbours' edge lines (fin),
// its sweeps, its own edge lines out (fout). The same code in every version.
#define ZONE_STEP(u, fin, fout, wx, wy, n, z)                                  \
  do {                                                                         \
    const int zx = (z) % (n), zy = (z) / (n), nx = wx[zx], ny = wy[zy];        \
    for (int k = 0; k < NZ; ++k) {                                             \
      for (int j = 1; j <= ny; ++j) {                                          \
        if (zx > 0)                                                            \
          u[z][k][j][0] = fin[(z) - 1][East][k][j - 1];                        \
        if (zx < (n) - 1)                                                      \
          u[z][k][j][nx + 1] = fin[(z) + 1][West][k][j - 1];                   \
      }                                                                        \
      for (int i = 1; i <= nx; ++i) {                                          \
        if (zy > 0)                                                            \
          u[z][k][0][i] = fin[(z) - (n)][North][k][i - 1];                     \
        if (zy < (n) - 1)                                                      \
          u[z][k][ny + 1][i] = fin[(z) + (n)][South][k][i - 1];                \
      }                                                                        \
      for (int s = 0; s < Sweeps; ++s)                                         \
        for (int j = 1; j <= ny; ++j)                                          \
          for (int i = 1; i <= nx; ++i)                                        \
            u[z][k][j][i] = 0.2 * (u[z][k][j][i] + u[z][k][j][i - 1] +         \
                                   u[z][k][j][i + 1] + u[z][k][j - 1][i] +     \
                                   u[z][k][j + 1][i]);                         \
      EDGES_OUT(u, fout, nx, ny, z, k);                                        \
    }                                                                          \
  } while (0)

static size_t uSize(const Mesh *M) {
  return (size_t)M->zones * NZ * (M->my + 2) * (M->mx + 2);
}
static size_t fSize(const Mesh *M) { return (size_t)M->zones * 4 * NZ * M->m; }

/// The call's start: u as at the beginning, every edge line as u's.
static void reset(Mesh *M) {
  memcpy(M->u, M->u0, sizeof(double) * uSize(M));
  double(*u)[NZ][M->my + 2][M->mx + 2] = U(M);
  double(*f)[4][NZ][M->m] = F(M, M->fa);
  memset(M->fa, 0, sizeof(double) * fSize(M));
  memset(M->fb, 0, sizeof(double) * fSize(M));
  for (int z = 0; z < M->zones; ++z) {
    const int nx = M->wx[z % M->n], ny = M->wy[z / M->n];
    for (int k = 0; k < NZ; ++k)
      EDGES_OUT(u, f, nx, ny, z, k);
  }
}

// ---- sequential --------------------------------------------------------

static void npbmz_seq(void *P) {
  Mesh *M = P;
  reset(M);
  const int n = M->n, Z = M->zones, *wx = M->wx, *wy = M->wy;
  double(*u)[NZ][M->my + 2][M->mx + 2] = U(M);
  double *fa = M->fa, *fb = M->fb;
  for (int s = 0; s < Steps; ++s) {
    double(*fin)[4][NZ][M->m] = F(M, fa), (*fout)[4][NZ][M->m] = F(M, fb);
    for (int z = 0; z < Z; ++z)
      ZONE_STEP(u, fin, fout, wx, wy, n, z);
    double *t = fa;
    fa = fb;
    fb = t;
  }
  // The last step's edge lines are in fa, as in every version.
  if (fa != M->fa)
    memcpy(M->fa, fa, sizeof(double) * fSize(M));
}

// ---- hand-written: the memorizing dynamic zone queue -------------------

static void npbmz_mdev(void *P) {
  Mesh *M = P;
  reset(M);
  const int n = M->n, Z = M->zones, ndev = omp_get_num_devices();
  const int MY = M->my + 2, MX = M->mx + 2, m = M->m, *wx = M->wx,
            *wy = M->wy;
  double(*u)[NZ][MY][MX] = U(M);
  double(*A)[4][NZ][m] = F(M, M->fa), (*B)[4][NZ][m] = F(M, M->fb);
  int next = 0;
  int *owner = malloc(sizeof(int) * Z);
#pragma omp parallel num_threads(ndev)
  {
    const int dev = omp_get_thread_num();
#pragma omp target enter data device(dev) map(to: A[0:Z][0:4][0:NZ][0:m]) \
    map(to: B[0:Z][0:4][0:NZ][0:m]) map(to: wx[0:n], wy[0:n])
    for (int s = 0; s < Steps; ++s) {
      double(*fin)[4][NZ][m] = s % 2 ? B : A, (*fout)[4][NZ][m] = s % 2 ? A : B;
      for (int z = 0;; ++z) {
        if (s == 0) {
          // The queue: zones to whichever device asks first; each zone's
          // data goes with it and stays.
#pragma omp atomic capture
          z = next++;
          if (z >= Z)
            break;
          owner[z] = dev;
#pragma omp target enter data device(dev) map(to: u[z:1][0:NZ][0:MY][0:MX])
        } else {
          while (z < Z && owner[z] != dev)
            ++z;
          if (z >= Z)
            break;
        }
#pragma omp target device(dev) map(tofrom: u[z:1][0:NZ][0:MY][0:MX])
        ZONE_STEP(u, fin, fout, wx, wy, n, z);
      }
      // Each device's edge lines to the host, then everyone's back.
      for (int z = 0; z < Z; ++z)
        if (owner[z] == dev) {
#pragma omp target update device(dev) from(fout[z:1][0:4][0:NZ][0:m])
        }
#pragma omp barrier
#pragma omp target update device(dev) to(fout[0:Z][0:4][0:NZ][0:m])
#pragma omp barrier
    }
    for (int z = 0; z < Z; ++z)
      if (owner[z] == dev) {
#pragma omp target exit data device(dev) map(from: u[z:1][0:NZ][0:MY][0:MX])
      }
#pragma omp target exit data device(dev) map(delete: A[0:Z][0:4][0:NZ][0:m]) \
    map(delete: B[0:Z][0:4][0:NZ][0:m]) map(delete: wx[0:n], wy[0:n])
  }
  free(owner);
  if (Steps % 2)
    memcpy(M->fa, M->fb, sizeof(double) * fSize(M));
}

// ---- homp, resident ----------------------------------------------------

// A homp version's start: the mesh's arrays by their padded extents.
#define MESH_ARRAYS                                                            \
  Mesh *M = P;                                                                 \
  reset(M);                                                                    \
  const int n = M->n, Z = M->zones, *wx = M->wx, *wy = M->wy;                  \
  const int MY = M->my + 2, MX = M->mx + 2, m = M->m;                          \
  double(*u)[NZ][MY][MX] = U(M);                                               \
  double(*A)[4][NZ][m] = F(M, M->fa), (*B)[4][NZ][m] = F(M, M->fb);

static void npbmz_homp(void *P) {
  MESH_ARRAYS
#pragma omp target data device(*) \
    map(tofrom: u[0:Z][0:NZ][0:MY][0:MX] dist_data(BLOCK, *, *, *)) \
    map(tofrom: A[0:Z][0:4][0:NZ][0:m] dist_data(BLOCK, *, *, *) halo(*,)) \
    map(tofrom: B[0:Z][0:4][0:NZ][0:m] dist_data(BLOCK, *, *, *) halo(*,)) \
    map(to: wx[0:n], wy[0:n])
  {
    for (int s = 0; s < Steps; ++s) {
      double(*fin)[4][NZ][m] = s % 2 ? B : A, (*fout)[4][NZ][m] = s % 2 ? A : B;
#pragma omp target device(*)
#pragma omp parallel for dist_iteration(BLOCK)
      for (int z = 0; z < Z; ++z)
        ZONE_STEP(u, fin, fout, wx, wy, n, z);
#pragma omp halo_exchange(fout)
    }
  }
  if (Steps % 2)
    memcpy(M->fa, M->fb, sizeof(double) * fSize(M));
}

// ---- homp, memorizing dynamic over resident data -----------------------

// The zone loop's chunks go to the devices as they become free at the
// first step, each zone's data with it; later steps find them there. KIND:
// the loop's schedule (SCHED_DYNAMIC(1), or AUTO, which memorizes with
// SCHED_DYNAMIC's 2% chunks where no machine file gives the devices'
// speeds).
#define MEMO_STEPS(KIND)                                                       \
  MESH_ARRAYS                                                                  \
  _Pragma("omp target data device(*) map(tofrom: u[0:Z][0:NZ][0:MY][0:MX] dist_data(ALIGN(zones), *, *, *)) map(tofrom: A[0:Z][0:4][0:NZ][0:m] dist_data(ALIGN(zones), *, *, *) halo(*,)) map(tofrom: B[0:Z][0:4][0:NZ][0:m] dist_data(ALIGN(zones), *, *, *) halo(*,)) map(to: wx[0:n], wy[0:n])") \
  {                                                                            \
    for (int s = 0; s < Steps; ++s) {                                          \
      double(*fin)[4][NZ][m] = s % 2 ? B : A,                                  \
            (*fout)[4][NZ][m] = s % 2 ? A : B;                                 \
      _Pragma("omp target device(*)")                                          \
      _Pragma(KIND)                                                            \
    zones:                                                                     \
      for (int z = 0; z < Z; ++z)                                              \
        ZONE_STEP(u, fin, fout, wx, wy, n, z);                                 \
      _Pragma("omp halo_exchange(fout)")                                       \
    }                                                                          \
  }                                                                            \
  if (Steps % 2)                                                               \
    memcpy(M->fa, M->fb, sizeof(double) * fSize(M));

static void npbmz_memo(void *P) {
  MEMO_STEPS("omp parallel for dist_schedule(target: SCHED_DYNAMIC(1))")
}

static void npbmz_auto(void *P) {
  MEMO_STEPS("omp parallel for dist_schedule(target: AUTO)")
}

// ---- homp, scheduled, each step mapping its data -----------------------

#define SCHEDULED_STEPS(KIND)                                                  \
  MESH_ARRAYS                                                                  \
  for (int s = 0; s < Steps; ++s) {                                            \
    double(*fin)[4][NZ][m] = s % 2 ? B : A, (*fout)[4][NZ][m] = s % 2 ? A : B; \
    _Pragma("omp target device(*) map(tofrom: u[0:Z][0:NZ][0:MY][0:MX] dist_data(ALIGN(loop))) map(to: fin[0:Z][0:4][0:NZ][0:m], wx[0:n], wy[0:n]) map(tofrom: fout[0:Z][0:4][0:NZ][0:m] dist_data(ALIGN(loop)))") \
    _Pragma(KIND)                                                              \
    for (int z = 0; z < Z; ++z)                                                \
      ZONE_STEP(u, fin, fout, wx, wy, n, z);                                   \
  }                                                                            \
  if (Steps % 2)                                                               \
    memcpy(M->fa, M->fb, sizeof(double) * fSize(M));

static void npbmz_dynamic(void *P) {
  SCHEDULED_STEPS("omp teams distribute parallel for dist_schedule(target: SCHED_DYNAMIC(1))")
}

static void npbmz_profile(void *P) {
  SCHEDULED_STEPS("omp teams distribute parallel for dist_schedule(target: SCHED_PROFILE_AUTO(25%))")
}

static double checksum(void *P) {
  Mesh *M = P;
  double S = 0;
  for (size_t I = 0; I < uSize(M); ++I)
    S += M->u[I] * (double)(I % 13 + 1);
  for (size_t I = 0; I < fSize(M); ++I)
    S += M->fa[I] * (double)(I % 7 + 1);
  return S;
}

/// N widths summing to Total, growing geometrically by Ratio from the
/// first to the last.
static void widths(int *W, int N, int Total, double Ratio) {
  double Sum = 0, Q = N > 1 ? pow(Ratio, 1.0 / (N - 1)) : 1;
  for (int I = 0; I < N; ++I)
    Sum += pow(Q, I);
  int Used = 0;
  for (int I = 0; I < N; ++I) {
    W[I] = I == N - 1 ? Total - Used : (int)lround(Total * pow(Q, I) / Sum);
    if (W[I] < 1)
      W[I] = 1;
    Used += W[I];
  }
}

int main(int argc, char **argv) {
  if (argc != 4) {
    fprintf(stderr,
            "usage: %s seq|mdev|homp|memo|auto|dynamic|profile ZONES_PER_SIDE "
            "REPETITIONS\n",
            argv[0]);
    return 2;
  }
  const char *Mode = argv[1];
  int n = atoi(argv[2]), reps = atoi(argv[3]);
  void (*Fn)(void *) = !strcmp(Mode, "seq")       ? npbmz_seq
                       : !strcmp(Mode, "mdev")    ? npbmz_mdev
                       : !strcmp(Mode, "homp")    ? npbmz_homp
                       : !strcmp(Mode, "dynamic") ? npbmz_dynamic
                       : !strcmp(Mode, "profile") ? npbmz_profile
                       : !strcmp(Mode, "memo")    ? npbmz_memo
                       : !strcmp(Mode, "auto")    ? npbmz_auto
                                                  : NULL;
  if (!Fn || n < 1 || n > 64 || reps < 1) {
    fprintf(stderr, "%s: bad arguments\n", argv[0]);
    return 2;
  }
  Mesh M = {n, n * n, 0, 0, 0, malloc(sizeof(int) * n), malloc(sizeof(int) * n),
            NULL, NULL, NULL, NULL};
  // 48 points a zone on average along each side; the largest zone about 20
  // times the smallest in points (sqrt(20) along each side).
  widths(M.wx, n, 48 * n, sqrt(20));
  widths(M.wy, n, 48 * n, sqrt(20));
  for (int I = 0; I < n; ++I) {
    M.mx = M.wx[I] > M.mx ? M.wx[I] : M.mx;
    M.my = M.wy[I] > M.my ? M.wy[I] : M.my;
  }
  M.m = M.mx > M.my ? M.mx : M.my;
  M.u = malloc(sizeof(double) * uSize(&M));
  M.u0 = malloc(sizeof(double) * uSize(&M));
  M.fa = malloc(sizeof(double) * fSize(&M));
  M.fb = malloc(sizeof(double) * fSize(&M));
  for (size_t I = 0; I < uSize(&M); ++I)
    M.u0[I] = (double)(I % 97) / 97.0;
  bench_run(Mode, n, reps, Fn, &M, checksum);
  free(M.u);
  free(M.u0);
  free(M.fa);
  free(M.fb);
  free(M.wx);
  free(M.wy);
  return 0;
}
