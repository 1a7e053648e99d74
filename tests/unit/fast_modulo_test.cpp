// FastModulo (include/evalcli/core/detail/fast_modulo.hpp): the remainder of
// a 64-bit key by a run-time divisor without a divide, as KenLM's probing
// tables need it. Checked against the % operator where an error would show:
// numerators next to multiples of the divisor, the largest numerators, and
// divisors from 1 to near 2^63, including powers of two and their neighbours.
#include <catch2/catch.hpp>

#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "evalcli/core/detail/fast_modulo.hpp"

using evalcli::detail::FastModulo;

namespace {

std::vector<std::uint64_t> divisors_to_check() {
  std::vector<std::uint64_t> divisors = {1, 2, 3, 5, 7, 10, 11, 12, 13, 1000, 1001, 65535, 65537,
                                         3458763, 232123, 1850000, 4294967295ULL, 4294967296ULL, 4294967297ULL};
  for (int bit = 1; bit < 63; ++bit) {
    const std::uint64_t power = std::uint64_t{1} << bit;
    divisors.insert(divisors.end(), {power - 1, power, power + 1});
  }
  std::mt19937_64 random(20261205);
  for (int i = 0; i < 200; ++i) divisors.push_back((random() >> (random() % 63)) | 1);
  return divisors;
}

std::vector<std::uint64_t> numerators_for(std::uint64_t d, std::mt19937_64& random) {
  constexpr std::uint64_t kMax = std::numeric_limits<std::uint64_t>::max();
  std::vector<std::uint64_t> numerators = {0, 1, d - 1, d, d + 1, kMax, kMax - 1, kMax - d, kMax / d * d,
                                           kMax / d * d - 1};
  for (int i = 0; i < 100; ++i) {
    const std::uint64_t n = random();
    const std::uint64_t multiple = n / d * d;  // and its neighbours, where q could be off by one
    numerators.insert(numerators.end(), {n, multiple, multiple - 1, multiple + d - 1});
  }
  return numerators;
}

}  // namespace

TEST_CASE("FastModulo gives n % d for every kind of numerator and divisor", "[fast_modulo]") {
  std::mt19937_64 random(7);
  std::size_t checked = 0;
  for (const std::uint64_t d : divisors_to_check()) {
    const FastModulo modulo(d);
    CHECK(modulo.divisor() == d);
    for (const std::uint64_t n : numerators_for(d, random)) {
      const std::uint64_t expected = n % d;
      if (modulo(n) != expected) FAIL("n = " << n << ", d = " << d << ": " << modulo(n) << " instead of " << expected);
      ++checked;
    }
  }
  CHECK(checked > 100000);
}

TEST_CASE("FastModulo's default divides by one", "[fast_modulo]") {
  const FastModulo modulo;
  CHECK(modulo(0) == 0);
  CHECK(modulo(12345) == 0);
  CHECK(modulo(std::numeric_limits<std::uint64_t>::max()) == 0);
}
