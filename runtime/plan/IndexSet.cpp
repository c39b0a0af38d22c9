//===-- IndexSet.cpp - Sets of indices and boxes of them ------------------===//

#include "homp/IndexSet.h"

#include <algorithm>
#include <cassert>

namespace homp {

Range Range::intersect(const Range &R) const {
  Range X{std::max(Begin, R.Begin), std::min(End, R.End)};
  return X.empty() ? Range{0, 0} : X;
}

//===--- IndexSet ---------------------------------------------------------===//

void IndexSet::add(Range R) {
  if (R.empty())
    return;
  if (!Ranges.empty() && R.Begin <= Ranges.back().End) {
    assert(R.Begin >= Ranges.back().Begin && "ranges added out of order");
    Ranges.back().End = std::max(Ranges.back().End, R.End);
    return;
  }
  Ranges.push_back(R);
}

int64_t IndexSet::size() const {
  int64_t N = 0;
  for (const Range &R : Ranges)
    N += R.size();
  return N;
}

Range IndexSet::hull() const {
  if (Ranges.empty())
    return {0, 0};
  return {Ranges.front().Begin, Ranges.back().End};
}

bool IndexSet::contains(int64_t I) const {
  auto It = std::upper_bound(
      Ranges.begin(), Ranges.end(), I,
      [](int64_t V, const Range &R) { return V < R.Begin; });
  return It != Ranges.begin() && std::prev(It)->contains(I);
}

bool IndexSet::contains(const IndexSet &S) const {
  // Every range of S must lie inside one range of this set (they are not
  // adjacent, so no range of S can span two).
  auto It = Ranges.begin();
  for (const Range &R : S.Ranges) {
    while (It != Ranges.end() && It->End < R.End)
      ++It;
    if (It == Ranges.end() || !It->contains(R))
      return false;
  }
  return true;
}

IndexSet IndexSet::intersect(const IndexSet &S) const {
  IndexSet Out;
  auto A = Ranges.begin(), B = S.Ranges.begin();
  while (A != Ranges.end() && B != S.Ranges.end()) {
    Out.add(A->intersect(*B));
    if (A->End < B->End)
      ++A;
    else
      ++B;
  }
  return Out;
}

IndexSet IndexSet::widened(int64_t Lo, int64_t Hi) const {
  IndexSet Out;
  if (Lo > Hi)
    return Out;
  for (const Range &R : Ranges)
    Out.add({R.Begin + Lo, R.End + Hi});
  return Out;
}

IndexSet IndexSet::minus(const IndexSet &S) const {
  IndexSet Out;
  auto B = S.Ranges.begin();
  for (Range R : Ranges) {
    while (B != S.Ranges.end() && B->End <= R.Begin)
      ++B;
    for (auto C = B; C != S.Ranges.end() && C->Begin < R.End; ++C) {
      Out.add({R.Begin, std::min(R.End, C->Begin)});
      R.Begin = std::max(R.Begin, C->End);
    }
    Out.add(R);
  }
  return Out;
}

IndexSet IndexSet::unite(const IndexSet &S) const {
  IndexSet Out;
  auto A = Ranges.begin(), B = S.Ranges.begin();
  while (A != Ranges.end() || B != S.Ranges.end()) {
    bool TakeA = B == S.Ranges.end() ||
                 (A != Ranges.end() && A->Begin <= B->Begin);
    const Range &R = TakeA ? *A++ : *B++;
    if (!Out.Ranges.empty() && R.Begin <= Out.Ranges.back().End)
      Out.Ranges.back().End = std::max(Out.Ranges.back().End, R.End);
    else if (!R.empty())
      Out.Ranges.push_back(R);
  }
  return Out;
}

std::vector<Strided> IndexSet::stridedRuns() const {
  std::vector<Strided> Runs;
  size_t N = Ranges.size();
  auto OnePerRange = [&] {
    for (const Range &R : Ranges)
      Runs.push_back({R.Begin, R.size(), 1});
    return Runs;
  };
  if (N < 2)
    return OnePerRange();
  int64_t Len = Ranges.front().size();
  int64_t Period = Ranges[1].Begin - Ranges[0].Begin;
  for (size_t I = 0; I + 1 < N; ++I)
    if (Ranges[I].size() != Len || Ranges[I + 1].Begin - Ranges[I].Begin != Period)
      return OnePerRange();
  int64_t LastLen = Ranges.back().size();
  if (LastLen > Len || Len >= static_cast<int64_t>(N))
    return OnePerRange();
  for (int64_t R = 0; R < Len; ++R)
    Runs.push_back({Ranges.front().Begin + R,
                    static_cast<int64_t>(N) - (R < LastLen ? 0 : 1), Period});
  return Runs;
}

std::string IndexSet::str() const {
  if (Ranges.size() == 1)
    return "[" + std::to_string(Ranges[0].Begin) + ", " +
           std::to_string(Ranges[0].End) + ")";
  // Messages show a CYCLIC set of a million elements: its first and last
  // ranges and their number.
  constexpr size_t Shown = 6, Head = 3;
  const bool Long = Ranges.size() > Shown;
  std::string S = "{";
  for (size_t I = 0; I < Ranges.size(); ++I) {
    if (Long && I == Head) {
      S += ", ...";
      I = Ranges.size() - (Shown - Head);
    }
    if (S.size() > 1)
      S += ", ";
    S += "[" + std::to_string(Ranges[I].Begin) + ", " +
         std::to_string(Ranges[I].End) + ")";
  }
  S += "}";
  if (Long)
    S += " (" + std::to_string(Ranges.size()) + " ranges)";
  return S;
}

//===--- Box --------------------------------------------------------------===//

int64_t Box::volume() const {
  if (Rank == 0)
    return 0;
  int64_t V = 1;
  for (unsigned I = 0; I < Rank; ++I)
    V *= Dims[I].size();
  return V;
}

bool Box::contains(const Box &B) const {
  if (B.empty())
    return true;
  for (unsigned I = 0; I < Rank; ++I)
    if (!Dims[I].contains(B.Dims[I]))
      return false;
  return true;
}

Box Box::intersect(const Box &B) const {
  Box X;
  X.Rank = Rank;
  for (unsigned I = 0; I < Rank; ++I)
    X.Dims[I] = Dims[I].intersect(B.Dims[I]);
  return X;
}

bool Box::operator==(const Box &B) const {
  if (empty() && B.empty())
    return true;
  if (Rank != B.Rank)
    return false;
  for (unsigned I = 0; I < Rank; ++I)
    if (Dims[I] != B.Dims[I])
      return false;
  return true;
}

std::string Box::str() const {
  std::string S;
  for (unsigned I = 0; I < Rank; ++I)
    S += "[" + std::to_string(Dims[I].Begin) + ", " +
         std::to_string(Dims[I].End) + ")";
  return S;
}

std::vector<Box> subtract(const Box &A, const Box &B) {
  std::vector<Box> Out;
  Box Inter = A.intersect(B);
  if (Inter.empty()) {
    if (!A.empty())
      Out.push_back(A);
    return Out;
  }
  // Peel off the slabs of A below and above B, one dimension at a time.
  Box Rest = A;
  for (unsigned I = 0; I < A.Rank; ++I) {
    Box Below = Rest, Above = Rest;
    Below.Dims[I] = {Rest.Dims[I].Begin, Inter.Dims[I].Begin};
    Above.Dims[I] = {Inter.Dims[I].End, Rest.Dims[I].End};
    if (!Below.empty())
      Out.push_back(Below);
    if (!Above.empty())
      Out.push_back(Above);
    Rest.Dims[I] = Inter.Dims[I];
  }
  return Out;
}

//===--- ProductSet -------------------------------------------------------===//

ProductSet ProductSet::of(const Box &B) {
  ProductSet P;
  P.Rank = B.Rank;
  for (unsigned I = 0; I < B.Rank; ++I)
    P.Dims[I] = IndexSet(B.Dims[I]);
  return P;
}

int64_t ProductSet::volume() const {
  if (Rank == 0)
    return 0;
  int64_t V = 1;
  for (unsigned I = 0; I < Rank; ++I)
    V *= Dims[I].size();
  return V;
}

bool ProductSet::contains(const ProductSet &S) const {
  if (S.empty())
    return true;
  for (unsigned I = 0; I < Rank; ++I)
    if (!Dims[I].contains(S.Dims[I]))
      return false;
  return true;
}

ProductSet ProductSet::intersect(const ProductSet &S) const {
  ProductSet X;
  X.Rank = Rank;
  for (unsigned I = 0; I < Rank; ++I)
    X.Dims[I] = Dims[I].intersect(S.Dims[I]);
  return X;
}

Box ProductSet::hull() const {
  Box B;
  B.Rank = Rank;
  for (unsigned I = 0; I < Rank; ++I)
    B.Dims[I] = Dims[I].hull();
  return B;
}

size_t ProductSet::boxCount() const {
  if (empty())
    return 0;
  size_t N = 1;
  for (unsigned I = 0; I < Rank; ++I)
    N *= Dims[I].ranges().size();
  return N;
}

void ProductSet::forEachBox(const std::function<void(const Box &)> &F) const {
  if (empty())
    return;
  Box B;
  B.Rank = Rank;
  std::function<void(unsigned)> Walk = [&](unsigned D) {
    if (D == Rank) {
      F(B);
      return;
    }
    for (const Range &R : Dims[D].ranges()) {
      B.Dims[D] = R;
      Walk(D + 1);
    }
  };
  Walk(0);
}

bool giveGapsToNeighbours(std::vector<IndexSet> &Sets, Range Whole,
                          const std::vector<bool> &Live) {
  IndexSet Covered;
  for (size_t P = 0; P < Sets.size(); ++P)
    if (Live[P])
      Covered = Covered.unite(Sets[P]);
  const IndexSet Gaps = IndexSet(Whole).minus(Covered);
  if (Gaps.empty())
    return true;
  if (Covered.intersect(IndexSet(Whole)).empty())
    return false;
  const std::vector<IndexSet> Original = Sets;
  for (const Range &G : Gaps.ranges()) {
    const int64_t Next = G.Begin > Whole.Begin ? G.Begin - 1 : G.End;
    const IndexSet *Owner = nullptr;
    for (size_t P = 0; P < Original.size() && !Owner; ++P)
      if (Live[P] && Original[P].contains(Next))
        Owner = &Original[P];
    for (size_t P = 0; P < Sets.size(); ++P)
      if (Owner && Live[P] && Original[P] == *Owner)
        Sets[P] = Sets[P].unite(IndexSet(G));
  }
  return true;
}

bool ProductSet::operator==(const ProductSet &S) const {
  if (empty() && S.empty())
    return true;
  if (Rank != S.Rank)
    return false;
  for (unsigned I = 0; I < Rank; ++I)
    if (Dims[I] != S.Dims[I])
      return false;
  return true;
}

std::string ProductSet::str() const {
  std::string S;
  for (unsigned I = 0; I < Rank; ++I)
    S += (I ? " x " : "") + Dims[I].str();
  return S;
}

} // namespace homp
