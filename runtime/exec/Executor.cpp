//===-- Executor.cpp - The one interpreter of steps -----------------------===//

#include "homp/Executor.h"

namespace homp {

bool PartActions::allocate(Transport &T, const PartData &Data, const Step &St,
                           PartState &State) {
  const PartArray &A = Data.Arrays[St.Array];
  if (allocateStorage(T, Data.Device, A.Dist->Shape, St.Span, *A.Store,
                      State.Error))
    return true;
  State.Status = PartState::FailedBeforeResults;
  return false;
}

void PartActions::launch(const PartData &, const Step &, PartState &) {}

void PartActions::hold(const PartData &, PartState &) {}

void PartActions::copied(bool, EventClock::time_point, int64_t) {}

namespace {

void runStep(Transport &T, const Step &St, const PartData &Data,
             PartActions &Actions, PartState &State) {
  const PartArray *A =
      St.Array < Data.Arrays.size() ? &Data.Arrays[St.Array] : nullptr;
  auto Failed = [&](const char *Where) {
    const bool Back = St.Kind == Step::CopyOut;
    if (Back && State.Status != PartState::Ok)
      return;
    State.Status =
        Back ? PartState::FailedAfterResults : PartState::FailedBeforeResults;
    State.Error = "copying '" + *A->Name + "' " + Where + " device " +
                  std::to_string(Data.Device) + " failed";
  };
  switch (St.Kind) {
  case Step::Alloc:
    Actions.allocate(T, Data, St, State);
    return;
  case Step::CopyIn:
    if (!copyElements(T, Direction::ToDevice, A->Dist->Shape, A->Host,
                      *A->Store, St.Elements, State.BytesIn))
      Failed("to");
    return;
  case Step::FillEdge:
    if (!fillEdgeHalos(T, *A->Dist, Data.Position, A->Host,
                       storageEnd(A->Dist->Shape, *A->Store), State.BytesIn,
                       St.Elements))
      Failed("to");
    return;
  case Step::Launch:
    Actions.launch(Data, St, State);
    return;
  case Step::CopyOut:
    if (!copyElements(T, Direction::FromDevice, A->Dist->Shape,
                      St.ToStage ? A->Stage : A->Host, *A->Store, St.Elements,
                      State.BytesOut))
      Failed("back from");
    return;
  case Step::Free:
    freeStorage(T, *A->Store);
    return;
  case Step::Hold:
    Actions.hold(Data, State);
    return;
  }
}

} // namespace

void runSteps(Transport &T, const std::vector<Step> &Steps,
              const PartData &Data, PartActions &Actions, PartState &State) {
  size_t N = 0;
  // Runs the steps from N on while InPhase takes their kind: those that
  // still run after what failed before them.
  auto RunWhile = [&](auto InPhase) {
    for (; N < Steps.size() && InPhase(Steps[N].Kind); ++N)
      if (stepRunsAfter(Steps[N].Kind,
                        State.Status != PartState::Ok &&
                            State.Status != PartState::FailedAfterResults,
                        State.Status == PartState::FailedAfterResults))
        runStep(T, Steps[N], Data, Actions, State);
  };
  EventClock::time_point Start = EventClock::now();
  int64_t Before = State.BytesIn;
  RunWhile([](Step::KindTy K) {
    return K == Step::Alloc || K == Step::CopyIn || K == Step::FillEdge;
  });
  Actions.copied(true, Start, State.BytesIn - Before);
  RunWhile([](Step::KindTy K) { return K == Step::Launch; });
  if (State.Status == PartState::Ok) {
    Start = EventClock::now();
    Before = State.BytesOut;
    RunWhile([](Step::KindTy K) { return K == Step::CopyOut; });
    Actions.copied(false, Start, State.BytesOut - Before);
  }
  RunWhile([](Step::KindTy) { return true; });
}

} // namespace homp
