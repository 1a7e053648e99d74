// Replays every BERTScore golden of ../shared/bertscore/golden/<model>/ for the
// five models there and of tests/data/bertscore_distilbert/golden/tiny-distilbert/
// (the same layout): per-pair P/R/F of `evalcli bertscore -sl -f json`
// within 1e-5 of bert_score's float64 columns (5e-5 for rescaled files). The
// header line of each file gives bert_score.score's arguments.
#include <catch2/catch.hpp>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "support/bertscore_reference.hpp"

namespace fs = std::filesystem;

namespace {

struct Golden {
  std::string call;                        // the first header line
  std::vector<std::array<double, 3>> rows;  // P64, R64, F64 (all_layers files: of `layer`)
};

std::string argument(const std::string& call, const std::string& name) {
  const std::regex pattern(name + "=('[^']*'|[^,)]*)");
  std::smatch match;
  REQUIRE(std::regex_search(call, match, pattern));
  std::string value = match[1];
  if (!value.empty() && value.front() == '\'') value = value.substr(1, value.size() - 2);
  return value;
}

// The float64 rows of a golden; for an all_layers file those of `layer`.
Golden read_golden(const fs::path& path, int layer) {
  std::ifstream in(path);
  REQUIRE(in.good());
  Golden golden;
  std::string line;
  std::getline(in, golden.call);
  bool all_layers = false;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    if (line.rfind("layer\t", 0) == 0 || line.rfind("i\t", 0) == 0) {
      all_layers = line[0] == 'l';
      continue;
    }
    std::istringstream fields(line);
    std::vector<std::string> cells;
    for (std::string cell; std::getline(fields, cell, '\t');) cells.push_back(cell);
    if (all_layers && std::stoi(cells[0]) != layer) continue;
    const std::size_t p64 = cells.size() - 3;
    golden.rows.push_back({std::stod(cells[p64]), std::stod(cells[p64 + 1]), std::stod(cells[p64 + 2])});
  }
  return golden;
}

// The largest |evalcli - bert_score float64| over the pairs of one run.
double largest_gap(const fs::path& reference, const std::string& model, const std::string& set,
                   const Golden& golden, int layer) {
  const fs::path data = reference / "data";
  std::vector<std::string> args = {"bertscore", "--model", (reference / "models" / model).string(), "--num-layers",
                                   std::to_string(layer), "--batch-size", argument(golden.call, "batch_size"),
                                   "-sl", "-f", "json", "-q"};
  const std::string lang_set = set == "en-multi" ? "en" : set;
  args.insert(args.end(), {"-i", (data / (lang_set + ".cand")).string(), "-r", (data / (lang_set + ".ref")).string()});
  if (set == "en-multi") args.insert(args.end(), {"-r", (data / "en.ref2").string()});
  if (argument(golden.call, "idf") == "True") args.push_back("--idf");
  if (argument(golden.call, "rescale_with_baseline") == "True") {
    const std::string baseline = argument(golden.call, "baseline_path");  // goldens/<model>/baseline.tsv
    args.insert(args.end(), {"--baseline", (reference / "golden" / model / fs::path(baseline).filename()).string()});
  }
  const auto result = evalcli::test::run_cli(args);
  INFO(result.err);
  REQUIRE(result.exit_code == 0);
  const auto report = nlohmann::json::parse(result.out);
  const auto& sentences = report["sentences"];
  REQUIRE(sentences.size() == golden.rows.size());
  double gap = 0;
  for (std::size_t i = 0; i < golden.rows.size(); ++i) {
    for (int c = 0; c < 3; ++c) gap = std::max(gap, std::abs(sentences[i]["stats"][c].get<double>() - golden.rows[i][c]));
  }
  return gap;
}

}  // namespace

// bert_score's own baseline files are not in ../shared: the golden rescaled
// with bert_score's rescale_baseline/en/roberta-base.tsv is not replayed.
static bool replayed(const std::string& name) { return name != "baseline.tsv" && name.find("roberta-base-file") == std::string::npos; }

