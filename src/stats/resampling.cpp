#include "evalcli/stats/resampling.hpp"

#include <fmt/format.h>
#include <unicode/uchar.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <string_view>
#include <thread>

#include "evalcli/core/error.hpp"
#include "evalcli/core/numbers.hpp"
#include "stats/numpy_rng.hpp"
#include "evalcli/core/summation.hpp"
#include "evalcli/core/worker_pool.hpp"
#include "evalcli/text/utf8.hpp"

namespace evalcli::stats {

StatMatrix::StatMatrix(const std::vector<StatRow>& rows, std::size_t cols) : rows_(rows.size()), cols_(cols) {
  values_.reserve(rows_ * cols_);
  for (const auto& row : rows) {
    if (row.size() != cols_) throw Error(ExitCode::internal, "statistics rows of different lengths");
    values_.insert(values_.end(), row.begin(), row.end());
  }
}

StatRow StatMatrix::totals() const {
  StatRow sum(cols_, 0.0);
  for (std::size_t i = 0; i < rows_; ++i) add_stats(sum, row(i));
  return sum;
}

bool StatMatrix::integral() const {
  return std::all_of(values_.begin(), values_.end(), [](double v) { return std::trunc(v) == v; });
}

Summation summation_for(const StatsModel& metric) {
  return metric.sacrebleu_fields().empty() ? Summation::float64 : Summation::float32_like_sacrebleu;
}

namespace {

// Python 3.11's int(str) strips these (Py_UNICODE_ISSPACE without U+001C-001F).
bool int_space(char32_t c) {
  return (c >= 0x09 && c <= 0x0D) || c == 0x20 || c == 0x85 || c == 0xA0 || c == 0x1680 || (c >= 0x2000 && c <= 0x200A) ||
         c == 0x2028 || c == 0x2029 || c == 0x202F || c == 0x205F || c == 0x3000;
}

// A decimal digit's value for int(): Unicode category Nd as Python 3.11 has it
// (Unicode 14: ICU's Unicode 15 adds the Kawi and Nag Mundari digits), or -1.
int decimal_value(char32_t c) {
  if (c >= '0' && c <= '9') return static_cast<int>(c - '0');
  if ((c >= 0x11F50 && c <= 0x11F59) || (c >= 0x1E4F0 && c <= 0x1E4F9)) return -1;
  if (u_charType(static_cast<UChar32>(c)) != U_DECIMAL_DIGIT_NUMBER) return -1;
  return u_charDigitValue(static_cast<UChar32>(c));
}

constexpr std::size_t kPythonMaxDigits = 4300;  // sys.get_int_max_str_digits(): longer strings are refused

// int(text) as a non-negative integer: its decimal digits, or nullopt where
// int() raises, or numpy's SeedSequence refuses a negative number.
std::optional<std::string> python_int_digits(const std::string& text) {
  std::u32string chars;
  if (utf8::decode(text, chars) != std::string::npos) return std::nullopt;  // Python: surrogate escapes
  std::size_t begin = 0, end = chars.size();
  while (begin < end && int_space(chars[begin])) ++begin;
  while (end > begin && int_space(chars[end - 1])) --end;
  bool negative = false;
  if (begin < end && (chars[begin] == '+' || chars[begin] == '-')) negative = chars[begin++] == '-';
  std::string digits;
  for (std::size_t i = begin; i < end; ++i) {
    if (chars[i] == '_' && i > begin && i + 1 < end && decimal_value(chars[i - 1]) >= 0 && decimal_value(chars[i + 1]) >= 0) {
      continue;  // one underscore between two digits
    }
    const int value = decimal_value(chars[i]);
    if (value < 0) return std::nullopt;
    digits += static_cast<char>('0' + value);
  }
  if (digits.empty() || digits.size() > kPythonMaxDigits) return std::nullopt;
  digits.erase(0, std::min(digits.find_first_not_of('0'), digits.size() - 1));
  if (negative && digits != "0") return std::nullopt;
  return digits;
}

// Decimal digits as little-endian 32-bit words (at least one), as numpy turns an int into entropy.
std::vector<std::uint32_t> decimal_words(const std::string& digits) {
  std::vector<std::uint32_t> words = {0};
  for (char digit : digits) {
    std::uint64_t carry = static_cast<std::uint64_t>(digit - '0');
    for (auto& word : words) {
      const std::uint64_t value = static_cast<std::uint64_t>(word) * 10 + carry;
      word = static_cast<std::uint32_t>(value);
      carry = value >> 32;
    }
    if (carry != 0) words.push_back(static_cast<std::uint32_t>(carry));
  }
  return words;
}

}  // namespace

Seed parse_seed(const std::string& text, std::string_view source) {
  std::string lowered = text;
  std::transform(lowered.begin(), lowered.end(), lowered.begin(), [](unsigned char c) { return std::tolower(c); });
  if (lowered == "none") return {{}, "none", lowered};
  const std::optional<std::string> digits = python_int_digits(text);
  if (!digits) {
    throw usage_error(fmt::format("{}: seed '{}' is not a whole number of at least 0 (as Python's int() reads it) or 'none'",
                                  source, text));
  }
  return {decimal_words(*digits), *digits, lowered};
}

Seed resolve_seed(const std::optional<std::string>& option) {
  if (option) return parse_seed(*option, "--seed");
  if (const char* env = std::getenv("SACREBLEU_SEED")) return parse_seed(env, "SACREBLEU_SEED");
  return parse_seed("12345");
}

namespace {

// Column sums of the rows `indices` picks, each column added in row order (as
// numpy's sum(0)). With the column count K known at compile time the running
// sums live in registers; the additions and their order are the same.
template <typename T, std::size_t K>
void sum_picked_rows_fixed(const T* matrix, std::span<const std::uint32_t> picks, std::span<T> sum) {
  std::array<T, K> acc{};
  for (const std::uint32_t row_index : picks) {
    const T* row = matrix + static_cast<std::size_t>(row_index) * K;
    for (std::size_t j = 0; j < K; ++j) acc[j] += row[j];
  }
  std::copy(acc.begin(), acc.end(), sum.begin());
}

template <typename T>
void sum_picked_rows(const T* matrix, std::size_t k, std::span<const std::uint32_t> picks, std::span<T> sum) {
  switch (k) {  // the statistics widths of BLEU, chrF, chrF++ and TER
    case 2: return sum_picked_rows_fixed<T, 2>(matrix, picks, sum);
    case 10: return sum_picked_rows_fixed<T, 10>(matrix, picks, sum);
    case 18: return sum_picked_rows_fixed<T, 18>(matrix, picks, sum);
    case 24: return sum_picked_rows_fixed<T, 24>(matrix, picks, sum);
    default: break;
  }
  std::fill(sum.begin(), sum.end(), T{0});
  for (const std::uint32_t row_index : picks) {
    const T* row = matrix + static_cast<std::size_t>(row_index) * k;
    for (std::size_t j = 0; j < k; ++j) sum[j] += row[j];
  }
}

// Scores resamples of one system's statistics, summed as `summation` says
// (the float32 copy SacreBLEU sums is made once, not per block).
class ResampleScorer {
 public:
  ResampleScorer(const StatsModel& metric, const StatMatrix& stats, Summation summation)
      : metric_(metric), stats_(stats), summation_(summation) {
    if (summation_ == Summation::float32_like_sacrebleu) float32_.assign(stats.values().begin(), stats.values().end());
  }
  // `indices` holds scores.size() resamples of rows() row numbers each.
  void score(std::span<const std::uint32_t> indices, std::span<double> scores) const {
    const std::size_t n = stats_.rows(), k = stats_.cols();
    if (summation_ == Summation::float32_like_sacrebleu) {
      // numpy: np.array(stats, dtype='float32')[idxs[r]].sum(0), summed in row order in float32.
      std::vector<float> sum(k);
      for (std::size_t r = 0; r < scores.size(); ++r) {
        sum_picked_rows<float>(float32_.data(), k, indices.subspan(r * n, n), sum);
        scores[r] = metric_.score_float32(sum);
      }
    } else {
      StatRow sum(k);
      for (std::size_t r = 0; r < scores.size(); ++r) {
        sum_picked_rows<double>(stats_.values().data(), k, indices.subspan(r * n, n), sum);
        scores[r] = metric_.score(sum);
      }
    }
  }

