#pragma once
// The 64-bit hash of a byte string, for tables keyed by a word's hash: the
// ARPA vocabulary (which keeps no strings, as KenLM's probing vocabulary with
// MurmurHash64A) and ROUGE's token vocabulary. 8 bytes per step, the tail
// read without a variable-length memcpy (two overlapping loads, as wyhash).
// Never 0, so the hash can be the key of a plain ProbingTable slot.
// (Code-point strings hash with text::TextHash, fed while a tokenizer scans.)
#include <cstdint>
#include <cstring>
#include <string_view>

namespace evalcli::detail {

// 64x64 -> 128-bit multiply folded to 64 bits (the mixing step of wyhash).
inline std::uint64_t fold_multiply(std::uint64_t a, std::uint64_t b) {
  const unsigned __int128 r = static_cast<unsigned __int128>(a) * b;
  return static_cast<std::uint64_t>(r) ^ static_cast<std::uint64_t>(r >> 64);
}

inline std::uint64_t hash_bytes(std::string_view bytes) {
  const auto* p = reinterpret_cast<const unsigned char*>(bytes.data());
  std::size_t n = bytes.size();
  std::uint64_t h = 0x9E3779B97F4A7C15ULL ^ n;
  const auto load32 = [](const unsigned char* q) {
    std::uint32_t v;
    std::memcpy(&v, q, 4);
    return static_cast<std::uint64_t>(v);
  };
  for (; n > 8; p += 8, n -= 8) {
    std::uint64_t chunk;
    std::memcpy(&chunk, p, 8);
    h = fold_multiply(h ^ chunk, 0xE7037ED1A0B428DBULL);
  }
  std::uint64_t a, b;
  if (n >= 4) {
    a = load32(p);
    b = load32(p + n - 4);
  } else if (n > 0) {
    a = (static_cast<std::uint64_t>(p[0]) << 16) | (static_cast<std::uint64_t>(p[n >> 1]) << 8) | p[n - 1];
    b = 0;
  } else {
    a = b = 0;
  }
  return fold_multiply(h ^ a ^ (b << 32), 0x8EBC6AF09C88C6E3ULL ^ n) | 1;
}

}  // namespace evalcli::detail
