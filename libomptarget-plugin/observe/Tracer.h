//===-- Tracer.h - Writing HOMP_TRACE ---------------------------*- C++ -*-===//
//
// The trace file (homp/Trace.h): opened at the first event, one event per
// line, flushed as it is written (a program that crashes leaves a file
// Perfetto and chrome://tracing still read), closed into a complete JSON
// array at exit. It only listens: every span is an event (Observe.h),
// heard from any thread.
//
//===----------------------------------------------------------------------===//

#ifndef HOMP_LIBOMPTARGET_PLUGIN_TRACER_H
#define HOMP_LIBOMPTARGET_PLUGIN_TRACER_H

#include "homp/Events.h"

namespace homp {

/// Whether HOMP_TRACE asks for a trace.
bool tracing();

/// The listener that writes the trace file's events (Observe.h), or
/// nullptr when HOMP_TRACE names none.
EventListener *traceListener();

} // namespace homp

#endif // HOMP_LIBOMPTARGET_PLUGIN_TRACER_H
