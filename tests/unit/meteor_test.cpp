// NLTK METEOR pieces: WordNet lookups, greedy alignment, chunks, the formula,
// the edge cases of shared/corpora/meteor-edge, and CLI errors.
#include "evalcli/metrics/meteor.hpp"

#include <algorithm>
#include <random>

#include "evalcli/core/error.hpp"

#include "evalcli/text/porter_stemmer.hpp"
#include "evalcli/text/unicode.hpp"
#include "evalcli/text/utf8.hpp"
#include "support/test_support.hpp"

namespace {

using evalcli::NltkAlignment;
using evalcli::NltkMeteor;
using evalcli::NltkMeteorOptions;
using evalcli::WordNet;

std::vector<std::u32string> words(std::u32string_view line) {
  std::vector<std::u32string> out;
  for (auto w : evalcli::text::split(line)) out.emplace_back(w);
  return out;
}

const NltkMeteor& default_meteor() {
  static const NltkMeteor metric{NltkMeteorOptions{}};
  return metric;
}

bool contains(const std::vector<std::string>& names, const std::string& name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

}  // namespace

TEST_CASE("WordNet: morphy and synsets as NLTK", "[meteor][wordnet]") {
  const WordNet wordnet(WordNet::default_dir());
  CHECK(wordnet.version() == "3.0");
  CHECK(wordnet.morphy("dogs", WordNet::Pos::noun) == std::vector<std::string>{"dog"});
  CHECK(wordnet.morphy("churches", WordNet::Pos::noun) == std::vector<std::string>{"church"});
  CHECK(wordnet.morphy("aardwolves", WordNet::Pos::noun) == std::vector<std::string>{"aardwolf"});
  CHECK(wordnet.morphy("abaci", WordNet::Pos::noun) == std::vector<std::string>{"abacus"});  // noun.exc
  CHECK(wordnet.morphy("book", WordNet::Pos::adj).empty());
  CHECK(wordnet.morphy("hardrock", WordNet::Pos::adv).empty());
  CHECK(wordnet.synset_offsets("dog", WordNet::Pos::noun).size() == 7);
  const auto fast = wordnet.synonyms("fast");
  CHECK(contains(fast, "quick"));
  // Capitalisation kept, markers like "(a)" stripped.
  CHECK(contains(wordnet.synonyms("us"), "United_States"));
  CHECK(wordnet.synonyms("automobil").empty());
  CHECK(wordnet.synonyms("zzzzqx").empty());
}

TEST_CASE("WordNet: a missing directory is a missing resource", "[meteor][wordnet]") {
  try {
    const WordNet wordnet("/nonexistent/wordnet");
    CHECK(wordnet.version().empty());
    FAIL("no error");
  } catch (const evalcli::Error& e) {
    CHECK(e.code() == evalcli::ExitCode::missing_resource);
    CHECK(e.hint().find("wordnet-base") != std::string::npos);
  }
}

TEST_CASE("NLTK METEOR: scores of hand-checked cases", "[meteor]") {
  const auto& m = default_meteor();
  // Identical 6 words: one chunk, penalty 0.5 * (1/6)^3.
  CHECK(m.sentence_score(words(U"the cat sat on the mat"), words(U"the cat sat on the mat")) ==
        1 - 0.5 / 216);
  CHECK(m.sentence_score(words(U"yes"), words(U"yes")) == 0.5);
  CHECK(m.sentence_score({}, words(U"the cat")) == 0.0);
  CHECK(m.sentence_score(words(U"cat"), {}) == 0.0);
  CHECK(m.sentence_score(words(U"dog"), words(U"cat")) == 0.0);
  // Lowercasing is part of the metric.
  CHECK(m.sentence_score(words(U"The Cat"), words(U"the cat")) == m.sentence_score(words(U"the cat"), words(U"the cat")));
}

TEST_CASE("NLTK METEOR: stages and greedy alignment", "[meteor]") {
  const auto& m = default_meteor();
  NltkAlignment a;
  // Stem stage: running/runs -> run, dogs -> dog, jumped/jumps -> jump.
  m.sentence_score(words(U"the running dogs jumped"), words(U"the dog runs and jumps"), &a);
  CHECK(a.matches == 4);
  // Synonyms are looked up on stems: fast/quick match, automobile/car do not.
  m.sentence_score(words(U"the automobile is fast"), words(U"the car is quick"), &a);
  CHECK(a.matches == 3);
  // Greedy from the end: each hyp word takes the last equal ref word.
  m.sentence_score(words(U"a b a b"), words(U"b a b a"), &a);
  CHECK(a.matches == 4);
  CHECK(a.chunks == 4);  // (0,1) (1,0) (2,3) (3,2): no two adjacent on both sides
  // Crossing order: every match its own chunk.
  m.sentence_score(words(U"c b a"), words(U"a b c"), &a);
  CHECK(a.matches == 3);
  CHECK(a.chunks == 3);
  // Capitalised lemma names never match lowercase references.
  m.sentence_score(words(U"us"), words(U"america"), &a);
  CHECK(a.matches == 0);
}

TEST_CASE("NLTK METEOR: statistics, mean and summed-statistics score", "[meteor]") {
  NltkMeteorOptions options;
  const NltkMeteor mean_metric(options);
  std::vector<double> row(6);
  const std::vector<std::u32string> refs = {U"the cat sat", U"a cat sat on the mat"};
  mean_metric.segment_stats(U"the cat sat on the mat", refs, row.data());
  // Second reference: the first "the" finds no partner, 5 matches in one chunk.
  CHECK(row[0] == mean_metric.formula(5, 1, 6, 6));
  CHECK(row[3] == 1);
  CHECK(row[1] == 1);
  CHECK(row[2] == 5);
  CHECK(row[4] == 6);
  CHECK(row[5] == 6);
  CHECK(mean_metric.score(row) == row[0]);
  options.aggregate = evalcli::MeteorAggregate::summed_stats;
  const NltkMeteor summed(options);
  CHECK(summed.score(row) == summed.formula(5, row[3], 6, 6));
  CHECK(summed.signature().find("agg:summed-stats") != std::string::npos);
  CHECK(mean_metric.signature().find("meteor:nltk-3.8") != std::string::npos);
}

namespace {

// NLTK's matcher on strings, written out plainly: every word lowercased,
// stemmed and looked up again at each use.
evalcli::NltkAlignment plain_alignment(const std::vector<std::u32string>& hyp_tokens,
                                       const std::vector<std::u32string>& ref_tokens) {
  static const WordNet wordnet(WordNet::default_dir());
  static const evalcli::text::PorterStemmer stemmer(evalcli::text::PorterVariant::nltk);
  using Enum = std::vector<std::pair<std::size_t, std::u32string>>;
  Enum hyp, ref;
  for (std::size_t i = 0; i < hyp_tokens.size(); ++i) hyp.emplace_back(i, evalcli::text::lower(hyp_tokens[i]));
  for (std::size_t i = 0; i < ref_tokens.size(); ++i) ref.emplace_back(i, evalcli::text::lower(ref_tokens[i]));
  std::vector<std::pair<std::size_t, std::size_t>> matches;
  auto match = [&](auto equal) {
    for (std::size_t i = hyp.size(); i-- > 0;) {
      for (std::size_t j = ref.size(); j-- > 0;) {
        if (equal(hyp[i].second, ref[j].second)) {
          matches.emplace_back(hyp[i].first, ref[j].first);
          hyp.erase(hyp.begin() + static_cast<std::ptrdiff_t>(i));
          ref.erase(ref.begin() + static_cast<std::ptrdiff_t>(j));
          break;
        }
      }
    }
  };
  match([](const std::u32string& a, const std::u32string& b) { return a == b; });
  for (auto* list : {&hyp, &ref}) {
    for (auto& word : *list) word.second = stemmer.stem(std::u32string_view(word.second));
  }
  match([](const std::u32string& a, const std::u32string& b) { return a == b; });
  match([](const std::u32string& h, const std::u32string& r) {
    if (h == r) return true;
    for (const auto& name : wordnet.synonyms(evalcli::utf8::encode(h))) {
      if (name.find('_') == std::string::npos && evalcli::utf8::decode_or_throw(name, "synonym") == r) return true;
    }
    return false;
  });
  std::sort(matches.begin(), matches.end());
  std::size_t chunks = matches.empty() ? 0 : 1;
  for (std::size_t i = 0; i + 1 < matches.size(); ++i) {
    if (matches[i + 1].first != matches[i].first + 1 || matches[i + 1].second != matches[i].second + 1) ++chunks;
  }
  return {matches.size(), chunks, hyp_tokens.size(), ref_tokens.size()};
}

}  // namespace

TEST_CASE("NLTK METEOR: interned matching equals plain string matching on random sentences", "[meteor]") {
  // Words with case variants, inflections, synonyms (fast/quick/speedy,
  // car/automobile), capitalised lemma names and non-ASCII forms.
  const std::vector<std::u32string> vocabulary = {
      U"the", U"The", U"THE", U"a", U"dog", U"dogs", U"Dogs", U"run", U"running", U"runs", U"ran",
      U"fast", U"quick", U"speedy", U"quickly", U"car", U"cars", U"automobile", U"auto", U"machine",
      U"us", U"US", U"america", U"United_States", U"big", U"large", U"bigger", U"great", U"jumped",
      U"jumps", U"leap", U"happy", U"happier", U"glad", U"Straße", U"STRASSE", U"ǅemal", U"İstanbul",
      U"children", U"child", U"kid", U"kids", U"went", U"go", U"goes", U"gone", U"1", U"-", U"n't"};
  const NltkMeteor& metric = default_meteor();
  std::mt19937 rng(1130);
  for (int trial = 0; trial < 1500; ++trial) {
    std::vector<std::u32string> hyp, ref;
    for (std::size_t n = rng() % 12; n-- > 0;) hyp.push_back(vocabulary[rng() % vocabulary.size()]);
    for (std::size_t n = rng() % 12; n-- > 0;) ref.push_back(vocabulary[rng() % vocabulary.size()]);
    NltkAlignment got;
    metric.sentence_score(hyp, ref, &got);
    const NltkAlignment expected = plain_alignment(hyp, ref);
    INFO("trial " << trial);
    REQUIRE(got.matches == expected.matches);
    REQUIRE(got.chunks == expected.chunks);
    REQUIRE(got.hyp_len == expected.hyp_len);
    REQUIRE(got.ref_len == expected.ref_len);
  }
}

TEST_CASE("evalcli meteor: edge corpus through the CLI", "[meteor][cli]") {
  const auto parent = evalcli::test::shared_parent();
  if (!parent) return;
  const auto edge = *parent / "shared/corpora/meteor-edge";
  const auto result = evalcli::test::run_cli({"meteor", "-r", (edge / "ref.1.txt").string(), "-i",
                                              (edge / "hyp.txt").string(), "--sentence-level", "-b", "-w", "4"});
  INFO(result.err);
  REQUIRE(result.exit_code == 0);
  // Line 1 identical (6 words), line 2 one word, line 3 empty hypothesis.
  CHECK(result.out.rfind("0.9977\n0.5000\n0.0000\n", 0) == 0);
}

TEST_CASE("evalcli meteor: errors", "[meteor][cli]") {
  evalcli::test::TempFile hyp("a b\n"), ref("a b\n"), short_ref("");
  auto run = [&](std::vector<std::string> args) { return evalcli::test::run_cli(args); };
  auto missing = run({"meteor", "-r", ref.path(), "-i", hyp.path(), "--wordnet", "/nonexistent"});
  CHECK(missing.exit_code == 4);
  CHECK(missing.err.find("hint: install the Debian package wordnet-base") != std::string::npos);
  CHECK(run({"meteor", "-r", ref.path(), "-i", hyp.path(), "--compat", "bogus"}).exit_code == 2);
  CHECK(run({"meteor", "-r", ref.path(), "-i", hyp.path(), "--aggregate", "median"}).exit_code == 2);
  CHECK(run({"meteor", "-r", ref.path(), "-i", hyp.path(), "--modules", "stem"}).exit_code == 2);
  CHECK(run({"meteor", "-r", ref.path(), "-i", hyp.path(), "--norm", "norm"}).exit_code == 2);
  CHECK(run({"meteor", "-r", short_ref.path(), "-i", hyp.path()}).exit_code == 3);
  CHECK(run({"meteor", "-r", "/nonexistent/ref", "-i", hyp.path()}).exit_code == 3);
}
