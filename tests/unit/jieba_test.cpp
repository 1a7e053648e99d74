// zh-jieba against jieba 0.42.1 (python3-jieba) on small hand-checked cases;
// the expected strings are jieba.cut's output, whitespace tokens dropped.
#include <catch2/catch.hpp>
#include <fmt/format.h>

#include "evalcli/core/error.hpp"
#include "evalcli/text/utf8.hpp"
#include "tokenize/jieba.hpp"
#include "evalcli/tokenize/tokenizer.hpp"
#include "support/test_support.hpp"

namespace {

std::string cut(const std::string& line, bool hmm, const std::string& dictionary = {}) {
  evalcli::TokenizerOptions options;
  options.jieba_hmm = hmm;
  options.jieba_dict = dictionary;
  const auto tokenizer = evalcli::make_tokenizer("zh-jieba", options);
  return evalcli::utf8::encode(tokenizer->tokenize(evalcli::utf8::decode_or_throw(line, "test")));
}

std::vector<std::string> hmm_cut(const std::string& text) {
  const auto model = evalcli::jieba::HmmModel::load(std::string(evalcli::jieba::kDebianJiebaDir) + "/finalseg");
  const std::u32string decoded = evalcli::utf8::decode_or_throw(text, "test");
  std::vector<evalcli::jieba::Span> spans;
  evalcli::jieba::hmm_cut(decoded, model, 0, spans);
  std::vector<std::string> words;
  for (const auto& [first, last] : spans) words.push_back(evalcli::utf8::encode(decoded.substr(first, last - first)));
  return words;
}

}  // namespace

TEST_CASE("zh-jieba: dictionary words, HMM for unknown runs", "[tokenizer][jieba]") {
  CHECK(cut("我来到北京清华大学", true) == "我 来到 北京 清华大学");
  CHECK(cut("他来到了网易杭研大厦", true) == "他 来到 了 网易 杭研 大厦");
  CHECK(cut("他来到了网易杭研大厦", false) == "他 来到 了 网易 杭 研 大厦");
  CHECK(cut("小明硕士毕业于中国科学院计算所", true) == "小明 硕士 毕业 于 中国科学院 计算所");
  CHECK(cut("小明硕士毕业于中国科学院计算所", false) == "小 明 硕士 毕业 于 中国科学院 计算所");
  CHECK(cut("王小二来自浙江省杭州市萧山区", true) == "王小二 来自 浙江省 杭州市 萧山区");
}

TEST_CASE("zh-jieba: Latin, digits, punctuation and whitespace as jieba", "[tokenizer][jieba]") {
  CHECK(cut("GDP增长了3.5%，达到USD1,234亿", true) == "GDP 增长 了 3.5% ， 达到 USD1 , 234 亿");
  CHECK(cut("GDP增长了3.5%，达到USD1,234亿", false) == "GDP 增长 了 3 . 5 % ， 达到 USD1 , 234 亿");
  CHECK(cut("1.2.3版本", true) == "1.2 . 3 版本");
  CHECK(cut("1.2.3版本", false) == "1 . 2 . 3 版本");
  CHECK(cut("C++和c#都是语言abc123", true) == "C++ 和 c# 都 是 语言 abc123");
  CHECK(cut("iPhone15发布了", false) == "iPhone15 发布 了");
  CHECK(cut("  你好\t世界\u3000再见  ", true) == "你好 世界 再见");
  CHECK(cut("ＡＢＣ全角字符", true) == "Ａ Ｂ Ｃ 全角字 符");
  CHECK(cut("早上好！Hello, world.", true) == "早上好 ！ Hello , world .");
  CHECK(cut("", true).empty());
}

TEST_CASE("zh-jieba: finalseg's HMM cut", "[tokenizer][jieba]") {
  CHECK(hmm_cut("杭研大厦") == std::vector<std::string>{"杭研大厦"});
  CHECK(hmm_cut("小明abc1.5%的") == std::vector<std::string>{"小明", "abc1.5%", "的"});
  CHECK(hmm_cut("龘龘") == std::vector<std::string>{"龘", "龘"});
}

