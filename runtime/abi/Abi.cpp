//===-- Abi.cpp - What the plugin and libhomp agree on --------------------===//
//
// The descriptor text is one record per line: a keyword, then fields
// separated by single spaces. Strings (file names, array names, labels) are
// written '<length>:<bytes>', so they may hold spaces, newlines or any byte
// but NUL (the descriptor is a C string).
//
//   homp 10 KIND                        kernel|data|enter|exit|update|halo
//   loc STR LINE COL
//   device KIND TYPES TYPEDCOUNT        default|all|host|one|from|range
//   topology RANK GIVEN... STR          GIVEN: 1 (a value) or 0 ('*')
//   loop OP FLAGS POLICY                lt|le|gt|ge|ne, 0-3 (1 strided,
//                                       2 implicit)
//   label STR
//   array STR MAP RANK IDS TRANK [GIVEN... STR]
//                                       then RANK 'dim' lines; MAP: a map
//                                       type, then '+always', '+present'
//                                       for its modifiers; IDS: its
//                                       device ids (0: all); TRANK: the
//                                       rank of its own topology (0: none)
//   dim POLICY AXIS LEFT RIGHT LEDGE REDGE
//   access STR RANK WRITTEN STR SUB... [WSUB...]
//                                       the reason for Unknown ones (or
//                                       empty); SUB: '?' | '=' MIN MAX T |
//                                       'L' LOOP MIN MAX T, T 1 for a term
//                                       (values); WSUB: RANK more, when
//                                       WRITTEN (Access::Writes)
//   reduction OP STR
//   dataloop STR N                      then N 'loop' lines
//   if
//   halo DIRECTION                      left|right|left-right|leftright
//   haloitem STR DIMS                   DIMS: bit mask, 0 for all with halos
//   cutoff RATIO                        'auto' or a number in [0, 1)
//   work OPS                            operations outside body loops
//   bodyloop OP PARENT OPS COUNTED      PARENT: an earlier bodyloop or -1
//   usm                                 requires unified_shared_memory
//
// POLICY is 'full', 'block', 'auto SCHED AMOUNT', 'cyclic B' (B: 1 if
// spelled BLOCK(n)), 'align loop NUM DEN' or 'align to STR NUM DEN'.
// SCHED is a scheduler kind (schedKindName); AMOUNT is '-' (not given), a
// number of iterations, or a percentage written 'P%'. Real numbers are
// written with 17 significant digits, so they read back exactly.
//
//===----------------------------------------------------------------------===//

#include "homp/Abi.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>

