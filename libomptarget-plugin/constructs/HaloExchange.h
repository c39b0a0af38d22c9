//===-- HaloExchange.h - 'halo_exchange' and 'halo_update' ------*- C++ -*-===//
//
// Fills the halos of resident distributed arrays from their owners.
//
//===----------------------------------------------------------------------===//

#ifndef HOMP_LIBOMPTARGET_PLUGIN_HALOEXCHANGE_H
#define HOMP_LIBOMPTARGET_PLUGIN_HALOEXCHANGE_H

#include "Construct.h"

namespace homp {

/// Runs the halo update Info with the array addresses of V: for each array
/// resident on devices, every device's halo gets its owners' values, after
/// every device's earlier work and before the call returns. Arrays not
/// distributed on devices have nothing to update. Fatal on errors.
void haloUpdate(const ConstructInfo &Info, const ConstructValues &V);

} // namespace homp

#endif // HOMP_LIBOMPTARGET_PLUGIN_HALOEXCHANGE_H
