//===-- InfoTest.cpp - The HOMP_INFO report of a region -------------------===//

#include "homp/Info.h"

#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

using namespace homp;

namespace {

DeviceReport device(int Id, bool IsHost, Range Its, int64_t First, int64_t Last,
                    int64_t In, int64_t Out, double Seconds) {
  DeviceReport D;
  D.Device = Id;
  D.IsHost = IsHost;
  D.Iterations = Its;
  D.FirstIndex = First;
  D.LastIndex = Last;
  D.BytesIn = In;
  D.BytesOut = Out;
  D.Seconds = Seconds;
  return D;
}

std::vector<std::string> lines(const std::string &Text) {
  std::vector<std::string> Lines;
  std::istringstream In(Text);
  for (std::string L; std::getline(In, L);)
    Lines.push_back(L);
  return Lines;
}

bool has(const std::string &Text, const std::string &Part) {
  return Text.find(Part) != std::string::npos;
}

/// The number printed after "imbalance " in the report's first line.
double imbalance(const std::string &Report) {
  size_t At = Report.find("imbalance ");
  EXPECT_NE(At, std::string::npos) << Report;
  if (At == std::string::npos)
    return -1;
  return std::stod(Report.substr(At + 10));
}

} // namespace

TEST(Info, ReportNamesEverything) {
  std::vector<DeviceReport> Devices = {
      device(0, false, {0, 500}, 0, 499, 4000, 2000, 0.002),
      device(3, false, {500, 900}, 500, 899, 3200, 1600, 0.004),
      device(4, true, {900, 1000}, 900, 999, 0, 0, 0.003)};
  std::string R = formatRegionReport("axpy.c:12:5", 1000, 0.0045, Devices);
  std::vector<std::string> L = lines(R);
  ASSERT_EQ(L.size(), 5u) << R;
  EXPECT_TRUE(has(L[0], "axpy.c:12:5")) << L[0];
  EXPECT_TRUE(has(L[0], "1000 iterations")) << L[0];
  EXPECT_TRUE(has(L[0], "3 devices")) << L[0];
  EXPECT_TRUE(has(L[0], "4.500 ms")) << L[0];
  // Slowest 4 ms over a mean of 3 ms.
  EXPECT_NEAR(imbalance(R), 4.0 / 3.0, 0.006) << L[0];
  EXPECT_TRUE(has(L[0], "imbalance 1.33")) << L[0];

  EXPECT_TRUE(has(L[2], "[0, 500)")) << L[2];
  EXPECT_TRUE(has(L[2], "0 .. 499")) << L[2];
  EXPECT_TRUE(has(L[2], "4000")) << L[2];
  EXPECT_TRUE(has(L[2], "2000")) << L[2];
  EXPECT_TRUE(has(L[2], "2.000")) << L[2];

  EXPECT_TRUE(has(L[3], " 3 ")) << L[3];
  EXPECT_TRUE(has(L[3], "[500, 900)")) << L[3];
  EXPECT_TRUE(has(L[3], "500 .. 899")) << L[3];
  EXPECT_TRUE(has(L[3], "3200")) << L[3];
  EXPECT_TRUE(has(L[3], "1600")) << L[3];
  EXPECT_FALSE(has(L[3], "host")) << L[3];

  EXPECT_TRUE(has(L[4], "host")) << L[4];
  EXPECT_FALSE(has(L[4], " 4 ")) << L[4];
  EXPECT_TRUE(has(L[4], "[900, 1000)")) << L[4];
  EXPECT_TRUE(has(L[4], "900 .. 999")) << L[4];
  EXPECT_TRUE(has(L[4], "3.000")) << L[4];
}

TEST(Info, ImbalanceIsSlowestOverMean) {
  struct {
    std::vector<double> Seconds;
    double Expected;
  } Cases[] = {{{1, 1, 1, 1}, 1.0},
               {{1, 2, 3}, 1.5},
               {{0.001, 0.003}, 1.5},
               {{4, 0, 0, 0}, 4.0},
               {{2, 1}, 4.0 / 3.0},
               {{0.5}, 1.0},
               {{0.25, 0.5, 1.25}, 1.25 / (2.0 / 3.0)}};
  for (const auto &C : Cases) {
    std::vector<DeviceReport> Devices;
    for (size_t I = 0; I < C.Seconds.size(); ++I)
      Devices.push_back(device(static_cast<int>(I), false,
                               {int64_t(I) * 10, int64_t(I) * 10 + 10}, 0, 9, 8,
                               8, C.Seconds[I]));
    std::string R =
        formatRegionReport("f.c:1:1", 10 * C.Seconds.size(), 1.0, Devices);
    EXPECT_NEAR(imbalance(R), C.Expected, 0.006) << R;
  }
  // No time measured at all: balanced.
  std::string R = formatRegionReport("f.c:1:1", 4, 0,
                                     {device(0, false, {0, 2}, 0, 1, 0, 0, 0),
                                      device(1, false, {2, 4}, 2, 3, 0, 0, 0)});
  EXPECT_NEAR(imbalance(R), 1.0, 1e-9) << R;
}

TEST(Info, DeviceWithoutIterations) {
  std::string R =
      formatRegionReport("f.c:2:3", 1, 0.001,
                         {device(0, false, {0, 1}, 7, 7, 8, 8, 0.001),
                          device(1, false, {0, 0}, 0, 0, 0, 0, 0)});
  std::vector<std::string> L = lines(R);
  ASSERT_EQ(L.size(), 4u) << R;
  EXPECT_TRUE(has(L[2], "7 .. 7")) << L[2];
  EXPECT_TRUE(has(L[3], "[0, 0)")) << L[3];
  EXPECT_FALSE(has(L[3], "..")) << L[3];
}

TEST(Info, ReversedLoopIndices) {
  std::string R =
      formatRegionReport("f.c:2:3", 100, 0.001,
                         {device(2, false, {0, 50}, 99, 50, 400, 400, 0.001),
                          device(5, false, {50, 100}, 49, 0, 400, 400, 0.001)});
  EXPECT_TRUE(has(R, "99 .. 50")) << R;
  EXPECT_TRUE(has(R, "49 .. 0")) << R;
}

TEST(Info, LargeByteCounts) {
  std::string R = formatRegionReport(
      "f.c:2:3", 1, 0.001,
      {device(0, false, {0, 1}, 0, 0, 17179869184LL, 8589934592LL, 0.5)});
  EXPECT_TRUE(has(R, "17179869184")) << R;
  EXPECT_TRUE(has(R, "8589934592")) << R;
}
