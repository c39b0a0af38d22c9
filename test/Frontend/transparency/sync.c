// Transparency: synchronisation and work-sharing constructs ('critical',
// named 'critical', 'atomic' in update/read/write/capture/compare forms,
// 'ordered', 'masked', 'master', 'single' with copyprivate, 'sections',
// 'barrier', 'parallel sections'), on the host and inside target
// regions, compile to the same IR with and without homp, and run the same.
// RUN: %compare_ir %s | FileCheck %s --check-prefix=IR
// RUN: %clang_x86 %s -o %t.ref -Wl,-rpath,%llvm_lib && %t.ref > %t.ref.out
// RUN: %hompcc %s -o %t && %t > %t.out
// RUN: diff %t.ref.out %t.out
// RUN: FileCheck %s --input-file=%t.out
// IR: identical IR and diagnostics

#include <omp.h>
#include <stdio.h>

#define N 40

int main(void) {
  // critical: sum 1..40 = 820 accumulated under a lock, on the device.
  long s = 0;
#pragma omp target parallel for map(tofrom : s)
  for (int i = 1; i <= N; ++i) {
#pragma omp critical
    s += i;
  }
  // CHECK: critical=820
  printf("critical=%ld\n", s);

  // Named critical sections on the host: two counters of 40 each.
  int c1 = 0, c2 = 0;
#pragma omp parallel for num_threads(2)
  for (int i = 0; i < N; ++i) {
#pragma omp critical(first)
    c1++;
#pragma omp critical(second)
    c2 += 2;
  }
  // CHECK: named=40,80
  printf("named=%d,%d\n", c1, c2);

  // atomic update / capture on the device: each iteration takes a unique
  // ticket 0..39, so the tickets sum to 780 and the counter ends at 40.
  int counter = 0;
  long tickets = 0;
#pragma omp target teams distribute parallel for map(tofrom : counter, tickets)
  for (int i = 0; i < N; ++i) {
    int mine;
#pragma omp atomic capture
    mine = counter++;
#pragma omp atomic update
    tickets += mine;
  }
  // CHECK: atomic counter=40 tickets=780
  printf("atomic counter=%d tickets=%ld\n", counter, tickets);

  // atomic read / write and compare (max): the largest (7 i) % 40 for
  // i < 40 is 39.
  int mx = 0, rd = 0;
#pragma omp target parallel for map(tofrom : mx)
  for (int i = 0; i < N; ++i) {
    int val = (7 * i) % N;
#pragma omp atomic compare
    if (mx < val) { mx = val; }
  }
#pragma omp atomic write
  rd = mx + 1;
  int rd2;
#pragma omp atomic read
  rd2 = rd;
  // CHECK: compare max=39 read=40
  printf("compare max=%d read=%d\n", mx, rd2);

  // ordered: the iterations append their index in iteration order, so
  // seq[p] = p, and the order-sensitive checksum sum(seq[p] * (p + 1)) is
  // sum(p^2) + sum(p) for p < 40 = 39 * 40 * 79 / 6 + 780 = 20540 + 780 =
  // 21320.
  int seq[N];
  int pos = 0;
#pragma omp parallel for ordered schedule(static, 3) num_threads(2)
  for (int i = 0; i < N; ++i) {
#pragma omp ordered
    seq[pos++] = i;
  }
  long chk = 0;
  for (int p = 0; p < N; ++p)
    chk += (long)seq[p] * (p + 1);
  // CHECK: ordered=21320
  printf("ordered=%ld\n", chk);

  // masked / master / single / barrier inside a target parallel region:
  // masked adds 1, master adds 10, single adds 100 (each once), and after
  // the barrier every thread reads the same total 111.
  int total = 0, agree = 1;
#pragma omp target parallel num_threads(2) map(tofrom : total, agree)
  {
#pragma omp masked
    total += 1;
#pragma omp barrier
#pragma omp master
    total += 10;
#pragma omp barrier
#pragma omp single
    total += 100;
    int seen = total;
    if (seen != 111) {
#pragma omp atomic write
      agree = 0;
    }
  }
  // CHECK: masked_single=111 agree=1
  printf("masked_single=%d agree=%d\n", total, agree);

  // masked filter(0) on the host and single copyprivate: every thread
  // gets the value 42 broadcast by the single thread.
  int got = 0, m0 = 0;
#pragma omp parallel num_threads(2) reduction(+ : got)
  {
    int b;
#pragma omp single copyprivate(b)
    b = 42;
    got += (b == 42);
#pragma omp masked filter(0)
    m0 = omp_get_thread_num() + 5;
  }
  // 'got' counts the threads, at least 1; every one saw 42.
  // CHECK: copyprivate_ok=1 masked_filter=5
  printf("copyprivate_ok=%d masked_filter=%d\n", got >= 1, m0);

  // sections on the device: three independent results.
  int s1 = 0, s2 = 0, s3 = 0;
#pragma omp target parallel map(tofrom : s1, s2, s3)
#pragma omp sections
  {
#pragma omp section
    s1 = 6 * 7;
#pragma omp section
    s2 = 1 << 10;
#pragma omp section
    s3 = 99 - 33;
  }
  // And 'parallel sections' on the host: s1 + 1, s2 + 1.
#pragma omp parallel sections num_threads(2)
  {
#pragma omp section
    s1 += 1;
#pragma omp section
    s2 += 1;
  }
  // CHECK: sections=43,1025,66
  printf("sections=%d,%d,%d\n", s1, s2, s3);

  return 0;
}
