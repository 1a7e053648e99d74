#pragma once
// Statistics shards (docs/stats-format.md): the per-segment sufficient
// statistics of a run with the metric's name, signature and stat names, so
// that `evalcli merge` can rebuild exactly the score of one run over all data.
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "evalcli/stats/corpus_stats.hpp"
#include "evalcli/metrics/metric.hpp"

namespace evalcli::stats {

inline constexpr const char* kShardSchema = "evalcli-stats/1";

// Where a shard written with `--shard K/N` sits in the whole test set.
struct ShardPosition {
  std::size_t index = 0;        // K (1-based)
  std::size_t count = 0;        // N
  std::size_t first_line = 0;   // the shard's first segment, 1-based
  std::size_t lines = 0;        // its segments
  std::size_t total_lines = 0;  // segments of the whole test set
};

// Shard K of N over `total` segments: contiguous pieces in order whose sizes
// differ by at most one. Usage error when K or N is out of range or N > total.
ShardPosition shard_position(std::size_t index, std::size_t count, std::size_t total);
// "K/N" as given to --shard; usage error naming the value otherwise.
std::pair<std::size_t, std::size_t> parse_shard_option(const std::string& text);

struct Shard {
  std::string path;
  std::string metric;     // Metric::name()
  std::string signature;  // full evalcli signature (nrefs ... version)
  std::size_t nrefs = 0;
  std::vector<std::string> stat_names;
  std::vector<SystemStats> systems;  // rows always present
  std::optional<ShardPosition> position;  // written with --shard K/N
  // The "test_set" the run recorded (segments and SHA-256 of every file: the
  // whole test set with --shard, else the shard's own files), compact JSON; "" if none.
  std::string test_set;
};

std::string shard_json(const StatsModel& metric, const std::string& signature, std::size_t nrefs,
                       const std::vector<SystemStats>& systems, const ShardPosition* position = nullptr,
                       const std::string& test_set = "");

// The "schema" string of a JSON document ("" when it has none or it is not a string).
std::string json_schema(const nlohmann::json& doc);

// `value` when it is a JSON whole number from 0 to `max`, else nullopt.
// (nlohmann's get<std::size_t>() converts 1e300 and -1 unchecked; the first is undefined behaviour.)
std::optional<std::uint64_t> json_whole_number(const nlohmann::json& value,
                                               std::uint64_t max = std::numeric_limits<std::uint64_t>::max());
// The same, or an input error "WHERE: FIELD must be a whole number from 0 to MAX".
std::uint64_t json_whole_number_or_error(const nlohmann::json& value, const std::string& where, const std::string& field,
                                         std::uint64_t max = std::numeric_limits<std::uint64_t>::max());

// Reads and validates a shard; input errors name the file.
Shard read_shard(const std::string& path);
// The same for a shard's JSON text held in memory; `where` names it in errors as a path would.
Shard parse_shard(const std::string& text, const std::string& where);

// A JSON report's statistics of one system ("stats": {name: value}, as
// `evalcli METRIC -f json` writes them) checked as a shard's totals are: the
// names of the metric the signature stands for, every value in its domain,
// and the report's score equal to the score of those statistics (to 1e-9
// relative: the metrics that average rows print a correctly rounded mean).
// Input errors name the file and the field.
void check_report_statistics(const std::string& path, const std::string& metric_name, const std::string& signature,
                             const std::string& system, const nlohmann::json& stats, double score);

// Merges shards given in corpus order: every system's rows concatenated and
// summed from zero in that order, exactly as one run over the whole corpus
// sums them. Throws a usage error naming the first differing field when the
// shards' metric, signature, stat names or systems differ; with --shard
// positions, when one of the N is missing, given twice or out of order, or the
// shards come from different test sets; without, when one shard repeats
// another's files. The merged test_set is the shards' when they carry
// positions (each records the whole test set), else empty.
Shard merge_shards(const std::vector<Shard>& shards);

// Totals as one run of a metric with exact_totals() sums them (rouge-score):
// the correctly rounded sums of every system's rows.
void total_rows_exactly(Shard& shard);

// The first signature field whose value differs ("tok: '13a' vs 'intl'"), or "".
std::string signature_difference(const std::string& a, const std::string& b);

}  // namespace evalcli::stats
