//===-- Trace.cpp - Chrome trace events -----------------------------------===//

#include "homp/Trace.h"

#include <cstdio>

namespace homp {

std::string traceNumber(int64_t V) { return std::to_string(V); }

std::string traceString(const std::string &S) {
  std::string Out = "\"";
  for (unsigned char C : S) {
    switch (C) {
    case '"':
      Out += "\\\"";
      break;
    case '\\':
      Out += "\\\\";
      break;
    case '\n':
      Out += "\\n";
      break;
    case '\t':
      Out += "\\t";
      break;
    default:
      // Control characters, and bytes of file names that need not be
      // UTF-8 (each taken as its Latin-1 character): escaped, so the file
      // stays valid JSON.
      if (C < 0x20 || C >= 0x7f) {
        char Buf[8];
        std::snprintf(Buf, sizeof Buf, "\\u%04x", C);
        Out += Buf;
      } else {
        Out += static_cast<char>(C);
      }
    }
  }
  return Out + "\"";
}

std::string traceEventJson(const TraceEvent &E) {
  char Times[96];
  std::string Out = "{\"name\":" + traceString(E.Name) +
                    ",\"cat\":" + traceString(E.Category) + ",\"ph\":\"" +
                    std::string(1, E.Phase) + "\",\"pid\":1,\"tid\":" +
                    traceNumber(E.Track);
  if (E.Phase == 'X') {
    std::snprintf(Times, sizeof Times, ",\"ts\":%.3f,\"dur\":%.3f", E.StartUs,
                  E.DurationUs);
    Out += Times;
  }
  Out += ",\"args\":{";
  for (size_t I = 0; I < E.Args.size(); ++I)
    Out += (I ? "," : "") + traceString(E.Args[I].first) + ":" +
           E.Args[I].second;
  return Out + "}}";
}

TraceEvent traceTrackName(int64_t Track, const std::string &Name) {
  TraceEvent E;
  E.Name = "thread_name";
  E.Category = "__metadata";
  E.Phase = 'M';
  E.Track = Track;
  E.Args = {{"name", traceString(Name)}};
  return E;
}

} // namespace homp
