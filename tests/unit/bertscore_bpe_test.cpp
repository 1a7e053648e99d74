// RoBERTa's byte-level BPE: the token ids bert_score
// fed to the model (../shared/bertscore/golden/<model>/tokens.<set>.jsonl), and
// GPT-2's pre-tokenisation and special-token stripping on their own.
#include <catch2/catch.hpp>

#include "evalcli/text/utf8.hpp"
#include "metrics/bertscore/bpe.hpp"
#include "metrics/bertscore/model_config.hpp"
#include "metrics/bertscore/special_tokens.hpp"
#include "metrics/bertscore/tokenizer.hpp"
#include "support/bertscore_reference.hpp"
#include "support/bertscore_tokens.hpp"

using namespace evalcli::bertscore;

namespace {

std::vector<std::string> pretokenize(const std::string& text) {
  std::vector<std::string> out;
  for (const auto& piece : gpt2_pretokenize(evalcli::utf8::decode_or_throw(text, "test"))) out.push_back(evalcli::utf8::encode(piece));
  return out;
}

}  // namespace

TEST_CASE("RoBERTa BPE ids equal bert_score's", "[bertscore][bpe]") {
  const auto reference = evalcli::test::bertscore_reference();
  if (!reference) return;
  CHECK(evalcli::test::token_id_mismatches(*reference, "tiny-roberta", "en") == 0);
}

TEST_CASE("GPT-2's pre-tokenisation regex", "[bertscore][bpe]") {
  CHECK(pretokenize(" Hello world") == std::vector<std::string>{" Hello", " world"});
  CHECK(pretokenize(" it's 2021!!") == std::vector<std::string>{" it", "'s", " 2021", "!!"});
  CHECK(pretokenize(" a  b") == std::vector<std::string>{" a", " ", " b"});   // a run leaves its last space
  CHECK(pretokenize(" a   ") == std::vector<std::string>{" a", "   "});       // at the end: the whole run
  CHECK(pretokenize(" a\u00a0b") == std::vector<std::string>{" a", "\u00a0", "b"});  // only U+0020 joins a word
  CHECK(pretokenize(" 北京2021年") == std::vector<std::string>{" 北京", "2021", "年"});
  CHECK(pretokenize(" x'LL") == std::vector<std::string>{" x", "'", "LL"});  // contractions are lower case
}

TEST_CASE("GPT-2's byte characters", "[bertscore][bpe]") {
  CHECK(gpt2_byte_char(' ') == U'Ġ');
  CHECK(gpt2_byte_char('A') == U'A');
  CHECK(gpt2_byte_char('\n') == U'Ċ');
  CHECK(gpt2_byte_char(0xAD) == U'Ń');
}

TEST_CASE("special tokens strip the text beside them as their flags say", "[bertscore][bpe]") {
  const std::vector<SpecialToken> specials = {{U"<s>", false, false}, {U"<mask>", true, false}, {U"[SEP]", true, true}};
  const auto texts = [&](const std::u32string& text) {
    std::vector<std::u32string> out;
    for (const auto& piece : split_special_tokens(text, specials)) out.push_back(piece.text);
    return out;
  };
  CHECK(texts(U" a <mask> b") == std::vector<std::u32string>{U" a", U"<mask>", U" b"});  // <mask> takes the space before it
  CHECK(texts(U" a <s> b") == std::vector<std::u32string>{U" a ", U"<s>", U" b"});
  CHECK(texts(U" a [SEP] b") == std::vector<std::u32string>{U" a", U"[SEP]", U"b"});
  CHECK(texts(U"<s><mask>") == std::vector<std::u32string>{U"<s>", U"<mask>"});
}
