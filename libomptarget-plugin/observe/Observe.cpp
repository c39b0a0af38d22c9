//===-- Observe.cpp - Publishing what libhomp does ------------------------===//

#include "Observe.h"

#include "Tracer.h"

namespace homp {

namespace {

/// The listeners, fixed at the first event (never freed: proxies may
/// publish while the process exits).
const EventBus &bus() {
  static const EventBus *B = [] {
    auto *B = new EventBus;
    B->subscribe(counters());
    if (EventListener *T = traceListener())
      B->subscribe(*T);
    return B;
  }();
  return *B;
}

} // namespace

EventCounters &counters() {
  static EventCounters *C = new EventCounters;
  return *C;
}

void publish(const Event &E) { bus().publish(E); }

void publishKernel(int Device, const std::string &Where,
                   EventClock::time_point Start, int64_t Iterations,
                   int64_t Launch, int64_t Bytes, int64_t BytesBack,
                   bool Queued, bool Replayed) {
  Event E;
  E.Kind = EventKind::Kernel;
  E.Device = Device;
  E.Name = &Where;
  E.Iterations = Iterations;
  E.Launch = Launch;
  E.Bytes = Bytes;
  E.BytesBack = BytesBack;
  E.Queued = Queued;
  E.Replayed = Replayed;
  E.Start = Start;
  E.End = EventClock::now();
  publish(E);
}

void publishCopy(EventKind Kind, int Device, const std::string &Name,
                 EventClock::time_point Start, EventClock::time_point End,
                 int64_t Bytes, const std::string *Array) {
  Event E;
  E.Kind = Kind;
  E.Device = Device;
  E.Name = &Name;
  E.Array = Array;
  E.Bytes = Bytes;
  E.Start = Start;
  E.End = End;
  publish(E);
}

} // namespace homp
