//===-- homp/Reduction.h - Combining reductions across devices --*- C++ -*-===//
//
// Every device reduces into its own copy of a reduction variable, which
// starts at the operator's identity; libhomp then combines the copies in
// ascending device order and finally with the variable's value before the
// region (SPEC.md section 4). Values are handled as raw bytes of a scalar
// type the plugin encodes as kind * 100 + size (homp/Abi.h).
//
//===----------------------------------------------------------------------===//

#ifndef HOMP_REDUCTION_H
#define HOMP_REDUCTION_H

#include "homp/Abi.h"

#include <cstdint>
#include <optional>
#include <string>

namespace homp {

using abi::ReductionOp;

struct ScalarType {
  enum KindTy {
    Signed = abi::KindSigned,
    Unsigned = abi::KindUnsigned,
    Float = abi::KindFloat,
    Bool = abi::KindBool,
    Complex = abi::KindComplex ///< Size: both parts
  } Kind;
  unsigned Size;

  std::string name() const;
};

/// Decodes the plugin's type code; Size is sizeof of the variable, which
/// must agree. std::nullopt for types homp cannot reduce.
std::optional<ScalarType> decodeScalarType(int64_t Code, int64_t Size);

/// Whether Op is defined on T (no bitwise operators on floating point; on
/// complex numbers only +, - and *).
bool reductionApplies(ReductionOp Op, ScalarType T);

/// Writes Op's identity for T to Dest (T.Size bytes).
void reductionIdentity(ReductionOp Op, ScalarType T, void *Dest);

/// Acc = Acc combined with Value, both T.Size bytes of type T.
void reductionCombine(ReductionOp Op, ScalarType T, void *Acc,
                      const void *Value);

} // namespace homp

#endif // HOMP_REDUCTION_H
