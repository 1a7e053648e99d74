// TextScan's counts against a plain per-character count written from their
// definitions (text_scan.hpp): every ASCII character, and random lines of
// mixed scripts, short and long, mostly ASCII or not.
#include <catch2/catch.hpp>

#include <cctype>
#include <random>
#include <string>
#include <vector>

#include "evalcli/text/unicode.hpp"
#include "evalcli/tokenize/text_scan.hpp"

namespace {

struct ExpectedCounts {
  std::size_t lines = 0, unspaced_lines = 0, letters = 0, non_space = 0, non_ascii = 0;
  std::size_t han = 0, kana = 0, thai = 0;
};

bool in(char32_t c, char32_t first, char32_t last) { return c >= first && c <= last; }

void count_line(const std::u32string& line, ExpectedCounts& expected) {
  std::size_t letters = 0, unspaced = 0;
  for (const char32_t c : line) {
    if (evalcli::text::is_space(c)) continue;
    ++expected.non_space;
    expected.non_ascii += c >= 0x80;
    const bool letter = c < 0x80 ? std::isalnum(static_cast<int>(c)) != 0
                                 : !evalcli::text::is_punctuation(c) && !evalcli::text::is_symbol(c);
    if (!letter) continue;
    ++letters;
    if (in(c, 0x3040, 0x30FF) || in(c, 0x31F0, 0x31FF) || in(c, 0xFF66, 0xFF9F)) {
      ++expected.kana, ++unspaced;
    } else if (in(c, 0x4E00, 0x9FFF) || in(c, 0x3400, 0x4DBF) || in(c, 0xF900, 0xFAFF) || in(c, 0x20000, 0x3FFFF)) {
      ++expected.han, ++unspaced;
    } else if (in(c, 0x0E00, 0x0E7F)) {
      ++expected.thai, ++unspaced;
    }
  }
  ++expected.lines;
  expected.letters += letters;
  expected.unspaced_lines += unspaced * 2 > letters;
}

void check_scan(const std::vector<std::u32string>& lines) {
  evalcli::TextScan scan;
  ExpectedCounts expected;
  for (const auto& line : lines) {
    scan.add_line(line);
    count_line(line, expected);
  }
  CHECK(scan.lines() == expected.lines);
  CHECK(scan.unspaced_lines() == expected.unspaced_lines);
  CHECK(scan.letters() == expected.letters);
  CHECK(scan.non_space_characters() == expected.non_space);
  CHECK(scan.non_ascii_characters() == expected.non_ascii);
  CHECK(scan.unspaced_letters() == expected.han + expected.kana + expected.thai);
}

}  // namespace

TEST_CASE("text scan: every ASCII character, alone and repeated", "[text_scan]") {
  std::vector<std::u32string> lines;
  for (char32_t c = 0; c < 0x80; ++c) {
    lines.push_back(std::u32string(1, c));
    lines.push_back(std::u32string(40, c));
  }
  check_scan(lines);
}

TEST_CASE("text scan: every character to U+3100, alone and repeated", "[text_scan]") {
  // Latin letters take a shortcut past the Unicode look-ups; every other
  // character of these blocks (signs, spaces, CJK punctuation, kana) does not.
  std::vector<std::u32string> lines;
  for (char32_t c = 0x80; c < 0x3100; ++c) {
    if (c >= 0xD800 && c <= 0xDFFF) continue;
    lines.push_back(std::u32string(1, c));
    lines.push_back(std::u32string(40, c));
  }
  check_scan(lines);
}

TEST_CASE("text scan: random lines of mixed scripts match a per-character count", "[text_scan]") {
  // ASCII (letters, digits, punctuation, every white space), Latin-1 and its
  // spaces, kana, Han (BMP and beyond), Thai, CJK punctuation and spaces.
  const std::u32string pool =
      U"aZ09 .,;!?-_\t\n\v\f\r\x1c\x1f\x7f\x01"
      U"\u00e4\u00df\u00a0\u0085\u00bf"
      U"\u3042\u30ab\u31f0\uff66"
      U"\u4e2d\u3400\uf900\U00020000"
      U"\u0e01\u0e3f"
      U"\u3002\u3000\uff0c\u2028\u20ac";
  std::mt19937 random(20261206);
  std::vector<std::u32string> lines;
  for (int n = 0; n < 3000; ++n) {
    std::u32string line(random() % 70, U' ');
    // Mostly ASCII lines, as in Latin-script text, and lines from the whole pool.
    const std::size_t choices = n % 3 == 0 ? pool.size() : 20;
    for (char32_t& c : line) c = random() % 8 == 0 ? pool[random() % pool.size()] : pool[random() % choices];
    lines.push_back(line);
  }
  check_scan(lines);
}

TEST_CASE("text scan: long lines, counted 32 and 8 characters at a time in chunks of 256, match a per-character count",
          "[text_scan]") {
  // Lengths around the block (8) and chunk (256) boundaries, non-ASCII
  // characters at every place in a block and a chunk, and mostly-ASCII lines
  // as well as lines with a non-ASCII character in every block.
  const std::u32string ascii = U"aZ09 .,;!?-_\t\n\x1c\x7f";
  const std::u32string others = U"\u00e4\u00a0\u3042\u4e2d\u0e01\u3000\U00020000\u0085";
  std::mt19937 random(20261207);
  std::vector<std::u32string> lines;
  for (const std::size_t length : {7, 8, 9, 15, 16, 17, 31, 32, 33, 40, 255, 256, 257, 263, 511, 512, 513, 777, 1030}) {
    for (const unsigned one_in : {2u, 9u, 64u, 1000u}) {
      std::u32string line(length, U' ');
      for (char32_t& c : line) c = random() % one_in == 0 ? others[random() % others.size()] : ascii[random() % ascii.size()];
      lines.push_back(line);
    }
  }
  check_scan(lines);
}