namespace homp {
namespace abi {

namespace {

template <typename E, size_t N>
const char *nameOf(const std::pair<E, const char *> (&Table)[N], E Value) {
  for (const auto &[V, Name] : Table)
    if (V == Value)
      return Name;
  return "?";
}

template <typename E, size_t N>
bool valueOf(const std::pair<E, const char *> (&Table)[N],
             const std::string &Name, E &Value) {
  for (const auto &[V, N2] : Table)
    if (Name == N2) {
      Value = V;
      return true;
    }
  return false;
}

const std::pair<ConstructKind, const char *> Constructs[] = {
    {ConstructKind::Kernel, "kernel"},
    {ConstructKind::Data, "data"},
    {ConstructKind::EnterData, "enter"},
    {ConstructKind::ExitData, "exit"},
    {ConstructKind::Update, "update"},
    {ConstructKind::HaloUpdate, "halo"}};

const std::pair<HaloDirection, const char *> HaloDirections[] = {
    {HaloDirection::Left, "left"},
    {HaloDirection::Right, "right"},
    {HaloDirection::LeftThenRight, "left-right"},
    {HaloDirection::Both, "leftright"}};

const std::pair<DeviceSpec::KindTy, const char *> DeviceKinds[] = {
    {DeviceSpec::Default, "default"}, {DeviceSpec::All, "all"},
    {DeviceSpec::Host, "host"},       {DeviceSpec::One, "one"},
    {DeviceSpec::From, "from"},       {DeviceSpec::Range, "range"}};

const std::pair<CompareOp, const char *> CompareOps[] = {
    {CompareOp::Less, "lt"},
    {CompareOp::LessEqual, "le"},
    {CompareOp::Greater, "gt"},
    {CompareOp::GreaterEqual, "ge"},
    {CompareOp::NotEqual, "ne"}};

const std::pair<MapType, const char *> MapTypes[] = {
    {MapType::To, "to"},         {MapType::From, "from"},
    {MapType::ToFrom, "tofrom"}, {MapType::Alloc, "alloc"},
    {MapType::Release, "release"}, {MapType::Delete, "delete"}};

const std::pair<ReductionOp, const char *> ReductionOps[] = {
    {ReductionOp::Add, "+"},    {ReductionOp::Sub, "-"},
    {ReductionOp::Mul, "*"},    {ReductionOp::BitAnd, "&"},
    {ReductionOp::BitOr, "|"},  {ReductionOp::BitXor, "^"},
    {ReductionOp::And, "&&"},   {ReductionOp::Or, "||"},
    {ReductionOp::Max, "max"},  {ReductionOp::Min, "min"}};

const std::pair<SchedKind, const char *> SchedKinds[] = {
    {SchedKind::Auto, "auto"},         {SchedKind::Dynamic, "dynamic"},
    {SchedKind::Guided, "guided"},     {SchedKind::Model1, "model1"},
    {SchedKind::Model2, "model2"},     {SchedKind::Profile, "profile"},
    {SchedKind::ModelProfile, "modelprofile"}};

const std::pair<SchedKind, const char *> SchedSpellings[] = {
    {SchedKind::Auto, "AUTO"},
    {SchedKind::Dynamic, "SCHED_DYNAMIC"},
    {SchedKind::Guided, "SCHED_GUIDED"},
    {SchedKind::Model1, "MODEL_1_AUTO"},
    {SchedKind::Model2, "MODEL_2_AUTO"},
    {SchedKind::Profile, "SCHED_PROFILE_AUTO"},
    {SchedKind::ModelProfile, "MODEL_PROFILE_AUTO"}};

std::string realText(double V) {
  char Buf[40];
  std::snprintf(Buf, sizeof Buf, "%.17g", V);
  return Buf;
}

const std::pair<Edge, const char *> Edges[] = {{Edge::None, "none"},
                                               {Edge::Periodic, "periodic"},
                                               {Edge::Reflecting, "reflecting"}};

//===--- Writing ----------------------------------------------------------===//

class Writer {
public:
  Writer &word(const char *W) {
    sep();
    Out += W;
    return *this;
  }
  Writer &word(const std::string &W) { return word(W.c_str()); }
  Writer &num(int64_t V) { return word(std::to_string(V)); }
  Writer &str(const std::string &S) {
    sep();
    Out += std::to_string(S.size());
    Out += ':';
    Out += S;
    return *this;
  }
  Writer &policy(const Policy &P) {
    switch (P.Kind) {
    case Policy::Full:
      return word("full");
    case Policy::Block:
      return word("block");
    case Policy::Auto:
      word("auto").word(nameOf(SchedKinds, P.Sched));
      if (P.Chunk.Iterations > 0)
        return num(P.Chunk.Iterations);
      if (P.Chunk.Percent > 0)
        return word(realText(P.Chunk.Percent) + "%");
      return word("-");
    case Policy::Cyclic:
      return word("cyclic").num(P.SpelledBlock);
    case Policy::Align:
      word("align");
      if (P.ToLoop)
        word("loop");
      else
        word("to").str(P.Target);
      return num(P.RatioNum).num(P.RatioDen);
    }
    return *this;
  }
  void endLine() {
    Out += '\n';
    AtStart = true;
  }
  std::string take() { return std::move(Out); }

private:
  void sep() {
    if (!AtStart)
      Out += ' ';
    AtStart = false;
  }
  std::string Out;
  bool AtStart = true;
};

/// A loop's flags field: 1 strided, 2 implicit, 4 no policy.
constexpr int AllLoopFlags = 7;
int loopFlags(const Loop &L) {
  return (L.Strided ? 1 : 0) | (L.Implicit ? 2 : 0) | (L.NoPolicy ? 4 : 0);
}
void setLoopFlags(Loop &L, int Flags) {
  L.Strided = Flags & 1;
  L.Implicit = Flags & 2;
  L.NoPolicy = Flags & 4;
}

void writeLoop(Writer &W, const Loop &L) {
  W.word("loop").word(compareOpName(L.Op)).num(loopFlags(L)).policy(L.Dist);
  W.endLine();
}

//===--- Reading ----------------------------------------------------------===//

class Reader {
public:
  explicit Reader(const char *Text) : P(Text), End(Text + std::strlen(Text)) {}

