// The plugin rewrites each form of distributed kernel into standard OpenMP:
// a chunk variable initialised with the whole loop nest, the marker call in
// the device clause with the kernel's descriptor (homp/Abi.h) and run-time
// values, the map clauses without their distributions plus the chunk, and
// the loops reading their bounds from the chunk, in the loop variable's type:
// a variable of 32 bits or fewer reads the values' 32-bit copies, which the
// region fills from the 64-bit values for a run without libhomp.
// RUN: %clang_cc1_homp -fsyntax-only -fpass-plugin=%homp_pass -plugin-arg-homp print-regions %s 2>&1 | FileCheck %s

#define REAL double

// PMAM'15 Figure 1: one loop, two BLOCK arrays, each used at offset 0 (y
// written).
void axpy_mdev_v2(REAL *x, REAL *y, int n, REAL a) {
#pragma omp target device (*) map(tofrom: y[0:n] dist_data(BLOCK)) \
                              map(to: x[0:n] dist_data(BLOCK),a,n)
#pragma omp parallel for shared(x, y, n, a) dist_iteration(BLOCK)
  for (int i = 0; i < n; ++i)
    y[i] += a * x[i];
}
// CHECK-LABEL: homp region:
// CHECK-NEXT: { __extension__ extern long long __homp_region ( const char * , void * , ... ) __asm__ ( "__homp_region" ) ; struct { struct { long long first , bound , step ; int first32 , bound32 , step32 ; } l [ 3 ] ; } __homp_chunk_0 = { { { ( long long ) ( 0 ) , ( long long ) ( n ) , ( long long ) ( 1 ) , 0 , 0 , 0 } , { 0 , 0 , 1 , 0 , 0 , 1 } , { 0 , 0 , 1 , 0 , 0 , 1 } } } ;
// CHECK-SAME: __homp_chunk_0 . l [ 0 ] . first32 = ( int ) __homp_chunk_0 . l [ 0 ] . first ; __homp_chunk_0 . l [ 0 ] . bound32 = ( int ) __homp_chunk_0 . l [ 0 ] . bound ; __homp_chunk_0 . l [ 0 ] . step32 = ( int ) __homp_chunk_0 . l [ 0 ] . step ;{{$}}
// CHECK-NEXT: #pragma omp target device ( __homp_region ( "homp 10 kernel\nloc {{[0-9]+}}:{{.*}}region-rewrite.c 15 1\ndevice all 0 0\nloop lt 0 block\narray 1:y tofrom 1 0 0\ndim block -1 0 0 none none\narray 1:x to 1 0 0\ndim block -1 0 0 none none\naccess 1:y 1 1 0: L 0 0 0 0 L 0 0 0 0\naccess 1:x 1 0 0: L 0 0 0 0\nwork 2\ngputeams\n" , ( void * ) & __homp_chunk_0 , ( long long ) ( void * ) ( y ) , ( long long ) sizeof ( ( y ) [ 0 ] ) , ( long long ) ( 0 ) , ( long long ) ( n ) , ( long long ) ( void * ) ( x ) , ( long long ) sizeof ( ( x ) [ 0 ] ) , ( long long ) ( 0 ) , ( long long ) ( n ) , ( long long ) ( void * ) ( y ) , ( long long ) ( void * ) ( x ) ) ) map ( tofrom : y [ 0 : n ] ) map ( to : x [ 0 : n ] , a , n ) map ( to : __homp_chunk_0 )
// CHECK-EMPTY:
// CHECK-NEXT: #pragma omp parallel for shared ( x , y , n , a )
// CHECK-NEXT: for ( int i = ( sizeof ( __typeof__ ( i ) ) > 4 ? ( __typeof__ ( i ) ) ( __homp_chunk_0 . l [ 0 ] . first ) : ( __typeof__ ( i ) ) ( __homp_chunk_0 . l [ 0 ] . first32 ) ) ; i < ( sizeof ( __typeof__ ( i ) ) > 4 ? ( __typeof__ ( i ) ) ( __homp_chunk_0 . l [ 0 ] . bound ) : ( __typeof__ ( i ) ) ( __homp_chunk_0 . l [ 0 ] . bound32 ) ) ; ++ i ) y [ i ] += a * x [ i ] ; }

