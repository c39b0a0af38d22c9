//===-- Clauses.h - Parsing homp's extension clauses ------------*- C++ -*-===//
//
// The device list of 'device(...)', 'topology(...)', the distribution
// policies of 'dist_data', 'partition', 'dist_iteration' and
// 'dist_schedule(target: ...)', and 'halo(...)'. Each parser fills the
// records of homp/Abi.h and notes which tokens give their run-time values.
// Errors are reported here, at the offending token.
//
//===----------------------------------------------------------------------===//

#ifndef HOMP_CLANG_PLUGIN_CLAUSES_H
#define HOMP_CLANG_PLUGIN_CLAUSES_H

#include "Diagnostics.h"
#include "Directive.h"
#include "Extensions.h"

#include "homp/Abi.h"

#include <optional>
#include <string>

namespace homp {

/// One entry of a device list.
struct DeviceSpec {
  abi::DeviceSpec Spec;
  TokenRange Start; ///< id expression (empty for ':count': 0)
  TokenRange Count; ///< count expression (Range only)
};

/// Reports the second of two 'device', 'topology' or 'cutoff' clauses of a
/// directive; false then.
bool clausesAppearOnce(llvm::ArrayRef<clang::Token> Toks,
                       llvm::ArrayRef<Clause> Clauses, Diagnostics &Diags);

/// Parses the argument list of a 'device' clause: a device list, or one
/// device number (OpenMP's form). Returns std::nullopt after reporting an
/// error.
std::optional<llvm::SmallVector<DeviceSpec, 4>>
parseDeviceClause(llvm::ArrayRef<clang::Token> Toks, const Clause &Device,
                  const SyntaxContext &Ctx, Diagnostics &Diags);

/// Parses the argument list of a 'device' clause that is a device list.
/// Returns std::nullopt after reporting an error.
std::optional<llvm::SmallVector<DeviceSpec, 4>>
parseDeviceList(llvm::ArrayRef<clang::Token> Toks, TokenRange Args,
                const SyntaxContext &Ctx, Diagnostics &Diags);

/// A distribution policy of one dimension (data) or one loop.
struct Policy {
  abi::Policy P;
  TokenRange Block; ///< Cyclic: the block size expression (empty: 1)
  unsigned Index = 0; ///< token index of the policy name
};

/// Parses a policy list: 'p, q', '[p][q]' or '[p], q'. ForLoop selects the
/// loop policies (AUTO and the scheduler kinds) over the data ones.
std::optional<llvm::SmallVector<Policy, 3>>
parsePolicies(llvm::ArrayRef<clang::Token> Toks, TokenRange Args, bool ForLoop,
              Diagnostics &Diags);

/// Parses the argument of 'cutoff(ratio | percentage | auto)'; nullopt if
/// it is malformed or out of range (the caller reports it).
std::optional<abi::Cutoff> parseCutoff(llvm::ArrayRef<clang::Token> Toks,
                                       TokenRange R);

/// 'topology([name] [d0][d1]...)', or a reference to a named topology.
struct TopologySpec {
  abi::Topology T;
  llvm::SmallVector<TokenRange, 3> Dims; ///< per dimension ('*': empty)
  std::string Reference; ///< 'topology(top1)': the name referred to
  bool Target = false;   ///< 'topology(target)': the construct's own
};

/// Parses the argument list of a 'topology' clause.
std::optional<TopologySpec> parseTopology(llvm::ArrayRef<clang::Token> Toks,
                                          TokenRange Args, Diagnostics &Diags);

/// Parses 'halo(...)': one spec per dimension, possibly empty.
std::optional<llvm::SmallVector<abi::Halo, 3>>
parseHalo(llvm::ArrayRef<clang::Token> Toks, TokenRange Args,
          Diagnostics &Diags);

/// The value of an integer literal token (decimal, hex or octal, with
/// suffixes), if it is one.
std::optional<int64_t> integerLiteral(const clang::Token &T);

/// The value of R if it is an integer constant made of literals,
/// parentheses and the operators + - * / % << >>, with C's types: none if
/// C would wrap an unsigned value ('0u - 1', '-1u', '1u << 32') or the
/// expression is undefined (a shift by a negative count, overflow).
std::optional<int64_t> integerConstant(llvm::ArrayRef<clang::Token> Toks,
                                       TokenRange R);

} // namespace homp

#endif // HOMP_CLANG_PLUGIN_CLAUSES_H
