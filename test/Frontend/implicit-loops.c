// The inner loops of a collapsed nest without a policy of their own: one
// that subscripts a dimension a distributed array splits in BLOCKs (the
// kernel's own array, or an enclosing data region's) is marked implicit
// (flags 2, abi::Loop::Implicit) and reads its bounds from the chunk; one
// over an unsplit dimension keeps its own header (FULL), as Jacobi's
// columns do. With an implicit inner loop and no policy at all, loop 0 is
// implicit too: it follows its arrays, or runs whole when they are split
// by columns only.
// RUN: %clang_cc1_homp -fsyntax-only -fpass-plugin=%homp_pass -plugin-arg-homp print-regions %s 2>&1 | FileCheck %s

void f(int n, int m, double (*u)[m], double (*v)[m], double (*w)[m]) {
  // CHECK: "homp 10 kernel\nloc {{.*}} [[# @LINE + 1]] 1\ndevice all 0 0\ntopology 2 1 1 0:\nloop lt 6 block\nloop lt 6 block\n
#pragma omp target device(*) topology([2][2]) map(tofrom: u[0:n][0:m] dist_data(BLOCK, BLOCK))
#pragma omp parallel for collapse(2)
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < m; ++j)
      u[i][j] += 1;
  // CHECK: for ( int j = ( sizeof ( __typeof__ ( j ) ) > 4 ? ( __typeof__ ( j ) ) ( __homp_chunk_{{[0-9]+}} . l [ 1 ] . first ) : ( __typeof__ ( j ) ) ( __homp_chunk_{{[0-9]+}} . l [ 1 ] . first32 ) )

  // Rows only: the columns keep their header.
  // CHECK: "homp 10 kernel\nloc {{.*}} [[# @LINE + 1]] 1\ndevice all 0 0\nloop lt 4 block\nloop lt 4 full\n
#pragma omp target device(*) map(tofrom: v[0:n][0:m] dist_data(BLOCK, *))
#pragma omp parallel for collapse(2)
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < m; ++j)
      v[i][j] += 1;
  // CHECK: for ( int j = 0 ; j < m ; ++ j )

  // Columns only: both loops follow v, so the rows run whole.
  // CHECK: "homp 10 kernel\nloc {{.*}} [[# @LINE + 1]] 1\ndevice all 0 0\nloop lt 6 block\nloop lt 6 block\n
#pragma omp target device(*) map(tofrom: v[0:n][0:m] dist_data(*, BLOCK))
#pragma omp parallel for collapse(2)
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < m; ++j)
      v[i][j] += 1;

  // With a policy, loop 0 keeps it (on 2 x 2 devices: rows and columns).
  // CHECK: "homp 10 kernel\nloc {{.*}} [[# @LINE + 1]] 1\ndevice all 0 0\ntopology 2 1 1 0:\nloop lt 0 block\nloop lt 6 block\n
#pragma omp target device(*) topology([2][2]) map(tofrom: v[0:n][0:m] dist_data(*, BLOCK))
#pragma omp parallel for collapse(2) dist_iteration(BLOCK)
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < m; ++j)
      v[i][j] += 1;

  // An enclosing data region's array split in both dimensions; the other
  // array is not distributed.
#pragma omp target data device(*) map(tofrom: w[0:n][0:m] dist_data(BLOCK, BLOCK) topology([2][2]))
  {
    // CHECK: "homp 10 kernel\nloc {{.*}} [[# @LINE + 1]] 1\ndevice all 0 0\nloop lt 6 block\nloop lt 6 block\n
#pragma omp target device(*)
#pragma omp parallel for collapse(2)
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < m; ++j)
        w[i][j] += v[i][j];
  }
}
