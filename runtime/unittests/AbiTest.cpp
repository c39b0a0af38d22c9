//===-- AbiTest.cpp - What the plugin and libhomp agree on ----------------===//
//
// Every record and field of a descriptor goes through encodeDescriptor and
// back through decodeDescriptor unchanged. Text that is not a descriptor of
// this version is refused with a message, never with a crash. valueLayout
// lists the marker call's run-time values in the order Abi.h documents.
//
//===----------------------------------------------------------------------===//

#include "homp/Abi.h"

#include <gtest/gtest.h>

#include <climits>
#include <cstdint>
#include <iterator>
#include <set>
#include <string>
#include <vector>

using namespace homp::abi;

namespace {

//===--- Building descriptors ---------------------------------------------===//

/// Strings that file names, array names and labels may be.
const std::vector<std::string> AwkwardStrings = {
    "",
    " ",
    "a b",
    "two\nlines",
    "\n",
    "ends with a space ",
    " starts with a space",
    "12:34",
    "3:abc",
    "0",
    "-1",
    "c:\\dir\\file.c",
    "/home/me/my project/\xc3\xa9t\xc3\xa9.c",
    "\xff\xfe\x01\x7f",
    "tab\there\rcarriage",
    "homp 10 kernel",
    "loc 1:a 1 1\nif",
    std::string(300, 'x')};

/// A descriptor of a data region at a.c:1:1 with nothing else; kernels also
/// get the loop every kernel has.
Descriptor minimal(ConstructKind Kind = ConstructKind::Data) {
  Descriptor D;
  D.Kind = Kind;
  D.File = "a.c";
  D.Line = 1;
  D.Column = 1;
  if (Kind == ConstructKind::Kernel)
    D.Loops.push_back(Loop());
  return D;
}

Policy policy(Policy::KindTy Kind) {
  Policy P;
  P.Kind = Kind;
  return P;
}

Policy cyclic(bool SpelledBlock) {
  Policy P = policy(Policy::Cyclic);
  P.SpelledBlock = SpelledBlock;
  return P;
}

Policy alignToLoop(int64_t Num = 1, int64_t Den = 1) {
  Policy P = policy(Policy::Align);
  P.ToLoop = true;
  P.RatioNum = Num;
  P.RatioDen = Den;
  return P;
}

Policy alignTo(const std::string &Target, int64_t Num = 1, int64_t Den = 1) {
  Policy P = policy(Policy::Align);
  P.Target = Target;
  P.RatioNum = Num;
  P.RatioDen = Den;
  return P;
}

Policy scheduled(SchedKind K, int64_t Iterations = 0, double Percent = 0) {
  Policy P = policy(Policy::Auto);
  P.Sched = K;
  P.Chunk.Iterations = Iterations;
  P.Chunk.Percent = Percent;
  return P;
}

/// One of each policy the descriptor can carry.
std::vector<Policy> everyPolicy() {
  return {policy(Policy::Full),
          policy(Policy::Block),
          policy(Policy::Auto),
          scheduled(SchedKind::Dynamic, 1, 0),
          scheduled(SchedKind::Guided, 0, 20),
          scheduled(SchedKind::Model1),
          scheduled(SchedKind::Model2),
          scheduled(SchedKind::Profile, INT64_MAX, 0),
          scheduled(SchedKind::ModelProfile, 0, 0.1),
          scheduled(SchedKind::Auto, 0, 100),
          scheduled(SchedKind::Dynamic, 0, 1.0 / 3),
          cyclic(false),
          cyclic(true),
          alignToLoop(),
          alignToLoop(3, 2),
          alignTo("x"),
          alignTo("loop1", 2, 5),
          alignTo("a b\nc", INT32_MAX, 1),
          alignTo("", 1, INT32_MAX)};
}

Loop loop(CompareOp Op, Policy Dist = policy(Policy::Block),
          bool Strided = false, bool Implicit = false, bool NoPolicy = false) {
  Loop L;
  L.Op = Op;
  L.Dist = Dist;
  L.Strided = Strided;
  L.Implicit = Implicit;
  L.NoPolicy = NoPolicy;
  return L;
}

DeviceSpec spec(DeviceSpec::KindTy Kind, unsigned Types = 0,
                bool TypedCount = false) {
  DeviceSpec S;
  S.Kind = Kind;
  S.Types = Types;
  S.TypedCount = TypedCount;
  return S;
}

Subscript unknown() { return Subscript(); }

Subscript invariant() {
  Subscript S;
  S.Kind = Subscript::Invariant;
  return S;
}

Subscript linear(unsigned Loop, int64_t Min, int64_t Max) {
  Subscript S;
  S.Kind = Subscript::Linear;
  S.Loop = Loop;
  S.Min = Min;
  S.Max = Max;
  return S;
}

/// A subscript whose bounds are run-time values (Subscript::Term).
Subscript withTerm(Subscript S) {
  S.Min = S.Max = 0;
  S.Term = true;
  return S;
}

const ConstructKind AllConstructs[] = {
    ConstructKind::Kernel, ConstructKind::Data, ConstructKind::EnterData,
    ConstructKind::ExitData, ConstructKind::Update, ConstructKind::HaloUpdate};
const DeviceSpec::KindTy AllDeviceKinds[] = {
    DeviceSpec::Default, DeviceSpec::All,  DeviceSpec::Host,
    DeviceSpec::One,     DeviceSpec::From, DeviceSpec::Range};
const CompareOp AllCompareOps[] = {CompareOp::Less, CompareOp::LessEqual,
                                   CompareOp::Greater, CompareOp::GreaterEqual,
                                   CompareOp::NotEqual};
const MapType AllMapTypes[] = {MapType::To,      MapType::From,
                               MapType::ToFrom,  MapType::Alloc,
                               MapType::Release, MapType::Delete};
const ReductionOp AllReductionOps[] = {ReductionOp::Add,   ReductionOp::Sub,
                                       ReductionOp::Mul,   ReductionOp::BitAnd,
                                       ReductionOp::BitOr, ReductionOp::BitXor,
                                       ReductionOp::And,   ReductionOp::Or,
                                       ReductionOp::Max,   ReductionOp::Min};
const Edge AllEdges[] = {Edge::None, Edge::Periodic, Edge::Reflecting};

/// A kernel that uses every record, with awkward strings and every kind of
/// value in the layout.
Descriptor everything() {
  Descriptor D;
  D.Kind = ConstructKind::Kernel;
  D.File = "/home/me/my project/sten:cil\n2d \xc3\xa9.c";
  D.Line = 123;
  D.Column = 45;
  D.Devices = {spec(DeviceSpec::One, TypeNVGPU),
               spec(DeviceSpec::All),
               spec(DeviceSpec::Range, TypeGPU, true),
               spec(DeviceSpec::From, TypeCPU | TypeHost),
               spec(DeviceSpec::Host),
               spec(DeviceSpec::Default)};
  D.Topo.Rank = 3;
  D.Topo.Given = {true, false, true};
  D.Topo.Name = "top 1";
  D.Loops = {loop(CompareOp::Less, cyclic(true), true),
             loop(CompareOp::GreaterEqual, policy(Policy::Block)),
             loop(CompareOp::NotEqual, alignTo("a", 2, 3))};
  D.Label = "outer loop:1";

  Array A;
  A.Name = "a";
  A.Map = MapType::To;
  A.Rank = 2;
  A.Dims = {cyclic(false), policy(Policy::Block), Policy()};
  A.Axis[0] = 1;
  A.Halos[1] = {2, 3, Edge::Periodic, Edge::Reflecting};
  Array B;
  B.Name = "b[0:n]";
  B.Map = MapType::Alloc;
  B.Rank = 3;
  B.Dims = {policy(Policy::Full), alignToLoop(3, 1), cyclic(true)};
  B.Axis[2] = 0;
  B.Halos[2] = {1, 0, Edge::None, Edge::Periodic};
  B.DeviceIds = 2;
  Array C;
  C.Name = "c";
  C.Map = MapType::Delete;
  C.Rank = 1;
  C.Dims[0] = alignTo("loop1", 1, 2);
  C.Topo.Rank = 2;
  C.Topo.Given = {true, false, false};
  C.Topo.Name = "own grid";
  D.Arrays = {A, B, C};

  Access UseA;
  UseA.Name = "a";
  UseA.Rank = 2;
  UseA.Subs = {linear(0, -1, 1), invariant(), Subscript()};
  UseA.Written = true;
  Access UseP;
  UseP.Name = "p";
  Access UseB;
  UseB.Name = "b[0:n]";
  UseB.Rank = 3;
  UseB.Subs = {unknown(), linear(2, 0, 0), linear(1, -2, 5)};
  D.Accesses = {UseA, UseP, UseB};

  D.Reductions = {{ReductionOp::Max, "m"}, {ReductionOp::Or, "flag"}};
  D.DataLoops = {{"loop1",
                  {loop(CompareOp::Less, policy(Policy::Block)),
                   loop(CompareOp::Greater, cyclic(false), true)}},
                 {"l 2", {loop(CompareOp::LessEqual, policy(Policy::Auto))}}};
  D.Cut.Kind = Cutoff::Given;
  D.Cut.Value = 0.15;
  // for (k ...) { for (l ...) ...; for (m ...) ...; } while (...) for (...)
  D.Operations = 3;
  D.BodyLoops = {{CompareOp::Less, -1, 2, true},
                 {CompareOp::GreaterEqual, 0, 7, false},
                 {CompareOp::NotEqual, 0, 0, true},
                 {CompareOp::LessEqual, -1, 9223372036854775807, true}};
  D.SharedMemory = true;
  D.HasIf = true;
  D.GpuTeams = true;
  D.HaloItems = {{"uold", 0}, {"a b", 5}};
  return D;
}

//===--- Checking ---------------------------------------------------------===//

/// Encodes D and decodes the text; the result must equal D.
testing::AssertionResult roundTrips(const Descriptor &D) {
  std::string Text = encodeDescriptor(D);
  Descriptor Out;
  std::string Error;
  if (!decodeDescriptor(Text.c_str(), Out, Error))
    return testing::AssertionFailure() << "not decoded (" << Error << "):\n"
                                       << Text;
  if (!(Out == D))
    return testing::AssertionFailure() << "decoded differently from:\n"
                                       << Text << "which re-encodes as:\n"
                                       << encodeDescriptor(Out);
  return testing::AssertionSuccess();
}

/// Decodes Text, which must be refused; returns the message.
std::string refusal(const std::string &Text) {
  Descriptor Out;
  std::string Error;
  EXPECT_FALSE(decodeDescriptor(Text.c_str(), Out, Error)) << "accepted:\n"
                                                           << Text;
  EXPECT_FALSE(Error.empty()) << Text;
  return Error;
}

bool decodes(const std::string &Text) {
  Descriptor Out;
  std::string Error;
  return decodeDescriptor(Text.c_str(), Out, Error);
}

/// The first two lines of a data region's descriptor at a.c:1:2.
const std::string Head = "homp 10 data\nloc 3:a.c 1 2\n";

bool contains(const std::string &Text, const std::string &Part) {
  return Text.find(Part) != std::string::npos;
}

} // namespace