namespace {

// The goldens of `model` (in reference/golden/<model>/) that are replayed, in name order.
std::vector<fs::path> golden_files(const fs::path& reference, const std::string& model) {
  std::vector<fs::path> goldens;
  for (const auto& entry : fs::directory_iterator(reference / "golden" / model)) {
    const std::string name = entry.path().filename().string();
    if (entry.path().extension() == ".tsv" && replayed(name)) goldens.push_back(entry.path());
  }
  std::sort(goldens.begin(), goldens.end());
  return goldens;
}

// Replays every golden of `model`; returns how many files.
std::size_t replay_goldens(const fs::path& reference, const std::string& model) {
  std::size_t files = 0;
  for (const fs::path& path : golden_files(reference, model)) {
    const std::string name = path.filename().string();  // <set>.L<layer>.<idf|noidf>[.variant].tsv
    const std::string set = name.substr(0, name.find('.'));
    const int top = std::stoi(name.substr(name.find(".L") + 2));
    const bool all_layers = name.find("all_layers") != std::string::npos;
    const double tolerance = name.find("rescaled") != std::string::npos ? 5e-5 : 1e-5;
    for (int layer = all_layers ? 0 : top; layer <= top; ++layer) {
      INFO(model << "/" << name << " layer " << layer);
      CHECK(largest_gap(reference, model, set, read_golden(path, layer), layer) < tolerance);
    }
    ++files;
  }
  return files;
}

}  // namespace

TEST_CASE("every BERTScore golden of the BERT, RoBERTa and XLM-R models is reproduced", "[bertscore][conformance]") {
  const auto reference = evalcli::test::bertscore_reference();
  if (!reference) return;
  std::size_t files = 0;
  for (const std::string model : {"tiny-bert-uncased", "tiny-bert-uncased-hubkeys", "tiny-bert-cased-zh", "tiny-roberta",
                                 "tiny-xlmr"}) {
    files += replay_goldens(*reference, model);
  }
  CHECK(files == 25);
}

// Layers 0..6 with and without idf, batch 1, all_layers, and the run under bert_score's model name.
TEST_CASE("every BERTScore golden of the DistilBERT model is reproduced", "[bertscore][conformance]") {
  CHECK(replay_goldens(evalcli::test::distilbert_reference(), "tiny-distilbert") == 18);
}

TEST_CASE("a distilbert-base-uncased folder gets bert_score's layer 5 and its hash", "[bertscore][conformance]") {
  const fs::path reference = evalcli::test::distilbert_reference();
  const fs::path golden = reference / "golden/tiny-distilbert/en.L5.noidf.default-layer.tsv";
  std::ifstream in(golden);
  std::string call, hash;
  std::getline(in, call);
  std::getline(in, hash);
  REQUIRE(hash == "# hash: distilbert-base-uncased_L5_no-idf_version=0.3.12(hug_trans=4.29.2)");
  const fs::path root = fs::temp_directory_path() / ("evalcli-distilbert-" + std::to_string(::getpid()));
  fs::create_directories(root);
  fs::copy(reference / "models/tiny-distilbert", root / "distilbert-base-uncased", fs::copy_options::recursive);
  const auto result = evalcli::test::run_cli({"bertscore", "--model", (root / "distilbert-base-uncased").string(), "-i",
                                              (reference / "data/en.cand").string(), "-r",
                                              (reference / "data/en.ref").string(), "-sl", "-f", "json", "-q"});
  fs::remove_all(root);
  INFO(result.err);
  REQUIRE(result.exit_code == 0);
  const auto report = nlohmann::json::parse(result.out);
  CHECK(report["bert_score_hash"] == hash.substr(std::string("# hash: ").size()));
  const Golden expected = read_golden(golden, 5);
  REQUIRE(report["sentences"].size() == expected.rows.size());
  double gap = 0;
  for (std::size_t i = 0; i < expected.rows.size(); ++i) {
    for (int c = 0; c < 3; ++c) gap = std::max(gap, std::abs(report["sentences"][i]["stats"][c].get<double>() - expected.rows[i][c]));
  }
  CHECK(gap < 1e-5);
}

TEST_CASE("bert_score's batch-dependent padding is what the batch-size goldens test", "[bertscore][conformance]") {
  const auto reference = evalcli::test::bertscore_reference();
  if (!reference) return;
  // The batch-1 and batch-7 results differ from the default batch's by more than the tolerance.
  for (const std::string variant : {"bs1", "bs7"}) {
    Golden golden = read_golden(*reference / "golden/tiny-bert-uncased" / ("en.L3.noidf." + variant + ".tsv"), 3);
    golden.call = std::regex_replace(golden.call, std::regex("batch_size=[0-9]+"), "batch_size=64");
    INFO(variant);
    CHECK(largest_gap(*reference, "tiny-bert-uncased", "en", golden, 3) > 1e-4);
  }
}

