//===-- homp/Events.h - What the runtime did, as events ---------*- C++ -*-===//
//
// Whatever moves data or runs work publishes an event: a kernel launch, a
// copy in or out, a halo send or receive, a resident array's copies, a
// wait, a schedule decided, an emulated device's hold, a construct's
// report. Who wants to know subscribes: the counters (always;
// homp_get_counters), the trace file (HOMP_TRACE), the reports
// (HOMP_INFO). Nothing executes differently because someone
// listens: the event is made and published on every path, and a listener
// only records it.
//
// An event names strings it does not own (the construct's location, the
// array's name): they outlive the call to publish, not the event.
//
//===----------------------------------------------------------------------===//

#ifndef HOMP_EVENTS_H
#define HOMP_EVENTS_H

#include "homp/Trace.h"

#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace homp {

using EventClock = std::chrono::steady_clock;

enum class EventKind : uint8_t {
  Kernel,      ///< one launch of a construct's part on a device
  CopyIn,      ///< a kernel's copies to a device before its launches
  CopyOut,     ///< a kernel's copies back after them
  DataIn,      ///< a resident array's copies to a device (enter, update to)
  DataOut,     ///< a resident array's copies from a device (exit, update from)
  HaloSend,    ///< a device's halo cells sent (into the staging buffer)
  HaloReceive, ///< a device's halo cells received
  Wait,        ///< a device, or the host, waiting for the others
  Schedule,    ///< a loop's schedule decided (on the host's track)
  Hold,        ///< HOMP_EMULATE holding a device as if it were slower
  /// A construct's report as HOMP_INFO prints it (not a span of time: the
  /// trace leaves it out).
  Report,
};

/// Whether events of Kind last from Start to End (the trace's spans).
inline bool isSpan(EventKind Kind) { return Kind != EventKind::Report; }

/// A Report event's text, made only when a listener asks for it, while the
/// event is being published: who reports pays nothing for it when nobody
/// listens, and runs the same either way.
class ReportSource {
public:
  virtual std::string text() const = 0;

protected:
  ~ReportSource() = default;
};

struct Event {
  EventKind Kind = EventKind::Kernel;
  int Device = 0; ///< the host's id for the host
  /// The construct's location, or of Data* what holds the array ("the
  /// data region at f.c:12:1").
  const std::string *Name = nullptr;
  const std::string *Array = nullptr; ///< Halo*, Data*: the array's name
  /// Wait: what is waited for ("wait for the region's end"); Data*: what
  /// was done ("copy in", "update from").
  const char *What = nullptr;
  /// Schedule, Hold: the trace's arguments (TraceEvent::Args).
  const std::vector<std::pair<std::string, std::string>> *Args = nullptr;
  int64_t Bytes = 0;      ///< moved (Kernel: its arguments' to the device)
  int64_t BytesBack = 0;  ///< Kernel: its arguments' bytes back
  int64_t Iterations = 0; ///< Kernel: the launch's iterations
  int64_t Launch = 0;     ///< Kernel: its number in the part (1, 2, ...)
  bool Replayed = false;  ///< Kernel: repeated as prepared (Replay.h)
  /// Kernel, Report: the program did not wait for it (a report of it is
  /// printed when the program waits for its devices).
  bool Queued = false;
  const ReportSource *Report = nullptr; ///< Report: its text
  EventClock::time_point Start, End;
};

/// Receives every event published after it subscribed, from any thread.
class EventListener {
public:
  virtual ~EventListener() = default;
  virtual void onEvent(const Event &E) = 0;
};

/// The listeners of a process: fixed once the first event is published.
class EventBus {
public:
  static constexpr size_t MaxListeners = 8;
  /// Before the first publish; false when full.
  bool subscribe(EventListener &L);
  void publish(const Event &E) const {
    for (size_t I = 0; I < Count; ++I)
      Listeners[I]->onEvent(E);
  }

private:
  std::array<EventListener *, MaxListeners> Listeners{};
  size_t Count = 0;
};

/// What the runtime did on one device, summed over its events.
struct DeviceCounters {
  int64_t Kernels = 0;       ///< launches
  int64_t QueuedKernels = 0; ///< of them, launches the program did not wait for
  int64_t Iterations = 0;    ///< the launches' iterations
  int64_t BytesIn = 0;       ///< to the device: kernels' and resident arrays'
  int64_t BytesOut = 0;      ///< from the device
  int64_t HaloBytes = 0;     ///< halo cells the device received
};

/// Sums events per device, lock-free: devices 0 to MaxDevices - 1 (the
/// host's id among them); events of other ids are not counted.
class EventCounters : public EventListener {
public:
  static constexpr int MaxDevices = 256;
  void onEvent(const Event &E) override;
  DeviceCounters of(int Device) const;
  void reset();

private:
  struct Slot {
    std::atomic<int64_t> Kernels{0}, QueuedKernels{0}, Iterations{0},
        BytesIn{0}, BytesOut{0}, HaloBytes{0};
  };
  std::array<Slot, MaxDevices> Slots;
};

/// E (a span: isSpan) as a trace span of the Trace Event Format, timed
/// from Origin.
TraceEvent traceEventOf(const Event &E, EventClock::time_point Origin);

} // namespace homp

#endif // HOMP_EVENTS_H
