// `evalcli check --current`: the regression gate for metrics that -r/-i cannot
// re-score (CIDEr's corpus document frequencies, a language model, METEOR 1.5's
// resources): the new run's report or shard is compared with the baseline.
#include <catch2/catch.hpp>

#include <fmt/format.h>

#include "evalcli/core/format.hpp"
#include "support/test_support.hpp"

using evalcli::test::CliResult;
using evalcli::test::run_cli;
using evalcli::test::TempFile;

namespace {

const char* kRefs = "a man rides a horse on the beach\ntwo dogs play in the snow\na child eats an apple\n";
const char* kGood = "a man rides a horse on a beach\ntwo dogs play in snow\na child eats an apple\n";
const char* kWorse = "a horse\ndogs\nsomeone eats food\n";

// A small bigram model: "a b" is likely, "c" rare.
const char* kArpa =
    "\\data\\\nngram 1=5\nngram 2=3\n\n\\1-grams:\n-1.0\t<unk>\n-99\t<s>\t-0.5\n-0.7\t</s>\n-0.5\ta\t-0.3\n"
    "-0.6\tb\t-0.2\n\n\\2-grams:\n-0.1\t<s> a\n-0.1\ta b\n-0.2\tb </s>\n\n\\end\\\n";

}  // namespace

TEST_CASE("check --current compares CIDEr runs, refuses re-scoring them from -r/-i", "[stats][check]") {
  const TempFile refs(kRefs), good(kGood), worse(kWorse);
  const TempFile base("", ".json"), same("", ".json"), dropped("", ".json"), report("", ".json");
  auto cider = [&](const TempFile& hyp, const TempFile& out) {
    return run_cli({"cider", "-r", refs.path(), "-i", hyp.path(), "--stats-out", out.path()}).exit_code;
  };
  REQUIRE(cider(good, base) == 0);
  REQUIRE(cider(good, same) == 0);
  REQUIRE(cider(worse, dropped) == 0);
  CHECK(run_cli({"check", "--baseline", base.path(), "--current", same.path()}).exit_code == 0);
  const CliResult drop = run_cli({"check", "--baseline", base.path(), "--current", dropped.path()});
  CHECK(drop.exit_code == 5);
  CHECK(drop.out.find("FAIL CIDEr") != std::string::npos);
  CHECK(run_cli({"check", "--baseline", base.path(), "--current", dropped.path(), "--max-drop", "100",
                 "--allow-large-drop"})
            .exit_code == 0);
  // Both shards hold segment rows: a paired test can run.
  CHECK(run_cli({"check", "--baseline", base.path(), "--current", dropped.path(), "--significance", "0.05",
                 "--paired-bs-n", "50"})
            .exit_code != 2);
  // A report (no rows) as --current: the score comparison works, significance does not.
  REQUIRE(run_cli({"cider", "-r", refs.path(), "-i", good.path(), "--json-out", report.path()}).exit_code == 0);
  CHECK(run_cli({"check", "--baseline", base.path(), "--current", report.path()}).exit_code == 0);
  CHECK(run_cli({"check", "--baseline", base.path(), "--current", report.path(), "--significance", "0.05"})
            .exit_code == 2);

  const CliResult rescore = run_cli({"check", "--baseline", base.path(), "-r", refs.path(), "-i", good.path()});
  CHECK(rescore.exit_code == 2);
  CHECK(rescore.err.find("--current") != std::string::npos);
  CHECK(run_cli({"check", "--baseline", base.path(), "--current", same.path(), "-i", good.path()}).exit_code == 2);

  // Another variant is another metric setting: not comparable.
  const TempFile other("", ".json");
  REQUIRE(run_cli({"cider", "--variant", "cider", "-r", refs.path(), "-i", good.path(), "--stats-out", other.path()})
              .exit_code == 0);
  const CliResult refused = run_cli({"check", "--baseline", base.path(), "--current", other.path()});
  CHECK(refused.exit_code == 2);
  CHECK(refused.err.find("not comparable") != std::string::npos);
}

TEST_CASE("check --current: a higher perplexity is the drop", "[stats][check][ppl]") {
  const TempFile model(kArpa, ".arpa"), likely("a b\na b\n"), unlikely("b a a\nb b\n");
  const TempFile base("", ".json"), worse("", ".json");
  REQUIRE(run_cli({"ppl", "--lm", model.path(), "-i", likely.path(), "--stats-out", base.path()}).exit_code == 0);
  REQUIRE(run_cli({"ppl", "--lm", model.path(), "-i", unlikely.path(), "--stats-out", worse.path()}).exit_code == 0);
  CHECK(run_cli({"check", "--baseline", base.path(), "--current", base.path()}).exit_code == 0);
  CHECK(run_cli({"check", "--baseline", base.path(), "--current", worse.path()}).exit_code == 5);
  // The other way round perplexity went down: an improvement.
  CHECK(run_cli({"check", "--baseline", worse.path(), "--current", base.path()}).exit_code == 0);
}

namespace {

double report_score(const TempFile& report) {
  return nlohmann::json::parse(evalcli::test::read_file(report.path()))["score"].get<double>();
}

}  // namespace

