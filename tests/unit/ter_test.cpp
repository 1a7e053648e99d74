// Expected values come from SacreBLEU 2.6.0 (lib_ter / TercomTokenizer) run by hand.
#include <catch2/catch.hpp>

#include <map>
#include <sstream>

#include "evalcli/core/error.hpp"
#include "evalcli/metrics/ter.hpp"
#include "evalcli/text/utf8.hpp"
#include "evalcli/tokenize/tercom.hpp"
#include "support/test_support.hpp"

using evalcli::Stat;
using evalcli::Ter;
using evalcli::TercomOptions;
using evalcli::TercomTokenizer;
using evalcli::TerOptions;

namespace {

std::string tercom(TercomOptions options, const std::string& line) {
  return evalcli::utf8::encode(TercomTokenizer(options).tokenize(evalcli::utf8::decode_or_throw(line, "test")));
}

// Words as ids: equal strings get equal ids.
std::vector<std::uint32_t> ids(const std::string& text) {
  static std::map<std::string, std::uint32_t> table;
  std::vector<std::uint32_t> out;
  std::istringstream in(text);
  std::string word;
  while (in >> word) out.push_back(table.try_emplace(word, static_cast<std::uint32_t>(table.size())).first->second);
  return out;
}

std::int64_t edits(const std::string& hyp, const std::string& ref) { return evalcli::ter_edits(ids(hyp), ids(ref)); }

std::vector<Stat> stats(const Ter& ter, const std::string& hyp, const std::vector<std::string>& refs) {
  std::vector<std::u32string> decoded;
  for (const auto& ref : refs) decoded.push_back(evalcli::utf8::decode_or_throw(ref, "test"));
  std::vector<Stat> out(2);
  ter.segment_stats(evalcli::utf8::decode_or_throw(hyp, "test"), decoded, out.data());
  return out;
}

const std::string kSample = "It's John's &quot;Book&quot;, 1,000.50 and 3-4 a.b";
const std::string kCjk = "中文（测试）。ＡＢ，c";

}  // namespace

TEST_CASE("tercom tokenizer: default lowercases and only squeezes spaces", "[ter][tokenizer]") {
  CHECK(tercom({}, "The Cat sat.") == "the cat sat.");
  CHECK(tercom({}, "&AMP;lt; x") == "&amp;lt; x");
  CHECK(tercom({}, kCjk) == "中文（测试）。ａｂ，c");
  CHECK(tercom({}, "") == "");
  CHECK(tercom({}, "İ") == "i\u0307");
}

TEST_CASE("tercom tokenizer: case-sensitive", "[ter][tokenizer]") {
  TercomOptions o;
  o.case_sensitive = true;
  CHECK(tercom(o, "The Cat sat.") == "The Cat sat.");
  CHECK(tercom(o, "&AMP;lt; x") == "&AMP;lt; x");
}

TEST_CASE("tercom tokenizer: normalized", "[ter][tokenizer]") {
  TercomOptions o;
  o.normalized = true;
  CHECK(tercom(o, "The Cat sat.") == "the cat sat .");
  CHECK(tercom(o, kSample) == "it 's john 's \" book \" , 1,000.50 and 3 - 4 a . b");
  CHECK(tercom(o, "&AMP;lt; x") == "< x");  // lowercased first, then unescaped
  CHECK(tercom(o, kCjk) == "中文（测试）。ａｂ，c");
}

TEST_CASE("tercom tokenizer: no-punct", "[ter][tokenizer]") {
  TercomOptions o;
  o.no_punct = true;
  CHECK(tercom(o, "The Cat sat.") == "the cat sat");
  CHECK(tercom(o, kSample) == "it's john's &quotbook&quot 100050 and 3-4 ab");
  CHECK(tercom(o, kCjk) == "中文（测试）。ａｂ，c");
}

TEST_CASE("tercom tokenizer: asian support", "[ter][tokenizer]") {
  TercomOptions o;
  o.asian_support = true;
  CHECK(tercom(o, kCjk) == "中文（测试）。ａｂ，c");  // no effect alone
  o.normalized = true;
  CHECK(tercom(o, kCjk) == "中 文 （ 测 试 ） 。 ａｂ ， c");
  CHECK(tercom(o, kSample) == "it 's john 's \" book \" , 1,000.50 and 3 - 4 a . b");
  o.normalized = false;
  o.no_punct = true;
  CHECK(tercom(o, kCjk) == "中文测试ａｂc");
}

