#include "evalcli/metrics/metric.hpp"

#include <nlohmann/json.hpp>

#include "evalcli/core/error.hpp"

namespace evalcli {

double StatsModel::score_float32(std::span<const float> stats) const {
  const StatRow widened(stats.begin(), stats.end());
  return score(widened);
}

double StatsModel::corpus_score(const SystemStats& system) const { return score(system.totals); }

nlohmann::json StatsModel::details(std::span<const Stat>) const { return nlohmann::json::object(); }

std::unique_ptr<StatsModel> StatsModel::score_component(std::size_t k) const {
  throw Error(ExitCode::internal, name() + ": no score component " + std::to_string(k));
}

ComponentModel::ComponentModel(const StatsModel& parent, std::string label, ScoreFn score, CorpusFn corpus)
    : parent_(parent), label_(std::move(label)), score_(std::move(score)), corpus_(std::move(corpus)) {}

double ComponentModel::corpus_score(const SystemStats& system) const {
  return corpus_ ? corpus_(system) : score(system.totals);
}

std::vector<std::unique_ptr<StatsModel>> score_component_models(const StatsModel& model) {
  std::vector<std::unique_ptr<StatsModel>> models;
  const auto labels = model.score_components();
  for (std::size_t k = 0; k < labels.size(); ++k) models.push_back(model.score_component(k));
  return models;
}

void add_stats(std::span<Stat> total, std::span<const Stat> row) {
  for (std::size_t i = 0; i < total.size(); ++i) total[i] += row[i];
}

}  // namespace evalcli
