// The streaming 13a rules against SacreBLEU's definition written as regular
// expressions: its four re.sub calls (std::regex_replace has the same leftmost,
// non-overlapping semantics for these patterns) and ' '.join(line.split()).
#include <catch2/catch.hpp>

#include <random>
#include <regex>
#include <sstream>
#include <vector>

#include "evalcli/text/unicode.hpp"
#include "evalcli/text/utf8.hpp"
#include "tokenize/rewrite.hpp"
#include "evalcli/tokenize/tokenizer.hpp"

namespace {

// SacreBLEU's TokenizerRegexp, pattern by pattern (ASCII input only).
std::string regex_13a_rules(std::string line) {
  static const std::regex symbols(R"(([\x7B-\x7E\x5B-\x60\x20-\x26\x28-\x2B\x3A-\x40\x2F]))");
  static const std::regex period_comma_after_non_digit(R"(([^0-9])([.,]))");
  static const std::regex period_comma_before_non_digit(R"(([.,])([^0-9]))");
  static const std::regex dash_after_digit(R"(([0-9])(-))");
  line = std::regex_replace(line, symbols, " $1 ");
  line = std::regex_replace(line, period_comma_after_non_digit, "$1 $2 ");
  line = std::regex_replace(line, period_comma_before_non_digit, " $1 $2");
  line = std::regex_replace(line, dash_after_digit, "$1 $2 ");
  std::istringstream words(line);  // ASCII whitespace, as str.split() on ASCII text
  std::string joined, word;
  while (words >> word) joined += (joined.empty() ? "" : " ") + word;
  return joined;
}

std::string tokenize_13a(const std::string& line) {
  static const auto tokenizer = evalcli::make_tokenizer("13a");
  return evalcli::utf8::encode(tokenizer->tokenize(evalcli::utf8::decode_or_throw(line, "test")));
}

}  // namespace

TEST_CASE("13a rules equal SacreBLEU's regular expressions on random text", "[tokenizer][13a]") {
  // Few distinct characters, so the rules' triggers meet each other often;
  // '&' and '<' take the slower path, but cannot form an entity or <skipped>.
  const std::string alphabet = "ab09.,.,--  \t'&()/$<";
  std::mt19937 random(20221129);
  std::uniform_int_distribution<std::size_t> pick(0, alphabet.size() - 1);
  std::uniform_int_distribution<int> length(0, 14);
  for (int i = 0; i < 20000; ++i) {
    std::string line;
    for (int k = length(random); k > 0; --k) line += alphabet[pick(random)];
    INFO("line: [" << line << "]");
    REQUIRE(tokenize_13a(line) == regex_13a_rules(" " + line + " "));
  }
}

namespace {

// The same rules written plainly over code points, for any Unicode text:
// SacreBLEU's Tokenizer13a replacements, then each re.sub as a left-to-right
// scan with non-overlapping matches, then ' '.join(line.split()).
std::u32string plain_13a(std::u32string line) {
  using evalcli::tokenizers::replace_all;
  replace_all(line, U"<skipped>", U"");
  replace_all(line, U"-\n", U"");
  replace_all(line, U"\n", U" ");
  evalcli::tokenizers::unescape_mteval_entities(line);
  line = U" " + line + U" ";
  auto is_symbol = [](char32_t c) {
    return (c >= 0x7B && c <= 0x7E) || (c >= 0x5B && c <= 0x60) || (c >= 0x20 && c <= 0x26) ||
           (c >= 0x28 && c <= 0x2B) || (c >= 0x3A && c <= 0x40) || c == 0x2F;
  };
  auto is_digit = [](char32_t c) { return c >= U'0' && c <= U'9'; };
  auto is_period_comma = [](char32_t c) { return c == U'.' || c == U','; };
  std::u32string padded;
  for (char32_t c : line) {
    if (is_symbol(c)) {
      padded += U' ';
      padded += c;
      padded += U' ';
    } else {
      padded += c;
    }
  }
  using evalcli::tokenizers::replace_pairs;
  line = replace_pairs(padded, [&](char32_t a, char32_t b) { return !is_digit(a) && is_period_comma(b); }, false);
  line = replace_pairs(line, [&](char32_t a, char32_t b) { return is_period_comma(a) && !is_digit(b); }, true);
  line = replace_pairs(line, [&](char32_t a, char32_t b) { return is_digit(a) && b == U'-'; }, false);
  return evalcli::text::squeeze_spaces(line);
}

}  // namespace

TEST_CASE("13a tokenizer equals a plain reference on random Unicode text", "[tokenizer][13a]") {
  // Python whitespace beyond ASCII (U+0085, U+00A0, U+3000, U+2009, U+1680, U+202F, \x1c),
  // non-ASCII letters, words, digits that are not [0-9] (U+0660), entities and <skipped>,
  // so that both the fast path and the replacements path run.
  const std::vector<std::u32string> pieces = {
      U"a", U"b", U"\u00e4", U"\u4e2d", U"\U0001F600", U"0", U"9", U"\u0660", U".", U",", U"-", U" ", U"\t",
      U"\n", U"\x0b", U"\x1c", U"\x7f", U"\u0085", U"\u00a0", U"\u3000", U"\u2009", U"'", U"&", U"(", U"/",
      U"$", U"<", U";", U"\"", U"~", U"&amp;", U"&quot;", U"&lt;", U"<skipped>", U"-\n", U"\u1680", U"\u202f",
      U"Haus", U"Stra\u00dfe"};
  std::mt19937 random(20261130);
  std::uniform_int_distribution<std::size_t> pick(0, pieces.size() - 1);
  std::uniform_int_distribution<int> length(0, 16);
  // Most lines without the characters that send 13a to its replacements.
  std::uniform_int_distribution<int> plain_line(0, 2);
  static const auto tokenizer = evalcli::make_tokenizer("13a");
  for (int i = 0; i < 30000; ++i) {
    std::u32string line;
    const bool avoid_replacements = plain_line(random) != 0;
    for (int k = length(random); k > 0;) {
      const std::u32string& piece = pieces[pick(random)];
      if (avoid_replacements && piece.find_first_of(U"<&\n") != std::u32string::npos) continue;
      line += piece;
      --k;
    }
    INFO("line: [" << evalcli::utf8::encode(line) << "]");
    REQUIRE(evalcli::utf8::encode(tokenizer->tokenize(line)) == evalcli::utf8::encode(plain_13a(line)));
  }
}
