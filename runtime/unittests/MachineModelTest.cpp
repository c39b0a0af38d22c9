//===-- MachineModelTest.cpp - Machine files ------------------------------===//
//
// parseMachineFile on files written the way HOMP's own are (CRLF, mixed
// case keys, trailing comments, old type names), its errors with file and
// line, assignDevices' matching of sections to a node's devices, and the
// writer read back.
//
//===----------------------------------------------------------------------===//

#include "homp/MachineModel.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

using namespace homp;

namespace {

std::vector<DeviceGroup> parse(const std::string &Text) {
  std::vector<DeviceGroup> Groups;
  std::string Error;
  EXPECT_TRUE(parseMachineFile(Text, "m.ini", Groups, Error)) << Error;
  return Groups;
}

/// The error parseMachineFile gives for Text ("" if it parses).
std::string parseError(const std::string &Text) {
  std::vector<DeviceGroup> Groups;
  std::string Error;
  return parseMachineFile(Text, "m.ini", Groups, Error) ? "" : Error;
}

MachineModel assign(const std::string &Text,
                    const std::vector<std::string> &Types) {
  MachineModel M;
  std::string Error;
  EXPECT_TRUE(assignDevices(parse(Text), Types, M, Error)) << Error;
  return M;
}

const std::vector<std::string> Node = {"CPU", "CPU", "CPU", "CPU", "HOST"};

} // namespace

TEST(MachineFile, HompSyntax) {
  // As HOMP's files are written: CRLF, spaces before the line end, keys in
  // any case, '#' and ';' comments after values, its old 'id' key.
  std::vector<DeviceGroup> G = parse("; a node\r\n"
                                     "[HostCPU]\r\n"
                                     "sysid = 0\r\n"
                                     "num = 1 \r\n"
                                     "ncores = 32 \r\n"
                                     "type = cpu\r\n"
                                     "FLOPss = 145 # GFLOPS single\r\n"
                                     "Bandwidth = 6000000 # MB/s\r\n"
                                     "Latency = 0 #us\r\n"
                                     "\r\n"
                                     "[gpu2]\r\n"
                                     "id = 3\r\n"
                                     "num = 2;\r\n"
                                     "type = gpu\r\n"
                                     "flopss = 12.62\r\n"
                                     "bandwidth = \"6100\"\r\n"
                                     "latency = 1.5e1\r\n"
                                     "Memory = discrete\r\n");
  ASSERT_EQ(G.size(), 2u);
  EXPECT_EQ(G[0].Name, "hostcpu");
  EXPECT_EQ(G[0].Type, "cpu");
  EXPECT_TRUE(G[0].Host);
  EXPECT_EQ(G[0].Num, 1);
  EXPECT_EQ(G[0].SysId, 0);
  EXPECT_EQ(G[0].Cores, 32u);
  EXPECT_EQ(G[0].Gflops, 145);
  EXPECT_EQ(G[0].BandwidthMBs, 6000000);
  EXPECT_EQ(G[0].LatencyUs, 0);
  EXPECT_EQ(G[0].Line, 2);
  EXPECT_EQ(G[1].Type, "nvgpu") << "HOMP's 2015 name of NVIDIA GPUs";
  EXPECT_FALSE(G[1].Host);
  EXPECT_EQ(G[1].Num, 2);
  EXPECT_EQ(G[1].SysId, -1);
  EXPECT_EQ(G[1].Cores, 0u);
  EXPECT_EQ(G[1].Gflops, 12.62);
  EXPECT_EQ(G[1].BandwidthMBs, 6100);
  EXPECT_EQ(G[1].LatencyUs, 15);
  EXPECT_EQ(G[1].Memory, DeviceGroup::MemoryDiscrete);
  EXPECT_TRUE(G[1].IgnoredKeys.empty()) << "'id' is HOMP's, not unknown";
  EXPECT_EQ(G[1].Line, 11);
}

TEST(MachineFile, TypesAndHostMarks) {
  std::vector<DeviceGroup> G = parse("[a]\ntype = HOSTCPU\n"
                                     "[host1]\ntype = cpu\nnum = 2\n"
                                     "[host2]\ntype = thsim\n"
                                     "[d]\ntype = nvgpuacc\n"
                                     "[e]\ntype = amdgpu\n"
                                     "[f]\ntype = itlmic\n"
                                     "[g]\ntype = itlgpu\n");
  ASSERT_EQ(G.size(), 7u);
  std::vector<std::string> Types;
  std::vector<bool> Hosts;
  for (const DeviceGroup &X : G) {
    Types.push_back(X.Type);
    Hosts.push_back(X.Host);
  }
  EXPECT_EQ(Types, (std::vector<std::string>{"cpu", "cpu", "thsim", "nvgpu",
                                             "amdgpu", "itlmic", "itlgpu"}));
  // Only cpu groups can be the host.
  EXPECT_EQ(Hosts,
            (std::vector<bool>{true, true, false, false, false, false, false}));
}