 private:
  const StatsModel& metric_;
  const StatMatrix& stats_;
  Summation summation_;
  std::vector<float> float32_;
};

// What a random stream starts from: a seed's words, or fresh entropy (kept
// so that several passes can draw the same unseeded stream).
using Entropy = std::vector<std::uint32_t>;
Entropy stream_entropy(const Seed& seed) { return seed.fixed() ? seed.words : fresh_entropy(); }

// One random stream's resamples, drawn a block of samples at a time in
// numpy's order (the row-major (samples, rows) matrix of choice() or
// integers(2)), so that about `block_bytes` of draws are held at once:
// 4-byte indices, or masks packed 8 segments a byte. A block has at most
// kMaxSamplesPerBlock samples (their per-sample sums stay small too).
class ResampleBlocks {
 public:
  static constexpr std::size_t kMaxSamplesPerBlock = 4096;

  ResampleBlocks(PairedTestKind kind, const Entropy& entropy, std::size_t rows, std::size_t samples,
                 std::size_t block_bytes)
      : kind_(kind),
        rng_(entropy),
        mask_draws_(rng_),
        rows_(rows),
        samples_(samples),
        per_block_(std::clamp<std::size_t>(block_bytes / std::max<std::size_t>(sample_bytes(kind, rows), 1), 1,
                                           kMaxSamplesPerBlock)) {}
  ResampleBlocks(const ResampleBlocks&) = delete;
  ResampleBlocks& operator=(const ResampleBlocks&) = delete;

