//===-- MachineModel.cpp - What the devices can do ------------------------===//

#include "homp/MachineModel.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <map>
#include <type_traits>

namespace homp {

namespace {

std::string lower(std::string_view S) {
  std::string Out(S);
  std::transform(Out.begin(), Out.end(), Out.begin(),
                 [](unsigned char C) { return std::tolower(C); });
  return Out;
}

std::string_view trim(std::string_view S) {
  while (!S.empty() && std::isspace(static_cast<unsigned char>(S.front())))
    S.remove_prefix(1);
  while (!S.empty() && std::isspace(static_cast<unsigned char>(S.back())))
    S.remove_suffix(1);
  return S;
}

/// A value as iniparser reads it: quoted, or up to a '#' or ';'.
std::string_view valueOf(std::string_view S) {
  S = trim(S);
  if (S.size() >= 2 && (S.front() == '"' || S.front() == '\'')) {
    size_t Close = S.find(S.front(), 1);
    if (Close != std::string_view::npos)
      return S.substr(1, Close - 1);
  }
  return trim(S.substr(0, S.find_first_of("#;")));
}

/// HOMP's type names, old spellings included ("gpu" and "nvgpuacc" are
/// NVIDIA GPUs in its 2015 files), to the canonical ones.
bool canonicalType(const std::string &Spelled, std::string &Type, bool &Host) {
  static const std::map<std::string, std::string> Types = {
      {"cpu", "cpu"},     {"hostcpu", "cpu"},    {"nvgpu", "nvgpu"},
      {"gpu", "nvgpu"},   {"nvgpuacc", "nvgpu"}, {"amdgpu", "amdgpu"},
      {"thsim", "thsim"}, {"itlmic", "itlmic"},  {"itlgpu", "itlgpu"}};
  auto It = Types.find(Spelled);
  if (It == Types.end())
    return false;
  Type = It->second;
  Host = Spelled == "hostcpu";
  return true;
}

/// The kinds of group a device of type DeviceType takes its numbers from.
bool serves(const std::string &GroupType, const std::string &DeviceType) {
  if (DeviceType == "CPU")
    return GroupType == "cpu" || GroupType == "thsim";
  if (DeviceType == "NVGPU")
    return GroupType == "nvgpu";
  if (DeviceType == "AMDGPU")
    return GroupType == "amdgpu";
  return DeviceType == "HOST" && GroupType == "cpu";
}

std::string number(double V) {
  char Buf[64];
  std::to_chars_result R = std::to_chars(Buf, Buf + sizeof(Buf), V);
  return std::string(Buf, R.ptr);
}

class Parser {
public:
  Parser(const std::string &FileName, std::vector<DeviceGroup> &Out,
         std::string &Error)
      : FileName(FileName), Out(Out), Error(Error) {}

  bool line(std::string_view Line, int LineNo);
  bool finish();

private:
  bool fail(int LineNo, const std::string &What) {
    Error = FileName + ":" + std::to_string(LineNo) + ": " + What;
    return false;
  }
  bool key(const std::string &Key, std::string_view Value, int LineNo);
  template <typename T>
  bool number(const std::string &Key, std::string_view Value, int LineNo, T &V);

