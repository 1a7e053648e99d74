// rouge-score's BootstrapAggregator bit for bit (shared/specs/rouge.md section 1):
// one numpy RandomState(seed) stream across the types in order,
// np.random.choice(n, n) per sample, np.mean(axis=0), numpy 1.24 percentiles.
// Resampling is nearly all of --bootstrap's cost (1000 samples x n pairs x
// types draws), so the stream is made in blocks, drawn without branches on the
// random values and summed for 8 samples at once (docs/rouge.md, "Conformance
// and speed").
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

#include "evalcli/core/detail/target_clones.hpp"
#include "evalcli/core/error.hpp"
#include "evalcli/metrics/rouge.hpp"

namespace evalcli {
namespace {

constexpr int kWords = 624;  // MT19937's state, and one block of its output

#if EVALCLI_TARGET_CLONES
// Rejection sampling 8 words at a time: the used words (word & mask < n) are
// moved to the front by one AVX2 lane permutation, picked from a table by the
// 8-bit mask of used lanes; all 8 lanes are stored, and the number of used ones
// advances the output.
struct PackTable {
  alignas(32) std::uint32_t lanes[256][8];
  PackTable() {
    for (int used = 0; used < 256; ++used) {
      int j = 0;
      for (int lane = 0; lane < 8; ++lane) {
        if ((used >> lane) & 1) lanes[used][j++] = static_cast<std::uint32_t>(lane);
      }
      for (; j < 8; ++j) lanes[used][j] = 0;
    }
  }
};
const PackTable kPackTable;
bool have_avx2() {
  static const bool yes = (__builtin_cpu_init(), __builtin_cpu_supports("avx2"));
  return yes;
}

// Packs the words of one block from `position` on, 8 at a time, while 8 more
// indices are wanted (nothing is written past `count`); returns the new k.
__attribute__((target("avx2"))) std::size_t pack_words(const std::uint32_t* words, int& position, std::uint32_t mask,
                                                       std::uint32_t n, std::uint32_t* out, std::size_t k,
                                                       std::size_t count) {
  const __m256i masks = _mm256_set1_epi32(static_cast<int>(mask));
  const __m256i largest = _mm256_set1_epi32(static_cast<int>(n - 1));
  for (; position + 8 <= kWords && count - k >= 8; position += 8) {
    const __m256i v = _mm256_and_si256(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(words + position)), masks);
    const __m256i used = _mm256_cmpeq_epi32(_mm256_min_epu32(v, largest), v);
    const auto lanes = static_cast<unsigned>(_mm256_movemask_ps(_mm256_castsi256_ps(used)));
    const __m256i order = _mm256_load_si256(reinterpret_cast<const __m256i*>(kPackTable.lanes[lanes]));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + k), _mm256_permutevar8x32_epi32(v, order));
    k += static_cast<std::size_t>(__builtin_popcount(lanes));
  }
  return k;
}
#endif

std::uint32_t twist(std::uint32_t current, std::uint32_t next, std::uint32_t far) {
  const std::uint32_t y = (current & 0x80000000u) | (next & 0x7fffffffu);
  return far ^ (y >> 1) ^ ((0u - (y & 1u)) & 0x9908b0dfu);
}

// MT19937's next state and its 624 tempered outputs.
// Compiled for AVX2 and for the baseline, picked at load (core/detail/target_clones.hpp).
EVALCLI_CLONES_FOR_AVX2 void next_block(std::uint32_t* s, std::uint32_t* words) {
  constexpr int m = 397;
  for (int i = 0; i < kWords - m; ++i) s[i] = twist(s[i], s[i + 1], s[i + m]);
  for (int i = kWords - m; i < kWords - 1; ++i) s[i] = twist(s[i], s[i + 1], s[i + m - kWords]);
  s[kWords - 1] = twist(s[kWords - 1], s[0], s[m - 1]);
  for (int i = 0; i < kWords; ++i) {
    std::uint32_t y = s[i];
    y ^= y >> 11;
    y ^= (y << 7) & 0x9d2c5680u;
    y ^= (y << 15) & 0xefc60000u;
    y ^= y >> 18;
    words[i] = y;
  }
}

// MT19937 (Matsumoto & Nishimura 1998) as numpy's RandomState(seed)
// (init_genrand(seed)), 624 outputs at a time: its twist and tempering are
// plain loops over arrays that the compiler vectorizes; std::mt19937, which
// tempers one 64-bit word per call, cost 10x more here.
class MtStream {
 public:
  explicit MtStream(std::uint32_t seed) {
    state_[0] = seed;
    for (int i = 1; i < kWords; ++i) {
      state_[i] = 1812433253u * (state_[i - 1] ^ (state_[i - 1] >> 30)) + static_cast<std::uint32_t>(i);
    }
  }

  // np.random.choice(n, n)'s next `count` indices: masked rejection sampling
  // on the 32-bit words (a word is used when word & mask < n). Each word is
  // stored and kept or overwritten by the next, not branched on.
  void draw_indices(std::uint32_t n, std::uint32_t* out, std::size_t count) {
    if (n == 1) {  // numpy draws nothing for a single choice
      std::fill(out, out + count, 0u);
      return;
    }
    std::uint32_t mask = 0;
    while (mask < n - 1) mask = (mask << 1) | 1;
#if EVALCLI_TARGET_CLONES
    const bool avx2 = have_avx2();
#endif
    std::size_t k = 0;
    while (k < count) {
      if (position_ == kWords) refill();
#if EVALCLI_TARGET_CLONES
      if (avx2) {
        k = pack_words(words_.data(), position_, mask, n, out, k, count);
        if (position_ == kWords) continue;
      }
#endif
      const std::size_t left = static_cast<std::size_t>(kWords - position_);
      if (count - k >= left) {
        // Even if every word is used, the rest of the block fits: no bound check.
        for (int i = position_; i < kWords; ++i) {
          const std::uint32_t v = words_[i] & mask;
          out[k] = v;
          k += v < n;
        }
        position_ = kWords;
      } else {
        for (; position_ < kWords && k < count; ++position_) {
          const std::uint32_t v = words_[position_] & mask;
          out[k] = v;
          k += v < n;
        }
      }
    }
  }

