//===-- homp/Trace.h - Chrome trace events ----------------------*- C++ -*-===//
//
// HOMP_TRACE=file.json writes what each device does (copies, kernels, halo
// transfers) as Chrome trace events, one track per device and one for the
// host; Perfetto and chrome://tracing open the file. The core formats the
// events; libhomp times them and writes them.
//
//===----------------------------------------------------------------------===//

#ifndef HOMP_TRACE_H
#define HOMP_TRACE_H

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace homp {

/// One event of the Trace Event Format.
struct TraceEvent {
  std::string Name;
  std::string Category; ///< "copy", "kernel", "halo", "data", ...
  char Phase = 'X';     ///< 'X': a span of Duration; 'M': metadata
  int64_t Track = 0;    ///< the thread id: a device id
  double StartUs = 0, DurationUs = 0;
  /// Arguments, each a name and a JSON value (traceNumber, traceString).
  std::vector<std::pair<std::string, std::string>> Args;
};

/// JSON values for TraceEvent::Args.
std::string traceNumber(int64_t V);
std::string traceString(const std::string &S);

/// The event as one line of JSON (no trailing comma or newline).
std::string traceEventJson(const TraceEvent &E);

/// The metadata event that names a track ("device 0 (CPU)", "host").
TraceEvent traceTrackName(int64_t Track, const std::string &Name);

} // namespace homp

#endif // HOMP_TRACE_H
