//===-- Libomptarget.h - libomptarget's data entry points -------*- C++ -*-===//
//
// The entry points of libomptarget 19 for data constructs. The homp pass
// points the program's calls at libhomp's __homp_ versions (Api.cpp), which
// call these for what they pass on; libhomp also calls them for itself.
// Kernels' entry point is in KernelArgs.h, with the arguments it takes.
//
//===----------------------------------------------------------------------===//

#ifndef HOMP_LIBOMPTARGET_PLUGIN_LIBOMPTARGET_H
#define HOMP_LIBOMPTARGET_PLUGIN_LIBOMPTARGET_H

#include <cstdint>

extern "C" {
void __tgt_target_data_begin_mapper(void *Loc, int64_t DeviceId, int32_t N,
                                    void **Bases, void **Ptrs, int64_t *Sizes,
                                    int64_t *Types, void **Names,
                                    void **Mappers);
void __tgt_target_data_end_mapper(void *Loc, int64_t DeviceId, int32_t N,
                                  void **Bases, void **Ptrs, int64_t *Sizes,
                                  int64_t *Types, void **Names, void **Mappers);
void __tgt_target_data_update_mapper(void *Loc, int64_t DeviceId, int32_t N,
                                     void **Bases, void **Ptrs, int64_t *Sizes,
                                     int64_t *Types, void **Names,
                                     void **Mappers);
void __tgt_target_data_begin_nowait_mapper(
    void *Loc, int64_t DeviceId, int32_t N, void **Bases, void **Ptrs,
    int64_t *Sizes, int64_t *Types, void **Names, void **Mappers,
    int32_t DepNum, void *DepList, int32_t NoAliasNum, void *NoAliasList);
void __tgt_target_data_end_nowait_mapper(void *Loc, int64_t DeviceId, int32_t N,
                                         void **Bases, void **Ptrs,
                                         int64_t *Sizes, int64_t *Types,
                                         void **Names, void **Mappers,
                                         int32_t DepNum, void *DepList,
                                         int32_t NoAliasNum, void *NoAliasList);
void __tgt_target_data_update_nowait_mapper(
    void *Loc, int64_t DeviceId, int32_t N, void **Bases, void **Ptrs,
    int64_t *Sizes, int64_t *Types, void **Names, void **Mappers,
    int32_t DepNum, void *DepList, int32_t NoAliasNum, void *NoAliasList);
}

#endif // HOMP_LIBOMPTARGET_PLUGIN_LIBOMPTARGET_H