TEST_CASE("bertscore refuses --shard and names a folder that is not a model (exit 2, 4)", "[bertscore]") {
  const auto reference = evalcli::test::bertscore_reference();
  if (!reference) return;
  const std::string model = (*reference / "models/tiny-bert-uncased").string();
  const evalcli::test::TempFile line("a cat\n");
  const auto shard = evalcli::test::run_cli({"bertscore", "--model", model, "--num-layers", "1", "-r", line.path(), "-i",
                                             line.path(), "--shard", "1/2", "--stats-out", line.path() + ".json"});
  CHECK(shard.exit_code == 2);
  CHECK(shard.err.find("--shard") != std::string::npos);
  const auto missing = evalcli::test::run_cli({"bertscore", "--model", "/nonexistent", "--num-layers", "1", "-r",
                                               line.path(), "-i", line.path()});
  CHECK(missing.exit_code == 4);
  CHECK(missing.err.find("/nonexistent: not a model folder") != std::string::npos);
  const auto no_layer = evalcli::test::run_cli({"bertscore", "--model", model, "-r", line.path(), "-i", line.path()});
  CHECK(no_layer.exit_code == 2);
  CHECK(no_layer.err.find("--num-layers is required") != std::string::npos);
}

namespace {

// `evalcli bertscore` on the tiny BERT's en pairs with `extra` options: the JSON report.
nlohmann::json tiny_bert_report(const fs::path& reference, const std::vector<std::string>& extra) {
  std::vector<std::string> args = {"bertscore", "--model", (reference / "models/tiny-bert-uncased").string(),
                                   "-i", (reference / "data/en.cand").string(), "-r", (reference / "data/en.ref").string(),
                                   "-sl", "-f", "json", "-q"};
  args.insert(args.end(), extra.begin(), extra.end());
  const auto result = evalcli::test::run_cli(args);
  INFO(result.err);
  REQUIRE(result.exit_code == 0);
  return nlohmann::json::parse(result.out);
}

std::vector<double> sentence_stats(const nlohmann::json& report) {
  std::vector<double> stats;
  for (const auto& sentence : report["sentences"]) {
    for (int c = 0; c < 3; ++c) stats.push_back(sentence["stats"][c].get<double>());
  }
  return stats;
}

}  // namespace

TEST_CASE("encoder versions: v2 by default, v1 on request, and a v1 signature read back runs v1", "[bertscore]") {
  const auto reference = evalcli::test::bertscore_reference();
  if (!reference) return;
  const auto latest = tiny_bert_report(*reference, {"--num-layers", "2"});
  const auto v1 = tiny_bert_report(*reference, {"--num-layers", "2", "--encoder", "v1"});
  const std::string v1_signature = v1["signature"];
  CHECK(latest["signature"].get<std::string>().find("|encoder:v2|") != std::string::npos);
  REQUIRE(v1_signature.find("|encoder:v1|") != std::string::npos);
  // The versions differ only in GELU's last bits: the scores move, by float rounding.
  const std::vector<double> v1_stats = sentence_stats(v1), latest_stats = sentence_stats(latest);
  REQUIRE(v1_stats.size() == latest_stats.size());
  CHECK(v1_stats != latest_stats);
  for (std::size_t i = 0; i < v1_stats.size(); ++i) CHECK(std::abs(v1_stats[i] - latest_stats[i]) < 1e-6);

  const auto replayed_v1 = tiny_bert_report(*reference, {"--signature", "BERTScore|" + v1_signature});
  CHECK(sentence_stats(replayed_v1) == v1_stats);
  CHECK(replayed_v1["signature"] == v1_signature);

  const evalcli::test::TempFile line("a cat\n");
  const auto unknown = evalcli::test::run_cli({"bertscore", "--model", (*reference / "models/tiny-bert-uncased").string(),
                                               "--num-layers", "1", "--encoder", "v9", "-r", line.path(), "-i", line.path()});
  CHECK(unknown.exit_code == 2);
  CHECK(unknown.err.find("v9") != std::string::npos);
}
