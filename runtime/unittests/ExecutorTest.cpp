//===-- ExecutorTest.cpp - The one interpreter of steps -------------------===//
//
// Runs lowered parts of a 1-D three-point stencil over three devices of a
// memory transport, with a kernel of the test's own that computes on the
// devices' storage, and checks the host's result against the stencil run
// sequentially: element for element, with every allocation released and
// every copy waited for. Then fails each copy in turn, and the launches,
// and checks what the failure rules promise.
//
//===----------------------------------------------------------------------===//

#include "homp/Executor.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

using namespace homp;

namespace {

using Policy = homp::abi::Policy;
using homp::abi::Edge;

constexpr int Devices = 3;

/// An array of N doubles, [0, N) mapped, in BLOCKs over devices 0 to 2,
/// with Halo on both sides and Edge at both ends.
Distribution distribute(int64_t N, int64_t Halo = 0, Edge E = Edge::None) {
  homp::abi::Array A;
  A.Name = "a";
  A.Rank = 1;
  A.Dims[0].Kind = Policy::Block;
  A.Halos[0] = {Halo, Halo, E, E};
  ArrayShape S;
  S.ElementSize = sizeof(double);
  S.Section.Rank = 1;
  S.Section.Dims[0] = {0, N};
  DistributionContext Ctx;
  Ctx.Topo.Dims = {Devices};
  Ctx.Devices = {0, 1, 2};
  std::string Error;
  std::optional<Distribution> X = distributeArray(A, S, {1, 1, 1}, Ctx, Error);
  EXPECT_TRUE(X) << Error;
  return X ? *X : Distribution();
}

/// v[i] = u[i - 1] + 2 u[i] + u[i + 1] on the storage of the device's part,
/// for the elements of v it owns (v[i] = u[i] at the array's ends, unless
/// the edges wrap).
class Stencil final : public PartActions {
public:
  Stencil(int64_t N, bool Wraps) : N(N), Wraps(Wraps) {}

  void launch(const PartData &Data, const Step &, PartState &State) override {
    ++Launches;
    if (FailLaunch) {
      State.Status = PartState::FailedBeforeResults;
      State.Error = "the launch failed";
      return;
    }
    const Storage &U = *Data.Arrays[0].Store, &V = *Data.Arrays[1].Store;
    auto At = [](const Storage &S, int64_t I) {
      EXPECT_TRUE(S.Span.contains(I)) << I;
      return static_cast<double *>(S.Ptr) + (I - S.Span.Begin);
    };
    const IndexSet &Own = Data.Arrays[1].Dist->Owned[Data.Position].Dims[0];
    for (Range R : Own.ranges())
      for (int64_t I = R.Begin; I < R.End; ++I)
        *At(V, I) = Wraps || (I > 0 && I < N - 1)
                        ? *At(U, I - 1) + 2 * *At(U, I) + *At(U, I + 1)
                        : *At(U, I);
  }
  void copied(bool In, EventClock::time_point, int64_t Bytes) override {
    (In ? CopiedIn : CopiedOut).push_back(Bytes);
  }

