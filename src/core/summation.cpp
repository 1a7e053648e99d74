#include "evalcli/core/summation.hpp"

#include <array>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <utility>

namespace evalcli::stats {
namespace {

// A two's-complement fixed-point number with its unit at 2^-1074 (the
// smallest subnormal double): wide enough to hold any sum of up to 2^40
// finite doubles exactly.
class ExactAccumulator {
 public:
  void add(double value) {
    if (value == 0.0) return;
    if (!std::isfinite(value)) throw std::domain_error("exact_mean: non-finite value");
    int exponent = 0;
    const double fraction = std::frexp(std::fabs(value), &exponent);
    auto mantissa = static_cast<std::uint64_t>(std::ldexp(fraction, 53));
    int position = exponent - 53 + 1074;
    if (position < 0) {  // subnormal: the dropped low bits are zero
      mantissa >>= -position;
      position = 0;
    }
    if (value > 0) {
      add_shifted(mantissa, position);
    } else {
      subtract_shifted(mantissa, position);
    }
  }

  // The accumulated value divided by `count`, correctly rounded to a double.
  double divided_by(std::uint64_t count) const {
    Limbs magnitude = limbs_;
    const bool negative = (magnitude.back() >> 63) != 0;
    if (negative) negate(magnitude);
    // Long division by `count`, most significant limb first.
    unsigned __int128 remainder = 0;
    for (std::size_t i = magnitude.size(); i-- > 0;) {
      const unsigned __int128 current = (remainder << 64) | magnitude[i];
      magnitude[i] = static_cast<std::uint64_t>(current / count);
      remainder = current % count;
    }
    const double result = round_to_double(magnitude, remainder != 0, 2 * remainder, count);
    return negative ? -result : result;
  }

 private:
  static constexpr std::size_t kLimbs = 36;
  using Limbs = std::array<std::uint64_t, kLimbs>;

  void add_shifted(std::uint64_t mantissa, int position) {
    const std::size_t limb = static_cast<std::size_t>(position) / 64;
    const int shift = position % 64;
    const unsigned __int128 wide = static_cast<unsigned __int128>(mantissa) << shift;
    std::uint64_t carry = 0;
    std::uint64_t parts[2] = {static_cast<std::uint64_t>(wide), static_cast<std::uint64_t>(wide >> 64)};
    for (std::size_t i = limb; i < kLimbs; ++i) {
      const std::uint64_t part = i - limb < 2 ? parts[i - limb] : 0;
      const unsigned __int128 sum = static_cast<unsigned __int128>(limbs_[i]) + part + carry;
      limbs_[i] = static_cast<std::uint64_t>(sum);
      carry = static_cast<std::uint64_t>(sum >> 64);
      if (carry == 0 && i - limb >= 1) break;
    }
  }

  void subtract_shifted(std::uint64_t mantissa, int position) {
    const std::size_t limb = static_cast<std::size_t>(position) / 64;
    const int shift = position % 64;
    const unsigned __int128 wide = static_cast<unsigned __int128>(mantissa) << shift;
    std::uint64_t parts[2] = {static_cast<std::uint64_t>(wide), static_cast<std::uint64_t>(wide >> 64)};
    std::uint64_t borrow = 0;
    for (std::size_t i = limb; i < kLimbs; ++i) {
      const std::uint64_t part = i - limb < 2 ? parts[i - limb] : 0;
      const std::uint64_t before = limbs_[i];
      const std::uint64_t after = before - part - borrow;
      borrow = (before < part || (before - part) < borrow) ? 1 : 0;
      limbs_[i] = after;
      if (borrow == 0 && i - limb >= 1) break;
    }
  }

  static void negate(Limbs& limbs) {
    std::uint64_t carry = 1;
    for (auto& limb : limbs) {
      const unsigned __int128 sum = static_cast<unsigned __int128>(~limb) + carry;
      limb = static_cast<std::uint64_t>(sum);
      carry = static_cast<std::uint64_t>(sum >> 64);
    }
  }

  static bool bit(const Limbs& limbs, int position) {
    return ((limbs[static_cast<std::size_t>(position) / 64] >> (position % 64)) & 1U) != 0;
  }

