/*===-- homp.h - homp's functions for programs -----------------*- C -*-===*\
|*
|* hompcc and hompc++ put this header on the include path: #include <homp.h>.
|* The functions are libhomp's; a program linked with hompcc has them.
|*
\*===----------------------------------------------------------------------===*/

#ifndef HOMP_H
#define HOMP_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The homp version, e.g. "0.1.0". */
const char *homp_version(void);

/* What homp did on one device since the program began (or since
 * homp_reset_counters), summed over every construct: OpenMP device numbers,
 * omp_get_initial_device() for the host. Counted whatever HOMP_INFO and
 * HOMP_TRACE say. */
typedef struct homp_counters {
  long long kernels;        /* launches of homp's kernel parts */
  long long queued_kernels; /* of them, launches the program did not wait
                               for (asynchronous kernels, nowait) */
  long long iterations;     /* the launches' loop iterations */
  long long bytes_in;       /* copied to the device: kernels' arrays and
                               scalars, data regions, 'target update to' */
  long long bytes_out;      /* copied from the device */
  long long halo_bytes;     /* halo cells the device received */
} homp_counters_t;

/* Fills *counters (of size bytes: sizeof(homp_counters_t), so that a
 * program built against this header keeps working with a later libhomp)
 * with device's counters, after waiting for the work queued on it. Returns
 * 0, or -1 when device is not a device of the program or counters is null. */
int homp_get_counters(int device, homp_counters_t *counters, size_t size);

/* Sets every device's counters to zero. */
void homp_reset_counters(void);

#ifdef __cplusplus
}
#endif

#endif /* HOMP_H */