// HOMP'16 Figure 2 (axpy_homp_v1), with a duplicate before the aligned
// array: ALIGN(x) names x, which the runtime finds by name.
void axpy_homp_v1(REAL *x, REAL *y, REAL *w, int n, REAL a) {
#pragma omp parallel target device (*) map(to: w[0:n]) \
    map(tofrom: y[0:n] partition([BLOCK])) \
    map(to: x[0:n] partition([BLOCK]),a,n)
#pragma omp parallel for distribute \
    dist_schedule(target:[ALIGN(x)])
  for (int i = 0; i < n; ++i)
    y[i] += a * x[i] + w[0];
}
// CHECK-LABEL: homp region:
// CHECK: #pragma omp target device ( __homp_region ( "homp 10 kernel\nloc {{.*}} 32 1\ndevice all 0 0\nloop lt 0 align to 1:x 1 1\narray 1:w to 1 0 0\ndim full -1 0 0 none none\narray 1:y tofrom 1 0 0\ndim block -1 0 0 none none\narray 1:x to 1 0 0\ndim block -1 0 0 none none\naccess 1:y 1 1 0: L 0 0 0 0 L 0 0 0 0\naccess 1:x 1 0 0: L 0 0 0 0\naccess 1:w 1 0 0: = 0 0 0\nwork 3\ngputeams\n"
// CHECK-SAME: map ( to : w [ 0 : n ] ) map ( tofrom : y [ 0 : n ] ) map ( to : x [ 0 : n ] , a , n ) map ( to : __homp_chunk_1 )
// CHECK-EMPTY:
// CHECK-NEXT: #pragma omp parallel for
// CHECK-NEXT: for ( int i =

// The combined construct, a device list with the host, a reduction, a
// reversed loop, and if(target:) and a plain if.
double dot(REAL *x, int n, int dev, int cond) {
  double s = 0;
#pragma omp target teams distribute parallel for device(dev, 2:*, host) if(cond) \
    map(to: x[0:n] dist_data(BLOCK)) reduction(+: s)
  for (int i = n - 1; i >= 0; --i)
    s += x[i] * x[i];
  return s;
}
// CHECK-LABEL: homp region:
// CHECK-NEXT: {{.*}} __homp_chunk_2 = { { { ( long long ) ( n - 1 ) , ( long long ) ( 0 ) , - ( long long ) ( 1 ) , 0 , 0 , 0 } , { 0 , 0 , 1 , 0 , 0 , 1 } , { 0 , 0 , 1 , 0 , 0 , 1 } } } ;
// CHECK-NEXT: #pragma omp target teams distribute parallel for reduction ( + : s ) device ( __homp_region ( "homp 10 kernel\nloc {{.*}} 51 1\ndevice one 0 0\ndevice from 0 0\ndevice host 0 0\nloop ge 4 block\narray 1:x to 1 0 0\ndim block -1 0 0 none none\naccess 1:x 1 0 0: L 0 0 0 0\nreduction + 1:s\nwork 2\nif\n" , ( void * ) & __homp_chunk_2 , ( long long ) ( dev ) , ( long long ) ( 2 ) , ( long long ) ( void * ) ( x ) , ( long long ) sizeof ( ( x ) [ 0 ] ) , ( long long ) ( 0 ) , ( long long ) ( n ) , ( long long ) ( void * ) ( x ) , ( long long ) ( void * ) & ( s ) , ( long long ) sizeof ( s ) , ( long long ) ( __extension__ _Generic ( ( s ) ,
// CHECK-SAME: double : 308 ,
// CHECK-SAME: ( long long ) ( 1 && ( cond ) ) ) ) map ( to : x [ 0 : n ] ) map ( to : __homp_chunk_2 ) if ( parallel : cond )
// CHECK-NEXT: for ( int i = ( sizeof ( __typeof__ ( i ) ) > 4 ? ( __typeof__ ( i ) ) ( __homp_chunk_2 . l [ 0 ] . first ) : ( __typeof__ ( i ) ) ( __homp_chunk_2 . l [ 0 ] . first32 ) ) ; i >= ( sizeof ( __typeof__ ( i ) ) > 4 ? ( __typeof__ ( i ) ) ( __homp_chunk_2 . l [ 0 ] . bound ) : ( __typeof__ ( i ) ) ( __homp_chunk_2 . l [ 0 ] . bound32 ) ) ; -- i ) s += x [ i ] * x [ i ] ; }

