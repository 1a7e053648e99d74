#pragma once
// Statistics shards (docs/stats-format.md): the per-segment sufficient
// statistics of a run with the metric's name, signature and stat names, so
// that `evalcli merge` can rebuild exactly the score of one run over all data.
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

#include "evalcli/stats/corpus_stats.hpp"
#include "evalcli/metrics/metric.hpp"

namespace evalcli::stats {

inline constexpr const char* kShardSchema = "evalcli-stats/1";

struct Shard {
  std::string path;
  std::string metric;     // Metric::name()
  std::string signature;  // full evalcli signature (nrefs ... version)
  std::size_t nrefs = 0;
  std::vector<std::string> stat_names;
  std::vector<SystemStats> systems;  // rows always present
};

std::string shard_json(const StatsModel& metric, const std::string& signature, std::size_t nrefs,
                       const std::vector<SystemStats>& systems);

// The "schema" string of a JSON document ("" when it has none or it is not a string).
std::string json_schema(const nlohmann::json& doc);

// Reads and validates a shard; input errors name the file.
Shard read_shard(const std::string& path);

// Merges shards given in corpus order: every system's rows concatenated and
// summed from zero in that order, exactly as one run over the whole corpus
// sums them. Throws a usage error naming the first differing field when the
// shards' metric, signature, stat names or systems differ.
Shard merge_shards(const std::vector<Shard>& shards);

// The first signature field whose value differs ("tok: '13a' vs 'intl'"), or "".
std::string signature_difference(const std::string& a, const std::string& b);

}  // namespace evalcli::stats
