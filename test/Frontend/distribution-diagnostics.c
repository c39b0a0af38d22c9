// Every diagnostic of device lists, topologies, distributions, halos and
// loop nests, at the offending token.
// RUN: %clang_cc1_homp -fsyntax-only -fpass-plugin=%homp_pass -verify %s

void f(double *x, double *y, int n, double (*m)[8], double s, int k) {
  // expected-error@+1 {{homp: malformed device specifier; expected '*', 'id', 'id:count', 'id:*', ':count' or 'host', each optionally with ':TYPE' or '& TYPE'}}
#pragma omp target device(*:HOMP_DEVICE_GPU:2) map(tofrom: y[0:n] dist_data(BLOCK))
  for (int i = 0; i < n; ++i) y[i] = 0;

  // expected-error@+1 {{homp: malformed device specifier}}
#pragma omp target device(0:2:3) map(tofrom: y[0:n] dist_data(BLOCK))
  for (int i = 0; i < n; ++i) y[i] = 0;

  // expected-error@+1 {{homp: the block size of BLOCK must be a positive integer}}
#pragma omp target device(*) map(tofrom: y[0:n] dist_data(BLOCK(0)))
  for (int i = 0; i < n; ++i) y[i] = 0;

  // expected-error@+1 {{homp: the block size of CYCLIC must be a positive integer}}
#pragma omp target device(*) map(tofrom: y[0:n] dist_data(CYCLIC(-2)))
  for (int i = 0; i < n; ++i) y[i] = 0;

  // expected-error@+1 {{homp: the block size of CYCLIC must be a positive integer}}
#pragma omp target device(*) map(tofrom: y[0:n] dist_data(CYCLIC()))
  for (int i = 0; i < n; ++i) y[i] = 0;

  // expected-error@+1 {{homp: too many arguments to BLOCK; expected one, the block size}}
#pragma omp target device(*) map(tofrom: y[0:n] dist_data(BLOCK(1, 2)))
  for (int i = 0; i < n; ++i) y[i] = 0;

  // expected-error@+1 {{homp: too many arguments to CYCLIC; expected one, the block size}}
#pragma omp target teams distribute parallel for device(*) map(tofrom: y[0:n] dist_data(BLOCK)) dist_schedule(target: CYCLIC(n, 2))
  for (int i = 0; i < n; ++i) y[i] = 0;

  // expected-error@+1 {{homp: too many arguments to ALIGN; expected an array or a loop label, and optionally a ratio}}
#pragma omp target device(*) map(tofrom: y[0:n] dist_data(ALIGN(x, 2, 3)), x[0:n] dist_data(BLOCK))
  for (int i = 0; i < n; ++i) y[i] = x[i];

  // expected-error@+1 {{homp: an ALIGN ratio must be a positive constant: an integer, a decimal number or 'a/b'}}
#pragma omp target device(*) map(tofrom: y[0:n] dist_data(ALIGN(x, k)), x[0:n] dist_data(BLOCK))
  for (int i = 0; i < n; ++i) y[i] = x[i];

  // expected-error@+1 {{homp: an ALIGN ratio must be a positive constant}}
#pragma omp target device(*) map(tofrom: y[0:n] dist_data(ALIGN(x, 0)), x[0:n] dist_data(BLOCK))
  for (int i = 0; i < n; ++i) y[i] = x[i];

  // expected-error@+1 {{homp: malformed topology; expected an optional name and one '[size]' or '[*]' per dimension, or a topology's name}}
#pragma omp target device(*) topology([2](2)) map(tofrom: y[0:n] dist_data(BLOCK))
  for (int i = 0; i < n; ++i) y[i] = 0;

  // expected-error@+1 {{homp: malformed topology}}
#pragma omp target device(*) topology([]) map(tofrom: y[0:n] dist_data(BLOCK))
  for (int i = 0; i < n; ++i) y[i] = 0;

  // expected-error@+1 {{homp: a topology dimension must be a positive number of devices}}
#pragma omp target device(*) topology([2][0]) map(tofrom: y[0:n] dist_data(BLOCK))
  for (int i = 0; i < n; ++i) y[i] = 0;

  // expected-error@+1 {{homp: a topology dimension must be a positive number of devices}}
#pragma omp target device(*) topology([-1]) map(tofrom: y[0:n] dist_data(BLOCK))
  for (int i = 0; i < n; ++i) y[i] = 0;

  // expected-error@+1 {{homp: no topology named 'grid' is declared before this directive}}
#pragma omp target device(*) topology(grid) map(tofrom: y[0:n] dist_data(BLOCK))
  for (int i = 0; i < n; ++i) y[i] = 0;
  // The same of a data region.
  // expected-error@+1 {{homp: no topology named 'mesh' is declared before this directive}}
#pragma omp target data device(*) topology(mesh) map(tofrom: y[0:n] dist_data(BLOCK))
  { y[0] = 1; }

  // An item's device list: ids only.
  // expected-error@+1 {{homp: malformed 'topology' of a distributed item; expected '[*]', 'target', the construct's topology's name, or device ids separated by commas}}
#pragma omp target device(*) map(tofrom: y[0:n] dist_data(BLOCK) topology(0, -1))
  for (int i = 0; i < n; ++i) y[i] = 0;

  // expected-error@+1 {{homp: malformed 'topology' of a distributed item}}
#pragma omp target device(*) map(tofrom: y[0:n] dist_data(BLOCK) topology(0:2))
  for (int i = 0; i < n; ++i) y[i] = 0;

  // expected-error@+1 {{homp: malformed 'topology' of a distributed item}}
#pragma omp target device(*) map(tofrom: y[0:n] dist_data(BLOCK) topology(0, , 1))
  for (int i = 0; i < n; ++i) y[i] = 0;

  // expected-error@+1 {{homp: malformed 'topology' of a distributed item}}
#pragma omp target device(*) map(tofrom: y[0:n] dist_data(BLOCK) topology(host))
  for (int i = 0; i < n; ++i) y[i] = 0;

  // expected-error@+1 {{homp: malformed 'topology' of a distributed item}}
#pragma omp target device(*) map(tofrom: y[0:n] dist_data(BLOCK) topology())
  for (int i = 0; i < n; ++i) y[i] = 0;

  // expected-error@+1 {{homp: the topology of 'y' is given twice}}
#pragma omp target device(*) map(tofrom: y[0:n] dist_data(BLOCK) topology(0, 1) topology(2))
  for (int i = 0; i < n; ++i) y[i] = 0;

  // expected-error@+1 {{homp: the topology of 'y' is given twice}}
#pragma omp target device(*) map(tofrom: y[0:n] dist_data(BLOCK) topology([2][2]) topology([*]))
  for (int i = 0; i < n; ++i) y[i] = 0;

  // expected-error@+1 {{homp: a topology dimension must be a positive number of devices}}
#pragma omp target device(*) map(tofrom: y[0:n] dist_data(BLOCK) topology([2][0]))
  for (int i = 0; i < n; ++i) y[i] = 0;

  // An unknown name is a device id: clang reports it at the name.
  // expected-error@+1 {{use of undeclared identifier 'gird'}}
#pragma omp target device(*) map(tofrom: y[0:n] dist_data(BLOCK) topology(gird))
  for (int i = 0; i < n; ++i) y[i] = 0;

  // expected-error@+1 {{homp: a halo width must be an integer literal (such as 'halo(2,)'), not 'one': the widths are part of the region's description, fixed when it compiles}}
#pragma omp target device(*) map(tofrom: y[0:n] dist_data(BLOCK) halo(one))
  for (int i = 0; i < n; ++i) y[i] = 0;

  // expected-error@+1 {{homp: a halo width must be an integer literal (such as 'halo(2,)'), not '('}}
#pragma omp target device(*) map(tofrom: y[0:n] dist_data(BLOCK) halo((2)))
  for (int i = 0; i < n; ++i) y[i] = 0;

  // expected-error@+1 {{homp: malformed halo; expected per dimension nothing, 'width', 'width:edge', 'left:right' or 'left[:edge] right[:edge]'}}
#pragma omp target device(*) map(tofrom: y[0:n] dist_data(BLOCK) halo(1 2 3))
  for (int i = 0; i < n; ++i) y[i] = 0;

  // expected-error@+1 {{homp: a halo width must not be negative}}
#pragma omp target device(*) map(tofrom: y[0:n] dist_data(BLOCK) halo(-1))
  for (int i = 0; i < n; ++i) y[i] = 0;

  // expected-error@+1 {{homp: unknown halo edge 'wrap'; expected periodic, reflecting or none}}
#pragma omp target device(*) map(tofrom: y[0:n] dist_data(BLOCK) halo(1:wrap))
  for (int i = 0; i < n; ++i) y[i] = 0;

  // expected-error@+1 {{homp: unknown halo edge '1.5'; expected periodic, reflecting or none}}
#pragma omp target device(*) map(tofrom: y[0:n] dist_data(BLOCK) halo(1:1.5))
  for (int i = 0; i < n; ++i) y[i] = 0;

  // expected-error@+1 {{homp: malformed halo}}
#pragma omp target device(*) map(tofrom: y[0:n] dist_data(BLOCK) halo(1:))
  for (int i = 0; i < n; ++i) y[i] = 0;

  // expected-error@+1 {{homp: malformed halo}}
#pragma omp target device(*) map(tofrom: y[0:n] dist_data(BLOCK) halo(1:2:3))
  for (int i = 0; i < n; ++i) y[i] = 0;

  // expected-error@+1 {{homp: a '*' halo holds every element of its dimension, so it has no 'periodic' edge; write '*' alone}}
#pragma omp target device(*) map(tofrom: y[0:n] dist_data(BLOCK) halo(*:periodic))
  for (int i = 0; i < n; ++i) y[i] = 0;

  // expected-error@+1 {{homp: a '*' halo holds every element of its dimension, so it has no 'reflecting' edge}}
#pragma omp target device(*) map(tofrom: y[0:n] dist_data(BLOCK) halo(1 *:reflecting))
  for (int i = 0; i < n; ++i) y[i] = 0;

  // expected-error@+1 {{homp: malformed halo}}
#pragma omp target device(*) map(tofrom: y[0:n] dist_data(BLOCK) halo(* * *))
  for (int i = 0; i < n; ++i) y[i] = 0;

  // expected-error@+1 {{homp: malformed halo}}
#pragma omp target device(*) map(tofrom: y[0:n] dist_data(BLOCK) halo(*|))
  for (int i = 0; i < n; ++i) y[i] = 0;

  // expected-error@+1 {{homp: malformed halo}}
#pragma omp target device(*) map(tofrom: y[0:n] dist_data(BLOCK) halo(2|))
  for (int i = 0; i < n; ++i) y[i] = 0;

  // expected-error@+1 {{homp: a halo needs a dimension split in BLOCKs (one block per device), but dimension 0 of 'y' is CYCLIC}}
#pragma omp target device(*) map(tofrom: y[0:n] dist_data(CYCLIC) halo(*))
  for (int i = 0; i < n; ++i) y[i] = 0;

  // expected-error@+1 {{homp: halo has 3 dimension specs but 'y' has 1 dimension}}
#pragma omp target device(*) map(tofrom: y[0:n] dist_data(BLOCK) halo(1,1,1))
  for (int i = 0; i < n; ++i) y[i] = 0;

  // expected-error@+1 {{homp: a halo needs a dimension split in BLOCKs (one block per device), but dimension 0 of 'y' is CYCLIC}}
#pragma omp target device(*) map(tofrom: y[0:n] dist_data(CYCLIC) halo(1))
  for (int i = 0; i < n; ++i) y[i] = 0;

  // expected-error@+1 {{homp: a halo needs a dimension split in BLOCKs (one block per device), but dimension 0 of 'y' is BLOCK(n), blocks of n dealt out in turn}}
#pragma omp target device(*) map(tofrom: y[0:n] dist_data(BLOCK(4)) halo(1))
  for (int i = 0; i < n; ++i) y[i] = 0;

  // expected-error@+1 {{homp: a halo needs a dimension split in BLOCKs (one block per device), but dimension 1 of 'm' is not split}}
#pragma omp target device(*) map(tofrom: m[0:n][0:8] dist_data(BLOCK, *) halo(,1))
  for (int i = 0; i < n; ++i) m[i][0] = 0;

  // expected-error@+1 {{homp: 'y' has a halo but no distribution (add dist_data or partition)}}
#pragma omp target device(*) map(tofrom: y[0:n] halo(1))
  for (int i = 0; i < n; ++i) y[i] = 0;

  // expected-error@+1 {{homp: 3 distribution policies for 'm', which has 2 dimensions}}
#pragma omp target device(*) map(tofrom: m[0:n][0:8] dist_data(BLOCK, BLOCK, BLOCK))
  for (int i = 0; i < n; ++i) m[i][0] = 0;

  // expected-error@+1 {{homp: 2 distribution policies for 'y', which has 1 dimension}}
#pragma omp target device(*) map(tofrom: y[0:n] partition([BLOCK][BLOCK]))
  for (int i = 0; i < n; ++i) y[i] = 0;

  // expected-error@+1 {{homp: the distribution of 'y' is given twice}}
#pragma omp target device(*) map(tofrom: y[0:n] dist_data(BLOCK) partition(BLOCK))
  for (int i = 0; i < n; ++i) y[i] = 0;

  // A policy left out: leading, doubled and trailing commas.
  // expected-error@+1 {{homp: expected a distribution policy (BLOCK, BLOCK(n), CYCLIC, CYCLIC(n), DUPLICATE, FULL, ALIGN)}}
#pragma omp target device(*) map(tofrom: m[0:n][0:8] dist_data(, BLOCK))
  for (int i = 0; i < n; ++i) m[i][0] = 0;

  // expected-error@+1 {{homp: expected a distribution policy}}
#pragma omp target device(*) map(tofrom: y[0:n] dist_data(,BLOCK))
  for (int i = 0; i < n; ++i) y[i] = 0;

  // expected-error@+1 {{homp: expected a distribution policy}}
#pragma omp target device(*) map(tofrom: m[0:n][0:8] dist_data(BLOCK,,*))
  for (int i = 0; i < n; ++i) m[i][0] = 0;

  // expected-error@+1 {{homp: expected a distribution policy}}
#pragma omp target device(*) map(tofrom: m[0:n][0:8] dist_data(BLOCK, ))
  for (int i = 0; i < n; ++i) m[i][0] = 0;

  // expected-error@+2 {{homp: expected a distribution policy (BLOCK, BLOCK(n), CYCLIC, CYCLIC(n), FULL, ALIGN, AUTO or a scheduler kind: SCHED_STATIC, SCHED_DYNAMIC, SCHED_GUIDED, MODEL_1_AUTO, MODEL_2_AUTO, SCHED_PROFILE_AUTO, MODEL_PROFILE_AUTO)}}
#pragma omp target device(*) map(tofrom: m[0:n][0:8] dist_data(BLOCK, *))
#pragma omp parallel for collapse(2) dist_iteration(BLOCK,)
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < 8; ++j) m[i][j] = 0;

  // expected-error@+1 {{homp: the block size of BLOCK must be a positive integer}}
