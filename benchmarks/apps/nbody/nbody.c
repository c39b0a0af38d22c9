//===-- nbody.c - STEPOCL's all-pairs N-body --------------------*- C -*-===//
//
// STEPOCL's N-body: every body feels every other (softened gravity), and a
// step updates each body's velocity from the pull of all, then its
// position. Split over devices, every device reads all positions and
// updates its own bodies, so after each step every device needs the
// positions the others updated. A call runs STEPS = 10 steps on bodies
// whose positions and masses are rows pos[i] = {x, y, z, m}, velocities
// vel[i] = {vx, vy, vz, 0}, copied in at the start and out at the end.
// MODE is one of:
//   seq     sequential host loops (the reference)
//   mdev    hand-written multi-device OpenMP, the host relay: one host
//           thread per device, a manual BLOCK split of the bodies, each
//           device holding all positions and its own velocities; after
//           each step every device copies its bodies' positions to the
//           host and, once all have, the others' from it
//   homp    homp: pos BLOCK over the bodies with 'halo(*,)' (every device
//           holds all of them and owns its block), vel BLOCK, both resident
//           for the call's steps; 'halo_exchange(pos)' after each step
//           sends each device what it does not own, device to device
// Every version sums each body's pull in the same order, so all agree bit
// for bit.
//
// usage: nbody MODE BODIES REPETITIONS
//
//===----------------------------------------------------------------------===//

#include "../../common/bench.h"

#include <math.h>
#include <omp.h>
#include <string.h>

enum { Steps = 10 };
static const double Dt = 1e-3, Soft = 1e-2;

typedef struct {
  int n;
  double (*pos)[4], (*vel)[4];
  double (*pos0)[4]; ///< the initial positions each call starts from
} Bodies;

static void reset(Bodies *B) {
  memcpy(B->pos, B->pos0, sizeof(double) * 4 * B->n);
  memset(B->vel, 0, sizeof(double) * 4 * B->n);
}

// One body's new velocity from the pull of all (the same code in every
// version; the kernels spell it out so that the compiler sees it whole).
#define PULL(pos, vel, i, n)                                                   \
  do {                                                                         \
    double ax = 0, ay = 0, az = 0;                                             \
    for (int j = 0; j < (n); ++j) {                                            \
      double dx = pos[j][0] - pos[i][0], dy = pos[j][1] - pos[i][1],           \
             dz = pos[j][2] - pos[i][2];                                       \
      double r2 = dx * dx + dy * dy + dz * dz + Soft;                          \
      double s = pos[j][3] / (r2 * sqrt(r2));                                  \
      ax += dx * s;                                                            \
      ay += dy * s;                                                            \
      az += dz * s;                                                            \
    }                                                                          \
    vel[i][0] += Dt * ax;                                                      \
    vel[i][1] += Dt * ay;                                                      \
    vel[i][2] += Dt * az;                                                      \
  } while (0)

#define MOVE(pos, vel, i)                                                      \
  do {                                                                         \
    pos[i][0] += Dt * vel[i][0];                                               \
    pos[i][1] += Dt * vel[i][1];                                               \
    pos[i][2] += Dt * vel[i][2];                                               \
  } while (0)

// ---- sequential --------------------------------------------------------

static void nbody_seq(void *P) {
  Bodies *B = P;
  reset(B);
  const int n = B->n;
  double(*pos)[4] = B->pos, (*vel)[4] = B->vel;
  for (int s = 0; s < Steps; ++s) {
    for (int i = 0; i < n; ++i)
      PULL(pos, vel, i, n);
    for (int i = 0; i < n; ++i)
      MOVE(pos, vel, i);
  }
}

// ---- hand-written multi-device: the host relay -------------------------

static void nbody_mdev(void *P) {
  Bodies *B = P;
  reset(B);
  const int n = B->n, ndev = omp_get_num_devices();
  double(*pos)[4] = B->pos, (*vel)[4] = B->vel;
#pragma omp parallel num_threads(ndev)
  {
    int dev = omp_get_thread_num();
    int per = n / ndev, extra = n % ndev;
    int first = dev * per + (dev < extra ? dev : extra);
    int count = per + (dev < extra), last = first + count;
#pragma omp target data device(dev) map(to: pos[0:n][0:4]) \
    map(tofrom: vel[first:count][0:4])
    {
      for (int s = 0; s < Steps; ++s) {
#pragma omp target teams distribute parallel for device(dev)
        for (int i = first; i < last; ++i)
          PULL(pos, vel, i, n);
#pragma omp target teams distribute parallel for device(dev)
        for (int i = first; i < last; ++i)
          MOVE(pos, vel, i);
#pragma omp target update device(dev) from(pos[first:count][0:4])
#pragma omp barrier
#pragma omp target update device(dev) to(pos[0:first][0:4])
#pragma omp target update device(dev) to(pos[last:n - last][0:4])
        // Nobody overwrites the host's positions before all have read.
#pragma omp barrier
      }
    }
  }
}

// ---- homp ----------------------------------------------------------------

static void nbody_homp(void *P) {
  Bodies *B = P;
  reset(B);
  const int n = B->n;
  double(*pos)[4] = B->pos, (*vel)[4] = B->vel;
#pragma omp target data device(*) \
    map(tofrom: pos[0:n][0:4] dist_data(BLOCK, *) halo(*,)) \
    map(tofrom: vel[0:n][0:4] dist_data(BLOCK, *))
  {
    for (int s = 0; s < Steps; ++s) {
#pragma omp target device(*)
#pragma omp parallel for dist_iteration(BLOCK)
      for (int i = 0; i < n; ++i)
        PULL(pos, vel, i, n);
#pragma omp target device(*)
#pragma omp parallel for dist_iteration(BLOCK)
      for (int i = 0; i < n; ++i)
        MOVE(pos, vel, i);
#pragma omp halo_exchange(pos)
    }
  }
}

static double checksum(void *P) {
  Bodies *B = P;
  double S = 0;
  for (int i = 0; i < B->n; ++i)
    for (int d = 0; d < 3; ++d)
      S += B->pos[i][d] * (d + 1) + B->vel[i][d] * (i % 5 + 1);
  return S;
}

int main(int argc, char **argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: %s seq|mdev|homp BODIES REPETITIONS\n", argv[0]);
    return 2;
  }
  const char *Mode = argv[1];
  int n = atoi(argv[2]), reps = atoi(argv[3]);
  void (*Fn)(void *) = !strcmp(Mode, "seq")    ? nbody_seq
                       : !strcmp(Mode, "mdev") ? nbody_mdev
                       : !strcmp(Mode, "homp") ? nbody_homp
                                               : NULL;
  if (!Fn || n < 1 || reps < 1) {
    fprintf(stderr, "%s: bad arguments\n", argv[0]);
    return 2;
  }
  Bodies B = {n, malloc(sizeof(double) * 4 * n), malloc(sizeof(double) * 4 * n),
              malloc(sizeof(double) * 4 * n)};
  // Bodies on a jittered lattice, masses 1 to 2.
  for (int i = 0; i < n; ++i) {
    B.pos0[i][0] = (i % 16) + 0.01 * (i % 7);
    B.pos0[i][1] = (i / 16 % 16) + 0.01 * (i % 5);
    B.pos0[i][2] = (i / 256) + 0.01 * (i % 3);
    B.pos0[i][3] = 1 + (i % 11) / 10.0;
  }
  bench_run(Mode, n, reps, Fn, &B, checksum);
  free(B.pos);
  free(B.vel);
  free(B.pos0);
  return 0;
}
