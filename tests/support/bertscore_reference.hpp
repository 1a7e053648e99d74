#pragma once
// Reading ../shared/bertscore/ (the BERTScore reference set) in tests.
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "support/test_support.hpp"

namespace evalcli::test {

// ../shared/bertscore, or nullopt outside CI when ../shared is absent (in CI a failure).
inline std::optional<std::filesystem::path> bertscore_reference() {
  const auto parent = shared_parent();
  if (!parent) return std::nullopt;
  const auto folder = *parent / "shared" / "bertscore";
  if (!std::filesystem::is_directory(folder / "golden")) {
    if (running_in_ci()) FAIL("../shared/bertscore is missing, and CI=true requires it");
    WARN("../shared/bertscore not found: BERTScore reference tests not run (outside CI only)");
    return std::nullopt;
  }
  return folder;
}

// tests/data/bertscore_distilbert: the same layout (models/, golden/, data/) for a
// tiny DistilBERT, made by tests/data/make_bertscore_distilbert.py with bert_score itself.
inline std::filesystem::path distilbert_reference() { return source_dir() / "tests" / "data" / "bertscore_distilbert"; }

// tokens.<set>.jsonl: one object per pair with cand/ref text and their token ids.
inline std::vector<nlohmann::json> read_jsonl(const std::filesystem::path& path) {
  std::ifstream in(path);
  REQUIRE(in.good());
  std::vector<nlohmann::json> rows;
  for (std::string line; std::getline(in, line);) {
    if (!line.empty()) rows.push_back(nlohmann::json::parse(line));
  }
  return rows;
}

}  // namespace evalcli::test