  bool atEnd() const { return P == End; }
  /// Whether the current line has no more fields.
  bool atLineEnd() const { return P == End || *P == '\n'; }
  bool endLine() {
    if (P == End)
      return true;
    if (*P != '\n')
      return false;
    ++P;
    ++LineNo;
    First = true;
    return true;
  }
  bool word(std::string &W) {
    if (!field())
      return false;
    const char *B = P;
    while (P != End && *P != ' ' && *P != '\n')
      ++P;
    W.assign(B, P);
    return !W.empty();
  }
  /// A halo width: '*' (Halo::All) or a number of cells.
  bool haloWidth(int64_t &V) {
    std::string W;
    if (!word(W))
      return false;
    if (W == "*") {
      V = Halo::All;
      return true;
    }
    return integer(W, V) && V >= 0 && V <= INT32_MAX;
  }
  bool num(int64_t &V) {
    std::string W;
    return word(W) && integer(W, V);
  }
  template <typename T> bool num(T &V, int64_t Lo, int64_t Hi) {
    int64_t X;
    if (!num(X) || X < Lo || X > Hi)
      return false;
    V = static_cast<T>(X);
    return true;
  }
  bool str(std::string &S) {
    if (!field())
      return false;
    size_t Len = 0;
    const char *B = P;
    while (P != End && *P >= '0' && *P <= '9' && P - B < 10)
      Len = Len * 10 + static_cast<size_t>(*P++ - '0');
    if (P == B || P == End || *P != ':' ||
        static_cast<size_t>(End - P - 1) < Len)
      return false;
    ++P;
    S.assign(P, Len);
    P += Len;
    return true;
  }
  bool policy(Policy &Out) {
    std::string W;
    if (!word(W))
      return false;
    Out = Policy();
    if (W == "full")
      return true;
    if (W == "block") {
      Out.Kind = Policy::Block;
      return true;
    }
    if (W == "auto") {
      Out.Kind = Policy::Auto;
      std::string Amt;
      if (!word(W) || !valueOf(SchedKinds, W, Out.Sched) || !word(Amt))
        return false;
      if (Amt == "-")
        return true;
      if (Amt.back() == '%') {
        Amt.pop_back();
        return parseReal(Amt, Out.Chunk.Percent) && Out.Chunk.Percent > 0 &&
               Out.Chunk.Percent <= 100;
      }
      char *Stop = nullptr;
      errno = 0;
      long long N = std::strtoll(Amt.c_str(), &Stop, 10);
      Out.Chunk.Iterations = N;
      return *Stop == 0 && errno != ERANGE && N > 0;
    }
    if (W == "cyclic") {
      Out.Kind = Policy::Cyclic;
      return num(Out.SpelledBlock, 0, 1);
    }
    if (W != "align")
      return false;
    Out.Kind = Policy::Align;
    if (!word(W))
      return false;
    if (W == "loop")
      Out.ToLoop = true;
    else if (W != "to" || !str(Out.Target))
      return false;
    return num(Out.RatioNum, 1, INT32_MAX) && num(Out.RatioDen, 1, INT32_MAX);
  }
  bool loop(Loop &L) {
    std::string W;
    int Flags = 0;
    bool Ok = word(W) && W == "loop" && word(W) &&
              valueOf(CompareOps, W, L.Op) && num(Flags, 0, AllLoopFlags) &&
              policy(L.Dist) && endLine();
    setLoopFlags(L, Flags);
    return Ok;
  }
  unsigned line() const { return LineNo; }

private:
  /// Moves to the next field of the line: one space after a previous field.
  /// Reads all of W as a decimal integer.
  static bool integer(const std::string &W, int64_t &V) {
    char *Stop = nullptr;
    errno = 0;
    long long X = std::strtoll(W.c_str(), &Stop, 10);
    if (*Stop || errno == ERANGE)
      return false;
    V = X;
    return true;
  }
  bool field() {
    if (P == End || *P == '\n')
      return false;
    if (!First) {
      if (*P != ' ')
        return false;
      ++P;
    }
    First = false;
    return P != End && *P != '\n';
  }

