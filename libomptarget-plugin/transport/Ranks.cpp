//===-- Ranks.cpp - The MPI job this process is a rank of -----------------===//

#include "Ranks.h"

#include "Calibrate.h"
#include "Devices.h"
#include "Messages.h"

#include "homp/MpiLayer.h"

#include <cstdlib>
#include <dlfcn.h>
#include <mutex>

namespace homp {

namespace {

const homp_mpi_layer *Layer = nullptr;

/// Loads the layer and joins the job; nullptr with Why if it cannot.
const homp_mpi_layer *openLayer(RankWorld &W, std::string &Why) {
  const std::string Path = libhompFolder() + HOMP_MPI_LAYER_FILE;
  void *Lib = dlopen(Path.c_str(), RTLD_NOW | RTLD_GLOBAL | RTLD_NODELETE);
  if (!Lib) {
    const char *E = dlerror();
    Why = "homp's MPI layer cannot be loaded (" + std::string(E ? E : Path) +
          "; homp builds it where CMake finds MPI)";
    return nullptr;
  }
  using GetFn = const homp_mpi_layer *(*)();
  auto Get = reinterpret_cast<GetFn>(dlsym(Lib, HOMP_MPI_LAYER_SYMBOL));
  const homp_mpi_layer *L = Get ? Get() : nullptr;
  if (!L || L->Version != HOMP_MPI_LAYER_VERSION) {
    Why = Path + " is of another homp version";
    return nullptr;
  }
  char Error[512] = "";
  int Level = 0;
  if (L->Open(&W.Rank, &W.Size, &Level, Error, sizeof Error) != 0) {
    Why = Error;
    return nullptr;
  }
  // Constructs run from one thread at a time of the program; homp's own
  // threads never call MPI.
  if (Level < 2 && W.Size > 1) {
    Why = "MPI gives threads only level " + std::to_string(Level) +
          " (homp needs MPI_THREAD_SERIALIZED or more)";
    L->Close();
    W = RankWorld();
    return nullptr;
  }
  std::atexit([] {
    printDeferred();
    Layer->Close();
  });
  return L;
}

} // namespace

const RankWorld &rankWorld() {
  static RankWorld W;
  static std::once_flag Once;
  std::call_once(Once, [] {
    const Settings &S = settings();
    const bool Asked = S.Mpi == Settings::MpiMode::On;
    if (S.Mpi == Settings::MpiMode::Off || (!Asked && S.LaunchedRanks <= 1))
      return;
    std::string Why;
    Layer = openLayer(W, Why);
    if (!Layer) {
      W = RankWorld();
      if (Asked) {
        message("homp: error: HOMP_MPI=1: %s\n", Why.c_str());
        std::_Exit(EXIT_FAILURE);
      }
      message("homp: warning: %s=%d says this is one of an MPI job's ranks, "
              "but %s; each rank runs every construct alone (HOMP_MPI=0 "
              "says so without this warning)\n",
              S.LaunchVariable.c_str(), S.LaunchedRanks, Why.c_str());
      return;
    }
    if (W.spans())
      setMessageRank(W.Rank);
  });
  return W;
}

void rankAllGather(const std::string &Where, void *All,
                   const std::vector<int64_t> &Counts,
                   const std::vector<int64_t> &Displs) {
  char Error[512] = "";
  if (Layer->AllGather(All, Counts.data(), Displs.data(), Error,
                       sizeof Error) != 0) {
    message("homp: error: region %s: completing the ranks' results: %s\n",
            Where.c_str(), Error);
    abortRanks(EXIT_FAILURE);
    std::_Exit(EXIT_FAILURE);
  }
}

void rankExchange(const std::string &Where,
                  const std::vector<RankMessageBuffer> &Sends,
                  const std::vector<RankMessageBuffer> &Receives) {
  static_assert(sizeof(RankMessageBuffer) == sizeof(homp_mpi_message),
                "one layout for both");
  std::vector<homp_mpi_message> S, R;
  for (const RankMessageBuffer &M : Sends)
    S.push_back({M.Peer, M.Data, M.Bytes});
  for (const RankMessageBuffer &M : Receives)
    R.push_back({M.Peer, M.Data, M.Bytes});
  char Error[512] = "";
  if (Layer->Exchange(S.data(), static_cast<int>(S.size()), R.data(),
                      static_cast<int>(R.size()), Error, sizeof Error) != 0) {
    message("homp: error: region %s: %s\n", Where.c_str(), Error);
    abortRanks(EXIT_FAILURE);
    std::_Exit(EXIT_FAILURE);
  }
}

void abortRanks(int Code) {
  if (Layer) { // joined: the job has several ranks
    std::fflush(nullptr);
    Layer->Abort(Code);
  }
}

} // namespace homp
