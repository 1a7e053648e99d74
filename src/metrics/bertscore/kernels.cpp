#include "metrics/bertscore/kernels.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>

namespace evalcli::bertscore {

namespace {

// One row's (v - mean) * scale * gamma + beta, in double.
[[gnu::always_inline]] inline void normalise_row(float* v, int width, double mean, double variance,
                                                 const LayerNormWeights& weights) {
  const double scale = 1.0 / std::sqrt(variance + weights.eps);
  for (int i = 0; i < width; ++i) {
    v[i] = static_cast<float>((v[i] - mean) * scale * weights.gamma[i] + weights.beta[i]);
  }
}

constexpr int kLanes = 8;

// Sum of f(v[i]) in kLanes interleaved partial sums, added pairwise at the end.
template <class F>
[[gnu::always_inline]] inline double interleaved_sum(const float* v, int width, F f) {
  double lanes[kLanes] = {};
  int i = 0;
  for (; i + kLanes <= width; i += kLanes) {
    for (int j = 0; j < kLanes; ++j) lanes[j] += f(v[i + j]);
  }
  for (int j = 0; i < width; ++i, ++j) lanes[j] += f(v[i]);
  return ((lanes[0] + lanes[1]) + (lanes[2] + lanes[3])) + ((lanes[4] + lanes[5]) + (lanes[6] + lanes[7]));
}

[[gnu::always_inline]] inline void layer_norm_v2_rows(std::span<float> rows, int width, const LayerNormWeights& weights) {
  for (std::size_t start = 0; start + width <= rows.size(); start += width) {
    float* v = rows.data() + start;
    const double mean = interleaved_sum(v, width, [](float x) { return static_cast<double>(x); }) / width;
    const double variance =
        interleaved_sum(v, width, [mean](float x) { return (x - mean) * (x - mean); }) / width;
    normalise_row(v, width, mean, variance, weights);
  }
}

}  // namespace

void layer_norm_v1(std::span<float> rows, int width, const LayerNormWeights& weights) {
  for (std::size_t start = 0; start + width <= rows.size(); start += width) {
    float* v = rows.data() + start;
    double mean = 0;
    for (int i = 0; i < width; ++i) mean += v[i];
    mean /= width;
    double variance = 0;
    for (int i = 0; i < width; ++i) variance += (v[i] - mean) * (v[i] - mean);
    variance /= width;
    normalise_row(v, width, mean, variance, weights);
  }
}

void gelu_erf_v1(std::span<float> values) {
  for (float& v : values) v = static_cast<float>(0.5 * v * (1.0 + std::erf(v / std::sqrt(2.0))));
}

namespace {

// P(u), u = (t - 7/12) * 12/5 in [-1, 1] for t in [1/6, 1] (z in [0, 10]): a
// weighted least-squares fit of log(erfc(z) / t) + z*z on Chebyshev nodes
// (degree 9, largest error 4.5e-8; in u rather than t, whose coefficients
// alternate in sign and lose bits in float). Lowest degree first.
constexpr float kErfcExponent[] = {-5.585954189e-01f, 5.703070760e-01f,  1.574721746e-02f,  -2.946988493e-02f,
                                   -1.062959665e-03f, 3.705797717e-03f,  -2.266871306e-04f, -5.320301862e-04f,
                                   7.309235662e-05f,  5.382485688e-05f};

// Polynomials by Estrin's scheme: pairs, then pairs of pairs, so the chain of
// dependent multiplications is 4 long instead of Horner's 9 (the loop is
// bound by that latency, not by the number of operations).
[[gnu::always_inline]] inline float erfc_exponent(float u) {
  const float* c = kErfcExponent;
  const float u2 = u * u, u4 = u2 * u2, u8 = u4 * u4;
  const float c01 = c[0] + c[1] * u, c23 = c[2] + c[3] * u, c45 = c[4] + c[5] * u, c67 = c[6] + c[7] * u,
              c89 = c[8] + c[9] * u;
  const float c03 = c01 + c23 * u2, c47 = c45 + c67 * u2;
  return (c03 + c47 * u4) + c89 * u8;
}

// exp(r) for |r| <= ln 2 / 2 by its Taylor series to r^7 (error 5e-9), by Estrin's scheme.
[[gnu::always_inline]] inline float exp_near_zero(float r) {
  const float r2 = r * r, r4 = r2 * r2;
  const float e01 = 1.0f + r, e23 = 0.5f + r * (1.0f / 6), e45 = 1.0f / 24 + r * (1.0f / 120),
              e67 = 1.0f / 720 + r * (1.0f / 5040);
  return (e01 + e23 * r2) + (e45 + e67 * r2) * r4;
}

// exp(-square + rest) for square >= 0 and |rest| small, 0 when the exponent
// is below -80 (or NaN). `square` is exact and enters the reduction
// alone: rounding -square + rest to one float would cost up to 4e-6 of
// relative error at square = 80.
// ln 2 in two parts (Cody and Waite): k * kLn2High is exact for |k| < 2^8.
constexpr float kLn2High = 0.693145751953125f, kLn2Low = 1.42860677e-06f;

// round(exponent / ln 2), exponent in [-80, 0], by the 1.5 * 2^23 trick (vectorises without SSE4.1).
[[gnu::always_inline]] inline float nearest_power_of_two(float exponent) {
  return (exponent * 1.44269504f + 12582912.0f) - 12582912.0f;
}

// exp(r) * 2^k, 0 where `exponent` (the whole argument) is below -80 or NaN:
// computed before the choice, so a select and not a branch.
[[gnu::always_inline]] inline float scaled_exp(float r, float k, float exponent) {
  const auto two_to_k = std::bit_cast<float>(static_cast<std::uint32_t>(static_cast<std::int32_t>(k) + 127) << 23);
  const float value = exp_near_zero(r) * two_to_k;
  return exponent >= -80.0f ? value : 0.0f;
}

[[gnu::always_inline]] inline float exp_of_difference(float square, float rest) {
  const float exponent = -square + rest;
  const float k = nearest_power_of_two(exponent >= -80.0f ? exponent : -80.0f);
  // r = exponent - k ln 2: -square - k * kLn2High is exact (the two are within a factor of 2).
  const float r = (-square - k * kLn2High) + (rest - k * kLn2Low);
  return scaled_exp(r, k, exponent);
}

// exp(x) for x <= 0 (a softmax's shifted scores), 0 below e^-80.
[[gnu::always_inline]] inline float exp_nonpositive(float x) {
  const float k = nearest_power_of_two(x >= -80.0f ? x : -80.0f);
  const float r = (x - k * kLn2High) - k * kLn2Low;  // x - k * kLn2High is exact, as above
  return scaled_exp(r, k, x);
}

[[gnu::always_inline]] inline float gelu_erf_float(float x) {
  const float ax = std::fabs(x);
  // z*z = x*x / 2 in two parts: the high half of x's bits squares exactly.
  const float high = std::bit_cast<float>(std::bit_cast<std::uint32_t>(ax) & 0xFFFFF000u);
  const float low = ax - high;
  const float square = 0.5f * (high * high);
  const float square_rest = 0.5f * ((high + high) * low + low * low);
  const float z = ax * 0.707106781f;
  const float t = 1.0f / (1.0f + 0.5f * z);
  const float u = (t - 0.583333333f) * 2.4f;
  const float half_erfc = 0.5f * (t * exp_of_difference(square, erfc_exponent(u) - square_rest));  // Phi(-|x|)
  const float upper = 1.0f - half_erfc;  // Phi(|x|)
  const float phi = x >= 0.0f ? upper : half_erfc;
  return x * phi;
}


[[gnu::always_inline]] inline void softmax_v2_rows(std::span<float> rows, int width) {
  for (std::size_t start = 0; start + width <= rows.size(); start += width) {
    float* row = rows.data() + start;
    float top = row[0];
    for (int j = 1; j < width; ++j) top = row[j] > top ? row[j] : top;
    for (int j = 0; j < width; ++j) row[j] = exp_nonpositive(row[j] - top);
    const float inverse = static_cast<float>(1.0 / interleaved_sum(row, width, [](float x) { return static_cast<double>(x); }));
    for (int j = 0; j < width; ++j) row[j] *= inverse;
  }
}

[[gnu::always_inline]] inline void gelu_erf_loop(float* values, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) values[i] = gelu_erf_float(values[i]);
}

[[gnu::target("avx2")]] void gelu_erf_avx2(float* values, std::size_t n) { gelu_erf_loop(values, n); }
[[gnu::target("avx2")]] void layer_norm_v2_avx2(std::span<float> rows, int width, const LayerNormWeights& weights) {
  layer_norm_v2_rows(rows, width, weights);
}

[[gnu::target("avx2")]] void softmax_rows_v2_avx2(std::span<float> rows, int width) { softmax_v2_rows(rows, width); }

bool cpu_has_avx2() {
  static const bool avx2 = __builtin_cpu_supports("avx2");
  return avx2;
}

}  // namespace

