//===-- Extensions.h - Recognising homp's directive extensions -*- C++ -*-===//
//
// Decides whether a directive uses any of the extensions of SPEC.md. A
// directive that uses none is standard OpenMP and goes to clang unchanged.
//
//===----------------------------------------------------------------------===//

#ifndef HOMP_CLANG_PLUGIN_EXTENSIONS_H
#define HOMP_CLANG_PLUGIN_EXTENSIONS_H

#include "Directive.h"

#include <functional>
#include <optional>
#include <string>

namespace homp {

/// What a variable named in a directive is, as far as distributing it
/// goes.
struct VarShape {
  /// Value: a name that is not a variable (an enumerator, a function).
  enum KindTy { Scalar, Pointer, Array, Other, Value } Kind = Other;
  /// Pointer and Array: how many subscripts reach an element through
  /// contiguous memory ('double *p': 1, 'double (*p)[8]': 2,
  /// 'double a[4][8]': 2, 'double **q': 1).
  unsigned Rank = 0;
  bool Dependent = false; ///< a template's dependent type: not known yet
};

/// What recognising the extensions needs beyond the tokens.
struct SyntaxContext {
  bool CPlusPlus = false;
  /// The file has had '#pragma omp requires unified_shared_memory'.
  bool UnifiedSharedMemory = false;
  /// Whether a name is declared where the pragma is: a variable may be
  /// called 'host', and then 'device(host)' is standard OpenMP.
  std::function<bool(const clang::Token &)> IsDeclared =
      [](const clang::Token &) { return false; };
  /// Whether a name is declared where the pragma is, or may be declared
  /// after it and still be what it refers to: in a class body, member
  /// function bodies are parsed once the class is complete, so a member
  /// declared later in the class counts.
  std::function<bool(const clang::Token &)> MayBeDeclared =
      [](const clang::Token &) { return false; };
  /// The shape of the variable a name refers to where the pragma is;
  /// std::nullopt if it names no variable.
  std::function<std::optional<VarShape>(const clang::Token &)> ShapeOf =
      [](const clang::Token &) { return std::nullopt; };
  /// Whether a name is a typedef or alias of an integer type where the
  /// pragma is ('size_t', 'int64_t').
  std::function<bool(const clang::Token &)> NamesIntegerType =
      [](const clang::Token &) { return false; };
  /// Whether a name is a data member reached through 'this' where the
  /// pragma is. In a class body, a name not declared yet may be a member
  /// declared later in the class, or a local variable of the member
  /// function (its body is parsed once the class is complete): Unknown.
  enum class Membership { No, Yes, Unknown };
  std::function<Membership(const clang::Token &)> IsMember =
      [](const clang::Token &) { return Membership::No; };
  /// Whether the pragma at the location is outside every function, block
  /// and class body (a statement directive there is misplaced). False when
  /// unknown.
  std::function<bool(clang::SourceLocation)> AtFileScope =
      [](clang::SourceLocation) { return false; };
};

/// Where an extension is used and what it is called in diagnostics.
struct ExtensionUse {
  unsigned Index;   ///< Token index in the directive.
  std::string What; ///< e.g. "'dist_data' in a map clause"
};

/// The first extension the directive uses, or std::nullopt for standard
/// OpenMP.
std::optional<ExtensionUse> findExtension(const Directive &D,
                                          const SyntaxContext &Ctx);

/// Whether the argument list of a 'device' clause is a homp device list
/// rather than OpenMP's single device number.
bool isDeviceList(llvm::ArrayRef<clang::Token> Toks, TokenRange Args,
                  const SyntaxContext &Ctx);

/// The entries of a device list: split at top-level commas, where in C++
/// template argument lists ('f<1, 2>()') count as brackets.
llvm::SmallVector<TokenRange, 4>
splitDeviceList(llvm::ArrayRef<clang::Token> Toks, TokenRange Args,
                const SyntaxContext &Ctx);

/// Whether Toks[I] names the host or a device type (not a declared name).
bool isHostName(const clang::Token &Tok, const SyntaxContext &Ctx);
bool isDeviceTypeToken(const clang::Token &Tok, const SyntaxContext &Ctx);

/// Names of the map-item distribution clauses ('dist_data', 'partition',
/// 'halo', 'topology').
bool isItemDistributionName(llvm::StringRef Name);

/// The clauses that are homp's alone, wherever they stand.
bool isHompClauseName(llvm::StringRef Name);

/// Whether the tokens of a pragma that parseDirective rejected use homp's
/// extensions: HOMP'16's directives, a distribution after a map item,
/// dist_iteration, cutoff, dist_schedule(target: ...), device(*...). clang,
/// which knows none of them, would report those instead of the mistake.
bool mentionsExtension(llvm::ArrayRef<clang::Token> Toks);

/// In a map item, the index of the token that starts its distribution
/// clauses ('y[0:n] dist_data(BLOCK)': the index of 'dist_data'), if any.
std::optional<unsigned> findItemDistribution(llvm::ArrayRef<clang::Token> Toks,
                                             TokenRange Item);

/// The map items of a map clause: the part after 'modifiers, type:'.
TokenRange mapItems(llvm::ArrayRef<clang::Token> Toks, const Clause &Map);

/// Device type names accepted in device lists (HOMP_DEVICE_* and the
/// OMP_DEVICE_* aliases).
bool isDeviceTypeName(llvm::StringRef Name);

} // namespace homp

#endif // HOMP_CLANG_PLUGIN_EXTENSIONS_H
