// Expected values come from SacreBLEU 2.6.0 (sacrebleu.metrics.CHRF) run by hand.
#include <catch2/catch.hpp>

#include <map>
#include <random>

#include "evalcli/core/error.hpp"
#include "evalcli/metrics/chrf.hpp"
#include "evalcli/text/utf8.hpp"
#include "support/test_support.hpp"

using evalcli::Chrf;
using evalcli::ChrfOptions;
using evalcli::Stat;

namespace {

std::u32string u32(const std::string& s) { return evalcli::utf8::decode_or_throw(s, "test"); }

std::vector<std::string> words(const std::string& line) {
  std::vector<std::string> out;
  const std::u32string text = u32(line);  // chrf_words returns views into it
  for (auto w : evalcli::chrf_words(text)) out.push_back(evalcli::utf8::encode(w));
  return out;
}

std::vector<Stat> stats(const Chrf& chrf, const std::string& hyp, const std::vector<std::string>& refs) {
  std::vector<std::u32string> decoded;
  for (const auto& ref : refs) decoded.push_back(u32(ref));
  std::vector<Stat> out(chrf.num_stats());
  chrf.segment_stats(u32(hyp), decoded, out.data());
  return out;
}

double sentence(const Chrf& chrf, const std::string& hyp, const std::vector<std::string>& refs) {
  return chrf.score(stats(chrf, hyp, refs));
}

}  // namespace

TEST_CASE("chrF++ word split: one leading or trailing ASCII punctuation char", "[chrf]") {
  CHECK(words("(hi) \"hi\" ... a . ,abc x,y, -") ==
        std::vector<std::string>{"(hi", ")", "\"hi", "\"", "..", ".", "a", ".", ",", "abc", "x,y", ",", "-"});
  CHECK(words("  a\u00a0b\u3000c  ") == std::vector<std::string>{"a", "b", "c"});
  CHECK(words("¡hola!") == std::vector<std::string>{"¡hola", "!"});  // ¡ is not ASCII
  CHECK(words("").empty());
}

TEST_CASE("character text drops Python whitespace only", "[chrf]") {
  CHECK(evalcli::chrf_char_text(U" a b\u00a0c\u200bd ", false) == U"abc\u200bd");
  CHECK(evalcli::chrf_char_text(U" a b", true) == U" a b");
}

TEST_CASE("hyp count is 0 when the reference has no n-gram of that order", "[chrf]") {
  ChrfOptions o;
  o.char_order = 2;
  const Chrf chrf(o);
  CHECK(stats(chrf, "abc", {"a"}) == std::vector<Stat>{3, 1, 1, 0, 0, 0});
  CHECK(sentence(chrf, "abc", {"a"}) == 71.42857142857143);
}

TEST_CASE("empty hypothesis and reference", "[chrf]") {
  CHECK(sentence(Chrf(ChrfOptions{}), "", {""}) == 0.0);
  CHECK(sentence(Chrf(ChrfOptions{}), "", {"abc"}) == 0.0);
  ChrfOptions eps;
  eps.eps_smoothing = true;
  CHECK(sentence(Chrf(eps), "", {""}) == 1.0000000000000002e-14);
}

TEST_CASE("multiple references: the best sentence F wins, ties keep the first", "[chrf]") {
  const Chrf chrf(ChrfOptions{});
  const auto s = stats(chrf, "the cat", {"a dog", "the cats", "the cat"});
  CHECK(s == std::vector<Stat>{6, 6, 6, 5, 5, 5, 4, 4, 4, 3, 3, 3, 2, 2, 2, 1, 1, 1});
  CHECK(chrf.score(s) == 100.0);
}

