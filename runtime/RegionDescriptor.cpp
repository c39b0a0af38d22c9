//===-- RegionDescriptor.cpp - What the plugin says of a region -----------===//

#include "homp/RegionDescriptor.h"

#include <cstdint>
#include <sstream>

namespace homp {

namespace {

class LineParser {
public:
  LineParser(const std::string &Line) : In(Line) {}
  bool word(std::string &W) { return static_cast<bool>(In >> W); }
  bool integer(int64_t &V) { return static_cast<bool>(In >> V); }
  bool done() {
    std::string Rest;
    return !(In >> Rest);
  }

private:
  std::istringstream In;
};

bool deviceKind(const std::string &W, DeviceSpecKind &K) {
  static const std::pair<const char *, DeviceSpecKind> Kinds[] = {
      {"default", DeviceSpecKind::Default}, {"all", DeviceSpecKind::All},
      {"host", DeviceSpecKind::Host},       {"one", DeviceSpecKind::One},
      {"from", DeviceSpecKind::From},       {"range", DeviceSpecKind::Range}};
  for (const auto &[Name, Kind] : Kinds)
    if (W == Name) {
      K = Kind;
      return true;
    }
  return false;
}

bool compareOp(const std::string &W, CompareOp &Op) {
  static const std::pair<const char *, CompareOp> Ops[] = {
      {"lt", CompareOp::Less},
      {"le", CompareOp::LessEqual},
      {"gt", CompareOp::Greater},
      {"ge", CompareOp::GreaterEqual},
      {"ne", CompareOp::NotEqual}};
  for (const auto &[Name, Value] : Ops)
    if (W == Name) {
      Op = Value;
      return true;
    }
  return false;
}

MapKind mapKind(const std::string &W) {
  if (W == "to")
    return MapKind::To;
  if (W == "from")
    return MapKind::From;
  if (W == "tofrom")
    return MapKind::ToFrom;
  if (W == "alloc")
    return MapKind::Alloc;
  return MapKind::Other;
}

const std::pair<const char *, ReductionOp> ReductionOps[] = {
    {"+", ReductionOp::Add},         {"-", ReductionOp::Sub},
    {"*", ReductionOp::Mul},         {"&", ReductionOp::BitAnd},
    {"|", ReductionOp::BitOr},       {"^", ReductionOp::BitXor},
    {"&&", ReductionOp::LogicalAnd}, {"||", ReductionOp::LogicalOr},
    {"max", ReductionOp::Max},       {"min", ReductionOp::Min}};

bool reductionOp(const std::string &W, ReductionOp &Op) {
  for (const auto &[Name, Value] : ReductionOps)
    if (W == Name) {
      Op = Value;
      return true;
    }
  return false;
}

bool arrayLine(LineParser &P, ArrayDesc &A) {
  std::string Map, Policy, Use;
  if (!P.word(A.Name) || !P.word(Map) || !P.word(Policy))
    return false;
  A.Map = mapKind(Map);
  if (Policy == "block")
    A.Policy = ArrayPolicy::Block;
  else if (Policy == "dup")
    A.Policy = ArrayPolicy::Duplicate;
  else if (Policy == "loop")
    A.Policy = ArrayPolicy::FollowLoop;
  else if (Policy == "same") {
    int64_t K;
    if (!P.integer(K) || K < 0 || K > UINT32_MAX)
      return false;
    A.Policy = ArrayPolicy::SameAs;
    A.SameAs = static_cast<unsigned>(K);
  } else
    return false;
  if (!P.word(Use))
    return false;
  if (Use == "-") {
    A.Uses = ArrayDesc::NoUse;
  } else if (Use == "?") {
    A.Uses = ArrayDesc::UnknownUse;
  } else {
    A.Uses = ArrayDesc::KnownUse;
    std::istringstream Min(Use);
    if (!(Min >> A.MinOffset) || !P.integer(A.MaxOffset))
      return false;
  }
  return true;
}

} // namespace

const char *reductionOpName(ReductionOp Op) {
  for (const auto &[Name, Value] : ReductionOps)
    if (Value == Op)
      return Name;
  return "?";
}

bool parseRegionDescriptor(const char *Text, RegionDescriptor &Out,
                           std::string &Error) {
  std::istringstream In(Text ? Text : "");
  std::string Line;
  unsigned LineNo = 0;
  bool SawLoop = false;
  while (std::getline(In, Line)) {
    ++LineNo;
    LineParser P(Line);
    std::string Key;
    if (!P.word(Key))
      continue;
    bool Ok = true;
    if (LineNo == 1) {
      int64_t Version;
      Ok = Key == "homp" && P.integer(Version) && Version == 1;
      if (!Ok) {
        Error = "region descriptor version '" + Line +
                "' is not 'homp 1': the program was compiled by another "
                "homp version";
        return false;
      }
    } else if (Key == "loc") {
      Ok = P.word(Out.Location);
    } else if (Key == "device") {
      std::string W;
      DeviceSpecKind K;
      Ok = P.word(W) && deviceKind(W, K);
      if (Ok)
        Out.Devices.push_back(K);
    } else if (Key == "loop") {
      std::string Op, Policy;
      Ok = P.word(Op) && compareOp(Op, Out.Op) && P.word(Policy);
      if (Ok && Policy == "array") {
        int64_t K;
        Ok = P.integer(K) && K >= 0 && K <= UINT32_MAX;
        Out.LoopFollowsArray = true;
        Out.LoopArray = static_cast<unsigned>(K);
      } else if (Ok) {
        Ok = Policy == "block";
      }
      SawLoop = true;
    } else if (Key == "array") {
      ArrayDesc A;
      Ok = arrayLine(P, A);
      Out.Arrays.push_back(A);
    } else if (Key == "reduction") {
      ReductionDesc R;
      std::string Op;
      Ok = P.word(Op) && reductionOp(Op, R.Op) && P.word(R.Name);
      Out.Reductions.push_back(R);
    } else if (Key == "if") {
      Out.HasIf = true;
    } else {
      Ok = false;
    }
    if (!Ok || !P.done()) {
      Error = "malformed region descriptor line " + std::to_string(LineNo) +
              ": '" + Line + "'";
      return false;
    }
  }
  if (LineNo == 0 || !SawLoop) {
    Error = "incomplete region descriptor";
    return false;
  }
  // Array references must point at BLOCK arrays of the same region.
  auto IsBlock = [&](unsigned K) {
    return K < Out.Arrays.size() && Out.Arrays[K].Policy == ArrayPolicy::Block;
  };
  if (Out.LoopFollowsArray && !IsBlock(Out.LoopArray)) {
    Error = "region descriptor: the loop follows a non-BLOCK array";
    return false;
  }
  for (const ArrayDesc &A : Out.Arrays)
    if (A.Policy == ArrayPolicy::SameAs && !IsBlock(A.SameAs)) {
      Error = "region descriptor: '" + A.Name + "' follows a non-BLOCK array";
      return false;
    }
  return true;
}

} // namespace homp
