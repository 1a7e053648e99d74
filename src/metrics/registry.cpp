#include "evalcli/metrics/registry.hpp"

#include <fmt/format.h>

#include <string_view>

#include "evalcli/core/error.hpp"
#include "evalcli/core/signature.hpp"
#include "evalcli/metrics/bertscore.hpp"
#include "evalcli/metrics/bleu.hpp"
#include "evalcli/metrics/chrf.hpp"
#include "evalcli/metrics/cider.hpp"
#include "evalcli/metrics/coco.hpp"
#include "evalcli/metrics/definition.hpp"
#include "evalcli/metrics/meteor.hpp"
#include "evalcli/metrics/ppl_metric.hpp"
#include "evalcli/metrics/rouge.hpp"
#include "evalcli/metrics/ter.hpp"

namespace evalcli {
namespace {

// The metrics, one line each, in help order: the command and the function
// that builds the definition (only when asked, so that `evalcli ppl` touches
// no other metric's code: its memory is a target). Adding a metric: its file
// declares a MetricDefinition (docs/adding-a-metric.md), and one line here.
struct Entry {
  std::string_view command;
  const MetricDefinition& (*definition)();
};
constexpr Entry kMetrics[] = {
    {"bleu", bleu_definition},     {"chrf", chrf_definition},   {"ter", ter_definition},
    {"rouge", rouge_definition},   {"meteor", meteor_definition}, {"cider", cider_definition},
    {"ppl", ppl::ppl_definition},
    {"coco-bleu", coco_bleu_definition}, {"coco-rouge", coco_rouge_definition},
    {"bertscore", bertscore_definition},
};

// Definitions registered at run time (register_metric_definition).
std::vector<const MetricDefinition*>& registered() {
  static std::vector<const MetricDefinition*> list;
  return list;
}

const std::vector<const MetricDefinition*>& definitions() {
  static std::vector<const MetricDefinition*> all;
  if (all.size() != std::size(kMetrics) + registered().size()) {
    all.clear();
    for (const auto& entry : kMetrics) all.push_back(&entry.definition());
    all.insert(all.end(), registered().begin(), registered().end());
  }
  return all;
}

// The definition whose names prefix `name` ("chrF" for chrF2++; the longest wins), or null.
const MetricDefinition* find(const std::string& name) {
  const MetricDefinition* found = nullptr;
  std::size_t best = 0;
  for (const MetricDefinition* definition : definitions()) {
    for (const auto& prefix : definition->names) {
      if (name.rfind(prefix, 0) == 0 && prefix.size() > best) {
        best = prefix.size();
        found = definition;
      }
    }
  }
  return found;
}

const MetricDefinition& find_or_throw(const std::string& name) {
  const MetricDefinition* found = find(name);
  if (found == nullptr) throw usage_error(fmt::format("metric '{}' cannot be rebuilt from a signature by this evalcli", name));
  return *found;
}

}  // namespace

const std::vector<const MetricDefinition*>& metric_definitions() { return definitions(); }

void register_metric_definition(const MetricDefinition& definition) { registered().push_back(&definition); }

const MetricDefinition* find_metric_definition_by_command(std::string_view command) {
  for (const auto& entry : kMetrics) {
    if (entry.command == command) return &entry.definition();
  }
  for (const MetricDefinition* definition : registered()) {
    if (definition->command == command) return definition;
  }
  return nullptr;
}

std::unique_ptr<StatsModel> metric_from_signature(const std::string& name, const std::string& signature) {
  const MetricDefinition& definition = find_or_throw(name);
  if (definition.statistics_model) return definition.statistics_model(signature);
  return definition.build(option_values_from_signature(definition, parse_signature(signature)), {});
}

std::unique_ptr<Metric> segment_scorer_from_signature(const std::string& name, const std::string& signature) {
  const MetricDefinition& definition = find_or_throw(name);
  std::unique_ptr<StatsModel> model;
  try {
    model = definition.build(option_values_from_signature(definition, parse_signature(signature)), {});
  } catch (const Error& e) {
    if (e.code() != ExitCode::missing_resource) throw;  // a model or resources folder the signature cannot carry
  }
  if (auto* scorer = dynamic_cast<Metric*>(model.get()); scorer != nullptr && definition.segments_alone) {
    model.release();
    return std::unique_ptr<Metric>(scorer);
  }
  // Perplexity needs its model, METEOR 1.5 its resources, CIDEr all references at once.
  throw usage_error(fmt::format("{} cannot be re-scored segment by segment from -r/-i; run `evalcli {} ...` on the "
                                "files (with --stats-out FILE) instead",
                                name, definition.command));
}

std::string shard_merge_problem(const std::string& name, const std::string& signature) {
  const MetricDefinition* definition = find(name);
  return definition != nullptr && definition->shard_problem ? definition->shard_problem(signature) : "";
}

const MetricDefinition* metric_definition_for_name(const std::string& name) { return find(name); }

bool higher_is_better(const std::string& name) {
  if (const MetricDefinition* definition = find(name)) return definition->higher_is_better;
  return name.rfind("TER", 0) != 0 && name.rfind("PPL", 0) != 0 && name.rfind("Perplexity", 0) != 0;
}

}  // namespace evalcli
