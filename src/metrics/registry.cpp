#include "evalcli/metrics/registry.hpp"

#include <fmt/format.h>

#include <string_view>

#include "evalcli/core/error.hpp"
#include "evalcli/metrics/bleu.hpp"

namespace evalcli {
namespace {

std::unique_ptr<Metric> bleu(const std::string& signature) { return bleu_from_signature(signature, std::nullopt); }

struct Registration {
  std::string_view name_prefix;  // matches name() values starting with it ("chrF" for chrF2++)
  std::unique_ptr<Metric> (*from_signature)(const std::string& signature);
  bool higher_is_better;
};

// One line per metric.
const Registration kRegistry[] = {
    {"BLEU", bleu, true},
};

const Registration* find(const std::string& name) {
  const Registration* best = nullptr;
  for (const auto& entry : kRegistry) {
    if (name.rfind(entry.name_prefix, 0) == 0 &&
        (best == nullptr || entry.name_prefix.size() > best->name_prefix.size())) {
      best = &entry;
    }
  }
  return best;
}

}  // namespace

std::unique_ptr<Metric> metric_from_signature(const std::string& name, const std::string& signature) {
  const Registration* entry = find(name);
  if (entry == nullptr) {
    throw usage_error(fmt::format("metric '{}' cannot be rebuilt from a signature by this evalcli", name));
  }
  return entry->from_signature(signature);
}

bool higher_is_better(const std::string& name) {
  const Registration* entry = find(name);
  if (entry != nullptr) return entry->higher_is_better;
  return name.rfind("TER", 0) != 0 && name.rfind("PPL", 0) != 0 && name.rfind("Perplexity", 0) != 0;
}

}  // namespace evalcli
