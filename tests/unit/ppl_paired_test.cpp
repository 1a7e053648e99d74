// Paired tests between language models in `evalcli ppl` (docs/ppl.md, "Comparing
// models"): several --lm models on one text, or several --logprobs files of the
// same documents. The expected numbers are those of
// tests/data/ppl_paired/paired_reference.py, an independent numpy computation of
// SacreBLEU's paired bootstrap and approximate randomization on the same
// per-segment statistics (the commands are in tests/data/ppl_paired/goldens.json).
#include <fmt/format.h>

#include <cmath>
#include <sstream>
#include <string>
#include <vector>

#include "support/test_support.hpp"

using evalcli::test::read_json;
using evalcli::test::run_cli;
using evalcli::test::shared_parent;
using evalcli::test::source_dir;
using evalcli::test::TempFile;

namespace {

std::string data(const std::string& name) { return (source_dir() / "tests/data/ppl_paired" / name).string(); }

nlohmann::json goldens() { return read_json(source_dir() / "tests/data/ppl_paired/goldens.json"); }

// The JSON reports (one per model) of a paired run.
nlohmann::json paired_reports(std::vector<std::string> args) {
  args.insert(args.begin(), "ppl");
  for (const char* more : {"-f", "json", "-q"}) args.emplace_back(more);
  const auto result = run_cli(args);
  INFO(result.err);
  REQUIRE(result.exit_code == 0);
  const auto reports = nlohmann::json::parse(result.out);
  REQUIRE(reports.is_array());
  REQUIRE(reports.size() == 2);
  return reports;
}

double number(const nlohmann::json& value) { return value.get<double>(); }

// Scores, bootstrap means and intervals, and the p-value (ties counted) as the reference computes them.
void check_bootstrap(const nlohmann::json& reports, const nlohmann::json& expected) {
  CHECK(number(reports[0]["score"]) == number(expected["baseline_score"]));
  CHECK(number(reports[1]["score"]) == number(expected["system_score"]));
  const auto& bs = expected["bootstrap"];
  CHECK(number(reports[0]["paired"]["mean"]) == number(bs["baseline"]["mean"]));
  CHECK(number(reports[0]["paired"]["ci"]) == number(bs["baseline"]["ci"]));
  CHECK(number(reports[1]["paired"]["mean"]) == number(bs["system"]["mean"]));
  CHECK(number(reports[1]["paired"]["ci"]) == number(bs["system"]["ci"]));
  CHECK(number(reports[1]["paired"]["p_value"]) == number(bs["p_ties"]));
  // The bootstrap mean of each model lies within its interval's half-width of its corpus perplexity.
  for (const auto& report : reports) {
    CHECK(std::fabs(number(report["paired"]["mean"]) - number(report["score"])) <= number(report["paired"]["ci"]));
  }
}

}  // namespace

TEST_CASE("ppl --logprobs A B --paired-bs/--paired-ar: p-values, means and intervals as the numpy reference",
          "[ppl][paired]") {
  const auto expected = goldens()["logprobs_a_b"]["expected"];
  const auto bs = paired_reports({"--logprobs", data("a.jsonl"), data("b.jsonl"), "--paired-bs"});
  check_bootstrap(bs, expected);
  // B is better (lower PPL), but 40 documents show no significant difference.
  CHECK(bs[1]["paired"]["better"] == "system");
  CHECK(bs[1]["paired"]["higher_is_better"] == false);
  CHECK(bs[1]["paired"]["significant"] == false);
  CHECK(bs[0]["paired"]["baseline"] == true);
  CHECK(bs[0]["paired"]["p_value"].is_null());

  const auto ar = paired_reports({"--logprobs", data("a.jsonl"), data("b.jsonl"), "--paired-ar"});
  CHECK(number(ar[1]["paired"]["p_value"]) == number(expected["randomization"]["p_ties"]));
  CHECK(ar[1]["paired"]["better"] == "system");

  // The other way round: the same two-sided p-values, the baseline now the better one.
  const auto reversed = paired_reports({"--logprobs", data("b.jsonl"), data("a.jsonl"), "--paired-bs"});
  CHECK(number(reversed[1]["paired"]["p_value"]) == number(expected["bootstrap"]["p_ties"]));
  CHECK(reversed[1]["paired"]["better"] == "baseline");
  const auto reversed_ar = paired_reports({"--logprobs", data("b.jsonl"), data("a.jsonl"), "--paired-ar"});
  CHECK(number(reversed_ar[1]["paired"]["p_value"]) == number(expected["randomization"]["p_ties"]));
}

