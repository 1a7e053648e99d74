// `evalcli check --baseline TABLE --current TABLE`: the regression gate over
// every row and system of two `evalcli report` tables (evalcli-table/1). The
// tables are made by running `evalcli report` in-process on tests/data/report.
#include <catch2/catch.hpp>

#include <limits>
#include <memory>
#include <sstream>

#include "support/test_support.hpp"

using evalcli::test::CliResult;
using evalcli::test::run_cli;
using evalcli::test::TempFile;
using Json = nlohmann::ordered_json;

namespace {

const std::string kDir = "tests/data/report/";
// Four lines that share no word with the references: worse than any fixture system on every metric.
const char* kGarbage = "zz\nzz zz\nzz\nzz zz zz\n";

// `evalcli report -r ref.txt -i HYPS... --names A B ... -f json` with `more` options, as a file.
std::unique_ptr<TempFile> report_table(const std::vector<std::string>& hyps, const std::vector<std::string>& more) {
  std::vector<std::string> args = {"report", "-r", kDir + "ref.txt", "-i"};
  args.insert(args.end(), hyps.begin(), hyps.end());
  args.push_back("--names");
  for (std::size_t s = 0; s < hyps.size(); ++s) args.push_back(std::string(1, static_cast<char>('A' + s)));
  args.insert(args.end(), more.begin(), more.end());
  for (const std::string extra : {"-f", "json", "-q"}) args.push_back(extra);
  const CliResult result = run_cli(args);
  INFO(result.err);
  REQUIRE(result.exit_code == 0);
  return std::make_unique<TempFile>(result.out, ".json");
}

CliResult check(const TempFile& baseline, const TempFile& current, const std::vector<std::string>& more = {}) {
  std::vector<std::string> args = {"check", "--baseline", baseline.path(), "--current", current.path()};
  args.insert(args.end(), more.begin(), more.end());
  return run_cli(args);
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

bool has_line_starting(const std::string& text, const std::string& start) {
  for (const auto& line : lines_of(text)) {
    if (line.rfind(start, 0) == 0) return true;
  }
  return false;
}

const std::vector<std::string> kMetrics = {"-m", "bleu", "ter"};

}  // namespace

TEST_CASE("check tables: the same scores pass, one line per cell, systems matched by name", "[check][report]") {
  const auto base = report_table({kDir + "sys_a.txt", kDir + "sys_b.txt"}, kMetrics);
  const CliResult same = check(*base, *base);
  INFO(same.err);
  CHECK(same.exit_code == 0);
  const auto lines = lines_of(same.out);
  CHECK(lines.size() == 4);  // 2 rows x 2 systems
  for (const auto& line : lines) CHECK(line.rfind("ok   ", 0) == 0);
  CHECK(has_line_starting(same.out, "ok   BLEU A: "));
  CHECK(has_line_starting(same.out, "ok   TER B: "));

  // The same systems in the other order (and named so): each is compared with its own baseline.
  std::vector<std::string> args = {"report", "-r", kDir + "ref.txt", "-i", kDir + "sys_b.txt", kDir + "sys_a.txt",
                                   "--names", "B", "A", "-m", "bleu", "ter", "-f", "json", "-q"};
  const TempFile swapped(run_cli(args).out, ".json");
  CHECK(check(*base, swapped).exit_code == 0);
  // Resampling settings (bs:, seed:) change intervals, not scores: they do not make rows incomparable.
  const auto resampled = report_table({kDir + "sys_a.txt", kDir + "sys_b.txt"},
                                      {"-m", "bleu", "ter", "--confidence", "--confidence-n", "20", "--seed", "7"});
  CHECK(check(*base, *resampled).exit_code == 0);
}

TEST_CASE("check tables: a drop fails with exit 5, TER rising is its drop", "[check][report]") {
  const TempFile garbage(kGarbage);
  const auto base = report_table({kDir + "sys_a.txt", kDir + "sys_b.txt"}, kMetrics);
  const auto worse = report_table({kDir + "sys_a.txt", garbage.path()}, kMetrics);
  const CliResult dropped = check(*base, *worse, {"--max-drop", "0.5"});
  CHECK(dropped.exit_code == 5);
  CHECK(has_line_starting(dropped.out, "ok   BLEU A: "));
  CHECK(has_line_starting(dropped.out, "FAIL BLEU B: "));
  CHECK(has_line_starting(dropped.out, "ok   TER A: "));
  CHECK(has_line_starting(dropped.out, "FAIL TER B: "));  // a higher TER
  CHECK(dropped.err.find("(2 scores failed)") != std::string::npos);
  // The other way round BLEU rose and TER fell: both are improvements.
  const CliResult improved = check(*worse, *base);
  INFO(improved.out);
  CHECK(improved.exit_code == 0);
  // An allowance beyond the drop passes (it is large for BLEU's scale: said so).
  CHECK(check(*base, *worse, {"--max-drop", "100"}).exit_code == 2);
  CHECK(check(*base, *worse, {"--max-drop", "100", "--allow-large-drop"}).exit_code == 0);
}

TEST_CASE("check tables: external --scores rows are checked, whatever their files' hashes", "[check][report]") {
  // b.scores holds 0.9 0.1 0.2 0.3: mean 0.375.
  const TempFile same_numbers("0.90\n0.10\n0.20\n0.30\n"), zeros("0\n0\n0\n0\n");
  auto table = [&](const std::string& second_file) {
    return report_table({kDir + "sys_a.txt", kDir + "sys_b.txt"},
                        {"--scores", "human=" + kDir + "a.scores," + second_file});
  };
  const auto base = table(kDir + "b.scores");
  const auto rewritten = table(same_numbers.path());
  const auto lower = table(zeros.path());
  // Other bytes (another sha256 in the signature), the same scores: a pass.
  CHECK(check(*base, *rewritten).exit_code == 0);
  const CliResult dropped = check(*base, *lower);
  CHECK(dropped.exit_code == 5);
  CHECK(has_line_starting(dropped.out, "FAIL human B: "));
  CHECK(has_line_starting(dropped.out, "ok   human A: "));
  // A drop of 0.375: within 0.4 points, beyond 50% of 0.375.
  CHECK(check(*base, *lower, {"--max-drop", "0.4"}).exit_code == 0);
  CHECK(check(*base, *lower, {"--max-drop", "50%"}).exit_code == 5);
}

TEST_CASE("check tables: a row in one table only is an input error naming it", "[check][report]") {
  const auto both = report_table({kDir + "sys_a.txt", kDir + "sys_b.txt"}, kMetrics);
  const auto bleu_only = report_table({kDir + "sys_a.txt", kDir + "sys_b.txt"}, {"-m", "bleu"});
  for (const bool baseline_has_more : {true, false}) {
    const CliResult missing = baseline_has_more ? check(*both, *bleu_only) : check(*bleu_only, *both);
    CHECK(missing.exit_code == 3);
    CHECK(missing.err.find("row 'TER'") != std::string::npos);
    CHECK(missing.out.empty());  // nothing is checked when the tables do not match
  }
}

TEST_CASE("check tables: another signature, other systems or test set are not comparable", "[check][report]") {
  const auto base = report_table({kDir + "sys_a.txt", kDir + "sys_b.txt"}, kMetrics);
  const auto char_tokens = report_table({kDir + "sys_a.txt", kDir + "sys_b.txt"}, {"-m", "bleu", "ter", "--bleu-tokenize", "char"});
  const CliResult other = check(*base, *char_tokens);
  CHECK(other.exit_code == 2);
  CHECK(other.err.find("row 'BLEU'") != std::string::npos);
  CHECK(other.err.find("tok: '13a-v1' vs 'char") != std::string::npos);

  const auto three = report_table({kDir + "sys_a.txt", kDir + "sys_b.txt", kDir + "sys_a.txt"}, kMetrics);
  CHECK(check(*base, *three).exit_code == 2);

  Json doc = Json::parse(evalcli::test::read_file(base->path()));
  doc["segments_total"] = 5;
  const TempFile longer(doc.dump(), ".json");
  const CliResult segments = check(*base, longer);
  CHECK(segments.exit_code == 2);
  CHECK(segments.err.find("not the same test set") != std::string::npos);
}

TEST_CASE("check tables: a NaN (null) or missing score fails, never passes", "[check][report]") {
  const auto base = report_table({kDir + "sys_a.txt", kDir + "sys_b.txt"}, kMetrics);
  const Json doc = Json::parse(evalcli::test::read_file(base->path()));
  Json nan_doc = doc;
  nan_doc["rows"][0]["cells"][1]["score"] = std::numeric_limits<double>::quiet_NaN();  // dumped as null
  Json missing_doc = doc;
  missing_doc["rows"][1]["cells"][0].erase("score");
  const TempFile nan_table(nan_doc.dump(), ".json"), missing_table(missing_doc.dump(), ".json");
  REQUIRE(nan_doc.dump().find("\"score\":null") != std::string::npos);
  for (const TempFile* bad : {&nan_table, &missing_table}) {
    const std::vector<std::string> generous = {"--max-drop", "100", "--allow-large-drop"};
    const CliResult as_current = check(*base, *bad, generous), as_baseline = check(*bad, *base, generous);
    CHECK(as_current.exit_code == 5);
    CHECK(as_baseline.exit_code == 5);
    CHECK(as_current.out.find("; a score is not a number") != std::string::npos);
  }
  CHECK(has_line_starting(check(*base, nan_table).out, "FAIL BLEU B: "));
  CHECK(has_line_starting(check(*base, missing_table).out, "FAIL TER A: "));
}

TEST_CASE("check tables: refused with a single-metric report, -r/-i or --significance", "[check][report]") {
  const auto table = report_table({kDir + "sys_a.txt", kDir + "sys_b.txt"}, {"-m", "bleu"});
  const CliResult single = run_cli({"bleu", "-r", kDir + "ref.txt", "-i", kDir + "sys_a.txt", "-f", "json", "-q"});
  REQUIRE(single.exit_code == 0);
  const TempFile report(single.out, ".json");
  CHECK(check(*table, report).exit_code == 2);
  CHECK(check(report, *table).exit_code == 2);
  CHECK(check(report, *table).err.find("is a table of evalcli report") != std::string::npos);
  CHECK(run_cli({"check", "--baseline", table->path(), "-r", kDir + "ref.txt", "-i", kDir + "sys_a.txt"}).exit_code == 2);
  CHECK(check(*table, *table, {"--significance", "0.05"}).exit_code == 2);
}
