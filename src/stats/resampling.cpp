#include "evalcli/stats/resampling.hpp"

#include <fmt/format.h>

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

Seed parse_seed(const std::string& text, std::string_view source) {
  std::string lowered = text;
  std::transform(lowered.begin(), lowered.end(), lowered.begin(), [](unsigned char c) { return std::tolower(c); });
  if (lowered == "none") return {std::nullopt, lowered};
  // Python's int(): surrounding whitespace and a leading '+' are accepted.
  const std::size_t start = lowered.find_first_not_of(" \t\n");
  const std::size_t end = lowered.find_last_not_of(" \t\n");
  const std::string_view digits =
      start == std::string::npos ? std::string_view() : std::string_view(lowered).substr(start, end - start + 1);
  std::uint64_t value = 0;
  if (parse_integer(digits, value) != NumberProblem::ok) {
    throw usage_error(fmt::format("{}: seed '{}' is not a whole number from 0 to {} or 'none'", source, text,
                                  std::numeric_limits<std::uint64_t>::max()));
  }
  return {value, lowered};
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

}  // namespace

std::vector<double> bootstrap_scores(const StatsModel& metric, const StatMatrix& stats,
                                     std::span<const std::uint32_t> indices, Summation summation) {
  const std::size_t n = stats.rows(), k = stats.cols();
  const std::size_t samples = n == 0 ? 0 : indices.size() / n;
  std::vector<double> scores(samples);
  if (summation == Summation::float32_like_sacrebleu) {
    // numpy: np.array(stats, dtype='float32')[idxs[r]].sum(0), summed in row order in float32.
    const std::vector<float> matrix(stats.values().begin(), stats.values().end());
    std::vector<float> sum(k);
    for (std::size_t r = 0; r < samples; ++r) {
      sum_picked_rows<float>(matrix.data(), k, indices.subspan(r * n, n), sum);
      scores[r] = metric.score_float32(sum);
    }
  } else {
    StatRow sum(k);
    for (std::size_t r = 0; r < samples; ++r) {
      sum_picked_rows<double>(stats.values().data(), k, indices.subspan(r * n, n), sum);
      scores[r] = metric.score(sum);
    }
  }
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
                              const Seed& seed) {
  Pcg64 rng(seed.value);
  const auto indices = bootstrap_indices(rng, samples, stats.rows());
  return estimate_ci(bootstrap_scores(metric, stats, indices, summation_for(metric)), MeanKind::exact);
}

double p_value(std::span<const double> samples, double observed) {
  const auto count = std::count_if(samples.begin(), samples.end(), [&](double x) { return x > observed; });
  return static_cast<double>(count + 1) / static_cast<double>(samples.size() + 1);
}

std::size_t PairedTestOptions::default_samples() const {
  if (samples > 0) return samples;
  return kind == PairedTestKind::bootstrap ? 1000 : 10000;
}