TEST(MachineFile, UnknownKeysAreIgnoredAndKept) {
  std::vector<DeviceGroup> G =
      parse("[cpu]\ntype = cpu\nbandwith = 5\nclock = 3\n");
  EXPECT_EQ(G[0].IgnoredKeys, (std::vector<std::string>{"'bandwith' (line 3)",
                                                        "'clock' (line 4)"}));
  EXPECT_EQ(G[0].BandwidthMBs, 0) << "a misspelt key sets nothing";
}

TEST(MachineFile, Errors) {
  EXPECT_EQ(parseError("[cpu]\ntype = cpu\nnum = two\n"),
            "m.ini:3: 'num = two': expected a whole number");
  EXPECT_EQ(parseError("[cpu]\ntype = cpu\nnum = 1.5\n"),
            "m.ini:3: 'num = 1.5': expected a whole number");
  EXPECT_EQ(parseError("[cpu]\ntype = cpu\nnum = 0\n"),
            "m.ini:3: 'num = 0': a group has at least one device");
  EXPECT_EQ(parseError("[cpu]\ntype = cpu\nnum = -2\n"),
            "m.ini:3: 'num = -2': must not be negative");
  EXPECT_EQ(parseError("[cpu]\ntype = cpu\nflopss = 1e3x # GF\n"),
            "m.ini:3: 'flopss = 1e3x': expected a number");
  EXPECT_EQ(parseError("[cpu]\ntype = cpu\nbandwidth = -1\n"),
            "m.ini:3: 'bandwidth = -1': must not be negative");
  EXPECT_EQ(parseError("[cpu]\ntype = cpu\nlatency =\n"),
            "m.ini:3: 'latency = ': expected a number");
  EXPECT_EQ(parseError("[cpu]\ntype = cpu\nlatency = inf\n"),
            "m.ini:3: 'latency = inf': expected a number");
  EXPECT_EQ(parseError("[x]\ntype = fpga\n"),
            "m.ini:2: 'type = fpga': expected cpu, hostcpu, nvgpu, amdgpu, "
            "thsim, itlmic or itlgpu");
  EXPECT_EQ(parseError("[x]\ntype = cpu\nmemory = unified\n"),
            "m.ini:3: 'memory = unified': expected shared, discrete or "
            "default");
  EXPECT_EQ(parseError("# c\n\n[cpu]\nnum = 2\n[gpu]\ntype = nvgpu\n"),
            "m.ini:3: section [cpu] has no 'type'");
  EXPECT_EQ(parseError("[gpu]\ntype = nvgpu\n[cpu]\nnum = 2\n"),
            "m.ini:3: section [cpu] has no 'type'");
  EXPECT_EQ(parseError("type = cpu\n[cpu]\n"),
            "m.ini:1: 'type' comes before the first [section]");
  EXPECT_EQ(parseError("[cpu]\ntype = cpu\nflopss 2\n"),
            "m.ini:3: expected '[section]', 'key = value' or a comment");
  EXPECT_EQ(parseError("[cpu]\ntype = cpu\n= 2\n"),
            "m.ini:3: expected a key before '='");
  EXPECT_EQ(parseError("[ ]\n"), "m.ini:1: a section needs a name");
  EXPECT_EQ(parseError("[cpu]\ntype = cpu\n[CPU]\ntype = cpu\n"),
            "m.ini:3: section [cpu] was already given on line 1");
  EXPECT_EQ(parseError("[cpu]\ntype = cpu\nFlopss = 1\nflopss = 2\n"),
            "m.ini:4: 'flopss' was already given on line 3 in section [cpu]");
  EXPECT_EQ(parseError("# nothing\n"),
            "m.ini: describes no devices (no [section])");
}

