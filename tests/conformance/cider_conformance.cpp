// Replays every golden in shared/golden/cider: corpus and per-image scores of
// pycocoevalcap (CIDEr-D) and vrama91/cider (CIDEr, CIDEr-D), bit for bit, and
// the PTB tokenizer's outputs (tricky strings and the whole tokenized COCO files).
#include <catch2/catch.hpp>

#include "evalcli/core/sha256.hpp"
#include "evalcli/text/utf8.hpp"
#include "evalcli/tokenize/builtin_tokenizers.hpp"
#include "support/test_support.hpp"

namespace fs = std::filesystem;
using evalcli::test::read_json;
using evalcli::test::run_cli;

namespace {

std::vector<std::string> lines_of(const fs::path& path, std::size_t limit = 0) {
  std::vector<std::string> lines;
  std::istringstream in(evalcli::test::read_file(path));
  std::string line;
  while (std::getline(in, line)) {
    lines.push_back(line);
    if (limit && lines.size() == limit) break;
  }
  return lines;
}

std::string joined(const std::vector<std::string>& lines) {
  std::string out;
  for (const auto& line : lines) out += line + "\n";
  return out;
}

// Runs `evalcli cider ARGS --sentence-level -f json` and checks every number.
void check_scores(const std::vector<std::string>& args, const nlohmann::json& expected, const std::string& label) {
  INFO(label);
  std::vector<std::string> full = {"cider"};
  full.insert(full.end(), args.begin(), args.end());
  full.insert(full.end(), {"--sentence-level", "-f", "json"});
  const auto result = run_cli(full);
  INFO(result.err);
  REQUIRE(result.exit_code == 0);
  const auto report = nlohmann::json::parse(result.out);
  CHECK(report["score"].get<double>() == expected["corpus"].get<double>());
  const auto& per = expected.contains("per_image") ? expected["per_image"] : expected["per_candidate"];
  REQUIRE(report["sentences"].size() == per.size());
  std::size_t differing = 0;
  for (std::size_t i = 0; i < per.size(); ++i) {
    if (report["sentences"][i]["score"].get<double>() != per[i].get<double>()) ++differing;
  }
  CHECK(differing == 0);
}

std::vector<std::string> ref_args(const fs::path& parent, const nlohmann::json& refs) {
  std::vector<std::string> args;
  for (const auto& ref : refs) args.insert(args.end(), {"-r", (parent / ref.get<std::string>()).string()});
  return args;
}

void check_ptb_golden(const fs::path& parent, const nlohmann::json& golden) {
  auto ptb = evalcli::make_tokenizer("ptb");
  for (const auto& item : golden["expected"]["tricky"]) {
    const std::string input = item["input"];
    INFO("PTB input: " << input);
    CHECK(evalcli::utf8::encode(ptb->tokenize(evalcli::utf8::decode_or_throw(input, "golden"))) ==
          item["output"].get<std::string>());
  }
  // The tokenized COCO files are what they claim to be...
  for (const auto& [path, sha] : golden["expected"]["tokenized_files_sha256"].items()) {
    CHECK(evalcli::sha256_hex(evalcli::test::read_file(parent / path)) == sha.get<std::string>());
  }
  // ...and evalcli's PTB reproduces them from the raw files (refs.jsonl order as one
  // batch, each hypothesis file as one batch), caption for caption.
  const fs::path coco = parent / "shared/corpora/coco";
  std::vector<std::u32string> raw_refs;
  std::vector<std::string> expected_refs;
  const auto raw_lines = lines_of(coco / "refs.jsonl");
  const auto tok_lines = lines_of(coco / "tok/refs.jsonl");
  REQUIRE(raw_lines.size() == tok_lines.size());
  for (std::size_t i = 0; i < raw_lines.size(); ++i) {
    // Parsed documents held in locals: a range-for over parse(...)["refs"] would
    // iterate a destroyed temporary (AddressSanitizer: heap-use-after-free).
    const auto raw = nlohmann::json::parse(raw_lines[i]);
    const auto tok = nlohmann::json::parse(tok_lines[i]);
    for (const auto& ref : raw["refs"]) {
      raw_refs.push_back(evalcli::utf8::decode_or_throw(ref.get<std::string>(), "refs.jsonl"));
    }
    for (const auto& ref : tok["refs"]) expected_refs.push_back(ref);
  }
  const auto tokenized_refs = evalcli::tokenizers::ptb_tokenize_batch(raw_refs);
  REQUIRE(tokenized_refs.size() == expected_refs.size());
  std::size_t differing = 0;
  for (std::size_t i = 0; i < expected_refs.size(); ++i) {
    if (evalcli::utf8::encode(tokenized_refs[i]) != expected_refs[i]) ++differing;
  }
  CHECK(differing == 0);
  for (const char* system : {"contrastive", "topk", "zerocap"}) {
    const std::string name = std::string("hyp.") + system + ".txt";
    std::vector<std::u32string> raw;
    for (const auto& line : lines_of(coco / name)) raw.push_back(evalcli::utf8::decode_or_throw(line, name));
    const auto expected = lines_of(coco / "tok" / name);
    const auto tokenized = evalcli::tokenizers::ptb_tokenize_batch(raw);
    REQUIRE(tokenized.size() == expected.size());
    std::size_t bad = 0;
    for (std::size_t i = 0; i < expected.size(); ++i) bad += evalcli::utf8::encode(tokenized[i]) != expected[i];
    INFO(name);
    CHECK(bad == 0);
  }
}

}  // namespace

