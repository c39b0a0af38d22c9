//===-- RegionDescriptorTest.cpp - What the plugin says of a region -------===//

#include "homp/RegionDescriptor.h"

#include <gtest/gtest.h>

#include <string>

using namespace homp;

namespace {

/// Parses Text, which must be accepted.
RegionDescriptor parse(const std::string &Text) {
  RegionDescriptor D;
  std::string Error;
  EXPECT_TRUE(parseRegionDescriptor(Text.c_str(), D, Error)) << Text << "\n"
                                                             << Error;
  return D;
}

/// Parses Text, which must be refused with a message.
std::string reject(const std::string &Text) {
  RegionDescriptor D;
  std::string Error;
  EXPECT_FALSE(parseRegionDescriptor(Text.c_str(), D, Error)) << Text;
  EXPECT_FALSE(Error.empty()) << Text;
  return Error;
}

const std::string Head = "homp 1\nloc t.c:1:2\n";

} // namespace

TEST(RegionDescriptor, ParsesEveryLineKind) {
  RegionDescriptor D = parse("homp 1\n"
                             "loc src/axpy.c:12:5\n"
                             "device all\n"
                             "device range\n"
                             "device host\n"
                             "loop le array 1\n"
                             "array c to dup -\n"
                             "array x tofrom block 0 0\n"
                             "array y from same 1 ?\n"
                             "array u alloc loop -1 2\n"
                             "array v present dup -\n"
                             "reduction + sum\n"
                             "reduction max best\n"
                             "if\n");
  EXPECT_EQ(D.Location, "src/axpy.c:12:5");
  EXPECT_EQ(D.Devices, (std::vector<DeviceSpecKind>{DeviceSpecKind::All,
                                                    DeviceSpecKind::Range,
                                                    DeviceSpecKind::Host}));
  EXPECT_EQ(D.Op, CompareOp::LessEqual);
  EXPECT_TRUE(D.LoopFollowsArray);
  EXPECT_EQ(D.LoopArray, 1u);
  ASSERT_EQ(D.Arrays.size(), 5u);

  EXPECT_EQ(D.Arrays[0].Name, "c");
  EXPECT_EQ(D.Arrays[0].Map, MapKind::To);
  EXPECT_EQ(D.Arrays[0].Policy, ArrayPolicy::Duplicate);
  EXPECT_EQ(D.Arrays[0].Uses, ArrayDesc::NoUse);
  EXPECT_TRUE(D.Arrays[0].copiesIn());
  EXPECT_FALSE(D.Arrays[0].copiesOut());
  EXPECT_FALSE(D.Arrays[0].distributed());

  EXPECT_EQ(D.Arrays[1].Name, "x");
  EXPECT_EQ(D.Arrays[1].Map, MapKind::ToFrom);
  EXPECT_EQ(D.Arrays[1].Policy, ArrayPolicy::Block);
  EXPECT_EQ(D.Arrays[1].Uses, ArrayDesc::KnownUse);
  EXPECT_EQ(D.Arrays[1].MinOffset, 0);
  EXPECT_EQ(D.Arrays[1].MaxOffset, 0);
  EXPECT_TRUE(D.Arrays[1].copiesIn());
  EXPECT_TRUE(D.Arrays[1].copiesOut());
  EXPECT_TRUE(D.Arrays[1].distributed());

  EXPECT_EQ(D.Arrays[2].Name, "y");
  EXPECT_EQ(D.Arrays[2].Map, MapKind::From);
  EXPECT_EQ(D.Arrays[2].Policy, ArrayPolicy::SameAs);
  EXPECT_EQ(D.Arrays[2].SameAs, 1u);
  EXPECT_EQ(D.Arrays[2].Uses, ArrayDesc::UnknownUse);
  EXPECT_FALSE(D.Arrays[2].copiesIn());
  EXPECT_TRUE(D.Arrays[2].copiesOut());

  EXPECT_EQ(D.Arrays[3].Name, "u");
  EXPECT_EQ(D.Arrays[3].Map, MapKind::Alloc);
  EXPECT_EQ(D.Arrays[3].Policy, ArrayPolicy::FollowLoop);
  EXPECT_EQ(D.Arrays[3].Uses, ArrayDesc::KnownUse);
  EXPECT_EQ(D.Arrays[3].MinOffset, -1);
  EXPECT_EQ(D.Arrays[3].MaxOffset, 2);
  EXPECT_FALSE(D.Arrays[3].copiesIn());
  EXPECT_FALSE(D.Arrays[3].copiesOut());

  EXPECT_EQ(D.Arrays[4].Map, MapKind::Other);

  ASSERT_EQ(D.Reductions.size(), 2u);
  EXPECT_EQ(D.Reductions[0].Op, ReductionOp::Add);
  EXPECT_EQ(D.Reductions[0].Name, "sum");
  EXPECT_EQ(D.Reductions[1].Op, ReductionOp::Max);
  EXPECT_EQ(D.Reductions[1].Name, "best");
  EXPECT_TRUE(D.HasIf);
}

