//===-- contract.c - Intrepid's field-field contractions -------*- C -*-===//
//
// Intrepid's ArrayTools (the Kokkos report) contract two fields over each
// cell's integration points, on their natural 3-D to 5-D arrays, cells
// outermost:
//   scalar  out(c, l, r) = sum_q left(c, l, q) * right(c, r, q)
//   vector  out(c, l, r) = sum_q sum_d left(c, l, q, d) * right(c, r, q, d)
//   tensor  out(c, l, r) = sum_q sum_d sum_e
//                              left(c, l, q, d, e) * right(c, r, q, d, e)
// (contractFieldFieldScalar, ...Vector, ...Tensor), L = R = 8 fields (a
// hexahedron's basis), Q = 8 points, D = E = 3. Each contraction in these
// versions, MODE being KIND:VERSION (tensor:homp, say):
//   seq     sequential host loops (the reference)
//   mdev    hand-written multi-device OpenMP: one host thread per device, a
//           manual BLOCK split of the cells, each device's cells of left,
//           right and out mapped as sections
//   homp    homp: the three arrays BLOCK over their cells, the loop aligned
//           with out
// Every call copies left and right in and out back, as the papers time it.
//
// usage: contract KIND:VERSION CELLS REPETITIONS
//
//===----------------------------------------------------------------------===//

#include "../../common/bench.h"

#include <omp.h>
#include <string.h>

enum { L = 8, R = 8, Q = 8, D = 3, E = 3 };

typedef struct {
  int cells;
  int dims; ///< 0: scalar, 1: vector, 2: tensor
  double *left, *right, *out;
} Fields;

/// Values per (cell, field) of left or right.
static long perField(const Fields *F) {
  return F->dims == 0 ? Q : F->dims == 1 ? Q * D : Q * D * E;
}

// ---- sequential --------------------------------------------------------

static void contract_seq(void *P) {
  Fields *F = P;
  const int C = F->cells;
  double(*out)[L][R] = (void *)F->out;
  if (F->dims == 0) {
    double(*left)[L][Q] = (void *)F->left, (*right)[R][Q] = (void *)F->right;
    for (int c = 0; c < C; ++c)
      for (int l = 0; l < L; ++l)
        for (int r = 0; r < R; ++r) {
          double s = 0;
          for (int q = 0; q < Q; ++q)
            s += left[c][l][q] * right[c][r][q];
          out[c][l][r] = s;
        }
  } else if (F->dims == 1) {
    double(*left)[L][Q][D] = (void *)F->left,
    (*right)[R][Q][D] = (void *)F->right;
    for (int c = 0; c < C; ++c)
      for (int l = 0; l < L; ++l)
        for (int r = 0; r < R; ++r) {
          double s = 0;
          for (int q = 0; q < Q; ++q)
            for (int d = 0; d < D; ++d)
              s += left[c][l][q][d] * right[c][r][q][d];
          out[c][l][r] = s;
        }
  } else {
    double(*left)[L][Q][D][E] = (void *)F->left,
    (*right)[R][Q][D][E] = (void *)F->right;
    for (int c = 0; c < C; ++c)
      for (int l = 0; l < L; ++l)
        for (int r = 0; r < R; ++r) {
          double s = 0;
          for (int q = 0; q < Q; ++q)
            for (int d = 0; d < D; ++d)
              for (int e = 0; e < E; ++e)
                s += left[c][l][q][d][e] * right[c][r][q][d][e];
          out[c][l][r] = s;
        }
  }
}

// ---- hand-written multi-device -----------------------------------------

static void contract_mdev(void *P) {
  Fields *F = P;
  const int C = F->cells, ndev = omp_get_num_devices(), dims = F->dims;
  double(*out)[L][R] = (void *)F->out;
#pragma omp parallel num_threads(ndev)
  {
    int dev = omp_get_thread_num();
    int per = C / ndev, extra = C % ndev;
    int first = dev * per + (dev < extra ? dev : extra);
    int count = per + (dev < extra);
    if (dims == 0) {
      double(*left)[L][Q] = (void *)F->left, (*right)[R][Q] = (void *)F->right;
#pragma omp target teams distribute parallel for device(dev) \
    map(to: left[first:count][0:L][0:Q], right[first:count][0:R][0:Q]) \
    map(from: out[first:count][0:L][0:R])
      for (int c = first; c < first + count; ++c)
        for (int l = 0; l < L; ++l)
          for (int r = 0; r < R; ++r) {
            double s = 0;
            for (int q = 0; q < Q; ++q)
              s += left[c][l][q] * right[c][r][q];
            out[c][l][r] = s;
          }
    } else if (dims == 1) {
      double(*left)[L][Q][D] = (void *)F->left,
      (*right)[R][Q][D] = (void *)F->right;
#pragma omp target teams distribute parallel for device(dev) \
    map(to: left[first:count][0:L][0:Q][0:D], \
            right[first:count][0:R][0:Q][0:D]) \
    map(from: out[first:count][0:L][0:R])
      for (int c = first; c < first + count; ++c)
        for (int l = 0; l < L; ++l)
          for (int r = 0; r < R; ++r) {
            double s = 0;
            for (int q = 0; q < Q; ++q)
              for (int d = 0; d < D; ++d)
                s += left[c][l][q][d] * right[c][r][q][d];
            out[c][l][r] = s;
          }
    } else {
      double(*left)[L][Q][D][E] = (void *)F->left,
      (*right)[R][Q][D][E] = (void *)F->right;
#pragma omp target teams distribute parallel for device(dev) \
    map(to: left[first:count][0:L][0:Q][0:D][0:E], \
            right[first:count][0:R][0:Q][0:D][0:E]) \
    map(from: out[first:count][0:L][0:R])
      for (int c = first; c < first + count; ++c)
        for (int l = 0; l < L; ++l)
          for (int r = 0; r < R; ++r) {
            double s = 0;
            for (int q = 0; q < Q; ++q)
              for (int d = 0; d < D; ++d)
                for (int e = 0; e < E; ++e)
                  s += left[c][l][q][d][e] * right[c][r][q][d][e];
            out[c][l][r] = s;
          }
    }
  }
}