  // Draws the next block; false once every sample has been drawn.
  bool next() {
    first_ += count_;
    if (first_ >= samples_) return false;
    count_ = std::min(per_block_, samples_ - first_);
    if (kind_ == PairedTestKind::bootstrap) {
      indices_.resize(count_ * rows_);
      draw_bootstrap_indices(rng_, rows_, indices_);
    } else {
      draw_packed_masks();
    }
    return true;
  }
  static std::size_t sample_bytes(PairedTestKind kind, std::size_t rows) {
    return kind == PairedTestKind::bootstrap ? rows * sizeof(std::uint32_t) : (rows + 7) / 8;
  }
  std::size_t first() const { return first_; }
  std::size_t count() const { return count_; }
  // Bootstrap: count() x rows row numbers.
  std::span<const std::uint32_t> indices() const { return indices_; }
  // AR: count() masks of mask_bytes(); bit b of byte i = segment 8*i+b takes the baseline's statistics.
  const std::uint8_t* packed_masks() const { return packed_.data(); }
  std::size_t mask_bytes() const { return (rows_ + 7) / 8; }

 private:
  void draw_packed_masks() {
    const std::size_t bytes = mask_bytes();
    packed_.assign(count_ * bytes, 0);
    mask_row_.resize(rows_);
    for (std::size_t t = 0; t < count_; ++t) {
      mask_draws_.draw(mask_row_);
      std::uint8_t* packed = packed_.data() + t * bytes;
      for (std::size_t i = 0; i < rows_; ++i) packed[i / 8] |= static_cast<std::uint8_t>(mask_row_[i] << (i % 8));
    }
  }

