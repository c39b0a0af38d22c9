//===-- Clauses.h - Parsing homp's extension clauses ------------*- C++ -*-===//
//
// The device list of 'device(...)' and the distribution policies of
// 'dist_data', 'partition', 'dist_iteration' and 'dist_schedule(target: ...)'.
// Errors are reported here, at the offending token.
//
//===----------------------------------------------------------------------===//

#ifndef HOMP_CLANG_PLUGIN_CLAUSES_H
#define HOMP_CLANG_PLUGIN_CLAUSES_H

#include "Diagnostics.h"
#include "Directive.h"
#include "Extensions.h"

#include <string>

namespace homp {

/// One entry of a device list.
struct DeviceSpec {
  enum KindTy {
    All,   ///< '*': every offload device
    One,   ///< 'id'
    From,  ///< 'id:*': every device from id on
    Range, ///< 'id:count' or ':count'
    Host,  ///< 'host'
  } Kind;
  TokenRange Start; ///< id expression (empty for ':count': 0)
  TokenRange Count; ///< count expression (Range only)
};

/// Parses the argument list of a 'device' clause. Returns std::nullopt after
/// reporting an error.
std::optional<llvm::SmallVector<DeviceSpec, 4>>
parseDeviceList(llvm::ArrayRef<clang::Token> Toks, TokenRange Args,
                const SyntaxContext &Ctx, Diagnostics &Diags);

/// A distribution policy of one dimension (data) or one loop.
struct Policy {
  enum KindTy {
    Block,     ///< BLOCK
    Duplicate, ///< DUPLICATE, FULL, *
    AlignLoop, ///< ALIGN, ALIGN(loop), ALIGN(label)
    AlignTo,   ///< ALIGN(array)
  } Kind = Duplicate;
  std::string AlignName; ///< the name in ALIGN(name), if any
  unsigned Index = 0;    ///< token index of the policy name
};

/// Parses a policy list: 'p, q', '[p][q]' or '[p], q'. ForLoop selects the
/// loop policies (AUTO and the scheduler kinds) over the data ones.
std::optional<llvm::SmallVector<Policy, 2>>
parsePolicies(llvm::ArrayRef<clang::Token> Toks, TokenRange Args, bool ForLoop,
              Diagnostics &Diags);

} // namespace homp

#endif // HOMP_CLANG_PLUGIN_CLAUSES_H
