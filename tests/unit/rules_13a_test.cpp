// The streaming 13a rules against SacreBLEU's definition written as regular
// expressions: its four re.sub calls (std::regex_replace has the same leftmost,
// non-overlapping semantics for these patterns) and ' '.join(line.split()).
#include <catch2/catch.hpp>

#include <random>
#include <regex>
#include <sstream>

#include "evalcli/text/utf8.hpp"
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