#pragma omp target device(*) map(tofrom: y[0:n] dist_data(BLOCK(1.5)))
  for (int i = 0; i < n; ++i) y[i] = 0;

  // expected-error@+1 {{homp: the block size of CYCLIC must be a positive integer}}
#pragma omp target device(*) map(tofrom: y[0:n] dist_data(CYCLIC(2e1)))
  for (int i = 0; i < n; ++i) y[i] = 0;

  // expected-error@+1 {{homp: the halo of 'y' is given twice}}
#pragma omp target device(*) map(tofrom: y[0:n] dist_data(BLOCK) halo(1) halo(2))
  for (int i = 0; i < n; ++i) y[i] = 0;

  // expected-error@+1 {{homp: the 'device' clause is given twice}}
#pragma omp target device(0:2) device(2:2) map(tofrom: y[0:n] dist_data(BLOCK))
  for (int i = 0; i < n; ++i) y[i] = 0;

  // expected-error@+1 {{homp: the 'topology' clause is given twice}}
#pragma omp target device(*) topology([2][2]) topology([4]) map(tofrom: y[0:n] dist_data(BLOCK))
  for (int i = 0; i < n; ++i) y[i] = 0;

  // expected-error@+1 {{homp: the 'device' clause is given twice}}
#pragma omp target data device(*) device(1) map(tofrom: y[0:n] dist_data(BLOCK))
  { y[0] = 1; }

  // expected-error@+1 {{homp: only arrays and array sections can be distributed, and 's' is neither}}