  // Rounds quotient + fraction (fraction = remainder/count, given as twice the
  // remainder for comparison with count) times 2^-1074, half to even.
  static double round_to_double(const Limbs& quotient, bool inexact, unsigned __int128 twice_remainder,
                                std::uint64_t count) {
    int top = -1;
    for (std::size_t i = kLimbs; i-- > 0;) {
      if (quotient[i] != 0) {
        top = static_cast<int>(i) * 64 + 63 - __builtin_clzll(quotient[i]);
        break;
      }
    }
    const int dropped = top > 52 ? top - 52 : 0;
    std::uint64_t kept = 0;
    for (int b = top; b >= dropped; --b) kept = (kept << 1) | (bit(quotient, b) ? 1U : 0U);
    bool round_up = false;
    if (dropped == 0) {
      round_up = twice_remainder > count || (twice_remainder == count && (kept & 1U));
    } else {
      const bool half_bit = bit(quotient, dropped - 1);
      bool below_half_nonzero = inexact;
      for (int b = dropped - 2; b >= 0 && !below_half_nonzero; --b) below_half_nonzero = bit(quotient, b);
      round_up = half_bit && (below_half_nonzero || (kept & 1U));
    }
    if (round_up) ++kept;
    return std::ldexp(static_cast<double>(kept), dropped - 1074);
  }

  Limbs limbs_{};
};

double pairwise_sum(const double* values, std::size_t n) {
  if (n < 8) {
    double sum = 0.0;
    for (std::size_t i = 0; i < n; ++i) sum += values[i];
    return sum;
  }
  if (n <= 128) {
    double r[8];
    for (int j = 0; j < 8; ++j) r[j] = values[j];
    std::size_t i = 8;
    for (; i < n - (n % 8); i += 8) {
      for (int j = 0; j < 8; ++j) r[j] += values[i + j];
    }
    double sum = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
    for (; i < n; ++i) sum += values[i];
    return sum;
  }
  std::size_t half = n / 2;
  half -= half % 8;
  return pairwise_sum(values, half) + pairwise_sum(values + half, n - half);
}

}  // namespace

double exact_mean(std::span<const double> values) {
  if (values.empty()) throw std::domain_error("mean of no values");
  ExactAccumulator sum;
  for (double value : values) sum.add(value);
  return sum.divided_by(values.size());
}

double numpy_sum(std::span<const double> values) {
  constexpr std::size_t kBufferSize = 8192;
  double sum = 0.0;
  for (std::size_t start = 0; start < values.size(); start += kBufferSize) {
    const std::size_t count = std::min(kBufferSize, values.size() - start);
    sum += pairwise_sum(values.data() + start, count);
  }
  return sum;
}

double numpy_mean(std::span<const double> values) {
  return numpy_sum(values) / static_cast<double>(values.size());
}

void ExactSum::add(double x) {
  std::size_t kept = 0;
  for (double y : partials_) {
    if (std::fabs(x) < std::fabs(y)) std::swap(x, y);
    const double hi = x + y;
    const double lo = y - (hi - x);
    if (lo != 0.0) partials_[kept++] = lo;
    x = hi;
  }
  partials_.resize(kept);
  partials_.push_back(x);
}

double ExactSum::value() const {
  // CPython's fsum tail: add the partials from the top until the sum becomes
  // inexact, then correct the half-way case by the sign of the next partial.
  std::size_t n = partials_.size();
  if (n == 0) return 0.0;
  double hi = partials_[--n], lo = 0.0;
  while (n > 0) {
    const double x = hi;
    const double y = partials_[--n];
    hi = x + y;
    const double yr = hi - x;
    lo = y - yr;
    if (lo != 0.0) break;
  }
  if (n > 0 && ((lo < 0.0 && partials_[n - 1] < 0.0) || (lo > 0.0 && partials_[n - 1] > 0.0))) {
    const double y = lo * 2.0;
    const double x = hi + y;
    if (y == x - hi) hi = x;
  }
  return hi;
}

}  // namespace evalcli::stats