TEST_CASE("check: --max-drop in points or percent, NaN never passes, large allowances need saying so",
          "[stats][check]") {
  const TempFile refs(kRefs), good(kGood), worse(kWorse);
  const TempFile base("", ".json"), now("", ".json");
  REQUIRE(run_cli({"bleu", "-r", refs.path(), "-i", good.path(), "--json-out", base.path()}).exit_code == 0);
  REQUIRE(run_cli({"bleu", "-r", refs.path(), "-i", worse.path(), "--json-out", now.path()}).exit_code == 0);
  const double before = report_score(base), after = report_score(now);
  REQUIRE(after < before);
  const double percent = 100.0 * (before - after) / before;
  auto check = [&](std::vector<std::string> extra) {
    std::vector<std::string> args = {"check", "--baseline", base.path(), "--current", now.path()};
    args.insert(args.end(), extra.begin(), extra.end());
    return run_cli(args);
  };
  SECTION("relative thresholds are a share of the baseline score") {
    CHECK(check({"--max-drop", fmt::format("{}%", percent * 1.01), "--allow-large-drop"}).exit_code == 0);
    CHECK(check({"--max-drop", fmt::format("{}%", percent * 0.99), "--allow-large-drop"}).exit_code == 5);
  }
  SECTION("a threshold large for the metric's scale is refused without --allow-large-drop") {
    const CliResult large = check({"--max-drop", fmt::format("{}", before - after + 1)});
    CHECK(large.exit_code == 2);
    CHECK_THAT(large.err, Catch::Contains("--allow-large-drop") && Catch::Contains("0..100 scale"));
    CHECK(check({"--max-drop", "0.5"}).exit_code == 5);  // a small threshold is just checked
  }
  SECTION("NaN, negative and malformed thresholds are usage errors in words") {
    for (const std::vector<std::string>& bad : std::vector<std::vector<std::string>>{
             {"--max-drop", "nan"}, {"--max-drop", "-nan"}, {"--max-drop", "-1"}, {"--max-drop", "1%%"},
             {"--significance", "nan"}, {"--significance", "0"}, {"--significance", "2"}}) {
      INFO(bad[0] << " " << bad[1]);
      const CliResult result = check(bad);
      CHECK(result.exit_code == 2);
      CHECK_THAT(result.err, Catch::Contains("'" + bad[1] + "'"));
      CHECK_THAT(result.err, !Catch::Contains("1797693"));  // no DBL_MAX as a "range"
    }
  }
}

TEST_CASE("check prints with the metric's own precision", "[stats][check]") {
  const TempFile refs(kRefs), good(kGood), base("", ".json");
  REQUIRE(run_cli({"meteor", "-r", refs.path(), "-i", good.path(), "--json-out", base.path()}).exit_code == 0);
  const CliResult result = run_cli({"check", "--baseline", base.path(), "-r", refs.path(), "-i", good.path()});
  REQUIRE(result.exit_code == 0);
  const std::string four_decimals = evalcli::format_fixed(report_score(base), 4);
  CHECK_THAT(result.out, Catch::Contains(four_decimals + " -> " + four_decimals));
  // A 0..1 metric: --max-drop 1 is the whole scale.
  CHECK(run_cli({"check", "--baseline", base.path(), "-r", refs.path(), "-i", good.path(), "--max-drop", "1"})
            .exit_code == 2);
}

TEST_CASE("check matches several systems by name, not position", "[stats][check]") {
  const TempFile refs(kRefs), good(kGood), worse(kWorse), base("", ".json");
  REQUIRE(run_cli({"bleu", "-r", refs.path(), "-i", good.path(), worse.path(), "--json-out", base.path()}).exit_code ==
          0);
  // The same files in the other order: each is compared with its own baseline.
  CHECK(run_cli({"check", "--baseline", base.path(), "-r", refs.path(), "-i", worse.path(), good.path()}).exit_code ==
        0);
  const TempFile other(kGood);
  const CliResult unknown =
      run_cli({"check", "--baseline", base.path(), "-r", refs.path(), "-i", other.path(), worse.path()});
  CHECK(unknown.exit_code == 2);
  CHECK_THAT(unknown.err, Catch::Contains("no system named"));
}

TEST_CASE("check refuses a baseline scored on another test set, naming what differs", "[stats][check]") {
  const TempFile refs(kRefs), good(kGood), base("", ".json");
  REQUIRE(run_cli({"bleu", "-r", refs.path(), "-i", good.path(), "--json-out", base.path()}).exit_code == 0);
  const auto report = nlohmann::json::parse(evalcli::test::read_file(base.path()));
  REQUIRE(report.contains("test_set"));
  CHECK(report["test_set"]["segments"] == 3);
  CHECK(report["hypothesis"]["file"] == good.path());

  const TempFile renamed(kRefs);  // the same references under another name: the same test set
  CHECK(run_cli({"check", "--baseline", base.path(), "-r", renamed.path(), "-i", good.path()}).exit_code == 0);

  const TempFile other_refs("a man rides a horse\ntwo dogs play\na child eats\n");
  const CliResult other = run_cli({"check", "--baseline", base.path(), "-r", other_refs.path(), "-i", good.path()});
  CHECK(other.exit_code == 2);
  CHECK_THAT(other.err, Catch::Contains("references differ") && Catch::Contains(other_refs.path()));

  const TempFile longer_refs(std::string(kRefs) + "one more line\n"), longer_hyp(std::string(kGood) + "one more\n");
  const CliResult longer =
      run_cli({"check", "--baseline", base.path(), "-r", longer_refs.path(), "-i", longer_hyp.path()});
  CHECK(longer.exit_code == 2);
  CHECK_THAT(longer.err, Catch::Contains("3 segments") && Catch::Contains("on 4"));

  // Two reports: the --current one's references are compared the same way.
  const TempFile now("", ".json");
  REQUIRE(run_cli({"bleu", "-r", other_refs.path(), "-i", good.path(), "--json-out", now.path()}).exit_code == 0);
  CHECK(run_cli({"check", "--baseline", base.path(), "--current", now.path()}).exit_code == 2);
}