#pragma omp target device(*) map(tofrom: s dist_data(BLOCK)) map(tofrom: y[0:n] dist_data(BLOCK))
  for (int i = 0; i < n; ++i) y[i] = s;

  // expected-error@+1 {{homp: 'y' is a pointer; distribute a section of it, such as y[0:n]}}
#pragma omp target device(*) map(tofrom: y dist_data(BLOCK))
  for (int i = 0; i < n; ++i) y[i] = 0;

  // expected-error@+1 {{homp: a distributed item needs an array section in every subscript of 'm' ('lower:length')}}
#pragma omp target device(*) map(tofrom: m[0:n][3] dist_data(BLOCK))
  for (int i = 0; i < n; ++i) m[i][3] = 0;

  // expected-error@+1 {{homp: 2 loop distribution policies for a nest of 1 loop (collapse more loops, or give fewer policies)}}
#pragma omp target teams distribute parallel for device(*) map(tofrom: y[0:n] dist_data(BLOCK)) dist_iteration(BLOCK, BLOCK)
  for (int i = 0; i < n; ++i) y[i] = 0;

  // expected-error@+1 {{homp: 'FULL' distributes data, not loop iterations}}
#pragma omp target teams distribute parallel for device(*) collapse(2) map(tofrom: m[0:n][0:8] dist_data(BLOCK)) dist_iteration(FULL, *)
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < 8; ++j) m[i][j] = 0;

  // expected-error@+3 {{homp: cannot distribute this loop: the bounds of loop 2 of the nest use 'i'; only rectangular nests can be distributed}}