  int64_t N;
  bool Wraps;
  bool FailLaunch = false;
  int Launches = 0;
  std::vector<int64_t> CopiedIn, CopiedOut;
};

struct StencilRun {
  std::vector<PartState> States;
  std::vector<double> V;
};

/// Runs the stencil over N elements on the memory transport T, every
/// device's part lowered from one plan (u read with a halo of 1, v
/// written), and returns the devices' states and the host's v.
StencilRun runStencil(MemoryTransport &T, int64_t N, Edge E, Stencil &K) {
  KernelPlan Plan;
  Plan.Items = {distribute(N, 1, E), distribute(N)};
  Plan.Work.resize(Devices);
  for (DeviceWork &W : Plan.Work)
    W.Pieces.resize(1);
  std::vector<double> U(N);
  for (int64_t I = 0; I < N; ++I)
    U[I] = static_cast<double>((I * 7919) % 101);
  StencilRun R;
  R.V.assign(N, -1);
  const std::string NameU = "u", NameV = "v";
  for (unsigned P = 0; P < Devices; ++P) {
    PartInput In;
    In.Plan = &Plan;
    In.Position = P;
    In.Device = static_cast<int>(P);
    In.Arrays = {{true, true, false}, {true, false, true}};
    std::vector<Storage> Store(2);
    PartData Data;
    Data.Device = In.Device;
    Data.Position = P;
    Data.Arrays = {{&Plan.Items[0], reinterpret_cast<char *>(U.data()), nullptr,
                    &Store[0], &NameU},
                   {&Plan.Items[1], reinterpret_cast<char *>(R.V.data()),
                    nullptr, &Store[1], &NameV}};
    PartState State;
    runSteps(T, lowerPart(In), Data, K, State);
    R.States.push_back(State);
  }
  return R;
}

/// The stencil run sequentially.
std::vector<double> reference(int64_t N, bool Wraps) {
  std::vector<double> U(N), V(N, -1);
  for (int64_t I = 0; I < N; ++I)
    U[I] = static_cast<double>((I * 7919) % 101);
  for (int64_t I = 0; I < N; ++I)
    if (Wraps)
      V[I] = U[(I + N - 1) % N] + 2 * U[I] + U[(I + 1) % N];
    else
      V[I] = I > 0 && I < N - 1 ? U[I - 1] + 2 * U[I] + U[I + 1] : U[I];
  return V;
}

void expectAllReleased(const MemoryTransport &T) {
  EXPECT_TRUE(T.errors().empty()) << T.errors().front();
  EXPECT_EQ(T.unwaited(), 0u);
  for (int D = 0; D < Devices; ++D)
    EXPECT_EQ(T.heldBytes(D), 0u) << "device " << D;
}

TEST(Executor, RunsAStencilsPartsToTheSequentialResult) {
  for (Edge E : {Edge::None, Edge::Periodic})
    for (int64_t N : {3, 10, 31, 1000}) {
      SCOPED_TRACE("N = " + std::to_string(N) +
                   (E == Edge::Periodic ? ", periodic" : ""));
      MemoryTransport T(Devices);
      Stencil K(N, E == Edge::Periodic);
      StencilRun R = runStencil(T, N, E, K);
      for (const PartState &S : R.States) {
        EXPECT_EQ(S.Status, PartState::Ok) << S.Error;
        EXPECT_GT(S.BytesIn, 0);
      }
      EXPECT_EQ(R.V, reference(N, E == Edge::Periodic));
      expectAllReleased(T);
      EXPECT_EQ(K.Launches, Devices);
      // One report of the copies in and one of the copies out per part.
      EXPECT_EQ(K.CopiedIn.size(), size_t(Devices));
      EXPECT_EQ(K.CopiedOut.size(), size_t(Devices));
      int64_t Out = 0;
      for (int64_t B : K.CopiedOut)
        Out += B;
      EXPECT_EQ(Out, N * static_cast<int64_t>(sizeof(double)));
    }
}

TEST(Executor, AFailedCopyStopsThePartButNotItsReleases) {
  const int64_t N = 30;
  const std::vector<double> Want = reference(N, false);
  // The copies of a run that goes well: the fewest that let every part
  // succeed. Then each of them fails in turn.
  auto AllOk = [&](size_t Succeed) {
    MemoryTransport T(Devices);
    T.FailAfter = Succeed;
    Stencil K(N, false);
    for (const PartState &S : runStencil(T, N, Edge::None, K).States)
      if (S.Status != PartState::Ok)
        return false;
    return true;
  };
  size_t Copies = 0;
  while (Copies < 1000 && !AllOk(Copies))
    ++Copies;
  ASSERT_GT(Copies, size_t(Devices));
  const Distribution V = distribute(N);
  for (size_t F = 0; F < Copies; ++F) {
    SCOPED_TRACE("copies that succeed: " + std::to_string(F));
    MemoryTransport T(Devices);
    T.FailAfter = F;
    Stencil K(N, false);
    StencilRun R = runStencil(T, N, Edge::None, K);
    expectAllReleased(T);
    int Launched = 0;
    for (unsigned P = 0; P < Devices; ++P) {
      const PartState &S = R.States[P];
      const IndexSet &Own = V.Owned[P].Dims[0];
      bool Untouched = true;
      for (Range Rg : Own.ranges())
        for (int64_t I = Rg.Begin; I < Rg.End; ++I)
          Untouched &= R.V[I] == -1;
      switch (S.Status) {
      case PartState::Ok:
        ++Launched;
        for (Range Rg : Own.ranges())
          for (int64_t I = Rg.Begin; I < Rg.End; ++I)
            EXPECT_EQ(R.V[I], Want[I]) << I;
        break;
      case PartState::FailedBeforeResults:
        // Nothing of it reached the host: the host may run it again.
        EXPECT_TRUE(Untouched) << "device " << P;
        EXPECT_NE(S.Error.find("to device " + std::to_string(P)),
                  std::string::npos)
            << S.Error;
        break;
      case PartState::FailedAfterResults:
        ++Launched;
        EXPECT_NE(S.Error.find("'v' back from device " + std::to_string(P)),
                  std::string::npos)
            << S.Error;
        break;
      case PartState::Fatal:
        ADD_FAILURE() << "a copy's failure is never fatal";
      }
    }
    // A part launches only when all its copies in went well.
    EXPECT_EQ(K.Launches, Launched);
  }
}

TEST(Executor, AFailedLaunchCopiesNothingBack) {
  const int64_t N = 31;
  MemoryTransport T(Devices);
  Stencil K(N, false);
  K.FailLaunch = true;
  StencilRun R = runStencil(T, N, Edge::None, K);
  for (const PartState &S : R.States) {
    EXPECT_EQ(S.Status, PartState::FailedBeforeResults);
    EXPECT_EQ(S.BytesOut, 0);
  }
  EXPECT_EQ(R.V, std::vector<double>(N, -1));
  EXPECT_TRUE(K.CopiedOut.empty());
  EXPECT_EQ(K.CopiedIn.size(), size_t(Devices));
  expectAllReleased(T);
}

TEST(Executor, RunsAnUpdatesSteps) {
  // 'target update' of elements [5, 20) of u, periodic with a halo of 1,
  // to each device and back: the devices' storage holds them, and the
  // cells past the ends come from the updated elements.
  const int64_t N = 24;
  Distribution X = distribute(N, 1, Edge::Periodic);
  MemoryTransport T(Devices);
  std::vector<double> Host(N), Back(N, -1);
  for (int64_t I = 0; I < N; ++I)
    Host[I] = static_cast<double>(I);
  Box B;
  B.Rank = 1;
  B.Dims[0] = {5, 20};
  const ProductSet Elements = ProductSet::of(B);
  const std::string Name = "u";
  for (unsigned P = 0; P < Devices; ++P) {
    Storage S;
    std::string Error;
    const Range Span = X.Shape.span(X.held(P));
    ASSERT_TRUE(
        allocateStorage(T, static_cast<int>(P), X.Shape, Span, S, Error));
    PartData Data;
    Data.Device = static_cast<int>(P);
    Data.Position = P;
    Data.Arrays = {
        {&X, reinterpret_cast<char *>(Host.data()), nullptr, &S, &Name}};
    PartActions Copies;
    PartState In;
    runSteps(T, lowerUpdate(X, P, true, Elements), Data, Copies, In);
    EXPECT_EQ(In.Status, PartState::Ok) << In.Error;
    const double *Cells = static_cast<const double *>(S.Ptr);
    for (int64_t I = Span.Begin; I < Span.End; ++I) {
      const int64_t Source = (I + N) % N;
      if (Source >= 5 && Source < 20)
        EXPECT_EQ(Cells[I - Span.Begin], Host[Source]) << "cell " << I;
    }
    Data.Arrays[0].Host = reinterpret_cast<char *>(Back.data());
    PartState Out;
    runSteps(T, lowerUpdate(X, P, false, Elements), Data, Copies, Out);
    EXPECT_EQ(Out.Status, PartState::Ok) << Out.Error;
    freeStorage(T, S);
  }
  for (int64_t I = 0; I < N; ++I)
    EXPECT_EQ(Back[I], I >= 5 && I < 20 ? Host[I] : -1) << I;
  expectAllReleased(T);
}

} // namespace