TEST(MachineModel, HostAndOffloadDevicesInFileOrder) {
  MachineModel M = assign("[cpus]\ntype = cpu\nnum = 3\nflopss = 10\n"
                          "bandwidth = 5000\nlatency = 2\n"
                          "[hostcpu]\ntype = cpu\nflopss = 40\n"
                          "[sim]\ntype = thsim\nflopss = 7\n",
                          Node);
  ASSERT_EQ(M.Devices.size(), 5u);
  // The marked section describes the host although it comes second.
  EXPECT_EQ(M.Devices[4].Type, "HOST");
  EXPECT_EQ(M.Devices[4].Group, "hostcpu");
  EXPECT_EQ(M.Devices[4].Gflops, 40);
  EXPECT_TRUE(M.Devices[4].NoCopies);
  for (int D = 0; D < 3; ++D) {
    EXPECT_EQ(M.Devices[D].Type, "CPU");
    EXPECT_EQ(M.Devices[D].Group, "cpus");
    EXPECT_EQ(M.Devices[D].Gflops, 10);
    EXPECT_EQ(M.Devices[D].BandwidthMBs, 5000);
    EXPECT_EQ(M.Devices[D].LatencyUs, 2);
    EXPECT_FALSE(M.Devices[D].NoCopies) << "offload devices copy by default";
  }
  EXPECT_EQ(M.Devices[3].Group, "sim") << "thsim devices are host threads";
  EXPECT_EQ(M.Devices[3].Gflops, 7);
  EXPECT_TRUE(M.Notes.empty());
}

TEST(MachineModel, HostIsTheCpuGroupOfOneWithoutMark) {
  MachineModel M = assign("[big]\ntype = cpu\nnum = 4\nflopss = 1\n"
                          "[one]\ntype = cpu\nflopss = 9\n",
                          Node);
  EXPECT_EQ(M.Devices[4].Group, "one");
  EXPECT_EQ(M.Devices[4].Gflops, 9);
  for (int D = 0; D < 4; ++D)
    EXPECT_EQ(M.Devices[D].Group, "big");
  EXPECT_TRUE(M.Notes.empty());
}

TEST(MachineModel, LeftOverDevicesAndGroups) {
  MachineModel M = assign("[hostcpu]\ntype = cpu\nflopss = 2\n"
                          "[cpu]\ntype = cpu\nnum = 2\nflopss = 3\n"
                          "[gpu]\ntype = nvgpu\nnum = 2\nflopss = 900\n"
                          "[mic]\ntype = itlmic\nspeed = 3\n",
                          {"NVGPU", "CPU", "CPU", "CPU", "AMDGPU", "HOST"});
  EXPECT_EQ(M.Devices[0].Group, "gpu");
  EXPECT_EQ(M.Devices[0].Gflops, 900);
  EXPECT_EQ(M.Devices[1].Group, "cpu");
  EXPECT_EQ(M.Devices[2].Group, "cpu");
  // One CPU device more than described: the last cpu section's numbers.
  EXPECT_EQ(M.Devices[3].Group, "cpu");
  EXPECT_EQ(M.Devices[3].Gflops, 3);
  // No amdgpu section: unknown.
  EXPECT_EQ(M.Devices[4].Group, "");
  EXPECT_EQ(M.Devices[4].Gflops, 0);
  EXPECT_FALSE(M.Devices[4].NoCopies);
  EXPECT_EQ(M.Devices[5].Group, "hostcpu");
  EXPECT_EQ(M.Notes,
            (std::vector<std::string>{
                "device 3 (CPU): more devices of its kind than the file "
                "describes; uses the numbers of [cpu]",
                "device 4 (AMDGPU): no section describes its kind; its "
                "numbers are unknown",
                "[gpu] (line 8): 1 of its 2 nvgpu devices match no device "
                "here",
                "[mic] (line 12): 1 of its 1 itlmic devices match no device "
                "here",
                "[mic]: key 'speed' (line 14) is not read"}));
}

TEST(MachineModel, HostWithoutSection) {
  MachineModel M =
      assign("[gpu0]\nsysid = 0\ntype = gpu\nflopss = 12\n", {"NVGPU", "HOST"});
  EXPECT_EQ(M.Devices[0].Gflops, 12);
  EXPECT_EQ(M.Devices[1].Group, "");
  EXPECT_EQ(M.Devices[1].Gflops, 0);
  EXPECT_TRUE(M.Devices[1].NoCopies) << "the host never copies";
  EXPECT_EQ(M.Notes, (std::vector<std::string>{
                         "the host: no [hostcpu] section or cpu section of "
                         "num = 1; its compute rate is unknown"}));
}

TEST(MachineModel, MemoryKey) {
  MachineModel M = assign("[hostcpu]\ntype = cpu\nmemory = discrete\n"
                          "[cpu]\ntype = cpu\nnum = 4\nmemory = shared\n",
                          Node);
  EXPECT_FALSE(M.Devices[4].NoCopies);
  for (int D = 0; D < 4; ++D)
    EXPECT_TRUE(M.Devices[D].NoCopies);
}

