//===-- Observe.cpp - Publishing what libhomp does ------------------------===//

#include "Observe.h"

#include "Devices.h"
#include "Messages.h"
#include "Tracer.h"

namespace homp {

namespace {

/// HOMP_INFO: prints the constructs' reports, those of work the program did
/// not wait for when it waits for its devices.
class InfoListener final : public EventListener {
public:
  void onEvent(const Event &E) override {
    if (E.Kind != EventKind::Report || !E.Report)
      return;
    std::string Text = E.Report->text();
    if (E.Queued)
      deferMessage(std::move(Text));
    else
      message("%s", Text.c_str());
  }
};

/// The listeners, fixed at the first event (never freed: proxies may
/// publish while the process exits).
const EventBus &bus() {
  static const EventBus *B = [] {
    auto *B = new EventBus;
    B->subscribe(counters());
    if (EventListener *T = traceListener())
      B->subscribe(*T);
    if (settings().Info)
      B->subscribe(*new InfoListener);
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
