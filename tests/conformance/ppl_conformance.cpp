// Replays every golden of shared/golden/ppl: KenLM query cases (summary lines
// byte for byte, every printed line total and OOV count, every word where the
// golden has them, the full stdout where stored), log-prob cases (every
// number, exact), and the lmplz training case (model identity and counts).
#include <fmt/format.h>

#include <cstdlib>
#include <sstream>

#include "evalcli/io/decompress.hpp"
#include "evalcli/metrics/ppl.hpp"
#include "support/test_support.hpp"

using evalcli::test::golden_files;
using evalcli::test::read_json;
using evalcli::test::run_cli;
using evalcli::test::shared_parent;

namespace {

std::string decompressed_file(const std::filesystem::path& path) {
  auto source = evalcli::io::open_decompressed_file(path.string());
  std::string out, chunk(1 << 16, '\0');
  while (const std::size_t n = source->read(chunk.data(), chunk.size())) out.append(chunk.data(), n);
  return out;
}

std::vector<std::string> split_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// "...\tTotal: -24.371103 OOV: 0" -> ("-24.371103", 0)
std::pair<std::string, long> line_total(const std::string& line) {
  const auto at = line.rfind("Total: ");
  REQUIRE(at != std::string::npos);
  const auto oov = line.find(" OOV: ", at);
  return {line.substr(at + 7, oov - at - 7), std::atol(line.c_str() + oov + 6)};
}

// A golden float32 value (written as KenLM printed it) read as float32.
float golden_float(const nlohmann::json& value) { return static_cast<float>(value.get<double>()); }

void check_arpa_case(const std::filesystem::path& parent, const nlohmann::json& golden) {
  const auto& expected = golden["expected"];
  const std::string lm = (parent / golden["inputs"]["lm"].get<std::string>()).string();
  const std::string text = evalcli::test::read_file(parent / golden["inputs"]["text"].get<std::string>());
  const bool null_context = golden["options"]["null_context_flag_-n"].get<bool>();
  std::vector<std::string> args = {"ppl", "--lm", lm, "--kenlm-output"};
  if (null_context) args.push_back("-n");
  // An input without final newline: ask for KenLM's handling of that line (evalcli's default differs).
  const bool unterminated = !text.empty() && text.back() != '\n' && text.substr(0, 2) != "\x1f\x8b";
  if (unterminated) args.push_back("--kenlm-final-line");
  // The big speed case: summary level only (per-word output of 1M tokens is tested elsewhere).
  const bool summary_only = !expected.contains("sentence_log10_totals");
  if (summary_only) args.insert(args.end(), {"-v", "summary"});

  const auto result = run_cli(args, text);  // compressed stdin is detected, as by KenLM
  INFO(result.err);
  REQUIRE(result.exit_code == 0);
  const auto lines = split_lines(result.out);
  const auto& summary = expected["stdout_summary_lines"];
  REQUIRE(lines.size() >= 4);
  const std::vector<std::string> tail(lines.end() - 4, lines.end());
  for (std::size_t i = 0; i < summary.size(); ++i) CHECK(tail[i] == summary[i].get<std::string>());
  CHECK(tail[2] == fmt::format("OOVs:\t{}", expected["oovs"].get<long>()));
  CHECK(tail[3] == fmt::format("Tokens:\t{}", expected["tokens"].get<long>()));

  if (!summary_only) {
    const auto& totals = expected["sentence_log10_totals"];
    const auto& oovs = expected["sentence_oov_counts"];
    REQUIRE(lines.size() == totals.size() + 4);
    CHECK(totals.size() == expected["sentences"].get<std::size_t>());
    for (std::size_t i = 0; i < totals.size(); ++i) {
      const auto [printed, oov] = line_total(lines[i]);
      // The golden holds KenLM's printed float32 values as JSON numbers: compare as float32,
      // and the printed text must be the shortest form of that float.
      CHECK(std::strtof(printed.c_str(), nullptr) == golden_float(totals[i]));
      CHECK(printed == evalcli::ppl::kenlm_number(golden_float(totals[i])));
      CHECK(oov == oovs[i].get<long>());
    }
    const auto& first = expected["first_stdout_lines"];
    for (std::size_t i = 0; i < first.size(); ++i) CHECK(lines[i] == first[i].get<std::string>());
  }
  if (expected.contains("stdout")) CHECK(result.out == expected["stdout"].get<std::string>());
  if (expected.contains("full_stdout_file")) {
    CHECK(result.out == decompressed_file(parent / expected["full_stdout_file"].get<std::string>()));
  }
  if (expected.contains("words")) {
    // Every word: surface=id length log10p, against the golden's parsed list.
    const auto& words = expected["words"];
    for (std::size_t i = 0; i < words.size(); ++i) {
      std::string want;
      for (const auto& w : words[i]) {
        want += fmt::format("{}={} {} {}\t", w[0].get<std::string>(), w[1].get<long>(), w[2].get<long>(),
                            evalcli::ppl::kenlm_number(golden_float(w[3])));
      }
      CHECK(lines[i].substr(0, want.size()) == want);
    }
  }

  // evalcli's own JSON report carries the same corpus sums, exactly.
  std::vector<std::string> json_args = {"ppl", "--lm", lm, "-f", "json"};
  if (null_context) json_args.push_back("-n");
  if (unterminated) json_args.push_back("--kenlm-final-line");
  const auto json_result = run_cli(json_args, text);
  REQUIRE(json_result.exit_code == 0);
  const auto report = nlohmann::json::parse(json_result.out);
  CHECK(report["schema"] == "evalcli-report/1");
  CHECK(report["log10_total"].get<double>() == expected["corpus_log10_total"].get<double>());
  CHECK(report["oov_log10_total"].get<double>() == expected["oov_words_log10_total"].get<double>());
  CHECK(report["ppl_including_oovs"].get<double>() == expected["perplexity_including_oovs"].get<double>());
  CHECK(report["ppl_excluding_oovs"].get<double>() == expected["perplexity_excluding_oovs"].get<double>());
  CHECK(report["oovs"].get<long>() == expected["oovs"].get<long>());
  CHECK(report["tokens"].get<long>() == expected["tokens"].get<long>());
  if (expected.contains("sentences")) CHECK(report["lines"].get<long>() == expected["sentences"].get<long>());
  CHECK(report["signature"].get<std::string>().find(null_context ? "ctx:null" : "ctx:sentence") != std::string::npos);
}

void check_logprob_case(const std::filesystem::path& parent, const nlohmann::json& golden) {
  const auto& expected = golden["expected"];
  const std::string file = (parent / golden["inputs"]["logprobs"].get<std::string>()).string();
  const auto result = run_cli({"ppl", "--logprobs", file, "-f", "json", "--per-doc"});
  INFO(result.err);
  REQUIRE(result.exit_code == 0);
  const auto report = nlohmann::json::parse(result.out);
  for (const auto& [key, value] : expected.items()) {
    if (key == "per_doc") continue;
    INFO(key);
    REQUIRE(report.contains(key));
    if (value.is_number_float()) {
      CHECK(report[key].get<double>() == value.get<double>());
    } else {
      CHECK(report[key] == value);
    }
  }
  if (expected.contains("per_doc")) {
    const auto& docs = report["documents"];
    REQUIRE(docs.size() == expected["per_doc"].size());
    for (std::size_t i = 0; i < docs.size(); ++i) {
      for (const auto& [key, value] : expected["per_doc"][i].items()) {
        INFO(i << " " << key);
        if (value.is_number_float()) {
          CHECK(docs[i][key].get<double>() == value.get<double>());
        } else {
          CHECK(docs[i][key] == value);
        }
      }
    }
  }
}

// No built-in trainer: check what evalcli can about the lmplz output it names.
void check_train_case(const std::filesystem::path& parent, const nlohmann::json& golden) {
  const auto& expected = golden["expected"];
  const auto model = evalcli::ppl::NgramModel::load((parent / expected["arpa_file"].get<std::string>()).string(), nullptr);
  CHECK(model->md5() == expected["arpa_md5"].get<std::string>());
  CHECK(model->order() == golden["options"]["order"].get<int>());
  const auto& counts = expected["ngram_counts"];
  REQUIRE(model->counts().size() == counts.size());
  for (std::size_t i = 0; i < counts.size(); ++i) CHECK(model->counts()[i] == counts[i].get<std::uint64_t>());
}

}  // namespace

