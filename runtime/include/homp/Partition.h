//===-- homp/Partition.h - Splitting one dimension over parts ---*- C++ -*-===//
//
// How the indices of one array dimension, or the iterations of one loop,
// are split over the devices along one topology axis (SPEC.md sections 2
// and 3). Every function is pure and deals with one dimension; products
// of dimensions are ProductSets.
//
//===----------------------------------------------------------------------===//

#ifndef HOMP_PARTITION_H
#define HOMP_PARTITION_H

#include "homp/IndexSet.h"

#include <cstdint>
#include <vector>

namespace homp {

/// Part Index of the BLOCK split of [0, N) into Parts contiguous blocks whose
/// sizes differ by at most one; the first N % Parts blocks are the larger.
Range blockPart(int64_t N, unsigned Parts, unsigned Index);

/// Every part of the BLOCK split of [0, N) into Parts blocks, in order.
std::vector<Range> blockPartition(int64_t N, unsigned Parts);

/// Part Index of the split of [0, N) into contiguous blocks proportional to
/// Weights (one per part, each >= 0, not all 0); rounding keeps every
/// boundary within one element of the exact share. Equal weights give
/// BLOCK's split.
Range weightedBlockPart(int64_t N, const std::vector<double> &Weights,
                        unsigned Index);

/// Part Index of CYCLIC(Block) over [0, N): blocks of Block indices (the
/// last may be shorter) dealt round-robin to Parts parts. Block >= 1.
IndexSet cyclicPart(int64_t N, int64_t Block, unsigned Parts, unsigned Index);

/// The indices of Extent that part Index of Parts gets under the policy
/// Kind (Full, Block or Cyclic with block size Block).
IndexSet partitionDim(Range Extent, abi::Policy::KindTy Kind, int64_t Block,
                      unsigned Parts, unsigned Index);

/// ALIGN with a ratio r = Num / Den: index k of the aligned array goes with
/// index floor(k / r) of what it is aligned with, so a range [b, e) of that
/// becomes [ceil(b * r), ceil(e * r)). Scaling the parts of a partition
/// gives a partition. Num, Den >= 1.
IndexSet scaleIndices(const IndexSet &S, int64_t Num, int64_t Den);

} // namespace homp

#endif // HOMP_PARTITION_H