TEST_CASE("zh-jieba: a --jieba-dict dictionary is read as gen_pfdict reads it", "[tokenizer][jieba]") {
  // A later duplicate replaces the frequency but both count in the total; a
  // word with frequency 0 stays a mere prefix.
  const std::string text = "北京 5\n北京大学 3 nt\n大学 4\n学生 2\n北京 7\n大 0\n";
  const auto dictionary = evalcli::jieba::Dictionary::parse(text, "user.txt");
  CHECK(dictionary.total() == 21);
  CHECK(dictionary.lookup(U"北京") == 7);
  CHECK(dictionary.lookup(U"北京大") == 0);
  CHECK(dictionary.lookup(U"大") == 0);
  CHECK(dictionary.lookup(U"上海") == 0);
  CHECK(dictionary.size() == 8);  // jieba's FREQ has 8 keys

  const evalcli::test::TempFile file(text);
  CHECK(cut("北京大学生", false, file.path()) == "北京大学 生");
  CHECK(cut("大学生活", false, file.path()) == "大学 生 活");
  CHECK(cut("大学生活", true, file.path()) == "大学 生活");
  const auto tokenizer = evalcli::make_tokenizer("zh-jieba", {true, file.path()});
  CHECK(tokenizer->signature_fields().rfind("dict:user-sha256.", 0) == 0);
}

TEST_CASE("zh-jieba: bad and missing dictionaries", "[tokenizer][jieba]") {
  const evalcli::test::TempFile bad("北京 5\n上海\n");
  try {
    cut("北京", true, bad.path());
    FAIL("no error");
  } catch (const evalcli::Error& e) {
    CHECK(e.code() == evalcli::ExitCode::input_data);
    CHECK_THAT(e.what(), Catch::Contains(bad.path() + ":2:"));
  }
  CHECK_THROWS_AS(evalcli::jieba::Dictionary::parse("a -3\n", "x"), evalcli::Error);
  CHECK_THROWS_AS(evalcli::jieba::Dictionary::parse("a  3\n", "x"), evalcli::Error);
  CHECK_NOTHROW(evalcli::jieba::Dictionary::parse("a 1_000\t\r\n", "x"));
  try {
    cut("北京", true, "/nonexistent/dict.txt");
    FAIL("no error");
  } catch (const evalcli::Error& e) {
    CHECK(e.code() == evalcli::ExitCode::missing_resource);
  }
}

TEST_CASE("zh-jieba: dictionary lines off the fast path", "[tokenizer][jieba]") {
  using evalcli::jieba::Dictionary;
  // As gen_pfdict: line.strip(), split(' '), int(freq); tabs inside a word are part of it.
  const auto odd = Dictionary::parse("  北京 5 ns\r\na\tb 2\n上海 1_0\t\n广州 3", "x");
  CHECK(odd.lookup(U"北京") == 5);
  CHECK(odd.lookup(U"a\tb") == 2);
  CHECK(odd.lookup(U"上海") == 10);
  CHECK(odd.lookup(U"广州") == 3);  // last line without LF
  CHECK(odd.total() == 20);
  // Out of order and repeated words give the same FREQ as in order.
  const auto shuffled = Dictionary::parse("b 1\nab 3\na 2\nabc 5\nb 4\nab 6\n", "x");
  CHECK(shuffled.lookup(U"b") == 4);
  CHECK(shuffled.lookup(U"a") == 2);
  CHECK(shuffled.lookup(U"ab") == 6);
  CHECK(shuffled.lookup(U"abc") == 5);
  CHECK(shuffled.size() == 4);
  CHECK(shuffled.total() == 21);
  // jieba fails on log(0) for a dictionary without frequencies: refused (tests/unit/input_limits_test.cpp).
  CHECK_THROWS_AS(Dictionary::parse("", "x"), evalcli::Error);
  // Words sharing the first bytes of a character: 京 is E4 BA AC, 亰 is E4 BA B0.
  const auto near = Dictionary::parse("北京 1\n北亰 2\n", "x");
  CHECK(near.lookup(U"北京") == 1);
  CHECK(near.lookup(U"北亰") == 2);
  // jieba decodes the whole stripped line: invalid UTF-8 in the word or the tag, and
  // empty lines, are errors naming the line.
  for (const auto& [text, line] : std::vector<std::pair<std::string, std::string>>{
           {"北京 5\n北\xE4 3\n", ":2:"}, {"北京 5 \xFF\n", ":1:"}, {"a 1\n\nb 2\n", ":2:"},
           {"北京 5\n北\xE4\xBA 3\n", ":2:"}, {"\xED\xA0\x80 1\n", ":1:"}}) {
    try {
      (void)Dictionary::parse(text, "x");
      FAIL("no error for " << text);
    } catch (const evalcli::Error& e) {
      CHECK(e.code() == evalcli::ExitCode::input_data);
      CHECK_THAT(e.what(), Catch::Contains("x" + line));
    }
  }
}

