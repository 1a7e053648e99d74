// NLTK METEOR pieces: WordNet lookups, greedy alignment, chunks, the formula,
// the edge cases of shared/corpora/meteor-edge, and CLI errors.
#include "evalcli/metrics/meteor.hpp"

#include <algorithm>

#include "evalcli/core/error.hpp"

#include "evalcli/text/unicode.hpp"
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