  PairedTestKind kind_;
  Pcg64 rng_;
  MaskDraws mask_draws_;  // draws from rng_
  std::size_t rows_, samples_, per_block_;
  std::size_t first_ = 0, count_ = 0;
  std::vector<std::uint32_t> indices_;
  std::vector<std::uint8_t> mask_row_, packed_;
};

// The bootstrap scores of every scorer on the resamples of one stream. With a
// pool, each block's resamples (drawn in order) are scored in pieces by its
// threads; every resample's score is its own, so the result is the same.
std::vector<std::vector<double>> stream_bootstrap_scores(const std::vector<const ResampleScorer*>& scorers,
                                                        const Entropy& entropy, std::size_t rows,
                                                        std::size_t samples, std::size_t block_bytes,
                                                        WorkerPool* pool = nullptr) {
  // No segments, no resample (estimate_ci then refuses the empty list).
  const std::size_t drawn = rows == 0 ? 0 : samples;
  std::vector<std::vector<double>> scores(scorers.size(), std::vector<double>(drawn));
  ResampleBlocks blocks(PairedTestKind::bootstrap, entropy, rows, drawn, block_bytes);
  constexpr std::size_t kSamplesPerTask = 8;
  while (blocks.next()) {
    const std::size_t tasks = pool == nullptr ? 1 : (blocks.count() + kSamplesPerTask - 1) / kSamplesPerTask;
    const std::size_t per_task = pool == nullptr ? blocks.count() : kSamplesPerTask;
    const auto score_piece = [&](std::size_t task) {
      const std::size_t first = task * per_task;
      const std::size_t count = std::min(per_task, blocks.count() - first);
      const auto indices = blocks.indices().subspan(first * rows, count * rows);
      for (std::size_t i = 0; i < scorers.size(); ++i) {
        scorers[i]->score(indices, std::span<double>(scores[i]).subspan(blocks.first() + first, count));
      }
    };
    if (pool == nullptr) {
      score_piece(0);
    } else {
      pool->for_each(tasks, score_piece);
    }
  }
  return scores;
}

}  // namespace

std::vector<double> bootstrap_scores(const StatsModel& metric, const StatMatrix& stats,
                                     std::span<const std::uint32_t> indices, Summation summation) {
  const std::size_t n = stats.rows();
  std::vector<double> scores(n == 0 ? 0 : indices.size() / n);
  ResampleScorer(metric, stats, summation).score(indices, scores);
  return scores;
}

Interval estimate_ci(std::vector<double> scores, MeanKind mean_kind) {
  if (scores.empty()) throw usage_error("a confidence interval needs at least one resample");
  Interval interval;
  // significance.py takes numpy's mean of the sorted scores (the order matters
  // to pairwise summation); statistics.mean is exact in any order.
  std::sort(scores.begin(), scores.end());
  interval.mean = mean_kind == MeanKind::exact ? exact_mean(scores) : numpy_mean(scores);
  const std::size_t n = scores.size();
  const std::size_t lower_index = n / 40;
  const std::size_t upper_index = n - lower_index - 1;
  interval.lower = scores[lower_index];
  interval.upper = scores[upper_index];
  interval.half_width = 0.5 * (interval.upper - interval.lower);
  return interval;
}

Interval bootstrap_confidence(const StatsModel& metric, const StatMatrix& stats, std::size_t samples,
                              const Seed& seed, std::size_t block_bytes, unsigned threads) {
  const ResampleScorer scorer(metric, stats, summation_for(metric));
  WorkerPool pool(threads);
  auto scores = stream_bootstrap_scores({&scorer}, stream_entropy(seed), stats.rows(), samples, block_bytes,
                                        pool.size() > 1 ? &pool : nullptr);
  return estimate_ci(std::move(scores.front()), MeanKind::exact);
}

double p_value(std::span<const double> samples, double observed, bool count_ties) {
  const auto count = std::count_if(samples.begin(), samples.end(),
                                   [&](double x) { return x > observed || (count_ties && x == observed); });
  return static_cast<double>(count + 1) / static_cast<double>(samples.size() + 1);
}

std::size_t PairedTestOptions::default_samples() const {
  if (samples > 0) return samples;
  return kind == PairedTestKind::bootstrap ? 1000 : 10000;
}

namespace {

// Approximate randomization of one system against the baseline: per trial,
// A = mask@base + (1-mask)@system and B the opposite; the trial's value is
// |score(A) - score(B)|.
class RandomizationTest {
 public:
  RandomizationTest(const StatsModel& metric, const StatMatrix& base, const StatMatrix& system)
      : metric_(metric), base_(base), system_(system), exact_(base.integral() && system.integral()) {
    if (exact_) {
      total_base_ = base.totals();
      total_system_ = system.totals();
    }
  }
  // The values of the trials whose masks `masks` (differences.size() masks
  // of (rows + 7) / 8 bytes) holds.
  void differences(const std::uint8_t* masks, std::span<double> differences) const {
    exact_ ? whole_number_differences(masks, differences) : fractional_differences(masks, differences);
  }

