#pragma once
// Describing the sentence-level scores of a system. Their mean is NOT the
// corpus score: a corpus score is computed from summed statistics.
#include <span>
#include <vector>

#include <nlohmann/json.hpp>

namespace evalcli::stats {

struct Distribution {
  std::size_t n = 0;
  double mean = 0;   // exact mean (correctly rounded)
  double stdev = 0;  // sample standard deviation (n - 1); 0 for one value
  double min = 0, p5 = 0, p25 = 0, median = 0, p75 = 0, p95 = 0, max = 0;
};

// Quantiles interpolate linearly between order statistics (numpy's default).
Distribution describe(std::vector<double> values);
double quantile(std::span<const double> sorted, double q);

// `mean_is_corpus_score`: the metric's corpus score is the mean of these
// scores (StatsModel::corpus_score_is_mean); the note says which.
nlohmann::ordered_json to_json(const Distribution& distribution, bool mean_is_corpus_score);

}  // namespace evalcli::stats
