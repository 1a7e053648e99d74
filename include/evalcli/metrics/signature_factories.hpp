#pragma once
// Metrics rebuilt from their own signature() fields, for the registry
// (evalcli/metrics/registry.hpp). Each throws a usage error naming a field it
// cannot apply.
#include <memory>
#include <string>

#include <utility>
#include <vector>

#include "evalcli/metrics/cider.hpp"
#include "evalcli/metrics/meteor.hpp"
#include "evalcli/metrics/metric.hpp"
#include "evalcli/metrics/rouge.hpp"

namespace evalcli {

std::unique_ptr<StatsModel> rouge_from_signature(const std::string& signature);     // rouge-score
std::unique_ptr<StatsModel> rouge155_from_signature(const std::string& signature);  // ROUGE-1.5.5
std::unique_ptr<StatsModel> cider_from_signature(const std::string& signature);     // CIDEr-D / CIDEr

// The options these metrics are built from, read from a signature: the same
// readers serve `evalcli merge`/`check` (above) and the commands' --signature.
RougeScoreOptions rouge_score_options_from_signature(const std::string& signature);
Rouge155Options rouge155_options_from_signature(const std::string& signature);  // data_dir: not set

struct CiderSignature {
  CiderOptions options;
  PipelineOptions text;
  std::string df_field = "corpus";  // "corpus", or the --df file's identity
  // Tokenizer fields (dict:, icu:) to check against the tokenizer built from `text`.
  std::vector<std::pair<std::string, std::string>> tokenizer_fields;
};
CiderSignature cider_options_from_signature(const std::string& signature, const TokenizerOptions& tokenizer_options = {});

}  // namespace evalcli
