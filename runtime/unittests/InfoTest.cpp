//===-- InfoTest.cpp - The HOMP_INFO report -------------------------------===//
//
// describeWork's text for the indices a device ran, and formatReport's
// table: every column of every row, right-aligned numbers under their
// titles, failed devices, and the load imbalance over the devices that
// shared the work.
//
//===----------------------------------------------------------------------===//

#include "homp/Info.h"

#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

using namespace homp;

namespace {

DeviceReport device(int Id, bool IsHost, const std::string &Type,
                    const std::string &Work, int64_t Launches, int64_t In,
                    int64_t Out, double Seconds) {
  DeviceReport D;
  D.Device = Id;
  D.IsHost = IsHost;
  D.Type = Type;
  D.Work = Work;
  D.Launches = Launches;
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

std::vector<std::string> words(const std::string &Line) {
  std::vector<std::string> W;
  std::istringstream In(Line);
  for (std::string X; In >> X;)
    W.push_back(X);
  return W;
}

/// A word of a line and where it starts and ends.
struct Word {
  std::string Text;
  size_t Begin, End;
};

std::vector<Word> wordsAt(const std::string &Line) {
  std::vector<Word> W;
  for (size_t I = 0; I < Line.size();) {
    if (Line[I] == ' ') {
      ++I;
      continue;
    }
    size_t B = I;
    while (I < Line.size() && Line[I] != ' ')
      ++I;
    W.push_back({Line.substr(B, I - B), B, I});
  }
  return W;
}

/// One row of the table, taken apart: "homp:", device, type, the indices
/// (which may hold spaces), then four numbers; and where the first three
/// start and the numbers end.
struct Row {
  std::string Device, Type, Indices, Launches, BytesIn, BytesOut, Ms;
  size_t DeviceAt = 0, TypeAt = 0, IndicesAt = 0;
  size_t LaunchesEnd = 0, BytesInEnd = 0, BytesOutEnd = 0, MsEnd = 0;
};

Row parseRow(const std::string &Line) {
  std::vector<Word> W = wordsAt(Line);
  Row R;
  if (W.size() < 8 || W[0].Text != "homp:") {
    ADD_FAILURE() << "not a row: '" << Line << "'";
    return R;
  }
  size_t N = W.size();
  R.Device = W[1].Text;
  R.DeviceAt = W[1].Begin;
  R.Type = W[2].Text;
  R.TypeAt = W[2].Begin;
  R.Indices = Line.substr(W[3].Begin, W[N - 5].End - W[3].Begin);
  R.IndicesAt = W[3].Begin;
  R.Launches = W[N - 4].Text;
  R.LaunchesEnd = W[N - 4].End;
  R.BytesIn = W[N - 3].Text;
  R.BytesInEnd = W[N - 3].End;
  R.BytesOut = W[N - 2].Text;
  R.BytesOutEnd = W[N - 2].End;
  R.Ms = W[N - 1].Text;
  R.MsEnd = W[N - 1].End;
  return R;
}

/// Where Title starts in the header line, and where it ends.
size_t startOf(const std::string &Head, const std::string &Title) {
  size_t At = Head.find(Title);
  EXPECT_NE(At, std::string::npos) << Title;
  return At;
}

size_t endOf(const std::string &Head, const std::string &Title) {
  return startOf(Head, Title) + Title.size();
}

/// The number printed after "imbalance " in the report's first line.
double imbalance(const std::string &Report) {
  size_t At = Report.find("imbalance ");
  EXPECT_NE(At, std::string::npos) << Report;
  if (At == std::string::npos)
    return -1;
  return std::stod(Report.substr(At + 10));
}

LoopBounds loop(int64_t First, CompareOp Op, int64_t Bound, int64_t Step) {
  return {First, Bound, Step, Op};
}

ProductSet iterations(std::vector<IndexSet> Dims) {
  ProductSet P;
  P.Rank = static_cast<unsigned>(Dims.size());
  for (unsigned I = 0; I < P.Rank; ++I)
    P.Dims[I] = Dims[I];
  return P;
}

IndexSet set(std::vector<Range> Ranges) {
  IndexSet S;
  for (const Range &R : Ranges)
    S.add(R);
  return S;
}

} // namespace

//===----------------------------------------------------------------------===//
// describeWork
//===----------------------------------------------------------------------===//

TEST(DescribeWork, ARangeOfIndices) {
  LoopNest N;
  N.Loops[0] = loop(0, CompareOp::Less, 10, 1);
  EXPECT_EQ(describeWork(N, iterations({set({{2, 5}})})), "[2, 5)");
}

// Indices, not iterations: a loop running down from 9 runs indices 7 .. 9
// as its iterations 0 .. 2.
TEST(DescribeWork, IndicesOfADescendingLoop) {
  LoopNest N;
  N.Loops[0] = loop(9, CompareOp::GreaterEqual, 0, -1);
  EXPECT_EQ(describeWork(N, iterations({set({{0, 3}})})), "[7, 10)");
  N.Loops[0] = loop(1, CompareOp::LessEqual, 21, 2);
  EXPECT_EQ(describeWork(N, iterations({set({{1, 3}})})), "[3, 6)");
}

// Many ranges (a CYCLIC part): their hull and how many there are.
TEST(DescribeWork, ManyRangesAsTheirHullAndCount) {
  LoopNest N;
  N.Loops[0] = loop(0, CompareOp::Less, 30, 1);
  EXPECT_EQ(describeWork(N, iterations({set({{0, 2}, {6, 8}, {12, 14}})})),
            "[0, 14)/3");
}

TEST(DescribeWork, OnePartPerLoopOfTheNest) {
  LoopNest N;
  N.Rank = 2;
  N.Loops[0] = loop(0, CompareOp::Less, 6, 1);
  N.Loops[1] = loop(10, CompareOp::Greater, 0, -1);
  EXPECT_EQ(describeWork(N, iterations({set({{0, 3}}), set({{2, 6}})})),
            "[0, 3) x [5, 9)");
  N.Rank = 3;
  N.Loops[2] = loop(0, CompareOp::Less, 8, 1);
  EXPECT_EQ(describeWork(N, iterations({set({{3, 6}}), set({{0, 2}, {4, 5}}),
                                        set({{1, 2}})})),
            "[3, 6) x [6, 11)/2 x [1, 2)");
}

TEST(DescribeWork, NoIterations) {
  LoopNest N;
  N.Loops[0] = loop(0, CompareOp::Less, 10, 1);
  EXPECT_EQ(describeWork(N, iterations({IndexSet()})), "-");
  N.Rank = 2;
  EXPECT_EQ(describeWork(N, iterations({set({{0, 3}}), IndexSet()})), "-");
}

// The host's row after it ran failed devices' parts besides its own: parts
// that differ in one loop only read as one set, the others are joined.
TEST(DescribeWork, PartsOfOneDevice) {
  LoopNest N;
  N.Loops[0] = loop(0, CompareOp::Less, 100, 1);
  EXPECT_EQ(
      describeWork(N, std::vector<ProductSet>{iterations({set({{75, 100}})}),
                                              iterations({set({{25, 50}})})}),
      "[25, 100)/2");
  EXPECT_EQ(
      describeWork(N, std::vector<ProductSet>{iterations({set({{0, 25}})}),
                                              iterations({IndexSet()}),
                                              iterations({set({{25, 50}})})}),
      "[0, 50)");
  EXPECT_EQ(describeWork(N, std::vector<ProductSet>{iterations({IndexSet()})}),
            "-");
  EXPECT_EQ(describeWork(N, std::vector<ProductSet>{}), "-");
  N.Rank = 2;
  N.Loops[1] = loop(0, CompareOp::Less, 10, 1);
  // Rows 0-2 and 6-8 of the same columns: one set.
  EXPECT_EQ(describeWork(N,
                         std::vector<ProductSet>{
                             iterations({set({{0, 3}}), set({{0, 5}})}),
                             iterations({set({{6, 9}}), set({{0, 5}})})}),
            "[0, 9)/2 x [0, 5)");
  // Blocks of a 2 x 2 topology on the diagonal: two.
  EXPECT_EQ(describeWork(N,
                         std::vector<ProductSet>{
                             iterations({set({{0, 3}}), set({{0, 5}})}),
                             iterations({set({{3, 6}}), set({{5, 10}})})}),
            "[0, 3) x [0, 5) + [3, 6) x [5, 10)");
}

//===----------------------------------------------------------------------===//
// formatReport
//===----------------------------------------------------------------------===//

TEST(Info, ReportHasEveryColumnOfEveryDevice) {
  std::vector<DeviceReport> Devices = {
      device(0, false, "NVGPU", "[0, 500)", 1, 4000, 2000, 0.002),
      device(3, false, "CPU", "[500, 900)/4", 4, 3200, 1600, 0.004),
      device(4, true, "HOST", "[900, 1000) x [0, 3)", 2, 0, 0, 0.003)};
  std::string R = formatReport("region axpy.c:12:5", 0.0045, true, Devices);
  std::vector<std::string> L = lines(R);
  ASSERT_EQ(L.size(), 5u) << R;
  EXPECT_EQ(L[0], "homp: region axpy.c:12:5 in 4.500 ms, imbalance 1.33");
  EXPECT_EQ(words(L[1]), (std::vector<std::string>{
                             "homp:", "device", "type", "indices", "launches",
                             "bytes", "in", "bytes", "out", "time", "ms"}));

  Row A = parseRow(L[2]), B = parseRow(L[3]), C = parseRow(L[4]);
  EXPECT_EQ(A.Device, "0");
  EXPECT_EQ(A.Type, "NVGPU");
  EXPECT_EQ(A.Indices, "[0, 500)");
  EXPECT_EQ(A.Launches, "1");
  EXPECT_EQ(A.BytesIn, "4000");
  EXPECT_EQ(A.BytesOut, "2000");
  EXPECT_EQ(A.Ms, "2.000");

  EXPECT_EQ(B.Device, "3");
  EXPECT_EQ(B.Type, "CPU");
  EXPECT_EQ(B.Indices, "[500, 900)/4");
  EXPECT_EQ(B.Launches, "4");
  EXPECT_EQ(B.BytesIn, "3200");
  EXPECT_EQ(B.BytesOut, "1600");
  EXPECT_EQ(B.Ms, "4.000");

  // The host is named, not numbered.
  EXPECT_EQ(C.Device, "host");
  EXPECT_EQ(C.Type, "HOST");
  EXPECT_EQ(C.Indices, "[900, 1000) x [0, 3)");
  EXPECT_EQ(C.Launches, "2");
  EXPECT_EQ(C.BytesIn, "0");
  EXPECT_EQ(C.BytesOut, "0");
  EXPECT_EQ(C.Ms, "3.000");
}

// Numbers are right-aligned under their titles; the first columns start
// under theirs.
TEST(Info, ColumnsLineUpWithTheirTitles) {
  std::string R =
      formatReport("t", 1, false,
                   {device(0, false, "NVGPU", "[0, 5)", 1, 40, 20, 0.25),
                    device(12, false, "AMDGPU", "[5, 1000000)/12", 123456,
                           17179869184LL, 8589934592LL, 123.5)});
  std::vector<std::string> L = lines(R);
  ASSERT_EQ(L.size(), 4u) << R;
  const std::string &Head = L[1];
  for (size_t I = 2; I < 4; ++I) {
    Row D = parseRow(L[I]);
    EXPECT_EQ(D.DeviceAt, startOf(Head, "device")) << L[I];
    EXPECT_EQ(D.TypeAt, startOf(Head, "type")) << L[I];
    EXPECT_EQ(D.IndicesAt, startOf(Head, "indices")) << L[I];
    EXPECT_EQ(D.LaunchesEnd, endOf(Head, "launches")) << L[I];
    EXPECT_EQ(D.BytesInEnd, endOf(Head, "bytes in")) << L[I];
    EXPECT_EQ(D.BytesOutEnd, endOf(Head, "bytes out")) << L[I];
    EXPECT_EQ(D.MsEnd, endOf(Head, "time ms")) << L[I];
  }
}

TEST(Info, WithoutLoadTheTitleHasNoImbalance) {
  std::string R =
      formatReport("target data a.c:3:1", 0.000125, false,
                   {device(1, false, "CPU", "", 0, 800, 0, 0.0001)});
  std::vector<std::string> L = lines(R);
  ASSERT_EQ(L.size(), 3u) << R;
  EXPECT_EQ(L[0], "homp: target data a.c:3:1 in 0.125 ms");
  // A device that ran no kernel shows '-' for its indices.
  Row D = parseRow(L[2]);
  EXPECT_EQ(D.Indices, "-");
  EXPECT_EQ(D.Launches, "0");
  EXPECT_EQ(D.BytesIn, "800");
  EXPECT_EQ(D.Ms, "0.100");
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
      Devices.push_back(device(static_cast<int>(I), false, "CPU", "[0, 1)", 1,
                               8, 8, C.Seconds[I]));
    std::string R = formatReport("f.c:1:1", 1.0, true, Devices);
    EXPECT_NEAR(imbalance(R), C.Expected, 0.006) << R;
  }
  // No time measured at all, or no devices: balanced.
  std::string R = formatReport("f.c:1:1", 0, true,
                               {device(0, false, "CPU", "", 0, 0, 0, 0),
                                device(1, false, "CPU", "", 0, 0, 0, 0)});
  EXPECT_NEAR(imbalance(R), 1.0, 1e-9) << R;
  R = formatReport("f.c:1:1", 0, true, {});
  EXPECT_NEAR(imbalance(R), 1.0, 1e-9) << R;
  EXPECT_EQ(lines(R).size(), 2u) << "the title and the column titles";
}