//===----------------------------------------------------------------------===//
// The encoding
//===----------------------------------------------------------------------===//

// The text is one record per line; strings are length-prefixed.
TEST(AbiEncoding, IsOneRecordPerLine) {
  Descriptor D = minimal(ConstructKind::Kernel);
  D.File = "my file.c";
  D.Line = 7;
  D.Column = 9;
  D.Devices = {spec(DeviceSpec::Range, TypeNVGPU, true)};
  D.Loops[0] = loop(CompareOp::LessEqual, cyclic(true), true);
  Array A;
  A.Name = "x";
  A.Map = MapType::To;
  A.Dims[0] = alignTo("y z", 2, 1);
  A.Halos[0] = {1, 2, Edge::Periodic, Edge::None};
  D.Arrays = {A};
  EXPECT_EQ(encodeDescriptor(D),
            "homp 10 kernel\n"
            "loc 9:my file.c 7 9\n"
            "device range 1 1\n"
            "loop le 1 cyclic 1\n"
            "array 1:x to 1 0 0\n"
            "dim align to 3:y z 2 1 -1 1 2 periodic none\n");
}

TEST(AbiEncoding, VersionIsTheFirstRecord) {
  std::string Text = encodeDescriptor(minimal());
  EXPECT_EQ(Text.rfind("homp " + std::to_string(Version) + " data\n", 0), 0u)
      << Text;
}

//===----------------------------------------------------------------------===//
// Round trips, one record kind at a time
//===----------------------------------------------------------------------===//

TEST(AbiRoundTrip, EveryConstructKind) {
  for (ConstructKind K : AllConstructs)
    EXPECT_TRUE(roundTrips(minimal(K))) << constructName(K);
}

TEST(AbiRoundTrip, DataConstructsMayHaveLoops) {
  for (ConstructKind K : AllConstructs) {
    Descriptor D = minimal(K);
    D.Loops = {loop(CompareOp::Less), loop(CompareOp::Greater)};
    EXPECT_TRUE(roundTrips(D)) << constructName(K);
  }
}

TEST(AbiRoundTrip, LocationWithAwkwardFileNames) {
  for (const std::string &File : AwkwardStrings) {
    Descriptor D = minimal();
    D.File = File;
    EXPECT_TRUE(roundTrips(D)) << "'" << File << "'";
  }
}

TEST(AbiRoundTrip, LocationLineAndColumnLimits) {
  for (unsigned Line : {0u, 1u, 99999u, unsigned(INT32_MAX)})
    for (unsigned Column : {0u, 1u, 80u, unsigned(INT32_MAX)}) {
      Descriptor D = minimal();
      D.Line = Line;
      D.Column = Column;
      EXPECT_TRUE(roundTrips(D)) << Line << ":" << Column;
    }
}

TEST(AbiRoundTrip, EveryDeviceSpecKindTypeAndCount) {
  for (DeviceSpec::KindTy K : AllDeviceKinds)
    for (unsigned Types = 0; Types <= TypeAll; ++Types)
      for (bool Typed : {false, true}) {
        Descriptor D = minimal();
        D.Devices = {spec(K, Types, Typed)};
        EXPECT_TRUE(roundTrips(D)) << K << " " << Types << " " << Typed;
      }
}

TEST(AbiRoundTrip, DeviceListKeepsItsOrder) {
  Descriptor D = minimal();
  for (DeviceSpec::KindTy K : AllDeviceKinds)
    D.Devices.push_back(spec(K, TypeGPU));
  D.Devices.push_back(spec(DeviceSpec::One));
  D.Devices.push_back(spec(DeviceSpec::Default, TypeAll, true));
  EXPECT_TRUE(roundTrips(D));
}

TEST(AbiRoundTrip, TopologyOfEveryRankAndGivenDimensions) {
  for (unsigned Rank = 1; Rank <= MaxTopologyRank; ++Rank)
    for (unsigned Given = 0; Given < (1u << Rank); ++Given)
      for (const std::string &Name :
           {std::string(), std::string("top1"), std::string("t p\n[2][2]")}) {
        Descriptor D = minimal();
        D.Topo.Rank = Rank;
        for (unsigned I = 0; I < Rank; ++I)
          D.Topo.Given[I] = Given >> I & 1;
        D.Topo.Name = Name;
        EXPECT_TRUE(roundTrips(D)) << Rank << " " << Given << " " << Name;
      }
}

TEST(AbiRoundTrip, LoopsWithEveryOperatorPolicyAndStride) {
  for (CompareOp Op : AllCompareOps)
    for (const Policy &P : everyPolicy())
      for (bool Strided : {false, true})
        for (bool Implicit : {false, true})
          for (bool NoPolicy : {false, true}) {
            Descriptor D = minimal(ConstructKind::Kernel);
            D.Loops = {loop(Op, P, Strided, Implicit, NoPolicy)};
            EXPECT_TRUE(roundTrips(D)) << compareOpName(Op);
            // And as the inner loops of a collapsed nest.
            D.Loops = {loop(CompareOp::Less),
                       loop(Op, P, Strided, Implicit, NoPolicy),
                       loop(Op, P, !Strided, !Implicit, !NoPolicy)};
            EXPECT_TRUE(roundTrips(D)) << compareOpName(Op);
          }
}

TEST(AbiRoundTrip, LabelWithAwkwardNames) {
  for (const std::string &Label : AwkwardStrings) {
    if (Label.empty())
      continue; // no label at all
    Descriptor D = minimal(ConstructKind::Kernel);
    D.Label = Label;
    EXPECT_TRUE(roundTrips(D)) << "'" << Label << "'";
  }
}

TEST(AbiRoundTrip, ArrayWithEveryMapTypeModifiersAndName) {
  for (MapType M : AllMapTypes)
    for (int Modifiers = 0; Modifiers < 4; ++Modifiers)
      for (const std::string &Name : AwkwardStrings) {
        Descriptor D = minimal();
        Array A;
        A.Name = Name;
        A.Map = M;
        A.Always = Modifiers & 1;
        A.Present = Modifiers & 2;
        D.Arrays = {A};
        EXPECT_TRUE(roundTrips(D))
            << mapTypeName(M) << " " << Modifiers << " '" << Name << "'";
      }
}