// A reduction inside a target region: its variable is mapped back. ALIGN
// through the loop's label, a whole fixed-size array, and a stencil whose
// subscript offsets go into the descriptor.
long stencil(long *v, int n) {
  static long u[1000];
  long total = 0;
#pragma omp target device(0:2) map(to: v[0:n] dist_data(ALIGN(loop1))) \
    map(tofrom: u dist_data(ALIGN(loop1)))
#pragma omp parallel for reduction(+: total)
  loop1: for (int i = 1; i < n - 1; i += 1)
    total += u[i] = v[i - 1] + v[i + 1];
  return total;
}
// CHECK-LABEL: homp region:
// CHECK-NEXT: {{.*}} __homp_chunk_3 = { { { ( long long ) ( 1 ) , ( long long ) ( n - 1 ) , ( long long ) ( 1 ) , 0 , 0 , 0 } , { 0 , 0 , 1 , 0 , 0 , 1 } , { 0 , 0 , 1 , 0 , 0 , 1 } } } ;
// CHECK-NEXT: #pragma omp target device ( __homp_region ( "homp 10 kernel\nloc {{.*}} 70 1\ndevice range 0 0\nloop lt 4 block\nlabel 5:loop1\narray 1:v to 1 0 0\ndim align loop 1 1 -1 0 0 none none\narray 1:u tofrom 1 0 0\ndim align loop 1 1 -1 0 0 none none\naccess 1:u 1 1 0: L 0 0 0 0 L 0 0 0 0\naccess 1:v 1 0 0: L 0 -1 1 0\nreduction + 5:total\nwork 4\ngputeams\n" , ( void * ) & __homp_chunk_3 , ( long long ) ( 0 ) , ( long long ) ( 2 ) , ( long long ) ( void * ) ( v ) , ( long long ) sizeof ( ( v ) [ 0 ] ) , ( long long ) ( 0 ) , ( long long ) ( n ) , ( long long ) ( void * ) ( u ) , ( long long ) sizeof ( ( u ) [ 0 ] ) , ( long long ) ( 0 ) , ( long long ) ( sizeof ( u ) / sizeof ( ( u ) [ 0 ] ) ) ,
// CHECK-SAME: map ( to : __homp_chunk_3 ) map ( tofrom : total )
// CHECK-EMPTY:
// CHECK-NEXT: #pragma omp parallel for reduction ( + : total )
// CHECK-NEXT: for ( int i = ( sizeof ( __typeof__ ( i ) ) > 4 ? ( __typeof__ ( i ) ) ( __homp_chunk_3 . l [ 0 ] . first ) : ( __typeof__ ( i ) ) ( __homp_chunk_3 . l [ 0 ] . first32 ) ) ; i < ( sizeof ( __typeof__ ( i ) ) > 4 ? ( __typeof__ ( i ) ) ( __homp_chunk_3 . l [ 0 ] . bound ) : ( __typeof__ ( i ) ) ( __homp_chunk_3 . l [ 0 ] . bound32 ) ) ; i += 1 ) total += u [ i ] = v [ i - 1 ] + v [ i + 1 ] ; }

