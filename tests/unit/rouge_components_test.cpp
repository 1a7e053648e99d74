// Issue #18 item 7: ROUGE's --confidence, paired tests, --stats and check cover
// every requested ROUGE type (score components, metric.hpp) and name each.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <sstream>

#include "evalcli/metrics/rouge.hpp"
#include "evalcli/text/utf8.hpp"
#include "stats/numpy_rng.hpp"
#include "support/test_support.hpp"

using evalcli::test::CliResult;
using evalcli::test::run_cli;
using evalcli::test::TempFile;
using nlohmann::json;

namespace {

const char* kRefs =
    "the cat sat on the mat today\na quick brown fox jumps over it\npolice killed the gunman in the street\n"
    "the weather is very nice this morning\nwe went to the market to buy fruit\nhe reads a book every single night\n";
const char* kHypA =
    "the cat was on the mat\na brown fox jumped over it\nthe gunman was shot dead by police\n"
    "weather is nice this morning\nwe went to a market for fruit\nhe reads books at night\n";
const char* kHypB =
    "a cat sat on a mat today\nthe quick fox jumps over it\npolice kill the gunman\nthe weather is nice\n"
    "we went shopping for fruit\nhe reads a book every night\n";
// kHypA's words, each line reversed: the same unigrams (rouge1 unchanged),
// hardly a bigram left (rouge2 drops).
const char* kHypAReversed =
    "mat the on was cat the\nit over jumped fox brown a\npolice by dead shot was gunman the\n"
    "morning this nice is weather\nfruit for market a to went we\nnight at books reads he\n";

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

json run_json(std::vector<std::string> args) {
  args.insert(args.begin(), "rouge");
  args.insert(args.end(), {"-f", "json"});
  const CliResult result = run_cli(args);
  INFO(result.err);
  REQUIRE(result.exit_code == 0);
  return json::parse(result.out);
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// The interval computed here from the per-pair rows: numpy's choice(N, (n, N))
// with seed 12345, each resample's mean F of `type` summed in row order,
// bounds sorted[n//40] and sorted[n - n//40 - 1] (docs/statistics.md).
std::pair<double, double> interval_from_rows(std::size_t type, std::size_t samples) {
  const evalcli::RougeScoreMetric metric(evalcli::RougeScoreOptions{});
  const auto refs = lines(kRefs), hyps = lines(kHypA);
  std::vector<double> fmeasure;
  for (std::size_t i = 0; i < refs.size(); ++i) {
    std::vector<double> row(metric.num_stats());
    const std::vector<std::u32string> ref = {evalcli::utf8::decode_or_throw(refs[i], "ref")};
    metric.segment_stats(evalcli::utf8::decode_or_throw(hyps[i], "hyp"), ref, row.data());
    fmeasure.push_back(row[3 * type + 2]);
  }
  evalcli::stats::Pcg64 rng(std::uint64_t{12345});
  const auto indices = evalcli::stats::bootstrap_indices(rng, samples, fmeasure.size());
  std::vector<double> means;
  for (std::size_t s = 0; s < samples; ++s) {
    double sum = 0;
    for (std::size_t i = 0; i < fmeasure.size(); ++i) sum += fmeasure[indices[s * fmeasure.size() + i]];
    means.push_back(sum / static_cast<double>(fmeasure.size()));
  }
  std::sort(means.begin(), means.end());
  return {means[samples / 40], means[samples - samples / 40 - 1]};
}

}  // namespace

TEST_CASE("rouge --ci: an interval for every type, labelled, each as the type alone gives it", "[rouge][stats]") {
  const TempFile refs(kRefs), hyp(kHypA);
  const json multi = run_json({"-r", refs.path(), "-i", hyp.path(), "--ci", "--confidence-n", "200"});
  REQUIRE(multi.contains("components"));
  CHECK(multi["score_component"] == "rouge1");
  const std::vector<std::string> types = {"rouge1", "rouge2", "rougeL", "rougeLsum"};
  for (std::size_t t = 0; t < types.size(); ++t) {
    INFO(types[t]);
    const json& component = multi["components"][types[t]];
    CHECK(component["score"].get<double>() == multi["types"][types[t]]["fmeasure"].get<double>());
    // The same resamples as a run of that type alone (the same seed).
    const json alone =
        run_json({"-r", refs.path(), "-i", hyp.path(), "--ci", "--confidence-n", "200", "--types", types[t]});
    CHECK(component["confidence"] == alone["confidence"]);
    const auto [lower, upper] = interval_from_rows(t, 200);
    CHECK(component["confidence"]["lower"].get<double>() == lower);
    CHECK(component["confidence"]["upper"].get<double>() == upper);
  }
  // The report's own interval is the first type's, the one its score is.
  CHECK(multi["confidence"] == multi["components"]["rouge1"]["confidence"]);
  CHECK(multi["components"]["rouge2"]["confidence"] != multi["confidence"]);

  const CliResult text = run_cli({"rouge", "-r", refs.path(), "-i", hyp.path(), "--ci", "--confidence-n", "200"});
  REQUIRE(text.exit_code == 0);
  for (const auto& type : types) {
    CHECK(contains(text.out, "  ROUGE " + type + " bootstrap 95% CI (200 resamples, seed 12345): μ = "));
  }
  CHECK_FALSE(contains(text.out, "  ROUGE bootstrap"));
}

TEST_CASE("rouge paired tests: one result per type, labelled", "[rouge][stats]") {
  const TempFile refs(kRefs), a(kHypA), b(kHypB);
  for (const std::string test : {"--paired-bs", "--paired-ar"}) {
    INFO(test);
    const json multi = run_json({"-r", refs.path(), "-i", a.path(), b.path(), test, "--types", "rouge1", "rouge2"});
    const json rouge2 = run_json({"-r", refs.path(), "-i", a.path(), b.path(), test, "--types", "rouge2"});
    REQUIRE(multi.is_array());
    CHECK(multi[1]["components"]["rouge2"]["paired"] == rouge2[1]["paired"]);
    CHECK(multi[1]["paired"] == multi[1]["components"]["rouge1"]["paired"]);
    CHECK(multi[1]["components"]["rouge1"]["paired"]["p_value"] != rouge2[1]["paired"]["p_value"]);

    const CliResult text = run_cli({"rouge", "-r", refs.path(), "-i", a.path(), b.path(), test});
    REQUIRE(text.exit_code == 0);
    const std::string kind = test == "--paired-bs" ? "paired bootstrap:" : "paired approximate randomization:";
    for (const std::string type : {"rouge1", "rouge2", "rougeL", "rougeLsum"}) {
      CHECK(contains(text.out, "  ROUGE " + type + " " + kind));
    }
  }
}

TEST_CASE("rouge --stats: the sentence-level distribution of every type", "[rouge][stats]") {
  const TempFile refs(kRefs), hyp(kHypA);
  const CliResult text = run_cli({"rouge", "-r", refs.path(), "-i", hyp.path(), "--stats"});
  REQUIRE(text.exit_code == 0);
  // The mean of the per-pair F of each type is that type's corpus F (the table's).
  CHECK(contains(text.out, "rouge2     0.41667 0.32540 0.36391\n"));
  CHECK(contains(text.out, "  sentence-level ROUGE rouge2 (n = 6; their mean is the corpus score): mean 0.36391 "));
  CHECK(contains(text.out, "  sentence-level ROUGE rouge1 (n = 6; their mean is the corpus score): mean 0.66117 "));
  const json report = run_json({"-r", refs.path(), "-i", hyp.path()});
  CHECK(report["components"]["rougeL"]["sentence_scores"]["mean"].get<double>() ==
        Approx(report["types"]["rougeL"]["fmeasure"].get<double>()).epsilon(1e-15));
}

TEST_CASE("check: a drop in any ROUGE type fails, naming it", "[rouge][check]") {
  const TempFile refs(kRefs), a(kHypA), reversed(kHypAReversed);
  const TempFile report("", ".json"), shard("", ".json");
  REQUIRE(run_cli({"rouge", "-r", refs.path(), "-i", a.path(), "--json-out", report.path(), "--stats-out",
                   shard.path()})
              .exit_code == 0);
  for (const TempFile* baseline : {&report, &shard}) {
    // rouge1 is unchanged: it alone would pass.
    const CliResult check = run_cli({"check", "--baseline", baseline->path(), "-r", refs.path(), "-i", reversed.path()});
    INFO(check.out << check.err);
    CHECK(check.exit_code == 5);
    CHECK(contains(check.out, "ok   ROUGE rouge1 "));
    CHECK(contains(check.out, "FAIL ROUGE rouge2 "));
    CHECK(contains(check.err, "ROUGE rouge2"));
    const CliResult same = run_cli({"check", "--baseline", baseline->path(), "-r", refs.path(), "-i", a.path()});
    CHECK(same.exit_code == 0);
    CHECK(contains(same.out, "ok   ROUGE rougeLsum "));
  }
  const CliResult significance = run_cli(
      {"check", "--baseline", shard.path(), "-r", refs.path(), "-i", reversed.path(), "--significance", "0.05"});
  CHECK(significance.exit_code == 5);
  CHECK(contains(significance.out, "FAIL ROUGE rouge2 "));
  CHECK(contains(significance.out, "(significantly worse)"));
}

TEST_CASE("check: a ROUGE report without each type's score compares the first, and says so", "[rouge][check]") {
  const TempFile refs(kRefs), a(kHypA), reversed(kHypAReversed);
  const TempFile report("", ".json");
  REQUIRE(run_cli({"rouge", "-r", refs.path(), "-i", a.path(), "--json-out", report.path()}).exit_code == 0);
  json older = json::parse(evalcli::test::read_file(report.path()));
  older.erase("components");
  const TempFile older_report(older.dump(), ".json");
  const CliResult check = run_cli({"check", "--baseline", older_report.path(), "-r", refs.path(), "-i", reversed.path()});
  CHECK(check.exit_code == 0);
  CHECK(contains(check.out, "ok   ROUGE "));
  CHECK(contains(check.err, "records only the first ROUGE score (rouge1)"));
}

TEST_CASE("rouge --compat rouge155: --ci and check cover every measure", "[rouge][stats][check]") {
  const auto parent = evalcli::test::shared_parent();
  if (!parent) return;
  const std::string data = (*parent / "shared/corpora/rouge155-data").string();
  const TempFile refs(kRefs), a(kHypA), reversed(kHypAReversed), shard("", ".json");
  const std::vector<std::string> run = {"rouge", "--compat", "rouge155", "--rouge155-data", data,
                                        "--rouge155-flags", "-n 2 -2 4 -u", "-r", refs.path()};
  auto with = [&](std::vector<std::string> more) {
    std::vector<std::string> args = run;
    args.insert(args.end(), more.begin(), more.end());
    return run_cli(args);
  };
  const CliResult text = with({"-i", a.path(), "--ci", "--confidence-n", "200"});
  REQUIRE(text.exit_code == 0);
  for (const std::string measure : {"ROUGE-1", "ROUGE-2", "ROUGE-L", "ROUGE-SU4"}) {
    CHECK(contains(text.out, "  ROUGE-1.5.5 " + measure + " bootstrap 95% CI (200 resamples, seed 12345): μ = "));
  }
  REQUIRE(with({"-i", a.path(), "--stats-out", shard.path()}).exit_code == 0);
  // check rebuilds ROUGE-1.5.5 from the signature: its data folder from the environment.
  ::setenv("ROUGE_EVAL_HOME", data.c_str(), 1);
  const CliResult check = run_cli({"check", "--baseline", shard.path(), "-r", refs.path(), "-i", reversed.path()});
  CHECK(check.exit_code == 5);
  CHECK(contains(check.out, "ok   ROUGE-1.5.5 ROUGE-1 "));
  CHECK(contains(check.out, "FAIL ROUGE-1.5.5 ROUGE-2 "));
  ::unsetenv("ROUGE_EVAL_HOME");
}

TEST_CASE("rouge reports record their test set: check refuses a ROUGE baseline on other references", "[rouge][check]") {
  const TempFile refs(kRefs), a(kHypA), report("", ".json"), shard("", ".json");
  REQUIRE(run_cli({"rouge", "-r", refs.path(), "-i", a.path(), "--json-out", report.path(), "--stats-out",
                   shard.path()})
              .exit_code == 0);
  const json recorded = json::parse(evalcli::test::read_file(report.path()));
  REQUIRE(recorded.contains("test_set"));
  CHECK(recorded["test_set"]["segments"] == 6);
  CHECK(recorded["hypothesis"]["file"] == a.path());
  CHECK(json::parse(evalcli::test::read_file(shard.path())).contains("test_set"));
  const TempFile other_refs(std::string(kRefs).replace(0, 3, "one"));
  const CliResult other = run_cli({"check", "--baseline", report.path(), "-r", other_refs.path(), "-i", a.path()});
  CHECK(other.exit_code == 2);
  CHECK(contains(other.err, "references differ"));
  const CliResult same = run_cli({"check", "--baseline", report.path(), "-r", refs.path(), "-i", a.path()});
  CHECK(same.exit_code == 0);
  CHECK_FALSE(contains(same.err, "does not record its test set"));
}
