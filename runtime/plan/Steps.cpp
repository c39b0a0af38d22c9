//===-- Steps.cpp - What a device does for its part of a kernel -----------===//

#include "homp/Steps.h"

#include <algorithm>
#include <cmath>

namespace homp {

std::vector<Step> lowerPart(const PartInput &In) {
  const KernelPlan &Plan = *In.Plan;
  const unsigned Pos = In.Position;
  const std::vector<LaunchPiece> &Pieces = Plan.Work[Pos].Pieces;
  std::vector<Step> Steps;
  Steps.reserve(In.InHostMemory ? Pieces.size() + 1
                                : 5 * In.Arrays.size() + Pieces.size() + 1);
  std::vector<unsigned> Allocated;
  if (!In.InHostMemory) {
    for (unsigned I = 0; I < In.Arrays.size(); ++I) {
      const StepArray &A = In.Arrays[I];
      if (!A.Moves)
        continue;
      const Distribution &X = Plan.Items[I];
      // Halo cells past the array's ends (periodic, reflecting) are held
      // too: the storage spans them, the copy in leaves them to FillEdge.
      ProductSet Held = X.held(Pos);
      ProductSet InSection = Held.intersect(ProductSet::of(X.Shape.Section));
      if (InSection.empty())
        continue;
      Step S;
      S.Kind = Step::Alloc;
      S.Array = I;
      S.Span = X.Shape.span(Held);
      Steps.push_back(S);
      Allocated.push_back(I);
      // X.holdsPastEnds(Pos), from the sets at hand (once per part).
      const bool Edges = InSection.volume() != Held.volume();
      if (A.In || (A.Out && X.duplicated())) {
        Step C;
        C.Kind = Step::CopyIn;
        C.Array = I;
        C.Elements = std::move(InSection);
        Steps.push_back(std::move(C));
        if (Edges) {
          Step E;
          E.Kind = Step::FillEdge;
          E.Array = I;
          E.Elements = ProductSet::of(X.Shape.Section);
          Steps.push_back(std::move(E));
        }
      }
    }
  }
  for (unsigned P = 0; P < Pieces.size(); ++P) {
    Step L;
    L.Kind = Step::Launch;
    L.Piece = P;
    Steps.push_back(L);
  }
  for (unsigned I : Allocated) {
    if (!In.Arrays[I].Out)
      continue;
    const Distribution &X = Plan.Items[I];
    Step C;
    C.Kind = Step::CopyOut;
    C.Array = I;
    if (X.duplicated()) {
      C.ToStage = true;
      C.Elements = ProductSet::of(X.Shape.Section);
    } else {
      std::optional<unsigned> Q = X.positionOf(In.Device);
      C.Elements = I < Plan.CopyBack.size() && !Plan.CopyBack[I].empty() && Q
                       ? Plan.CopyBack[I][*Q]
                       : X.Owned[Pos];
    }
    Steps.push_back(std::move(C));
  }
  for (unsigned I : Allocated) {
    Step F;
    F.Kind = Step::Free;
    F.Array = I;
    Steps.push_back(F);
  }
  if (In.Hold) {
    Step H;
    H.Kind = Step::Hold;
    Steps.push_back(H);
  }
  return Steps;
}

std::vector<Step> lowerUpdate(const Distribution &X, unsigned Position,
                              bool ToDevice, const ProductSet &Elements) {
  std::vector<Step> Steps;
  const ProductSet Section = ProductSet::of(X.Shape.Section);
  Step C;
  C.Kind = ToDevice ? Step::CopyIn : Step::CopyOut;
  if (!ToDevice) {
    C.Elements = X.Owned[Position].intersect(Elements);
    if (!C.Elements.empty())
      Steps.push_back(std::move(C));
    return Steps;
  }
  C.Elements = X.held(Position).intersect(Section).intersect(Elements);
  if (!C.Elements.empty())
    Steps.push_back(std::move(C));
  // Cells past the ends (periodic, reflecting edges) are held: their
  // sources are elements of the section, which the update may have
  // changed.
  if (X.holdsPastEnds(Position)) {
    Step E;
    E.Kind = Step::FillEdge;
    E.Elements = Elements.intersect(Section);
    if (!E.Elements.empty())
      Steps.push_back(std::move(E));
  }
  return Steps;
}

bool stepRunsAfter(Step::KindTy Kind, bool Failed, bool FailedBack) {
  switch (Kind) {
  case Step::Free:
  case Step::Hold:
    return true;
  case Step::CopyOut:
    return !Failed;
  default:
    return !Failed && !FailedBack;
  }
}

int64_t subPartCount(const std::vector<SubPartArray> &Arrays, bool Scheduled,
                     double BytesPerIteration, int64_t Iterations) {
  double Bytes =
      Scheduled ? BytesPerIteration * static_cast<double>(Iterations) : 0;
  double Again = 0; // what each sub-part copies again
  for (const SubPartArray &A : Arrays) {
    if (!A.Moves)
      continue;
    if (A.Cut) {
      if (A.In)
        Again += A.ElementSize * (A.Held - A.Owned);
      if (!Scheduled)
        Bytes += A.ElementSize * (A.In * A.Held + A.Out * A.Owned);
      continue;
    }
    if (A.Out)
      return 1;
    Again += A.ElementSize * A.Held;
  }
  double Parts = std::floor(Bytes / SubPartBytes);
  // Sub-parts that would then be much larger than SubPartBytes gain
  // nothing.
  if (Again > 0)
    Parts = std::min(Parts, 1 + Bytes / (8 * Again));
  if (Parts < 2 || Bytes / Parts > 2 * SubPartBytes)
    return 1;
  return std::min<int64_t>(Iterations, static_cast<int64_t>(Parts));
}

} // namespace homp
