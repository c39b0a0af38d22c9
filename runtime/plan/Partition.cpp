//===-- Partition.cpp - Splitting one dimension over parts ----------------===//

#include "homp/Partition.h"

#include <algorithm>
#include <cassert>
#include <cmath>

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

Range weightedBlockPart(int64_t N, const std::vector<double> &Weights,
                        unsigned Index) {
  assert(Index < Weights.size() && "part out of range");
  if (N <= 0)
    return {0, 0};
  double Total = 0;
  for (double W : Weights)
    Total += std::max(0.0, W);
  // Equal weights split exactly as BLOCK does.
  bool Equal = std::all_of(Weights.begin(), Weights.end(),
                           [&](double W) { return W == Weights.front(); });
  if (Total <= 0 || Equal)
    return blockPart(N, static_cast<unsigned>(Weights.size()), Index);
  // Boundaries are rounded prefix sums, so parts tile [0, N) exactly.
  auto Boundary = [&](unsigned K) {
    double Prefix = 0;
    for (unsigned I = 0; I < K; ++I)
      Prefix += std::max(0.0, Weights[I]);
    if (K == Weights.size())
      return N;
    return std::min<int64_t>(N, std::llround(N * (Prefix / Total)));
  };
  return {Boundary(Index), Boundary(Index + 1)};
}

IndexSet cyclicPart(int64_t N, int64_t Block, unsigned Parts, unsigned Index) {
  assert(Parts > 0 && Index < Parts && Block >= 1 && "bad cyclic split");
  IndexSet S;
  for (int64_t B = static_cast<int64_t>(Index) * Block; B < N;
       B += static_cast<int64_t>(Parts) * Block)
    S.add({B, std::min(N, B + Block)});
  return S;
}

static IndexSet shifted(const IndexSet &S, int64_t By) {
  IndexSet Out;
  for (const Range &R : S.ranges())
    Out.add({R.Begin + By, R.End + By});
  return Out;
}

IndexSet partitionDim(Range Extent, abi::Policy::KindTy Kind, int64_t Block,
                      unsigned Parts, unsigned Index) {
  int64_t N = Extent.size();
  switch (Kind) {
  case abi::Policy::Block:
  case abi::Policy::Auto: {
    Range R = blockPart(N, Parts, Index);
    return IndexSet({R.Begin + Extent.Begin, R.End + Extent.Begin});
  }
  case abi::Policy::Cyclic:
    return shifted(cyclicPart(N, std::max<int64_t>(1, Block), Parts, Index),
                   Extent.Begin);
  case abi::Policy::Full:
  case abi::Policy::Align:
    break;
  }
  return IndexSet(Extent);
}

static int64_t floorDiv(__int128 A, int64_t B) {
  __int128 Q = A / B;
  if ((A % B != 0) && ((A < 0) != (B < 0)))
    --Q;
  return static_cast<int64_t>(Q);
}

IndexSet scaleIndices(const IndexSet &S, int64_t Num, int64_t Den) {
  if (Num == Den)
    return S;
  auto CeilDiv = [](__int128 A, int64_t B) { return -floorDiv(-A, B); };
  IndexSet Out;
  for (const Range &R : S.ranges())
    Out.add({CeilDiv(static_cast<__int128>(R.Begin) * Num, Den),
             CeilDiv(static_cast<__int128>(R.End) * Num, Den)});
  return Out;
}

} // namespace homp
