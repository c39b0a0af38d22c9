//===-- EventsTest.cpp - Events, their bus, counters and trace spans ------===//

#include "homp/Events.h"

#include <gtest/gtest.h>

#include <thread>
#include <vector>

using namespace homp;

namespace {

Event kernel(int Device, int64_t Iterations, bool Queued) {
  Event E;
  E.Kind = EventKind::Kernel;
  E.Device = Device;
  E.Iterations = Iterations;
  E.Queued = Queued;
  E.Bytes = 16;
  E.BytesBack = 8;
  return E;
}

Event copy(EventKind Kind, int Device, int64_t Bytes) {
  Event E;
  E.Kind = Kind;
  E.Device = Device;
  E.Bytes = Bytes;
  return E;
}

struct Recorder : EventListener {
  std::vector<EventKind> Kinds;
  void onEvent(const Event &E) override { Kinds.push_back(E.Kind); }
};

TEST(EventsTest, CountersSumEachKindWhereItBelongs) {
  EventCounters C;
  C.onEvent(kernel(1, 100, false));
  C.onEvent(kernel(1, 50, true));
  C.onEvent(copy(EventKind::CopyIn, 1, 800));
  C.onEvent(copy(EventKind::DataIn, 1, 80));
  C.onEvent(copy(EventKind::CopyOut, 1, 400));
  C.onEvent(copy(EventKind::DataOut, 1, 40));
  C.onEvent(copy(EventKind::HaloSend, 1, 1000)); // counted at its receiver
  C.onEvent(copy(EventKind::HaloReceive, 1, 24));
  C.onEvent(copy(EventKind::HaloReceive, 2, 8));
  DeviceCounters One = C.of(1);
  EXPECT_EQ(One.Kernels, 2);
  EXPECT_EQ(One.QueuedKernels, 1);
  EXPECT_EQ(One.Iterations, 150);
  EXPECT_EQ(One.BytesIn, 800 + 80 + 2 * 16);
  EXPECT_EQ(One.BytesOut, 400 + 40 + 2 * 8);
  EXPECT_EQ(One.HaloBytes, 24);
  EXPECT_EQ(C.of(2).HaloBytes, 8);
  EXPECT_EQ(C.of(2).Kernels, 0);
  EXPECT_EQ(C.of(0).BytesIn, 0);
}

TEST(EventsTest, CountersIgnoreWhatMovesNothing) {
  EventCounters C;
  for (EventKind K : {EventKind::Wait, EventKind::Schedule, EventKind::Hold,
                      EventKind::Report}) {
    Event E = copy(K, 0, 99);
    C.onEvent(E);
  }
  DeviceCounters Z = C.of(0);
  EXPECT_EQ(Z.Kernels + Z.BytesIn + Z.BytesOut + Z.HaloBytes, 0);
}

/// A report whose text counts how often it was asked for.
struct CountedReport final : ReportSource {
  mutable int Asked = 0;
  std::string text() const override {
    ++Asked;
    return "region f.c:1:1: ...";
  }
};

/// What HOMP_INFO's listener does: asks for the text of reports.
struct Reader : EventListener {
  std::vector<std::string> Texts;
  void onEvent(const Event &E) override {
    if (E.Kind == EventKind::Report)
      Texts.push_back(E.Report->text());
  }
};

TEST(EventsTest, AReportsTextIsMadeOnlyForThoseWhoReadIt) {
  CountedReport R;
  Event E;
  E.Kind = EventKind::Report;
  E.Report = &R;
  EventCounters C;
  Recorder Kinds;
  EventBus Quiet;
  Quiet.subscribe(C);
  Quiet.subscribe(Kinds);
  Quiet.publish(E);
  EXPECT_EQ(R.Asked, 0);
  EXPECT_EQ(Kinds.Kinds, std::vector<EventKind>{EventKind::Report});
  Reader Info;
  EventBus Listening;
  Listening.subscribe(C);
  Listening.subscribe(Info);
  Listening.publish(E);
  EXPECT_EQ(R.Asked, 1);
  EXPECT_EQ(Info.Texts, std::vector<std::string>{"region f.c:1:1: ..."});
  // Not a span of time: the trace leaves it out.
  EXPECT_FALSE(isSpan(EventKind::Report));
  EXPECT_TRUE(isSpan(EventKind::Kernel));
}

TEST(EventsTest, CountersIgnoreIdsOutsideTheirTable) {
  EventCounters C;
  C.onEvent(kernel(-1, 10, false));
  C.onEvent(kernel(EventCounters::MaxDevices, 10, false));
  EXPECT_EQ(C.of(-1).Kernels, 0);
  EXPECT_EQ(C.of(EventCounters::MaxDevices).Kernels, 0);
  for (int D = 0; D < EventCounters::MaxDevices; ++D)
    ASSERT_EQ(C.of(D).Kernels, 0) << D;
}

TEST(EventsTest, ResetZeroesEveryCounter) {
  EventCounters C;
  C.onEvent(kernel(3, 10, true));
  C.onEvent(copy(EventKind::HaloReceive, 3, 8));
  C.reset();
  DeviceCounters Z = C.of(3);
  EXPECT_EQ(Z.Kernels + Z.QueuedKernels + Z.Iterations + Z.BytesIn +
                Z.BytesOut + Z.HaloBytes,
            0);
}

// Proxies publish at once: no event is lost.
TEST(EventsTest, CountersTakeEventsFromManyThreads) {
  EventCounters C;
  std::vector<std::thread> Threads;
  for (int T = 0; T < 4; ++T)
    Threads.emplace_back([&] {
      for (int I = 0; I < 10000; ++I)
        C.onEvent(kernel(0, 3, false));
    });
  for (std::thread &T : Threads)
    T.join();
  EXPECT_EQ(C.of(0).Kernels, 40000);
  EXPECT_EQ(C.of(0).Iterations, 120000);
}

TEST(EventsTest, BusGivesEveryEventToEachListenerInOrder) {
  EventBus Bus;
  Recorder A, B;
  ASSERT_TRUE(Bus.subscribe(A));
  ASSERT_TRUE(Bus.subscribe(B));
  Bus.publish(kernel(0, 1, false));
  Bus.publish(copy(EventKind::CopyOut, 0, 1));
  std::vector<EventKind> Want = {EventKind::Kernel, EventKind::CopyOut};
  EXPECT_EQ(A.Kinds, Want);
  EXPECT_EQ(B.Kinds, Want);
}

TEST(EventsTest, BusRefusesListenersPastItsSize) {
  EventBus Bus;
  std::vector<Recorder> Many(EventBus::MaxListeners + 1);
  for (size_t I = 0; I < EventBus::MaxListeners; ++I)
    EXPECT_TRUE(Bus.subscribe(Many[I]));
  EXPECT_FALSE(Bus.subscribe(Many.back()));
  Bus.publish(kernel(0, 1, false));
  EXPECT_EQ(Many.front().Kinds.size(), 1u);
  EXPECT_TRUE(Many.back().Kinds.empty());
}

TEST(EventsTest, TraceSpansNameWhatHappenedWhere) {
  const EventClock::time_point Origin = EventClock::now();
  const std::string Where = "f.c:3:1", Array = "x";
  Event K = kernel(2, 500, true);
  K.Name = &Where;
  K.Launch = 2;
  K.Replayed = true;
  K.Start = Origin + std::chrono::microseconds(10);
  K.End = Origin + std::chrono::microseconds(35);
  TraceEvent T = traceEventOf(K, Origin);
  EXPECT_EQ(T.Name, "kernel f.c:3:1");
  EXPECT_EQ(T.Category, "kernel");
  EXPECT_EQ(T.Track, 2);
  EXPECT_DOUBLE_EQ(T.StartUs, 10);
  EXPECT_DOUBLE_EQ(T.DurationUs, 25);
  std::vector<std::pair<std::string, std::string>> Args = {
      {"iterations", "500"}, {"launch", "2"}, {"replayed", "1"}};
  EXPECT_EQ(T.Args, Args);

  Event H = copy(EventKind::HaloReceive, 1, 64);
  H.Name = &Where;
  H.Array = &Array;
  T = traceEventOf(H, Origin);
  EXPECT_EQ(T.Name, "halo receive f.c:3:1");
  EXPECT_EQ(T.Category, "halo");
  Args = {{"bytes", "64"}, {"array", "\"x\""}};
  EXPECT_EQ(T.Args, Args);

  Event C = copy(EventKind::CopyOut, 0, 8);
  C.Name = &Where;
  T = traceEventOf(C, Origin);
  EXPECT_EQ(T.Name, "copy out f.c:3:1");
  EXPECT_EQ(T.Category, "copy");
  Args = {{"bytes", "8"}};
  EXPECT_EQ(T.Args, Args);

  Event W;
  W.Kind = EventKind::Wait;
  W.What = "wait for the region's end";
  W.Name = &Where;
  T = traceEventOf(W, Origin);
  EXPECT_EQ(T.Name, "wait for the region's end f.c:3:1");
  EXPECT_EQ(T.Category, "wait");
  EXPECT_TRUE(T.Args.empty());

  const std::vector<std::pair<std::string, std::string>> Chosen = {
      {"schedule", "\"BLOCK\""}, {"iterations", "10"}};
  Event S;
  S.Kind = EventKind::Schedule;
  S.Name = &Where;
  S.Args = &Chosen;
  T = traceEventOf(S, Origin);
  EXPECT_EQ(T.Name, "schedule f.c:3:1");
  EXPECT_EQ(T.Category, "schedule");
  EXPECT_EQ(T.Args, Chosen);
  S.Kind = EventKind::Hold;
  T = traceEventOf(S, Origin);
  EXPECT_EQ(T.Name, "HOMP_EMULATE f.c:3:1");
  EXPECT_EQ(T.Category, "emulate");

  const std::string What = "copy in 'x' (the data region at f.c:2:1)";
  const std::string Region = "the data region at f.c:2:1";
  Event D = copy(EventKind::DataIn, 0, 8);
  D.What = "copy in";
  D.Array = &Array;
  D.Name = &Region;
  T = traceEventOf(D, Origin);
  EXPECT_EQ(T.Name, What);
  EXPECT_EQ(T.Category, "data");
}

} // namespace