  const std::string &FileName;
  std::vector<DeviceGroup> &Out;
  std::string &Error;
  std::map<std::string, int> SectionLines;
  std::map<std::string, int> KeyLines; ///< of the current section
  bool TypeGiven = false;
};

/// Reads Value into V: all of it a number (within 2^30 for whole ones, so
/// that it fits an int), not negative.
template <typename T>
bool Parser::number(const std::string &Key, std::string_view Value, int LineNo,
                    T &V) {
  constexpr bool Whole = std::is_integral_v<T>;
  std::from_chars_result R =
      std::from_chars(Value.data(), Value.data() + Value.size(), V);
  bool Valid = !Value.empty() && R.ec == std::errc() &&
               R.ptr == Value.data() + Value.size() &&
               (Whole ? V <= (1 << 30) : std::isfinite(double(V)));
  std::string Item = "'" + Key + " = " + std::string(Value) + "': ";
  if (!Valid)
    return fail(LineNo, Item + (Whole ? "expected a whole number"
                                      : "expected a number"));
  if (V < 0)
    return fail(LineNo, Item + "must not be negative");
  return true;
}

bool Parser::key(const std::string &Key, std::string_view Value, int LineNo) {
  DeviceGroup &G = Out.back();
  long long N = 0;
  if (Key == "type") {
    if (!canonicalType(lower(Value), G.Type, G.Host))
      return fail(LineNo, "'type = " + std::string(Value) +
                              "': expected cpu, hostcpu, nvgpu, amdgpu, "
                              "thsim, itlmic or itlgpu");
    G.Host = G.Host || (G.Type == "cpu" && G.Name.rfind("host", 0) == 0);
    TypeGiven = true;
  } else if (Key == "num") {
    if (!number(Key, Value, LineNo, N))
      return false;
    if (N < 1)
      return fail(LineNo, "'num = " + std::string(Value) +
                              "': a group has at least one device");
    G.Num = static_cast<int>(N);
  } else if (Key == "sysid") {
    if (!number(Key, Value, LineNo, N))
      return false;
    G.SysId = static_cast<int>(N);
  } else if (Key == "ncores") {
    if (!number(Key, Value, LineNo, N))
      return false;
    G.Cores = static_cast<unsigned>(N);
  } else if (Key == "flopss") {
    return number(Key, Value, LineNo, G.Gflops);
  } else if (Key == "bandwidth") {
    return number(Key, Value, LineNo, G.BandwidthMBs);
  } else if (Key == "latency") {
    return number(Key, Value, LineNo, G.LatencyUs);
  } else if (Key == "memsize") {
    if (!number(Key, Value, LineNo, G.MemoryMB))
      return false;
    if (G.MemoryMB == 0)
      return fail(LineNo, "'memsize = " + std::string(Value) +
                              "': a device has some memory (MB)");
  } else if (Key == "memory") {
    std::string M = lower(Value);
    if (M == "shared")
      G.Memory = DeviceGroup::MemoryShared;
    else if (M == "discrete")
      G.Memory = DeviceGroup::MemoryDiscrete;
    else if (M == "default")
      G.Memory = DeviceGroup::MemoryDefault;
    else
      return fail(LineNo, "'memory = " + std::string(Value) +
                              "': expected shared, discrete or default");
  } else if (Key != "id") {
    G.IgnoredKeys.push_back("'" + Key + "' (line " + std::to_string(LineNo) +
                            ")");
  }
  return true;
}

bool Parser::line(std::string_view Line, int LineNo) {
  Line = trim(Line);
  if (Line.empty() || Line.front() == '#' || Line.front() == ';')
    return true;
  if (Line.front() == '[' && Line.back() == ']') {
    if (!finish())
      return false;
    std::string Name = lower(trim(Line.substr(1, Line.size() - 2)));
    if (Name.empty())
      return fail(LineNo, "a section needs a name");
    auto [It, New] = SectionLines.emplace(Name, LineNo);
    if (!New)
      return fail(LineNo, "section [" + Name + "] was already given on line " +
                              std::to_string(It->second));
    DeviceGroup G;
    G.Name = Name;
    G.Line = LineNo;
    Out.push_back(G);
    KeyLines.clear();
    TypeGiven = false;
    return true;
  }
  size_t Equals = Line.find('=');
  if (Equals == std::string_view::npos)
    return fail(LineNo, "expected '[section]', 'key = value' or a comment");
  std::string Key = lower(trim(Line.substr(0, Equals)));
  if (Key.empty())
    return fail(LineNo, "expected a key before '='");
  if (Out.empty())
    return fail(LineNo, "'" + Key + "' comes before the first [section]");
  auto [It, New] = KeyLines.emplace(Key, LineNo);
  if (!New)
    return fail(LineNo, "'" + Key + "' was already given on line " +
                            std::to_string(It->second) + " in section [" +
                            Out.back().Name + "]");
  return key(Key, valueOf(Line.substr(Equals + 1)), LineNo);
}

bool Parser::finish() {
  if (!Out.empty() && !TypeGiven)
    return fail(Out.back().Line,
                "section [" + Out.back().Name + "] has no 'type'");
  return true;
}

} // namespace

bool parseMachineFile(std::string_view Text, const std::string &FileName,
                      std::vector<DeviceGroup> &Out, std::string &Error) {
  Out.clear();
  Parser P(FileName, Out, Error);
  int LineNo = 0;
  while (!Text.empty()) {
    size_t End = std::min(Text.find('\n'), Text.size());
    if (!P.line(Text.substr(0, End), ++LineNo))
      return false;
    Text.remove_prefix(std::min(End + 1, Text.size()));
  }
  if (!P.finish())
    return false;
  if (Out.empty()) {
    Error = FileName + ": describes no devices (no [section])";
    return false;
  }
  return true;
}

bool assignDevices(const std::vector<DeviceGroup> &Groups,
                   const std::vector<std::string> &DeviceTypes,
                   MachineModel &Out, std::string &Error) {
  struct Slot {
    const DeviceGroup *G;
    bool Used = false;
  };
  std::vector<Slot> Slots;
  for (const DeviceGroup &G : Groups)
    for (int I = 0; I < G.Num; ++I)
      Slots.push_back({&G});

  Out.Devices.assign(DeviceTypes.size(), DeviceModel());
  Out.Notes.clear();
  auto Describe = [](DeviceModel &D, const DeviceGroup &G) {
    D.Gflops = G.Gflops;
    D.BandwidthMBs = G.BandwidthMBs;
    D.LatencyUs = G.LatencyUs;
    D.MemoryMB = G.MemoryMB;
    D.Cores = G.Cores;
    D.NoCopies = G.Memory == DeviceGroup::MemoryShared ||
                 (G.Memory == DeviceGroup::MemoryDefault && D.Type == "HOST");
    D.Group = G.Name;
  };
  auto NameOf = [&](size_t I) {
    return DeviceTypes[I] == "HOST"
               ? std::string("the host")
               : "device " + std::to_string(I) + " (" + DeviceTypes[I] + ")";
  };
  for (size_t I = 0; I < DeviceTypes.size(); ++I) {
    Out.Devices[I].Type = DeviceTypes[I];
    Out.Devices[I].NoCopies = DeviceTypes[I] == "HOST";
    if (!serves("cpu", DeviceTypes[I]) && !serves("nvgpu", DeviceTypes[I]) &&
        !serves("amdgpu", DeviceTypes[I])) {
      Error = "unknown device type '" + DeviceTypes[I] + "'";
      return false;
    }
  }

  // The host first, so that a group marked as its own is not taken by a
  // CPU offload device.
  int Matched = 0;
  const Slot *HostSlot = nullptr;
  for (size_t I = 0; I < DeviceTypes.size(); ++I) {
    if (DeviceTypes[I] != "HOST")
      continue;
    auto Pick = [&](auto Pred) {
      for (Slot &S : Slots)
        if (!S.Used && S.G->Type == "cpu" && Pred(*S.G))
          return &S;
      return static_cast<Slot *>(nullptr);
    };
    Slot *S = Pick([](const DeviceGroup &G) { return G.Host; });
    if (!S)
      S = Pick([](const DeviceGroup &G) { return G.Num == 1; });
    if (S) {
      S->Used = true;
      HostSlot = S;
      Describe(Out.Devices[I], *S->G);
      ++Matched;
    } else {
      Out.Notes.push_back("the host: no [hostcpu] section or cpu section of "
                          "num = 1; its compute rate is unknown");
    }
  }
  for (size_t I = 0; I < DeviceTypes.size(); ++I) {
    if (DeviceTypes[I] == "HOST")
      continue;
    Slot *Next = nullptr, *Last = nullptr;
    for (Slot &S : Slots) {
      if (!serves(S.G->Type, DeviceTypes[I]))
        continue;
      if (!S.Used && !Next)
        Next = &S;
      if (&S != HostSlot) // the host's numbers are not a CPU device's
        Last = &S;
    }
    if (Next) {
      Next->Used = true;
      Describe(Out.Devices[I], *Next->G);
      ++Matched;
    } else if (Last) {
      Describe(Out.Devices[I], *Last->G);
      ++Matched;
      Out.Notes.push_back(NameOf(I) +
                          ": more devices of its kind than the "
                          "file describes; uses the numbers of [" +
                          Last->G->Name + "]");
    } else {
      Out.Notes.push_back(NameOf(I) + ": no section describes its kind; its "
                                      "numbers are unknown");
    }
  }
  if (Matched == 0) {
    std::string Kinds;
    for (const std::string &T : DeviceTypes)
      Kinds += (Kinds.empty() ? "" : ", ") + T;
    Error = "describes none of this node's devices (" + Kinds + ")";
    return false;
  }

  for (const DeviceGroup &G : Groups) {
    int Unused = 0;
    for (const Slot &S : Slots)
      Unused += S.G == &G && !S.Used;
    if (Unused)
      Out.Notes.push_back("[" + G.Name + "] (line " + std::to_string(G.Line) +
                          "): " + std::to_string(Unused) + " of its " +
                          std::to_string(G.Num) + " " + G.Type +
                          " devices match no device here");
    for (const std::string &K : G.IgnoredKeys)
      Out.Notes.push_back("[" + G.Name + "]: key " + K + " is not read");
  }
  return true;
}

std::string writeMachineFile(const MachineModel &M, const std::string &Header) {
  std::string Out;
  size_t Start = 0;
  while (Start < Header.size()) {
    size_t End = std::min(Header.find('\n', Start), Header.size());
    Out += "# " + Header.substr(Start, End - Start) + "\n";
    Start = End + 1;
  }
  auto Section = [&](const std::string &Name, const std::string &Type,
                     const DeviceModel &D, int SysId) {
    Out += "\n[" + Name + "]\ntype = " + Type + "\nnum = 1\n";
    if (SysId >= 0)
      Out += "sysid = " + std::to_string(SysId) + "\n";
    if (D.Cores)
      Out += "ncores = " + std::to_string(D.Cores) + "\n";
    Out += "flopss = " + number(D.Gflops) +
           (D.Gflops == 0 ? "  # GFLOP/s; 0: unknown\n" : "  # GFLOP/s\n");
    Out += "bandwidth = " + number(D.BandwidthMBs) + "  # MB/s\n";
    Out += "latency = " + number(D.LatencyUs) + "  # us\n";
    if (D.MemoryMB > 0)
      Out += "memsize = " + number(D.MemoryMB) + "  # MB (homp's key)\n";
    Out +=
        std::string("memory = ") + (D.NoCopies ? "shared" : "discrete") + "\n";
  };
  // The host first, as in HOMP's files.
  for (const DeviceModel &D : M.Devices)
    if (D.Type == "HOST")
      Section("hostcpu", "cpu", D, -1);
  for (size_t I = 0; I < M.Devices.size(); ++I) {
    const DeviceModel &D = M.Devices[I];
    if (D.Type == "HOST")
      continue;
    std::string Type = lower(D.Type);
    Section(Type + std::to_string(I), Type, D, static_cast<int>(I));
  }
  return Out;
}

std::string machineCacheName(const std::vector<std::string> &DeviceTypes,
                             const std::string &Node) {
  std::string Name = "machine-";
  for (size_t I = 0; I < DeviceTypes.size();) {
    size_t J = I;
    while (J < DeviceTypes.size() && DeviceTypes[J] == DeviceTypes[I])
      ++J;
    if (I)
      Name += "+";
    if (DeviceTypes[I] == "HOST")
      Name += J - I == 1 ? "host" : std::to_string(J - I) + "xhost";
    else
      Name += std::to_string(J - I) + "x" + DeviceTypes[I];
    I = J;
  }
  if (!Node.empty())
    Name += "-" + stableHashText(Node);
  return Name + ".ini";
}

std::string stableHashText(const std::string &Text) {
  // FNV-1a, folded to 32 bits.
  uint64_t Hash = 14695981039346656037ull;
  for (unsigned char C : Text)
    Hash = (Hash ^ C) * 1099511628211ull;
  char Hex[16];
  std::snprintf(Hex, sizeof Hex, "%08x",
                static_cast<unsigned>(Hash ^ (Hash >> 32)));
  return Hex;
}

bool onHostsCores(const DeviceModel &D) {
  return D.Type == "CPU" || D.Type == "HOST";
}

void oneModelOnTheHostsCores(std::vector<DeviceModel> &Devices) {
  double Best = 0;
  for (const DeviceModel &D : Devices)
    if (onHostsCores(D))
      Best = std::max(Best, D.Gflops);
  for (DeviceModel &D : Devices)
    if (onHostsCores(D))
      D.Gflops = Best;
  double Bandwidth = 0, Latency = 0;
  for (const DeviceModel &D : Devices)
    if (D.Type == "CPU" && !D.NoCopies && D.BandwidthMBs > 0) {
      Bandwidth = std::max(Bandwidth, D.BandwidthMBs);
      Latency = Latency > 0 ? std::min(Latency, D.LatencyUs) : D.LatencyUs;
    }
  for (DeviceModel &D : Devices)
    if (D.Type == "CPU" && !D.NoCopies && D.BandwidthMBs > 0) {
      D.BandwidthMBs = Bandwidth;
      D.LatencyUs = Latency;
    }
}

long probeLaunchElements(const std::function<double(long)> &Time,
                         double TargetSeconds) {
  constexpr long Fewest = 1 << 12, Most = 1L << 30, Growth = 16;
  long Elements = Fewest;
  double Seconds = Time(Elements);
  while (Seconds < TargetSeconds / 10 && Elements <= Most / Growth) {
    Elements *= Growth;
    Seconds = Time(Elements);
  }
  double Scaled = Elements * (TargetSeconds / std::max(Seconds, 1e-9));
  return std::clamp<long>(std::lround(std::min<double>(Scaled, Most)), Fewest,
                          Most);
}

} // namespace homp
