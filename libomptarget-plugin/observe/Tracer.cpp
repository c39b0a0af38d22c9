//===-- Tracer.cpp - Writing HOMP_TRACE -----------------------------------===//

#include "Tracer.h"

#include "Devices.h"
#include "Ranks.h"

#include "homp/DeviceSelection.h"
#include "homp/Trace.h"

#include <omp.h>

#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <set>

namespace homp {

namespace {

using Clock = std::chrono::steady_clock;

/// Time 0 of the trace: when libhomp was loaded, before any event began.
const Clock::time_point Origin = Clock::now();

struct Writer {
  std::mutex M;
  std::FILE *File = nullptr;
  std::set<int64_t> Named; ///< tracks whose name is written

  void line(const TraceEvent &E) {
    std::string Text = traceEventJson(E) + ",\n";
    std::fputs(Text.c_str(), File);
  }
};

Writer *writer();

/// HOMP_TRACE's file; under an MPI job one per rank, the rank before the
/// extension ('trace.json': 'trace.rank1.json'), as ranks write at once.
std::string tracePath() {
  std::string Path = settings().TracePath;
  const RankWorld &W = rankWorld();
  if (!W.spans())
    return Path;
  const size_t Slash = Path.rfind('/');
  const size_t Dot = Path.rfind('.');
  const size_t At = Dot != std::string::npos &&
                            (Slash == std::string::npos || Dot > Slash + 1)
                        ? Dot
                        : Path.size();
  return Path.insert(At, ".rank" + std::to_string(W.Rank));
}

Writer *openWriter() {
  const std::string Path = tracePath();
  auto *W = new Writer(); // outlives static destructors: events come late
  W->File = std::fopen(Path.c_str(), "w");
  if (!W->File) {
    message("homp: error: HOMP_TRACE='%s' cannot be written; expected "
            "the path of a file to create\n",
            Path.c_str());
    // Other threads may be waiting for this writer: exit handlers that
    // wait for them must not run.
    std::fflush(nullptr);
    std::_Exit(EXIT_FAILURE);
  }
  std::fputs("[\n", W->File);
  TraceEvent Process;
  Process.Name = "process_name";
  Process.Category = "__metadata";
  Process.Phase = 'M';
  Process.Args = {
      {"name", traceString(rankWorld().spans()
                               ? "homp rank " + std::to_string(rankWorld().Rank)
                               : "homp")}};
  W->line(Process);
  std::fflush(W->File);
  // A complete JSON array after a normal exit.
  std::atexit([] {
    Writer &W = *writer();
    std::lock_guard<std::mutex> Lock(W.M);
    // The last element: no comma after it.
    TraceEvent Labels;
    Labels.Name = "process_labels";
    Labels.Category = "__metadata";
    Labels.Phase = 'M';
    Labels.Args = {{"labels", traceString("homp")}};
    std::fputs(traceEventJson(Labels).c_str(), W.File);
    std::fputs("\n]\n", W.File);
    std::fclose(W.File);
    W.File = nullptr;
  });
  return W;
}

Writer *writer() {
  static Writer *W = openWriter();
  return W;
}

/// Writes E on its device's track, naming the track first.
void write(TraceEvent E) {
  Writer &W = *writer();
  std::lock_guard<std::mutex> Lock(W.M);
  if (!W.File)
    return; // after the exit handler closed it
  if (W.Named.insert(E.Track).second) {
    int Host = hostDevice();
    int Device = static_cast<int>(E.Track);
    W.line(traceTrackName(
        Device, Device == Host
                    ? std::string("host")
                    : "device " + std::to_string(Device) + " (" +
                          deviceTypeName(deviceTypes().typeOf(Device)) + ")"));
  }
  W.line(E);
  std::fflush(W.File);
}

/// Writes every event it hears.
struct TraceListener : EventListener {
  void onEvent(const Event &E) override {
    if (isSpan(E.Kind))
      write(traceEventOf(E, Origin));
  }
};

} // namespace

bool tracing() { return !settings().TracePath.empty(); }

EventListener *traceListener() {
  static TraceListener *L = new TraceListener;
  return tracing() ? L : nullptr;
}

} // namespace homp