TEST_CASE("every CIDEr golden matches bit for bit", "[cider][conformance]") {
  const auto parent = evalcli::test::shared_parent();
  if (!parent) return;
  const auto files = evalcli::test::golden_files(*parent, "cider");
  REQUIRE(files.size() == 10);
  bool raw_ptb_run_done = false;
  for (const auto& file : files) {
    const auto golden = read_json(file);
    const std::string name = file.filename().string();
    INFO(name);
    const auto& inputs = golden["inputs"];
    const auto& expected = golden["expected"];
    if (name.rfind("ptb-tokenize", 0) == 0) {
      check_ptb_golden(*parent, golden);
      continue;
    }
    const std::string variant = name.find("cider-original") != std::string::npos ? "cider" : "cider-d";
    if (inputs.contains("cands")) {
      // vrama91 on ABSTRACT-50S: one document per candidate line, raw captions + PTB.
      const std::string cands = (*parent / inputs["cands"].get<std::string>()).string();
      check_scores({"--jsonl", cands, "--variant", "cider"}, expected["CIDEr"], name + " CIDEr");
      check_scores({"--jsonl", cands, "--variant", "cider-d"}, expected["CIDEr-D"], name + " CIDEr-D");
      continue;
    }
    if (inputs.contains("first_n_lines")) {
      // Small corpora: the first N lines of the raw files, tokenized by evalcli's PTB.
      const std::size_t n = inputs["first_n_lines"];
      std::vector<std::unique_ptr<evalcli::test::TempFile>> temps;
      std::vector<std::string> args;
      for (const auto& ref : inputs["refs"]) {
        temps.push_back(std::make_unique<evalcli::test::TempFile>(joined(lines_of(*parent / ref.get<std::string>(), n))));
        args.insert(args.end(), {"-r", temps.back()->path()});
      }
      temps.push_back(std::make_unique<evalcli::test::TempFile>(joined(lines_of(*parent / inputs["hyp"].get<std::string>(), n))));
      args.insert(args.end(), {"-i", temps.back()->path(), "--tokenize", "ptb", "--variant", variant});
      check_scores(args, expected, name);
      continue;
    }
    // 5000-image corpora: the PTB-tokenized files split on whitespace (fast)...
    const auto& pre = inputs["pretokenized"];
    std::vector<std::string> args;
    if (pre["refs"].is_array()) {
      args = ref_args(*parent, pre["refs"]);
    } else {
      args = {"--jsonl", (*parent / pre["refs"].get<std::string>()).string()};
    }
    args.insert(args.end(), {"-i", (*parent / pre["hyp"].get<std::string>()).string(), "--tokenize", "none",
                             "--variant", variant});
    check_scores(args, expected, name + " (pretokenized)");
    // ...and once from the raw captions with evalcli's PTB (the acceptance command).
    if (!raw_ptb_run_done && inputs["refs"].is_array() && variant == "cider-d") {
      raw_ptb_run_done = true;
      std::vector<std::string> raw = ref_args(*parent, inputs["refs"]);
      raw.insert(raw.end(), {"-i", (*parent / inputs["hyp"].get<std::string>()).string(), "--tokenize", "ptb"});
      check_scores(raw, expected, name + " (raw + PTB)");
    }
  }
  CHECK(raw_ptb_run_done);
}
