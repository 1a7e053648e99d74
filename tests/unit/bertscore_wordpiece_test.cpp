// BERT's slow tokenizer: the token ids bert_score fed to the model for every
// test sentence (../shared/bertscore/golden/<model>/tokens.<set>.jsonl), and
// the edge cases of transformers 4.29's BertTokenizer on a small vocabulary.
#include <catch2/catch.hpp>
#include <string>

#include "evalcli/text/utf8.hpp"
#include "metrics/bertscore/model_config.hpp"
#include "metrics/bertscore/tokenizer.hpp"
#include "metrics/bertscore/wordpiece.hpp"
#include "support/bertscore_reference.hpp"
#include "support/bertscore_tokens.hpp"

using namespace evalcli::bertscore;

namespace {

// A tokenizer over a small vocabulary written to a temporary file.
struct SmallVocab {
  evalcli::test::TempFile file{
      "[PAD]\n[UNK]\n[CLS]\n[SEP]\n[MASK]\nthe\ncat\n##s\nca\n##t\n!\n.\n我\n们\nzero\n-\nwidth\ncafe\nx\n##x\n"};
  WordpieceTokenizer make(bool lower = true, std::size_t max_length = 128) const {
    WordpieceSettings s;
    s.do_lower_case = lower;
    s.model_max_length = max_length;
    return WordpieceTokenizer(file.path(), s);
  }
};

std::vector<int> encode(const WordpieceTokenizer& t, const std::string& text) {
  return t.encode(evalcli::utf8::decode_or_throw(text, "test"));
}

}  // namespace

TEST_CASE("WordPiece ids equal bert_score's for every test sentence", "[bertscore][wordpiece]") {
  const auto reference = evalcli::test::bertscore_reference();
  if (!reference) return;
  CHECK(evalcli::test::token_id_mismatches(*reference, "tiny-bert-uncased", "en") == 0);
  CHECK(evalcli::test::token_id_mismatches(*reference, "tiny-bert-uncased", "en-ref2") == 0);
  CHECK(evalcli::test::token_id_mismatches(*reference, "tiny-bert-cased-zh", "zh") == 0);
}

TEST_CASE("DistilBERT's WordPiece ids equal bert_score's for every test sentence", "[bertscore][wordpiece]") {
  CHECK(evalcli::test::token_id_mismatches(evalcli::test::distilbert_reference(), "tiny-distilbert", "en") == 0);
}

TEST_CASE("BERT's basic tokenizer edge cases", "[bertscore][wordpiece]") {
  const SmallVocab vocab;
  const WordpieceTokenizer t = vocab.make();
  CHECK(encode(t, "") == std::vector<int>{2, 3});
  CHECK(encode(t, "   ") == std::vector<int>{2, 3});
  CHECK(encode(t, "The CATS!") == std::vector<int>{2, 5, 6, 7, 10, 3});
  CHECK(encode(t, "cat.") == std::vector<int>{2, 6, 11, 3});
  CHECK(encode(t, "dog") == std::vector<int>{2, 1, 3});           // no piece matches: [UNK]
  CHECK(encode(t, "catz") == std::vector<int>{2, 1, 3});          // one unmatched piece: the whole word
  CHECK(encode(t, "Café") == std::vector<int>{2, 17, 3});         // accents stripped when lower-casing
  CHECK(encode(t, "我们") == std::vector<int>{2, 12, 13, 3});     // CJK characters split
  CHECK(encode(t, "zero\u200bwidth") == std::vector<int>{2, 1, 3});  // U+200B deleted: "zerowidth"
  CHECK(encode(t, "zero-width") == std::vector<int>{2, 14, 15, 16, 3});
  CHECK(encode(t, "the\u0007cat\u0000") == std::vector<int>{2, 1, 3});  // control characters deleted
  CHECK(encode(t, "the\tcat\u00a0cat") == std::vector<int>{2, 5, 6, 6, 3});  // tab, no-break space: spaces
  CHECK(encode(t, "[MASK] [CLS]the") == std::vector<int>{2, 4, 2, 5, 3});   // special strings stay special
  CHECK(encode(t, "[mask]") == std::vector<int>{2, 1, 1, 1, 3});  // lower case: "[", "mask", "]"
  CHECK(encode(t, std::string(100, 'x')) == std::vector<int>(
      [] { std::vector<int> v = {2, 18}; v.insert(v.end(), 99, 19); v.push_back(3); return v; }()));
  CHECK(encode(t, std::string(101, 'x')) == std::vector<int>{2, 1, 3});  // over 100 characters: [UNK]
  CHECK(encode(vocab.make(false), "Cat") == std::vector<int>{2, 1, 3});  // cased: "Cat" is unknown
}

TEST_CASE("WordPiece truncates to model_max_length with the special tokens", "[bertscore][wordpiece]") {
  const SmallVocab vocab;
  const WordpieceTokenizer t = vocab.make(true, 5);
  CHECK(encode(t, "the cat the cat the cat") == std::vector<int>{2, 5, 6, 5, 3});
}