// PMAM'15 section 5.2's matmul in 2-D blocks: a collapsed nest split over a
// 2x2 topology; B's split dimension goes onto the last topology dimension.
// Each level of the nest reads its own chunk loop; the loop nested inside
// is the user's (its bounds and step are values: the model counts its trips).
void matmul_blocks(int n, double (*A)[64], double (*B)[64], double (*C)[64]) {
#pragma omp target teams distribute parallel for collapse(2) device(0:4) topology([2][2]) \
    map(to: A[0:n][0:64] dist_data(BLOCK, *), B[0:n][0:64] dist_data(*, BLOCK) topology([*])) \
    map(from: C[0:n][0:64] dist_data(BLOCK, BLOCK)) dist_iteration(BLOCK, BLOCK)
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < 64; ++j) {
      double s = 0;
      for (int k = 0; k < 64; ++k)
        s += A[i][k] * B[k][j];
      C[i][j] = s;
    }
}
// CHECK-LABEL: homp region:
// CHECK-NEXT: {{.*}} __homp_chunk_4 = { { { ( long long ) ( 0 ) , ( long long ) ( n ) , ( long long ) ( 1 ) , 0 , 0 , 0 } , { ( long long ) ( 0 ) , ( long long ) ( 64 ) , ( long long ) ( 1 ) , 0 , 0 , 0 } , { 0 , 0 , 1 , 0 , 0 , 1 } } } ;
// CHECK-NEXT: #pragma omp target teams distribute parallel for collapse ( 2 ) device ( __homp_region ( "homp 10 kernel\nloc {{.*}} 90 1\ndevice range 0 0\ntopology 2 1 1 0:\nloop lt 0 block\nloop lt 0 block\narray 1:A to 2 0 0\ndim block -1 0 0 none none\ndim full -1 0 0 none none\narray 1:B to 2 0 0\ndim full -1 0 0 none none\ndim block 1 0 0 none none\narray 1:C from 2 0 0\ndim block -1 0 0 none none\ndim block -1 0 0 none none\naccess 1:A 2 0 0: L 0 0 0 0 = 0 63 0\naccess 1:B 2 0 0: = 0 63 0 L 1 0 0 0\naccess 1:C 2 1 0: L 0 0 0 0 L 1 0 0 0 L 0 0 0 0 L 1 0 0 0\nbodyloop lt -1 2 1\n" , ( void * ) & __homp_chunk_4 , ( long long ) ( 0 ) , ( long long ) ( 4 ) , ( long long ) ( 2 ) , ( long long ) ( 2 ) , ( long long ) ( void * ) ( A ) , ( long long ) sizeof ( ( A ) [ 0 ] [ 0 ] ) , ( long long ) ( 0 ) , ( long long ) ( n ) , ( long long ) ( 0 ) , ( long long ) ( 64 ) , ( long long ) ( sizeof ( ( A ) [ 0 ] ) / sizeof ( ( A ) [ 0 ] [ 0 ] ) ) ,
// CHECK-SAME: ( long long ) ( void * ) ( C ) , ( long long ) ( 0 ) , ( long long ) ( 64 ) , ( long long ) ( 1 ) ) ) map ( to : A [ 0 : n ] [ 0 : 64 ] , B [ 0 : n ] [ 0 : 64 ] ) map ( from : C [ 0 : n ] [ 0 : 64 ] ) map ( to : __homp_chunk_4 )
// CHECK-NEXT: for ( int i = ( sizeof ( __typeof__ ( i ) ) > 4 ? ( __typeof__ ( i ) ) ( __homp_chunk_4 . l [ 0 ] . first ) : ( __typeof__ ( i ) ) ( __homp_chunk_4 . l [ 0 ] . first32 ) ) ; i < ( sizeof ( __typeof__ ( i ) ) > 4 ? ( __typeof__ ( i ) ) ( __homp_chunk_4 . l [ 0 ] . bound ) : ( __typeof__ ( i ) ) ( __homp_chunk_4 . l [ 0 ] . bound32 ) ) ; ++ i ) for ( int j = ( sizeof ( __typeof__ ( j ) ) > 4 ? ( __typeof__ ( j ) ) ( __homp_chunk_4 . l [ 1 ] . first ) : ( __typeof__ ( j ) ) ( __homp_chunk_4 . l [ 1 ] . first32 ) ) ; j < ( sizeof ( __typeof__ ( j ) ) > 4 ? ( __typeof__ ( j ) ) ( __homp_chunk_4 . l [ 1 ] . bound ) : ( __typeof__ ( j ) ) ( __homp_chunk_4 . l [ 1 ] . bound32 ) ) ; ++ j ) { double s = 0 ; for ( int k = 0 ; k < 64 ; ++ k ) s += A [ i ] [ k ] * B [ k ] [ j ] ; C [ i ] [ j ] = s ; } }

