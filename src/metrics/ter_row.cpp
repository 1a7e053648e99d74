#include "metrics/ter_row.hpp"

#include <algorithm>

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

[[gnu::target("avx2")]] std::int32_t edit_row_costs_avx2(const std::int32_t* prev, std::int32_t* cur,
                                                         const std::uint32_t* ref, std::uint32_t word,
                                                         std::size_t first, std::size_t end, std::int32_t left,
                                                         std::int32_t inf) {
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
    const __m256i diag = _mm256_add_epi32(_mm256_add_epi32(diagonal, ones), _mm256_cmpeq_epi32(refs, words));
    __m256i x = _mm256_min_epi32(diag, _mm256_add_epi32(above, ones));
    x = _mm256_min_epi32(x, _mm256_add_epi32(lanes_up<1>(x, infs), _mm256_set1_epi32(1)));
    x = _mm256_min_epi32(x, _mm256_add_epi32(lanes_up<2>(x, infs), _mm256_set1_epi32(2)));
    x = _mm256_min_epi32(x, _mm256_add_epi32(lanes_up<4>(x, infs), _mm256_set1_epi32(4)));
    x = _mm256_min_epi32(x, _mm256_add_epi32(before, steps));
    x = _mm256_min_epi32(x, infs);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(cur + j), x);
    before = _mm256_permutevar8x32_epi32(x, _mm256_set1_epi32(7));
  }
  left = _mm256_cvtsi256_si32(before);
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
  if (end - first >= 8 && cpu_has_avx2()) return edit_row_costs_avx2(prev, cur, ref, word, first, end, left, inf);
#endif
  return edit_row_costs_plain(prev, cur, ref, word, first, end, left, inf);
}

}  // namespace evalcli::detail
