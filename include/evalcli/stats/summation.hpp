#pragma once
// Means computed the way the reference tools compute them, so printed
// intervals agree to the last digit.
#include <span>

namespace evalcli::stats {

// Python's statistics.mean: the exact sum of the values divided by their
// count, correctly rounded once (SacreBLEU's single-system confidence mean).
double exact_mean(std::span<const double> values);

// numpy's float64 sum: pairwise summation (8-way unrolled, blocks of 128)
// over buffer-sized chunks of 8192 elements added in order.
double numpy_sum(std::span<const double> values);
// numpy's ndarray.mean(): numpy_sum / count (SacreBLEU's paired-test mean).
double numpy_mean(std::span<const double> values);

}  // namespace evalcli::stats
