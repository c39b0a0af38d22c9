//===-- homp/Partition.h - Splitting index ranges over devices --*- C++ -*-===//
//
// Device-independent partition arithmetic: how a loop's iterations or an
// array dimension's elements are split over the devices of a region.
//
//===----------------------------------------------------------------------===//

#ifndef HOMP_PARTITION_H
#define HOMP_PARTITION_H

#include <cstdint>
#include <vector>

namespace homp {

/// A half-open range [Begin, End) of indices.
struct Range {
  int64_t Begin = 0;
  int64_t End = 0;

  int64_t size() const { return End > Begin ? End - Begin : 0; }
  bool empty() const { return End <= Begin; }
  bool contains(const Range &R) const {
    return R.empty() || (Begin <= R.Begin && R.End <= End);
  }
  bool operator==(const Range &R) const {
    return Begin == R.Begin && End == R.End;
  }
};

/// Part Index of the BLOCK split of [0, N) into Parts contiguous blocks whose
/// sizes differ by at most one; the first N % Parts blocks are the larger.
Range blockPart(int64_t N, unsigned Parts, unsigned Index);

/// Every part of the BLOCK split of [0, N) into Parts blocks, in order.
std::vector<Range> blockPartition(int64_t N, unsigned Parts);

} // namespace homp

#endif // HOMP_PARTITION_H
