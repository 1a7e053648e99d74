// `evalcli report` against the single-metric commands on the real corpora of
// ../shared/corpora: every cell of the table (score, interval, p-value) must
// be bit for bit what `evalcli METRIC ... -f json` reports for that system.
#include <catch2/catch.hpp>

#include <fmt/format.h>

#include <map>

#include "evalcli/core/format.hpp"
#include "support/test_support.hpp"

namespace fs = std::filesystem;
using evalcli::test::run_cli;
using Json = nlohmann::json;

namespace {

struct TestSet {
  std::string name;
  std::vector<std::string> refs;
  std::vector<std::string> hyps;
};

std::vector<std::string> input_args(const TestSet& set) {
  std::vector<std::string> args;
  for (const auto& ref : set.refs) args.insert(args.end(), {"-r", ref});
  args.push_back("-i");
  args.insert(args.end(), set.hyps.begin(), set.hyps.end());
  return args;
}

Json run_json(std::vector<std::string> args) {
  args.insert(args.end(), {"-f", "json", "-q"});
  const auto result = run_cli(args);
  INFO(result.err);
  REQUIRE(result.exit_code == 0);
  return Json::parse(result.out);
}

// The single command's report of system s (an array for several systems).
const Json& system_report(const Json& reports, std::size_t s) { return reports.is_array() ? reports[s] : reports; }

// The single command's numbers for a row: the report itself, or one score component of it.
const Json& scored_part(const Json& report, const Json& row) {
  const std::string label = row["label"];
  const std::string metric = row["metric_name"];
  if (label == metric) return report;
  return report["components"][label.substr(metric.size() + 1)];
}

void check_against_single_commands(const TestSet& set, const std::vector<std::string>& metrics,
                                   const std::vector<std::string>& statistics) {
  std::vector<std::string> args = {"report", "-m"};
  args.insert(args.end(), metrics.begin(), metrics.end());
  const auto inputs = input_args(set);
  args.insert(args.end(), inputs.begin(), inputs.end());
  args.insert(args.end(), statistics.begin(), statistics.end());
  const Json table = run_json(args);
  REQUIRE(table["systems"].size() == set.hyps.size());

  std::map<std::string, Json> single;
  for (const auto& metric : metrics) {
    std::vector<std::string> command = {metric};
    command.insert(command.end(), inputs.begin(), inputs.end());
    command.insert(command.end(), statistics.begin(), statistics.end());
    single[metric] = run_json(command);
  }
  std::size_t cells = 0;
  for (const auto& row : table["rows"]) {
    const Json& reports = single.at(row["metric"]);
    for (std::size_t s = 0; s < set.hyps.size(); ++s) {
      INFO(set.name << " " << row["label"] << " " << set.hyps[s]);
      const Json& report = system_report(reports, s);
      const Json& expected = scored_part(report, row);
      const Json& cell = row["cells"][s];
      CHECK(cell["score"].get<double>() == expected["score"].get<double>());
      CHECK(cell["text"] == evalcli::format_fixed(expected["score"].get<double>(), row["width"].get<int>()));
      CHECK(row["signature"] == report["signature"]);
      if (expected.contains("confidence")) {
        CHECK(cell["confidence"]["mean"].get<double>() == expected["confidence"]["mean"].get<double>());
        CHECK(cell["confidence"]["half_width"].get<double>() == expected["confidence"]["half_width"].get<double>());
      }
      if (expected.contains("paired") && !expected["paired"]["p_value"].is_null()) {
        CHECK(cell["p_value"].get<double>() == expected["paired"]["p_value"].get<double>());
      }
      ++cells;
    }
  }
  CHECK(cells >= metrics.size() * set.hyps.size());
}

TestSet wmt22(const fs::path& corpora) {
  const fs::path dir = corpora / "wmt22" / "de-en";
  return {"wmt22 de-en",
          {(dir / "ref.A.en").string(), (dir / "ref.B.en").string()},
          {(dir / "hyp.LT22.en").string(), (dir / "hyp.Online-A.en").string(), (dir / "hyp.PROMT.en").string()}};
}

}  // namespace

TEST_CASE("report: every cell equals the single-metric command on WMT22 de-en", "[report][conformance]") {
  const auto parent = evalcli::test::shared_parent();
  if (!parent) return;
  const fs::path corpora = *parent / "shared" / "corpora";
  check_against_single_commands(wmt22(corpora), {"bleu", "chrf", "ter", "meteor", "rouge", "cider"}, {});
}

TEST_CASE("report: intervals and paired tests equal the single-metric commands on WMT22", "[report][conformance]") {
  const auto parent = evalcli::test::shared_parent();
  if (!parent) return;
  const fs::path corpora = *parent / "shared" / "corpora";
  check_against_single_commands(wmt22(corpora), {"bleu", "chrf", "ter"},
                                {"--confidence", "--confidence-n", "200", "--paired-bs", "--paired-bs-n", "200"});
  check_against_single_commands(wmt22(corpora), {"chrf", "rouge"}, {"--paired-ar", "--paired-ar-n", "500"});
}

TEST_CASE("report: every cell equals the single-metric command on the summarisation corpora", "[report][conformance]") {
  const auto parent = evalcli::test::shared_parent();
  if (!parent) return;
  const fs::path dir = *parent / "shared" / "corpora" / "summ" / "cnndm_see2017";
  const TestSet set{"cnndm",
                    {(dir / "reference.txt").string()},
                    {(dir / "baseline.txt").string(), (dir / "pointer-gen.txt").string(),
                     (dir / "pointer-gen-cov.txt").string()}};
  check_against_single_commands(set, {"rouge", "bleu"}, {});
}

TEST_CASE("report: every cell equals the single-metric command on the COCO captions", "[report][conformance]") {
  const auto parent = evalcli::test::shared_parent();
  if (!parent) return;
  const fs::path dir = *parent / "shared" / "corpora" / "coco";
  TestSet set{"coco", {}, {}};
  for (int r = 1; r <= 5; ++r) set.refs.push_back((dir / fmt::format("ref.{}.txt", r)).string());
  for (const char* system : {"hyp.contrastive.txt", "hyp.topk.txt", "hyp.zerocap.txt"}) set.hyps.push_back((dir / system).string());
  check_against_single_commands(set, {"cider", "bleu", "meteor", "rouge"}, {"--confidence", "--confidence-n", "100"});
}