TEST(AbiDecode, MapModifiers) {
  const std::string Head = "homp 10 data\nloc 3:a.c 1 2\narray 1:x ";
  const std::string Tail = " 1 0 0\ndim full -1 0 0 none none\n";
  std::string Error;
  Descriptor D;
  ASSERT_TRUE(decodeDescriptor((Head + "tofrom+always+present" + Tail).c_str(),
                               D, Error))
      << Error;
  EXPECT_EQ(D.Arrays[0].Map, MapType::ToFrom);
  EXPECT_TRUE(D.Arrays[0].Always);
  EXPECT_TRUE(D.Arrays[0].Present);
  for (const char *Bad : {"to+", "to+always+always", "to+present+always",
                          "to+close", "+always", "always"})
    EXPECT_FALSE(decodeDescriptor((Head + Bad + Tail).c_str(), D, Error))
        << Bad;
}

TEST(AbiRoundTrip, ArrayWithEveryPolicyInEveryDimension) {
  std::vector<Policy> Policies = everyPolicy();
  for (unsigned Rank = 1; Rank <= MaxRank; ++Rank)
    for (unsigned Dim = 0; Dim < Rank; ++Dim)
      for (const Policy &P : Policies) {
        Descriptor D = minimal();
        Array A;
        A.Name = "u";
        A.Rank = Rank;
        for (unsigned I = 0; I < Rank; ++I)
          A.Dims[I] = Policies[(I * 3 + Rank) % Policies.size()];
        A.Dims[Dim] = P;
        D.Arrays = {A};
        EXPECT_TRUE(roundTrips(D)) << "rank " << Rank << " dim " << Dim;
      }
}

TEST(AbiRoundTrip, ArrayWithEveryAxis) {
  for (unsigned Rank = 1; Rank <= MaxRank; ++Rank)
    for (int Axis = -1; Axis < static_cast<int>(MaxTopologyRank); ++Axis)
      for (unsigned Dim = 0; Dim < Rank; ++Dim) {
        Descriptor D = minimal();
        Array A;
        A.Name = "u";
        A.Rank = Rank;
        A.Dims[Dim] = policy(Policy::Block);
        A.Axis[Dim] = Axis;
        D.Arrays = {A};
        EXPECT_TRUE(roundTrips(D)) << Rank << " " << Dim << " " << Axis;
      }
}

TEST(AbiRoundTrip, HalosWithEveryWidthAndEdge) {
  for (int64_t Left :
       {int64_t(0), int64_t(1), int64_t(7), int64_t(INT32_MAX), Halo::All})
    for (int64_t Right :
         {int64_t(0), int64_t(2), int64_t(INT32_MAX), Halo::All})
      for (Edge LeftEdge : AllEdges)
        for (Edge RightEdge : AllEdges)
          for (unsigned Dim = 0; Dim < MaxRank; ++Dim) {
            Descriptor D = minimal();
            Array A;
            A.Name = "h";
            A.Rank = MaxRank;
            A.Dims[Dim] = policy(Policy::Block);
            A.Halos[Dim] = {Left, Right, LeftEdge, RightEdge};
            D.Arrays = {A};
            EXPECT_TRUE(roundTrips(D)) << Left << " " << Right << " " << Dim;
          }
}

TEST(AbiRoundTrip, AccessesWithEverySubscriptKind) {
  Subscript Constant = invariant();
  Constant.Min = -3;
  Constant.Max = 7;
  const Subscript Subs[] = {unknown(),
                            invariant(),
                            Constant,
                            withTerm(invariant()),
                            linear(0, 0, 0),
                            linear(1, -1, 1),
                            linear(2, -5, -3),
                            linear(0, 4, 9),
                            linear(2, INT64_MIN, INT64_MAX),
                            withTerm(linear(1, 0, 0))};
  for (unsigned Rank = 0; Rank <= MaxRank; ++Rank)
    for (const Subscript &S : Subs)
      for (const Subscript &W : Subs)
        for (bool Written : {false, true}) {
          Descriptor D = minimal(ConstructKind::Kernel);
          Access A;
          A.Name = "v w";
          A.Rank = Rank;
          for (unsigned I = 0; I < Rank; ++I)
            A.Subs[I] =
                I + 1 == Rank ? S : linear(I % MaxLoops, -int64_t(I), I);
          A.Written = Written;
          if (Written)
            for (unsigned I = 0; I < Rank; ++I)
              A.Writes[I] = I + 1 == Rank ? W : unknown();
          A.Why = S.Kind == Subscript::Unknown
                      ? "subscript 'idx[i]' is not 'i' plus ..."
                      : "";
          D.Accesses = {A};
          EXPECT_TRUE(roundTrips(D)) << "rank " << Rank;
        }
}

// A subscript's terms are run-time values, after the access's address,
// Subs' then Writes', each its minimum then its maximum.
TEST(AbiValues, SubscriptTermsFollowTheirAccess) {
  Descriptor D = minimal(ConstructKind::Kernel);
  Access A;
  A.Name = "y";
  A.Rank = 2;
  A.Subs = {withTerm(linear(0, 0, 0)), linear(1, 0, 0), unknown()};
  A.Written = true;
  A.Writes = {linear(0, 1, 1), withTerm(linear(1, 0, 0)), unknown()};
  Access B;
  B.Name = "x";
  B.Rank = 1;
  B.Subs[0] = withTerm(invariant());
  D.Accesses = {A, B};
  std::vector<ValueSlot> L = valueLayout(D);
  std::vector<std::tuple<ValueSlot::KindTy, unsigned, unsigned>> Got;
  for (const ValueSlot &S : L)
    Got.emplace_back(S.Kind, S.Item, S.Dim);
  using T = std::tuple<ValueSlot::KindTy, unsigned, unsigned>;
  std::vector<T> Want = {{ValueSlot::AccessAddress, 0, 0},
                         {ValueSlot::SubscriptMin, 0, 0},
                         {ValueSlot::SubscriptMax, 0, 0},
                         {ValueSlot::SubscriptMin, 0, MaxRank + 1},
                         {ValueSlot::SubscriptMax, 0, MaxRank + 1},
                         {ValueSlot::AccessAddress, 1, 0},
                         {ValueSlot::SubscriptMin, 1, 0},
                         {ValueSlot::SubscriptMax, 1, 0}};
  std::vector<T> Tail(Got.end() - std::min(Got.size(), Want.size()), Got.end());
  EXPECT_EQ(Tail, Want);
  EXPECT_TRUE(roundTrips(D));
}

TEST(AbiRoundTrip, AccessWithAwkwardNames) {
  for (const std::string &Name : AwkwardStrings) {
    Descriptor D = minimal(ConstructKind::Kernel);
    Access A;
    A.Name = Name;
    A.Rank = 1;
    A.Subs[0] = linear(0, -1, 1);
    D.Accesses = {A, A};
    EXPECT_TRUE(roundTrips(D)) << "'" << Name << "'";
  }
}

TEST(AbiRoundTrip, ReductionsWithEveryOperator) {
  for (ReductionOp Op : AllReductionOps)
    for (const std::string &Name : AwkwardStrings) {
      Descriptor D = minimal(ConstructKind::Kernel);
      D.Reductions = {{Op, Name}, {ReductionOp::Add, "sum"}};
      EXPECT_TRUE(roundTrips(D)) << reductionOpName(Op) << " '" << Name << "'";
    }
}

TEST(AbiRoundTrip, DataLoopsWithEveryOperatorAndPolicy) {
  for (CompareOp Op : AllCompareOps)
    for (const Policy &P : everyPolicy())
      for (unsigned N = 1; N <= MaxLoops; ++N) {
        Descriptor D = minimal();
        LabelledLoop L;
        L.Label = "loop1";
        for (unsigned I = 0; I < N; ++I)
          L.Loops.push_back(loop(Op, P, I % 2 == 1));
        D.DataLoops = {L, {"second one", {loop(CompareOp::Greater)}}};
        EXPECT_TRUE(roundTrips(D)) << compareOpName(Op) << " " << N;
      }
}

// A labelled loop's own cutoff clause, for the split its data region
// decides.
TEST(AbiRoundTrip, DataLoopsWithTheirCutoffs) {
  for (Cutoff::KindTy K : {Cutoff::None, Cutoff::Given, Cutoff::Auto})
    for (double Ratio : {0.0, 0.15, 0.999}) {
      Descriptor D = minimal();
      LabelledLoop L{"loop1", {loop(CompareOp::Less, policy(Policy::Auto))}};
      L.Cut.Kind = K;
      L.Cut.Value = K == Cutoff::Given ? Ratio : 0;
      D.DataLoops = {L, {"loop2", {loop(CompareOp::Less)}}};
      EXPECT_TRUE(roundTrips(D)) << K << " " << Ratio;
    }
}

