#include "evalcli/metrics/metric.hpp"

#include <nlohmann/json.hpp>

namespace evalcli {

double StatsModel::score_float32(std::span<const float> stats) const {
  const StatRow widened(stats.begin(), stats.end());
  return score(widened);
}

double StatsModel::corpus_score(const SystemStats& system) const { return score(system.totals); }

nlohmann::json StatsModel::details(std::span<const Stat>) const { return nlohmann::json::object(); }

void add_stats(std::span<Stat> total, std::span<const Stat> row) {
  for (std::size_t i = 0; i < total.size(); ++i) total[i] += row[i];
}

}  // namespace evalcli
