//===-- MpiLayer.cpp - libhomp-mpi: homp's MPI, loaded on demand ----------===//
//
// What libhomp asks of MPI (homp/MpiLayer.h), on a duplicate of
// MPI_COMM_WORLD so that the program's own messages never meet homp's.
//
//===----------------------------------------------------------------------===//

#include "homp/MpiLayer.h"

#include <mpi.h>

#include <climits>
#include <cstdio>
#include <vector>

namespace {

MPI_Comm Comm = MPI_COMM_NULL;
bool InitializedHere = false;

void describe(int Code, const char *What, char *Error, size_t Size) {
  char Text[MPI_MAX_ERROR_STRING] = "";
  int Len = 0;
  MPI_Error_string(Code, Text, &Len);
  std::snprintf(Error, Size, "%s failed: %s", What, Text);
}

int open(int *Rank, int *Size, int *ThreadLevel, char *Error,
         size_t ErrorSize) {
  int Initialized = 0;
  MPI_Initialized(&Initialized);
  int Provided = MPI_THREAD_SINGLE;
  if (!Initialized) {
    int Rc = MPI_Init_thread(nullptr, nullptr, MPI_THREAD_MULTIPLE, &Provided);
    if (Rc != MPI_SUCCESS) {
      describe(Rc, "MPI_Init_thread", Error, ErrorSize);
      return 1;
    }
    InitializedHere = true;
  } else {
    MPI_Query_thread(&Provided);
  }
  // Errors come back to homp, which names the construct.
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  if (int Rc = MPI_Comm_dup(MPI_COMM_WORLD, &Comm); Rc != MPI_SUCCESS) {
    describe(Rc, "MPI_Comm_dup", Error, ErrorSize);
    return 1;
  }
  MPI_Comm_set_errhandler(Comm, MPI_ERRORS_RETURN);
  MPI_Comm_rank(Comm, Rank);
  MPI_Comm_size(Comm, Size);
  *ThreadLevel = Provided == MPI_THREAD_MULTIPLE     ? 3
                 : Provided == MPI_THREAD_SERIALIZED ? 2
                 : Provided == MPI_THREAD_FUNNELED   ? 1
                                                     : 0;
  return 0;
}

int allGather(void *All, const int64_t *Counts, const int64_t *Displs,
              char *Error, size_t ErrorSize) {
  int Size = 0;
  MPI_Comm_size(Comm, &Size);
  bool Fits = true;
  for (int R = 0; R < Size; ++R)
    Fits = Fits && Counts[R] <= INT_MAX && Displs[R] <= INT_MAX;
  if (Fits) {
    std::vector<int> C(Size), D(Size);
    for (int R = 0; R < Size; ++R) {
      C[R] = static_cast<int>(Counts[R]);
      D[R] = static_cast<int>(Displs[R]);
    }
    int Rc = MPI_Allgatherv(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, All, C.data(),
                            D.data(), MPI_BYTE, Comm);
    if (Rc != MPI_SUCCESS) {
      describe(Rc, "MPI_Allgatherv", Error, ErrorSize);
      return 1;
    }
    return 0;
  }
  // Past int's counts: each rank's bytes broadcast in pieces.
  constexpr int64_t Piece = int64_t(1) << 30;
  for (int R = 0; R < Size; ++R)
    for (int64_t Off = 0; Off < Counts[R]; Off += Piece) {
      const int N =
          static_cast<int>(Counts[R] - Off < Piece ? Counts[R] - Off : Piece);
      int Rc = MPI_Bcast(static_cast<char *>(All) + Displs[R] + Off, N,
                         MPI_BYTE, R, Comm);
      if (Rc != MPI_SUCCESS) {
        describe(Rc, "MPI_Bcast", Error, ErrorSize);
        return 1;
      }
    }
  return 0;
}

int exchange(const homp_mpi_message *Sends, int NumSends,
             const homp_mpi_message *Receives, int NumReceives, char *Error,
             size_t ErrorSize) {
  // Pieces of at most 1 GiB each, tagged by their number, so that counts
  // fit MPI's int.
  constexpr int64_t Piece = int64_t(1) << 30;
  std::vector<MPI_Request> Requests;
  auto Post = [&](const homp_mpi_message &M, bool Send) {
    int Tag = 0;
    for (int64_t Off = 0; Off < M.Bytes; Off += Piece, ++Tag) {
      const int N =
          static_cast<int>(M.Bytes - Off < Piece ? M.Bytes - Off : Piece);
      char *At = static_cast<char *>(M.Data) + Off;
      Requests.emplace_back();
      int Rc =
          Send
              ? MPI_Isend(At, N, MPI_BYTE, M.Peer, Tag, Comm, &Requests.back())
              : MPI_Irecv(At, N, MPI_BYTE, M.Peer, Tag, Comm, &Requests.back());
      if (Rc != MPI_SUCCESS)
        return Rc;
    }
    return MPI_SUCCESS;
  };
  int Rc = MPI_SUCCESS;
  for (int I = 0; I < NumReceives && Rc == MPI_SUCCESS; ++I)
    Rc = Post(Receives[I], false);
  for (int I = 0; I < NumSends && Rc == MPI_SUCCESS; ++I)
    Rc = Post(Sends[I], true);
  if (Rc == MPI_SUCCESS)
    Rc = MPI_Waitall(static_cast<int>(Requests.size()), Requests.data(),
                     MPI_STATUSES_IGNORE);
  if (Rc != MPI_SUCCESS) {
    describe(Rc, "exchanging halo rows", Error, ErrorSize);
    return 1;
  }
  return 0;
}

void abortJob(int Code) {
  MPI_Abort(Comm != MPI_COMM_NULL ? Comm : MPI_COMM_WORLD, Code);
}

void close() {
  int Finalized = 0;
  MPI_Finalized(&Finalized);
  if (Finalized)
    return; // the program's MPI_Finalize came first
  if (Comm != MPI_COMM_NULL)
    MPI_Comm_free(&Comm);
  if (InitializedHere)
    MPI_Finalize();
}

const homp_mpi_layer Layer = {
    HOMP_MPI_LAYER_VERSION, open, allGather, exchange, abortJob, close};

} // namespace

extern "C" const homp_mpi_layer *homp_mpi_layer_get(void) { return &Layer; }