// ---- homp ----------------------------------------------------------------

static void contract_homp(void *P) {
  Fields *F = P;
  const int C = F->cells;
  double(*out)[L][R] = (void *)F->out;
  if (F->dims == 0) {
    double(*left)[L][Q] = (void *)F->left, (*right)[R][Q] = (void *)F->right;
#pragma omp target teams distribute parallel for device(*) \
    map(to: left[0:C][0:L][0:Q] dist_data(BLOCK), \
            right[0:C][0:R][0:Q] dist_data(BLOCK)) \
    map(from: out[0:C][0:L][0:R] dist_data(BLOCK)) \
    dist_schedule(target: ALIGN(out))
    for (int c = 0; c < C; ++c)
      for (int l = 0; l < L; ++l)
        for (int r = 0; r < R; ++r) {
          double s = 0;
          for (int q = 0; q < Q; ++q)
            s += left[c][l][q] * right[c][r][q];
          out[c][l][r] = s;
        }
  } else if (F->dims == 1) {
    double(*left)[L][Q][D] = (void *)F->left,
    (*right)[R][Q][D] = (void *)F->right;
#pragma omp target teams distribute parallel for device(*) \
    map(to: left[0:C][0:L][0:Q][0:D] dist_data(BLOCK), \
            right[0:C][0:R][0:Q][0:D] dist_data(BLOCK)) \
    map(from: out[0:C][0:L][0:R] dist_data(BLOCK)) \
    dist_schedule(target: ALIGN(out))
    for (int c = 0; c < C; ++c)
      for (int l = 0; l < L; ++l)
        for (int r = 0; r < R; ++r) {
          double s = 0;
          for (int q = 0; q < Q; ++q)
            for (int d = 0; d < D; ++d)
              s += left[c][l][q][d] * right[c][r][q][d];
          out[c][l][r] = s;
        }
  } else {
    double(*left)[L][Q][D][E] = (void *)F->left,
    (*right)[R][Q][D][E] = (void *)F->right;
#pragma omp target teams distribute parallel for device(*) \
    map(to: left[0:C][0:L][0:Q][0:D][0:E] dist_data(BLOCK), \
            right[0:C][0:R][0:Q][0:D][0:E] dist_data(BLOCK)) \
    map(from: out[0:C][0:L][0:R] dist_data(BLOCK)) \
    dist_schedule(target: ALIGN(out))
    for (int c = 0; c < C; ++c)
      for (int l = 0; l < L; ++l)
        for (int r = 0; r < R; ++r) {
          double s = 0;
          for (int q = 0; q < Q; ++q)
            for (int d = 0; d < D; ++d)
              for (int e = 0; e < E; ++e)
                s += left[c][l][q][d][e] * right[c][r][q][d][e];
          out[c][l][r] = s;
        }
  }
}

static double checksum(void *P) {
  Fields *F = P;
  double S = 0;
  for (long i = 0; i < (long)F->cells * L * R; ++i)
    S += F->out[i] * (i % 7 + 1);
  return S;
}

int main(int argc, char **argv) {
  if (argc != 4) {
    fprintf(stderr,
            "usage: %s scalar|vector|tensor:seq|mdev|homp CELLS REPETITIONS\n",
            argv[0]);
    return 2;
  }
  const char *Mode = argv[1], *Colon = strchr(Mode, ':');
  int cells = atoi(argv[2]), reps = atoi(argv[3]);
  Fields F = {cells, -1, NULL, NULL, NULL};
  if (Colon) {
    size_t K = (size_t)(Colon - Mode);
    F.dims = !strncmp(Mode, "scalar", K) && K == 6   ? 0
             : !strncmp(Mode, "vector", K) && K == 6 ? 1
             : !strncmp(Mode, "tensor", K) && K == 6 ? 2
                                                     : -1;
  }
  const char *Version = Colon ? Colon + 1 : "";
  void (*Fn)(void *) = !strcmp(Version, "seq")    ? contract_seq
                       : !strcmp(Version, "mdev") ? contract_mdev
                       : !strcmp(Version, "homp") ? contract_homp
                                                  : NULL;
  if (!Fn || F.dims < 0 || cells < 1 || reps < 1) {
    fprintf(stderr, "%s: bad arguments\n", argv[0]);
    return 2;
  }
  const long Values = (long)cells * L * perField(&F);
  F.left = malloc(sizeof(double) * Values);
  F.right = malloc(sizeof(double) * Values);
  F.out = malloc(sizeof(double) * cells * L * R);
  for (long i = 0; i < Values; ++i) {
    F.left[i] = (i % 13) * 0.25 - 1;
    F.right[i] = (i % 11) * 0.5 - 2;
  }
  bench_run(Mode, cells, reps, Fn, &F, checksum);
  free(F.left);
  free(F.right);
  free(F.out);
  return 0;
}