TEST(MachineModel, Errors) {
  std::vector<DeviceGroup> G = parse("[mic]\ntype = itlmic\nnum = 2\n");
  MachineModel M;
  std::string Error;
  EXPECT_FALSE(assignDevices(G, Node, M, Error));
  EXPECT_EQ(Error,
            "describes none of this node's devices (CPU, CPU, CPU, CPU, HOST)");
  G = parse("[cpu]\ntype = cpu\n");
  EXPECT_FALSE(assignDevices(G, {"CPU", "TPU"}, M, Error));
  EXPECT_EQ(Error, "unknown device type 'TPU'");
}

TEST(MachineModel, WriteAndReadBack) {
  MachineModel M;
  M.Devices = {{"NVGPU", 4300.5, 7600, 9.25, 0, false, "g", 81559.04},
               {"CPU", 0, 5123.456789, 1.5, 0, false, ""},
               {"AMDGPU", 0.1, 0, 0, 104, false, "a"},
               {"HOST", 145, 0, 0, 32, true, "h"}};
  std::string Text = writeMachineFile(M, "calibrated\nby a test");
  EXPECT_EQ(
      Text.rfind("# calibrated\n# by a test\n\n[hostcpu]\ntype = cpu\n", 0), 0u)
      << Text;
  std::vector<DeviceGroup> G = parse(Text);
  ASSERT_EQ(G.size(), 4u);
  EXPECT_EQ(G[1].Name, "nvgpu0");
  EXPECT_EQ(G[1].SysId, 0);
  EXPECT_EQ(G[2].Name, "cpu1");
  MachineModel Back;
  std::string Error;
  ASSERT_TRUE(assignDevices(G, {"NVGPU", "CPU", "AMDGPU", "HOST"}, Back, Error))
      << Error;
  ASSERT_EQ(Back.Devices.size(), M.Devices.size());
  for (size_t I = 0; I < M.Devices.size(); ++I) {
    const DeviceModel &A = M.Devices[I], &B = Back.Devices[I];
    EXPECT_EQ(A.Type, B.Type) << I;
    EXPECT_EQ(A.Gflops, B.Gflops) << I;
    EXPECT_EQ(A.BandwidthMBs, B.BandwidthMBs) << I;
    EXPECT_EQ(A.LatencyUs, B.LatencyUs) << I;
    EXPECT_EQ(A.Cores, B.Cores) << I;
    EXPECT_EQ(A.NoCopies, B.NoCopies) << I;
    EXPECT_EQ(A.MemoryMB, B.MemoryMB) << I;
  }
  EXPECT_TRUE(Back.Notes.empty());
}

TEST(MachineModel, CacheName) {
  EXPECT_EQ(machineCacheName(Node), "machine-4xCPU+host.ini");
  EXPECT_EQ(machineCacheName({"NVGPU", "NVGPU", "CPU", "HOST"}),
            "machine-2xNVGPU+1xCPU+host.ini");
  EXPECT_EQ(machineCacheName({"CPU", "NVGPU", "CPU", "HOST"}),
            "machine-1xCPU+1xNVGPU+1xCPU+host.ini");
  EXPECT_EQ(machineCacheName({"HOST"}), "machine-host.ini");
  // A node's facts add a hash of their own: the same facts the same name,
  // other facts another (FNV-1a of "x", folded to 32 bits).
  std::string A = machineCacheName(Node, "Xeon 6430; cores 64; threads ");
  EXPECT_EQ(A, machineCacheName(Node, "Xeon 6430; cores 64; threads "));
  EXPECT_NE(A, machineCacheName(Node, "Xeon 6430; cores 32; threads "));
  EXPECT_EQ(A.rfind("machine-4xCPU+host-", 0), 0u) << A;
  EXPECT_EQ(A.size(), std::string("machine-4xCPU+host-12345678.ini").size());
  EXPECT_EQ(machineCacheName({"HOST"}, "x"), "machine-host-2961e24b.ini");
}

std::vector<DeviceModel>
rated(std::vector<std::pair<std::string, double>> Rates) {
  std::vector<DeviceModel> Devices;
  for (auto &[Type, Gflops] : Rates) {
    Devices.emplace_back();
    Devices.back().Type = Type;
    Devices.back().Gflops = Gflops;
  }
  return Devices;
}

std::vector<double> ratesOf(const std::vector<DeviceModel> &Devices) {
  std::vector<double> Rates;
  for (const DeviceModel &D : Devices)
    Rates.push_back(D.Gflops);
  return Rates;
}

