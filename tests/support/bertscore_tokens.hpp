#pragma once
// A model folder's tokenizer against the token ids bert_score fed to the model
// (../shared/bertscore/golden/<model>/tokens.<set>.jsonl), for the tokenizer tests.
#include <catch2/catch.hpp>

#include <filesystem>
#include <string>
#include <vector>

#include "evalcli/text/utf8.hpp"
#include "metrics/bertscore/model_config.hpp"
#include "metrics/bertscore/tokenizer.hpp"
#include "support/bertscore_reference.hpp"

namespace evalcli::test {

// The number of candidate and reference sentences of `set` whose ids differ
// (each one named in the test's output).
inline std::size_t token_id_mismatches(const std::filesystem::path& reference, const std::string& model,
                                       const std::string& set) {
  const auto folder = reference / "models" / model;
  const bertscore::ModelConfig config = bertscore::read_model_config((folder / "config.json").string());
  const auto tokenizer = bertscore::load_tokenizer(folder.string(), config.model_type, config.max_position_embeddings);
  std::size_t bad = 0;
  const auto rows = read_jsonl(reference / "golden" / model / ("tokens." + set + ".jsonl"));
  REQUIRE(rows.size() >= 200);
  for (const auto& row : rows) {
    for (const char* side : {"cand", "ref"}) {
      const auto ids = tokenizer->encode(utf8::decode_or_throw(row[side].get<std::string>(), side));
      if (ids != row[std::string(side) + "_ids"].get<std::vector<int>>()) {
        ++bad;
        UNSCOPED_INFO(model << " " << set << " row " << row["i"] << " " << side);
      }
    }
  }
  return bad;
}

}  // namespace evalcli::test
