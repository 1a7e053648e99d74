#include "evalcli/stats/resampling.hpp"

#include <catch2/catch.hpp>
#include <cstdlib>

#include "evalcli/core/error.hpp"

namespace evalcli::stats {
namespace {

// Score = 100 * sum(correct) / sum(total): a ratio metric to exercise resampling.
class RatioMetric : public Metric {
 public:
  std::string name() const override { return "Ratio"; }
  std::vector<std::string> stat_names() const override { return {"correct", "total"}; }
  void segment_stats(std::u32string_view, std::span<const std::u32string>, Stat*) const override {}
  double score(std::span<const Stat> s) const override { return s[1] > 0 ? 100.0 * s[0] / s[1] : 0.0; }
  std::string signature() const override { return "ratio:v1"; }
};

StatMatrix matrix(const std::vector<StatRow>& rows) { return StatMatrix(rows, rows[0].size()); }

}  // namespace

TEST_CASE("p_value is (count above + 1) / (n + 1)", "[stats][resampling]") {
  CHECK(p_value(std::vector<double>{0.1, 0.5, 0.9}, 0.5) == 0.5);
  CHECK(p_value(std::vector<double>{0.1, 0.2}, 1.0) == 1.0 / 3.0);
}

TEST_CASE("estimate_ci takes bounds n//40 and n-n//40-1", "[stats][resampling]") {
  std::vector<double> scores;
  for (int i = 80; i > 0; --i) scores.push_back(i);
  const Interval interval = estimate_ci(scores, MeanKind::exact);
  CHECK(interval.lower == 3.0);   // index 2
  CHECK(interval.upper == 78.0);  // index 77
  CHECK(interval.half_width == 37.5);
  CHECK(interval.mean == 40.5);
  CHECK_THROWS_AS(estimate_ci({}, MeanKind::numpy), Error);
}

TEST_CASE("seeds: integers, 'none' in any case, environment fallback", "[stats][resampling]") {
  CHECK(parse_seed("12345").words == std::vector<std::uint32_t>{12345});
  CHECK(parse_seed(" +7 ").decimal == "7");
  CHECK_FALSE(parse_seed("NoNe").fixed());
  CHECK(parse_seed("NoNe").text == "none");
  CHECK_THROWS_AS(parse_seed("-1"), Error);
  CHECK_THROWS_AS(parse_seed("abc"), Error);
  // Python's int(): one underscore between two digits.
  CHECK(parse_seed("1_000_000").decimal == "1000000");
  // Unicode digits and seeds of 2^64 and more (numpy's SeedSequence words, low first).
  CHECK(parse_seed("\u0661\u0662").decimal == "12");
  CHECK(parse_seed("18446744073709551616").words == std::vector<std::uint32_t>{0, 0, 1});
  CHECK(parse_seed("-0").zero());
  CHECK(parse_seed("4_2").text == "4_2");
  for (const char* refused : {"4__2", "_42", "42_", "+_42", "4_ 2"}) CHECK_THROWS_AS(parse_seed(refused), Error);
  CHECK(resolve_seed(std::string("9")).decimal == "9");
  ::setenv("SACREBLEU_SEED", "77", 1);
  CHECK(resolve_seed(std::nullopt).decimal == "77");
  ::unsetenv("SACREBLEU_SEED");
  CHECK(resolve_seed(std::nullopt).decimal == "12345");
}

TEST_CASE("bootstrap of a constant system gives a zero-width interval", "[stats][resampling]") {
  RatioMetric metric;
  const auto stats = matrix({{1, 2}, {1, 2}, {1, 2}, {1, 2}});
  const Interval interval = bootstrap_confidence(metric, stats, 100, parse_seed("1"));
  CHECK(interval.mean == 50.0);
  CHECK(interval.half_width == 0.0);
}

TEST_CASE("paired tests: identical systems are not significant, jobs do not change results",
          "[stats][resampling]") {
  RatioMetric metric;
  std::vector<StatRow> good, near, bad;
  for (int i = 0; i < 60; ++i) {
    good.push_back({static_cast<double>(8 + i % 3), 10});
    near.push_back({static_cast<double>(8 + (i + 1) % 3), 10});
    bad.push_back({static_cast<double>(2 + i % 4), 10});
  }
  near[0][0] += 1;
  const std::vector<std::vector<StatMatrix>> stats = {{matrix(good), matrix(good), matrix(near), matrix(bad)}};
  for (auto kind : {PairedTestKind::bootstrap, PairedTestKind::randomization}) {
    PairedTestOptions options;
    options.kind = kind;
    options.samples = 200;
    options.seed = parse_seed("3");
    options.jobs = 1;
    const auto serial = run_paired_tests({&metric}, stats, options);
    options.jobs = 2;
    const auto parallel = run_paired_tests({&metric}, stats, options);
    // SacreBLEU's quirk: an identical system gets the smallest p (0 > 0 never holds).
    CHECK(*serial[0][1].p_value == 1.0 / 201.0);
    CHECK(*serial[0][2].p_value > 0.05);          // one count apart: not significant
    CHECK(*serial[0][3].p_value == 1.0 / 201.0);  // very different: nothing reaches delta
    for (std::size_t s = 0; s < 4; ++s) {
      CHECK(serial[0][s].score == parallel[0][s].score);
      CHECK(serial[0][s].p_value == parallel[0][s].p_value);
      CHECK(serial[0][s].mean == parallel[0][s].mean);
    }
  }
}

TEST_CASE("paired tests need two systems", "[stats][resampling]") {
  RatioMetric metric;
  PairedTestOptions options;
  options.seed = parse_seed("1");
  CHECK_THROWS_AS(run_paired_tests({&metric}, {{matrix({{1, 2}})}}, options), Error);
}

// Resamples are drawn and scored a block at a time; the block (one resample,
// a few, all of them) never changes a number.
TEST_CASE("resampling results do not depend on the block size", "[stats][resampling]") {
  RatioMetric metric;
  std::vector<StatRow> base, system, fractional;
  for (int i = 0; i < 45; ++i) {  // 45 rows: resamples and masks cross block and 32-bit boundaries
    base.push_back({static_cast<double>(3 + i % 5), 10});
    system.push_back({static_cast<double>(4 + i % 3), 10});
    fractional.push_back({0.5 + i % 7, 10});
  }
  // Bootstrap resamples of 45 rows take 180 bytes, AR masks 6: blocks of 1 to all samples.
  const std::vector<std::size_t> blocks = {1, 200, 1000, kDefaultBlockBytes};
  std::vector<Interval> intervals;
  for (const std::size_t block : blocks) {
    intervals.push_back(bootstrap_confidence(metric, matrix(base), 300, parse_seed("5"), block));
  }
  for (const auto& interval : intervals) {
    CHECK(interval.mean == intervals[0].mean);
    CHECK(interval.lower == intervals[0].lower);
    CHECK(interval.upper == intervals[0].upper);
  }
  const std::vector<std::vector<StatMatrix>> stats = {{matrix(base), matrix(system), matrix(fractional)}};
  for (auto kind : {PairedTestKind::bootstrap, PairedTestKind::randomization}) {
    std::vector<std::vector<std::vector<PairedResult>>> results;
    for (const std::size_t block : blocks) {
      PairedTestOptions options;
      options.kind = kind;
      options.samples = 250;
      options.seed = parse_seed("11");
      options.block_bytes = block;
      results.push_back(run_paired_tests({&metric}, stats, options));
    }
    for (const auto& result : results) {
      for (std::size_t s = 0; s < 3; ++s) {
        CHECK(result[0][s].p_value == results[0][0][s].p_value);
        CHECK(result[0][s].mean == results[0][0][s].mean);
        CHECK(result[0][s].ci == results[0][0][s].ci);
      }
    }
  }
}

}  // namespace evalcli::stats
