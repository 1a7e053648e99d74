#include "evalcli/stats/distribution.hpp"

#include <algorithm>
#include <cmath>

#include "evalcli/core/error.hpp"
#include "evalcli/core/summation.hpp"

namespace evalcli::stats {

double quantile(std::span<const double> sorted, double q) {
  const double position = q * static_cast<double>(sorted.size() - 1);
  const auto below = static_cast<std::size_t>(std::floor(position));
  const std::size_t above = std::min(below + 1, sorted.size() - 1);
  const double fraction = position - static_cast<double>(below);
  return sorted[below] + fraction * (sorted[above] - sorted[below]);
}

Distribution describe(std::vector<double> values) {
  if (values.empty()) throw usage_error("no sentence-level scores to describe");
  std::sort(values.begin(), values.end());
  Distribution d;
  d.n = values.size();
  d.mean = exact_mean(values);
  if (d.n > 1) {
    double squares = 0;
    for (double v : values) squares += (v - d.mean) * (v - d.mean);
    d.stdev = std::sqrt(squares / static_cast<double>(d.n - 1));
  }
  d.min = values.front();
  d.max = values.back();
  d.p5 = quantile(values, 0.05);
  d.p25 = quantile(values, 0.25);
  d.median = quantile(values, 0.5);
  d.p75 = quantile(values, 0.75);
  d.p95 = quantile(values, 0.95);
  return d;
}

nlohmann::ordered_json to_json(const Distribution& d, bool mean_is_corpus_score) {
  nlohmann::ordered_json out;
  out["n"] = d.n;
  out["mean"] = d.mean;
  out["stdev"] = d.stdev;
  out["min"] = d.min;
  out["p5"] = d.p5;
  out["p25"] = d.p25;
  out["median"] = d.median;
  out["p75"] = d.p75;
  out["p95"] = d.p95;
  out["max"] = d.max;
  out["note"] = mean_is_corpus_score ? "sentence-level scores of the metric as configured; their mean is the corpus score"
                                     : "sentence-level scores of the metric as configured; their mean is not the corpus "
                                       "score, which is computed from statistics summed over all segments";
  return out;
}

}  // namespace evalcli::stats
