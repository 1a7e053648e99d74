#pragma once
// Means computed the way the reference tools compute them, so printed
// intervals agree to the last digit.
#include <span>
#include <vector>

namespace evalcli::stats {

// Python's statistics.mean: the exact sum of the values divided by their
// count, correctly rounded once (SacreBLEU's single-system confidence mean).
double exact_mean(std::span<const double> values);

// numpy's float64 sum: pairwise summation (8-way unrolled, blocks of 128)
// over buffer-sized chunks of 8192 elements added in order.
double numpy_sum(std::span<const double> values);
// numpy's ndarray.mean(): numpy_sum / count (SacreBLEU's paired-test mean).
double numpy_mean(std::span<const double> values);

// Python's math.fsum as a running sum: Shewchuk's non-overlapping partials
// (CPython's algorithm), so the total of any number of finite values is
// correctly rounded while memory stays a few dozen doubles (the partials
// never overlap, so there are at most about 40 of them) whatever the count.
// Lets a corpus mean equal `math.fsum(scores) / n` without keeping the scores.
class ExactSum {
 public:
  void add(double value);
  // The correctly rounded (half to even) sum of everything added.
  double value() const;

 private:
  std::vector<double> partials_;  // increasing magnitude, non-overlapping
};

}  // namespace evalcli::stats