 private:
  // Whole-number statistics (numpy sums them as int64): every order is exact,
  // so A = total_system + sum over masked segments of (base - system) and
  // B = total_base - that sum. The sum is taken 8 segments at a time from a
  // table of the 256 subset sums of those 8 (built once per block of trials,
  // then used by every trial of the block while it is in the cache).
  void whole_number_differences(const std::uint8_t* masks, std::span<double> differences) const {
    const std::size_t k = base_.cols(), bytes = (base_.rows() + 7) / 8, trials = differences.size();
    std::vector<double> masked(trials * k, 0.0);  // per trial
    std::vector<double> table(256 * k);
    for (std::size_t block = 0; block < bytes; ++block) {
      fill_subset_table(block, table);
      for (std::size_t t = 0; t < trials; ++t) {
        const double* entry = table.data() + masks[t * bytes + block] * k;
        double* sum = masked.data() + t * k;
        for (std::size_t j = 0; j < k; ++j) sum[j] += entry[j];
      }
    }
    StatRow a(k), b(k);
    for (std::size_t t = 0; t < trials; ++t) {
      for (std::size_t j = 0; j < k; ++j) {
        a[j] = total_system_[j] + masked[t * k + j];
        b[j] = total_base_[j] - masked[t * k + j];
      }
      differences[t] = std::fabs(metric_.score(a) - metric_.score(b));
    }
  }

  // table[subset * k + j]: sum of (base - system)[j] over the segments of
  // `block` (segments 8*block .. 8*block+7) whose bits are set in subset.
  void fill_subset_table(std::size_t block, std::vector<double>& table) const {
    const std::size_t n = base_.rows(), k = base_.cols();
    std::fill(table.begin(), table.begin() + static_cast<std::ptrdiff_t>(k), 0.0);
    for (unsigned subset = 1; subset < 256; ++subset) {
      const std::size_t segment = block * 8 + static_cast<unsigned>(__builtin_ctz(subset));
      const double* previous = table.data() + (subset & (subset - 1)) * k;
      double* entry = table.data() + subset * k;
      for (std::size_t j = 0; j < k; ++j) {
        entry[j] = previous[j] + (segment < n ? base_.row(segment)[j] - system_.row(segment)[j] : 0.0);
      }
    }
  }