namespace {

// The random draws of one comparison. SacreBLEU seeds a fresh generator per
// system with the same seed, so seeded runs share one set of draws.
struct Draws {
  std::vector<std::uint32_t> indices;      // bootstrap: samples x rows
  std::vector<std::uint8_t> packed_masks;  // AR: samples x ceil(rows/8), bit b of byte = segment 8*byte+b
};

Draws make_draws(const PairedTestOptions& options, std::optional<std::uint64_t> seed, std::size_t rows) {
  Pcg64 rng(seed);
  Draws draws;
  const std::size_t samples = options.default_samples();
  if (options.kind == PairedTestKind::bootstrap) {
    draws.indices = bootstrap_indices(rng, samples, rows);
  } else {
    const auto masks = randomization_masks(rng, samples, rows);
    const std::size_t bytes = (rows + 7) / 8;
    draws.packed_masks.assign(samples * bytes, 0);
    for (std::size_t t = 0; t < samples; ++t) {
      for (std::size_t i = 0; i < rows; ++i) {
        if (masks[t * rows + i]) draws.packed_masks[t * bytes + i / 8] |= static_cast<std::uint8_t>(1U << (i % 8));
      }
    }
  }
  return draws;
}

// Per trial: A = mask@base + (1-mask)@system and B the opposite; returns |score(A) - score(B)|.
std::vector<double> randomization_differences(const StatsModel& metric, const StatMatrix& base,
                                              const StatMatrix& system, const Draws& draws,
                                              std::size_t trials) {
  const std::size_t n = base.rows(), k = base.cols(), bytes = (n + 7) / 8;
  std::vector<double> differences(trials);
  StatRow a(k), b(k);
  if (base.integral() && system.integral()) {
    // Whole-number statistics (numpy sums them as int64): every order is exact,
    // so A = total_system + sum over masked segments of (base - system), taken
    // from per-byte tables of subset sums, and B = total_base - that sum.
    const StatRow total_base = base.totals(), total_system = system.totals();
    std::vector<double> table(bytes * 256 * k, 0.0);
    for (std::size_t block = 0; block < bytes; ++block) {
      double* block_table = table.data() + block * 256 * k;
      for (unsigned subset = 1; subset < 256; ++subset) {
        const unsigned low = static_cast<unsigned>(__builtin_ctz(subset));
        const std::size_t segment = block * 8 + low;
        const double* previous = block_table + (subset & (subset - 1)) * k;
        double* entry = block_table + subset * k;
        for (std::size_t j = 0; j < k; ++j) {
          entry[j] = previous[j] + (segment < n ? base.row(segment)[j] - system.row(segment)[j] : 0.0);
        }
      }
    }
    StatRow masked(k);
    for (std::size_t t = 0; t < trials; ++t) {
      std::fill(masked.begin(), masked.end(), 0.0);
      const std::uint8_t* mask = draws.packed_masks.data() + t * bytes;
      for (std::size_t block = 0; block < bytes; ++block) {
        const double* entry = table.data() + (block * 256 + mask[block]) * k;
        for (std::size_t j = 0; j < k; ++j) masked[j] += entry[j];
      }
      for (std::size_t j = 0; j < k; ++j) {
        a[j] = total_system[j] + masked[j];
        b[j] = total_base[j] - masked[j];
      }
      differences[t] = std::fabs(metric.score(a) - metric.score(b));
    }
    return differences;
  }
  // Fractional statistics: float64 sums in segment order (numpy's matmul may
  // use another order; see docs/statistics.md).
  StatRow pos_base(k), neg_base(k), pos_system(k), neg_system(k);
  for (std::size_t t = 0; t < trials; ++t) {
    for (auto* v : {&pos_base, &neg_base, &pos_system, &neg_system}) std::fill(v->begin(), v->end(), 0.0);
    const std::uint8_t* mask = draws.packed_masks.data() + t * bytes;
    for (std::size_t i = 0; i < n; ++i) {
      const bool take_base = (mask[i / 8] >> (i % 8)) & 1U;
      add_stats(take_base ? pos_base : neg_base, base.row(i));
      add_stats(take_base ? pos_system : neg_system, system.row(i));
    }
    for (std::size_t j = 0; j < k; ++j) {
      a[j] = pos_base[j] + neg_system[j];
      b[j] = neg_base[j] + pos_system[j];
    }
    differences[t] = std::fabs(metric.score(a) - metric.score(b));
  }
  return differences;
}

struct MetricBaseline {
  double score = 0;
  std::vector<double> shared_scores;  // bootstrap scores on the shared draws (seeded runs)
};

PairedResult compare(const StatsModel& metric, const StatMatrix& base, const MetricBaseline& baseline,
                     const StatMatrix& system, const Draws& draws, bool shared, const PairedTestOptions& options) {
  PairedResult result;
  result.score = metric.score(system.totals());
  const double delta = std::fabs(baseline.score - result.score);
  const std::size_t samples = options.default_samples();
  if (options.kind == PairedTestKind::bootstrap) {
    const Summation summation = summation_for(metric);
    const std::vector<double> base_scores =
        shared ? baseline.shared_scores : bootstrap_scores(metric, base, draws.indices, summation);
    const std::vector<double> system_scores = bootstrap_scores(metric, system, draws.indices, summation);
    const Interval interval = estimate_ci(system_scores, MeanKind::numpy);
    result.mean = interval.mean;
    result.ci = interval.half_width;
    std::vector<double> differences(samples);
    for (std::size_t r = 0; r < samples; ++r) differences[r] = std::fabs(system_scores[r] - base_scores[r]);
    const double mean_difference = numpy_mean(differences);
    for (double& d : differences) d -= mean_difference;
    result.p_value = p_value(differences, delta);
  } else {
    result.p_value = p_value(randomization_differences(metric, base, system, draws, samples), delta);
  }
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

  // SacreBLEU quirk: each comparison seeds with `seed if seed else None`, so
  // seed 0 means fresh entropy there (but not for the baseline's interval).
  const std::optional<std::uint64_t> comparison_seed =
      options.seed.value && *options.seed.value != 0 ? options.seed.value : std::nullopt;
  const bool shared = comparison_seed.has_value();

  std::vector<std::vector<PairedResult>> results(metrics.size(), std::vector<PairedResult>(systems));
  std::vector<MetricBaseline> baselines(metrics.size());
  Draws shared_draws;
  if (shared) shared_draws = make_draws(options, comparison_seed, rows);
  std::vector<std::uint32_t> baseline_indices;
  if (options.kind == PairedTestKind::bootstrap) {
    Pcg64 rng(options.seed.value);
    baseline_indices = bootstrap_indices(rng, samples, rows);
  }
  for (std::size_t m = 0; m < metrics.size(); ++m) {
    const StatsModel& metric = *metrics[m];
    baselines[m].score = metric.score(stats[m][0].totals());
    results[m][0].score = baselines[m].score;
    if (options.kind == PairedTestKind::bootstrap) {
      auto scores = bootstrap_scores(metric, stats[m][0], baseline_indices, summation_for(metric));
      const Interval interval = estimate_ci(scores, MeanKind::numpy);
      results[m][0].mean = interval.mean;
      results[m][0].ci = interval.half_width;
      if (shared) {
        baselines[m].shared_scores = comparison_seed == options.seed.value
                                         ? std::move(scores)
                                         : bootstrap_scores(metric, stats[m][0], shared_draws.indices,
                                                            summation_for(metric));
      }
    }
  }

  // One task per system, as SacreBLEU's worker pool; each writes its own cells.
  const std::size_t tasks = systems - 1;
  std::atomic<std::size_t> next_task{0}, done{0};
  auto work = [&] {
    for (std::size_t task; (task = next_task.fetch_add(1)) < tasks;) {
      const std::size_t s = task + 1;
      const Draws own_draws = shared ? Draws{} : make_draws(options, comparison_seed, rows);
      const Draws& draws = shared ? shared_draws : own_draws;
      for (std::size_t m = 0; m < metrics.size(); ++m) {
        results[m][s] = compare(*metrics[m], stats[m][0], baselines[m], stats[m][s], draws, shared, options);
      }
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