void detail::gelu_erf_v2_baseline(std::span<float> values) { gelu_erf_loop(values.data(), values.size()); }
void detail::layer_norm_v2_baseline(std::span<float> rows, int width, const LayerNormWeights& weights) {
  layer_norm_v2_rows(rows, width, weights);
}

void detail::softmax_rows_v2_baseline(std::span<float> rows, int width) { softmax_v2_rows(rows, width); }

void softmax_rows_v1(std::span<float> rows, int width) {
  for (std::size_t start = 0; start + width <= rows.size(); start += width) {
    float* row = rows.data() + start;
    const float top = *std::max_element(row, row + width);
    double sum = 0;
    for (int j = 0; j < width; ++j) sum += row[j] = std::exp(row[j] - top);
    const float inverse = static_cast<float>(1.0 / sum);
    for (int j = 0; j < width; ++j) row[j] *= inverse;
  }
}

void softmax_rows_v2(std::span<float> rows, int width) {
  if (cpu_has_avx2()) {
    softmax_rows_v2_avx2(rows, width);
  } else {
    detail::softmax_rows_v2_baseline(rows, width);
  }
}

void gelu_erf_v2(std::span<float> values) {
  if (cpu_has_avx2()) {
    gelu_erf_avx2(values.data(), values.size());
  } else {
    detail::gelu_erf_v2_baseline(values);
  }
}

void layer_norm_v2(std::span<float> rows, int width, const LayerNormWeights& weights) {
  if (cpu_has_avx2()) {
    layer_norm_v2_avx2(rows, width, weights);
  } else {
    detail::layer_norm_v2_baseline(rows, width, weights);
  }
}

}  // namespace evalcli::bertscore
