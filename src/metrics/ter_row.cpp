#include "metrics/ter_row.hpp"

#include <algorithm>
#include <cstring>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define EVALCLI_TER_ROW_AVX2 1
#include <immintrin.h>
#else
#define EVALCLI_TER_ROW_AVX2 0
#endif

namespace evalcli::detail {

std::int32_t edit_row_costs_plain(const std::int32_t* prev, std::int32_t* cur, const std::uint32_t* ref,
                                  std::uint32_t word, std::size_t first, std::size_t end, std::int32_t left,
                                  std::int32_t inf) {
  for (std::size_t j = first; j < end; ++j) {
    const std::int32_t diag = prev[j - 1] + (word == ref[j - 1] ? 0 : 1);
    left = std::min({inf, diag, prev[j] + 1, left + 1});
    cur[j] = left;
  }
  return left;
}

std::int32_t edit_row_costs_and_ops_plain(const std::int32_t* prev, std::int32_t* cur, std::uint8_t* ops,
                                          const std::uint32_t* ref, std::uint32_t word, std::size_t first,
                                          std::size_t end, std::int32_t left, std::int32_t inf) {
  for (std::size_t j = first; j < end; ++j) {
    const bool same = word == ref[j - 1];
    std::int32_t best = inf;
    std::uint8_t op = kTerUndefined;
    const std::int32_t diag = prev[j - 1] + (same ? 0 : 1);
    if (diag < best) best = diag, op = same ? kTerNop : kTerSub;
    const std::int32_t up = prev[j] + 1;
    if (up < best) best = up, op = kTerDel;
    if (left + 1 < best) best = left + 1, op = kTerIns;
    cur[j] = best;
    left = best;
    ops[j] = op;
  }
  return left;
}

#if EVALCLI_TER_ROW_AVX2
namespace {

// Lane k takes lane k - shift (lanes below shift: `fill`).
template <int kShift>
[[gnu::target("avx2")]] inline __m256i lanes_up(__m256i x, __m256i fill) {
  static_assert(kShift == 1 || kShift == 2 || kShift == 4);
  const __m256i from = kShift == 1   ? _mm256_setr_epi32(0, 0, 1, 2, 3, 4, 5, 6)
                       : kShift == 2 ? _mm256_setr_epi32(0, 0, 0, 1, 2, 3, 4, 5)
                                     : _mm256_setr_epi32(0, 0, 0, 0, 0, 1, 2, 3);
  constexpr int kFilled = (1 << kShift) - 1;
  return _mm256_blend_epi32(_mm256_permutevar8x32_epi32(x, from), fill, kFilled);
}

// Lanes of `a` where `mask` is set, else of `b`.
[[gnu::target("avx2")]] inline __m256i select(__m256i mask, __m256i a, __m256i b) {
  return _mm256_blendv_epi8(b, a, mask);
}

// Lanes where `move` is the cell's cost and below inf.
[[gnu::target("avx2")]] inline __m256i reaches(__m256i move, __m256i cost, __m256i infs) {
  return _mm256_and_si256(_mm256_cmpeq_epi32(move, cost), _mm256_cmpgt_epi32(infs, move));
}

// The moves of eight cells (a lane's is the first of diag, up and left + 1
// equal to its cost, below inf), stored as eight bytes.
[[gnu::target("avx2")]] inline void store_ops(std::uint8_t* ops, __m256i cost, __m256i diag, __m256i up,
                                              __m256i left_plus_one, __m256i same, __m256i infs) {
  __m256i op = select(reaches(left_plus_one, cost, infs), _mm256_set1_epi32(kTerIns), _mm256_set1_epi32(kTerUndefined));
  op = select(reaches(up, cost, infs), _mm256_set1_epi32(kTerDel), op);
  // kTerSub, less 1 (kTerNop) where the words are equal (`same` is -1 there).
  op = select(reaches(diag, cost, infs), _mm256_add_epi32(_mm256_set1_epi32(kTerSub), same), op);
  const __m256i words16 = _mm256_packs_epi32(op, op);         // lane halves: ops 0-3 twice, 4-7 twice
  const __m256i bytes = _mm256_packus_epi16(words16, words16);  // the same as bytes
  const auto low = static_cast<std::uint32_t>(_mm_cvtsi128_si32(_mm256_castsi256_si128(bytes)));
  const auto high = static_cast<std::uint32_t>(_mm_cvtsi128_si32(_mm256_extracti128_si256(bytes, 1)));
  std::memcpy(ops, &low, 4);
  std::memcpy(ops + 4, &high, 4);
}

template <bool kWithOps>
[[gnu::target("avx2")]] std::int32_t edit_row_avx2(const std::int32_t* prev, std::int32_t* cur, std::uint8_t* ops,
                                                   const std::uint32_t* ref, std::uint32_t word, std::size_t first,
                                                   std::size_t end, std::int32_t left, std::int32_t inf) {
  const __m256i infs = _mm256_set1_epi32(inf);
  const __m256i ones = _mm256_set1_epi32(1);
  const __m256i words = _mm256_set1_epi32(static_cast<int>(word));
  const __m256i steps = _mm256_setr_epi32(1, 2, 3, 4, 5, 6, 7, 8);  // lane k is k + 1 cells after the one before
  std::size_t j = first;
  __m256i before = _mm256_set1_epi32(left);  // the cell before the block, in every lane
  for (; j + 8 <= end; j += 8) {
    const __m256i diagonal = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(prev + j - 1));
    const __m256i above = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(prev + j));
    const __m256i refs = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(ref + j - 1));
    // prev[j-1] + 1, less 1 where the words are equal (the comparison's -1).
    const __m256i same = _mm256_cmpeq_epi32(refs, words);
    const __m256i diag = _mm256_add_epi32(_mm256_add_epi32(diagonal, ones), same);
    const __m256i up = _mm256_add_epi32(above, ones);
    __m256i x = _mm256_min_epi32(diag, up);
    x = _mm256_min_epi32(x, _mm256_add_epi32(lanes_up<1>(x, infs), _mm256_set1_epi32(1)));
    x = _mm256_min_epi32(x, _mm256_add_epi32(lanes_up<2>(x, infs), _mm256_set1_epi32(2)));
    x = _mm256_min_epi32(x, _mm256_add_epi32(lanes_up<4>(x, infs), _mm256_set1_epi32(4)));
    x = _mm256_min_epi32(x, _mm256_add_epi32(before, steps));
    x = _mm256_min_epi32(x, infs);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(cur + j), x);
    if constexpr (kWithOps) {
      const __m256i left_plus_one = _mm256_add_epi32(lanes_up<1>(x, before), ones);
      store_ops(ops + j, x, diag, up, left_plus_one, same, infs);
    }
    before = _mm256_permutevar8x32_epi32(x, _mm256_set1_epi32(7));
  }
  left = _mm256_cvtsi256_si32(before);
  if constexpr (kWithOps) return edit_row_costs_and_ops_plain(prev, cur, ops, ref, word, j, end, left, inf);
  return edit_row_costs_plain(prev, cur, ref, word, j, end, left, inf);
}