// A CYCLIC(4) loop over CPU offload devices and the host: the loop takes
// its step from the chunk, so one launch runs every fourth block.
void cyclic(double *x, int n) {
#pragma omp target teams distribute parallel for device(*:HOMP_DEVICE_CPU, host) \
    map(tofrom: x[0:n] dist_data(CYCLIC(4))) dist_iteration(CYCLIC(4))
  for (int i = n - 1; i >= 0; i--)
    x[i] = 2 * x[i];
}
// CHECK-LABEL: homp region:
// CHECK: #pragma omp target teams distribute parallel for device ( __homp_region ( "homp 10 kernel\nloc {{.*}} 110 1\ndevice all 4 0\ndevice host 0 0\nloop ge 1 cyclic 0\narray 1:x tofrom 1 0 0\ndim cyclic 0 -1 0 0 none none\naccess 1:x 1 1 0: L 0 0 0 0 L 0 0 0 0\nwork 1\n" , ( void * ) & __homp_chunk_5 , ( long long ) ( 4 ) , ( long long ) ( void * ) ( x ) , ( long long ) sizeof ( ( x ) [ 0 ] ) , ( long long ) ( 0 ) , ( long long ) ( n ) , ( long long ) ( 4 ) , ( long long ) ( void * ) ( x ) ) )
// CHECK-NEXT: for ( int i = ( sizeof ( __typeof__ ( i ) ) > 4 ? ( __typeof__ ( i ) ) ( __homp_chunk_5 . l [ 0 ] . first ) : ( __typeof__ ( i ) ) ( __homp_chunk_5 . l [ 0 ] . first32 ) ) ; i >= ( sizeof ( __typeof__ ( i ) ) > 4 ? ( __typeof__ ( i ) ) ( __homp_chunk_5 . l [ 0 ] . bound ) : ( __typeof__ ( i ) ) ( __homp_chunk_5 . l [ 0 ] . bound32 ) ) ; i -= ( sizeof ( __typeof__ ( i ) ) > 4 ? ( __typeof__ ( i ) ) ( - __homp_chunk_5 . l [ 0 ] . step ) : ( __typeof__ ( i ) ) ( - ( long long ) __homp_chunk_5 . l [ 0 ] . step32 ) ) ) x [ i ] = 2 * x [ i ] ; }

// 'dist_schedule(teams: KIND[, c])' becomes the standard 'dist_schedule',
// on the combined construct and on a 'teams distribute' loop inside a
// 'target' region.
void teams(double *x, int n) {
#pragma omp target teams distribute parallel for device(*) map(tofrom: x[0:n] dist_data(BLOCK)) dist_schedule(teams: static, 4)
  for (int i = 0; i < n; ++i)
    x[i] += 1;
#pragma omp target device(*) map(tofrom: x[0:n] dist_data(BLOCK))
#pragma omp teams distribute parallel for dist_schedule(target: BLOCK) dist_schedule(teams: static)
  for (int i = 0; i < n; ++i)
    x[i] += 1;
}
// CHECK-LABEL: homp region:
// CHECK: #pragma omp target teams distribute parallel for dist_schedule ( static , 4 ) device ( __homp_region (
// CHECK-LABEL: homp region:
// CHECK: #pragma omp teams distribute parallel for dist_schedule ( static )
// CHECK-NEXT: for ( int i =

