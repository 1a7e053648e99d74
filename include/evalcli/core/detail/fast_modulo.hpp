#pragma once
// n % d for a divisor fixed at run time, without a division instruction. A
// 64-bit divide costs 10-20 cycles of latency, and KenLM's probing tables take
// a bucket as key % buckets on every look-up and every prefetch.
//
// With m = floor((2^64 - 1) / d), q = floor(n * m / 2^64) is floor(n / d) or
// one less: m * d < 2^64 makes q <= n / d, and m > 2^64 / d - 1 makes
// n * m / 2^64 > n / d - 1. So n - q * d is below 2d, and one conditional
// subtraction gives the exact remainder, for every n and every 1 <= d < 2^63.

#include <cstdint>

namespace evalcli::detail {

class FastModulo {
 public:
  FastModulo() = default;
  explicit FastModulo(std::uint64_t divisor) : divisor_(divisor), multiplier_(~std::uint64_t{0} / divisor) {}

  std::uint64_t divisor() const { return divisor_; }

  std::uint64_t operator()(std::uint64_t n) const {
    const auto quotient = static_cast<std::uint64_t>((static_cast<unsigned __int128>(n) * multiplier_) >> 64);
    const std::uint64_t remainder = n - quotient * divisor_;
    return remainder >= divisor_ ? remainder - divisor_ : remainder;
  }

 private:
  std::uint64_t divisor_ = 1;
  std::uint64_t multiplier_ = ~std::uint64_t{0};
};

}  // namespace evalcli::detail
