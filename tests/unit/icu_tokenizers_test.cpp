// zh-icu / ja-icu: expectations from PyICU 2.10 (ICU 72.1) running the same
// word break iterator, whitespace-only segments dropped.
#include <unicode/uversion.h>

#include <catch2/catch.hpp>

#include "evalcli/text/utf8.hpp"
#include "evalcli/tokenize/tokenizer.hpp"

namespace {
std::string tok(const std::string& name, const std::string& line) {
  const auto tokenizer = evalcli::make_tokenizer(name);
  return evalcli::utf8::encode(tokenizer->tokenize(evalcli::utf8::decode_or_throw(line, "test")));
}
}  // namespace

TEST_CASE("zh-icu: ICU dictionary word segmentation", "[tokenizer][icu]") {
  if (U_ICU_VERSION_MAJOR_NUM == 72) {  // these are ICU 72's cjdict segmentations
    CHECK(tok("zh-icu", "我来到北京清华大学，他来到了网易杭研大厦。") ==
          "我 来到 北京 清华大学 ， 他 来到 了 网 易 杭 研 大厦 。");
    CHECK(tok("zh-icu", "GDP增长了3.5%") == "GDP 增长 了 3.5 %");
  }
  CHECK(tok("zh-icu", "  ") == "");
  CHECK(evalcli::make_tokenizer("zh-icu")->signature_fields() == std::string("icu:") + U_ICU_VERSION);
}

TEST_CASE("ja-icu: ICU dictionary word segmentation", "[tokenizer][icu]") {
  if (U_ICU_VERSION_MAJOR_NUM == 72) {
    CHECK(tok("ja-icu", "私は東京に住んでいます。") == "私 は 東京 に 住 んで い ます 。");
    CHECK(tok("ja-icu", "カタカナとひらがな、漢字") == "カタカナ と ひ ら が な 、 漢字");
  }
  CHECK(evalcli::make_tokenizer("ja-icu")->id() == "ja-icu-v1");
}
