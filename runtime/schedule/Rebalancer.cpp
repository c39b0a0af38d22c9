//===-- Rebalancer.cpp - Damped rebalancing from timings ------------------===//

#include "homp/Rebalancer.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace homp {

namespace {
/// The standard deviation of the times, as a fraction of their mean, under
/// which the split is calibrated (STEPOCL), and from which it starts again
/// when ResumeAfter updates in a row reach it.
constexpr double CalibratedSpread = 0.05, ResumeSpread = 0.10;
constexpr int ResumeAfter = 3;
/// Patient: the updates a move needs, and how far (in standard errors of
/// its mean over them, and at least) a device's time must be from the mean:
/// Student's t for 95% over 3 updates (2 degrees of freedom).
constexpr size_t PatientWindow = 3;
constexpr double PatientErrors = 4.3, PatientMinimum = 0.05;
} // namespace

static void normalize(std::vector<double> &R) {
  double Sum = std::accumulate(R.begin(), R.end(), 0.0);
  for (double &X : R)
    X = Sum > 0 ? X / Sum : 1.0 / R.size();
}

Rebalancer::Rebalancer(const std::vector<double> &Initial, int Damping,
                       bool Patient)
    : Ratios(Initial), Direction(Initial.size(), 0), Q(std::max(1, Damping)),
      Patient(Patient) {
  for (double &X : Ratios)
    X = X > 0 ? X : 0;
  normalize(Ratios);
}

void Rebalancer::update(const std::vector<double> &Seconds) {
  std::vector<size_t> Timed;
  for (size_t I = 0; I < Ratios.size() && I < Seconds.size(); ++I)
    if (Ratios[I] > 0 && Seconds[I] > 0)
      Timed.push_back(I);
  if (Timed.empty())
    return;
  double Mean = 0;
  for (size_t I : Timed)
    Mean += Seconds[I] / Timed.size();
  double Variance = 0;
  for (size_t I : Timed)
    Variance += (Seconds[I] - Mean) * (Seconds[I] - Mean) / Timed.size();
  const double Deviation = std::sqrt(Variance);
  if (Converged) {
    Spread = Deviation >= ResumeSpread * Mean ? Spread + 1 : 0;
    if (Spread < ResumeAfter)
      return;
    // The machine changed: the damping the old noise earned would slow the
    // move to the new split.
    Spread = 0;
    Q = 1;
    std::fill(Direction.begin(), Direction.end(), 0);
  }
  Converged = Deviation < CalibratedSpread * Mean;

  // Each device's time over the mean: this update's, or, patient, its mean
  // over the window, once the window shows a difference that is no noise.
  std::vector<double> Relative(Ratios.size(), 1.0);
  for (size_t I : Timed)
    Relative[I] = Seconds[I] / Mean;
  if (Patient) {
    Window.push_back(Relative);
    if (Window.size() < PatientWindow)
      return;
    bool Significant = false;
    for (size_t I : Timed) {
      double Sum = 0, Squares = 0;
      for (const std::vector<double> &W : Window)
        Sum += W[I], Squares += W[I] * W[I];
      const double N = static_cast<double>(Window.size());
      const double MeanI = Sum / N;
      const double Error =
          std::sqrt(std::max(0.0, Squares / N - MeanI * MeanI) / (N - 1));
      Relative[I] = MeanI;
      Significant |= std::fabs(MeanI - 1) >
                     std::max(PatientMinimum, PatientErrors * Error);
    }
    if (!Significant) {
      Window.erase(Window.begin());
      return;
    }
    Window.clear(); // the times after a move are of other shares
  }

  // The timed devices share what they had: one without a time keeps its
  // ratio exactly (a device the memory cap held below it would otherwise
  // drift with every update).
  std::vector<double> Next = Ratios;
  double Had = 0, Have = 0;
  for (size_t I : Timed) {
    Had += Ratios[I];
    Next[I] = Ratios[I] * (1 + (1 / Relative[I] - 1) / Q);
    Have += Next[I];
  }
  for (size_t I : Timed)
    Next[I] = Have > 0 ? Next[I] * Had / Have : Ratios[I];
  bool Reversed = false;
  for (size_t I : Timed) {
    // Rounding of a balanced split is no move.
    double Tolerance = 1e-9 * Ratios[I];
    int Moved = Next[I] > Ratios[I] + Tolerance   ? 1
                : Next[I] < Ratios[I] - Tolerance ? -1
                                                  : 0;
    if (Moved == 0)
      continue;
    Reversed |= Direction[I] != 0 && Moved != Direction[I];
    Direction[I] = Moved;
  }
  Ratios = Next;
  if (Reversed)
    ++Q;
}

} // namespace homp
