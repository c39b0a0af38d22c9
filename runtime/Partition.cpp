//===-- Partition.cpp - Splitting index ranges over devices ---------------===//

#include "homp/Partition.h"

#include <algorithm>
#include <cassert>

namespace homp {

Range blockPart(int64_t N, unsigned Parts, unsigned Index) {
  assert(Parts > 0 && Index < Parts && "part out of range");
  if (N <= 0)
    return {0, 0};
  int64_t Size = N / Parts;
  int64_t Extra = N % Parts;
  int64_t I = Index;
  int64_t Begin = I * Size + std::min(I, Extra);
  return {Begin, Begin + Size + (I < Extra ? 1 : 0)};
}

std::vector<Range> blockPartition(int64_t N, unsigned Parts) {
  std::vector<Range> Result;
  Result.reserve(Parts);
  for (unsigned I = 0; I < Parts; ++I)
    Result.push_back(blockPart(N, Parts, I));
  return Result;
}

} // namespace homp
