//===-- DataDirectives.h - Distributed target data and friends --*- C++ -*-===//
//
// 'target data', 'target enter data', 'target exit data' and 'target
// update' with a device list and distributed items (SPEC.md section 6).
// Their marker returns a handle; clang passes it to the data mapping entry
// points, which the homp pass redirects here. Items homp does not
// distribute (scalars, say) are mapped by libomptarget on every device of
// the list.
//
//===----------------------------------------------------------------------===//

#ifndef HOMP_LIBOMPTARGET_PLUGIN_DATADIRECTIVES_H
#define HOMP_LIBOMPTARGET_PLUGIN_DATADIRECTIVES_H

#include "Construct.h"
#include "Handles.h"

#include <cstdarg>
#include <cstdint>

namespace homp {

/// The marker of a data construct: reads its values and selects its
/// devices. nullptr when it does nothing (its devices run nothing of it).
Instance *beginDataConstruct(ConstructInfo &Info, va_list Values);

/// The arguments clang passes to libomptarget's data mapping entry points.
struct MapperArgs {
  void *Loc;
  int32_t NumArgs;
  void **ArgBasePtrs, **ArgPtrs;
  int64_t *ArgSizes, *ArgTypes;
  void **ArgNames, **ArgMappers;
};

enum class MapperCall { Begin, End, Update };

/// Carries out the data construct DI (from beginDataConstruct) for the call
/// Call, then deletes DI if nothing else will be called with it.
void runDataConstruct(Instance *DI, MapperCall Call, const MapperArgs &A);

} // namespace homp

#endif // HOMP_LIBOMPTARGET_PLUGIN_DATADIRECTIVES_H