// 'teams' written on its own before a 'distribute' loop directive becomes
// the combined 'teams distribute ...' with both directives' clauses, whose
// reductions apply to the teams too (in the split form the teams would race
// on one shared 's'); a reduction of the teams directive whose items the
// loop reduces too is left out, others are kept.
double split_teams(double *x, int n) {
  double s = 0, p = 1;
#pragma omp target device(*) map(to: x[0:n] dist_data(BLOCK))
#pragma omp teams num_teams(4) thread_limit(8)
#pragma omp distribute parallel for reduction(+: s) reduction(*: p) dist_schedule(teams: static)
  for (int i = 0; i < n; ++i)
    s += x[i], p *= x[i];
#pragma omp target device(*) map(to: x[0:n] dist_data(BLOCK))
#pragma omp teams reduction(+: s)
#pragma omp distribute parallel for reduction(+: s)
  for (int i = 0; i < n; ++i)
    s += x[i];
  double c = 0;
#pragma omp target device(*) map(to: x[0:n] dist_data(BLOCK))
#pragma omp teams reduction(+: c) num_teams(2) reduction(+: s)
#pragma omp distribute parallel for reduction(+: s, c)
  for (int i = 0; i < n; ++i)
    s += x[i], c += 1;
  return s + p + c;
}
// 'target teams' takes in a 'distribute' loop directive the same way (its
// reduction of 'c', which the loop does not reduce, is kept, and homp
// combines it across devices as the target line's), and its
// 'dist_schedule(teams: ...)' is the distribute's.
double target_teams(double *x, int n) {
  double s = 0, c = 0;
#pragma omp target teams device(*) map(to: x[0:n] dist_data(BLOCK)) reduction(+: s) num_teams(3) reduction(+: c)
#pragma omp distribute parallel for reduction(+: s) dist_schedule(teams: static)
  for (int i = 0; i < n; ++i)
    s += x[i], c += 1;
  return s + c;
}
// CHECK-LABEL: homp region:
// CHECK: #pragma omp teams distribute parallel for num_teams ( 4 ) thread_limit ( 8 ) reduction ( + : s ) reduction ( * : p ) dist_schedule ( static ){{$}}
// CHECK-NEXT: for ( int i =
// CHECK-LABEL: homp region:
// CHECK: #pragma omp teams distribute parallel for reduction ( + : s ){{$}}
// CHECK-NEXT: for ( int i =
// CHECK-LABEL: homp region:
// CHECK: #pragma omp teams distribute parallel for num_teams ( 2 ) reduction ( + : s , c ){{$}}
// CHECK-NEXT: for ( int i =
// CHECK-LABEL: homp region:
// CHECK: #pragma omp target teams distribute parallel for reduction ( + : s ) num_teams ( 3 ) reduction ( + : c ) dist_schedule ( static ) device ( __homp_region ( "homp 10 kernel\n{{.*}}\nreduction + 1:s\nreduction + 1:c\n
// CHECK-NEXT: for ( int i =
// Merging keeps the program valid OpenMP: a braced 'target teams' region
// loses its braces (a combined loop construct is followed by its loop); an
// item both directives name (shared or firstprivate on the teams, reduced or
// private in the loop) is named once, by the loop; a plain 'if' of the loop
// stays the parallel region's; 'default(none)' names homp's chunk shared.
double merged_clauses(double *x, int n) {
  double s = 0, t = 1;
#pragma omp target teams device(*) map(to: x[0:n] dist_data(BLOCK))
  {
#pragma omp distribute parallel for reduction(+: s) if(n > 1000)
    for (int i = 0; i < n; ++i)
      s += x[i];
  }
#pragma omp target device(*) map(to: x[0:n] dist_data(BLOCK))
#pragma omp teams default(none) shared(x, s, n) firstprivate(t)
#pragma omp distribute parallel for reduction(+: s) private(t)
  for (int i = 0; i < n; ++i) {
    t = x[i];
    s += t;
  }
  return s;
}
// CHECK-LABEL: homp region:
// CHECK: #pragma omp target teams distribute parallel for reduction ( + : s ) if ( parallel : n > 1000 ) device ( __homp_region (
// CHECK-NEXT: for ( int i =
// CHECK-SAME: x [ i ] ; }{{$}}
// CHECK-LABEL: homp region:
// CHECK: #pragma omp teams distribute parallel for default ( none ) shared ( x , n ) reduction ( + : s ) private ( t ) shared ( __homp_chunk_{{[0-9]+}} ){{$}}