TEST(RegionDescriptor, Minimal) {
  RegionDescriptor D = parse("homp 1\nloop lt block\n");
  EXPECT_EQ(D.Op, CompareOp::Less);
  EXPECT_FALSE(D.LoopFollowsArray);
  EXPECT_TRUE(D.Devices.empty());
  EXPECT_TRUE(D.Arrays.empty());
  EXPECT_TRUE(D.Reductions.empty());
  EXPECT_FALSE(D.HasIf);
}

TEST(RegionDescriptor, EveryDeviceKind) {
  RegionDescriptor D = parse(Head + "device default\ndevice all\ndevice host\n"
                                    "device one\ndevice from\ndevice range\n"
                                    "loop lt block\n");
  EXPECT_EQ(D.Devices, (std::vector<DeviceSpecKind>{
                           DeviceSpecKind::Default, DeviceSpecKind::All,
                           DeviceSpecKind::Host, DeviceSpecKind::One,
                           DeviceSpecKind::From, DeviceSpecKind::Range}));
}

TEST(RegionDescriptor, EveryComparison) {
  const std::pair<const char *, CompareOp> Ops[] = {
      {"lt", CompareOp::Less},
      {"le", CompareOp::LessEqual},
      {"gt", CompareOp::Greater},
      {"ge", CompareOp::GreaterEqual},
      {"ne", CompareOp::NotEqual}};
  for (const auto &[Name, Op] : Ops) {
    RegionDescriptor D = parse(Head + "loop " + Name + " block\n");
    EXPECT_EQ(D.Op, Op) << Name;
  }
}

TEST(RegionDescriptor, EveryReductionOperator) {
  const std::pair<const char *, ReductionOp> Ops[] = {
      {"+", ReductionOp::Add},         {"-", ReductionOp::Sub},
      {"*", ReductionOp::Mul},         {"&", ReductionOp::BitAnd},
      {"|", ReductionOp::BitOr},       {"^", ReductionOp::BitXor},
      {"&&", ReductionOp::LogicalAnd}, {"||", ReductionOp::LogicalOr},
      {"max", ReductionOp::Max},       {"min", ReductionOp::Min}};
  for (const auto &[Name, Op] : Ops) {
    RegionDescriptor D =
        parse(Head + "loop lt block\nreduction " + Name + " r\n");
    ASSERT_EQ(D.Reductions.size(), 1u) << Name;
    EXPECT_EQ(D.Reductions[0].Op, Op) << Name;
    EXPECT_EQ(D.Reductions[0].Name, "r");
    EXPECT_STREQ(reductionOpName(Op), Name);
  }
}

TEST(RegionDescriptor, ArraysAndLoopInAnyOrder) {
  // The loop may name an array described after it; blank lines are skipped.
  RegionDescriptor D = parse(Head + "\n"
                                    "loop gt array 0\n"
                                    "\n"
                                    "array a tofrom block -3 3\n");
  EXPECT_TRUE(D.LoopFollowsArray);
  EXPECT_EQ(D.LoopArray, 0u);
  ASSERT_EQ(D.Arrays.size(), 1u);
  EXPECT_EQ(D.Arrays[0].MinOffset, -3);
  EXPECT_EQ(D.Arrays[0].MaxOffset, 3);
}

