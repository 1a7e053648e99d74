// rouge_score_bootstrap (rouge-score's BootstrapAggregator) against a plain
// transcription of what it reproduces: one numpy RandomState(seed) stream
// (std::mt19937 is the same MT19937) across the types in order,
// np.random.choice(n, n) by masked rejection on 32-bit words, means summed in
// index order, numpy 1.24 linear percentiles. The goldens check the numbers
// on real data; this covers the edges of the fast path: one pair (no draw),
// n a power of two (nothing rejected), n just above one, a stream crossing
// 624-word blocks inside a sample and between types, sample counts that are
// not a multiple of the batch, and types of different lengths.
#include <algorithm>
#include <cmath>
#include <random>

#include "evalcli/metrics/rouge.hpp"
#include "support/test_support.hpp"

using namespace evalcli;

namespace {

double percentile(const std::vector<double>& sorted, double q) {
  const double v = static_cast<double>(sorted.size() - 1) * (q / 100.0);
  const double lo_index = std::floor(v);
  const auto lo = static_cast<std::size_t>(lo_index);
  const std::size_t hi = std::min(lo + 1, sorted.size() - 1);
  const double t = v - lo_index, diff = sorted[hi] - sorted[lo];
  return t < 0.5 ? sorted[lo] + diff * t : sorted[hi] - diff * (1 - t);
}

std::vector<RougeInterval> plain_bootstrap(const std::vector<std::vector<PRF>>& rows_by_type, unsigned seed,
                                           int samples, double confidence) {
  std::mt19937 generator(seed);
  const double d = (1 - confidence) / 2;
  const double quantiles[3] = {100 * d, 50, 100 * (1 - d)};
  std::vector<RougeInterval> out;
  for (const auto& rows : rows_by_type) {
    const std::size_t n = rows.size();
    std::uint32_t mask = 0;
    while (mask < n - 1) mask = (mask << 1) | 1;
    std::vector<double> means[3];
    for (int s = 0; s < samples; ++s) {
      double sums[3] = {0, 0, 0};
      for (std::size_t k = 0; k < n; ++k) {
        std::uint32_t v = 0;
        if (n > 1) {
          do {
            v = static_cast<std::uint32_t>(generator()) & mask;
          } while (v > n - 1);
        }
        sums[0] += rows[v].precision;
        sums[1] += rows[v].recall;
        sums[2] += rows[v].fmeasure;
      }
      for (int c = 0; c < 3; ++c) means[c].push_back(sums[c] / static_cast<double>(n));
    }
    double bounds[3][3];
    for (int c = 0; c < 3; ++c) {
      std::sort(means[c].begin(), means[c].end());
      for (int q = 0; q < 3; ++q) bounds[q][c] = percentile(means[c], quantiles[q]);
    }
    auto prf = [&](int q) { return PRF{bounds[q][0], bounds[q][1], bounds[q][2]}; };
    out.push_back({prf(0), prf(1), prf(2)});
  }
  return out;
}

std::vector<PRF> random_rows(std::size_t n, std::mt19937& random) {
  std::uniform_real_distribution<double> unit(0, 1);
  std::vector<PRF> rows(n);
  for (auto& row : rows) row = {unit(random), unit(random), unit(random)};
  return rows;
}

void check_same(const std::vector<RougeInterval>& ours, const std::vector<RougeInterval>& plain) {
  REQUIRE(ours.size() == plain.size());
  for (std::size_t t = 0; t < ours.size(); ++t) {
    for (const auto& [a, b] : {std::pair{ours[t].low, plain[t].low}, std::pair{ours[t].mid, plain[t].mid},
                               std::pair{ours[t].high, plain[t].high}}) {
      INFO("type " << t);
      CHECK(a.precision == b.precision);  // bit for bit, no tolerance
      CHECK(a.recall == b.recall);
      CHECK(a.fmeasure == b.fmeasure);
    }
  }
}

}  // namespace

TEST_CASE("rouge-score bootstrap: the fast path draws and sums as numpy does", "[rouge][bootstrap]") {
  std::mt19937 random(7);
  for (const std::size_t n : {1, 2, 3, 5, 64, 65, 623, 624, 625, 1000, 1024, 1025, 4097}) {
    const std::vector<std::vector<PRF>> rows = {random_rows(n, random), random_rows(n, random), random_rows(n, random)};
    for (const int samples : {1, 7, 8, 9, 25}) {
      INFO("n " << n << " samples " << samples);
      check_same(rouge_score_bootstrap(rows, 42, samples, 0.95), plain_bootstrap(rows, 42, samples, 0.95));
    }
  }
  // Other seeds and levels; types of different lengths share the stream in order.
  const std::vector<std::vector<PRF>> uneven = {random_rows(300, random), random_rows(1, random),
                                                random_rows(2049, random)};
  check_same(rouge_score_bootstrap(uneven, 0, 33, 0.9), plain_bootstrap(uneven, 0, 33, 0.9));
  check_same(rouge_score_bootstrap(uneven, 4294967295u, 10, 0.5), plain_bootstrap(uneven, 4294967295u, 10, 0.5));
}
