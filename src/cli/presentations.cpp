// presentation_for(): the presentation each metric command uses, for `evalcli
// merge` (cli/presentations.hpp). Metrics not listed print the default way.
#include "cli/presentations.hpp"

#include "evalcli/metrics/cider.hpp"
#include "evalcli/metrics/ppl_metric.hpp"

namespace evalcli::cli {

std::unique_ptr<Presentation> presentation_for(const StatsModel& metric, const OutputOptions& output) {
  if (const auto* rouge = dynamic_cast<const RougeScoreMetric*>(&metric)) {
    RougeScoreReport report;
    report.sentence_level = output.sentence_level;
    report.score_only = output.score_only;
    report.width = output.width;
    return rouge_score_presentation(*rouge, report);
  }
  if (const auto* rouge155 = dynamic_cast<const Rouge155Metric*>(&metric)) {
    return rouge155_presentation(*rouge155, false, {}, output.sentence_level);  // --sentence-level: -d's lines
  }
  if (dynamic_cast<const Cider*>(&metric) != nullptr) return cider_presentation(std::nullopt, {});
  if (dynamic_cast<const ppl::PplMetric*>(&metric) != nullptr) return ppl_presentation(metric, output.sentence_level);
  return nullptr;
}

}  // namespace evalcli::cli