TEST_CASE("zh-jieba: a first character that comes back, and large frequencies", "[tokenizer][jieba]") {
  using evalcli::jieba::Dictionary;
  // 'a' gets a small table from its first group; its second group adds 200
  // nodes, so the table is moved and every node renumbered (parents first).
  // Frequencies of 2^21 - 1 and more are kept apart from the slots, also
  // across that move; a later duplicate may swap a large one for a small one.
  std::string text = "a 3000000\nab 2097151\nabc 5000000\nabd 9\nb 1\n";
  std::uint64_t total = 3000000 + 2097151 + 5000000 + 9 + 1;
  for (char32_t i = 0; i < 100; ++i) {
    text += 'a';
    evalcli::utf8::append(text, U'\u4E00' + i);
    text += fmt::format("c {}\n", i + 1);
    total += i + 1;
  }
  text += "ab 7\nb 2\na\u4E00c 4000000\n";
  total += 7 + 2 + 4000000;
  const auto dictionary = Dictionary::parse(text, "x");
  CHECK(dictionary.total() == total);
  CHECK(dictionary.size() == 5 + 200);  // a, b, ab, abc, abd, and a一 a一c ... a亣 a亣c
  CHECK(dictionary.lookup(U"a") == 3000000);
  CHECK(dictionary.lookup(U"ab") == 7);
  CHECK(dictionary.lookup(U"abc") == 5000000);
  CHECK(dictionary.lookup(U"abd") == 9);
  CHECK(dictionary.lookup(U"b") == 2);
  CHECK(dictionary.lookup(U"a\u4E00c") == 4000000);
  CHECK(dictionary.lookup(U"a\u4E00") == 0);
  for (char32_t i = 1; i < 100; ++i) {
    const std::u32string word = std::u32string(U"a") + static_cast<char32_t>(U'\u4E00' + i) + U"c";
    CHECK(dictionary.lookup(word) == i + 1);
  }
  CHECK(dictionary.lookup(U"ac") == 0);
  CHECK(dictionary.lookup(U"a\u4E00cc") == 0);
  // The large frequency of a word that keeps it, through the move.
  const auto kept = Dictionary::parse("abc 2097151\nb 1\nac 1\nad 1\nae 1\naf 1\n", "x");
  CHECK(kept.lookup(U"abc") == 2097151);
  CHECK(kept.lookup(U"ab") == 0);
  CHECK(kept.lookup(U"a") == 0);
  CHECK(kept.lookup(U"af") == 1);
  CHECK(kept.size() == 8);
}

TEST_CASE("zh-jieba: ids and signature fields", "[tokenizer][jieba]") {
  CHECK(evalcli::make_tokenizer("zh-jieba")->id() == "zh-jieba-v1");
  CHECK(evalcli::make_tokenizer("zh-jieba", {false, ""})->id() == "zh-jieba-nohmm-v1");
  CHECK(evalcli::make_tokenizer("zh-jieba-nohmm")->id() == "zh-jieba-nohmm-v1");
  CHECK(evalcli::tokenizer_from_signature("zh-jieba-nohmm-v1")->id() == "zh-jieba-nohmm-v1");
  // The sha256 of Debian's python3-jieba 0.42.1-3 dict.txt (sha256sum).
  CHECK(evalcli::make_tokenizer("zh-jieba")->signature_fields() == "dict:jieba-0.42.1-sha256.7197c3211ddd");
  CHECK_THROWS_WITH(evalcli::tokenizer_from_signature("zh-jieba-v2"), Catch::Contains("cannot reproduce"));
}

TEST_CASE("evalcli tokenize -tok zh-jieba", "[cli][jieba]") {
  const auto on = evalcli::test::run_cli({"tokenize", "-tok", "zh-jieba"}, "他来到了网易杭研大厦\n\n小明 ok\n");
  CHECK(on.exit_code == 0);
  CHECK(on.out == "他 来到 了 网易 杭研 大厦\n\n小明 ok\n");
  const auto off = evalcli::test::run_cli({"tokenize", "-tok", "zh-jieba", "--jieba-hmm", "off"}, "杭研大厦\n");
  CHECK(off.out == "杭 研 大厦\n");
  const auto bad = evalcli::test::run_cli({"tokenize", "-tok", "zh-jieba", "--jieba-hmm", "maybe"}, "x\n");
  CHECK(bad.exit_code == 2);
  const auto missing = evalcli::test::run_cli({"tokenize", "-tok", "zh-jieba", "--jieba-dict", "/nonexistent"}, "x\n");
  CHECK(missing.exit_code == 4);
}
