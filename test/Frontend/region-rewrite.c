// The plugin rewrites each form of distributed region into standard OpenMP:
// a chunk variable initialised with the whole loop, the marker call in the
// device clause with the region's descriptor and run-time values, the map
// clauses without their distributions plus the chunk, and the loop reading
// its bounds from the chunk.
// RUN: %clang_cc1_homp -fsyntax-only -fpass-plugin=%homp_pass -plugin-arg-homp print-regions %s 2>&1 | FileCheck %s

#define REAL double

// PMAM'15 Figure 1.
void axpy_mdev_v2(REAL *x, REAL *y, int n, REAL a) {
#pragma omp target device (*) map(tofrom: y[0:n] dist_data(BLOCK)) \
                              map(to: x[0:n] dist_data(BLOCK),a,n)
#pragma omp parallel for shared(x, y, n, a) dist_iteration(BLOCK)
  for (int i = 0; i < n; ++i)
    y[i] += a * x[i];
}
// CHECK-LABEL: homp region:
// CHECK-NEXT: { __extension__ extern long long __homp_region ( const char * , void * , ... ) __asm__ ( "__homp_region" ) ; struct { long long first , bound , step ; } __homp_chunk_0 = { ( long long ) ( 0 ) , ( long long ) ( n ) , ( long long ) ( 1 ) } ;
// CHECK-NEXT: #pragma omp target device ( __homp_region ( "homp 1\nloc {{.*}}region-rewrite.c:12:1\ndevice all\nloop lt block\narray y tofrom block 0 0\narray x to block 0 0\n" , ( void * ) & __homp_chunk_0 , ( void * ) & ( y ) [ 0 ] , ( long long ) ( 0 ) , ( long long ) ( n ) , ( long long ) sizeof ( ( y ) [ 0 ] ) , ( void * ) & ( x ) [ 0 ] , ( long long ) ( 0 ) , ( long long ) ( n ) , ( long long ) sizeof ( ( x ) [ 0 ] ) ) ) map ( tofrom : y [ 0 : n ] ) map ( to : x [ 0 : n ] , a , n ) map ( to : __homp_chunk_0 )
// CHECK-EMPTY:
// CHECK-NEXT: #pragma omp parallel for shared ( x , y , n , a )
// CHECK-NEXT: for ( int i = ( __typeof__ ( i ) ) __homp_chunk_0 . first ; i < ( __typeof__ ( i ) ) __homp_chunk_0 . bound ; ++ i ) y [ i ] += a * x [ i ] ; }

// HOMP'16 Figure 2 (axpy_homp_v1), with a duplicate before the aligned
// array: ALIGN(x) refers to x's place in the descriptor.
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
// CHECK: #pragma omp target device ( __homp_region ( "homp 1\nloc {{.*}}:28:1\ndevice all\nloop lt array 1\narray y tofrom block 0 0\narray x to block 0 0\n"
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
// CHECK-SAME: {{$}}
// CHECK-NEXT: {{.*}} __homp_chunk_2 = { ( long long ) ( n - 1 ) , ( long long ) ( 0 ) , - ( long long ) ( 1 ) } ;
// CHECK-NEXT: #pragma omp target teams distribute parallel for reduction ( + : s ) device ( __homp_region ( "homp 1\nloc {{.*}}:47:1\ndevice one\ndevice from\ndevice host\nloop ge block\narray x to block 0 0\nreduction + s\nif\n" , ( void * ) & __homp_chunk_2 , ( long long ) ( dev ) , ( long long ) ( 2 ) , ( void * ) & ( x ) [ 0 ] , ( long long ) ( 0 ) , ( long long ) ( n ) , ( long long ) sizeof ( ( x ) [ 0 ] ) , ( void * ) & ( s ) , ( long long ) sizeof ( s ) , ( long long ) ( __extension__ _Generic ( ( s ) ,
// CHECK-SAME: double : 308 ,
// CHECK-SAME: ( long long ) ( 1 && ( cond ) ) ) ) map ( to : x [ 0 : n ] ) map ( to : __homp_chunk_2 ) if ( parallel : cond )
// CHECK-NEXT: for ( int i = ( __typeof__ ( i ) ) __homp_chunk_2 . first ; i >= ( __typeof__ ( i ) ) __homp_chunk_2 . bound ; -- i ) s += x [ i ] * x [ i ] ; }

// A reduction inside a target region: its variable is mapped back. ALIGN
// through a label, a whole fixed-size array (checked to be an array), and a
// stencil whose subscript offsets go into the descriptor.
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
// CHECK-SAME: {{$}}
// CHECK-NEXT: {{.*}} __homp_chunk_3 = { ( long long ) ( 1 ) , ( long long ) ( n - 1 ) , ( long long ) ( 1 ) } ; _Static_assert ( ! __builtin_types_compatible_p ( __typeof__ ( u ) , __typeof__ ( & ( u ) [ 0 ] ) ) , "homp: 'u' is a pointer; distribute a section of it, such as u[0:n]" ) ;
// CHECK-NEXT: #pragma omp target device ( __homp_region ( "homp 1\nloc {{.*}}:67:1\ndevice range\nloop lt block\narray v to loop -1 1\narray u tofrom loop 0 0\nreduction + total\n" , ( void * ) & __homp_chunk_3 , ( long long ) ( 0 ) , ( long long ) ( 2 ) , ( void * ) & ( v ) [ 0 ] , ( long long ) ( 0 ) , ( long long ) ( n ) , ( long long ) sizeof ( ( v ) [ 0 ] ) , ( void * ) & ( u ) [ 0 ] , ( long long ) ( 0 ) , ( long long ) ( sizeof ( u ) / sizeof ( ( u ) [ 0 ] ) ) , ( long long ) sizeof ( ( u ) [ 0 ] ) ,
// CHECK-SAME: map ( to : __homp_chunk_3 ) map ( tofrom : total )
// CHECK-EMPTY:
// CHECK-NEXT: #pragma omp parallel for reduction ( + : total )
// CHECK-NEXT: for ( int i = ( __typeof__ ( i ) ) __homp_chunk_3 . first ; i < ( __typeof__ ( i ) ) __homp_chunk_3 . bound ; i += 1 ) total += u [ i ] = v [ i - 1 ] + v [ i + 1 ] ; }