#pragma omp target teams distribute parallel for device(*) collapse(2) map(tofrom: m[0:n][0:8] dist_data(BLOCK))
  for (int i = 0; i < n; ++i)
    for (int j = i; j < 8; ++j) m[i][j] = 0;

  // expected-error@+3 {{homp: cannot distribute this loop: 'collapse(2)' needs 2 perfectly nested loops}}
#pragma omp target teams distribute parallel for device(*) collapse(2) map(tofrom: m[0:n][0:8] dist_data(BLOCK))
  for (int i = 0; i < n; ++i) {
    m[i][0] = 1;
    for (int j = 0; j < 8; ++j) m[i][j] = 0;
  }
}

void data(double *x, double *y, int n) {
  // expected-error@+1 {{homp: a data region has no loop of its own for ALIGN(loop); align with a loop's label, ALIGN(label)}}
#pragma omp target data device(*) map(tofrom: y[0:n] dist_data(ALIGN(loop)))
  {
  }

  // expected-error@+1 {{homp: ALIGN(loop2) names neither a distributed array of this construct nor a loop labelled 'loop2' inside it}}
#pragma omp target data device(*) map(tofrom: y[0:n] partition([ALIGN(loop2)]))
  {
#pragma omp target device(*)
#pragma omp parallel for
  loop1:
    for (int i = 0; i < n; ++i) y[i] = 0;
  }

#pragma omp target data device(*) map(tofrom: y[0:n] partition([ALIGN(loop3)]))
  {
    int m = n / 2;
#pragma omp target device(*)
#pragma omp parallel for dist_iteration(BLOCK)
  loop3:
    // expected-error@+1 {{homp: the bounds of loop 'loop3' use 'm', which is not declared before the data region; they are needed when it begins}}
    for (int i = 0; i < m; ++i) y[i] = 0;
  }

  // Not an error: a caller's data region may distribute 'x' (at run time,
  // an update of what no device holds copies nothing, as in OpenMP).
#pragma omp target update device(*) from(x[0:n])

  // expected-error@+1 {{homp: the distribution of 'x' is aligned, through ALIGN, with itself}}
#pragma omp target data device(*) map(tofrom: x[0:n] dist_data(ALIGN(y)), y[0:n] dist_data(ALIGN(x)))
  {
  }

  // expected-error@+1 {{homp: 'dist_iteration' is only allowed on a loop in a multi-device 'target' region}}
#pragma omp target data device(*) map(tofrom: y[0:n] dist_data(BLOCK)) dist_iteration(BLOCK)
  {
  }
}

void unknown_align(double *y, int n) {
  // expected-error@+1 {{homp: ALIGN(z) names neither a distributed array of this region nor its loop}}
#pragma omp target teams distribute parallel for device(*) map(tofrom: y[0:n] dist_data(BLOCK)) dist_schedule(target: ALIGN(z))
  for (int i = 0; i < n; ++i) y[i] = 0;
}

// A name that is not a variable in a map clause gets clang's own error,
// nothing from homp.
enum { Count = 8 };
void enumerator(double *y) {
  // expected-error@+1 {{expected addressable lvalue in 'map' clause}}
#pragma omp target device(*) map(tofrom: y[0:Count] dist_data(BLOCK), Count)
  for (int i = 0; i < Count; ++i) y[i] = 0;
}
