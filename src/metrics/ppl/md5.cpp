// MD5 (RFC 1321). Only used to identify a model file in signatures, so that
// `zcat model.arpa.gz | md5sum` checks the value a report names.
#include <bit>
#include <cstring>

#include "evalcli/metrics/ppl.hpp"

namespace evalcli::ppl {
namespace {

// The four round functions and one step, fully unrolled below: the rolled
// loop (table-driven index and shift) cost 4x the instructions, and the
// model's MD5 is computed over every byte of a possibly 75 MB ARPA file.
inline std::uint32_t rotl(std::uint32_t x, int c) { return (x << c) | (x >> (32 - c)); }
#define EVALCLI_MD5_F(x, y, z) ((z) ^ ((x) & ((y) ^ (z))))
#define EVALCLI_MD5_G(x, y, z) ((y) ^ ((z) & ((x) ^ (y))))
#define EVALCLI_MD5_H(x, y, z) ((x) ^ (y) ^ (z))
#define EVALCLI_MD5_I(x, y, z) ((y) ^ ((x) | ~(z)))
#define EVALCLI_MD5_STEP(f, a, b, c, d, m, k, s) (a) = (b) + rotl((a) + f((b), (c), (d)) + (m) + (k), (s))

}  // namespace

Md5::Md5() : state_{0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476} {}

void Md5::block(const unsigned char* data) {
  std::uint32_t m[16];
  std::memcpy(m, data, 64);  // little-endian words (x86, ARM little-endian)
  if constexpr (std::endian::native == std::endian::big) {
    for (auto& w : m) w = __builtin_bswap32(w);
  }
  std::uint32_t a = state_[0], b = state_[1], c = state_[2], d = state_[3];
#define F EVALCLI_MD5_F
#define G EVALCLI_MD5_G
#define H EVALCLI_MD5_H
#define I EVALCLI_MD5_I
#define S EVALCLI_MD5_STEP
  S(F, a, b, c, d, m[0], 0xd76aa478, 7);   S(F, d, a, b, c, m[1], 0xe8c7b756, 12);
  S(F, c, d, a, b, m[2], 0x242070db, 17);  S(F, b, c, d, a, m[3], 0xc1bdceee, 22);
  S(F, a, b, c, d, m[4], 0xf57c0faf, 7);   S(F, d, a, b, c, m[5], 0x4787c62a, 12);
  S(F, c, d, a, b, m[6], 0xa8304613, 17);  S(F, b, c, d, a, m[7], 0xfd469501, 22);
  S(F, a, b, c, d, m[8], 0x698098d8, 7);   S(F, d, a, b, c, m[9], 0x8b44f7af, 12);
  S(F, c, d, a, b, m[10], 0xffff5bb1, 17); S(F, b, c, d, a, m[11], 0x895cd7be, 22);
  S(F, a, b, c, d, m[12], 0x6b901122, 7);  S(F, d, a, b, c, m[13], 0xfd987193, 12);
  S(F, c, d, a, b, m[14], 0xa679438e, 17); S(F, b, c, d, a, m[15], 0x49b40821, 22);
  S(G, a, b, c, d, m[1], 0xf61e2562, 5);   S(G, d, a, b, c, m[6], 0xc040b340, 9);
  S(G, c, d, a, b, m[11], 0x265e5a51, 14); S(G, b, c, d, a, m[0], 0xe9b6c7aa, 20);
  S(G, a, b, c, d, m[5], 0xd62f105d, 5);   S(G, d, a, b, c, m[10], 0x02441453, 9);
  S(G, c, d, a, b, m[15], 0xd8a1e681, 14); S(G, b, c, d, a, m[4], 0xe7d3fbc8, 20);
  S(G, a, b, c, d, m[9], 0x21e1cde6, 5);   S(G, d, a, b, c, m[14], 0xc33707d6, 9);
  S(G, c, d, a, b, m[3], 0xf4d50d87, 14);  S(G, b, c, d, a, m[8], 0x455a14ed, 20);
  S(G, a, b, c, d, m[13], 0xa9e3e905, 5);  S(G, d, a, b, c, m[2], 0xfcefa3f8, 9);
  S(G, c, d, a, b, m[7], 0x676f02d9, 14);  S(G, b, c, d, a, m[12], 0x8d2a4c8a, 20);
  S(H, a, b, c, d, m[5], 0xfffa3942, 4);   S(H, d, a, b, c, m[8], 0x8771f681, 11);
  S(H, c, d, a, b, m[11], 0x6d9d6122, 16); S(H, b, c, d, a, m[14], 0xfde5380c, 23);
  S(H, a, b, c, d, m[1], 0xa4beea44, 4);   S(H, d, a, b, c, m[4], 0x4bdecfa9, 11);
  S(H, c, d, a, b, m[7], 0xf6bb4b60, 16);  S(H, b, c, d, a, m[10], 0xbebfbc70, 23);
  S(H, a, b, c, d, m[13], 0x289b7ec6, 4);  S(H, d, a, b, c, m[0], 0xeaa127fa, 11);
  S(H, c, d, a, b, m[3], 0xd4ef3085, 16);  S(H, b, c, d, a, m[6], 0x04881d05, 23);
  S(H, a, b, c, d, m[9], 0xd9d4d039, 4);   S(H, d, a, b, c, m[12], 0xe6db99e5, 11);
  S(H, c, d, a, b, m[15], 0x1fa27cf8, 16); S(H, b, c, d, a, m[2], 0xc4ac5665, 23);
  S(I, a, b, c, d, m[0], 0xf4292244, 6);   S(I, d, a, b, c, m[7], 0x432aff97, 10);
  S(I, c, d, a, b, m[14], 0xab9423a7, 15); S(I, b, c, d, a, m[5], 0xfc93a039, 21);
  S(I, a, b, c, d, m[12], 0x655b59c3, 6);  S(I, d, a, b, c, m[3], 0x8f0ccc92, 10);
  S(I, c, d, a, b, m[10], 0xffeff47d, 15); S(I, b, c, d, a, m[1], 0x85845dd1, 21);
  S(I, a, b, c, d, m[8], 0x6fa87e4f, 6);   S(I, d, a, b, c, m[15], 0xfe2ce6e0, 10);
  S(I, c, d, a, b, m[6], 0xa3014314, 15);  S(I, b, c, d, a, m[13], 0x4e0811a1, 21);
  S(I, a, b, c, d, m[4], 0xf7537e82, 6);   S(I, d, a, b, c, m[11], 0xbd3af235, 10);
  S(I, c, d, a, b, m[2], 0x2ad7d2bb, 15);  S(I, b, c, d, a, m[9], 0xeb86d391, 21);
#undef F
#undef G
#undef H
#undef I
#undef S
  state_[0] += a;
  state_[1] += b;
  state_[2] += c;
  state_[3] += d;
}

void Md5::update(std::string_view data) {
  const auto* p = reinterpret_cast<const unsigned char*>(data.data());
  std::size_t n = data.size();
  length_ += n;
  if (buffered_ > 0) {
    const std::size_t take = std::min(n, 64 - buffered_);
    std::memcpy(buffer_ + buffered_, p, take);
    buffered_ += take;
    p += take;
    n -= take;
    if (buffered_ < 64) return;
    block(buffer_);
    buffered_ = 0;
  }
  for (; n >= 64; p += 64, n -= 64) block(p);
  std::memcpy(buffer_, p, n);
  buffered_ = n;
}

std::string Md5::hex_digest() {
  const std::uint64_t bits = length_ * 8;
  const unsigned char pad = 0x80;
  update(std::string_view(reinterpret_cast<const char*>(&pad), 1));
  const unsigned char zero = 0;
  while (buffered_ != 56) update(std::string_view(reinterpret_cast<const char*>(&zero), 1));
  unsigned char tail[8];
  for (int i = 0; i < 8; ++i) tail[i] = static_cast<unsigned char>(bits >> (8 * i));
  update(std::string_view(reinterpret_cast<const char*>(tail), 8));
  static const char* hex = "0123456789abcdef";
  std::string out;
  for (std::uint32_t word : state_) {
    for (int i = 0; i < 4; ++i) {
      const auto byte = static_cast<unsigned char>(word >> (8 * i));
      out.push_back(hex[byte >> 4]);
      out.push_back(hex[byte & 15]);
    }
  }
  return out;
}

}  // namespace evalcli::ppl
