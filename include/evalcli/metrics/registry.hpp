#pragma once
// Rebuilding a metric from what a report or a statistics shard records: its
// display name and its signature. Used by `evalcli merge` and `evalcli check`.
// A metric becomes pluggable by adding one line to the table in
// src/metrics/registry.cpp.
#include <memory>
#include <string>

#include "evalcli/metrics/definition.hpp"
#include "evalcli/metrics/metric.hpp"

namespace evalcli {

// Builds the metric whose name() is `name` ("BLEU", "chrF2++", ...) configured
// by the metric fields of `signature`. Throws a usage error naming the metric
// when no registered metric handles it, or the field it cannot apply.
std::unique_ptr<StatsModel> metric_from_signature(const std::string& name, const std::string& signature);

// The same metric as a segment scorer, for re-scoring -r/-i files (`evalcli
// check`); a usage error naming the command to run instead for metrics whose
// segments cannot be scored alone from a signature (perplexity needs its
// model, METEOR 1.5 its resources, CIDEr document frequencies over all references).
std::unique_ptr<Metric> segment_scorer_from_signature(const std::string& name, const std::string& signature);

// Why several shards of this metric and signature cannot be merged into the
// score of one run, or "" when they can (statistics additive). CIDEr needs
// shared document frequencies (--df).
std::string shard_merge_problem(const std::string& name, const std::string& signature);

// The definition of the metric whose name() is `name`, or null.
const MetricDefinition* metric_definition_for_name(const std::string& name);

// False for error rates and perplexity (TER, PPL): lower scores are better.
bool higher_is_better(const std::string& name);

}  // namespace evalcli
