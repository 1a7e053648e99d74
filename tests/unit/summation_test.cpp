#include "evalcli/core/summation.hpp"

#include <catch2/catch.hpp>
#include <vector>

#include "support/numpy_sum_reference.hpp"

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

namespace numpy_reference = evalcli::test::numpy_reference;

TEST_CASE("numpy_sum equals a transcription of numpy's buffered pairwise reduce, bit for bit", "[stats][summation]") {
  // Around the block size (128), the buffer size (8192) and well past it.
  for (std::size_t count : {0, 1, 7, 8, 21, 128, 129, 300, 8191, 8192, 8193, 9000, 16385, 20000, 65537}) {
    const auto scores = numpy_reference::per_image_scores(count, 7);
    INFO("count " << count);
    CHECK(numpy_sum(scores) == numpy_reference::add_reduce(scores));
  }
}

TEST_CASE("numpy_mean over 9,000+ values equals what numpy printed", "[stats][summation]") {
  for (const auto& expected : numpy_reference::numpy_results()) {
    const auto scores = numpy_reference::per_image_scores(expected.count, expected.seed);
    INFO("count " << expected.count << " seed " << expected.seed);
    CHECK(numpy_reference::add_reduce(scores) == expected.sum);
    CHECK(numpy_sum(scores) == expected.sum);
    CHECK(numpy_mean(scores) == expected.mean);
    CHECK(numpy_mean(scores) != expected.unbuffered_pairwise_mean);
  }
}

}  // namespace evalcli::stats
