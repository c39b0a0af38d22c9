//===-- homp/Halo.h - Which copies fill the halos ---------------*- C++ -*-===//
//
// A halo update (SPEC.md section 5) fills the halo cells of every device of
// a distributed array with the values their owners hold. The core turns a
// distribution into the list of box copies that does it, for the selected
// dimensions and sides, corners included, and past the array's ends for
// periodic and reflecting edges. libhomp executes the list.
//
//===----------------------------------------------------------------------===//

#ifndef HOMP_HALO_H
#define HOMP_HALO_H

#include "homp/Distribution.h"
#include "homp/Environment.h"
#include "homp/Transport.h"

#include <map>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

namespace homp {

/// Which halos an update fills: left (lower indices), right, or both.
enum HaloSides : unsigned { SideLeft = 1, SideRight = 2, SideBoth = 3 };

/// One copy of an update: the cells Dst of the device at position To get
/// the values of the cells Src of the device at position From. Src has
/// Dst's shape, translated: by nothing inside the array, by the array's
/// length for a periodic edge, and mirrored one layer per copy for a
/// reflecting edge.
struct HaloCopy {
  unsigned From = 0, To = 0;
  Box Src, Dst;
  bool operator==(const HaloCopy &O) const {
    return From == O.From && To == O.To && Src == O.Src && Dst == O.Dst;
  }
};

/// The copies that fill the halos of every device of Dist in the dimensions
/// of the bit mask Dims (bit d: dimension d) on the sides Sides. A halo
/// cell is filled when every dimension it lies outside its device's part in
/// is selected with that side (so a corner needs both of its dimensions).
/// Cells past the array's ends are filled only for periodic and
/// reflecting edges (the others are not held).
std::vector<HaloCopy> haloCopies(const Distribution &Dist, unsigned Dims,
                                 unsigned Sides);

/// The copies that fill the cells past the array's ends (periodic,
/// reflecting edges) that the device at Position holds, from the whole
/// array wherever its values are (the host's array when a part is copied
/// in): From is Position, and the cells need no owner. A part of a
/// scheduled loop holds such cells while no device owns their sources.
std::vector<HaloCopy> edgeHaloCopies(const Distribution &Dist,
                                     unsigned Position);

/// edgeHaloCopies of the cells whose sources lie in Sources (the elements
/// a 'target update' changed): each copy whole, cut down to those cells,
/// or left out.
std::vector<HaloCopy> edgeHaloCopies(const Distribution &Dist,
                                     unsigned Position,
                                     const ProductSet &Sources);

/// haloCopies of one distribution, computed once per dimensions and sides
/// (an array's halo updates repeat: every Jacobi iteration has one).
class HaloPlanCache {
public:
  /// haloCopies(Dist, Dims, Sides); Dist must be the same every call. The
  /// reference stays valid as long as the cache.
  const std::vector<HaloCopy> &get(const Distribution &Dist, unsigned Dims,
                                   unsigned Sides);
  /// Forgets them (Dist changed): no reference get gave may be in use.
  void clear() {
    std::lock_guard<std::mutex> Lock(M);
    Plans.clear();
  }

private:
  std::mutex M;
  std::map<std::pair<unsigned, unsigned>, std::vector<HaloCopy>> Plans;
};

/// The dimensions of Dist with a halo on some side, as a bit mask.
unsigned haloDimensions(const Distribution &Dist);

/// How a copy between two devices travels.
enum class HaloRoute {
  Local, ///< within one device (a periodic edge on a single device)
  Host,  ///< one of the two is the host: one copy to or from host memory
  Peer,  ///< device to device through the offload runtime
  Staged ///< device to a host buffer, then to the other device
};

/// The route between devices of types From and To (abi::DeviceType bits):
/// peer to peer between devices of one offload plugin (GPUs of one vendor,
/// or CPU offload devices), through a host buffer otherwise. ForcePeer
/// (HOMP_HALO_ROUTE=peer) takes the peer route between any two offload
/// devices.
HaloRoute haloRoute(unsigned FromType, unsigned ToType, bool SameDevice,
                    bool ForcePeer = false);
const char *haloRouteName(HaloRoute R);
/// R as a bit of a set of routes (HaloProgram::RoutesIn).
inline unsigned haloRouteBit(HaloRoute R) {
  return 1u << static_cast<unsigned>(R);
}

/// An update's copies as they run: how each travels and in what order.
/// Copies that go through the host (Staged) are first sent, each into its
/// place in one staging buffer in host memory; then every position
/// receives its halo cells (from that buffer, from host memory, or peer to
/// peer from the sender). Every send comes before any receive: a device
/// that sends and receives the same cells (a periodic edge) sends the old
/// values.
struct HaloProgram {
  std::vector<HaloRoute> Routes; ///< per copy
  std::vector<size_t> Offsets;   ///< per copy: a staged one's, in bytes
  size_t Staged = 0;             ///< the staging buffer's bytes
  size_t Direct = 0;             ///< bytes that go without it
  /// One position's sends into the staging buffer, or its receives: the
  /// copies Order[Begin, End), Bytes in all.
  struct Group {
    bool Send = false;
    unsigned Position = 0;
    size_t Begin = 0, End = 0;
    int64_t Bytes = 0;
  };
  std::vector<Group> Groups; ///< every position's sends, then receives
  /// Per position: the index in Groups of its sends, of its receives
  /// (-1: none).
  std::vector<int> SendGroup, ReceiveGroup;
  std::vector<size_t> Order; ///< copy indices, group after group
  /// Per position: the bytes it receives and sends (sending without the
  /// buffer: what its receivers get from it), and the routes it receives
  /// by (haloRouteBit).
  std::vector<int64_t> In, Out;
  std::vector<unsigned> RoutesIn;
};

/// The program of Copies of Dist, whose devices have the types Types (per
/// position, abi::DeviceType bits). Route forces a route between offload
/// devices (HOMP_HALO_ROUTE): Peer, peer to peer between any two; Staged,
/// through the host's buffer instead of peer to peer.
HaloProgram haloProgram(const Distribution &Dist,
                        const std::vector<HaloCopy> &Copies,
                        const std::vector<unsigned> &Types,
                        HaloRouteSetting Route = HaloRouteSetting::Auto);

/// A halo program's copy planned for a transport: between the positions'
/// storage, or, at a staged end, at its offset in the staging buffer (moved
/// by the buffer's address when it runs).
struct PlannedHaloCopy {
  BoxCopy Copy;
  bool DstStaged = false, SrcStaged = false;
};

/// Program's copies of Copies of an array of Shape, in Program.Order, where
/// Ends gives each position's storage (its element [0]...[0] and device)
/// and Host is the staging buffer's device.
std::vector<PlannedHaloCopy> planHaloCopies(const ArrayShape &Shape,
                                            const std::vector<HaloCopy> &Copies,
                                            const HaloProgram &Program,
                                            const std::vector<BoxEnd> &Ends,
                                            int Host);

/// Runs group G of Program through T, its copies (Planned) started
/// together, with the staging buffer at Stage. False when a copy failed,
/// with its index in Program's copies in Failed; the copies after one that
/// failed as it started do not start.
bool runHaloGroup(Transport &T, const HaloProgram &Program,
                  const std::vector<PlannedHaloCopy> &Planned, size_t G,
                  const char *Stage, size_t &Failed);

/// Where a position's part of an array lives, for storageColors.
enum class PartMemory {
  Colored,    ///< storage homp places in host memory (a CPU offload device)
  HostMemory, ///< the host's array itself (the host as a device)
  Elsewhere   ///< memory the host's memcpy never touches (a GPU)
};

/// Where in a page (bytes 0 to 4095, a multiple of 64) each Colored
/// position's storage of an array should start, so that the host's memcpy
/// and the kernels of CPU offload devices run at full speed:
/// - First, no copy the host's memcpy makes for the array (the halo Copies,
///   and the copies to and from the host's array, whose element [0]...[0]
///   is at HostZero) writes 1 to 63 bytes past an address in the same place
///   of a page as the one it reads. Such copies run up to 30 times slower
///   (glibc's 'rep movsb' on AMD Zen: 2.7 against 0.09 us for a row of 1026
///   doubles), and equal allocations meet that case for some part sizes:
///   513 rows of a 2050 x 1026 Jacobi grid put every halo row 16 bytes past
///   its source.
/// - Then, the same element of this array and of the other arrays on the
///   device (Others[p]: where their element [0]...[0] is, as an address)
///   lie at least 128 bytes apart in a page, at the first such place. A
///   kernel that writes one array and reads another at the same index
///   stalls on stores and loads 4 KB apart (measured on AMD Zen: a Jacobi
///   sweep on 130 x 1026 doubles takes 358 us with u, uold and f at the
///   same place of a page, 201 us spread out). Farther is not better: on an
///   Intel Xeon, Jacobi on 2050 x 1026 over 4 devices (2 cores) took 0.80 s
///   per 100 iterations with the arrays 1024 and 2048 bytes apart, 0.69 s
///   at 256, 0.60 s at 128 to 192 (the hand-written version: 0.65 s).
/// Spans[p]: the elements position p's storage begins with. Other positions
/// get 0. When no placement avoids every slow copy, the one with fewest.
std::vector<int64_t>
storageColors(const ArrayShape &Shape, const std::vector<Range> &Spans,
              const std::vector<HaloCopy> &Copies,
              const std::vector<PartMemory> &Memory, uintptr_t HostZero,
              const std::vector<std::vector<intptr_t>> &Others = {});

/// Whether a copy that writes Distance bytes (modulo a page) past the
/// address it reads is one of the slow ones storageColors avoids.
bool slowCopyDistance(int64_t Distance);

} // namespace homp

#endif // HOMP_HALO_H
