#include "evalcli/text/utf8.hpp"

#include <fmt/format.h>

#include <cstdint>
#include <cstring>

#include "evalcli/core/error.hpp"

#ifdef __SSE2__
#include <emmintrin.h>
#endif

namespace evalcli::utf8 {

namespace {

// Copies the ASCII bytes from s[i] on into dst (widened), up to the first
// non-ASCII byte or n; returns the new i and advances dst. dst has room for
// n - i code points (one per byte).
inline std::size_t copy_ascii_run(const unsigned char* s, std::size_t i, std::size_t n, char32_t*& dst) {
#ifdef __SSE2__
  // Sixteen bytes at a time: one test finds whether all are ASCII. All 16
  // are widened and stored either way (there is room: i + 16 <= n); dst moves
  // past the ASCII ones only, so what follows overwrites the rest.
  const __m128i zero = _mm_setzero_si128();
  while (i + 16 <= n) {
    const __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s + i));
    const __m128i low = _mm_unpacklo_epi8(bytes, zero);
    const __m128i high = _mm_unpackhi_epi8(bytes, zero);
    auto* out = reinterpret_cast<__m128i*>(dst);
    _mm_storeu_si128(out, _mm_unpacklo_epi16(low, zero));
    _mm_storeu_si128(out + 1, _mm_unpackhi_epi16(low, zero));
    _mm_storeu_si128(out + 2, _mm_unpacklo_epi16(high, zero));
    _mm_storeu_si128(out + 3, _mm_unpackhi_epi16(high, zero));
    const int non_ascii = _mm_movemask_epi8(bytes);
    if (non_ascii != 0) {
      const auto ascii = static_cast<std::size_t>(__builtin_ctz(static_cast<unsigned>(non_ascii)));
      dst += ascii;
      return i + ascii;
    }
    dst += 16;
    i += 16;
  }
#endif
  while (i < n && s[i] < 0x80) *dst++ = s[i++];
  return i;
}

}  // namespace

std::size_t decode(std::string_view bytes, std::u32string& out) {
  const auto* s = reinterpret_cast<const unsigned char*>(bytes.data());
  const std::size_t n = bytes.size();
  // Every byte gives at most one code point: size once, write through a pointer,
  // cut to what was written.
  const std::size_t old_size = out.size();
  out.resize(old_size + n);
  char32_t* const begin = out.data() + old_size;
  char32_t* dst = begin;
  auto finish = [&](std::size_t result) {
    out.resize(old_size + static_cast<std::size_t>(dst - begin));
    return result;
  };
  std::size_t i = 0;
  while (i < n) {
    // ASCII runs are the common case: copied without per-character checks.
    if (s[i] < 0x80) {
      i = copy_ascii_run(s, i, n, dst);
      continue;
    }
    const unsigned char c = s[i];
    std::size_t length;
    char32_t cp;
    char32_t minimum;
    if (c >= 0xC2 && c <= 0xDF) {
      length = 2, cp = c & 0x1F, minimum = 0x80;
    } else if (c >= 0xE0 && c <= 0xEF) {
      length = 3, cp = c & 0x0F, minimum = 0x800;
    } else if (c >= 0xF0 && c <= 0xF4) {
      length = 4, cp = c & 0x07, minimum = 0x10000;
    } else {
      return finish(i);
    }
    if (i + length > n) return finish(i);
    for (std::size_t k = 1; k < length; ++k) {
      const unsigned char cc = s[i + k];
      if ((cc & 0xC0) != 0x80) return finish(i);
      cp = (cp << 6) | (cc & 0x3F);
    }
    if (cp < minimum || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return finish(i);
    *dst++ = cp;
    i += length;
  }
  return finish(npos);
}

std::u32string decode_or_throw(std::string_view bytes, std::string_view where) {
  std::u32string out;
  const std::size_t bad = decode(bytes, out);
  if (bad != npos) {
    throw input_error(fmt::format("{}:byte {}: invalid UTF-8 (byte 0x{:02X})", where, bad + 1,
                                  static_cast<unsigned char>(bytes[bad])));
  }
  return out;
}

void append(std::string& out, char32_t cp) {
  if (cp < 0x80) {
    out.push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out.push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out.push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out.push_back(static_cast<char>(0xF0 | (cp >> 18)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

void append(std::string& out, std::u32string_view text) {
  std::size_t size = 0;
  for (char32_t cp : text) size += cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
  const std::size_t old_size = out.size();
  out.resize(old_size + size);
  char* p = out.data() + old_size;
  for (char32_t cp : text) {
    if (cp < 0x80) {
      *p++ = static_cast<char>(cp);
    } else if (cp < 0x800) {
      *p++ = static_cast<char>(0xC0 | (cp >> 6));
      *p++ = static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
      *p++ = static_cast<char>(0xE0 | (cp >> 12));
      *p++ = static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      *p++ = static_cast<char>(0x80 | (cp & 0x3F));
    } else {
      *p++ = static_cast<char>(0xF0 | (cp >> 18));
      *p++ = static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
      *p++ = static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      *p++ = static_cast<char>(0x80 | (cp & 0x3F));
    }
  }
}

std::string encode(std::u32string_view text) {
  std::string out;
  append(out, text);
  return out;
}

std::size_t count_code_points(std::string_view bytes) {
  constexpr std::uint64_t kHighBits = 0x8080808080808080ULL;
  std::size_t continuation = 0;
  std::size_t i = 0;
  for (; i + 8 <= bytes.size(); i += 8) {
    std::uint64_t word;
    std::memcpy(&word, bytes.data() + i, sizeof word);
    // Bit 7 of a byte stays set where bit 7 is 1 and bit 6 (shifted into bit 7)
    // is 0; moved to bit 0, the eight 0/1 bytes are summed by a multiply into
    // the top byte (std::popcount is a library call without -mpopcnt).
    const std::uint64_t ones = (word & ~(word << 1) & kHighBits) >> 7;
    continuation += static_cast<std::size_t>((ones * 0x0101010101010101ULL) >> 56);
  }
  for (; i < bytes.size(); ++i) continuation += (static_cast<unsigned char>(bytes[i]) & 0xC0) == 0x80;
  return bytes.size() - continuation;
}

}  // namespace evalcli::utf8
