//===-- AbiValues.cpp - The values a construct passes at run time ---------===//
//
// The other half of the contract (homp/Abi.h): the order of the values the
// plugin's code passes after a construct's descriptor (valueLayout), and
// the type code of a scalar as the plugin spells it in C and C++.
//
//===----------------------------------------------------------------------===//

#include "homp/Abi.h"

#include <string>
#include <vector>

namespace homp {
namespace abi {

std::vector<ValueSlot> valueLayout(const Descriptor &D) {
  std::vector<ValueSlot> L;
  auto Add = [&](ValueSlot::KindTy K, unsigned Item, unsigned Dim = 0) {
    L.push_back({K, Item, Dim});
  };
  for (unsigned I = 0; I < D.Devices.size(); ++I) {
    DeviceSpec::KindTy K = D.Devices[I].Kind;
    if (K == DeviceSpec::One || K == DeviceSpec::From || K == DeviceSpec::Range)
      Add(ValueSlot::DeviceId, I);
    if (K == DeviceSpec::Range)
      Add(ValueSlot::DeviceCount, I);
  }
  for (unsigned I = 0; I < D.Topo.Rank; ++I)
    if (D.Topo.Given[I])
      Add(ValueSlot::TopologyDim, 0, I);
  for (unsigned I = 0; I < D.Loops.size(); ++I)
    if (D.Loops[I].Dist.Kind == Policy::Cyclic)
      Add(ValueSlot::LoopBlock, I);
  for (unsigned A = 0; A < D.Arrays.size(); ++A) {
    const Array &Arr = D.Arrays[A];
    Add(ValueSlot::ArrayBase, A);
    Add(ValueSlot::ArrayElementSize, A);
    for (unsigned I = 0; I < Arr.Rank; ++I) {
      Add(ValueSlot::ArrayLower, A, I);
      Add(ValueSlot::ArrayLength, A, I);
    }
    for (unsigned I = 1; I < Arr.Rank; ++I)
      Add(ValueSlot::ArrayExtent, A, I);
    for (unsigned I = 0; I < Arr.Rank; ++I)
      if (Arr.Dims[I].Kind == Policy::Cyclic)
        Add(ValueSlot::ArrayBlock, A, I);
    for (unsigned I = 0; I < Arr.DeviceIds; ++I)
      Add(ValueSlot::ArrayDevice, A, I);
    for (unsigned I = 0; I < Arr.Topo.Rank; ++I)
      if (Arr.Topo.Given[I])
        Add(ValueSlot::ArrayTopologyDim, A, I);
  }
  for (unsigned I = 0; I < D.Accesses.size(); ++I) {
    const Access &A = D.Accesses[I];
    Add(ValueSlot::AccessAddress, I);
    for (unsigned Dm = 0; Dm < 2 * MaxRank; ++Dm) {
      const Subscript &S = Dm < MaxRank ? A.Subs[Dm] : A.Writes[Dm - MaxRank];
      if (Dm % MaxRank < A.Rank && (Dm < MaxRank || A.Written) && S.Term &&
          S.Kind != Subscript::Unknown) {
        Add(ValueSlot::SubscriptMin, I, Dm);
        Add(ValueSlot::SubscriptMax, I, Dm);
      }
    }
  }
  for (unsigned I = 0; I < D.Reductions.size(); ++I) {
    Add(ValueSlot::ReductionAddress, I);
    Add(ValueSlot::ReductionSize, I);
    Add(ValueSlot::ReductionType, I);
  }
  for (unsigned I = 0; I < D.DataLoops.size(); ++I)
    for (unsigned J = 0; J < D.DataLoops[I].Loops.size(); ++J) {
      Add(ValueSlot::DataLoopFirst, I, J);
      Add(ValueSlot::DataLoopBound, I, J);
      Add(ValueSlot::DataLoopStep, I, J);
      if (D.DataLoops[I].Loops[J].Dist.Kind == Policy::Cyclic)
        Add(ValueSlot::DataLoopBlock, I, J);
    }
  for (unsigned I = 0; I < D.BodyLoops.size(); ++I)
    if (D.BodyLoops[I].Counted) {
      Add(ValueSlot::BodyLoopFirst, I);
      Add(ValueSlot::BodyLoopBound, I);
      Add(ValueSlot::BodyLoopStep, I);
    }
  if (D.HasIf)
    Add(ValueSlot::IfCondition, 0);
  for (unsigned I = 0; I < D.HaloItems.size(); ++I)
    Add(ValueSlot::HaloAddress, I);
  return L;
}

std::string scalarTypeCodeExpr(const std::string &Var, bool CPlusPlus) {
  // _Generic is a C11 feature clang also accepts in C++.
  return "(__extension__ _Generic((" + Var +
         "), char: ((char)-1 < 0 ? 101 : 201), signed char: 101, "
         "unsigned char: 201, short: 102, unsigned short: 202, int: 104, "
         "unsigned int: 204, long: 100 + sizeof(long), unsigned long: 200 + "
         "sizeof(long), long long: 108, unsigned long long: 208, __int128: "
         "116, unsigned __int128: 216, _Float16: 302, float: 304, "
         "double: 308, long double: 300 + sizeof(long double), _Complex "
         "float: 508, _Complex double: 516, _Complex long double: 500 + "
         "sizeof(_Complex long double), " +
         (CPlusPlus ? "bool" : "_Bool") + ": 401, default: 0))";
}

} // namespace abi
} // namespace homp