// A device that took no chunk of a scheduled loop, or was cut off after its
// sample, is left out of the imbalance; the title says how many took none
// (without them, 4 devices of which 2 ran would read 3.00 here, not 1.50).
TEST(Info, ImbalanceOfTheDevicesThatSharedTheWork) {
  auto Idle = [](int Id, double Seconds) {
    DeviceReport D = device(Id, false, "CPU", "-", 0, 0, 0, Seconds);
    D.Share = DeviceReport::NoChunk;
    return D;
  };
  std::string R = formatReport(
      "f.c:1:1", 0.003, true,
      {device(0, false, "CPU", "[0, 500)", 1, 8, 8, 0.001), Idle(1, 0.00001),
       device(2, false, "CPU", "[500, 1000)", 1, 8, 8, 0.003),
       Idle(3, 0.00001)});
  EXPECT_EQ(lines(R)[0],
            "homp: f.c:1:1 in 3.000 ms, imbalance 1.50 (2 devices took no "
            "chunk)");
  EXPECT_EQ(parseRow(lines(R)[3]).Indices, "-");

  R = formatReport(
      "f.c:1:1", 0.003, true,
      {device(0, false, "CPU", "[0, 1000)", 1, 8, 8, 0.003), Idle(1, 0)});
  EXPECT_EQ(lines(R)[0],
            "homp: f.c:1:1 in 3.000 ms, imbalance 1.00 (1 device took no "
            "chunk)");

  // Device 1 ran its sample only: the others' split is balanced.
  DeviceReport Cut = device(1, false, "CPU", "[100, 200)", 1, 8, 8, 0.009);
  Cut.Share = DeviceReport::LeftOut;
  R = formatReport("f.c:1:1", 0.02, true,
                   {device(0, false, "CPU", "[0, 100)/2", 2, 8, 8, 0.02), Cut,
                    device(2, false, "CPU", "[200, 900)", 2, 8, 8, 0.02)});
  EXPECT_EQ(lines(R)[0], "homp: f.c:1:1 in 20.000 ms, imbalance 1.00");
  EXPECT_EQ(parseRow(lines(R)[3]).Indices, "[100, 200)");

  // Only idle devices: nothing to compare.
  R = formatReport("f.c:1:1", 0.001, true, {Idle(0, 0.001), Idle(1, 0)});
  EXPECT_EQ(lines(R)[0],
            "homp: f.c:1:1 in 1.000 ms, imbalance 1.00 (2 devices took no "
            "chunk)");
}

