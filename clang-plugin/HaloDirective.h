//===-- HaloDirective.h - 'halo_exchange' and 'halo_update' -----*- C++ -*-===//
//
// The standalone halo directives (SPEC.md section 5) become a call of
// libhomp's halo entry point with a descriptor naming the direction and the
// arrays, and the arrays' addresses.
//
//===----------------------------------------------------------------------===//

#ifndef HOMP_CLANG_PLUGIN_HALODIRECTIVE_H
#define HOMP_CLANG_PLUGIN_HALODIRECTIVE_H

#include "KernelRewriter.h"

#include <optional>

namespace homp {

/// Whether D is 'halo_exchange' or 'halo_update'.
bool isHaloDirective(const Directive &D);

/// The tokens that replace the halo directive D (a statement); std::nullopt
/// after reporting errors.
std::optional<TokenVector> rewriteHaloDirective(const RewriteContext &RC,
                                                const Directive &D);

} // namespace homp

#endif // HOMP_CLANG_PLUGIN_HALODIRECTIVE_H