TEST_CASE("chrF names and signatures", "[chrf]") {
  ChrfOptions o;
  CHECK(Chrf(o).name() == "chrF2");
  CHECK(Chrf(o).signature() == "case:mixed|eff:yes|nc:6|nw:0|space:no|beta:2");
  o.word_order = 2;
  CHECK(Chrf(o).name() == "chrF2++");
  o.beta = 1;
  o.word_order = 3;
  o.eps_smoothing = true;
  o.lowercase = true;
  CHECK(Chrf(o).name() == "chrF1+++");
  const auto fields = Chrf(o).sacrebleu_fields();
  REQUIRE(fields.size() == 5);
  CHECK(fields[0].value == "lc");
  CHECK(fields[1].value == "no");
  CHECK(fields[3].value == "3");
  CHECK(fields[4].short_key == "s");
}

TEST_CASE("bad chrF options", "[chrf]") {
  ChrfOptions o;
  o.char_order = 0;
  CHECK_THROWS_AS(Chrf(o), evalcli::Error);
  o.tokenizer = "nosuch";
  o.char_order = 6;
  CHECK_THROWS_AS(Chrf(o), evalcli::Error);
}

TEST_CASE("with --tokenize, chrF++ scores the tokenizer's output text", "[chrf]") {
  ChrfOptions o;
  o.word_order = 2;
  o.tokenizer = "13a";
  const Chrf chrf(o);
  CHECK(chrf.signature() == "case:mixed|eff:yes|nc:6|nw:2|space:no|beta:2|tok:13a-v1|ngrams:tok-text-v1");
  // 13a gives "x ( a . b ) ,": 7 word unigrams; SacreBLEU's split gives x, (a.b), ","
  const auto s = stats(chrf, "x (a.b),", {"x (a.b),"});
  CHECK(s[18] == 7);
  ChrfOptions plain;
  plain.word_order = 2;
  CHECK(stats(Chrf(plain), "x (a.b),", {"x (a.b),"})[18] == 3);
}

TEST_CASE("tokenizer none gives SacreBLEU's own chrF statistics", "[chrf]") {
  // The tokens are rejoined by one space and split again as SacreBLEU splits any
  // text: the token "Hello," is still two words ("Hello", ",").
  ChrfOptions plain;
  plain.word_order = 2;
  ChrfOptions none = plain;
  none.tokenizer = "none";
  const std::string hyp = "Hello, world!  (again)", ref = " Hello world, again.";
  const auto expected = stats(Chrf(plain), hyp, {ref});
  CHECK(stats(Chrf(none), hyp, {ref}) == expected);
  // sacrebleu.metrics.CHRF(word_order=2)._extract_corpus_statistics; words: Hello , world ! (again )
  CHECK(expected == std::vector<Stat>{19, 17, 16, 18, 16, 12, 17, 15, 9, 16, 14, 6, 15, 13, 3, 14, 12, 0,
                                      6, 5, 3, 5, 4, 0});
}

TEST_CASE("evalcli chrf on the command line", "[chrf][cli]") {
  evalcli::test::TempFile hyp("The cat sat on the mat.\nHello world\n");
  evalcli::test::TempFile ref("The cat sat on a mat.\nHello, world!\n");
  auto result = evalcli::test::run_cli({"chrf", ref.path(), "-i", hyp.path(), "-cw", "2"});
  CHECK(result.exit_code == 0);
  CHECK_THAT(result.out, Catch::StartsWith("chrF2++|nrefs:1|case:mixed|eff:yes|nc:6|nw:2|space:no|beta:2|version:"));
  result = evalcli::test::run_cli(
      {"chrf", ref.path(), "-i", hyp.path(), "--signature", "chrF1++|nrefs:1|case:lc|eff:no|nc:4|nw:2|space:no|version:2.6.0"});
  CHECK(result.exit_code == 0);
  CHECK_THAT(result.out, Catch::StartsWith("chrF1++|nrefs:1|case:lc|eff:no|nc:4|nw:2|space:no|beta:1|"));
  result = evalcli::test::run_cli({"chrf", ref.path(), "-i", hyp.path(), "--signature", "chrF2+numchars.6+space.false+version.1.5.1"});
  CHECK(result.exit_code == 0);
  CHECK_THAT(result.out, Catch::StartsWith("chrF2|nrefs:1|case:mixed|eff:yes|nc:6|nw:0|space:no|beta:2|"));
  result = evalcli::test::run_cli({"chrf", ref.path(), "-i", hyp.path(), "--signature", "BLEU|nrefs:1"});
  CHECK(result.exit_code == 2);
  result = evalcli::test::run_cli({"chrf", ref.path(), "-i", hyp.path(), "-cc", "0"});
  CHECK(result.exit_code == 2);
}

