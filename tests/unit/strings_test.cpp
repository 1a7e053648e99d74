#include "evalcli/core/strings.hpp"

#include <catch2/catch.hpp>
#include <random>
#include <string>
#include <vector>

using evalcli::split;

namespace {
std::vector<std::string> pieces(std::string_view text, char separator, std::size_t max_splits = evalcli::kUnlimitedSplits) {
  std::vector<std::string> out;
  for (auto piece : split(text, separator, max_splits)) out.emplace_back(piece);
  return out;
}
using Pieces = std::vector<std::string>;
}  // namespace

// Expected values are Python's str.split(sep) / str.split(sep, maxsplit).
TEST_CASE("split keeps every piece, empty ones included, as Python's str.split(sep)", "[strings]") {
  CHECK(pieces("", '+') == Pieces{""});
  CHECK(pieces("a", '+') == Pieces{"a"});
  CHECK(pieces("a+b+c", '+') == Pieces{"a", "b", "c"});
  CHECK(pieces("+a++b+", '+') == Pieces{"", "a", "", "b", ""});
  CHECK(pieces("+", '+') == Pieces{"", ""});
  CHECK(pieces("line 1\nline 2\n", '\n') == Pieces{"line 1", "line 2", ""});
}

TEST_CASE("split stops after max_splits separators, as str.split(sep, maxsplit)", "[strings]") {
  CHECK(pieces("a\tb\tc", '\t', 0) == Pieces{"a\tb\tc"});
  CHECK(pieces("a\tb\tc", '\t', 1) == Pieces{"a", "b\tc"});
  CHECK(pieces("a\tb\tc", '\t', 5) == Pieces{"a", "b", "c"});
  CHECK(pieces("\t\t", '\t', 1) == Pieces{"", "\t"});
}

TEST_CASE("split views its input and splits code points too", "[strings]") {
  const std::string text = "x|yy";
  const auto parts = split(text, '|');
  REQUIRE(parts.size() == 2);
  CHECK(parts[1].data() == text.data() + 2);
  const auto fields = split(std::u32string_view(U"\u4E2D\t\u6587\tz"), U'\t', 1);
  REQUIRE(fields.size() == 2);
  CHECK(fields[0] == U"\u4E2D");
  CHECK(fields[1] == U"\u6587\tz");
}

TEST_CASE("find_code_point finds what u32string_view::find finds, from any start", "[strings]") {
  using evalcli::find_code_point;
  CHECK(find_code_point(U"", U'a') == 0);
  CHECK(find_code_point(U"abc", U'c') == 2);
  CHECK(find_code_point(U"abc", U'd') == 3);
  CHECK(find_code_point(U"abc", U'a', 1) == 3);
  CHECK(find_code_point(U"abc", U'a', 7) == 3);                // a start past the end: not found
  CHECK(find_code_point(U"a\U0001F600b", U'\U0001F600') == 1);  // beyond the BMP: a whole code point
  CHECK(find_code_point(U"\U0010FFFF\n", U'\n') == 1);
  // Random texts of a few characters (lengths around the C library's vector widths).
  std::mt19937 random(7);
  const std::u32string alphabet = U"ab\t\n \u00E9\u4E2D\U0001F600";
  for (int trial = 0; trial < 2000; ++trial) {
    std::u32string text(random() % 70, U'a');
    for (auto& c : text) c = alphabet[random() % alphabet.size()];
    const char32_t wanted = alphabet[random() % alphabet.size()];
    const std::size_t start = random() % (text.size() + 2);
    const std::size_t expected = std::u32string_view(text).find(wanted, start);
    CHECK(find_code_point(text, wanted, start) == (expected == std::u32string_view::npos ? text.size() : expected));
  }
}