// A device that failed keeps its own row: what it ran before it failed, if
// anything, its launches, bytes and time. The host's rerun of failed parts
// is the host's row, after its own part; its time for them is left out of
// the imbalance (it ran them after the others). A device that failed
// before it ran anything is left out, and is not one that took no chunk.
TEST(Info, FailedDevicesAndTheHostsRerun) {
  DeviceReport Nothing = device(1, false, "CPU", "-", 1, 800, 0, 0.0005);
  Nothing.Failed = true;
  Nothing.Share = DeviceReport::LeftOut;
  DeviceReport Some = device(2, false, "CPU", "[200, 300)", 3, 800, 800, 0.002);
  Some.Failed = true;
  DeviceReport Host =
      device(4, true, "HOST", "[100, 200) + [300, 400)", 2, 0, 0, 0.005);
  Host.RerunSeconds = 0.004;
  std::string R =
      formatReport("f.c:1:1", 0.004, true,
                   {device(0, false, "CPU", "[0, 100)", 1, 800, 800, 0.002),
                    Nothing, Some, Host});
  std::vector<std::string> L = lines(R);
  ASSERT_EQ(L.size(), 6u) << R;
  EXPECT_EQ(L[0], "homp: f.c:1:1 in 4.000 ms, imbalance 1.20");
  Row A = parseRow(L[3]);
  EXPECT_EQ(A.Device, "1");
  EXPECT_EQ(A.Indices, "failed");
  EXPECT_EQ(A.Launches, "1");
  EXPECT_EQ(A.BytesIn, "800");
  EXPECT_EQ(A.Ms, "0.500");
  Row B = parseRow(L[4]);
  EXPECT_EQ(B.Indices, "[200, 300), then failed");
  EXPECT_EQ(B.Launches, "3");
  Row H = parseRow(L[5]);
  EXPECT_EQ(H.Device, "host");
  EXPECT_EQ(H.Indices, "[100, 200) + [300, 400)");
  EXPECT_EQ(H.Launches, "2");
  EXPECT_EQ(H.Ms, "5.000");

  // The host only ran device 1's part again: only device 0 is compared.
  Host = device(4, true, "HOST", "[100, 200)", 1, 0, 0, 0.004);
  Host.Share = DeviceReport::LeftOut;
  Host.RerunSeconds = 0.004;
  R = formatReport(
      "f.c:1:1", 0.006, true,
      {device(0, false, "CPU", "[0, 100)", 1, 800, 800, 0.002), Nothing, Host});
  EXPECT_EQ(lines(R)[0], "homp: f.c:1:1 in 6.000 ms, imbalance 1.00");
}

TEST(Info, LargeByteCounts) {
  std::string R = formatReport(
      "f.c:2:3", 0.001, false,
      {device(0, false, "CPU", "[0, 1)", 1, 17179869184LL, 8589934592LL, 0.5)});
  Row D = parseRow(lines(R)[2]);
  EXPECT_EQ(D.BytesIn, "17179869184");
  EXPECT_EQ(D.BytesOut, "8589934592");
  EXPECT_EQ(D.Ms, "500.000");
}
