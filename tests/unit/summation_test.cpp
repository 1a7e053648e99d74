#include "evalcli/stats/summation.hpp"

#include <catch2/catch.hpp>
#include <vector>

namespace evalcli::stats {
namespace {
std::vector<double> sequence(std::size_t n) {
  std::vector<double> v;
  for (std::size_t i = 0; i < n; ++i) v.push_back(static_cast<double>((i * 7919) % 1000) / 7.0 + 30.0 + 1e-3 * static_cast<double>(i % 13) / 3.0);
  return v;
}
}  // namespace

// Expected values from CPython 3.11 statistics.mean and numpy 1.24.2.
TEST_CASE("exact_mean equals Python statistics.mean", "[stats][summation]") {
  CHECK(exact_mean(std::vector<double>{0.1, 0.2, 0.3}) == 0.2);
  CHECK(exact_mean(std::vector<double>{1e300, -1e300, 1e-300, 3.0}) == 0.75);
  CHECK(exact_mean(std::vector<double>{5e-324, 5e-324, 5e-324}) == 5e-324);
  CHECK(exact_mean(std::vector<double>{5e-324, 0.0}) == 0.0);  // half of the smallest subnormal: ties to even
  CHECK(exact_mean(std::vector<double>{-2.5, -0.1, 1.0 / 3.0}) == -0.7555555555555555);
  CHECK(exact_mean(sequence(1000)) == 101.35914085714286);
  CHECK(exact_mean(sequence(20000)) == 101.35914250714286);
  CHECK_THROWS(exact_mean(std::vector<double>{}));
}

TEST_CASE("numpy_sum reproduces numpy's chunked pairwise summation", "[stats][summation]") {
  CHECK(numpy_sum(sequence(1000)) == 101359.14085714286);
  CHECK(numpy_sum(sequence(20000)) == 2027182.8501428573);
  CHECK(numpy_mean(sequence(20000)) == 101.35914250714286);
  CHECK(numpy_sum(std::vector<double>{1.0, 2.0}) == 3.0);
}

}  // namespace evalcli::stats
