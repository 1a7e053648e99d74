#include "metrics/bertscore/gelu.hpp"

#include <bit>
#include <cmath>
#include <cstdint>

namespace evalcli::bertscore {

void gelu_erf_v1(std::span<float> values) {
  for (float& v : values) v = static_cast<float>(0.5 * v * (1.0 + std::erf(v / std::sqrt(2.0))));
}

namespace {

// P(u), u = (t - 7/12) * 12/5 in [-1, 1] for t in [1/6, 1] (z in [0, 10]): a
// weighted least-squares fit of log(erfc(z) / t) + z*z on Chebyshev nodes
// (degree 9, largest error 4.5e-8; in u rather than t, whose coefficients
// alternate in sign and lose bits in float). Highest degree first.
constexpr float kErfcExponent[] = {5.382485688e-05f,  7.309235662e-05f,  -5.320301862e-04f, -2.266871306e-04f,
                                   3.705797717e-03f,  -1.062959665e-03f, -2.946988493e-02f, 1.574721746e-02f,
                                   5.703070760e-01f,  -5.585954189e-01f};

// exp(-square + rest) for square >= 0 and |rest| small, 0 when the exponent
// is below -80 (or NaN). `square` is exact and enters the reduction
// alone: rounding -square + rest to one float would cost up to 4e-6 of
// relative error at square = 80.
[[gnu::always_inline]] inline float exp_of_difference(float square, float rest) {
  const float exponent = -square + rest;
  const float bounded = exponent >= -80.0f ? exponent : -80.0f;
  // k = round(exponent / ln 2), by the 1.5 * 2^23 trick (vectorises without SSE4.1).
  const float k = (bounded * 1.44269504f + 12582912.0f) - 12582912.0f;
  // r = exponent - k ln 2, with ln 2 in two parts (Cody and Waite): k * 0.693145751953125
  // is exact, and so is -square minus it (the two are within a factor of 2).
  const float r = (-square - k * 0.693145751953125f) + (rest - k * 1.42860677e-06f);
  float p = 1.0f / 5040;  // Taylor series of exp(r), |r| <= ln 2 / 2: error 5e-9
  p = p * r + 1.0f / 720;
  p = p * r + 1.0f / 120;
  p = p * r + 1.0f / 24;
  p = p * r + 1.0f / 6;
  p = p * r + 0.5f;
  p = p * r + 1.0f;
  p = p * r + 1.0f;
  const auto two_to_k = std::bit_cast<float>(static_cast<std::uint32_t>(static_cast<std::int32_t>(k) + 127) << 23);
  const float value = p * two_to_k;  // computed before the choice: a select, not a branch
  return exponent >= -80.0f ? value : 0.0f;
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
  float p = kErfcExponent[0];
  for (int i = 1; i < 10; ++i) p = p * u + kErfcExponent[i];
  const float half_erfc = 0.5f * (t * exp_of_difference(square, p - square_rest));  // Phi(-|x|)
  const float upper = 1.0f - half_erfc;  // Phi(|x|)
  const float phi = x >= 0.0f ? upper : half_erfc;
  return x * phi;
}

[[gnu::always_inline]] inline void gelu_erf_loop(float* values, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) values[i] = gelu_erf_float(values[i]);
}

[[gnu::target("avx2")]] void gelu_erf_avx2(float* values, std::size_t n) { gelu_erf_loop(values, n); }

}  // namespace

void detail::gelu_erf_v2_baseline(std::span<float> values) { gelu_erf_loop(values.data(), values.size()); }

void gelu_erf_v2(std::span<float> values) {
  static const bool avx2 = __builtin_cpu_supports("avx2");
  if (avx2) {
    gelu_erf_avx2(values.data(), values.size());
  } else {
    detail::gelu_erf_v2_baseline(values);
  }
}

}  // namespace evalcli::bertscore
