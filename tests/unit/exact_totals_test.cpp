// Exact corpus totals (Metric::exact_totals, stats::ExactSum): a running
// math.fsum, and rouge-score's corpus means from totals summed while
// streaming equal, bit for bit, the math.fsum of the kept per-pair rows (the
// path the conformance test checks against every golden).
#include <fmt/format.h>

#include <cstdint>
#include <string>
#include <vector>

#include "evalcli/stats/corpus_stats.hpp"
#include "evalcli/metrics/rouge.hpp"
#include "evalcli/core/summation.hpp"
#include "support/test_support.hpp"

namespace evalcli::test {
namespace {

double running_fsum(const std::vector<double>& values) {
  stats::ExactSum sum;
  for (double v : values) sum.add(v);
  return sum.value();
}

// Deterministic pseudo-random words (a small vocabulary, so pairs overlap).
std::string pseudo_sentence(std::uint32_t& state, int words) {
  static const char* const vocabulary[] = {"the", "cat", "sat", "on", "mat", "a", "dog", "ran", "far",
                                           "away", "running", "cats", "big", "small", "red"};
  std::string line;
  for (int w = 0; w < words; ++w) {
    state = state * 1664525u + 1013904223u;
    line += (w ? " " : "") + std::string(vocabulary[(state >> 16) % 15]);
  }
  return line;
}

}  // namespace

TEST_CASE("ExactSum is Python's math.fsum, correctly rounded", "[summation]") {
  CHECK(running_fsum({}) == 0.0);
  CHECK(running_fsum({0.1, 0.2, 0.3}) == 0.6);                 // sum() gives 0.6000000000000001
  CHECK(running_fsum(std::vector<double>(10, 0.1)) == 1.0);    // sum() gives 0.9999999999999999
  CHECK(running_fsum({1e100, 1.0, -1e100}) == 1.0);
  CHECK(running_fsum({1e16, 1.0, 1e-16}) == 10000000000000002.0);  // math.fsum's half-way correction
  // Agrees with the batch form used for the goldens.
  std::vector<double> values;
  for (int i = 1; i <= 1000; ++i) values.push_back(1.0 / i);
  CHECK(running_fsum(values) == exact_sum(values));
}

TEST_CASE("rouge-score corpus means from streamed exact totals equal math.fsum of the kept rows", "[rouge][summation]") {
  std::uint32_t state = 12345;
  std::string refs, hyps;
  for (int i = 0; i < 3000; ++i) {
    refs += pseudo_sentence(state, 3 + i % 17) + "\n";
    hyps += pseudo_sentence(state, 1 + i % 23) + "\n";
  }
  TempFile ref_file(refs), hyp_file(hyps);
  RougeScoreOptions options;
  options.stem = true;
  const RougeScoreMetric metric(options);
  CorpusSpec spec;
  spec.ref_paths = {ref_file.path()};
  spec.hyp_paths = {hyp_file.path()};
  const auto streamed = compute_corpus_stats({&metric}, spec, false)[0][0];
  const auto kept = compute_corpus_stats({&metric}, spec, true)[0][0];
  REQUIRE(streamed.rows.empty());
  REQUIRE(kept.rows.size() == 3000);
  for (std::size_t k = 0; k < metric.num_stats(); ++k) {
    std::vector<double> column;
    for (const auto& row : kept.rows) column.push_back(row[k]);
    INFO("statistic " << metric.stat_names()[k]);
    CHECK(streamed.totals[k] == exact_sum(column));
    CHECK(kept.totals[k] == streamed.totals[k]);
  }
  // And the command's plain corpus score (no rows kept) prints that mean.
  const auto result = run_cli({"rouge", "-r", ref_file.path(), "-i", hyp_file.path(), "--stem", "-b", "-w", "15"});
  REQUIRE(result.exit_code == 0);
  CHECK(result.out == fmt::format("{:.15f}\n", streamed.totals[2] / 3000.0));
}

}  // namespace evalcli::test