TEST(AbiRoundTrip, DataLoopsWithAwkwardLabels) {
  for (const std::string &Label : AwkwardStrings) {
    Descriptor D = minimal();
    D.DataLoops = {{Label, {loop(CompareOp::Less)}}};
    EXPECT_TRUE(roundTrips(D)) << "'" << Label << "'";
  }
}

TEST(AbiRoundTrip, UnifiedSharedMemory) {
  for (ConstructKind K : AllConstructs) {
    Descriptor D = minimal(K);
    D.SharedMemory = true;
    EXPECT_TRUE(roundTrips(D)) << constructName(K);
  }
  refusal("homp 10 data\nloc 3:a.c 1 2\nusm\nusm\n");
  refusal("homp 10 data\nloc 3:a.c 1 2\nusm 1\n");
}

TEST(AbiRoundTrip, IfClause) {
  for (ConstructKind K : AllConstructs) {
    Descriptor D = minimal(K);
    D.HasIf = true;
    EXPECT_TRUE(roundTrips(D)) << constructName(K);
  }
}

TEST(AbiRoundTrip, CutoffOfEveryKind) {
  for (double Ratio : {0.0, 0.15, 1.0 / 7, 0.999999999999})
    for (Cutoff::KindTy K : {Cutoff::None, Cutoff::Given, Cutoff::Auto}) {
      Descriptor D = minimal(ConstructKind::Kernel);
      D.Cut.Kind = K;
      D.Cut.Value = K == Cutoff::Given ? Ratio : 0;
      EXPECT_TRUE(roundTrips(D)) << K << " " << Ratio;
    }
}

TEST(AbiDecode, SchedulesAndCutoffsAreChecked) {
  std::string K = "homp 10 kernel\nloc 3:a.c 1 2\n";
  for (const char *Good :
       {"loop lt 0 auto auto -", "loop lt 0 auto dynamic 5",
        "loop lt 0 auto guided 2.5%", "loop lt 0 auto profile 100%",
        "loop lt 0 block\ncutoff auto", "loop lt 0 block\ncutoff 0.15",
        "loop lt 0 block\ncutoff 0"})
    EXPECT_TRUE(decodes(K + Good + "\n")) << Good;
  for (const char *Bad :
       {"loop lt 0 auto", "loop lt 0 auto fast -", "loop lt 0 auto dynamic",
        "loop lt 0 auto dynamic 0", "loop lt 0 auto dynamic -3",
        "loop lt 0 auto dynamic 0%", "loop lt 0 auto dynamic 101%",
        "loop lt 0 auto dynamic x%", "loop lt 0 auto dynamic 2.5",
        "loop lt 0 auto dynamic nan%", "loop lt 0 auto dynamic 5 5",
        "loop lt 0 block\ncutoff 1", "loop lt 0 block\ncutoff -0.1",
        "loop lt 0 block\ncutoff", "loop lt 0 block\ncutoff inf",
        "loop lt 0 block\ncutoff 0.1\ncutoff 0.2",
        "loop lt 0 block\ncutoff 15%"})
    refusal(K + Bad + "\n");
}

TEST(Abi, AmountsOfALoop) {
  Amount Whole;
  Whole.Percent = 100;
  EXPECT_EQ(Whole.of(1000), 1000);
  Amount Two;
  Two.Percent = 2;
  EXPECT_EQ(Two.of(1000), 20);
  EXPECT_EQ(Two.of(10), 1); // never 0
  Amount Seven;
  Seven.Iterations = 7;
  EXPECT_EQ(Seven.of(3), 7);
}

TEST(Abi, SchedulerSpellingsAreHomps) {
  for (SchedKind K : {SchedKind::Auto, SchedKind::Dynamic, SchedKind::Guided,
                      SchedKind::Model1, SchedKind::Model2, SchedKind::Profile,
                      SchedKind::ModelProfile}) {
    SchedKind Back;
    ASSERT_TRUE(schedKindFromSpelling(schedKindSpelling(K), Back));
    EXPECT_EQ(Back, K);
  }
  SchedKind Out;
  EXPECT_FALSE(schedKindFromSpelling("SCHED_STATIC", Out)); // it is BLOCK
  EXPECT_FALSE(schedKindFromSpelling("sched_dynamic", Out));
  EXPECT_STREQ(schedKindSpelling(SchedKind::Profile), "SCHED_PROFILE_AUTO");
}

TEST(AbiRoundTrip, HaloUpdatesWithEveryDirectionAndDimensions) {
  for (HaloDirection Dir :
       {HaloDirection::Left, HaloDirection::Right,
        HaloDirection::LeftThenRight, HaloDirection::Both}) {
    Descriptor D = minimal(ConstructKind::HaloUpdate);
    D.Direction = Dir;
    for (unsigned Dims = 0; Dims < 8; ++Dims)
      D.HaloItems.push_back({"a" + std::to_string(Dims), Dims});
    D.HaloItems.push_back({"p->q [1]", 1});
    EXPECT_TRUE(roundTrips(D)) << haloDirectionName(Dir);
    Descriptor Other = D;
    Other.Direction = Dir == HaloDirection::Both ? HaloDirection::Left
                                                 : HaloDirection::Both;
    EXPECT_FALSE(Other == D);
    EXPECT_NE(encodeDescriptor(Other), encodeDescriptor(D));
  }
}

TEST(AbiDecode, HaloRecordsAreChecked) {
  Descriptor D = minimal(ConstructKind::HaloUpdate);
  D.HaloItems = {{"a", 1}};
  std::string Text = encodeDescriptor(D);
  ASSERT_TRUE(contains(Text, "halo leftright\n")) << Text;
  auto Replace = [&](const std::string &From, const std::string &To) {
    std::string T = Text;
    T.replace(T.find(From), From.size(), To);
    return T;
  };
  for (const std::string &Bad : {Replace("halo leftright", "halo up"),
                                 Replace("haloitem 1:a 1", "haloitem 1:a 256"),
                                 Replace("haloitem 1:a 1", "haloitem 1:a -1"),
                                 Replace("homp 10 halo", "homp 10 data")})
    EXPECT_TRUE(contains(refusal(Bad), "malformed region descriptor")) << Bad;
}

TEST(AbiRoundTrip, EverythingAtOnce) { EXPECT_TRUE(roundTrips(everything())); }

