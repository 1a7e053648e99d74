// utf8::decode (ASCII copied sixteen bytes at a time) against a plain
// byte-by-byte decoder with the same strict rules (Python's "utf-8" codec).
#include <catch2/catch.hpp>

#include <random>
#include <string>

#include "evalcli/text/utf8.hpp"

namespace {

// Returns npos or the offset of the first invalid sequence; `out` gets the code points before it.
std::size_t plain_decode(const std::string& bytes, std::u32string& out) {
  std::size_t i = 0;
  while (i < bytes.size()) {
    const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(bytes[k]); };
    const unsigned char c = byte(i);
    std::size_t length = 0;
    if (c < 0x80) {
      length = 1;
    } else if (c >= 0xC2 && c <= 0xDF) {
      length = 2;
    } else if (c >= 0xE0 && c <= 0xEF) {
      length = 3;
    } else if (c >= 0xF0 && c <= 0xF4) {
      length = 4;
    } else {
      return i;
    }
    if (i + length > bytes.size()) return i;
    char32_t cp = length == 1 ? c : c & (0xFF >> (length + 1));
    for (std::size_t k = 1; k < length; ++k) {
      if ((byte(i + k) & 0xC0) != 0x80) return i;
      cp = (cp << 6) | (byte(i + k) & 0x3F);
    }
    const char32_t minimum[] = {0, 0, 0x80, 0x800, 0x10000};
    if (cp < minimum[length] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return i;
    out.push_back(cp);
    i += length;
  }
  return evalcli::utf8::npos;
}

}  // namespace

TEST_CASE("utf8::decode equals a plain decoder on random bytes", "[utf8]") {
  // Long ASCII runs (the sixteen-byte path and its tails) between valid and
  // invalid multi-byte sequences.
  const std::vector<std::string> pieces = {"a",          "0123456789abcdef", "xyz ",        "\t",
                                           "\xc3\xa4",   "\xe4\xb8\xad",     "\xf0\x9f\x98\x80", "\x7f",
                                           "\x80",       "\xc0\xaf",         "\xed\xa0\x80", "\xf4\x90\x80\x80",
                                           "\xe4\xb8",   "\xff",             "\xc3"};
  std::mt19937 random(20261130);
  std::uniform_int_distribution<std::size_t> pick(0, pieces.size() - 1);
  std::uniform_int_distribution<int> length(0, 24);
  std::uniform_int_distribution<int> mostly_valid(0, 3);
  for (int i = 0; i < 20000; ++i) {
    std::string bytes;
    const bool valid_only = mostly_valid(random) != 0;
    for (int k = length(random); k > 0; --k) {
      const std::size_t p = pick(random);
      if (valid_only && p >= 8) continue;
      bytes += pieces[p];
    }
    std::u32string ours = U"prefix", expected = U"prefix";  // decode appends
    const std::size_t ours_bad = evalcli::utf8::decode(bytes, ours);
    const std::size_t expected_bad = plain_decode(bytes, expected);
    INFO("bytes: " << bytes.size() << " case " << i);
    REQUIRE(ours_bad == expected_bad);
    REQUIRE(ours == expected);
  }
}

TEST_CASE("utf8::count_code_points equals the decoded length on random valid text", "[utf8]") {
  // Sequences of one to four bytes between ASCII runs of uneven length, so that
  // they straddle the eight-byte words.
  const std::vector<std::string> pieces = {"a", "0123456789abcdef", " ", "\xc3\xa4", "\xe4\xb8\xad",
                                           "\xf0\x9f\x98\x80", "\x7f", "\xdf\xbf", "\xef\xbf\xbf"};
  std::mt19937 random(20261206);
  std::uniform_int_distribution<std::size_t> pick(0, pieces.size() - 1);
  std::uniform_int_distribution<int> length(0, 24);
  for (int i = 0; i < 20000; ++i) {
    std::string bytes;
    for (int k = length(random); k > 0; --k) bytes += pieces[pick(random)];
    std::u32string decoded;
    REQUIRE(evalcli::utf8::decode(bytes, decoded) == evalcli::utf8::npos);
    INFO("bytes: " << bytes.size() << " case " << i);
    REQUIRE(evalcli::utf8::count_code_points(bytes) == decoded.size());
  }
}