TEST_CASE("evalcli chrf --tokenize: the signature reproduces the run", "[chrf][cli]") {
  evalcli::test::TempFile hyp("The cat sat on the mat.\nHello world\n");
  evalcli::test::TempFile ref("The cat sat on a mat.\nHello, world!\n");
  const auto first = evalcli::test::run_cli({"chrf", ref.path(), "-i", hyp.path(), "-cw", "2", "-tok", "13a"});
  REQUIRE(first.exit_code == 0);
  const std::string signature = first.out.substr(0, first.out.find(' '));
  CHECK_THAT(signature, Catch::Contains("|tok:13a-v1|ngrams:tok-text-v1|"));
  const auto again = evalcli::test::run_cli({"chrf", ref.path(), "-i", hyp.path(), "--signature", signature});
  CHECK(again.exit_code == 0);
  CHECK(again.out == first.out);
  // tok: without ngrams: is an older chrF --tokenize (tokens used directly as words).
  const auto old = evalcli::test::run_cli({"chrf", ref.path(), "-i", hyp.path(), "--signature",
                                           "chrF2++|nrefs:1|case:mixed|eff:yes|nc:6|nw:2|space:no|beta:2|tok:13a-v1"});
  CHECK(old.exit_code == 2);
  CHECK_THAT(old.err, Catch::Contains("ngrams:tok-text-v1"));
  const auto orphan = evalcli::test::run_cli(
      {"chrf", ref.path(), "-i", hyp.path(), "--signature", "chrF2|nrefs:1|ngrams:tok-text-v1"});
  CHECK(orphan.exit_code == 2);
}

namespace {

// SacreBLEU's chrF statistics written plainly: n-grams as strings counted in
// maps, for every reference, the one with the best sentence F kept.
std::vector<Stat> plain_chrf_stats(const Chrf& chrf, const std::u32string& hyp, const std::vector<std::u32string>& refs) {
  const ChrfOptions& o = chrf.options();
  using Counts = std::map<std::vector<std::u32string>, int>;
  auto count = [](const std::vector<std::u32string>& items, int n) {
    Counts counts;
    for (std::size_t i = 0; i + static_cast<std::size_t>(n) <= items.size(); ++i) {
      ++counts[std::vector<std::u32string>(items.begin() + static_cast<long>(i), items.begin() + static_cast<long>(i) + n)];
    }
    return counts;
  };
  auto sides = [&](const std::u32string& line) {
    std::vector<std::u32string> chars, words;
    for (char32_t c : evalcli::chrf_char_text(line, o.whitespace)) chars.emplace_back(1, c);
    for (auto w : evalcli::chrf_words(line)) words.emplace_back(w);
    std::vector<Counts> all;
    for (int n = 1; n <= o.char_order; ++n) all.push_back(count(chars, n));
    for (int n = 1; n <= o.word_order; ++n) all.push_back(count(words, n));
    return all;
  };
  auto total = [](const Counts& counts) {
    int sum = 0;
    for (const auto& [gram, k] : counts) sum += k;
    return sum;
  };
  const auto hyp_counts = sides(hyp);
  std::vector<Stat> best(chrf.num_stats(), 0.0);
  double best_f = -1;
  for (const auto& ref : refs) {
    const auto ref_counts = sides(ref);
    std::vector<Stat> row;
    for (std::size_t k = 0; k < hyp_counts.size(); ++k) {
      int match = 0;
      for (const auto& [gram, h] : hyp_counts[k]) {
        const auto found = ref_counts[k].find(gram);
        if (found != ref_counts[k].end()) match += std::min(h, found->second);
      }
      const int ref_total = total(ref_counts[k]);
      row.push_back(ref_total == 0 ? 0 : total(hyp_counts[k]));
      row.push_back(ref_total);
      row.push_back(match);
    }
    if (const double f = chrf.score(row); f > best_f) {
      best_f = f;
      best = row;
    }
  }
  return best;
}

}  // namespace