// The round trips above would pass with an equality that ignores fields;
// this one shows it does not.
TEST(AbiRoundTrip, EqualityNoticesEveryField) {
  const Descriptor E = everything();
  std::vector<void (*)(Descriptor &)> Changes = {
      [](Descriptor &D) { D.Kind = ConstructKind::Data; },
      [](Descriptor &D) { D.File += "x"; },
      [](Descriptor &D) { ++D.Line; },
      [](Descriptor &D) { ++D.Column; },
      [](Descriptor &D) { D.Devices[0].Kind = DeviceSpec::From; },
      [](Descriptor &D) { D.Devices[0].Types = TypeAMDGPU; },
      [](Descriptor &D) { D.Devices[2].TypedCount = false; },
      [](Descriptor &D) { D.Devices.pop_back(); },
      [](Descriptor &D) { D.Topo.Rank = 2; },
      [](Descriptor &D) { D.Topo.Given[1] = true; },
      [](Descriptor &D) { D.Topo.Name = "top 2"; },
      [](Descriptor &D) { D.Loops[1].Op = CompareOp::Greater; },
      [](Descriptor &D) { D.Loops[0].Dist.SpelledBlock = false; },
      [](Descriptor &D) { D.Loops[2].Dist.Target = "b"; },
      [](Descriptor &D) { D.Loops[2].Dist.RatioNum = 3; },
      [](Descriptor &D) { D.Loops[2].Dist.RatioDen = 5; },
      [](Descriptor &D) { D.Loops[2].Dist.ToLoop = true; },
      [](Descriptor &D) { D.Loops[1].Dist.Kind = Policy::Auto; },
      [](Descriptor &D) {
        D.DataLoops[1].Loops[0].Dist.Sched = SchedKind::Guided;
      },
      [](Descriptor &D) { D.DataLoops[1].Loops[0].Dist.Chunk.Iterations = 2; },
      [](Descriptor &D) { D.DataLoops[1].Loops[0].Dist.Chunk.Percent = 2; },
      [](Descriptor &D) { D.Cut.Kind = Cutoff::Auto; },
      [](Descriptor &D) { D.Cut.Value = 0.25; },
      [](Descriptor &D) { D.Loops[0].Strided = false; },
      [](Descriptor &D) { D.Loops[1].Implicit = true; },
      [](Descriptor &D) { D.Loops[1].NoPolicy = true; },
      [](Descriptor &D) { D.DataLoops[0].Loops[1].Strided = false; },
      [](Descriptor &D) { D.Label = "outer"; },
      [](Descriptor &D) { D.Arrays[0].Name = "A"; },
      [](Descriptor &D) { D.Arrays[0].Map = MapType::ToFrom; },
      [](Descriptor &D) { D.Arrays[0].Always = true; },
      [](Descriptor &D) { D.Arrays[0].Present = true; },
      [](Descriptor &D) { D.Arrays[0].Rank = 3; },
      [](Descriptor &D) { D.Arrays[0].Axis[0] = 0; },
      [](Descriptor &D) { D.Arrays[0].Halos[1].Left = 1; },
      [](Descriptor &D) { D.Arrays[0].Halos[1].Right = 1; },
      [](Descriptor &D) { D.Arrays[0].Halos[1].LeftEdge = Edge::None; },
      [](Descriptor &D) { D.Arrays[0].Halos[1].RightEdge = Edge::None; },
      [](Descriptor &D) { D.Arrays[1].Dims[1].RatioNum = 1; },
      [](Descriptor &D) { D.Arrays[1].DeviceIds = 1; },
      [](Descriptor &D) { D.Arrays[2].Topo.Rank = 3; },
      [](Descriptor &D) { D.Arrays[2].Topo.Given[1] = true; },
      [](Descriptor &D) { D.Arrays[2].Topo.Name = "grid"; },
      [](Descriptor &D) { D.Accesses[0].Name = "b"; },
      [](Descriptor &D) { D.Accesses[0].Rank = 1; },
      [](Descriptor &D) { D.Accesses[0].Written = false; },
      [](Descriptor &D) { D.Accesses[0].Subs[0].Kind = Subscript::Unknown; },
      [](Descriptor &D) { D.Accesses[0].Subs[0].Loop = 1; },
      [](Descriptor &D) { D.Accesses[0].Subs[0].Min = -2; },
      [](Descriptor &D) { D.Accesses[0].Subs[0].Max = 2; },
      [](Descriptor &D) {
        D.Accesses[0].Subs[0].Min = D.Accesses[0].Subs[0].Max = 0;
        D.Accesses[0].Subs[0].Term = true;
      },
      [](Descriptor &D) {
        D.Accesses[0].Why = "it is used without a subscript";
      },
      [](Descriptor &D) { D.Accesses[0].Writes[0] = linear(0, 0, 0); },
      [](Descriptor &D) { D.Reductions[0].Op = ReductionOp::Min; },
      [](Descriptor &D) { D.Reductions[1].Name = "flags"; },
      [](Descriptor &D) { D.DataLoops[0].Label = "loop2"; },
      [](Descriptor &D) { D.DataLoops[1].Cut.Kind = Cutoff::Auto; },
      [](Descriptor &D) { D.DataLoops[0].Loops.pop_back(); },
      [](Descriptor &D) { D.DataLoops[1].Loops[0].Op = CompareOp::Less; },
      [](Descriptor &D) { D.HasIf = false; },
      [](Descriptor &D) { D.GpuTeams = false; },
      [](Descriptor &D) { D.Operations = 4; },
      [](Descriptor &D) { D.BodyLoops[1].Op = CompareOp::Greater; },
      [](Descriptor &D) { D.BodyLoops[1].Parent = -1; },
      [](Descriptor &D) { D.BodyLoops[1].Operations = 8; },
      [](Descriptor &D) { D.BodyLoops[1].Counted = true; },
      [](Descriptor &D) { D.BodyLoops.pop_back(); },
      [](Descriptor &D) { D.SharedMemory = false; },
      [](Descriptor &D) { D.HaloItems[0].Name = "u"; },
      [](Descriptor &D) { D.HaloItems[1].Dims = 4; },
      [](Descriptor &D) { D.HaloItems.pop_back(); }};
  for (size_t I = 0; I < Changes.size(); ++I) {
    Descriptor D = E;
    Changes[I](D);
    EXPECT_FALSE(D == E) << "change " << I << " went unnoticed";
    EXPECT_NE(encodeDescriptor(D), encodeDescriptor(E)) << "change " << I;
  }
}

//===----------------------------------------------------------------------===//
// Refusals
//===----------------------------------------------------------------------===//

TEST(AbiDecode, OtherVersionsAreRefusedAsCompiledByAnotherHomp) {
  std::string V = std::to_string(Version);
  std::string Rest = encodeDescriptor(minimal()).substr(6 + V.size());
  for (const std::string &Text :
       {"homp " + std::to_string(Version - 1) + " " + Rest,
        "homp " + std::to_string(Version + 1) + " " + Rest,
        "homp " + V + "0 " + Rest, "homp -" + V + " " + Rest,
        "homp x " + Rest, "HOMP " + V + " " + Rest, "homq " + V + " " + Rest,
        std::string("homp"), std::string("homp "), std::string(""),
        std::string("hello, world"), " homp " + V + " " + Rest}) {
    std::string Error = refusal(Text);
    EXPECT_TRUE(contains(Error, "compiled by another version of homp"))
        << Error;
    EXPECT_TRUE(contains(Error, "recompile")) << Error;
  }
}

TEST(AbiDecode, NullTextIsRefusedAsCompiledByAnotherHomp) {
  Descriptor Out;
  std::string Error;
  EXPECT_FALSE(decodeDescriptor(nullptr, Out, Error));
  EXPECT_TRUE(contains(Error, "another version of homp")) << Error;
}

// Every prefix of a descriptor's text is refused, or is itself a whole
// descriptor (the cut fell after a record, or inside a number); nothing
// reads past the text's end.
TEST(AbiDecode, EveryTruncationIsRefusedOrAValidDescriptor) {
  for (const Descriptor &D : {everything(), minimal(ConstructKind::Kernel)}) {
    std::string Text = encodeDescriptor(D);
    unsigned Accepted = 0;
    for (size_t N = 0; N < Text.size(); ++N) {
      std::string Prefix = Text.substr(0, N);
      Descriptor Out;
      std::string Error;
      if (!decodeDescriptor(Prefix.c_str(), Out, Error)) {
        EXPECT_FALSE(Error.empty()) << N;
        continue;
      }
      ++Accepted;
      EXPECT_TRUE(roundTrips(Out)) << "prefix of " << N << " bytes";
    }
    // Cutting the last record off leaves a valid descriptor.
    EXPECT_GT(Accepted, 0u) << Text;
    EXPECT_TRUE(decodes(Text));
  }
}

// The same for texts with one byte replaced by each of the characters the
// format gives meaning to.
TEST(AbiDecode, CorruptedTextIsRefusedOrAValidDescriptor) {
  std::string Text = encodeDescriptor(everything());
  for (size_t I = 0; I < Text.size(); ++I)
    for (char C : {' ', '\n', ':', '0', '9', '-', 'x', '\xff'}) {
      std::string Bad = Text;
      Bad[I] = C;
      Descriptor Out;
      std::string Error;
      if (decodeDescriptor(Bad.c_str(), Out, Error))
        EXPECT_TRUE(roundTrips(Out)) << "byte " << I << " as '" << C << "'";
      else
        EXPECT_FALSE(Error.empty());
    }
}

TEST(AbiDecode, UnknownRecordsAreRefusedNamingTheLine) {
  EXPECT_EQ(refusal(Head + "frobnicate 1\n"),
            "malformed region descriptor (line 3)");
  EXPECT_EQ(refusal(Head + "if\nLOOP lt block\n"),
            "malformed region descriptor (line 4)");
  EXPECT_EQ(refusal(Head + "dim block -1 0 0 none none\n"),
            "malformed region descriptor (line 3)");
  EXPECT_EQ(refusal("homp 10 kernels\nloc 3:a.c 1 2\n"),
            "malformed region descriptor (line 1)");
  EXPECT_EQ(refusal("homp 10\nloc 3:a.c 1 2\n"),
            "malformed region descriptor (line 1)");
}

TEST(AbiDecode, UnknownNamesInRecordsAreRefused) {
  const char *Good[] = {"device all 0 0",
                        "loop lt 0 block",
                        "array 1:x tofrom 1 0 0\ndim full -1 0 0 none none",
                        "reduction max 1:m",
                        "access 1:x 1 0 0: L 0 0 0 0",
                        "loop ge 0 align to 1:x 1 1"};
  for (const char *G : Good)
    EXPECT_TRUE(decodes(Head + G + "\n")) << G;
  const char *Bad[] = {"device every 0 0",
                       "loop lt2 0 block",
                       "loop lt 0 blocks",
                       "loop lt 0 cyclical 0",
                       "loop lt 0 align toward 1:x 1 1",
                       "array 1:x sideways 1 0 0\ndim full -1 0 0 none none",
                       "array 1:x tofrom 1 0 0\nsize full -1 0 0 none none",
                       "array 1:x tofrom 1 0 0\ndim full -1 0 0 mirror none",
                       "array 1:x tofrom 1 0 0\ndim full -1 0 0 none wrap",
                       "reduction avg 1:m",
                       "access 1:x 1 0 0: X",
                       "access 1:x 1 0 0: L0 0 0 0",
                       "access 1:x 1 0 0: L 0 0 0 2",
                       "access 1:x 1 0 0: L 0 0 1 1",
                       "access 1:x 1 1 0: L 0 0 0 0"};
  for (const char *B : Bad)
    refusal(Head + B + "\n");
}

