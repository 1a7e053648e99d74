// `evalcli check` baselines beyond one evalcli report: SacreBLEU's own
// `-f json` (scores rounded as printed, several metrics), `evalcli sacrebleu
// -m ... -f json`, lists of reports of several metrics; and comparability by
// the components' versions, evalcli's own version being only a note.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>
#include <string>

#include "support/test_support.hpp"

using evalcli::test::CliResult;
using evalcli::test::run_cli;
using evalcli::test::TempFile;

namespace {

// Made with SacreBLEU 2.6.0 (tests/data/check_baselines/commands.txt).
std::string data(const std::string& name) {
  return (evalcli::test::source_dir() / "tests/data/check_baselines" / name).string();
}

CliResult check(const std::string& baseline, const std::string& hyp, std::vector<std::string> more = {}) {
  std::vector<std::string> args = {"check", "--baseline", baseline, "-r", data("ref.txt"), "-i", hyp};
  args.insert(args.end(), more.begin(), more.end());
  return run_cli(args);
}

std::size_t count(const std::string& text, const std::string& part) {
  std::size_t n = 0;
  for (auto at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++n;
  return n;
}

}  // namespace

TEST_CASE("check reads SacreBLEU's own JSON with several metrics and checks each", "[stats][check]") {
  const CliResult same = check(data("sacrebleu_bleu_chrf_ter.json"), data("hyp.txt"));
  INFO(same.err);
  CHECK(same.exit_code == 0);
  CHECK(count(same.out, "ok   ") == 3);
  CHECK_THAT(same.out, Catch::Contains("ok   BLEU") && Catch::Contains("ok   chrF2") && Catch::Contains("ok   TER"));
  CHECK_THAT(same.err, Catch::Contains("made by 2.6.0") && Catch::Contains("compared at 1 decimal"));
  const CliResult worse = check(data("sacrebleu_bleu_chrf_ter.json"), data("hyp.worse.txt"));
  CHECK(worse.exit_code == 5);
  CHECK(count(worse.out, "FAIL ") == 3);
  CHECK_THAT(worse.out, Catch::Contains("FAIL TER"));  // lower is better: its rise fails
  CHECK_THAT(worse.err, Catch::Contains("(3 scores failed)"));
}

TEST_CASE("a SacreBLEU baseline is compared at the decimals it was printed with", "[stats][check]") {
  // 35.66 with -w 2; the exact score (35.6557...) rounds to it.
  CHECK(check(data("sacrebleu_bleu_w2.json"), data("hyp.txt")).exit_code == 0);
  auto doc = nlohmann::json::parse(evalcli::test::read_file(data("sacrebleu_bleu_w2.json")));
  doc["score"] = 35.67;
  const TempFile higher(doc.dump(), ".json");
  const CliResult result = check(higher.path(), data("hyp.txt"));
  CHECK(result.exit_code == 5);
  CHECK_THAT(result.out, Catch::Contains("35.67 -> 35.66"));
}

TEST_CASE("check reads evalcli sacrebleu's JSON and lists of reports of several metrics", "[stats][check]") {
  const CliResult json = run_cli({"sacrebleu", data("ref.txt"), "-i", data("hyp.txt"), "-m", "bleu", "chrf", "-f", "json"});
  REQUIRE(json.exit_code == 0);
  const TempFile sacrebleu_front(json.out, ".json");
  CliResult result = check(sacrebleu_front.path(), data("hyp.txt"));
  CHECK(result.exit_code == 0);
  CHECK(count(result.out, "ok   ") == 2);

  const TempFile bleu("", ".json"), chrf("", ".json");
  REQUIRE(run_cli({"bleu", "-r", data("ref.txt"), "-i", data("hyp.txt"), "--json-out", bleu.path()}).exit_code == 0);
  REQUIRE(run_cli({"chrf", "-r", data("ref.txt"), "-i", data("hyp.txt"), "--json-out", chrf.path()}).exit_code == 0);
  nlohmann::json both = nlohmann::json::array({nlohmann::json::parse(evalcli::test::read_file(bleu.path())),
                                               nlohmann::json::parse(evalcli::test::read_file(chrf.path()))});
  const TempFile combined(both.dump(), ".json");
  result = check(combined.path(), data("hyp.worse.txt"));
  CHECK(result.exit_code == 5);
  CHECK_THAT(result.out, Catch::Contains("FAIL BLEU") && Catch::Contains("FAIL chrF2"));

  // --current must hold every metric of the baseline.
  result = run_cli({"check", "--baseline", combined.path(), "--current", bleu.path()});
  CHECK(result.exit_code == 2);
  CHECK_THAT(result.err, Catch::Contains("has no chrF2 scores"));
}

TEST_CASE("another evalcli version alone is a note, another component is a refusal", "[stats][check]") {
  const TempFile report("", ".json");
  REQUIRE(run_cli({"bleu", "-r", data("ref.txt"), "-i", data("hyp.txt"), "--json-out", report.path()}).exit_code == 0);
  const auto edited = [&](const std::string& from, const std::string& to) {
    auto doc = nlohmann::json::parse(evalcli::test::read_file(report.path()));
    std::string signature = doc["signature"];
    REQUIRE(signature.find(from) != std::string::npos);
    doc["signature"] = signature.replace(signature.find(from), from.size(), to);
    return std::make_unique<TempFile>(doc.dump(), ".json");
  };
  const auto older = edited("version:evalcli-", "version:evalcli-0.0.1-was-");
  CliResult result = check(older->path(), data("hyp.txt"));
  CHECK(result.exit_code == 0);
  CHECK_THAT(result.err, Catch::Contains("was made by evalcli-0.0.1-was-"));
  // With -r/-i the baseline's own settings re-score; a --current run of other settings is refused.
  const auto lowercased = edited("case:mixed", "case:lc");
  result = run_cli({"check", "--baseline", lowercased->path(), "--current", report.path()});
  CHECK(result.exit_code == 2);
  CHECK_THAT(result.err, Catch::Contains("signatures differ in case"));
}
