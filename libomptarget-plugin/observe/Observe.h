//===-- Observe.h - Publishing what libhomp does ----------------*- C++ -*-===//
//
// libhomp's events (homp/Events.h) go to one bus: the counters always
// listen (homp_get_counters), the trace file when HOMP_TRACE names one,
// the reports' printer under HOMP_INFO. Every path publishes the same
// events whoever listens.
//
//===----------------------------------------------------------------------===//

#ifndef HOMP_LIBOMPTARGET_PLUGIN_OBSERVE_H
#define HOMP_LIBOMPTARGET_PLUGIN_OBSERVE_H

#include "homp/Events.h"

#include <string>

namespace homp {

/// Gives E to every listener.
void publish(const Event &E);

/// Publishes launch number Launch of Iterations on Device from Start to
/// now, whose arguments moved Bytes to the device and BytesBack from it.
void publishKernel(int Device, const std::string &Where,
                   EventClock::time_point Start, int64_t Iterations,
                   int64_t Launch, int64_t Bytes, int64_t BytesBack,
                   bool Queued, bool Replayed = false);

/// Publishes Bytes of Kind on Device from Start to End (now).
void publishCopy(EventKind Kind, int Device, const std::string &Name,
                 EventClock::time_point Start, EventClock::time_point End,
                 int64_t Bytes, const std::string *Array = nullptr);
inline void publishCopy(EventKind Kind, int Device, const std::string &Name,
                        EventClock::time_point Start, int64_t Bytes,
                        const std::string *Array = nullptr) {
  publishCopy(Kind, Device, Name, Start, EventClock::now(), Bytes, Array);
}

/// Publishes the report of the construct at Where, whose text Make()
/// returns when a listener asks for it (HOMP_INFO); Queued: of work the
/// program did not wait for, printed when it waits for its devices.
template <typename MakeText>
void publishReport(const std::string &Where, const MakeText &Make,
                   bool Queued = false) {
  struct Source final : ReportSource {
    explicit Source(const MakeText &Make) : Make(Make) {}
    std::string text() const override { return Make(); }
    const MakeText &Make;
  } Text(Make);
  Event E;
  E.Kind = EventKind::Report;
  E.Name = &Where;
  E.Report = &Text;
  E.Queued = Queued;
  E.Start = E.End = EventClock::now();
  publish(E);
}

/// The process's counters.
EventCounters &counters();

} // namespace homp

#endif // HOMP_LIBOMPTARGET_PLUGIN_OBSERVE_H