TEST_CASE("ppl goldens: every case of shared/golden/ppl", "[conformance][ppl]") {
  const auto parent = shared_parent();
  if (!parent) return;
  const auto files = golden_files(*parent, "ppl");
  REQUIRE(files.size() >= 16);
  for (const auto& path : files) {
    const auto golden = read_json(path);
    const std::string mode = golden["mode"].get<std::string>();
    SECTION(golden["id"].get<std::string>()) {
      if (mode == "arpa") {
        check_arpa_case(*parent, golden);
      } else if (mode == "logprobs-jsonl") {
        check_logprob_case(*parent, golden);
      } else if (mode == "train") {
        check_train_case(*parent, golden);
      } else {
        FAIL("unknown golden mode " << mode << " in " << path);
      }
    }
  }
}

// ARPA mode over the RAW text with --tokenize 13a (the model's tokenization)
// gives KenLM's numbers, and its BPC/BPB equal the log-prob golden made from
// the same KenLM run up to the float32 line totals (spec 1.8: the JSONL
// values are per-word float32 converted in double; relative gap ~1e-8).
TEST_CASE("ppl: ARPA mode on raw text with --tokenize 13a agrees with the JSONL golden", "[conformance][ppl]") {
  const auto parent = shared_parent();
  if (!parent) return;
  const auto kenlm = read_json(*parent / "shared/golden/ppl/kenlm_en-o3_test1.json")["expected"];
  const auto lp = read_json(*parent / "shared/golden/ppl/lp_en-o3_test1.json")["expected"];
  const auto raw = evalcli::test::read_file(*parent / "shared/corpora/lm/test/test1.en.raw");
  const auto result = run_cli({"ppl", "--lm", (*parent / "shared/corpora/lm/arpa/en.o3.arpa.gz").string(),
                               "--tokenize", "13a", "-f", "json"},
                              raw);
  REQUIRE(result.exit_code == 0);
  const auto report = nlohmann::json::parse(result.out);
  CHECK(report["ppl_including_oovs"].get<double>() == kenlm["perplexity_including_oovs"].get<double>());
  CHECK(report["tokens"] == kenlm["tokens"]);
  CHECK(report["chars"] == lp["chars"]);
  CHECK(report["bytes"] == lp["bytes"]);
  CHECK(report["bpc"].get<double>() == Approx(lp["bpc"].get<double>()).epsilon(1e-7));
  CHECK(report["bpb"].get<double>() == Approx(lp["bpb"].get<double>()).epsilon(1e-7));
  CHECK(report["signature"].get<std::string>().find("tok:13a-v1") != std::string::npos);
}