/// An 'array' record of Rank dimensions, every one FULL.
std::string arrayOfRank(unsigned Rank) {
  std::string S = "array 1:x to " + std::to_string(Rank) + " 0 0";
  for (unsigned D = 0; D < Rank; ++D)
    S += "\ndim full -1 0 0 none none";
  return S;
}

TEST(AbiDecode, OutOfRangeNumbersAreRefused) {
  struct {
    std::string Good, Bad;
  } Cases[] = {
      {"device all 15 0", "device all 16 0"},
      {"device all 0 0", "device all -1 0"},
      {"device all 0 1", "device all 0 2"},
      {"topology 3 1 0 1 0:", "topology 4 1 0 1 1 0:"},
      {"topology 1 1 0:", "topology 0 0:"},
      {"topology 1 0 0:", "topology 1 2 0:"},
      {arrayOfRank(MaxRank), arrayOfRank(MaxRank + 1)},
      {"array 1:x to 1 0 0\ndim full -1 0 0 none none", "array 1:x to 0 0 0"},
      {"array 1:x to 1 1024 0\ndim full -1 0 0 none none",
       "array 1:x to 1 1025 0\ndim full -1 0 0 none none"},
      {"array 1:x to 1 0 0\ndim full -1 0 0 none none",
       "array 1:x to 1 -1 0\ndim full -1 0 0 none none"},
      {"array 1:x to 1 0 3 1 0 1 0:\ndim full -1 0 0 none none",
       "array 1:x to 1 0 4 1 0 1 1 0:\ndim full -1 0 0 none none"},
      {"array 1:x to 1 0 1 0 0:\ndim full -1 0 0 none none",
       "array 1:x to 1 0 1 2 0:\ndim full -1 0 0 none none"},
      {"array 1:x to 1 0 1 0 0:\ndim full -1 0 0 none none",
       "array 1:x to 1 1 1 0 0:\ndim full -1 0 0 none none"},
      {"array 1:x to 1 0 0\ndim block 2 0 0 none none",
       "array 1:x to 1 0 0\ndim block 3 0 0 none none"},
      {"array 1:x to 1 0 0\ndim block -1 0 0 none none",
       "array 1:x to 1 0 0\ndim block -2 0 0 none none"},
      {"array 1:x to 1 0 0\ndim block -1 2147483647 0 none none",
       "array 1:x to 1 0 0\ndim block -1 2147483648 0 none none"},
      {"array 1:x to 1 0 0\ndim block -1 0 0 none none",
       "array 1:x to 1 0 0\ndim block -1 -1 0 none none"},
      {"array 1:x to 1 0 0\ndim block -1 0 2147483647 none none",
       "array 1:x to 1 0 0\ndim block -1 0 -3 none none"},
      {"array 1:x to 1 0 0\ndim cyclic 1 -1 0 0 none none",
       "array 1:x to 1 0 0\ndim cyclic 2 -1 0 0 none none"},
      {"loop lt 7 block", "loop lt 8 block"},
      {"loop lt 0 block", "loop lt -1 block"},
      {"loop lt 0 align loop 1 1", "loop lt 0 align loop 0 1"},
      {"loop lt 0 align loop 1 1", "loop lt 0 align loop 1 0"},
      {"loop lt 0 align loop 2147483647 1",
       "loop lt 0 align loop 2147483648 1"},
      {"loop lt 0 align loop 1 2", "loop lt 0 align loop -1 2"},
      {"access 1:x 8 0 0: ? = 1 1 0 ? ? ? ? ? ?",
       "access 1:x 9 0 0: ? = 1 1 0 ? ? ? ? ? ? ?"},
      {"access 1:x 0 1 0:", "access 1:x 0 2 0:"},
      {"access 1:x 1 0 0: L 2 0 0 0", "access 1:x 1 0 0: L 3 0 0 0"},
      {"access 1:x 1 0 0: L 0 1 1 0", "access 1:x 1 0 0: L 0 2 1 0"},
      // Offsets beyond 64 bits, which strtoll would clamp.
      {"access 1:x 1 0 0: L 0 0 9223372036854775807 0",
       "access 1:x 1 0 0: L 0 0 9223372036854775808 0"},
      {"access 1:x 1 0 0: L 0 -9223372036854775808 0 0",
       "access 1:x 1 0 0: L 0 -9223372036854775809 0 0"},
      {"dataloop 1:l 3 -\nloop lt 0 block\nloop lt 0 block\nloop lt 0 block",
       "dataloop 1:l 4 -\nloop lt 0 block\nloop lt 0 block\nloop lt 0 "
       "block\nloop lt 0 "
       "block"},
      {"dataloop 1:l 1 -\nloop lt 0 block", "dataloop 1:l 0 -"},
      {"dataloop 1:l 1 0.5\nloop lt 0 block",
       "dataloop 1:l 1 1\nloop lt 0 block"},
      {"dataloop 1:l 1 auto\nloop lt 0 block",
       "dataloop 1:l 1\nloop lt 0 block"},
      {"work 1", "work 0"},
      {"work 9223372036854775807", "work -1"},
      {"bodyloop lt -1 0 1", "bodyloop lt -2 0 1"},
      {"bodyloop lt -1 0 1", "bodyloop lt 0 0 1"}, // its parent comes first
      {"bodyloop lt -1 0 1\nbodyloop gt 0 0 1",
       "bodyloop lt -1 0 1\nbodyloop gt 1 0 1"},
      {"bodyloop lt -1 0 1", "bodyloop lt -1 -1 1"},
      {"bodyloop lt -1 0 0", "bodyloop lt -1 0 2"},
  };
  for (const auto &C : Cases) {
    EXPECT_TRUE(decodes(Head + C.Good + "\n")) << C.Good;
    refusal(Head + C.Bad + "\n");
  }
  EXPECT_TRUE(decodes("homp 10 data\nloc 3:a.c 2147483647 0\n"));
  refusal("homp 10 data\nloc 3:a.c 2147483648 0\n");
  refusal("homp 10 data\nloc 3:a.c 1 -1\n");
}

TEST(AbiDecode, NumbersMustBeDecimalIntegers) {
  for (const char *N : {"1x", "0x1", "1.5", "+", "-", "1e3", "--1"})
    refusal("homp 10 data\nloc 3:a.c " + std::string(N) + " 1\n");
}

TEST(AbiDecode, KernelsNeedOneToThreeLoops) {
  EXPECT_EQ(refusal("homp 10 kernel\nloc 3:a.c 1 2\n"),
            "malformed region descriptor (loops)");
  std::string Loops = "loop lt 0 block\nloop lt 0 block\nloop lt 0 block\n";
  EXPECT_TRUE(decodes("homp 10 kernel\nloc 3:a.c 1 2\n" + Loops));
  EXPECT_EQ(
      refusal("homp 10 kernel\nloc 3:a.c 1 2\n" + Loops + "loop lt 0 full\n"),
      "malformed region descriptor (loops)");
}

TEST(AbiDecode, MissingLocationIsRefused) {
  EXPECT_EQ(refusal("homp 10 data\n"),
            "incomplete region descriptor (no location)");
  EXPECT_EQ(refusal("homp 10 data\nif\n"),
            "incomplete region descriptor (no location)");
}

TEST(AbiDecode, LengthPrefixLongerThanTheRestIsRefused) {
  refusal("homp 10 data\nloc 4:a.c 1 2\n");
  refusal("homp 10 data\nloc 100:a.c 1 2\n");
  refusal("homp 10 data\nloc 99999999999999999999:a.c 1 2\n");
  refusal(Head + "label 6:loop1");
  refusal(Head + "reduction + 2:s");
  refusal(Head + "array 40:x to 1\ndim full -1 0 0 none none\n");
  // A prefix that takes exactly the rest of the text, leaving no fields.
  refusal("homp 10 data\nloc 8:a.c 1 2\n");
}

