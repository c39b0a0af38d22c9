//===-- TraceTest.cpp - Chrome trace events --------------------------------===//
//
// The events HOMP_TRACE writes: the fields the Trace Event Format wants, and
// names from file paths (quotes, backslashes, control characters, bytes
// that are not UTF-8) escaped so that every line is valid JSON.
//
//===----------------------------------------------------------------------===//

#include "homp/Trace.h"

#include <gtest/gtest.h>

using namespace homp;

TEST(Trace, SpanHasEveryField) {
  TraceEvent E;
  E.Name = "kernel a.c:3:1";
  E.Category = "kernel";
  E.Track = 2;
  E.StartUs = 12.5;
  E.DurationUs = 3.25;
  E.Args = {{"iterations", traceNumber(200)}, {"array", traceString("u")}};
  EXPECT_EQ(traceEventJson(E),
            "{\"name\":\"kernel a.c:3:1\",\"cat\":\"kernel\",\"ph\":\"X\","
            "\"pid\":1,\"tid\":2,\"ts\":12.500,\"dur\":3.250,\"args\":{"
            "\"iterations\":200,\"array\":\"u\"}}");
}

TEST(Trace, TrackNamesAreMetadataWithoutTimes) {
  EXPECT_EQ(traceEventJson(traceTrackName(4, "host")),
            "{\"name\":\"thread_name\",\"cat\":\"__metadata\",\"ph\":\"M\","
            "\"pid\":1,\"tid\":4,\"args\":{\"name\":\"host\"}}");
}

TEST(Trace, StringsAreEscaped) {
  EXPECT_EQ(traceString("my \"file\".c"), "\"my \\\"file\\\".c\"");
  EXPECT_EQ(traceString("C:\\dir"), "\"C:\\\\dir\"");
  EXPECT_EQ(traceString("a\nb\tc\rd"), "\"a\\nb\\tc\\u000dd\"");
  EXPECT_EQ(traceString(std::string("\x01\x7f", 2)), "\"\\u0001\\u007f\"");
  // Bytes that are not UTF-8 become their Latin-1 characters.
  EXPECT_EQ(traceString("caf\xe9"), "\"caf\\u00e9\"");
  EXPECT_EQ(traceString(""), "\"\"");
}

TEST(Trace, NumbersAreDecimal) {
  EXPECT_EQ(traceNumber(0), "0");
  EXPECT_EQ(traceNumber(-42), "-42");
  EXPECT_EQ(traceNumber(int64_t(1) << 40), "1099511627776");
}
