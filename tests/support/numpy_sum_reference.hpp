#pragma once
// An independent model of numpy's float64 np.add.reduce / np.mean, written
// from numpy 1.24's C (loops_utils.h.src DOUBLE_pairwise_sum, the reduce loop
// `*iop1 += DOUBLE_pairwise_sum(...)` called once per iterator buffer of
// NPY_BUFSIZE = 8192 elements), plus pseudo-random per-image scores and what
// real numpy printed for them. Tests check stats::numpy_sum against both.
#include <cstddef>
#include <cstdint>
#include <vector>

namespace evalcli::test::numpy_reference {

// numpy's recursion, transcribed with its byte pointer and stride.
inline double pairwise_sum(const char* a, std::ptrdiff_t n, std::ptrdiff_t stride) {
  auto at = [&](std::ptrdiff_t i) { return *reinterpret_cast<const double*>(a + i * stride); };
  if (n < 8) {
    double res = 0.;
    for (std::ptrdiff_t i = 0; i < n; i++) res += at(i);
    return res;
  }
  if (n <= 128) {  // PW_BLOCKSIZE
    double r0 = at(0), r1 = at(1), r2 = at(2), r3 = at(3), r4 = at(4), r5 = at(5), r6 = at(6), r7 = at(7);
    std::ptrdiff_t i = 8;
    for (; i < n - (n % 8); i += 8) {
      r0 += at(i + 0);
      r1 += at(i + 1);
      r2 += at(i + 2);
      r3 += at(i + 3);
      r4 += at(i + 4);
      r5 += at(i + 5);
      r6 += at(i + 6);
      r7 += at(i + 7);
    }
    double res = ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7));
    for (; i < n; i++) res += at(i);
    return res;
  }
  std::ptrdiff_t n2 = n / 2;
  n2 -= n2 % 8;
  return pairwise_sum(a, n2, stride) + pairwise_sum(a + n2 * stride, n - n2, stride);
}

// np.add.reduce: the identity 0, then each buffer's pairwise sum added in order.
inline double add_reduce(const std::vector<double>& values) {
  constexpr std::ptrdiff_t kNpyBufsize = 8192;
  const auto total = static_cast<std::ptrdiff_t>(values.size());
  double out = 0.;
  for (std::ptrdiff_t done = 0; done < total; done += kNpyBufsize) {
    const std::ptrdiff_t n = total - done < kNpyBufsize ? total - done : kNpyBufsize;
    out += pairwise_sum(reinterpret_cast<const char*>(values.data() + done), n, sizeof(double));
  }
  return out;
}

// `count` scores in [0, 10) (CIDEr's scale): splitmix64 from `seed`, top 53 bits.
inline std::vector<double> per_image_scores(std::size_t count, std::uint64_t seed) {
  std::vector<double> scores;
  scores.reserve(count);
  std::uint64_t state = seed;
  for (std::size_t i = 0; i < count; ++i) {
    state += 0x9E3779B97F4A7C15ULL;
    std::uint64_t z = state;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    z ^= z >> 31;
    scores.push_back(static_cast<double>(z >> 11) * 0x1p-53 * 10.0);
  }
  return scores;
}

// What numpy 1.24.2 (Debian 12 python3-numpy) printed for per_image_scores(count, seed):
//   /usr/bin/python3 -c 'import numpy as np; M=2**64-1
//   def s(n, x):
//     o=[]
//     for _ in range(n):
//       x=(x+0x9E3779B97F4A7C15)&M; z=x; z=((z^(z>>30))*0xBF58476D1CE4E5B9)&M
//       z=((z^(z>>27))*0x94D049BB133111EB)&M; z^=z>>31; o.append((z>>11)*2.0**-53*10.0)
//     return np.array(o)
//   for n, x in [(9000, 3), (20000, 1), (65537, 2)]: a=s(n, x); print(n, x, repr(a.sum()), repr(a.mean()))'
// The seeds are ones where a pairwise sum over the whole array (no 8192-element
// buffers: CIDEr's sum until issue #16) was 1 ulp off numpy's mean.
struct NumpyResult {
  std::size_t count;
  std::uint64_t seed;
  double sum;
  double mean;
  double unbuffered_pairwise_mean;  // the old, wrong CIDEr corpus score
};
inline const std::vector<NumpyResult>& numpy_results() {
  static const std::vector<NumpyResult> results = {
      {9000, 3, 44633.38336888428, 4.95926481876492, 4.959264818764919},
      {20000, 1, 98955.14155952338, 4.947757077976169, 4.94775707797617},
      {65537, 2, 328159.7310156492, 5.007243709898977, 5.007243709898978},
  };
  return results;
}

}  // namespace evalcli::test::numpy_reference
