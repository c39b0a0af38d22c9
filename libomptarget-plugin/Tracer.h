//===-- Tracer.h - Writing HOMP_TRACE ---------------------------*- C++ -*-===//
//
// The trace file (homp/Trace.h): opened at the first event, one event per
// line, flushed as it is written (a program that crashes leaves a file
// Perfetto and chrome://tracing still read), closed into a complete JSON
// array at exit. Safe to call from every proxy thread. What moves data
// or runs work comes as events (Observe.h); waits and schedule decisions
// are written as spans here.
//
//===----------------------------------------------------------------------===//

#ifndef HOMP_LIBOMPTARGET_PLUGIN_TRACER_H
#define HOMP_LIBOMPTARGET_PLUGIN_TRACER_H

#include "homp/Events.h"

#include <chrono>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace homp {

/// Whether HOMP_TRACE asks for a trace.
bool tracing();

/// The listener that writes the trace file's events (Observe.h), or
/// nullptr when HOMP_TRACE names none.
EventListener *traceListener();

/// Records a span on Device's track (the host's id for the host) from Start
/// to now. Args: name and JSON value pairs (homp/Trace.h).
void traceSpan(int Device, const char *Category, const std::string &Name,
               std::chrono::steady_clock::time_point Start,
               std::vector<std::pair<std::string, std::string>> Args = {});

/// Records a span on Device's track from Start to End.
void traceSpan(int Device, const char *Category, const std::string &Name,
               std::chrono::steady_clock::time_point Start,
               std::chrono::steady_clock::time_point End,
               std::vector<std::pair<std::string, std::string>> Args);

} // namespace homp

#endif // HOMP_LIBOMPTARGET_PLUGIN_TRACER_H
