#include <catch2/catch.hpp>

#include <random>
#include <thread>
#include <vector>

#include "evalcli/text/unicode.hpp"
#include "evalcli/text/utf8.hpp"
#include "evalcli/tokenize/tokenizer.hpp"
#include "tokenize/rewrite.hpp"

using evalcli::make_tokenizer;

namespace {
std::string tok(const std::string& name, const std::string& line) {
  auto tokenizer = make_tokenizer(name);
  return evalcli::utf8::encode(tokenizer->tokenize(evalcli::utf8::decode_or_throw(line, "test")));
}
}  // namespace

TEST_CASE("13a splits punctuation as mteval-v13a", "[tokenizer][13a]") {
  CHECK(tok("13a", "a.,b") == "a . , b");
  CHECK(tok("13a", "1.,2") == "1 . , 2");
  CHECK(tok("13a", "a...b") == "a . . . b");
  CHECK(tok("13a", "x.1") == "x . 1");
  CHECK(tok("13a", "1,000.") == "1,000 .");
  CHECK(tok("13a", "3.-4") == "3 . -4");
  CHECK(tok("13a", "5-a") == "5 - a");
  CHECK(tok("13a", "It's U.S.") == "It's U . S .");
  CHECK(tok("13a", "in 1990.") == "in 1990 .");
  CHECK(tok("13a", "&amp;quot; &amp;lt;") == "& quot ; <");
  CHECK(tok("13a", "a<skipped>b") == "ab");
}

TEST_CASE("zh isolates the SacreBLEU 'Chinese' ranges, bug included", "[tokenizer][zh]") {
  CHECK(tok("zh", "2022年GDP增长3.5%，达到USD 1,234.56亿。") ==
        "2022 年 GDP 增 长 3.5 % ， 达 到 USD 1,234.56 亿 。");
  CHECK(tok("zh", "in 1990.") == "in 1990.");        // no padding: final period kept
  CHECK(tok("zh", "a\u201cb\u201d") == "a \u201c b \u201d");  // U+2001.. range bug
  CHECK(tok("zh", "\U00020000") == "\U00020000");  // Extension B not isolated
}

TEST_CASE("intl separates punctuation and symbols by Unicode category", "[tokenizer][intl]") {
  CHECK(tok("intl", "Hello, world!") == "Hello , world !");
  CHECK(tok("intl", "in 1990.") == "in 1990.");
  CHECK(tok("intl", "1990-2000") == "1990-2000");
  CHECK(tok("intl", "a$b") == "a $ b");
}

namespace {

// SacreBLEU's TokenizerV14International written plainly: its three re.sub
// calls in turn, each category looked up in ICU, then ' '.join(split()).
std::u32string plain_intl(std::u32string_view line) {
  using evalcli::tokenizers::replace_pairs;
  namespace text = evalcli::text;
  const std::u32string first =
      replace_pairs(line, [](char32_t x, char32_t y) { return !text::is_number(x) && text::is_punctuation(y); }, false);
  const std::u32string second =
      replace_pairs(first, [](char32_t x, char32_t y) { return text::is_punctuation(x) && !text::is_number(y); }, true);
  std::u32string padded;
  for (const char32_t c : second) {
    if (text::is_symbol(c)) {
      padded += U' ';
      padded += c;
      padded += U' ';
    } else {
      padded += c;
    }
  }
  return text::squeeze_spaces(padded);
}

// Random lines over letters, numbers (N of several scripts, in and beyond the
// BMP), punctuation, symbols and Python whitespace.
std::vector<std::u32string> random_intl_lines(unsigned seed, int count) {
  const std::vector<std::u32string> pieces = {
      U"a", U"Z", U"\u00e4", U"\u4e2d", U"0", U"7", U"\u0660", U"\u00b2", U"\u216b", U"\U0001D7D9", U"\U00010140",
      U".", U",", U"!", U"-", U"\u00ab", U"\u2014", U"\u3002", U"\U000103D0", U"$", U"+", U"^", U"\u20ac", U"\u00a9",
      U"\u2211", U"\U0001F600", U"\U0001D11E", U" ", U"\t", U"\u3000", U"\u00a0", U"Haus", U"\u0441\u043b\u043e\u0432\u043e"};
  std::mt19937 random(seed);
  std::uniform_int_distribution<std::size_t> pick(0, pieces.size() - 1);
  std::uniform_int_distribution<int> length(0, 14);
  std::vector<std::u32string> lines(static_cast<std::size_t>(count));
  for (auto& line : lines) {
    for (int k = length(random); k > 0; --k) line += pieces[pick(random)];
  }
  return lines;
}

}  // namespace

