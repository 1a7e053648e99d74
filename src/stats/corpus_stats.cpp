#include "evalcli/stats/corpus_stats.hpp"

#include <fmt/format.h>

#include "evalcli/core/summation.hpp"

namespace evalcli {

std::vector<std::vector<SystemStats>> compute_corpus_stats(const std::vector<const Metric*>& metrics,
                                                           const CorpusSpec& spec, bool keep_rows,
                                                           const std::function<void(std::size_t)>& on_segment) {
  ParallelReader reader(spec);
  std::vector<std::vector<SystemStats>> results(metrics.size());
  for (std::size_t m = 0; m < metrics.size(); ++m) {
    for (const auto& name : reader.system_names()) {
      SystemStats stats;
      stats.system = name;
      stats.totals.assign(metrics[m]->num_stats(), 0.0);
      results[m].push_back(std::move(stats));
    }
  }
  std::vector<std::u32string> hyps;
  std::vector<std::u32string> refs;
  StatRow row;
  std::vector<std::size_t> stat_counts;
  for (const Metric* metric : metrics) stat_counts.push_back(metric->num_stats());
  // [metric][system][stat] running exact sums, for metrics with exact_totals().
  std::vector<std::vector<std::vector<stats::ExactSum>>> exact(metrics.size());
  for (std::size_t m = 0; m < metrics.size(); ++m) {
    if (metrics[m]->exact_totals()) {
      exact[m].assign(results[m].size(), std::vector<stats::ExactSum>(stat_counts[m]));
    }
  }
  while (reader.next(hyps, refs)) {
    const std::size_t index = reader.segments_read() - 1;  // 0-based
    if (index < spec.first_segment) continue;
    if (index - spec.first_segment >= spec.segment_count) break;  // a shard's end: the rest is not scored
    for (std::size_t m = 0; m < metrics.size(); ++m) {
      row.assign(stat_counts[m], 0.0);
      for (std::size_t s = 0; s < hyps.size(); ++s) {
        metrics[m]->segment_stats(hyps[s], refs, row.data());
        SystemStats& target = results[m][s];
        if (exact[m].empty()) {
          add_stats(target.totals, row);
        } else {
          for (std::size_t k = 0; k < row.size(); ++k) exact[m][s][k].add(row[k]);
        }
        ++target.segments;
        if (keep_rows) target.rows.push_back(row);
      }
    }
    if (on_segment) on_segment(reader.segments_read());
  }
  if (reader.segments_read() == 0) {
    throw EmptyInput(fmt::format("{}: empty input: no hypothesis lines",
                                     spec.hyp_paths.empty() ? "<stdin>" : spec.hyp_paths[0]));
  }
  for (std::size_t m = 0; m < metrics.size(); ++m) {
    for (std::size_t s = 0; s < exact[m].size(); ++s) {
      for (std::size_t k = 0; k < stat_counts[m]; ++k) results[m][s].totals[k] = exact[m][s][k].value();
    }
  }
  return results;
}

}  // namespace evalcli