bool cpu_has_avx2() {
  static const bool has = __builtin_cpu_supports("avx2");
  return has;
}

}  // namespace
#endif

std::int32_t edit_row_costs(const std::int32_t* prev, std::int32_t* cur, const std::uint32_t* ref,
                            std::uint32_t word, std::size_t first, std::size_t end, std::int32_t left,
                            std::int32_t inf) {
#if EVALCLI_TER_ROW_AVX2
  if (end - first >= 8 && cpu_has_avx2()) {
    return edit_row_avx2<false>(prev, cur, nullptr, ref, word, first, end, left, inf);
  }
#endif
  return edit_row_costs_plain(prev, cur, ref, word, first, end, left, inf);
}

std::int32_t edit_row_costs_and_ops(const std::int32_t* prev, std::int32_t* cur, std::uint8_t* ops,
                                    const std::uint32_t* ref, std::uint32_t word, std::size_t first,
                                    std::size_t end, std::int32_t left, std::int32_t inf) {
#if EVALCLI_TER_ROW_AVX2
  if (end - first >= 8 && cpu_has_avx2()) return edit_row_avx2<true>(prev, cur, ops, ref, word, first, end, left, inf);
#endif
  return edit_row_costs_and_ops_plain(prev, cur, ops, ref, word, first, end, left, inf);
}

}  // namespace evalcli::detail