TEST_CASE("intl equals a plain reference on random Unicode text, also from several threads at once",
          "[tokenizer][intl]") {
  const auto tokenizer = make_tokenizer("intl");
  const std::vector<std::u32string> lines = random_intl_lines(20261207, 20000);
  for (const auto& line : lines) {
    INFO("line: [" << evalcli::utf8::encode(line) << "]");
    REQUIRE(evalcli::utf8::encode(tokenizer->tokenize(line)) == evalcli::utf8::encode(plain_intl(line)));
  }
  // Threads that meet the category table's blocks at the same time get the same answers.
  std::vector<std::u32string> expected;
  for (const auto& line : lines) expected.push_back(plain_intl(line));
  std::vector<int> mismatches(4, 0);
  std::vector<std::thread> threads;
  for (std::size_t t = 0; t < mismatches.size(); ++t) {
    threads.emplace_back([&, t] {
      const auto own = make_tokenizer("intl");
      for (std::size_t i = t; i < lines.size(); i += 2) mismatches[t] += own->tokenize(lines[i]) != expected[i];
    });
  }
  for (auto& thread : threads) thread.join();
  CHECK(mismatches == std::vector<int>(4, 0));
}

TEST_CASE("none and char equal Python's split and its characters on random Unicode text", "[tokenizer]") {
  const auto none = make_tokenizer("none");
  const auto chars = make_tokenizer("char");
  for (const auto& line : random_intl_lines(20261208, 20000)) {
    INFO("line: [" << evalcli::utf8::encode(line) << "]");
    REQUIRE(evalcli::utf8::encode(none->tokenize(line)) == evalcli::utf8::encode(evalcli::text::squeeze_spaces(line)));
    // SacreBLEU joins every character with spaces; BLEU's split() then drops the whitespace ones.
    std::u32string each_character;
    for (const char32_t c : line) {
      if (evalcli::text::is_space(c)) continue;
      if (!each_character.empty()) each_character += U' ';
      each_character += c;
    }
    REQUIRE(evalcli::utf8::encode(chars->tokenize(line)) == evalcli::utf8::encode(each_character));
  }
}

TEST_CASE("char and none", "[tokenizer]") {
  CHECK(tok("char", "ab c\u00a0d") == "a b c d");
  CHECK(tok("none", "  a\u3000b  ") == "a b");
}

TEST_CASE("unknown tokenizer is a usage error", "[tokenizer]") {
  CHECK_THROWS_WITH(make_tokenizer("nosuch"), Catch::Contains("unknown tokenizer 'nosuch'"));
}

TEST_CASE("utf8::append of a whole string equals appending each code point", "[utf8]") {
  const std::u32string text = U"a\u00E9\u4E2D\U0001F600 z";
  std::string one_by_one = "x", at_once = "x";
  for (char32_t c : text) evalcli::utf8::append(one_by_one, c);
  evalcli::utf8::append(at_once, text);
  CHECK(at_once == one_by_one);
  CHECK(at_once == "xa\xC3\xA9\xE4\xB8\xAD\xF0\x9F\x98\x80 z");
  CHECK(evalcli::utf8::encode(text) == at_once.substr(1));
}
