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

// The options these metrics are built from, read from a signature: the same
// readers serve `evalcli merge`/`check` (above) and the commands' --signature.
RougeScoreOptions rouge_score_options_from_signature(const std::string& signature);
Rouge155Options rouge155_options_from_signature(const std::string& signature);  // data_dir: not set


}  // namespace evalcli