TEST_CASE("ppl paired tests: the text report names the models and says which is better, lower being better",
          "[ppl][paired]") {
  const auto result = run_cli({"ppl", "--logprobs", data("a.jsonl"), data("b.jsonl"), "--paired-bs", "-q"});
  REQUIRE(result.exit_code == 0);
  CHECK_THAT(result.out, Catch::StartsWith("Baseline: " + data("a.jsonl") + "\nPPL (per token) = 9.5472"));
  CHECK_THAT(result.out, Catch::Contains("\n" + data("b.jsonl") + "\nPPL (per token) = 8.8117"));
  CHECK_THAT(result.out, Catch::Contains(data("b.jsonl") + " 8.8117 vs baseline " + data("a.jsonl") + " 9.5472: " +
                                         data("b.jsonl") + " is better (lower is better); not significant (p = 0.1309 "
                                                           "> 0.05): no evidence that either is better"));
  CHECK_THAT(result.out, Catch::Contains("signature = nrefs:0|bs:1000|seed:12345|mode:logprobs|base:e|count:text|"));

  const auto reversed = run_cli({"ppl", "--logprobs", data("b.jsonl"), data("a.jsonl"), "--paired-ar", "-q"});
  REQUIRE(reversed.exit_code == 0);
  CHECK_THAT(reversed.out, Catch::Contains(data("a.jsonl") + " 9.5472 vs baseline " + data("b.jsonl") +
                                           " 8.8117: the baseline is better (lower is better); not significant"));
}

TEST_CASE("ppl paired tests: a model compared with itself gets p = 1 and no difference", "[ppl][paired]") {
  const auto expected = goldens()["logprobs_a_a"]["expected"];
  // The reference's SacreBLEU count would say 1/1001 ("significant"); ties counted, p = 1.
  REQUIRE(number(expected["bootstrap"]["p_strict"]) == 1.0 / 1001);
  for (const char* test : {"--paired-bs", "--paired-ar"}) {
    const auto reports = paired_reports({"--logprobs", data("a.jsonl"), data("a.jsonl"), test});
    CHECK(number(reports[1]["paired"]["p_value"]) == 1.0);
    CHECK(number(expected[std::string(test) == "--paired-bs" ? "bootstrap" : "randomization"]["p_ties"]) == 1.0);
    CHECK(reports[1]["paired"]["better"] == "neither");
    CHECK(reports[1]["paired"]["significant"] == false);
    CHECK(reports[0]["score"] == reports[1]["score"]);
  }
  const auto text = run_cli({"ppl", "--logprobs", data("a.jsonl"), data("a.jsonl"), "--paired-bs", "-q"});
  CHECK_THAT(text.out, Catch::Contains(": the same score (lower is better), no difference\n"));
}

