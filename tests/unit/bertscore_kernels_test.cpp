// GELU of the encoder versions against the exact function, x * erfc(-x / sqrt 2) / 2
// in double (src/metrics/bertscore/kernels.hpp).
#include <catch2/catch.hpp>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <span>
#include <vector>

#include "metrics/bertscore/kernels.hpp"

using namespace evalcli::bertscore;

namespace {

double exact_gelu(float x) { return 0.5 * x * std::erfc(-static_cast<double>(x) / std::sqrt(2.0)); }

// Every `stride`-th float (by its bits) from `from` to `to` (both positive).
std::vector<float> floats_between(float from, float to, std::uint32_t stride) {
  std::vector<float> values;
  const auto last = std::bit_cast<std::uint32_t>(to);
  for (auto bits = std::bit_cast<std::uint32_t>(from); bits <= last; bits += stride) values.push_back(std::bit_cast<float>(bits));
  return values;
}

std::vector<float> negated(std::vector<float> values) {
  for (float& v : values) v = -v;
  return values;
}

std::vector<float> joined(std::vector<float> a, const std::vector<float>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

// |result - exact| in units of the last place of the exact value rounded to float.
double ulps(float result, double exact) {
  const float rounded = std::abs(static_cast<float>(exact));
  const float spacing = std::nextafter(rounded, std::numeric_limits<float>::infinity()) - rounded;
  return std::abs(result - exact) / spacing;
}

// Whether this CPU runs the kernels' AVX2 build (without AVX2 only the
// baseline build runs: nothing to compare it with).
bool runs_avx2_build() {
  if (__builtin_cpu_supports("avx2")) return true;
  WARN("this CPU has no AVX2: only the baseline build runs here");
  return false;
}

}  // namespace

TEST_CASE("GELU v2 is within 7 ulp of the exact value for |x| <= 8", "[bertscore][gelu]") {
  const std::vector<float> positive = floats_between(1e-30f, 8.0f, 1021);  // about a million, every binade
  std::vector<float> xs = joined(joined(positive, negated(positive)), {0.0f, -0.0f});
  std::vector<float> ys = xs;
  gelu_erf_v2(ys);
  double worst = 0;
  float worst_x = 0;
  for (std::size_t i = 0; i < xs.size(); ++i) {
    const double error = ulps(ys[i], exact_gelu(xs[i]));
    if (error > worst) worst = error, worst_x = xs[i];
  }
  INFO("worst at x = " << worst_x << ": " << worst << " ulp");
  CHECK(worst <= 7.0);
}

TEST_CASE("GELU v1 is the exact value rounded to float for x >= -3", "[bertscore][gelu]") {
  // Below -3, v1's 1 + erf(x / sqrt 2) cancels: its relative error grows (absolute error stays below 1e-16).
  const std::vector<float> xs = joined(floats_between(1e-30f, 8.0f, 4099), negated(floats_between(1e-30f, 3.0f, 4099)));
  std::vector<float> ys = xs;
  gelu_erf_v1(ys);
  for (std::size_t i = 0; i < xs.size(); ++i) {
    INFO("x = " << xs[i]);
    REQUIRE(ulps(ys[i], exact_gelu(xs[i])) <= 1.0);
  }
}

TEST_CASE("GELU v2 beyond |x| = 8: accurate, then 0 (never subnormal), infinities and NaN as v1", "[bertscore][gelu]") {
  const std::vector<float> far_left = negated(floats_between(8.0f, 1e4f, 4099));
  std::vector<float> left = far_left;
  gelu_erf_v2(left);
  int zeros = 0;
  for (std::size_t i = 0; i < left.size(); ++i) {
    INFO("x = " << far_left[i]);
    const double exact = exact_gelu(far_left[i]);
    if (left[i] == 0.0f) {
      ++zeros;
      REQUIRE(std::abs(exact) < 1e-34);  // flushed only where the exact value is that small
    } else {
      REQUIRE(std::isnormal(left[i]));
      REQUIRE(ulps(left[i], exact) <= 7.0);
    }
  }
  CHECK(zeros > 0);

  const std::vector<float> far_right = floats_between(8.0f, 1e30f, 409999);
  std::vector<float> right = far_right;
  gelu_erf_v2(right);
  for (std::size_t i = 0; i < right.size(); ++i) REQUIRE(right[i] == far_right[i]);  // Phi(x) rounds to 1

  const float inf = std::numeric_limits<float>::infinity();
  std::vector<float> special = {inf, -inf, std::numeric_limits<float>::quiet_NaN()};
  std::vector<float> v1 = special;
  gelu_erf_v2(special);
  gelu_erf_v1(v1);
  CHECK(special[0] == inf);
  CHECK(v1[0] == inf);
  CHECK(std::isnan(special[1]) == std::isnan(v1[1]));
  CHECK(std::isnan(special[2]));
}

TEST_CASE("GELU v2 gives the same bits with and without AVX2", "[bertscore][gelu]") {
  if (!runs_avx2_build()) return;
  const std::vector<float> positive = floats_between(1e-30f, 20.0f, 997);
  std::vector<float> dispatched = joined(positive, negated(positive));
  std::vector<float> baseline = dispatched;
  gelu_erf_v2(dispatched);
  detail::gelu_erf_v2_baseline(baseline);
  CHECK(std::memcmp(dispatched.data(), baseline.data(), dispatched.size() * sizeof(float)) == 0);
}

TEST_CASE("GELU v2 of a span of any length: the vector body and the scalar tail agree", "[bertscore][gelu]") {
  const std::vector<float> positive = floats_between(0.01f, 4.0f, 1000003);
  const std::vector<float> xs = joined(positive, negated(positive));
  REQUIRE(xs.size() >= 37);
  for (std::size_t n = 0; n <= 37; ++n) {
    std::vector<float> part(xs.begin(), xs.begin() + static_cast<std::ptrdiff_t>(n));
    std::vector<float> one_by_one = part;
    gelu_erf_v2(part);
    for (float& v : one_by_one) gelu_erf_v2(std::span<float>(&v, 1));
    REQUIRE(part.size() == one_by_one.size());
    if (!part.empty()) REQUIRE(std::memcmp(part.data(), one_by_one.data(), part.size() * sizeof(float)) == 0);
  }
}

namespace {

// Rows of `width` values of a hidden state's size and spread (mean off 0, some large entries).
std::vector<float> hidden_rows(int rows, int width, std::uint32_t seed) {
  std::vector<float> values(static_cast<std::size_t>(rows) * width);
  std::uint32_t state = seed;
  for (float& v : values) {
    state = state * 1664525u + 1013904223u;  // a linear congruential generator: the same rows everywhere
    const float uniform = static_cast<float>(state >> 8) / static_cast<float>(1u << 24);
    v = 0.3f + 2.0f * (uniform - 0.5f) + ((state & 0xffu) == 0 ? 20.0f : 0.0f);
  }
  return values;
}

struct NormParameters {
  std::vector<float> gamma, beta;
  explicit NormParameters(int width) {
    for (int i = 0; i < width; ++i) {
      gamma.push_back(1.0f + 0.01f * static_cast<float>(i % 13));
      beta.push_back(-0.05f * static_cast<float>(i % 7));
    }
  }
  LayerNormWeights weights() const { return {gamma, beta, 1e-12}; }
};

// (v - mean) / sqrt(variance + eps) * gamma + beta with the moments in long double.
std::vector<double> exact_layer_norm(const std::vector<float>& rows, int width, const NormParameters& norm) {
  std::vector<double> out;
  for (std::size_t start = 0; start < rows.size(); start += static_cast<std::size_t>(width)) {
    long double mean = 0, variance = 0;
    for (int i = 0; i < width; ++i) mean += rows[start + i];
    mean /= width;
    for (int i = 0; i < width; ++i) variance += (rows[start + i] - mean) * (rows[start + i] - mean);
    variance /= width;
    for (int i = 0; i < width; ++i) {
      out.push_back(static_cast<double>((rows[start + i] - mean) / std::sqrt(variance + 1e-12L) * norm.gamma[i] + norm.beta[i]));
    }
  }
  return out;
}

}  // namespace

TEST_CASE("LayerNorm v1 and v2 are within an ulp of the exact value, for widths with and without a partial lane", "[bertscore][layernorm]") {
  for (const int width : {32, 37, 768, 1024}) {
    INFO("width " << width);
    const std::vector<float> input = hidden_rows(20, width, 7u + static_cast<std::uint32_t>(width));
    const NormParameters norm(width);
    const std::vector<double> exact = exact_layer_norm(input, width, norm);
    std::vector<float> v1 = input, v2 = input;
    layer_norm_v1(v1, width, norm.weights());
    layer_norm_v2(v2, width, norm.weights());
    double worst_v1 = 0, worst_v2 = 0;
    for (std::size_t i = 0; i < input.size(); ++i) {
      worst_v1 = std::max(worst_v1, ulps(v1[i], exact[i]));
      worst_v2 = std::max(worst_v2, ulps(v2[i], exact[i]));
    }
    CHECK(worst_v1 <= 1.0);
    CHECK(worst_v2 <= 1.0);
  }
}

TEST_CASE("LayerNorm v2 gives the same bits with and without AVX2", "[bertscore][layernorm]") {
  if (!runs_avx2_build()) return;
  for (const int width : {37, 768}) {
    const NormParameters norm(width);
    std::vector<float> dispatched = hidden_rows(50, width, 11u), baseline = dispatched;
    layer_norm_v2(dispatched, width, norm.weights());
    detail::layer_norm_v2_baseline(baseline, width, norm.weights());
    CHECK(std::memcmp(dispatched.data(), baseline.data(), dispatched.size() * sizeof(float)) == 0);
  }
}

namespace {

// Rows of attention scores: spread over tens, some rows with one dominant score.
std::vector<float> score_rows(int rows, int width) {
  std::vector<float> values = hidden_rows(rows, width, 99u);
  for (float& v : values) v *= 6.0f;
  return values;
}

}  // namespace

TEST_CASE("softmax v1 is within 2 ulp of the exact value, v2 within 3 (its exp adds an ulp)", "[bertscore][softmax]") {
  for (const int width : {1, 5, 9, 37, 128}) {
    INFO("width " << width);
    const std::vector<float> input = score_rows(30, width);
    std::vector<float> v1 = input, v2 = input;
    softmax_rows_v1(v1, width);
    softmax_rows_v2(v2, width);
    double worst_v1 = 0, worst_v2 = 0;
    for (std::size_t start = 0; start < input.size(); start += static_cast<std::size_t>(width)) {
      const float top = *std::max_element(input.begin() + start, input.begin() + start + width);
      // Both versions shift the scores in float (as torch does): the exact value of that.
      const auto shifted = [&](int j) { return static_cast<long double>(input[start + j] - top); };
      long double sum = 0;
      for (int j = 0; j < width; ++j) sum += std::exp(shifted(j));
      for (int j = 0; j < width; ++j) {
        const double exact = static_cast<double>(std::exp(shifted(j)) / sum);
        if (exact < 1e-30) continue;  // v2 flushes below e^-80
        worst_v1 = std::max(worst_v1, ulps(v1[start + j], exact));
        worst_v2 = std::max(worst_v2, ulps(v2[start + j], exact));
      }
    }
    CHECK(worst_v1 <= 2.0);
    CHECK(worst_v2 <= 3.0);
  }
}

TEST_CASE("softmax v2 gives the same bits with and without AVX2", "[bertscore][softmax]") {
  if (!runs_avx2_build()) return;
  std::vector<float> dispatched = score_rows(40, 37), baseline = dispatched;
  softmax_rows_v2(dispatched, 37);
  detail::softmax_rows_v2_baseline(baseline, 37);
  CHECK(std::memcmp(dispatched.data(), baseline.data(), dispatched.size() * sizeof(float)) == 0);
}
