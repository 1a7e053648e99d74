// The nltk-word tokenizer against NLTK 3.8 word_tokenize(line, preserve_line=True).
#include "evalcli/tokenize/tokenizer.hpp"
#include "evalcli/text/utf8.hpp"
#include "support/test_support.hpp"

TEST_CASE("nltk-word tokenizer: NLTK word_tokenize examples", "[tokenize][nltk-word]") {
  const auto tokenizer = evalcli::make_tokenizer("nltk-word");
  CHECK(tokenizer->id() == "nltk-word-v1");
  auto tok = [&](const char* line) {
    return evalcli::utf8::encode(tokenizer->tokenize(evalcli::utf8::decode_or_throw(line, "test")));
  };
  // Expected strings printed by NLTK 3.8 (Debian python3-nltk).
  CHECK(tok("Mr. Smith's car isn't red.") == "Mr. Smith 's car is n't red .");
  CHECK(tok("He said, \"I cannot go...\" (really)!") == "He said , `` I can not go ... '' ( really ) !");
  CHECK(tok("It costs $3.50 -- or 3,5 EUR; ok?") == "It costs $ 3.50 -- or 3,5 EUR ; ok ?");
  CHECK(tok("") == "");
}