TEST_CASE("ppl --lm A B --paired-bs: a clearly better model of the same vocabulary", "[ppl][paired]") {
  // Hand-made bigram models of the same six words: good.arpa gives the text's bigrams 10^-0.1, bad.arpa 10^-1.2.
  const auto golden = goldens()["arpa_bad_good"]["expected"];
  const auto reports = paired_reports({"--lm", data("bad.arpa"), data("good.arpa"), "-i", data("clear.txt"), "--paired-bs"});
  check_bootstrap(reports, golden);
  CHECK(reports[1]["paired"]["better"] == "system");
  CHECK(reports[1]["paired"]["significant"] == true);
  CHECK(number(reports[1]["paired"]["p_value"]) == 1.0 / 1001);
  CHECK(number(reports[0]["score"]) > 5 * number(reports[1]["score"]));
  const auto ar = paired_reports({"--lm", data("bad.arpa"), data("good.arpa"), "-i", data("clear.txt"), "--paired-ar"});
  CHECK(number(ar[1]["paired"]["p_value"]) == number(golden["randomization"]["p_ties"]));
  CHECK(ar[1]["paired"]["better"] == "system");
  // The systems are the models, each signature names its own model.
  CHECK(reports[0]["system"] == data("bad.arpa"));
  CHECK(reports[1]["system"] == data("good.arpa"));
  CHECK_THAT(reports[0]["signature"].get<std::string>(), Catch::Contains("|mode:arpa|lm:bad.arpa|lm-md5:"));
  CHECK_THAT(reports[1]["signature"].get<std::string>(), Catch::Contains("|mode:arpa|lm:good.arpa|lm-md5:"));
  CHECK(reports[0]["signature"] != reports[1]["signature"]);
  // A model against itself: p = 1 for both tests.
  for (const char* test : {"--paired-bs", "--paired-ar"}) {
    const auto self = paired_reports({"--lm", data("good.arpa"), data("good.arpa"), "-i", data("clear.txt"), test});
    CHECK(number(self[1]["paired"]["p_value"]) == 1.0);
    CHECK(self[1]["paired"]["better"] == "neither");
  }

  // The better model as the baseline: the verdict turns round; the same vocabularies get no OOV note.
  const auto reversed = run_cli({"ppl", "--lm", data("good.arpa"), data("bad.arpa"), "-i", data("clear.txt"), "--paired-bs"});
  REQUIRE(reversed.exit_code == 0);
  CHECK_THAT(reversed.out, Catch::StartsWith("Baseline: " + data("good.arpa") + "\nPPL = 2.3849 (excluding OOVs: 2.3849)"));
  CHECK_THAT(reversed.out, Catch::Contains("\n" + data("bad.arpa") + "\nPPL = 14.2866"));
  CHECK_THAT(reversed.out, Catch::Contains(data("bad.arpa") + " 14.2866 vs baseline " + data("good.arpa") +
                                           " 2.3849: the baseline is better (lower is better); significant (p = 0.0010 "
                                           "<= 0.05)"));
  CHECK_THAT(reversed.err, !Catch::Contains("vocabularies differ"));
}