 private:
  void refill() {
    next_block(state_.data(), words_.data());
    position_ = 0;
  }

  alignas(64) std::array<std::uint32_t, kWords> state_{};
  alignas(64) std::array<std::uint32_t, kWords> words_{};
  int position_ = kWords;  // next unused word of words_
};

// One pair's precision, recall, fmeasure (and a 0) as one vector: a sample's
// three sums are one vector addition per index, lane by lane the same IEEE
// additions as three scalar sums.
typedef double Row __attribute__((vector_size(32)));
constexpr int kBatch = 8;  // samples summed together, so their additions overlap

// Sums of kBatch samples (sample b's indices at indices[b * n ...]), each in
// index order as numpy's np.mean(sample, axis=0) adds them.
EVALCLI_CLONES_FOR_AVX2 void sum_batch(const Row* rows, const std::uint32_t* indices, std::size_t n, Row* sums) {
  Row s[kBatch] = {};
  for (std::size_t k = 0; k < n; ++k) {
    for (int b = 0; b < kBatch; ++b) s[b] += rows[indices[b * n + k]];
  }
  for (int b = 0; b < kBatch; ++b) sums[b] = s[b];
}

void sum_one(const Row* rows, const std::uint32_t* indices, std::size_t n, Row* sum) {
  Row s = {};
  for (std::size_t k = 0; k < n; ++k) s += rows[indices[k]];
  *sum = s;
}

// numpy 1.24 percentile, method "linear", on sorted values.
double numpy_percentile(const std::vector<double>& sorted, double q) {
  const double x = q / 100.0;
  const double v = static_cast<double>(sorted.size() - 1) * x;
  const double lo_index = std::floor(v);
  const std::size_t lo = static_cast<std::size_t>(lo_index);
  const std::size_t hi = std::min(lo + 1, sorted.size() - 1);
  const double t = v - lo_index;
  const double diff = sorted[hi] - sorted[lo];
  return t < 0.5 ? sorted[lo] + diff * t : sorted[hi] - diff * (1 - t);
}

// The n_samples bootstrap means of one type, per column (P, R, F).
std::array<std::vector<double>, 3> sample_means(const std::vector<PRF>& pairs, MtStream& stream, int n_samples) {
  const std::size_t n = pairs.size();
  std::vector<Row> rows(n);
  for (std::size_t i = 0; i < n; ++i) rows[i] = Row{pairs[i].precision, pairs[i].recall, pairs[i].fmeasure, 0.0};
  std::vector<std::uint32_t> indices(kBatch * n);
  std::array<std::vector<double>, 3> means;
  for (auto& column : means) column.reserve(static_cast<std::size_t>(n_samples));
  auto keep = [&](const Row& sum) {
    for (int c = 0; c < 3; ++c) means[static_cast<std::size_t>(c)].push_back(sum[c] / static_cast<double>(n));
  };
  int done = 0;
  for (; done + kBatch <= n_samples; done += kBatch) {
    stream.draw_indices(static_cast<std::uint32_t>(n), indices.data(), kBatch * n);
    Row sums[kBatch];
    sum_batch(rows.data(), indices.data(), n, sums);
    for (const Row& sum : sums) keep(sum);
  }
  for (; done < n_samples; ++done) {
    stream.draw_indices(static_cast<std::uint32_t>(n), indices.data(), n);
    Row sum;
    sum_one(rows.data(), indices.data(), n, &sum);
    keep(sum);
  }
  return means;
}

}  // namespace

std::vector<RougeInterval> rouge_score_bootstrap(const std::vector<std::vector<PRF>>& rows_by_type, unsigned seed,
                                                 int n_samples, double confidence) {
  MtStream stream(seed);
  const double d = (1 - confidence) / 2;
  const double quantiles[3] = {100 * d, 100 * 0.5, 100 * (1 - d)};
  std::vector<RougeInterval> out;
  for (const auto& rows : rows_by_type) {
    if (rows.empty()) throw input_error("bootstrap needs at least one pair");
    if (rows.size() > std::numeric_limits<std::uint32_t>::max()) {
      throw input_error("bootstrap: more than 2^32 pairs (numpy would draw 64-bit words)");
    }
    auto means = sample_means(rows, stream, n_samples);
    double bounds[3][3];  // [quantile][column]
    for (int c = 0; c < 3; ++c) {
      auto& column = means[static_cast<std::size_t>(c)];
      std::sort(column.begin(), column.end());
      for (int q = 0; q < 3; ++q) bounds[q][c] = numpy_percentile(column, quantiles[q]);
    }
    auto prf = [&](int q) { return PRF{bounds[q][0], bounds[q][1], bounds[q][2]}; };
    out.push_back({prf(0), prf(1), prf(2)});
  }
  return out;
}

}  // namespace evalcli
