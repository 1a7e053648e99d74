#pragma once
// Bootstrap confidence intervals and paired significance tests, written once
// over the Metric interface (segment statistics -> score of summed statistics)
// and reproducing SacreBLEU 2.x's significance.py to the last digit
// (../shared/specs/sacrebleu.md §8).
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "evalcli/metrics/metric.hpp"

namespace evalcli::stats {

// Segment statistics of one system, row-major: rows() segments x cols() stats.
class StatMatrix {
 public:
  StatMatrix() = default;
  StatMatrix(const std::vector<StatRow>& rows, std::size_t cols);
  std::size_t rows() const { return rows_; }
  std::size_t cols() const { return cols_; }
  std::span<const double> row(std::size_t i) const { return {values_.data() + i * cols_, cols_}; }
  const std::vector<double>& values() const { return values_; }
  // Summed in segment order from zero, as compute_corpus_stats sums them.
  StatRow totals() const;
  // True when every value is a whole number (then any summation order is exact
  // while the sums stay below 2^53).
  bool integral() const;

 private:
  std::size_t rows_ = 0, cols_ = 0;
  std::vector<double> values_;
};

// How resampled statistics are summed. SacreBLEU converts the statistics to a
// numpy float32 matrix and sums in float32; evalcli's own metrics sum in double.
enum class Summation { float32_like_sacrebleu, float64 };
// float32 for the metrics SacreBLEU computes (those with sacrebleu_fields()).
Summation summation_for(const StatsModel& metric);

// A random seed as SacreBLEU takes it: what Python's int() reads (Unicode
// decimal digits, surrounding whitespace, '_' between digits, a sign) as a
// non-negative integer of any size (numpy's SeedSequence), or "none" (any
// case) for fresh entropy.
struct Seed {
  std::vector<std::uint32_t> words;  // the integer as SeedSequence's entropy: 32-bit words, low first; empty = none
  std::string decimal;               // str(int(text)): "12" for "١٢"; "none"
  std::string text;                  // as given, lower-cased: SacreBLEU's single-system signature shows it
  bool fixed() const { return !words.empty(); }
  bool zero() const { return words.size() == 1 && words[0] == 0; }
};
// A usage error naming `source` (the option or environment variable) for anything else.
Seed parse_seed(const std::string& text, std::string_view source = "--seed");
// `--seed` if given, else the environment variable SACREBLEU_SEED, else 12345.
Seed resolve_seed(const std::optional<std::string>& option);

// Scores of bootstrap resamples: `indices` holds samples x rows() row numbers.
std::vector<double> bootstrap_scores(const StatsModel& metric, const StatMatrix& stats,
                                     std::span<const std::uint32_t> indices, Summation summation);

// SacreBLEU's estimate_ci: sorted scores, bounds at n//40 and n - n//40 - 1,
// half-width = (upper - lower) / 2; mean exact (statistics.mean, single-system
// --confidence) or numpy's (paired tests).
enum class MeanKind { exact, numpy };
struct Interval {
  double mean = 0, half_width = 0, lower = 0, upper = 0;
};
Interval estimate_ci(std::vector<double> scores, MeanKind mean_kind);

// Resamples are drawn and scored a block at a time (numpy's stream in numpy's
// order, so results never depend on the block): about this many bytes of
// row indices or packed masks are held at once, and memory is O(rows + block),
// not O(rows x samples).
inline constexpr std::size_t kDefaultBlockBytes = std::size_t{16} << 20;

// Single-system confidence interval (SacreBLEU --confidence / corpus_score(n_bootstrap=n)).
// The resamples are drawn in order from one stream and scored by `threads`
// threads (0 = every core): the interval is the same for any count.
Interval bootstrap_confidence(const StatsModel& metric, const StatMatrix& stats, std::size_t samples,
                              const Seed& seed, std::size_t block_bytes = kDefaultBlockBytes, unsigned threads = 1);

// One cell of a paired test: the system's actual score and, against the
// baseline, its p-value; bootstrap mean and CI half-width where computed.
struct PairedResult {
  double score = 0;
  std::optional<double> p_value, mean, ci;
};

enum class PairedTestKind { bootstrap, randomization };
struct PairedTestOptions {
  PairedTestKind kind = PairedTestKind::bootstrap;
  std::size_t samples = 0;  // 0 = SacreBLEU's default (1000 bootstrap, 10000 AR)
  Seed seed;
  unsigned jobs = 1;        // worker threads over systems; 0 = one per system, at most ncpu/2
  std::size_t block_bytes = kDefaultBlockBytes;  // draws held at once (per worker)
  // Count resampled differences equal to the observed one in the p-value (the
  // textbook test: a system compared with itself gets p = 1). False: SacreBLEU's
  // strict `>` (an identical system gets the smallest p), kept for parity.
  bool count_ties = false;
  std::size_t default_samples() const;
};

// Runs the paired test of every system against system 0 (the baseline).
// stats[m][s]: statistics of metric m for system s (same segments).
// Result [m][s]; s = 0 holds the baseline's score (and bootstrap mean/CI).
// Results do not depend on `jobs`. `progress(done, total)` is called from the
// calling thread only.
std::vector<std::vector<PairedResult>> run_paired_tests(
    const std::vector<const StatsModel*>& metrics, const std::vector<std::vector<StatMatrix>>& stats,
    const PairedTestOptions& options, const std::function<void(std::size_t, std::size_t)>& progress = {});

// The p-value SacreBLEU computes: (#{x > observed} + 1) / (n + 1); with
// `count_ties`, (#{x >= observed} + 1) / (n + 1).
double p_value(std::span<const double> samples, double observed, bool count_ties = false);

}  // namespace evalcli::stats
