// Tokenizer::tokenize_located_into: the tokens 13a, intl, none and char locate
// and hash in their own pass must equal those of the generic path (the tokenizer's joined text
// split on spaces, each token hashed), or BLEU's n-gram counts would change.
#include <catch2/catch.hpp>

#include <random>
#include <string>
#include <vector>

#include "evalcli/text/detail/string_interner.hpp"
#include "evalcli/text/unicode.hpp"
#include "evalcli/text/utf8.hpp"
#include "evalcli/tokenize/tokenized_text.hpp"
#include "evalcli/tokenize/tokenizer.hpp"

namespace {

// The generic path, written out: split on spaces, hash each token.
struct ExpectedToken {
  std::u32string text;
  std::uint64_t hash;
};
std::vector<ExpectedToken> split_and_hash(std::u32string_view joined) {
  std::vector<ExpectedToken> tokens;
  for (const std::u32string_view word : evalcli::text::split(joined)) {
    tokens.push_back({std::u32string(word), evalcli::text::TextHash::of(word)});
  }
  return tokens;
}

// `located` holds the text tokenize() gives and exactly its split tokens with their hashes.
void require_located(const evalcli::Tokenizer& tokenizer, const std::u32string& line,
                     const evalcli::TokenizedText& located) {
  INFO("line: [" << evalcli::utf8::encode(line) << "]");
  const std::u32string joined = tokenizer.tokenize(line);
  REQUIRE(evalcli::utf8::encode(located.text) == evalcli::utf8::encode(joined));
  const std::vector<ExpectedToken> expected = split_and_hash(joined);
  REQUIRE(located.size() == expected.size());
  for (std::size_t i = 0; i < expected.size(); ++i) {
    REQUIRE(evalcli::utf8::encode(located.token(i)) == evalcli::utf8::encode(expected[i].text));
    REQUIRE(located.tokens[i].hash == expected[i].hash);
  }
}

}  // namespace

TEST_CASE("13a locates the same tokens as splitting its output, on tricky lines", "[tokenizer][13a]") {
  const auto tokenizer = evalcli::make_tokenizer("13a");
  const std::vector<std::u32string> lines = {
      U"", U" ", U"   \t  ", U"a", U" a ", U"Hello, world!", U"...,,,!!!???", U"(a)[b]{c}",
      U"3.14 1,000 10-20 -5 5- a.b a,b .5 5. ,5", U"Gr\u00fc\u00dfe aus K\u00f6ln \u2013 \u201equotes\u201c",
      U"\u4e2d\u6587 \U0001F600 \u00a0nbsp\u3000ideographic\u2009thin", U"tab\there\x0bvt\x1cfs",
      U"&quot;quoted&quot; &amp; &lt;tag&gt;", U"before <skipped> after", U"<skipped>", U"line-\nbreak\nnext",
      U"&", U"<", U"a&b<c", U"x\u0085y", U"$100 @home #tag 50% a/b a\\b ~a^b_c`d|e"};
  evalcli::TokenizedText located;  // reused, as BLEU reuses it from line to line
  for (const std::u32string& line : lines) {
    tokenizer->tokenize_located_into(line, located);
    require_located(*tokenizer, line, located);
  }
}

TEST_CASE("13a, intl, none and char locate the same tokens as splitting their output, on random text",
          "[tokenizer][13a][intl]") {
  const std::vector<std::u32string> pieces = {
      U"a", U"B", U"\u00e4", U"\u4e2d", U"\U0001F600", U"0", U"9", U"\u0660", U".", U",", U"-", U" ", U"  ",
      U"\t", U"\x1c", U"\u00a0", U"\u3000", U"'", U"(", U"/", U"$", U"\"", U"~", U"&amp;", U"&quot;",
      U"<skipped>", U"-\n", U"&", U"<", U"\u2014", U"\u00ab", U"\u20ac", U"\u00b2", U"\U0001D7D9"};
  for (const char* name : {"13a", "intl", "none", "char"}) {
    INFO("tokenizer " << name);
    std::mt19937 random(20261205);
    std::uniform_int_distribution<std::size_t> pick(0, pieces.size() - 1);
    std::uniform_int_distribution<int> length(0, 24);
    const auto tokenizer = evalcli::make_tokenizer(name);
    evalcli::TokenizedText located;
    for (int i = 0; i < 20000; ++i) {
      std::u32string line;
      for (int k = length(random); k > 0; --k) line += pieces[pick(random)];
      tokenizer->tokenize_located_into(line, located);
      require_located(*tokenizer, line, located);
    }
  }
}

TEST_CASE("the generic path locates the tokens of any tokenizer", "[tokenizer]") {
  evalcli::TokenizedText located;
  for (const char* name : {"char", "intl", "none", "zh"}) {
    const auto tokenizer = evalcli::make_tokenizer(name);
    for (const std::u32string line : {U"", U"  ", U"Hello, world!", U"\u4e2d\u6587 ab  c", U"x"}) {
      tokenizer->tokenize_located_into(line, located);
      require_located(*tokenizer, line, located);
    }
  }
  SECTION("locate_tokens skips empty pieces") {
    located.text = U" ab  c ";
    located.locate_tokens();
    REQUIRE(located.size() == 2);
    REQUIRE(located.token(0) == U"ab");
    REQUIRE(located.token(1) == U"c");
    REQUIRE(located.tokens[1].start == 5);
  }
}