  const char *P, *End;
  bool First = true;
  unsigned LineNo = 1;
};

bool readDevice(Reader &R, Descriptor &D) {
  std::string W;
  DeviceSpec S;
  if (!R.word(W) || !valueOf(DeviceKinds, W, S.Kind) ||
      !R.num(S.Types, 0, TypeAll) || !R.num(S.TypedCount, 0, 1))
    return false;
  D.Devices.push_back(S);
  return true;
}

bool readTopology(Reader &R, Descriptor &D) {
  if (D.Topo.Rank)
    return false; // one topology per construct
  if (!R.num(D.Topo.Rank, 1, MaxTopologyRank))
    return false;
  for (unsigned I = 0; I < D.Topo.Rank; ++I)
    if (!R.num(D.Topo.Given[I], 0, 1))
      return false;
  return R.str(D.Topo.Name);
}

/// 'to', 'tofrom+always', 'to+always+present', ...
bool readMap(const std::string &Word, Array &A) {
  size_t Plus = Word.find('+');
  if (!valueOf(MapTypes, Word.substr(0, Plus), A.Map))
    return false;
  std::string Rest = Plus == std::string::npos ? "" : Word.substr(Plus);
  if (Rest.rfind("+always", 0) == 0) {
    A.Always = true;
    Rest.erase(0, 7);
  }
  if (Rest == "+present") {
    A.Present = true;
    Rest.clear();
  }
  return Rest.empty();
}

std::string mapWord(const Array &A) {
  return std::string(mapTypeName(A.Map)) + (A.Always ? "+always" : "") +
         (A.Present ? "+present" : "");
}

bool readArray(Reader &R, Descriptor &D) {
  Array A;
  std::string Map;
  if (!R.str(A.Name) || !R.word(Map) || !readMap(Map, A) ||
      !R.num(A.Rank, 1, MaxRank) || !R.num(A.DeviceIds, 0, 1024) ||
      !R.num(A.Topo.Rank, 0, MaxTopologyRank))
    return false;
  for (unsigned I = 0; I < A.Topo.Rank; ++I)
    if (!R.num(A.Topo.Given[I], 0, 1))
      return false;
  if ((A.Topo.Rank && !R.str(A.Topo.Name)) || !R.endLine() ||
      (A.Topo.Rank && A.DeviceIds))
    return false;
  for (unsigned I = 0; I < A.Rank; ++I) {
    std::string W, LE, RE;
    if (!R.word(W) || W != "dim" || !R.policy(A.Dims[I]) ||
        !R.num(A.Axis[I], -1, static_cast<int>(MaxTopologyRank) - 1) ||
        !R.haloWidth(A.Halos[I].Left) || !R.haloWidth(A.Halos[I].Right) ||
        !R.word(LE) || !valueOf(Edges, LE, A.Halos[I].LeftEdge) ||
        !R.word(RE) || !valueOf(Edges, RE, A.Halos[I].RightEdge))
      return false;
    if (I + 1 < A.Rank && !R.endLine())
      return false;
  }
  D.Arrays.push_back(std::move(A));
  return true;
}

bool readSubscript(Reader &R, Subscript &S) {
  std::string W;
  if (!R.word(W))
    return false;
  if (W == "?") {
    S.Kind = Subscript::Unknown;
    return true;
  }
  if (W == "=")
    S.Kind = Subscript::Invariant;
  else if (W == "L" && R.num(S.Loop, 0, MaxLoops - 1))
    S.Kind = Subscript::Linear;
  else
    return false;
  return R.num(S.Min) && R.num(S.Max) && S.Min <= S.Max &&
         R.num(S.Term, 0, 1) && (!S.Term || (S.Min == 0 && S.Max == 0));
}

bool readAccess(Reader &R, Descriptor &D) {
  Access A;
  if (!R.str(A.Name) || !R.num(A.Rank, 0, MaxRank) ||
      !R.num(A.Written, 0, 1) || !R.str(A.Why))
    return false;
  for (unsigned I = 0; I < A.Rank; ++I)
    if (!readSubscript(R, A.Subs[I]))
      return false;
  for (unsigned I = 0; I < A.Rank && A.Written; ++I)
    if (!readSubscript(R, A.Writes[I]))
      return false;
  D.Accesses.push_back(std::move(A));
  return true;
}

/// A cutoff as one word: '-' (none), 'auto' or the ratio.
std::string cutoffWord(const Cutoff &C) {
  switch (C.Kind) {
  case Cutoff::None:
    return "-";
  case Cutoff::Auto:
    return "auto";
  case Cutoff::Given:
    break;
  }
  return realText(C.Value);
}
bool cutoffFromWord(const std::string &W, Cutoff &C) {
  C = Cutoff();
  if (W == "-")
    return true;
  if (W == "auto") {
    C.Kind = Cutoff::Auto;
    return true;
  }
  C.Kind = Cutoff::Given;
  return parseReal(W, C.Value) && C.Value >= 0 && C.Value < 1;
}

bool readDataLoop(Reader &R, Descriptor &D) {
  LabelledLoop L;
  unsigned N;
  std::string Cut;
  if (!R.str(L.Label) || !R.num(N, 1, MaxLoops) || !R.word(Cut) ||
      !cutoffFromWord(Cut, L.Cut) || !R.endLine())
    return false;
  for (unsigned I = 0; I < N; ++I) {
    Loop Lp;
    if (!R.loop(Lp))
      return false;
    L.Loops.push_back(Lp);
  }
  D.DataLoops.push_back(std::move(L));
  return true; // the last 'loop' line's end was read
}

} // namespace

bool Array::distributed() const {
  for (unsigned I = 0; I < Rank; ++I)
    if (Dims[I].distributed())
      return true;
  return false;
}

std::string Descriptor::location() const {
  return File + ":" + std::to_string(Line) + ":" + std::to_string(Column);
}

bool Descriptor::operator==(const Descriptor &O) const {
  return Kind == O.Kind && File == O.File && Line == O.Line &&
         Column == O.Column && Devices == O.Devices && Topo == O.Topo &&
         Loops == O.Loops && Label == O.Label && Arrays == O.Arrays &&
         Accesses == O.Accesses && Reductions == O.Reductions &&
         DataLoops == O.DataLoops && Cut == O.Cut &&
         Operations == O.Operations && BodyLoops == O.BodyLoops &&
         SharedMemory == O.SharedMemory && HasIf == O.HasIf &&
         GpuTeams == O.GpuTeams && Direction == O.Direction &&
         HaloItems == O.HaloItems;
}

bool parseReal(const std::string &W, double &V) {
  if (W.empty())
    return false;
  char *Stop = nullptr;
  errno = 0;
  V = std::strtod(W.c_str(), &Stop);
  return *Stop == 0 && errno != ERANGE && std::isfinite(V);
}

int64_t Amount::of(int64_t Total) const {
  if (Iterations > 0)
    return Iterations;
  double N = static_cast<double>(Total) * Percent / 100;
  return std::max<int64_t>(1, static_cast<int64_t>(std::llround(N)));
}

const char *schedKindName(SchedKind K) { return nameOf(SchedKinds, K); }
const char *schedKindSpelling(SchedKind K) { return nameOf(SchedSpellings, K); }
bool schedKindFromSpelling(const std::string &Name, SchedKind &K) {
  return valueOf(SchedSpellings, Name, K);
}

const char *reductionOpName(ReductionOp Op) { return nameOf(ReductionOps, Op); }
const char *mapTypeName(MapType M) { return nameOf(MapTypes, M); }
const char *compareOpName(CompareOp Op) { return nameOf(CompareOps, Op); }
const char *constructName(ConstructKind K) { return nameOf(Constructs, K); }
const char *haloDirectionName(HaloDirection D) {
  return nameOf(HaloDirections, D);
}

std::string encodeDescriptor(const Descriptor &D) {
  Writer W;
  W.word("homp").num(Version).word(constructName(D.Kind));
  W.endLine();
  W.word("loc").str(D.File).num(D.Line).num(D.Column);
  W.endLine();
  for (const DeviceSpec &S : D.Devices) {
    W.word("device").word(nameOf(DeviceKinds, S.Kind)).num(S.Types).num(
        S.TypedCount);
    W.endLine();
  }
  if (D.Topo.Rank) {
    W.word("topology").num(D.Topo.Rank);
    for (unsigned I = 0; I < D.Topo.Rank; ++I)
      W.num(D.Topo.Given[I]);
    W.str(D.Topo.Name);
    W.endLine();
  }
  for (const Loop &L : D.Loops)
    writeLoop(W, L);
  if (!D.Label.empty()) {
    W.word("label").str(D.Label);
    W.endLine();
  }
  for (const Array &A : D.Arrays) {
    W.word("array")
        .str(A.Name)
        .word(mapWord(A))
        .num(A.Rank)
        .num(A.DeviceIds)
        .num(A.Topo.Rank);
    for (unsigned I = 0; I < A.Topo.Rank; ++I)
      W.num(A.Topo.Given[I]);
    if (A.Topo.Rank)
      W.str(A.Topo.Name);
    W.endLine();
    for (unsigned I = 0; I < A.Rank; ++I) {
      const Halo &H = A.Halos[I];
      W.word("dim").policy(A.Dims[I]).num(A.Axis[I]);
      W.word(haloWidthText(H.Left)).word(haloWidthText(H.Right));
      W.word(nameOf(Edges, H.LeftEdge)).word(nameOf(Edges, H.RightEdge));
      W.endLine();
    }
  }
  auto WriteSubscript = [&](const Subscript &S) {
    if (S.Kind == Subscript::Unknown) {
      W.word("?");
      return;
    }
    if (S.Kind == Subscript::Invariant)
      W.word("=");
    else
      W.word("L").num(S.Loop);
    W.num(S.Min).num(S.Max).num(S.Term);
  };
  for (const Access &A : D.Accesses) {
    W.word("access").str(A.Name).num(A.Rank).num(A.Written).str(A.Why);
    for (unsigned I = 0; I < A.Rank; ++I)
      WriteSubscript(A.Subs[I]);
    for (unsigned I = 0; I < A.Rank && A.Written; ++I)
      WriteSubscript(A.Writes[I]);
    W.endLine();
  }
  for (const Reduction &R : D.Reductions) {
    W.word("reduction").word(reductionOpName(R.Op)).str(R.Name);
    W.endLine();
  }
  for (const LabelledLoop &L : D.DataLoops) {
    W.word("dataloop").str(L.Label).num(static_cast<int64_t>(L.Loops.size()));
    W.word(cutoffWord(L.Cut));
    W.endLine();
    for (const Loop &Lp : L.Loops)
      writeLoop(W, Lp);
  }
  if (D.Cut.Kind != Cutoff::None) {
    W.word("cutoff").word(cutoffWord(D.Cut));
    W.endLine();
  }
  if (D.Operations) {
    W.word("work").num(D.Operations);
    W.endLine();
  }
  for (const BodyLoop &L : D.BodyLoops) {
    W.word("bodyloop").word(compareOpName(L.Op)).num(L.Parent);
    W.num(L.Operations).num(L.Counted);
    W.endLine();
  }
  if (D.SharedMemory) {
    W.word("usm");
    W.endLine();
  }
  if (D.HasIf) {
    W.word("if");
    W.endLine();
  }
  if (D.GpuTeams) {
    W.word("gputeams");
    W.endLine();
  }
  if (D.Kind == ConstructKind::HaloUpdate) {
    W.word("halo").word(haloDirectionName(D.Direction));
    W.endLine();
  }
  for (const HaloItem &H : D.HaloItems) {
    W.word("haloitem").str(H.Name).num(H.Dims);
    W.endLine();
  }
  return W.take();
}

bool decodeDescriptor(const char *Text, Descriptor &Out, std::string &Error) {
  Out = Descriptor();
  Reader R(Text ? Text : "");
  std::string Key, Kind;
  int64_t V = 0;
  if (!R.word(Key) || Key != "homp" || !R.num(V) || V != Version) {
    Error = "the program was compiled by another version of homp (its region "
            "descriptors are not version " +
            std::to_string(Version) + "); recompile it with this homp";
    return false;
  }
  if (!R.word(Kind) || !valueOf(Constructs, Kind, Out.Kind) || !R.endLine()) {
    Error = "malformed region descriptor (line 1)";
    return false;
  }
  bool SawLoc = false;
  while (!R.atEnd()) {
    unsigned Line = R.line();
    bool Ok = R.word(Key);
    if (!Ok) {
    } else if (Key == "loc") {
      Ok = !SawLoc && R.str(Out.File) && R.num(Out.Line, 0, INT32_MAX) &&
           R.num(Out.Column, 0, INT32_MAX);
      SawLoc = true;
    } else if (Key == "device") {
      Ok = readDevice(R, Out);
    } else if (Key == "topology") {
      Ok = readTopology(R, Out);
    } else if (Key == "loop") {
      Loop L;
      std::string Op;
      int Flags = 0;
      Ok = R.word(Op) && valueOf(CompareOps, Op, L.Op) &&
           R.num(Flags, 0, AllLoopFlags) && R.policy(L.Dist);
      setLoopFlags(L, Flags);
      Out.Loops.push_back(L);
    } else if (Key == "label") {
      Ok = Out.Label.empty() && R.str(Out.Label) && !Out.Label.empty();
    } else if (Key == "array") {
      Ok = readArray(R, Out);
    } else if (Key == "access") {
      Ok = readAccess(R, Out);
    } else if (Key == "reduction") {
      Reduction Red;
      std::string Op;
      Ok = R.word(Op) && valueOf(ReductionOps, Op, Red.Op) && R.str(Red.Name);
      Out.Reductions.push_back(Red);
    } else if (Key == "dataloop") {
      Ok = readDataLoop(R, Out);
      if (Ok)
        continue; // its last line was read to its end
    } else if (Key == "cutoff") {
      std::string W;
      Ok = Out.Cut.Kind == Cutoff::None && R.word(W) && W != "-" &&
           cutoffFromWord(W, Out.Cut);
    } else if (Key == "work") {
      Ok = Out.Operations == 0 && R.num(Out.Operations, 1, INT64_MAX);
    } else if (Key == "bodyloop") {
      BodyLoop L;
      std::string Op;
      Ok = R.word(Op) && valueOf(CompareOps, Op, L.Op) &&
           R.num(L.Parent, -1,
                 static_cast<int64_t>(Out.BodyLoops.size()) - 1) &&
           R.num(L.Operations, 0, INT64_MAX) && R.num(L.Counted, 0, 1);
      Out.BodyLoops.push_back(L);
    } else if (Key == "usm") {
      Ok = !Out.SharedMemory;
      Out.SharedMemory = true;
    } else if (Key == "if") {
      Out.HasIf = true;
    } else if (Key == "gputeams") {
      Ok = Out.Kind == ConstructKind::Kernel && !Out.GpuTeams;
      Out.GpuTeams = true;
    } else if (Key == "halo") {
      std::string Dir;
      Ok = Out.Kind == ConstructKind::HaloUpdate && R.word(Dir) &&
           valueOf(HaloDirections, Dir, Out.Direction);
    } else if (Key == "haloitem") {
      HaloItem H;
      Ok = R.str(H.Name) && R.num(H.Dims, 0, (1u << MaxRank) - 1);
      Out.HaloItems.push_back(H);
    } else {
      Ok = false;
    }
    if (!Ok || !R.endLine()) {
      Error = "malformed region descriptor (line " + std::to_string(Line) + ")";
      return false;
    }
  }
  if (!SawLoc) {
    Error = "incomplete region descriptor (no location)";
    return false;
  }
  if (Out.Loops.size() > MaxLoops ||
      (Out.Kind == ConstructKind::Kernel && Out.Loops.empty())) {
    Error = "malformed region descriptor (loops)";
    return false;
  }
  return true;
}

} // namespace abi
} // namespace homp
