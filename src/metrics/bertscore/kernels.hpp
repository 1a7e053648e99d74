#pragma once
// The encoder's element-wise kernels per encoder version: GELU with erf
// (transformers' "gelu": x * Phi(x), Phi the standard normal distribution
// function) and LayerNorm. v2's are written so that the compiler vectorises
// them (AVX2 where the CPU has it, SSE2 otherwise; both give the same bits: no
// fused multiply-adds).
#include <span>

namespace evalcli::bertscore {

// Rows of `width` floats normalised in place: (v - mean) / sqrt(variance + eps)
// * gamma + beta, mean and variance in double. v1 sums each row in order; v2
// in 8 interleaved partial sums (4 times shorter chains of dependent
// additions; the sums differ from v1's in their last bits).
struct LayerNormWeights {
  std::span<const float> gamma, beta;
  double eps = 1e-12;
};
void layer_norm_v1(std::span<float> rows, int width, const LayerNormWeights& weights);
void layer_norm_v2(std::span<float> rows, int width, const LayerNormWeights& weights);

// Attention's softmax over each row of `width` scores, in place: exp(s -
// max) / sum, the shift in float. v1: expf from libm, the sum in double in
// order (within 2 ulp of the exact result); v2: a branch-free float exp (as
// GELU's; 0 below e^-80), the sum in 8 interleaved double partial sums
// (within 3 ulp).
void softmax_rows_v1(std::span<float> rows, int width);
void softmax_rows_v2(std::span<float> rows, int width);

// Encoder v1: 0.5 * x * (1 + erf(x / sqrt 2)) in double, one element at a
// time through libm, rounded to float (about a fifth of a base-sized BERT's CPU).
void gelu_erf_v1(std::span<float> values);

// Encoder v2: the same function in float and without branches. Phi(x) = erfc(-x / sqrt 2) / 2 with
// erfc(z) = t * exp(-z*z + P(t)), t = 1 / (1 + z/2) and P a polynomial fitted
// for this project (docs/bertscore.md, "Encoder versions"). Within 7 ulp of
// the exact value for |x| < 8; |results| below 1e-34 become 0 (no subnormals
// reach the next matrix product).
void gelu_erf_v2(std::span<float> values);

namespace detail {
// The v2 kernels compiled for the baseline x86-64 (SSE2) whatever the CPU:
// tests check that the AVX2 build gives the same bits.
void gelu_erf_v2_baseline(std::span<float> values);
void layer_norm_v2_baseline(std::span<float> rows, int width, const LayerNormWeights& weights);
void softmax_rows_v2_baseline(std::span<float> rows, int width);
}  // namespace detail

}  // namespace evalcli::bertscore