TEST_CASE("ppl --lm A B on shared models: p-values of the numpy reference, each model as it scores alone, the OOV note",
          "[ppl][paired]") {
  const auto parent = shared_parent();
  if (!parent) return;
  const auto lm = [&](const std::string& name) { return (*parent / "shared/corpora/lm/arpa" / name).string(); };
  // Two close models on the first 10 lines of test2.en.tok (as make_goldens.sh cuts them).
  std::string head;
  {
    std::istringstream lines(evalcli::test::read_file(*parent / "shared/corpora/lm/test/test2.en.tok"));
    std::string line;
    for (int i = 0; i < 10 && std::getline(lines, line); ++i) head += line + "\n";
  }
  TempFile text(head);
  const auto close = goldens()["arpa_o3_o5prune"]["expected"];
  const std::vector<std::string> models = {lm("en.o3.arpa.gz"), lm("en.o5.prune.arpa.gz")};
  const auto bs = paired_reports({"--lm", models[0], models[1], "-i", text.path(), "--paired-bs"});
  check_bootstrap(bs, close);
  CHECK(bs[1]["paired"]["significant"] == true);
  // Approximate randomization over 10 lines: the trials that take all lines from one model (about 2 in
  // 1024) give the observed difference itself; SacreBLEU's count would leave them out.
  const auto ar = paired_reports({"--lm", models[0], models[1], "-i", text.path(), "--paired-ar"});
  CHECK(number(ar[1]["paired"]["p_value"]) == number(close["randomization"]["p_ties"]));
  CHECK(number(close["randomization"]["p_ties"]) > number(close["randomization"]["p_strict"]));
  // Each model's score is the one a run of that model alone gives, and its signature names it
  // (MD5s of shared/corpora/lm/README.md).
  for (std::size_t m = 0; m < 2; ++m) {
    const auto alone = run_cli({"ppl", "--lm", models[m], "-i", text.path(), "-f", "json"});
    REQUIRE(alone.exit_code == 0);
    CHECK(nlohmann::json::parse(alone.out)["score"] == bs[m]["score"]);
    CHECK(bs[m]["system"] == models[m]);
  }
  CHECK_THAT(bs[0]["signature"].get<std::string>(),
             Catch::Contains("|lm:en.o3.arpa.gz|lm-md5:fb60aecc4285430d1f9e39ae34834101|order:3|"));
  CHECK_THAT(bs[1]["signature"].get<std::string>(),
             Catch::Contains("|lm:en.o5.prune.arpa.gz|lm-md5:1d37974e71c8307bba64f16706e6107a|order:5|"));

  // The OOV trap: the toy model (40 training lines, 702 words) has the lower perplexity including
  // OOVs on toy.test.en.tok because every unknown word is one cheap <unk>; the note says so.
  const std::string toy_text = (*parent / "shared/corpora/lm/test/toy.test.en.tok").string();
  const auto trap = goldens()["arpa_toy_o3"]["expected"];
  const auto toy = paired_reports({"--lm", lm("toy.en.o3.arpa"), lm("en.o3.arpa.gz"), "-i", toy_text, "--paired-bs"});
  check_bootstrap(toy, trap);
  CHECK(toy[1]["paired"]["better"] == "baseline");
  CHECK(toy[0]["oovs"].get<int>() > 2 * toy[1]["oovs"].get<int>());
  const auto noted = run_cli({"ppl", "--lm", lm("toy.en.o3.arpa"), lm("en.o3.arpa.gz"), "-i", toy_text, "--paired-bs"});
  REQUIRE(noted.exit_code == 0);
  CHECK_THAT(noted.err, Catch::Contains(fmt::format("evalcli: note: the models' vocabularies differ: OOVs {} ({} of {} "
                                                    "tokens), {} ({} of {} tokens); each OOV costs one <unk>",
                                                    lm("toy.en.o3.arpa"), toy[0]["oovs"].get<int>(),
                                                    toy[0]["tokens"].get<int>(), lm("en.o3.arpa.gz"),
                                                    toy[1]["oovs"].get<int>(), toy[1]["tokens"].get<int>())));
}

TEST_CASE("ppl paired tests are offered only where they can run", "[ppl][paired]") {
  const std::string a = data("a.jsonl");
  // One model: nothing to compare.
  const auto one = run_cli({"ppl", "--logprobs", a, "--paired-bs"});
  CHECK(one.exit_code == 2);
  CHECK_THAT(one.err, Catch::Contains("--paired-bs: a paired test compares models on the same text: give the baseline "
                                      "first and the others after it (--logprobs BASELINE.jsonl OTHER.jsonl...)"));
  TempFile arpa("\\data\\\nngram 1=3\nngram 2=1\n\n\\1-grams:\n-1\t<unk>\n-99\t<s>\t0\n-1\t</s>\n\n\\2-grams:\n"
                "-0.5\t<s> </s>\n\n\\end\\\n",
                ".arpa");
  TempFile text("a b\n");
  const auto one_lm = run_cli({"ppl", "--lm", arpa.path(), "-i", text.path(), "--paired-ar"});
  CHECK(one_lm.exit_code == 2);
  CHECK_THAT(one_lm.err, Catch::Contains("(--lm BASELINE.arpa OTHER.arpa...)"));
  // Standard input cannot be read once per model.
  const auto from_stdin = run_cli({"ppl", "--lm", arpa.path(), arpa.path(), "--paired-bs"}, "a b\n");
  CHECK(from_stdin.exit_code == 2);
  CHECK_THAT(from_stdin.err, Catch::Contains("give it with -i FILE"));
  // A shard holds one model's signature; KenLM's text and --signature are one model's.
  const auto stats_out = run_cli({"ppl", "--logprobs", a, a, "--stats-out", "-"});
  CHECK(stats_out.exit_code == 2);
  CHECK_THAT(stats_out.err, Catch::Contains("--stats-out writes one model's statistics"));
  CHECK(run_cli({"ppl", "--lm", arpa.path(), arpa.path(), "-i", text.path(), "--kenlm-output"}).exit_code == 2);
  const auto signature =
      run_cli({"ppl", "--logprobs", a, a, "--signature", "nrefs:0|mode:logprobs|base:e|count:text|version:evalcli-0.1.0"});
  CHECK(signature.exit_code == 2);
  CHECK_THAT(signature.err, Catch::Contains("--signature names one model: give one --logprobs file with it"));
  // Two models without a test: both reported, each under its name.
  const auto both = run_cli({"ppl", "--lm", arpa.path(), arpa.path(), "-i", text.path()});
  CHECK(both.exit_code == 0);
  CHECK_THAT(both.out, Catch::StartsWith(arpa.path() + "\nPPL = "));
}