TEST(MachineModel, DevicesOnTheHostsCoresShareTheBestRate) {
  // CPU devices and the host run on the same cores: all take the highest
  // of their rates, however far apart, an unknown one too (its probe could
  // not run, but the host's timed its cores); a GPU keeps its own, known or
  // not.
  std::vector<DeviceModel> D = rated({{"CPU", 10},
                                      {"NVGPU", 400},
                                      {"CPU", 7},
                                      {"CPU", 0},
                                      {"HOST", 12.5},
                                      {"AMDGPU", 0}});
  oneModelOnTheHostsCores(D);
  EXPECT_EQ(ratesOf(D), (std::vector<double>{12.5, 400, 12.5, 12.5, 12.5, 0}));
  // The CPU devices' copies: the best bandwidth and latency of theirs; a
  // GPU's and an unknown bandwidth stay.
  D = rated({{"CPU", 10}, {"CPU", 10}, {"CPU", 10}, {"NVGPU", 0}});
  D[0].BandwidthMBs = 14000, D[0].LatencyUs = 0.36;
  D[1].BandwidthMBs = 15800, D[1].LatencyUs = 0.31;
  D[3].BandwidthMBs = 25000, D[3].LatencyUs = 8;
  oneModelOnTheHostsCores(D);
  EXPECT_EQ(D[0].BandwidthMBs, 15800);
  EXPECT_EQ(D[1].BandwidthMBs, 15800);
  EXPECT_EQ(D[0].LatencyUs, 0.31);
  EXPECT_EQ(D[1].LatencyUs, 0.31);
  EXPECT_EQ(D[2].BandwidthMBs, 0);
  EXPECT_EQ(D[3].BandwidthMBs, 25000);
  EXPECT_EQ(D[3].LatencyUs, 8);
  // None known: nothing changes.
  D = rated({{"CPU", 0}, {"HOST", 0}});
  oneModelOnTheHostsCores(D);
  EXPECT_EQ(ratesOf(D), (std::vector<double>{0, 0}));
}

TEST(MachineModel, ProbeLaunchesAreSizedToTheTarget) {
  // Launches the model device Start + N * PerElement would time; the sizes
  // asked are kept.
  std::vector<long> Asked;
  auto Device = [&Asked](double Start, double PerElement) {
    return [&Asked, Start, PerElement](long N) {
      Asked.push_back(N);
      return Start + N * PerElement;
    };
  };
  // A CPU core: 4096 elements take 0.35 ms, enough to scale from.
  long N = probeLaunchElements(Device(0, 8.6e-8), 2e-3);
  EXPECT_NEAR(N * 8.6e-8, 2e-3, 1e-6);
  EXPECT_EQ(Asked, std::vector<long>{4096});
  // A GPU: 10 us to start, 1e11 elements a second. 4096 elements take its
  // start-up time; it grows until a launch is work, not start-up.
  Asked.clear();
  N = probeLaunchElements(Device(10e-6, 1e-11), 2e-3);
  EXPECT_NEAR(10e-6 + N * 1e-11, 2e-3, 0.02 * 2e-3) << N;
  EXPECT_EQ(Asked,
            (std::vector<long>{4096, 1 << 16, 1 << 20, 1 << 24, 1 << 28}));
  // Bounds: a device that takes no time gets 2^30; a slow one 4096.
  EXPECT_EQ(probeLaunchElements([](long) { return 0.0; }, 2e-3), 1L << 30);
  EXPECT_EQ(probeLaunchElements([](long) { return 1.0; }, 2e-3), 4096);
}

TEST(MachineModel, MemsizeIsHompsKey) {
  std::vector<DeviceGroup> G =
      parse("[gpu]\ntype = nvgpu\nmemsize = 40960.5 # MB\n");
  ASSERT_EQ(G.size(), 1u);
  EXPECT_EQ(G[0].MemoryMB, 40960.5);
  EXPECT_TRUE(G[0].IgnoredKeys.empty());
  EXPECT_EQ(parseError("[gpu]\ntype = nvgpu\nmemsize = 0\n"),
            "m.ini:3: 'memsize = 0': a device has some memory (MB)");
  EXPECT_EQ(parseError("[gpu]\ntype = nvgpu\nmemsize = -5\n"),
            "m.ini:3: 'memsize = -5': must not be negative");
  EXPECT_EQ(parseError("[gpu]\ntype = nvgpu\nmemsize = lots\n"),
            "m.ini:3: 'memsize = lots': expected a number");
}
