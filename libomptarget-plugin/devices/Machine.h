//===-- Machine.h - The machine model in use --------------------*- C++ -*-===//
//
// The model the model-based loop distributions work from: the machine file
// HOMP_MACHINE (else OMP_DEV_SPEC_FILE) names, or else calibration
// (Calibrate.h), cached as a machine file in $XDG_CACHE_HOME/homp (else
// $HOME/.cache/homp) under the name of the device set and reused from there.
//
//===----------------------------------------------------------------------===//

#ifndef HOMP_LIBOMPTARGET_PLUGIN_MACHINE_H
#define HOMP_LIBOMPTARGET_PLUGIN_MACHINE_H

#include "homp/MachineModel.h"

#include <string>

namespace homp {

/// The machine model, made on first use (thread-safe) and kept. Devices[Id]
/// is offload device Id; the host is Devices[omp_get_initial_device()],
/// the last. Returns nullptr with the error in Error when the machine file
/// is missing or malformed (the message names the variable, the file and
/// the line).
const MachineModel *tryMachineModel(std::string &Error);

/// tryMachineModel(), with an error fatal.
const MachineModel &machineModel();

/// Where HOMP_MACHINE or OMP_DEV_SPEC_FILE names a file, reads it now (once)
/// and ends the program with machineModel()'s error if it is missing or
/// malformed: a distributed construct calls it first, so that a bad file
/// is an error whether or not a loop of the program needs the model
/// (under OMP_TARGET_OFFLOAD=DISABLED nothing reads it). With a file, the
/// model is made then, with the GPUs' free memory (their runtime starts).
/// Calibration waits for its first use.
void checkMachineFile();

/// The program's own file of AUTO's profiles (SavedProfiles.h) in the
/// calibration cache's folder, made if need be; "" with Why when there is
/// no folder or the program's path is unknown.
std::string defaultProfilesPath(std::string &Why);

/// Writes Text to Path through a file of its own, so that processes writing
/// at once never leave or read half a file; "" or what went wrong (and, in
/// Errno, the error number).
std::string writeAtomically(const std::string &Path, const std::string &Text,
                            int *Errno = nullptr);

} // namespace homp

#endif // HOMP_LIBOMPTARGET_PLUGIN_MACHINE_H
