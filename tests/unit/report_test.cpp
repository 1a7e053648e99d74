// `evalcli report` on a small fixture (tests/data/report): the table formats
// against goldens, --scores (external per-segment scores), --segments-out
// against the single commands' sentence scores, and the refusals.
#include <catch2/catch.hpp>

#include <numeric>

#include "evalcli/core/summation.hpp"
#include "support/test_support.hpp"

namespace fs = std::filesystem;
using evalcli::test::read_file;
using evalcli::test::run_cli;
using Json = nlohmann::ordered_json;  // ordered: a report's "stats" keys in the metric's order

namespace {

const std::string kDir = "tests/data/report/";

std::vector<std::string> fixture_args() {
  return {"report", "-r", kDir + "ref.txt", "-i", kDir + "sys_a.txt", kDir + "sys_b.txt", "-q"};
}

std::vector<std::string> with(std::vector<std::string> args, const std::vector<std::string>& more) {
  args.insert(args.end(), more.begin(), more.end());
  return args;
}

std::string temp_path(const std::string& name) {
  return (fs::temp_directory_path() / ("evalcli-report-test-" + std::to_string(::getpid()) + "-" + name)).string();
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

}  // namespace

TEST_CASE("report: text, Markdown, LaTeX and TSV tables match their goldens", "[report]") {
  const auto args = with(fixture_args(), {"-m", "bleu", "chrf", "ter", "rouge", "--rouge-types", "rouge1,rougeL",
                                          "--scores", "human=" + kDir + "a.scores," + kDir + "b.scores",
                                          "--paired-ar", "--paired-ar-n", "99", "--stats"});
  for (const std::string format : {"text", "markdown", "latex", "tsv"}) {
    INFO(format);
    const auto result = run_cli(with(args, {"-f", format}));
    INFO(result.err);
    REQUIRE(result.exit_code == 0);
    const std::string golden = kDir + "table." + format;
    if (std::getenv("EVALCLI_UPDATE_GOLDENS") != nullptr) {
      std::ofstream(golden) << result.out;
    }
    CHECK(result.out == read_file(golden));
  }
}

TEST_CASE("report: --scores gives external scores their exact mean and signature", "[report]") {
  const auto result = run_cli(with(fixture_args(), {"--scores", "human=" + kDir + "a.scores," + kDir + "a.scores",
                                                    "--scores", "comet:score=" + kDir + "b.scores.jsonl," + kDir + "b.scores.jsonl",
                                                    "-f", "json"}));
  INFO(result.err);
  REQUIRE(result.exit_code == 0);
  const Json table = Json::parse(result.out);
  REQUIRE(table["rows"].size() == 2);
  const std::vector<double> human = {0.5, 0.25, -1, 1e-3};
  CHECK(table["rows"][0]["cells"][0]["score"].get<double>() == evalcli::stats::exact_mean(human));
  CHECK(table["rows"][0]["cells"][0]["sentence_scores"]["n"] == 4);
  CHECK(table["rows"][1]["label"] == "comet");
  CHECK(table["rows"][1]["cells"][1]["score"].get<double>() == (0.75 + 0.5 + 0 + 2) / 4);
  const std::string signature = table["rows"][1]["signature"];
  CHECK(signature.find("scores:comet|field:score|sha256:") != std::string::npos);
}

TEST_CASE("report: bad --scores files name the file and the line", "[report]") {
  const std::string bad = temp_path("bad.scores");
  std::ofstream(bad) << "0.5\n0.25\nabc\n1\n";
  auto result = run_cli(with(fixture_args(), {"--scores", "x=" + bad + "," + bad}));
  CHECK(result.exit_code == 3);
  CHECK(result.err.find(bad + ":3: 'abc' is not a finite number") != std::string::npos);

  std::ofstream(bad) << "0.5\n0.25\n";
  result = run_cli(with(fixture_args(), {"--scores", "x=" + bad + "," + bad}));
  CHECK(result.exit_code == 3);
  CHECK(result.err.find("2 scores for 4 segments") != std::string::npos);

  result = run_cli(with(fixture_args(), {"--scores", "x=" + kDir + "a.scores"}));
  CHECK(result.exit_code == 2);
  CHECK(result.err.find("1 files for 2 systems") != std::string::npos);

  result = run_cli(with(fixture_args(), {"--scores", "x:missing=" + kDir + "b.scores.jsonl," + kDir + "b.scores.jsonl"}));
  CHECK(result.exit_code == 3);
  CHECK(result.err.find("b.scores.jsonl:1: no field \"missing\"") != std::string::npos);

  result = run_cli(with(fixture_args(), {"--scores", "a|b=" + kDir + "a.scores," + kDir + "a.scores"}));
  CHECK(result.exit_code == 2);
  fs::remove(bad);
}

TEST_CASE("report: --segments-out has each segment's texts and the single commands' sentence scores", "[report]") {
  const std::string jsonl = temp_path("segments.jsonl");
  const auto result = run_cli(with(fixture_args(), {"-m", "bleu", "chrf", "--segments-out", jsonl}));
  INFO(result.err);
  REQUIRE(result.exit_code == 0);
  const auto lines = lines_of(read_file(jsonl));
  const auto hyps_a = lines_of(read_file(kDir + "sys_a.txt"));
  const auto refs = lines_of(read_file(kDir + "ref.txt"));
  REQUIRE(lines.size() == hyps_a.size());
  for (const std::string metric : {"bleu", "chrf"}) {
    const auto single = run_cli({metric, "-r", kDir + "ref.txt", "-i", kDir + "sys_a.txt", kDir + "sys_b.txt",
                                 "--sentence-level", "-f", "json", "-q"});
    REQUIRE(single.exit_code == 0);
    const Json reports = Json::parse(single.out);
    for (std::size_t s = 0; s < 2; ++s) {
      const std::string system = s == 0 ? "sys_a.txt" : "sys_b.txt";
      const std::string label = reports[s]["name"];
      for (std::size_t i = 0; i < lines.size(); ++i) {
        const Json line = Json::parse(lines[i]);
        INFO(metric << " " << system << " segment " << i + 1);
        CHECK(line["id"] == std::to_string(i + 1));
        CHECK(line["ref"] == refs[i]);
        if (s == 0) CHECK(line["hyp[sys_a.txt]"] == hyps_a[i]);
        CHECK(line[label + "[" + system + "]"].get<double>() == reports[s]["sentences"][i]["score"].get<double>());
        const Json stats = reports[s]["sentences"][i]["stats"];
        CHECK(line[label + "." + reports[s]["stats"].begin().key() + "[" + system + "]"].get<double>() ==
              stats[0].get<double>());
      }
    }
  }
  fs::remove(jsonl);
}

TEST_CASE("report: refusals are usage errors", "[report]") {
  CHECK(run_cli(with(fixture_args(), {"-m", "nosuch"})).exit_code == 2);
  CHECK(run_cli(with(fixture_args(), {"-m", "bleu", "bleu"})).exit_code == 2);
  CHECK(run_cli(with(fixture_args(), {"-m", "bleu", "--all-pairs"})).exit_code == 2);
  CHECK(run_cli(with(fixture_args(), {"-m", "bleu", "--names", "one"})).exit_code == 2);
  CHECK(run_cli(with(fixture_args(), {"-m", "bleu", "--segments-out", temp_path("x.csv")})).exit_code == 2);
  CHECK(run_cli(with(fixture_args(), {"-m", "ppl"})).exit_code == 2);
  CHECK(run_cli(with(fixture_args(), {"-m", "bleu", "--bleu-tokenize", "nosuch"})).exit_code == 2);
  CHECK(run_cli(with(fixture_args(), {"-m", "chrf", "--chrf-beta", "nan"})).exit_code == 2);
  CHECK(run_cli({"report", "-m", "bleu", "-r", kDir + "ref.txt", "-q"}).exit_code == 2);  // no -i
}

TEST_CASE("report: options go to their metric, shared text options to every metric that has them", "[report]") {
  auto table = Json::parse(run_cli(with(fixture_args(), {"-m", "bleu", "ter", "--bleu-tokenize", "char", "-f", "json"})).out);
  CHECK(table["rows"][0]["signature"].get<std::string>().find("tok:char") != std::string::npos);
  table = Json::parse(run_cli(with(fixture_args(), {"-m", "bleu", "chrf", "--tokenize", "char", "--lowercase", "-f", "json"})).out);
  CHECK(table["rows"][0]["signature"].get<std::string>().find("tok:char") != std::string::npos);
  CHECK(table["rows"][0]["signature"].get<std::string>().find("case:lc") != std::string::npos);
  CHECK(table["rows"][1]["signature"].get<std::string>().find("case:lc") != std::string::npos);
  // --names, and the same numbers whatever the names.
  const auto named = Json::parse(run_cli(with(fixture_args(), {"-m", "bleu", "--names", "A", "B", "-f", "json"})).out);
  CHECK(named["systems"] == Json::array({"A", "B"}));
  const auto plain = Json::parse(run_cli(with(fixture_args(), {"-m", "bleu", "-f", "json"})).out);
  CHECK(named["rows"][0]["cells"][1]["score"] == plain["rows"][0]["cells"][1]["score"]);
}

TEST_CASE("report: text warnings as the single commands print them, each once", "[report]") {
  const std::string ref = temp_path("zh.ref"), hyp = temp_path("zh.hyp");
  std::ofstream(ref) << "今天天气很好。\n我们去公园散步吧。\n";
  std::ofstream(hyp) << "今天天气不错。\n我们去公园走走吧。\n";
  const auto result = run_cli({"report", "-m", "bleu", "chrf", "rouge", "-r", ref, "-i", hyp});
  REQUIRE(result.exit_code == 0);
  // BLEU's 13a meets unspaced Chinese (chrF counts characters: no warning); ROUGE's ASCII tokenizer.
  const auto count = [&](const std::string& needle) {
    std::size_t n = 0;
    for (auto at = result.err.find(needle); at != std::string::npos; at = result.err.find(needle, at + 1)) ++n;
    return n;
  };
  CHECK(count("tokenizer 13a splits only at spaces") == 1);
  CHECK(count("the default ROUGE tokenizer keeps only ASCII") == 1);
  CHECK(run_cli({"report", "-m", "bleu", "rouge", "-q", "-r", ref, "-i", hyp}).err.empty());
  // With a Chinese tokenizer for every metric that has --tokenize, none.
  const auto segmented = run_cli({"report", "-m", "bleu", "rouge", "--tokenize", "zh-char", "-r", ref, "-i", hyp});
  CHECK(segmented.exit_code == 0);
  CHECK(segmented.err.find("warning") == std::string::npos);
  fs::remove(ref);
  fs::remove(hyp);
}