TEST_CASE("shift application follows Python slicing", "[ter][shift]") {
  const std::vector<std::uint32_t> words = {0, 1, 2, 3, 4, 5};
  std::vector<std::uint32_t> out;
  evalcli::ter_perform_shift(words, 1, 2, 0, out);  // before the block
  CHECK(out == std::vector<std::uint32_t>{1, 2, 0, 3, 4, 5});
  evalcli::ter_perform_shift(words, 0, 2, 4, out);  // after the block
  CHECK(out == std::vector<std::uint32_t>{2, 3, 0, 1, 4, 5});
  evalcli::ter_perform_shift(words, 1, 2, 2, out);  // within: moved right by target - start
  CHECK(out == std::vector<std::uint32_t>{0, 3, 1, 2, 4, 5});
  evalcli::ter_perform_shift(words, 3, 2, 5, out);  // within, slice clamped at the end
  CHECK(out == std::vector<std::uint32_t>{0, 1, 2, 5, 3, 4});
}

TEST_CASE("edit counts with shifts", "[ter]") {
  CHECK(edits("b c a", "a b c") == 1);
  CHECK(edits("the cat sat on the mat", "on the mat the cat sat") == 1);
  CHECK(edits("one two three four five six", "four five six one two three") == 1);
  CHECK(edits("a a a b", "b a a a") == 1);
  CHECK(edits("a b c d e f", "a b c d e f") == 0);
  CHECK(edits("x y z", "a b c") == 3);
}

TEST_CASE("empty hypothesis or reference", "[ter]") {
  CHECK(edits("", "a b") == 2);
  CHECK(edits("a b", "") == 2);
  CHECK(edits("", "") == 0);
  const Ter ter{TerOptions{}};
  CHECK(stats(ter, "a b", {""}) == std::vector<Stat>{2, 0});
  CHECK(ter.score(std::vector<Stat>{2, 0}) == 100.0);
  CHECK(ter.score(std::vector<Stat>{0, 0}) == 0.0);
}

TEST_CASE("multiple references: min edits, average length", "[ter]") {
  const Ter ter{TerOptions{}};
  const auto s = stats(ter, "a b c", {"a b c d", "x b a c y z"});
  CHECK(s == std::vector<Stat>{1, 5.0});
  CHECK(ter.score(s) == 20.0);
}

TEST_CASE("TER signatures", "[ter]") {
  TerOptions options;
  options.tercom.normalized = true;
  const Ter ter(options);
  CHECK(ter.signature() == "case:lc|tok:tercom-v2|norm:yes|punct:yes|asian:no");
  const auto fields = ter.sacrebleu_fields();
  REQUIRE(fields.size() == 5);
  CHECK(fields[2].key == "norm");
  CHECK(fields[2].short_key == "nr");
  CHECK(fields[2].value == "yes");
}

TEST_CASE("a --tokenize tokenizer replaces tercom and rejects tercom options", "[ter]") {
  TerOptions options;
  options.tokenizer = "13a";
  CHECK(Ter(options).signature() == "case:lc|tok:13a-v1");
  options.tercom.no_punct = true;
  CHECK_THROWS_AS(Ter(options), evalcli::Error);
}

TEST_CASE("evalcli ter on the command line", "[ter][cli]") {
  evalcli::test::TempFile hyp("The cat sat on the mat.\nb c a\n");
  evalcli::test::TempFile ref("the mat the cat sat on.\na b c\n");
  auto result = evalcli::test::run_cli({"ter", ref.path(), "-i", hyp.path(), "-w", "4"});
  CHECK(result.exit_code == 0);
  CHECK_THAT(result.out, Catch::StartsWith("TER|nrefs:1|case:lc|tok:tercom-v2|norm:no|punct:yes|asian:no|version:"));
  result = evalcli::test::run_cli(
      {"ter", ref.path(), "-i", hyp.path(), "--signature", "TER|nrefs:1|case:mixed|tok:tercom|norm:yes|punct:no|asian:no"});
  CHECK(result.exit_code == 0);
  CHECK_THAT(result.out, Catch::StartsWith("TER|nrefs:1|case:mixed|tok:tercom-v2|norm:yes|punct:no|asian:no|"));
  // SacreBLEU 1.5.1 tokenized references once: tercom-v1.
  result = evalcli::test::run_cli({"ter", ref.path(), "-i", hyp.path(), "--signature", "TER+tok.tercom-norm-punct-noasian-cased+version.1.5.1"});
  CHECK_THAT(result.out, Catch::StartsWith("TER|nrefs:1|case:mixed|tok:tercom-v1|norm:yes|punct:yes|asian:no|"));
  result = evalcli::test::run_cli({"ter", ref.path(), "-i", hyp.path(), "--signature", "TER|nrefs:1|bogus:1"});
  CHECK(result.exit_code == 2);
}