TEST(AbiDecode, SingleRecordsAreNotRepeated) {
  // One location, one label and one topology per construct: a second one
  // would silently replace (or, for a topology, mix with) the first.
  refusal("homp 10 data\nloc 3:a.c 1 2\nloc 3:b.c 3 4\n");
  refusal(Head + "topology 1 1 0:\ntopology 2 0 0 0:\n");
  refusal("homp 10 kernel\nloc 3:a.c 1 2\nloop lt 0 block\nlabel 1:a\n"
          "label 1:b\n");
  refusal("homp 10 kernel\nloc 3:a.c 1 2\nloop lt 0 block\nlabel 0:\n");
  refusal(Head + "work 2\nwork 3\n");
}

TEST(AbiDecode, StringsNeedALengthPrefix) {
  refusal("homp 10 data\nloc a.c 1 2\n");
  refusal("homp 10 data\nloc :a.c 1 2\n");
  refusal("homp 10 data\nloc 3a.c 1 2\n");
  refusal("homp 10 data\nloc -3:a.c 1 2\n");
}

TEST(AbiDecode, StrayBlanksAreRefused) {
  EXPECT_TRUE(decodes("homp 10 data\nloc 3:a.c 1 2\nif\n"));
  refusal("homp 10 data\nloc  3:a.c 1 2\n");
  refusal("homp 10 data\nloc 3:a.c 1 2 \n");
  refusal("homp 10 data\n loc 3:a.c 1 2\n");
  refusal("homp 10 data\nloc 3:a.c 1 2\n\nif\n");
  refusal("homp 10 data\nloc 3:a.c 1 2\nif extra\n");
  refusal("homp 10 data \nloc 3:a.c 1 2\n");
  refusal("homp  2 data\nloc 3:a.c 1 2\n");
}

TEST(AbiDecode, ExtraFieldsAreRefused) {
  refusal("homp 10 data extra\nloc 3:a.c 1 2\n");
  refusal("homp 10 data\nloc 3:a.c 1 2 3\n");
  refusal(Head + "device all 0 0 0\n");
  refusal(Head + "topology 1 1 0: 0:\n");
  refusal(Head + "loop lt 0 block 1\n");
  refusal(Head + "access 1:x 1 0 0: ? ?\n");
  refusal(Head + "array 1:x to 1 0 0 0\ndim full -1 0 0 none none\n");
  refusal(Head + "array 1:x to 1 0 1 0 1:t 0\ndim full -1 0 0 none none\n");
  refusal(Head + "array 1:x to 1 0 0\ndim full -1 0 0 none none none\n");
  refusal(Head + "work 2 1\n");
  refusal(Head + "bodyloop lt -1 2 1 0\n");
}

TEST(AbiDecode, MissingFieldsAreRefused) {
  refusal(Head + "device all 0\n");
  refusal(Head + "topology 2 1 0:\n");
  refusal(Head + "access 1:x 2 0 0: ?\n");
  refusal(Head + "array 1:x to 2 0 0\ndim full -1 0 0 none none\n");
  refusal(Head + "array 1:x to 1\ndim full -1 0 0 none none\n");
  refusal(Head + "array 1:x to 1 0\ndim full -1 0 0 none none\n");
  refusal(Head + "array 1:x to 1 0 2 1\ndim full -1 0 0 none none\n");
  refusal(Head + "array 1:x to 1 0 1 1\ndim full -1 0 0 none none\n");
  refusal(Head + "dataloop 1:l 2 -\nloop lt 0 block\n");
  refusal(Head + "loop lt 0 cyclic\n");
  refusal(Head + "loop lt block\n");
  refusal(Head + "loop lt 0 align to 1:x 1\n");
  refusal(Head + "work\n");
  refusal(Head + "bodyloop lt -1 2\n");
}

// The decoder starts from an empty descriptor: nothing of an earlier one
// stays in Out.
TEST(AbiDecode, OutIsReplacedNotMerged) {
  Descriptor Out = everything();
  std::string Error;
  ASSERT_TRUE(decodeDescriptor(encodeDescriptor(minimal()).c_str(), Out, Error))
      << Error;
  EXPECT_TRUE(Out == minimal());
}

//===----------------------------------------------------------------------===//
// The run-time values
//===----------------------------------------------------------------------===//

namespace {

const char *slotName(ValueSlot::KindTy K) {
  switch (K) {
  case ValueSlot::DeviceId:
    return "DeviceId";
  case ValueSlot::DeviceCount:
    return "DeviceCount";
  case ValueSlot::TopologyDim:
    return "TopologyDim";
  case ValueSlot::LoopBlock:
    return "LoopBlock";
  case ValueSlot::ArrayBase:
    return "ArrayBase";
  case ValueSlot::ArrayElementSize:
    return "ArrayElementSize";
  case ValueSlot::ArrayLower:
    return "ArrayLower";
  case ValueSlot::ArrayLength:
    return "ArrayLength";
  case ValueSlot::ArrayExtent:
    return "ArrayExtent";
  case ValueSlot::ArrayBlock:
    return "ArrayBlock";
  case ValueSlot::ArrayDevice:
    return "ArrayDevice";
  case ValueSlot::ArrayTopologyDim:
    return "ArrayTopologyDim";
  case ValueSlot::AccessAddress:
    return "AccessAddress";
  case ValueSlot::SubscriptMin:
    return "SubscriptMin";
  case ValueSlot::SubscriptMax:
    return "SubscriptMax";
  case ValueSlot::ReductionAddress:
    return "ReductionAddress";
  case ValueSlot::ReductionSize:
    return "ReductionSize";
  case ValueSlot::ReductionType:
    return "ReductionType";
  case ValueSlot::DataLoopFirst:
    return "DataLoopFirst";
  case ValueSlot::DataLoopBound:
    return "DataLoopBound";
  case ValueSlot::DataLoopStep:
    return "DataLoopStep";
  case ValueSlot::DataLoopBlock:
    return "DataLoopBlock";
  case ValueSlot::IfCondition:
    return "IfCondition";
  case ValueSlot::HaloAddress:
    return "HaloAddress";
  case ValueSlot::BodyLoopFirst:
    return "BodyLoopFirst";
  case ValueSlot::BodyLoopBound:
    return "BodyLoopBound";
  case ValueSlot::BodyLoopStep:
    return "BodyLoopStep";
  }
  return "?";
}

/// The layout as text, one "Kind(item, dim)" per line.
std::string layoutText(const std::vector<ValueSlot> &Slots) {
  std::string S;
  for (const ValueSlot &V : Slots)
    S += std::string(slotName(V.Kind)) + "(" + std::to_string(V.Item) + ", " +
         std::to_string(V.Dim) + ")\n";
  return S;
}

} // namespace

TEST(AbiValueLayout, EverythingInTheDocumentedOrder) {
  // Devices (ids and counts), topology dimensions given, block sizes of
  // cyclic loops, per array its base, element size, lower bounds and
  // lengths, extents of inner dimensions and cyclic block sizes, access
  // addresses, reduction address/size/type, data loops' bounds and steps
  // (and block sizes), counted body loops' bounds and steps, the if
  // condition.
  EXPECT_EQ(layoutText(valueLayout(everything())),
            // One 0, All, Range 2, From 3, Host, Default.
            "DeviceId(0, 0)\n"
            "DeviceId(2, 0)\n"
            "DeviceCount(2, 0)\n"
            "DeviceId(3, 0)\n"
            // topology([n][*][m])
            "TopologyDim(0, 0)\n"
            "TopologyDim(0, 2)\n"
            // Loop 0 is BLOCK(n); loop 1 BLOCK; loop 2 ALIGN.
            "LoopBlock(0, 0)\n"
            // a: rank 2, CYCLIC(n) then BLOCK.
            "ArrayBase(0, 0)\n"
            "ArrayElementSize(0, 0)\n"
            "ArrayLower(0, 0)\n"
            "ArrayLength(0, 0)\n"
            "ArrayLower(0, 1)\n"
            "ArrayLength(0, 1)\n"
            "ArrayExtent(0, 1)\n"
            "ArrayBlock(0, 0)\n"
            // b: rank 3, FULL, ALIGN(loop), BLOCK(n).
            "ArrayBase(1, 0)\n"
            "ArrayElementSize(1, 0)\n"
            "ArrayLower(1, 0)\n"
            "ArrayLength(1, 0)\n"
            "ArrayLower(1, 1)\n"
            "ArrayLength(1, 1)\n"
            "ArrayLower(1, 2)\n"
            "ArrayLength(1, 2)\n"
            "ArrayExtent(1, 1)\n"
            "ArrayExtent(1, 2)\n"
            "ArrayBlock(1, 2)\n"
            // topology(i, j) after b's distribution.
            "ArrayDevice(1, 0)\n"
            "ArrayDevice(1, 1)\n"
            // c: rank 1, ALIGN(loop1, 1/2), topology([m][*]).
            "ArrayBase(2, 0)\n"
            "ArrayElementSize(2, 0)\n"
            "ArrayLower(2, 0)\n"
            "ArrayLength(2, 0)\n"
            "ArrayTopologyDim(2, 0)\n"
            // Accesses a, p, b.
            "AccessAddress(0, 0)\n"
            "AccessAddress(1, 0)\n"
            "AccessAddress(2, 0)\n"
            // reduction(max: m), reduction(||: flag).
            "ReductionAddress(0, 0)\n"
            "ReductionSize(0, 0)\n"
            "ReductionType(0, 0)\n"
            "ReductionAddress(1, 0)\n"
            "ReductionSize(1, 0)\n"
            "ReductionType(1, 0)\n"
            // loop1: BLOCK, then CYCLIC(n); l 2: AUTO.
            "DataLoopFirst(0, 0)\n"
            "DataLoopBound(0, 0)\n"
            "DataLoopStep(0, 0)\n"
            "DataLoopFirst(0, 1)\n"
            "DataLoopBound(0, 1)\n"
            "DataLoopStep(0, 1)\n"
            "DataLoopBlock(0, 1)\n"
            "DataLoopFirst(1, 0)\n"
            "DataLoopBound(1, 0)\n"
            "DataLoopStep(1, 0)\n"
            // Body loops 0, 2 and 3 are counted, 1 is not.
            "BodyLoopFirst(0, 0)\n"
            "BodyLoopBound(0, 0)\n"
            "BodyLoopStep(0, 0)\n"
            "BodyLoopFirst(2, 0)\n"
            "BodyLoopBound(2, 0)\n"
            "BodyLoopStep(2, 0)\n"
            "BodyLoopFirst(3, 0)\n"
            "BodyLoopBound(3, 0)\n"
            "BodyLoopStep(3, 0)\n"
            "IfCondition(0, 0)\n"
            // The halo update's arrays.
            "HaloAddress(0, 0)\n"
            "HaloAddress(1, 0)\n");
}

