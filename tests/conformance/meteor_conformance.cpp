// Replays every golden in shared/golden/meteor/: NLTK and METEOR 1.5 scores
// (through the CLI, JSON output), NLTK Porter stems and WordNet synonym sets.
#include <set>

#include "evalcli/text/porter_stemmer.hpp"
#include "evalcli/metrics/wordnet.hpp"
#include "support/test_support.hpp"

namespace {

using nlohmann::json;
namespace fs = std::filesystem;

void check_porter_stems(const json& golden) {
  const evalcli::text::PorterStemmer stemmer(evalcli::text::PorterVariant::nltk);
  const auto& stems = golden["expected"]["stems"];
  REQUIRE(stems.size() == golden["expected"]["n_words"].get<std::size_t>());
  std::size_t mismatches = 0;
  for (auto it = stems.begin(); it != stems.end(); ++it) {
    const std::string got = stemmer.stem(std::string_view(it.key()));
    if (got != it.value().get<std::string>()) {
      if (++mismatches <= 10) FAIL_CHECK(it.key() << ": got " << got << ", expected " << it.value());
    }
  }
  CHECK(mismatches == 0);
}

void check_wordnet_synonyms(const json& golden) {
  const evalcli::WordNet wordnet(evalcli::WordNet::default_dir());
  const auto& synonyms = golden["expected"]["synonyms"];
  REQUIRE(synonyms.size() == golden["expected"]["n_forms"].get<std::size_t>());
  std::size_t mismatches = 0;
  for (auto it = synonyms.begin(); it != synonyms.end(); ++it) {
    // meteor_score's set: lemma names without '_' plus the form itself, sorted.
    std::set<std::string> got = {it.key()};
    for (const auto& name : wordnet.synonyms(it.key())) {
      if (name.find('_') == std::string::npos) got.insert(name);
    }
    const auto expected = it.value().get<std::vector<std::string>>();
    if (std::vector<std::string>(got.begin(), got.end()) != expected) {
      if (++mismatches <= 10) FAIL_CHECK(it.key() << ": got " << json(got).dump() << ", expected " << it.value());
    }
  }
  CHECK(mismatches == 0);
}

// Runs `evalcli meteor` with JSON output and per-segment scores.
json run_meteor_json(const fs::path& parent, const json& golden, std::vector<std::string> args) {
  const auto& inputs = golden["inputs"];
  args.insert(args.begin(), "meteor");
  for (const auto& ref : inputs["refs"]) {
    args.push_back("-r");
    args.push_back((parent / ref.get<std::string>()).string());
  }
  args.push_back("-i");
  args.push_back((parent / inputs["hyp"].get<std::string>()).string());
  args.insert(args.end(), {"-f", "json", "--sentence-level"});
  const auto result = evalcli::test::run_cli(args);
  INFO(result.err);
  CHECK(result.exit_code == 0);
  return result.exit_code == 0 ? json::parse(result.out) : json();
}

void check_segment_scores(const json& report, const json& expected) {
  const auto& sentences = report["sentences"];
  const auto& scores = expected["segment_scores"];
  CHECK(report["segments"].get<std::size_t>() == expected["n_segments"].get<std::size_t>());
  CHECK(sentences.size() == scores.size());
  if (sentences.size() != scores.size()) return;
  std::size_t mismatches = 0;
  for (std::size_t i = 0; i < scores.size(); ++i) {
    const double got = sentences[i]["score"].get<double>();
    if (got != scores[i].get<double>()) {
      if (++mismatches <= 10) FAIL_CHECK("segment " << i + 1 << ": got " << got << ", expected " << scores[i]);
    }
  }
  CHECK(mismatches == 0);
}

void check_nltk_scores(const fs::path& parent, const json& golden) {
  const auto& options = golden["options"];
  const bool word_tokenize = golden["case"].get<std::string>().find("word_tokenize") != std::string::npos;
  const auto report = run_meteor_json(
      parent, golden,
      {"--tokenize", word_tokenize ? "nltk-word" : "none", "--alpha", json(options["alpha"]).dump(), "--beta",
       json(options["beta"]).dump(), "--gamma", json(options["gamma"]).dump()});
  if (report.is_null()) return;
  const auto& expected = golden["expected"];
  check_segment_scores(report, expected);
  // Python sum() is left-to-right addition, as evalcli's summed statistics.
  CHECK(report["score"].get<double>() == expected["corpus_mean"].get<double>());
  CHECK(report["signature"].get<std::string>().find("meteor:nltk-3.8") != std::string::npos);
}

void check_meteor15_scores(const fs::path& parent, const json& golden) {
  std::vector<std::string> args = {"--compat", "meteor15", "--meteor-resources",
                                   (parent / "shared/corpora/meteor15").string()};
  // METEOR 1.5 argv -> evalcli options (-r N: evalcli takes the references as separate files).
  const auto argv = golden["options"]["argv"].get<std::vector<std::string>>();
  for (std::size_t i = 0; i < argv.size(); ++i) {
    if (argv[i] == "-l") {
      args.insert(args.end(), {"--lang", argv[++i]});
    } else if (argv[i] == "-norm") {
      args.insert(args.end(), {"--norm", "norm"});
    } else if (argv[i] == "-lower") {
      args.insert(args.end(), {"--norm", "lower"});
    } else if (argv[i] == "-m") {
      args.insert(args.end(), {"--modules", argv[++i]});
    } else if (argv[i] == "-r") {
      ++i;
    } else {
      FAIL("METEOR 1.5 option not mapped by this test: " << argv[i]);
    }
  }
  const auto report = run_meteor_json(parent, golden, args);
  if (report.is_null()) return;
  const auto& expected = golden["expected"];
  check_segment_scores(report, expected);
  CHECK(report["score"].get<double>() == expected["system_score"].get<double>());
  CHECK(report["eval_id"].get<std::string>() == expected["eval_id"].get<std::string>());
  CHECK(report["signature"].get<std::string>().find(expected["eval_id"].get<std::string>()) != std::string::npos);
  const auto& system = expected["system_stats"];
  CHECK(report["stats"]["test_len"].get<double>() == system["test_words"].get<double>());
  CHECK(report["stats"]["ref_len"].get<double>() == system["reference_words"].get<double>());
  CHECK(report["stats"]["chunks"].get<double>() == system["chunks"].get<double>());
  for (const char* key : {"precision", "recall", "f1", "fmean", "frag_penalty"}) {
    INFO(key);
    CHECK(report[key].get<double>() == system[key].get<double>());
  }
}

}  // namespace

TEST_CASE("meteor goldens: every file in shared/golden/meteor", "[meteor][conformance]") {
  const auto parent = evalcli::test::shared_parent();
  if (!parent) return;
  const auto files = evalcli::test::golden_files(*parent, "meteor");
  CHECK(files.size() == 13);
  for (const auto& path : files) {
    const std::string name = path.filename().string();
    {
      INFO("golden " << name);
      const json golden = evalcli::test::read_json(path);
      if (name.rfind("nltk_porter_stems", 0) == 0) {
        check_porter_stems(golden);
      } else if (name.rfind("nltk_wordnet_synonyms", 0) == 0) {
        check_wordnet_synonyms(golden);
      } else if (name.rfind("nltk_meteor.", 0) == 0) {
        check_nltk_scores(*parent, golden);
      } else if (name.rfind("meteor15.", 0) == 0) {
        check_meteor15_scores(*parent, golden);
      } else {
        FAIL("golden file of an unknown kind: " << name);
      }
    }
  }
}