TEST(RegionDescriptor, RejectsOtherVersions) {
  std::string Error = reject("homp 2\nloop lt block\n");
  EXPECT_NE(Error.find("homp 2"), std::string::npos) << Error;
  reject("homp 0\nloop lt block\n");
  reject("homp\nloop lt block\n");
  reject("hompx 1\nloop lt block\n");
  reject("HOMP 1\nloop lt block\n");
  reject("loc t.c:1:1\nhomp 1\nloop lt block\n");
  reject("loop lt block\n");
  reject("\nhomp 1\nloop lt block\n");
  reject("");
  RegionDescriptor D;
  std::string E;
  EXPECT_FALSE(parseRegionDescriptor(nullptr, D, E));
  EXPECT_FALSE(E.empty());
}

TEST(RegionDescriptor, RejectsUnknownKeysAndValues) {
  reject(Head + "loop lt block\nschedule static\n");
  reject(Head + "loop lt block\nLoop lt block\n");
  reject(Head + "device some\nloop lt block\n");
  reject(Head + "device\nloop lt block\n");
  reject(Head + "loop lq block\n");
  reject(Head + "loop lt cyclic\n");
  reject(Head + "loop lt\n");
  reject(Head + "loop lt array\n");
  reject(Head + "loop lt array x\n");
  reject(Head + "loop lt array -1\narray a to block -\n");
  reject(Head + "loop lt block\narray a to cyclic -\n");
  reject(Head + "loop lt block\narray a to block\n");
  reject(Head + "loop lt block\narray a to block 0\n");
  reject(Head + "loop lt block\narray a to block x 1\n");
  reject(Head + "loop lt block\narray a to same -\n");
  reject(Head + "loop lt block\narray a to same -1 -\n");
  reject(Head + "loop lt block\nreduction %% r\n");
  reject(Head + "loop lt block\nreduction +\n");
  reject(Head + "loc\nloop lt block\n");
}

TEST(RegionDescriptor, RejectsTrailingGarbage) {
  std::string Error = reject("homp 1 x\nloop lt block\n");
  reject(Head + "loc a.c:1:1 b.c:2:2\nloop lt block\n");
  reject(Head + "device all 3\nloop lt block\n");
  reject(Head + "loop lt block 0\n");
  reject(Head + "loop lt array 0 0\narray a to block -\n");
  Error = reject(Head + "loop lt block\narray a to block - -\n");
  EXPECT_NE(Error.find("line 4"), std::string::npos) << Error;
  reject(Head + "loop lt block\narray a to block ? x\n");
  reject(Head + "loop lt block\narray a to block 0 1 2\n");
  reject(Head + "loop lt block\narray a to same 0 - x\narray b to block -\n");
  reject(Head + "loop lt block\nreduction + r s\n");
  reject(Head + "loop lt block\nif 1\n");
}

TEST(RegionDescriptor, RejectsLoopFollowingNonBlockArray) {
  reject(Head + "loop lt array 0\narray a to dup -\n");
  reject(Head + "loop lt array 0\narray a to loop -\n");
  reject(Head + "loop lt array 1\narray a to block -\narray b to same 0 -\n");
  // Out of range.
  reject(Head + "loop lt array 1\narray a to block -\n");
  reject(Head + "loop lt array 0\n");
}

TEST(RegionDescriptor, RejectsSameAsNonBlockArray) {
  std::string Error =
      reject(Head + "loop lt block\narray a to dup -\narray b to same 0 -\n");
  EXPECT_NE(Error.find("'b'"), std::string::npos) << Error;
  reject(Head + "loop lt block\narray a to loop -\narray b to same 0 -\n");
  // To itself, to another SameAs array, out of range.
  reject(Head + "loop lt block\narray a to same 0 -\n");
  reject(Head + "loop lt block\narray a to block -\narray b to same 0 -\n"
                "array c to same 1 -\n");
  reject(Head + "loop lt block\narray a to block -\narray b to same 2 -\n");
}

// Indices that do not fit 'unsigned' are out of range too, not taken modulo
// 2^32 (which would make 4294967296 name array 0).
TEST(RegionDescriptor, RejectsArrayIndicesBeyondUnsigned) {
  reject(Head + "loop lt array 4294967296\narray a to block -\n");
  reject(Head + "loop lt array 4294967297\narray a to block -\n"
                "array b to block -\n");
  reject(Head + "loop lt block\narray a to block -\n"
                "array b to same 4294967296 -\n");
}

TEST(RegionDescriptor, RejectsMissingLoop) {
  std::string Error = reject(Head + "device all\narray a to block -\n");
  reject("homp 1\n");
  reject(Head);
}
