//===-- RankKernel.cpp - A kernel run over ranks --------------------------===//
//
// Every rank has the program's host arrays, so a kernel needs no messages
// before it runs: each rank maps what its iterations touch from its own
// host memory. After it, each rank's host lacks what the other ranks wrote;
// the elements each rank writes are bounded here, from the body's
// subscripts, so that every rank knows what every other one sends.
//
//===----------------------------------------------------------------------===//

#include "homp/KernelPlan.h"
#include "homp/Partition.h"
#include "homp/RankPlan.h"

#include <algorithm>

namespace homp {

namespace {

/// The hull of A and B (an empty box is neither's).
Box hull(const Box &A, const Box &B) {
  if (A.empty())
    return B;
  if (B.empty())
    return A;
  Box H = A;
  for (unsigned D = 0; D < A.Rank; ++D)
    H.Dims[D] = {std::min(A.Dims[D].Begin, B.Dims[D].Begin),
                 std::max(A.Dims[D].End, B.Dims[D].End)};
  return H;
}

/// The access Use as it writes (its write subscripts).
abi::Access asWrite(const abi::Access &Use) {
  abi::Access W = Use;
  W.Subs = Use.Writes;
  return W;
}

} // namespace

LoopNest narrowLoop(const LoopNest &Nest, unsigned Loop, Range Its) {
  LoopNest Out = Nest;
  LoopBounds &L = Out.Loops[Loop];
  Out.Trips[Loop] = Its.size();
  if (Its.empty()) {
    L = {indexOf(Nest.Loops[Loop], 0), indexOf(Nest.Loops[Loop], 0), 1,
         CompareOp::Less};
    return Out;
  }
  // The bounds a launch of those iterations gets.
  const abi::ChunkLoop C =
      chunkOf(Nest.Loops[Loop], Nest.Trips[Loop], {Its.Begin, Its.size(), 1});
  L.First = C.First;
  L.Bound = C.Bound;
  return Out;
}

RankKernelSplit splitKernelOverRanks(const LoopNest &Nest,
                                     const std::vector<bool> &Distributed,
                                     const std::vector<abi::Access> &Accesses,
                                     const std::vector<RankKernelItem> &Items,
                                     int Ranks,
                                     const std::vector<double> &Capacity) {
  RankKernelSplit S;
  const auto Loop = static_cast<unsigned>(
      std::find(Distributed.begin(), Distributed.end(), true) -
      Distributed.begin());
  if (Loop >= Nest.Rank || Loop >= Distributed.size()) {
    S.Why = "it has no distributed loop";
    return S;
  }
  S.Loop = Loop;
  const int64_t Trips = Nest.Trips[Loop];
  if (Trips == 0) {
    S.Why = "its loop runs no iteration";
    return S;
  }
  // Every write is to an array the kernel maps, at subscripts homp bounds.
  for (const abi::Access &A : Accesses) {
    if (!A.Written)
      continue;
    auto It =
        std::find_if(Items.begin(), Items.end(),
                     [&](const RankKernelItem &I) { return I.Name == A.Name; });
    if (It == Items.end()) {
      S.Why = "it writes '" + A.Name + "', which it does not map";
      return S;
    }
    if (A.Rank != It->Shape.Rank || !footprintOf(asWrite(A), Nest)) {
      S.Why = "homp cannot bound where it writes '" + A.Name + "'" +
              (A.Why.empty() ? "" : " (" + A.Why + ")");
      return S;
    }
  }
  std::vector<double> W = Capacity;
  if (W.size() != static_cast<size_t>(Ranks) ||
      std::none_of(W.begin(), W.end(), [](double X) { return X > 0; }))
    W.assign(Ranks, 1.0);
  // Over resident rows: where the rows are, by an access with the loop's
  // variable (a written one first).
  const abi::Access *Follow = nullptr;
  const RankKernelItem *Rows = nullptr;
  for (bool Written : {true, false})
    for (const abi::Access &A : Accesses)
      for (const RankKernelItem &I : Items) {
        const abi::Subscript &X = Written ? A.Writes[0] : A.Subs[0];
        if (!Follow && I.Resident && I.Name == A.Name && A.Rank > 0 &&
            A.Written == Written && X.Kind == abi::Subscript::Linear &&
            X.Loop == Loop && !X.Term) {
          Follow = &A;
          Rows = &I;
        }
      }
  S.OverResidents =
      std::any_of(Items.begin(), Items.end(),
                  [](const RankKernelItem &I) { return I.Resident; });
  if (S.OverResidents && !Follow) {
    S.Why = "its loop's variable subscripts no array its data region split "
            "over the ranks, along the rows";
    return S;
  }
  int64_t Covered = 0;
  for (int R = 0; R < Ranks; ++R) {
    if (!Follow) {
      S.Iterations.push_back(weightedBlockPart(Trips, W, R));
      continue;
    }
    const int64_t C =
        Follow->Written ? Follow->Writes[0].Min : Follow->Subs[0].Min;
    const Range Own = Rows->Own[R];
    S.Iterations.push_back(
        iterationsIn(Nest.Loops[Loop], Trips, {Own.Begin - C, Own.End - C}));
    Covered += S.Iterations.back().size();
  }
  if (Follow && Covered != Trips) {
    S.Why = "its loop runs past the rows of '" + Rows->Name +
            "' its data region split over the ranks";
    return S;
  }
  S.Sections.assign(Items.size(), {});
  S.Written.assign(Items.size(), {});
  for (size_t I = 0; I < Items.size(); ++I) {
    const RankKernelItem &Item = Items[I];
    const Box Section = Item.Shape.Section;
    if (Item.Resident) {
      // Each rank reads rows it holds and writes rows it owns.
      for (int R = 0; R < Ranks; ++R) {
        const LoopNest Part = narrowLoop(Nest, Loop, S.Iterations[R]);
        for (const abi::Access &A : Accesses) {
          if (A.Name != Item.Name || S.Iterations[R].empty())
            continue;
          std::optional<Box> F =
              A.Rank == Section.Rank ? footprintOf(A, Part) : std::nullopt;
          std::optional<Box> Wr =
              A.Written && F ? footprintOf(asWrite(A), Part) : std::nullopt;
          auto Rows = [](const Box &B) {
            return "rows [" + std::to_string(B.Dims[0].Begin) + ", " +
                   std::to_string(B.Dims[0].End) + ")";
          };
          // A rank whose halo is every row (halo(*)) reads anywhere.
          const bool HoldsAll = Item.Valid[R].contains(Section.Dims[0]);
          if (A.Written && !Wr)
            S.Why = "homp cannot bound where it writes '" + A.Name + "'" +
                    (A.Why.empty() ? "" : " (" + A.Why + ")");
          else if (!F && !HoldsAll)
            S.Why = "homp cannot bound where it reads '" + A.Name + "'" +
                    (A.Why.empty() ? "" : " (" + A.Why + ")");
          else if (F && !HoldsAll &&
                   !Item.Valid[R].contains(
                       F->Dims[0].intersect(Section.Dims[0])))
            S.Why = "rank " + std::to_string(R) + " would read " + Rows(*F) +
                    " of '" + A.Name + "', past its rows and halo [" +
                    std::to_string(Item.Valid[R].Begin) + ", " +
                    std::to_string(Item.Valid[R].End) + ")";
          else if (Wr && !Item.Own[R].contains(
                             Wr->Dims[0].intersect(Section.Dims[0])))
            S.Why = "rank " + std::to_string(R) + " would write " + Rows(*Wr) +
                    " of '" + A.Name +
                    "', which it does not own (its rows are [" +
                    std::to_string(Item.Own[R].Begin) + ", " +
                    std::to_string(Item.Own[R].End) + "))";
          if (!S.Why.empty())
            return S;
        }
        Box Held = Section;
        Held.Dims[0] = Section.Dims[0].intersect(Item.Held[R]);
        S.Sections[I].push_back(Held);
        S.Written[I].push_back(Box{Section.Rank, {}});
      }
      continue;
    }
    for (int R = 0; R < Ranks; ++R) {
      const LoopNest Part = narrowLoop(Nest, Loop, S.Iterations[R]);
      Box Touched{Section.Rank, {}}, Writes{Section.Rank, {}};
      bool Bounded = true, Used = false;
      for (const abi::Access &A : Accesses) {
        if (A.Name != Item.Name)
          continue;
        Used = true;
        std::optional<Box> F =
            A.Rank == Section.Rank ? footprintOf(A, Part) : std::nullopt;
        if (!F) {
          Bounded = false;
          continue;
        }
        Touched = hull(Touched, F->intersect(Section));
        if (A.Written)
          Writes =
              hull(Writes, footprintOf(asWrite(A), Part)->intersect(Section));
      }
      // An array the body does not use, or reads where homp cannot bound,
      // is mapped whole; one it uses at no element, as one element.
      if (!Used || !Bounded)
        Touched = Section;
      else if (Touched.empty()) {
        Touched = Section;
        for (unsigned D = 0; D < Section.Rank; ++D)
          Touched.Dims[D].End =
              std::min(Touched.Dims[D].End, Touched.Dims[D].Begin + 1);
      }
      S.Sections[I].push_back(Touched);
      S.Written[I].push_back(Writes);
    }
    // Whole rows where they stay apart: then each rank's box is one run.
    if (Item.ToFrom && Section.Rank > 1) {
      std::vector<Box> Wide = S.Written[I];
      for (Box &B : Wide)
        if (!B.empty())
          for (unsigned D = 1; D < Section.Rank; ++D)
            B.Dims[D] = Section.Dims[D];
      bool Apart = true;
      for (int R = 0; R < Ranks && Apart; ++R)
        for (int Q = R + 1; Q < Ranks && Apart; ++Q)
          Apart = Wide[R].intersect(Wide[Q]).empty();
      if (Apart)
        S.Written[I] = std::move(Wide);
    }
    // One element written by two ranks: neither has the answer alone.
    for (int R = 0; R < Ranks; ++R)
      for (int Q = R + 1; Q < Ranks; ++Q)
        if (!S.Written[I][R].intersect(S.Written[I][Q]).empty()) {
          S.Why = "ranks " + std::to_string(R) + " and " + std::to_string(Q) +
                  " would both write elements " +
                  S.Written[I][R].intersect(S.Written[I][Q]).str() + " of '" +
                  Item.Name + "'";
          S.Iterations.clear();
          S.Sections.clear();
          S.Written.clear();
          return S;
        }
  }
  return S;
}

void forEachRun(const ArrayShape &Shape, const Box &B,
                const std::function<void(int64_t, int64_t)> &F) {
  if (B.empty())
    return;
  const unsigned Rank = Shape.Rank;
  // The innermost dimensions that B covers whole make one run with the
  // next one out.
  unsigned Inner = Rank - 1;
  int64_t Run = B.Dims[Inner].size();
  while (Inner > 0 && B.Dims[Inner].Begin == 0 &&
         B.Dims[Inner].End == Shape.Extent[Inner]) {
    --Inner;
    Run *= B.Dims[Inner].size();
  }
  Index I{};
  for (unsigned D = 0; D < Rank; ++D)
    I[D] = B.Dims[D].Begin;
  while (true) {
    F(Shape.offset(I), Run);
    // The next index of the dimensions outside Inner's run.
    int D = static_cast<int>(Inner) - 1;
    for (; D >= 0; --D) {
      if (++I[D] < B.Dims[D].End)
        break;
      I[D] = B.Dims[D].Begin;
    }
    if (D < 0)
      return;
  }
}

} // namespace homp