TEST_CASE("chrF statistics equal a plain n-gram count on random text", "[chrf]") {
  // Few distinct characters and words, so n-grams repeat within and across lines.
  const std::vector<std::u32string> pieces = {U"a", U"b", U"ab", U"\u00e4", U"\u4e2d", U" ", U" ", U"\u00a0",
                                              U"\t", U".", U",", U"!", U"(", U"1", U"\U0001F600", U"\U00020000"};
  std::mt19937 random(20261130);
  std::uniform_int_distribution<std::size_t> pick(0, pieces.size() - 1);
  std::uniform_int_distribution<int> length(0, 30);
  std::uniform_int_distribution<int> ref_count(1, 3);
  auto line = [&] {
    std::u32string text;
    for (int k = length(random); k > 0; --k) text += pieces[pick(random)];
    return text;
  };
  std::vector<ChrfOptions> configurations(4);
  configurations[1].word_order = 2;
  configurations[2].char_order = 4;
  configurations[2].word_order = 3;
  configurations[2].whitespace = true;
  configurations[3].char_order = 0;
  configurations[3].word_order = 2;
  for (const auto& options : configurations) {
    const Chrf chrf(options);
    for (int i = 0; i < 1500; ++i) {
      const std::u32string hyp = line();
      std::vector<std::u32string> refs;
      for (int r = ref_count(random); r > 0; --r) refs.push_back(line());
      std::vector<Stat> ours(chrf.num_stats());
      chrf.segment_stats(hyp, refs, ours.data());
      INFO("hyp: [" << evalcli::utf8::encode(hyp) << "] first ref: [" << evalcli::utf8::encode(refs[0]) << "]");
      REQUIRE(ours == plain_chrf_stats(chrf, hyp, refs));
    }
  }
}

TEST_CASE("chrF statistics of a line with very many distinct characters equal a plain count", "[chrf]") {
  // 1,500 distinct characters in a 3,000-character line: too many for the dense
  // per-segment character table, so these n-grams take the hash table instead.
  std::u32string hyp, ref;
  for (char32_t c = 0; c < 1500; ++c) {
    hyp += static_cast<char32_t>(0x4E00 + c);
    hyp += static_cast<char32_t>(0x4E00 + (c * 7) % 1500);
    ref += static_cast<char32_t>(0x4E00 + (c * 7) % 1500);
    if (c % 3 == 0) ref += static_cast<char32_t>(0x1F600 + c % 50);
  }
  std::vector<ChrfOptions> configurations(2);
  configurations[1].char_order = 8;
  configurations[1].word_order = 2;
  for (const auto& options : configurations) {
    const Chrf chrf(options);
    const std::vector<std::u32string> refs = {ref, hyp.substr(0, 100)};
    std::vector<Stat> ours(chrf.num_stats());
    chrf.segment_stats(hyp, refs, ours.data());
    REQUIRE(ours == plain_chrf_stats(chrf, hyp, refs));
    // the next segment (a short one) uses the dense table again
    const std::vector<std::u32string> short_refs = {U"ab\U0001F600c a", U""};
    chrf.segment_stats(U"abc \U0001F600 a", short_refs, ours.data());
    REQUIRE(ours == plain_chrf_stats(chrf, U"abc \U0001F600 a", short_refs));
  }
}