TEST(AbiValueLayout, APlainKernelHasNoValues) {
  EXPECT_TRUE(valueLayout(minimal(ConstructKind::Kernel)).empty());
}

TEST(AbiValueLayout, DeviceSpecsTakeIdsAndCounts) {
  const struct {
    DeviceSpec::KindTy Kind;
    const char *Values;
  } Cases[] = {{DeviceSpec::Default, ""},
               {DeviceSpec::All, ""},
               {DeviceSpec::Host, ""},
               {DeviceSpec::One, "DeviceId(0, 0)\n"},
               {DeviceSpec::From, "DeviceId(0, 0)\n"},
               {DeviceSpec::Range, "DeviceId(0, 0)\nDeviceCount(0, 0)\n"}};
  for (const auto &C : Cases)
    for (unsigned Types : {0u, unsigned(TypeGPU)}) {
      Descriptor D = minimal();
      D.Devices = {spec(C.Kind, Types, Types != 0)};
      EXPECT_EQ(layoutText(valueLayout(D)), C.Values) << C.Kind;
    }
}

TEST(AbiValueLayout, OnlyGivenTopologyDimensionsHaveValues) {
  Descriptor D = minimal();
  D.Topo.Rank = 3;
  D.Topo.Given = {false, true, false};
  EXPECT_EQ(layoutText(valueLayout(D)), "TopologyDim(0, 1)\n");
  D.Topo.Given = {false, false, false};
  EXPECT_TRUE(valueLayout(D).empty());
}

//===----------------------------------------------------------------------===//
// The rest of the contract
//===----------------------------------------------------------------------===//

TEST(Abi, MapTypesCopyInAndOut) {
  EXPECT_TRUE(copiesIn(MapType::To));
  EXPECT_TRUE(copiesIn(MapType::ToFrom));
  EXPECT_FALSE(copiesIn(MapType::From));
  EXPECT_FALSE(copiesIn(MapType::Alloc));
  EXPECT_FALSE(copiesIn(MapType::Release));
  EXPECT_FALSE(copiesIn(MapType::Delete));
  EXPECT_TRUE(copiesOut(MapType::From));
  EXPECT_TRUE(copiesOut(MapType::ToFrom));
  EXPECT_FALSE(copiesOut(MapType::To));
  EXPECT_FALSE(copiesOut(MapType::Alloc));
  EXPECT_FALSE(copiesOut(MapType::Release));
  EXPECT_FALSE(copiesOut(MapType::Delete));
}

TEST(Abi, NamesAreTheSourceSpellings) {
  EXPECT_STREQ(mapTypeName(MapType::To), "to");
  EXPECT_STREQ(mapTypeName(MapType::From), "from");
  EXPECT_STREQ(mapTypeName(MapType::ToFrom), "tofrom");
  EXPECT_STREQ(mapTypeName(MapType::Alloc), "alloc");
  EXPECT_STREQ(mapTypeName(MapType::Release), "release");
  EXPECT_STREQ(mapTypeName(MapType::Delete), "delete");
  const char *Ops[] = {"+", "-", "*", "&", "|", "^", "&&", "||", "max", "min"};
  for (size_t I = 0; I < std::size(AllReductionOps); ++I)
    EXPECT_STREQ(reductionOpName(AllReductionOps[I]), Ops[I]);
  EXPECT_STREQ(compareOpName(CompareOp::Less), "lt");
  EXPECT_STREQ(compareOpName(CompareOp::NotEqual), "ne");
  EXPECT_STREQ(constructName(ConstructKind::Kernel), "kernel");
  EXPECT_STREQ(constructName(ConstructKind::EnterData), "enter");
}

TEST(Abi, NamesAreDistinct) {
  std::set<std::string> Names;
  for (CompareOp Op : AllCompareOps)
    Names.insert(compareOpName(Op));
  EXPECT_EQ(Names.size(), std::size(AllCompareOps));
  Names.clear();
  for (ConstructKind K : AllConstructs)
    Names.insert(constructName(K));
  EXPECT_EQ(Names.size(), std::size(AllConstructs));
}

TEST(Abi, LocationIsFileLineColumn) {
  Descriptor D = minimal();
  D.File = "dir/my file.c";
  D.Line = 12;
  D.Column = 3;
  EXPECT_EQ(D.location(), "dir/my file.c:12:3");
}

TEST(Abi, ArrayIsDistributedWhenOneOfItsDimensionsIs) {
  Array A;
  A.Rank = 2;
  EXPECT_FALSE(A.distributed());
  A.Dims[1] = policy(Policy::Block);
  EXPECT_TRUE(A.distributed());
  A.Dims[1] = alignToLoop();
  EXPECT_TRUE(A.distributed());
  // Dimensions past the rank do not count.
  A.Dims[1] = Policy();
  A.Dims[2] = policy(Policy::Block);
  EXPECT_FALSE(A.distributed());
}

TEST(Abi, ScalarTypeCodesAreKindTimesHundredPlusSize) {
  for (bool CPlusPlus : {false, true}) {
    std::string E = scalarTypeCodeExpr("sum", CPlusPlus);
    EXPECT_TRUE(contains(E, "_Generic((sum)")) << E;
    EXPECT_TRUE(contains(E, " int: " + std::to_string(KindSigned * 100 + 4)))
        << E;
    EXPECT_TRUE(contains(E, "unsigned long long: " +
                                std::to_string(KindUnsigned * 100 + 8)))
        << E;
    EXPECT_TRUE(contains(E, "double: " + std::to_string(KindFloat * 100 + 8)))
        << E;
    EXPECT_TRUE(contains(E, (CPlusPlus ? "bool: " : "_Bool: ") +
                                std::to_string(KindBool * 100 + 1)))
        << E;
    EXPECT_TRUE(
        contains(E, " __int128: " + std::to_string(KindSigned * 100 + 16)))
        << E;
    EXPECT_TRUE(contains(E, "unsigned __int128: " +
                                std::to_string(KindUnsigned * 100 + 16)))
        << E;
    EXPECT_TRUE(contains(E, "_Float16: " + std::to_string(KindFloat * 100 + 2)))
        << E;
    EXPECT_TRUE(contains(E, "default: 0")) << E;
  }
}

TEST(AbiValueLayout, OnlyBodyLoopBoundsAreOnlyForTheModel) {
  // Replays ignore these values (Replay.h): nothing but the model may read
  // them.
  for (const ValueSlot &S : valueLayout(everything()))
    EXPECT_EQ(onlyForTheModel(S.Kind),
              S.Kind == ValueSlot::BodyLoopFirst ||
                  S.Kind == ValueSlot::BodyLoopBound ||
                  S.Kind == ValueSlot::BodyLoopStep)
        << slotName(S.Kind);
}
