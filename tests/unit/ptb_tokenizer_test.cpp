// The `ptb` tokenizer: pycocoevalcap's PTBTokenizer (CoreNLP 3.4.1 PTBLexer,
// -lowerCase, punctuation tokens removed). The 30 golden strings are in the
// conformance test; these pin individual rules.
#include <catch2/catch.hpp>

#include "evalcli/text/utf8.hpp"
#include "evalcli/tokenize/builtin_tokenizers.hpp"
#include "evalcli/tokenize/tokenizer.hpp"

namespace {
std::string ptb(const std::string& line) {
  static const auto tokenizer = evalcli::make_tokenizer("ptb");
  return evalcli::utf8::encode(tokenizer->tokenize(evalcli::utf8::decode_or_throw(line, "test")));
}
}  // namespace

TEST_CASE("ptb: clitics and assimilations", "[tokenizer][ptb]") {
  CHECK(ptb("It's the dog's ball, isn't it?") == "it 's the dog 's ball is n't it");
  CHECK(ptb("They're gonna win, I'd say") == "they 're gon na win i 'd say");
  CHECK(ptb("We'll see; you've won") == "we 'll see you 've won");
  CHECK(ptb("DON'T STOP") == "do n't stop");
  CHECK(ptb("a tree'd forest") == "a tree 'd forest");
}

TEST_CASE("ptb: periods, abbreviations and acronyms", "[tokenizer][ptb]") {
  CHECK(ptb("A fork.A pipe on the table.") == "a fork.a pipe on the table");
  CHECK(ptb("A new T.V on top") == "a new t.v on top");
  CHECK(ptb("Jan. 5 in Washington D.C. today") == "jan. 5 in washington d.c. today");
  CHECK(ptb("the U.S. The end") == "the u.s. the end");  // acronym before a sentence starter
  CHECK(ptb("Plan B. The end") == "plan b the end");     // one-letter acronym loses its period
  CHECK(ptb("see fig. 3") == "see fig. 3");
  CHECK(ptb("apples, pears etc. and more") == "apples pears etc. and more");
}

TEST_CASE("ptb: brackets, quotes, dashes and symbols", "[tokenizer][ptb]") {
  CHECK(ptb("a (red) [big] {car}") == "a -lrb- red -rrb- -lsb- big -rsb- -lcb- car -rcb-");
  CHECK(ptb("\"hi\" 'there' `x`") == "hi there x");
  CHECK(ptb("a - b -- c --- d") == "a b c d");
  CHECK(ptb("wow!!! really?!") == "wow !!! really ?!");
  CHECK(ptb("<|endoftext|>A man") == "< | endoftext | > a man");
  CHECK(ptb("price: 5% & $3") == "price 5 % & $ 3");
  CHECK(ptb("a <b>bold</b> word") == "a <b> bold </b> word");
}

TEST_CASE("ptb: numbers, fractions and hyphenated words", "[tokenizer][ptb]") {
  CHECK(ptb("3:30 1,000.5 -7") == "3:30 1,000.5 -7");
  CHECK(ptb("2 1/2 cups") == "2\u00a01/2 cups");
  CHECK(ptb("¾ cup") == "3/4 cup");
  CHECK(ptb("a 12/25/2014 date") == "a 12/25/2014 date");
  CHECK(ptb("a start_of_text marker") == "a start_of_text marker");
  CHECK(ptb("x-ray of a mother-in-law") == "x-ray of a mother-in-law");
}

TEST_CASE("ptb: whitespace, empty and untokenizable input", "[tokenizer][ptb]") {
  CHECK(ptb("") == "");
  CHECK(ptb("   ") == "");
  CHECK(ptb("a\u200bb") == "a b");
  CHECK(ptb("smile \U0001F600 now") == "smile now");
  CHECK(ptb("two\nlines") == "two lines");  // pycocoevalcap replaces '\n' by a space
}

TEST_CASE("ptb batch: the next caption is look-ahead context", "[tokenizer][ptb]") {
  using evalcli::tokenizers::ptb_tokenize_batch;
  const auto out = ptb_tokenize_batch({U"the new nintendo wii U.", U"A man plays"});
  REQUIRE(out.size() == 2);
  CHECK(out[0] == U"the new nintendo wii u");  // "U." + newline + "A " ends a sentence
  CHECK(out[1] == U"a man plays");
  CHECK(ptb("the new nintendo wii U.") == "the new nintendo wii u.");  // end of input: kept
}
