/*===-- homp/MpiLayer.h - libhomp-mpi's entry points --------------*- C -*-===//
//
// The MPI layer is a library of its own, libhomp-mpi.so, that libhomp loads
// from its own folder when the program runs under an MPI launcher (or with
// HOMP_MPI=1): a single-node user needs no MPI at run time. This is the one
// contract between the two; the layer checks nothing homp knows and homp
// calls nothing of MPI's but these.
//
//===----------------------------------------------------------------------===*/

#ifndef HOMP_MPILAYER_H
#define HOMP_MPILAYER_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Changes whenever a member below does: libhomp refuses a layer of
   another version. */
#define HOMP_MPI_LAYER_VERSION 2
/* The library's file name, in libhomp's folder, and the function that
   returns its entry points. */
#define HOMP_MPI_LAYER_FILE "libhomp-mpi.so"
#define HOMP_MPI_LAYER_SYMBOL "homp_mpi_layer_get"

/* One message of Exchange. */
struct homp_mpi_message {
  int Peer;
  void *Data;
  int64_t Bytes;
};

struct homp_mpi_layer {
  int Version;
  /* Joins the job: initializes MPI (MPI_THREAD_MULTIPLE asked) unless the
     program did, and duplicates MPI_COMM_WORLD for homp's messages. Rank and
     Size are this process's. ThreadLevel: the level MPI gives (0 single, 1
     funneled, 2 serialized, 3 multiple). 0, or nonzero with a sentence in
     Error. */
  int (*Open)(int *Rank, int *Size, int *ThreadLevel, char *Error,
              size_t ErrorSize);
  /* Every rank R's Counts[R] bytes to All + Displs[R], on every rank; this
     rank's own bytes are already there. Collective. 0, or nonzero with a
     sentence in Error. */
  int (*AllGather)(void *All, const int64_t *Counts, const int64_t *Displs,
                   char *Error, size_t ErrorSize);
  /* Sends and receives at once (each a peer rank, its bytes and where they
     are or go), and waits for all of them. Collective over the peers named.
     0, or nonzero with a sentence in Error. */
  int (*Exchange)(const struct homp_mpi_message *Sends, int NumSends,
                  const struct homp_mpi_message *Receives, int NumReceives,
                  char *Error, size_t ErrorSize);
  /* Ends every rank of the job (an error on this one). */
  void (*Abort)(int Code);
  /* Leaves the job: frees the communicator, and finalizes MPI if Open
     initialized it. */
  void (*Close)(void);
};

const struct homp_mpi_layer *homp_mpi_layer_get(void);

#ifdef __cplusplus
}
#endif

#endif /* HOMP_MPILAYER_H */
