#pragma once
// Metrics rebuilt from their own signature() fields, for the registry
// (evalcli/metrics/registry.hpp). Each throws a usage error naming a field it
// cannot apply.
#include <memory>
#include <string>

#include "evalcli/metrics/metric.hpp"

namespace evalcli {

std::unique_ptr<Metric> meteor_from_signature(const std::string& signature);    // NLTK METEOR
std::unique_ptr<Metric> rouge_from_signature(const std::string& signature);     // rouge-score
std::unique_ptr<Metric> rouge155_from_signature(const std::string& signature);  // ROUGE-1.5.5
std::unique_ptr<Metric> cider_from_signature(const std::string& signature);     // CIDEr-D / CIDEr

}  // namespace evalcli
