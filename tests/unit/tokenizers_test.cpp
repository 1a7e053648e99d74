#include <catch2/catch.hpp>

#include "evalcli/tokenize/tokenizer.hpp"
#include "evalcli/text/utf8.hpp"

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
