// The normalizers of docs/segmentation.md. NFKC and Traditional-Simplified
// expectations come from PyICU 2.10 on ICU 72.1 and `uconv -x Traditional-Simplified`.
#include <catch2/catch.hpp>

#include "evalcli/core/error.hpp"
#include "evalcli/text/normalizer.hpp"
#include "evalcli/tokenize/pipeline.hpp"
#include "evalcli/text/utf8.hpp"
#include "support/test_support.hpp"

namespace {

std::string normalize(const std::string& name, const std::string& line) {
  const auto normalizer = evalcli::make_normalizer(name);
  return evalcli::utf8::encode(normalizer->apply(evalcli::utf8::decode_or_throw(line, "test")));
}

}  // namespace

TEST_CASE("nfkc: ICU NFKC", "[normalizer]") {
  CHECK(normalize("nfkc", "ＡＢＣ①ﬁ㍿ｶ") == "ABC1fi株式会社カ");
  CHECK(normalize("nfkc", "plain") == "plain");
}

TEST_CASE("fullwidth: full-width ASCII and CJK punctuation to half-width", "[normalizer]") {
  CHECK(normalize("fullwidth", "ＡＢＣ１２３！～") == "ABC123!~");
  CHECK(normalize("fullwidth", "你好，世界。「引号」、【注】《书》") == "你好,世界.\"引号\",[注]<书>");
  CHECK(normalize("fullwidth", "a\u3000b“c”‘d’…") == "a b\"c\"'d'...");
  CHECK(normalize("fullwidth", "￥５￡") == "¥5£");
  // Not NFKC: ligatures, circled digits and half-width kana stay.
  CHECK(normalize("fullwidth", "ﬁ①ｶ") == "ﬁ①ｶ");
}

TEST_CASE("zh-t2s: ICU Traditional-Simplified", "[normalizer]") {
  CHECK(normalize("zh-t2s", "漢語繁體字與簡體字 臺灣 頭髮") == "汉语繁体字与简体字 台湾 头发");
  CHECK(normalize("zh-t2s", "简体 abc") == "简体 abc");
}

TEST_CASE("whitespace: runs of Unicode spaces to one ASCII space", "[normalizer]") {
  CHECK(normalize("whitespace", "\u3000a\u00a0\u2003 b\t\u2028c ") == "a b c");
  CHECK(normalize("whitespace", "a\u200bb") == "a\u200bb");  // ZERO WIDTH SPACE is not a space
}

TEST_CASE("punct-strip: punctuation becomes a space", "[normalizer]") {
  CHECK(normalize("punct-strip", "end.Start, \"q\"") == "end Start   q ");
  CHECK(normalize("punct-strip", "你好，世界！") == "你好 世界 ");
  CHECK(normalize("punct-strip", "1+1=2 $5 ~") == "1+1=2 $5 ~");  // symbols stay
}

TEST_CASE("normalizers chain in the order given, with versioned ids", "[normalizer]") {
  evalcli::PipelineOptions options;
  options.normalizers = {"fullwidth", "zh-t2s", "punct-strip", "whitespace"};
  options.tokenizer = "zh-jieba";
  const evalcli::TextPipeline pipeline(options);
  CHECK(pipeline.normalizer_chain_id() == "fullwidth-v1+zh-t2s-v1+punct-strip-v1+whitespace-v1");
  CHECK(evalcli::utf8::encode(pipeline.process(U"ＡＢＣ漢語，臺灣。")) == "ABC 汉语 台湾");
}

TEST_CASE("unknown normalizers and versions are refused", "[normalizer]") {
  CHECK_THROWS_WITH(evalcli::make_normalizer("nosuch"), Catch::Contains("unknown normalizer 'nosuch'"));
  CHECK(evalcli::normalizer_from_id("nfkc-v1")->id() == "nfkc-v1");
  CHECK_THROWS_WITH(evalcli::normalizer_from_id("nfkc-v2"), Catch::Contains("cannot be reproduced"));
  CHECK_THROWS_WITH(evalcli::normalizer_from_id("fullwidth"), Catch::Contains("cannot be reproduced"));
}

TEST_CASE("evalcli bleu --signature reproduces the normalizer chain", "[normalizer][cli]") {
  const evalcli::test::TempFile ref("漢語，你好。\n小明来到了北京\n");
  const evalcli::test::TempFile hyp("汉语,你好.\n小明到了北京\n");
  const auto first = evalcli::test::run_cli({"bleu", "-r", ref.path(), "-i", hyp.path(), "-tok", "zh-jieba",
                                             "--normalize", "fullwidth", "--normalize", "zh-t2s"});
  REQUIRE(first.exit_code == 0);
  const std::string signature = first.out.substr(first.out.find('|') + 1, first.out.find(" = ") - first.out.find('|') - 1);
  CHECK_THAT(signature, Catch::Contains("tok:zh-jieba-v1|") && Catch::Contains("|norm:fullwidth-v1+zh-t2s-v1|") &&
                            Catch::Contains("|dict:jieba-0.42.1-sha256."));
  const auto again = evalcli::test::run_cli({"bleu", "-r", ref.path(), "-i", hyp.path(), "--signature", signature});
  REQUIRE(again.exit_code == 0);
  CHECK(again.out == first.out);

  std::string unknown = signature;
  unknown.replace(unknown.find("zh-t2s-v1"), 9, "zh-t2s-v7");
  const auto refused = evalcli::test::run_cli({"bleu", "-r", ref.path(), "-i", hyp.path(), "--signature", unknown});
  CHECK(refused.exit_code == 2);
  CHECK_THAT(refused.err, Catch::Contains("zh-t2s-v7"));

  std::string other_dict = signature;
  other_dict.replace(other_dict.find("sha256.") + 7, 4, "0000");
  const auto wrong_dict = evalcli::test::run_cli({"bleu", "-r", ref.path(), "-i", hyp.path(), "--signature", other_dict});
  CHECK(wrong_dict.exit_code == 2);
  CHECK_THAT(wrong_dict.err, Catch::Contains("dict:"));
}