  // Fractional statistics: float64 sums in segment order (numpy's matmul may
  // use another order; see docs/statistics.md).
  void fractional_differences(const std::uint8_t* masks, std::span<double> differences) const {
    const std::size_t n = base_.rows(), k = base_.cols(), bytes = (n + 7) / 8;
    StatRow a(k), b(k), pos_base(k), neg_base(k), pos_system(k), neg_system(k);
    for (std::size_t t = 0; t < differences.size(); ++t) {
      for (auto* v : {&pos_base, &neg_base, &pos_system, &neg_system}) std::fill(v->begin(), v->end(), 0.0);
      const std::uint8_t* mask = masks + t * bytes;
      for (std::size_t i = 0; i < n; ++i) {
        const bool take_base = (mask[i / 8] >> (i % 8)) & 1U;
        add_stats(take_base ? pos_base : neg_base, base_.row(i));
        add_stats(take_base ? pos_system : neg_system, system_.row(i));
      }
      for (std::size_t j = 0; j < k; ++j) {
        a[j] = pos_base[j] + neg_system[j];
        b[j] = neg_base[j] + pos_system[j];
      }
      differences[t] = std::fabs(metric_.score(a) - metric_.score(b));
    }
  }

  const StatsModel& metric_;
  const StatMatrix& base_;
  const StatMatrix& system_;
  bool exact_;
  StatRow total_base_, total_system_;
};

// The AR values of one comparison, its masks drawn from a stream of its own.
std::vector<double> randomization_differences(const StatsModel& metric, const StatMatrix& base,
                                              const StatMatrix& system, const Entropy& entropy,
                                              const PairedTestOptions& options) {
  const RandomizationTest test(metric, base, system);
  std::vector<double> differences(options.default_samples());
  ResampleBlocks blocks(PairedTestKind::randomization, entropy, base.rows(), differences.size(), options.block_bytes);
  while (blocks.next()) {
    test.differences(blocks.packed_masks(), std::span<double>(differences).subspan(blocks.first(), blocks.count()));
  }
  return differences;
}

// The bootstrap part of one comparison: the system's interval and the p-value
// of its delta against the baseline's scores on the same resamples.
PairedResult bootstrap_comparison(double baseline_score, const std::vector<double>& base_scores,
                                  double system_score, std::vector<double> system_scores, bool count_ties) {
  PairedResult result;
  result.score = system_score;
  const double delta = std::fabs(baseline_score - system_score);
  std::vector<double> differences(system_scores.size());
  for (std::size_t r = 0; r < differences.size(); ++r) differences[r] = std::fabs(system_scores[r] - base_scores[r]);
  const Interval interval = estimate_ci(std::move(system_scores), MeanKind::numpy);
  result.mean = interval.mean;
  result.ci = interval.half_width;
  const double mean_difference = numpy_mean(differences);
  for (double& d : differences) d -= mean_difference;
  result.p_value = p_value(differences, delta, count_ties);
  return result;
}

unsigned worker_count(unsigned jobs, std::size_t tasks) {
  if (jobs == 0) {
    const unsigned half = std::max(1U, std::thread::hardware_concurrency() / 2);
    jobs = static_cast<unsigned>(std::min<std::size_t>(half, tasks));
  }
  return std::max(1U, static_cast<unsigned>(std::min<std::size_t>(jobs, std::max<std::size_t>(tasks, 1))));
}

}  // namespace

std::vector<std::vector<PairedResult>> run_paired_tests(
    const std::vector<const StatsModel*>& metrics, const std::vector<std::vector<StatMatrix>>& stats,
    const PairedTestOptions& options, const std::function<void(std::size_t, std::size_t)>& progress) {
  if (metrics.empty() || stats.size() != metrics.size()) throw Error(ExitCode::internal, "paired test: bad input");
  const std::size_t systems = stats[0].size();
  if (systems < 2) throw usage_error("paired tests need a baseline and at least one more system");
  const std::size_t rows = stats[0][0].rows();
  const std::size_t samples = options.default_samples();
  const bool bootstrap = options.kind == PairedTestKind::bootstrap;

  // SacreBLEU quirk: each comparison seeds with `seed if seed else None`, so
  // seed 0 means fresh entropy there (but not for the baseline's interval).
  // Seeded comparisons therefore all draw the baseline interval's resamples.
  const Seed comparison_seed = options.seed.fixed() && !options.seed.zero() ? options.seed : Seed{};
  const bool shared = comparison_seed.fixed();

  std::vector<std::vector<PairedResult>> results(metrics.size(), std::vector<PairedResult>(systems));
  std::vector<double> baseline_scores(metrics.size());
  std::vector<ResampleScorer> base_scorers;
  base_scorers.reserve(metrics.size());
  for (std::size_t m = 0; m < metrics.size(); ++m) {
    baseline_scores[m] = metrics[m]->score(stats[m][0].totals());
    results[m][0].score = baseline_scores[m];
    base_scorers.emplace_back(*metrics[m], stats[m][0], summation_for(*metrics[m]));
  }
  std::vector<std::vector<double>> shared_base_scores;  // [m], bootstrap with shared resamples
  if (bootstrap) {
    std::vector<const ResampleScorer*> base;
    for (const auto& scorer : base_scorers) base.push_back(&scorer);
    auto scores = stream_bootstrap_scores(base, stream_entropy(options.seed), rows, samples, options.block_bytes);
    for (std::size_t m = 0; m < metrics.size(); ++m) {
      const Interval interval = estimate_ci(scores[m], MeanKind::numpy);
      results[m][0].mean = interval.mean;
      results[m][0].ci = interval.half_width;
    }
    if (shared) shared_base_scores = std::move(scores);
  }

  // One comparison of system s with the baseline, for every metric, on one
  // stream as SacreBLEU's (seeded: the baseline interval's resamples again,
  // drawn anew so that memory stays at one block per worker).
  auto compare_system = [&](std::size_t s) {
    const Entropy entropy = stream_entropy(comparison_seed);
    if (!bootstrap) {  // each metric draws the system's masks anew: one subset table at a time
      for (std::size_t m = 0; m < metrics.size(); ++m) {
        const std::vector<double> differences =
            randomization_differences(*metrics[m], stats[m][0], stats[m][s], entropy, options);
        results[m][s].score = metrics[m]->score(stats[m][s].totals());
        results[m][s].p_value =
            p_value(differences, std::fabs(baseline_scores[m] - results[m][s].score), options.count_ties);
      }
      return;
    }
    std::vector<ResampleScorer> system_scorers;
    system_scorers.reserve(metrics.size());
    std::vector<const ResampleScorer*> scorers;  // the system's, then (own resamples) the baseline's
    for (std::size_t m = 0; m < metrics.size(); ++m) {
      system_scorers.emplace_back(*metrics[m], stats[m][s], summation_for(*metrics[m]));
      scorers.push_back(&system_scorers.back());
    }
    if (!shared) {
      for (const auto& scorer : base_scorers) scorers.push_back(&scorer);
    }
    auto scores = stream_bootstrap_scores(scorers, entropy, rows, samples, options.block_bytes);
    for (std::size_t m = 0; m < metrics.size(); ++m) {
      const std::vector<double>& base_scores = shared ? shared_base_scores[m] : scores[metrics.size() + m];
      results[m][s] = bootstrap_comparison(baseline_scores[m], base_scores, metrics[m]->score(stats[m][s].totals()),
                                           std::move(scores[m]), options.count_ties);
    }
  };

  // One task per system, as SacreBLEU's worker pool; each writes its own cells.
  const std::size_t tasks = systems - 1;
  std::atomic<std::size_t> next_task{0}, done{0};
  auto work = [&] {
    for (std::size_t task; (task = next_task.fetch_add(1)) < tasks;) {
      compare_system(task + 1);
      ++done;
    }
  };
  const unsigned workers = worker_count(options.jobs, tasks);
  std::vector<std::thread> threads;
  for (unsigned w = 1; w < workers; ++w) threads.emplace_back(work);
  if (progress && workers > 1) {
    while (done.load() < tasks) {
      progress(done.load(), tasks);
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
      if (next_task.load() >= tasks) break;
    }
  }
  work();
  for (auto& thread : threads) thread.join();
  if (progress) progress(tasks, tasks);
  return results;
}

}  // namespace evalcli::stats
