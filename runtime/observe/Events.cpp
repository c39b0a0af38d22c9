//===-- Events.cpp - What the runtime did, as events ----------------------===//

#include "homp/Events.h"

namespace homp {

bool EventBus::subscribe(EventListener &L) {
  if (Count == MaxListeners)
    return false;
  Listeners[Count++] = &L;
  return true;
}

void EventCounters::onEvent(const Event &E) {
  if (E.Device < 0 || E.Device >= MaxDevices)
    return;
  Slot &S = Slots[E.Device];
  auto Add = [](std::atomic<int64_t> &C, int64_t V) {
    if (V)
      C.fetch_add(V, std::memory_order_relaxed);
  };
  switch (E.Kind) {
  case EventKind::Kernel:
    Add(S.Kernels, 1);
    Add(S.QueuedKernels, E.Queued);
    Add(S.Iterations, E.Iterations);
    Add(S.BytesIn, E.Bytes);
    Add(S.BytesOut, E.BytesBack);
    break;
  case EventKind::CopyIn:
  case EventKind::DataIn:
    Add(S.BytesIn, E.Bytes);
    break;
  case EventKind::CopyOut:
  case EventKind::DataOut:
    Add(S.BytesOut, E.Bytes);
    break;
  case EventKind::HaloSend:
    break; // counted where it arrives
  case EventKind::HaloReceive:
    Add(S.HaloBytes, E.Bytes);
    break;
  case EventKind::Wait:
  case EventKind::Schedule:
  case EventKind::Hold:
  case EventKind::Report:
    break;
  }
}

DeviceCounters EventCounters::of(int Device) const {
  DeviceCounters C;
  if (Device < 0 || Device >= MaxDevices)
    return C;
  const Slot &S = Slots[Device];
  C.Kernels = S.Kernels.load(std::memory_order_relaxed);
  C.QueuedKernels = S.QueuedKernels.load(std::memory_order_relaxed);
  C.Iterations = S.Iterations.load(std::memory_order_relaxed);
  C.BytesIn = S.BytesIn.load(std::memory_order_relaxed);
  C.BytesOut = S.BytesOut.load(std::memory_order_relaxed);
  C.HaloBytes = S.HaloBytes.load(std::memory_order_relaxed);
  return C;
}

void EventCounters::reset() {
  for (Slot &S : Slots)
    for (std::atomic<int64_t> *C : {&S.Kernels, &S.QueuedKernels, &S.Iterations,
                                    &S.BytesIn, &S.BytesOut, &S.HaloBytes})
      C->store(0, std::memory_order_relaxed);
}

TraceEvent traceEventOf(const Event &E, EventClock::time_point Origin) {
  TraceEvent T;
  const std::string Name = E.Name ? *E.Name : std::string();
  T.Track = E.Device;
  T.StartUs =
      std::chrono::duration<double, std::micro>(E.Start - Origin).count();
  T.DurationUs =
      std::chrono::duration<double, std::micro>(E.End - E.Start).count();
  switch (E.Kind) {
  case EventKind::Kernel:
    T.Category = "kernel";
    T.Name = "kernel " + Name;
    T.Args = {{"iterations", traceNumber(E.Iterations)},
              {"launch", traceNumber(E.Launch)}};
    if (E.Replayed)
      T.Args.push_back({"replayed", traceNumber(1)});
    return T;
  case EventKind::CopyIn:
  case EventKind::CopyOut:
    T.Category = "copy";
    T.Name = (E.Kind == EventKind::CopyIn ? "copy in " : "copy out ") + Name;
    break;
  case EventKind::DataIn:
  case EventKind::DataOut:
    // "copy in 'x' (the data region at f.c:2:1)"
    T.Category = "data";
    T.Name = E.What
                 ? std::string(E.What) + " '" +
                       (E.Array ? *E.Array : std::string()) + "' (" + Name + ")"
                 : Name;
    break;
  case EventKind::HaloSend:
  case EventKind::HaloReceive:
    T.Category = "halo";
    T.Name =
        (E.Kind == EventKind::HaloSend ? "halo send " : "halo receive ") + Name;
    T.Args = {{"bytes", traceNumber(E.Bytes)},
              {"array", traceString(E.Array ? *E.Array : std::string())}};
    return T;
  case EventKind::Wait:
    T.Category = "wait";
    T.Name = std::string(E.What ? E.What : "wait") + " " + Name;
    return T;
  case EventKind::Report:
    T.Category = "report";
    T.Name = Name;
    return T;
  case EventKind::Schedule:
  case EventKind::Hold:
    T.Category = E.Kind == EventKind::Schedule ? "schedule" : "emulate";
    T.Name =
        (E.Kind == EventKind::Schedule ? "schedule " : "HOMP_EMULATE ") + Name;
    if (E.Args)
      T.Args = *E.Args;
    return T;
  }
  T.Args = {{"bytes", traceNumber(E.Bytes)}};
  return T;
}

} // namespace homp
