// --stats describes the sentence-level scores. For metrics whose corpus score
// is computed from summed statistics (BLEU, chrF, TER, METEOR 1.5, NLTK METEOR
// with --aggregate summed-stats) it warns that their mean is not the corpus
// score; for those whose corpus score IS that mean (rouge-score, ROUGE-1.5.5's
// averages, NLTK METEOR's default, CIDEr) it says so instead (issue #19 item
// 7).
#include <nlohmann/json.hpp>

#include "support/test_support.hpp"

namespace {

using evalcli::test::run_cli;
using evalcli::test::TempFile;

constexpr const char *kIsNot = "their mean is not the corpus score";
constexpr const char *kIs = "their mean is the corpus score";

struct Notes {
  std::string text; // the text report
  std::string json; // sentence_scores.note of the JSON report
};

Notes notes(std::vector<std::string> args) {
  args.push_back("--stats");
  const auto text = run_cli(args);
  INFO(text.err);
  REQUIRE(text.exit_code == 0);
  args.insert(args.end(), {"-f", "json"});
  const auto json = run_cli(args);
  REQUIRE(json.exit_code == 0);
  return {text.out, nlohmann::json::parse(json.out)["sentence_scores"]["note"]
                        .get<std::string>()};
}

void check_mean_is_corpus_score(const Notes &n, bool is_mean) {
  INFO(n.text);
  INFO(n.json);
  CHECK((n.text.find(kIs) != std::string::npos) == is_mean);
  CHECK((n.text.find(kIsNot) != std::string::npos) == !is_mean);
  CHECK((n.json.find(kIs) != std::string::npos) == is_mean);
  CHECK((n.json.find(kIsNot) != std::string::npos) == !is_mean);
}

} // namespace

TEST_CASE("sentence-level statistics (--stats): metrics averaging segment "
          "scores say their mean is the corpus score",
          "[stats][cli]") {
  TempFile ref("a man rides a horse\na dog runs in the park\na cat sleeps\n");
  TempFile hyp("a man on a horse\na dog running in a park\na sleeping cat\n");
  const std::vector<std::string> files = {"-r", ref.path(), "-i", hyp.path()};
  auto with = [&](std::string command, std::vector<std::string> extra = {}) {
    std::vector<std::string> args = {std::move(command)};
    args.insert(args.end(), files.begin(), files.end());
    args.insert(args.end(), extra.begin(), extra.end());
    return args;
  };
  SECTION("corpus score is the mean") {
    check_mean_is_corpus_score(notes(with("cider")), true);
    check_mean_is_corpus_score(notes(with("rouge")), true);
    check_mean_is_corpus_score(notes(with("meteor")), true);
  }
  SECTION("corpus score from summed statistics") {
    check_mean_is_corpus_score(notes(with("bleu")), false);
    check_mean_is_corpus_score(notes(with("chrf")), false);
    check_mean_is_corpus_score(notes(with("ter")), false);
    check_mean_is_corpus_score(
        notes(with("meteor", {"--aggregate", "summed-stats"})), false);
  }
  if (const auto parent =
          evalcli::test::shared_parent()) { // ROUGE-1.5.5 needs its data folder
    const std::string data =
        (*parent / "shared/corpora/rouge155-data").string();
    check_mean_is_corpus_score(
        notes(with("rouge", {"--compat", "rouge155", "--rouge155-data", data})),
        true);
    // -t 1: scores from counts summed over the documents, not averaged.
    check_mean_is_corpus_score(
        notes(with("rouge", {"--compat", "rouge155", "--rouge155-data", data,
                             "--rouge155-flags", "-t 1"})),
        false);
  }
}