TEST_CASE("ppl --logprobs A B: the files must score the same documents, and the same tokens for a test",
          "[ppl][paired]") {
  TempFile base("{\"id\": 1, \"text\": \"a b\", \"logprobs\": [-1, -2]}\n{\"id\": 2, \"text\": \"c\", \"logprobs\": [-1]}\n",
                ".jsonl");
  TempFile fewer("{\"id\": 1, \"text\": \"a b\", \"logprobs\": [-1, -2]}\n", ".jsonl");
  TempFile other_text("{\"id\": 1, \"text\": \"a b\", \"logprobs\": [-1, -2]}\n{\"id\": 2, \"text\": \"cd\", \"logprobs\": [-1]}\n",
                      ".jsonl");
  TempFile other_id("{\"id\": 1, \"text\": \"a b\", \"logprobs\": [-1, -2]}\n\n{\"id\": 3, \"text\": \"c\", \"logprobs\": [-1]}\n",
                    ".jsonl");
  TempFile other_tokens("{\"id\": 1, \"text\": \"a b\", \"logprobs\": [-3]}\n{\"id\": 2, \"text\": \"c\", \"logprobs\": [-1]}\n",
                        ".jsonl");

  const auto count = run_cli({"ppl", "--logprobs", base.path(), fewer.path()});
  CHECK(count.exit_code == 3);
  CHECK_THAT(count.err, Catch::Contains(fewer.path() + ": 1 documents, but " + base.path() + " has 2"));
  const auto text = run_cli({"ppl", "--logprobs", base.path(), other_text.path(), "--paired-bs"});
  CHECK(text.exit_code == 3);
  CHECK_THAT(text.err, Catch::Contains(other_text.path() + ":2: not the text of " + base.path() + ":2"));
  const auto id = run_cli({"ppl", "--logprobs", base.path(), other_id.path()});
  CHECK(id.exit_code == 3);
  CHECK_THAT(id.err, Catch::Contains(other_id.path() + ":3: id 3 is not the id 2 of " + base.path() + ":2"));
  const auto tokens = run_cli({"ppl", "--logprobs", base.path(), other_tokens.path(), "--paired-ar"});
  CHECK(tokens.exit_code == 3);
  CHECK_THAT(tokens.err, Catch::Contains(other_tokens.path() + ":1: 1 scored tokens, but " + base.path() +
                                         ":1 has 2: per-token perplexities of different tokenizations are not "
                                         "comparable"));
  // Without a test both are reported, with a note.
  const auto noted = run_cli({"ppl", "--logprobs", base.path(), other_tokens.path()});
  CHECK(noted.exit_code == 0);
  CHECK_THAT(noted.err, Catch::Contains("evalcli: note: " + base.path() + " scores 3 tokens, " + other_tokens.path() +
                                        " scores 2"));
}
