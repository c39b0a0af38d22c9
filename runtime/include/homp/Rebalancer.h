//===-- homp/Rebalancer.h - Damped rebalancing from timings -----*- C++ -*-===//
//
// The self-adjusting split of STEPOCL (Section IV of "Automatic OpenCL code
// generation for multi-device heterogeneous architectures"): after each run
// of a loop, device i's ratio r_i of the work becomes
//   r_i <- r_i * (1 + (mean(d) / d_i - 1) / Q)
// where d_i is the time device i took for its share and Q, starting at 1,
// grows by one whenever some device's ratio reverses the direction it moved
// in last (the ping-pong effect of noisy timings; a move under 10^-9 of
// the ratio, rounding, is none). The ratios are kept
// summing to 1. The split is calibrated once the standard deviation of the
// times is below 5% of their mean, and then it stays: as in STEPOCL, that
// execution's move is the last. Unlike STEPOCL it starts again when the
// times spread by 10% or more in three executions in a row (another
// program took a device's cores, a device slowed down): one such execution
// is noise on devices that share cores, three are a changed machine.
//
//===----------------------------------------------------------------------===//

#ifndef HOMP_REBALANCER_H
#define HOMP_REBALANCER_H

#include <vector>

namespace homp {

class Rebalancer {
public:
  /// Starts from Initial (any non-negative weights, e.g. modelShares()),
  /// damped by Q = Damping. Patient: a split that starts from a trusted
  /// prior (the model's shares, which AUTO's sample agreed with) moves
  /// only on a difference that is no noise: over the last 3 updates since
  /// it last moved, some device's mean time over the mean is off 1 by more
  /// than 4.3 standard errors of that mean (Student's t, 95%) and by more
  /// than 5%; it then
  /// moves by those means. (On devices that share cores one execution's
  /// times are tens of percent apart at random, and a split that followed
  /// them took 1.5 to 2 times an even one's time; a device really twice as
  /// fast shows in every execution.)
  explicit Rebalancer(const std::vector<double> &Initial, int Damping = 1,
                      bool Patient = false);

  /// The current ratios, summing to 1.
  const std::vector<double> &ratios() const { return Ratios; }

  /// Takes Seconds, per device the time its ratios() share took, and moves
  /// the ratios unless the split is calibrated. Devices of ratio 0 (cut
  /// off) or without a positive time (one that ran another share than its
  /// ratio, such as a share the memory cap held below it) keep their ratio
  /// exactly and do not count in the mean or the spread; the others share
  /// the rest.
  void update(const std::vector<double> &Seconds);

  /// Whether the split is calibrated: the times of an update were within 5%
  /// of their mean (standard deviation), and not 10% or more apart in the
  /// three updates in a row that would have started it again. It starts
  /// again undamped (Q = 1).
  bool converged() const { return Converged; }

  /// Q: how much the adjustment is damped.
  int damping() const { return Q; }

private:
  std::vector<double> Ratios;
  std::vector<int> Direction; ///< -1, 0 (not moved yet), +1
  int Q = 1;
  bool Converged = false;
  int Spread = 0; ///< calibrated: updates in a row spread by 10% or more
  bool Patient = false;
  /// Patient: per update since the last move, each device's time over the
  /// mean.
  std::vector<std::vector<double>> Window;
};

} // namespace homp

#endif // HOMP_REBALANCER_H