// 'topology(ids)' after an item's distribution (PMAM'15 Table 3): the
// array record counts the ids, whose values follow the array's others.
void some_devices(double *x, double *y, int n, int k) {
#pragma omp target device(*) map(to: x[0:n] dist_data(DUPLICATE) topology(k, k + 1)) map(tofrom: y[0:n] dist_data(BLOCK) topology(0))
  for (int i = 0; i < n; ++i)
    y[i] += x[i];
}
// CHECK-LABEL: homp region:
// CHECK: "homp 10 kernel\nloc {{.*}}\ndevice all 0 0\nloop lt 4 block\narray 1:x to 1 2 0\ndim full -1 0 0 none none\narray 1:y tofrom 1 1 0\ndim block -1 0 0 none none\n
// CHECK-SAME: ( long long ) ( void * ) ( x ) , ( long long ) sizeof ( ( x ) [ 0 ] ) , ( long long ) ( 0 ) , ( long long ) ( n ) , ( long long ) ( k ) , ( long long ) ( k + 1 ) , ( long long ) ( void * ) ( y ) , ( long long ) sizeof ( ( y ) [ 0 ] ) , ( long long ) ( 0 ) , ( long long ) ( n ) , ( long long ) ( 0 ) ,

// A topology of the item's own after its distribution: its rank, which
// dimensions are given and its name, with the given dimensions' values
// after the array's others; a later item can name it.
void own_topology(double (*a)[64], double (*b)[64], int n, int m) {
#pragma omp target device(*) map(tofrom: a[0:n][0:64] dist_data(BLOCK, BLOCK) topology(quad[m][*])) map(to: b[0:n][0:64] dist_data(BLOCK, BLOCK) topology(quad))
  for (int i = 0; i < n; ++i)
    a[i][0] += b[i][0];
}
// CHECK-LABEL: homp region:
// CHECK: \narray 1:a tofrom 2 0 2 1 0 4:quad\ndim block -1 0 0 none none\ndim block -1 0 0 none none\narray 1:b to 2 0 2 1 0 4:quad\n
// CHECK-SAME: ( long long ) ( sizeof ( ( a ) [ 0 ] ) / sizeof ( ( a ) [ 0 ] [ 0 ] ) ) , ( long long ) ( m ) , ( long long ) ( void * ) ( b ) ,
// CHECK-SAME: ( long long ) ( sizeof ( ( b ) [ 0 ] ) / sizeof ( ( b ) [ 0 ] [ 0 ] ) ) , ( long long ) ( m ) , ( long long ) ( void * ) ( a ) ,

// Halo forms: per dimension one width for both sides, 'left:right'
// (issue 7's 'halo(2:1, 1)'), sides with edges, '|' between sides.
void halo_forms(double (*u)[64], double (*v)[64], double *w, double *z, int n) {
#pragma omp target teams distribute parallel for device(*) topology([2][2]) map(tofrom: u[0:n][0:64] dist_data(BLOCK, BLOCK) halo(2:1, 1)) map(to: v[0:n][0:64] dist_data(BLOCK, BLOCK) halo(2:reflecting 3:periodic, 0|1)) collapse(2) dist_iteration(BLOCK, BLOCK)
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < 64; ++j)
      u[i][j] = v[i][j];
#pragma omp target device(*) map(tofrom: w[0:n] dist_data(BLOCK) halo(1:2:periodic)) map(to: z[0:n] dist_data(BLOCK) halo(3:none|2))
  for (int i = 0; i < n; ++i)
    w[i] = z[i];
}
// CHECK-LABEL: homp region:
// CHECK: \narray 1:u tofrom 2 0 0\ndim block -1 2 1 none none\ndim block -1 1 1 none none\narray 1:v to 2 0 0\ndim block -1 2 3 reflecting periodic\ndim block -1 0 1 none none\n
// CHECK-LABEL: homp region:
// CHECK: \narray 1:w tofrom 1 0 0\ndim block -1 1 2 none periodic\narray 1:z to 1 0 0\ndim block -1 3 2 none none\n
