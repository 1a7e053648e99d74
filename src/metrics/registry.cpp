#include "evalcli/metrics/registry.hpp"

#include <fmt/format.h>

#include <string_view>

#include "evalcli/core/error.hpp"
#include "evalcli/core/signature.hpp"
#include "evalcli/metrics/bleu.hpp"
#include "evalcli/metrics/chrf.hpp"
#include "evalcli/metrics/cider.hpp"
#include "evalcli/metrics/definition.hpp"
#include "evalcli/metrics/meteor.hpp"
#include "evalcli/metrics/ppl_metric.hpp"
#include "evalcli/metrics/signature_factories.hpp"
#include "evalcli/metrics/ter.hpp"

namespace evalcli {
namespace {

// The metrics, one line each, in help order. Adding a metric: its file
// declares a MetricDefinition (docs/adding-a-metric.md), and one line here.
std::vector<const MetricDefinition*>& definitions() {
  static std::vector<const MetricDefinition*> list = {&bleu_definition(), &chrf_definition(), &ter_definition(),
                                                      &meteor_definition(), &cider_definition(),
                                                      &ppl::ppl_definition()};
  return list;
}

// Metrics not yet declared by a MetricDefinition: rebuilt by their own readers.
struct Registration {
  std::string_view name_prefix;  // matches name() values starting with it ("ROUGE-1.5.5")
  std::string_view command;      // the evalcli command that scores it
  std::unique_ptr<StatsModel> (*from_signature)(const std::string& signature);
  bool higher_is_better;
  // Why shards with this signature cannot be merged, or "" (null: statistics are additive).
  std::string (*shard_problem)(const std::string& signature) = nullptr;
  // False where a segment's statistics need more than the segment: CIDEr's
  // document frequencies over all references (its model from a signature has none).
  bool segments_alone = true;
};

const Registration kLegacy[] = {
    {"ROUGE", "rouge", rouge_from_signature, true},
    {"ROUGE-1.5.5", "rouge", rouge155_from_signature, true},
};

// What a name() found: a definition or a legacy registration (longest prefix wins).
struct Found {
  const MetricDefinition* definition = nullptr;
  const Registration* legacy = nullptr;
  std::string_view command() const { return definition ? std::string_view(definition->command) : legacy->command; }
};

Found find(const std::string& name) {
  Found found;
  std::size_t best = 0;
  for (const MetricDefinition* definition : definitions()) {
    for (const auto& prefix : definition->names) {
      if (name.rfind(prefix, 0) == 0 && prefix.size() > best) {
        best = prefix.size();
        found = {definition, nullptr};
      }
    }
  }
  for (const auto& entry : kLegacy) {
    if (name.rfind(entry.name_prefix, 0) == 0 && entry.name_prefix.size() > best) {
      best = entry.name_prefix.size();
      found = {nullptr, &entry};
    }
  }
  return found;
}

Found find_or_throw(const std::string& name) {
  const Found found = find(name);
  if (found.definition == nullptr && found.legacy == nullptr) {
    throw usage_error(fmt::format("metric '{}' cannot be rebuilt from a signature by this evalcli", name));
  }
  return found;
}

}  // namespace

const std::vector<const MetricDefinition*>& metric_definitions() { return definitions(); }

void register_metric_definition(const MetricDefinition& definition) { definitions().push_back(&definition); }

const MetricDefinition* find_metric_definition_by_command(std::string_view command) {
  for (const MetricDefinition* definition : definitions()) {
    if (definition->command == command) return definition;
  }
  return nullptr;
}

std::unique_ptr<StatsModel> metric_from_signature(const std::string& name, const std::string& signature) {
  const Found found = find_or_throw(name);
  if (found.legacy != nullptr) return found.legacy->from_signature(signature);
  if (found.definition->statistics_model) return found.definition->statistics_model(signature);
  return found.definition->build(option_values_from_signature(*found.definition, parse_signature(signature)), {});
}

std::unique_ptr<Metric> segment_scorer_from_signature(const std::string& name, const std::string& signature) {
  const Found found = find_or_throw(name);
  std::unique_ptr<StatsModel> model;
  try {
    model = found.legacy != nullptr ? found.legacy->from_signature(signature)
                                    : found.definition->build(option_values_from_signature(*found.definition,
                                                                                           parse_signature(signature)),
                                                              {});
  } catch (const Error& e) {
    if (e.code() != ExitCode::missing_resource) throw;
    model.reset();  // a model or resources folder the signature cannot carry
  }
  const bool segments_alone = found.definition ? found.definition->segments_alone : found.legacy->segments_alone;
  if (auto* scorer = dynamic_cast<Metric*>(model.get()); scorer != nullptr && segments_alone) {
    model.release();
    return std::unique_ptr<Metric>(scorer);
  }
  // Perplexity needs its model, METEOR 1.5 its resources, CIDEr all references at once.
  throw usage_error(fmt::format("{} cannot be re-scored segment by segment from -r/-i; run `evalcli {} ...` on the "
                                "files (with --stats-out FILE) instead",
                                name, found.command()));
}

std::string shard_merge_problem(const std::string& name, const std::string& signature) {
  const Found found = find(name);
  if (found.definition != nullptr) {
    return found.definition->shard_problem ? found.definition->shard_problem(signature) : "";
  }
  return found.legacy != nullptr && found.legacy->shard_problem != nullptr ? found.legacy->shard_problem(signature) : "";
}

bool higher_is_better(const std::string& name) {
  const Found found = find(name);
  if (found.definition != nullptr) return found.definition->higher_is_better;
  if (found.legacy != nullptr) return found.legacy->higher_is_better;
  return name.rfind("TER", 0) != 0 && name.rfind("PPL", 0) != 0 && name.rfind("Perplexity", 0) != 0;
}

}  // namespace evalcli
