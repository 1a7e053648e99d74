#pragma once
// The per-segment part of `evalcli report` (docs/report.md): every segment's
// texts and sentence scores in the table document (for --html), the scores by
// reference-length bucket, and --segments-out as TSV or JSONL with the systems
// side by side, readable by pandas as it is.
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "evalcli/metrics/metric.hpp"

namespace evalcli::cli {

// Segments by the word count of their first reference, in compare-mt's
// buckets (<10, 10-19, ..., 50-59, >=60).
struct LengthBuckets {
  std::vector<std::string> labels;
  std::vector<std::size_t> bucket_of;  // per segment
};
LengthBuckets length_buckets(const std::vector<std::vector<std::string>>& references);

// A row's sentence score of every segment and system ([segment][system]; null where undefined).
nlohmann::ordered_json segment_scores_json(const StatsModel& row, const std::vector<SystemStats>& systems);
// A row's score of each bucket's segments (statistics summed over the bucket) per system.
nlohmann::ordered_json bucket_scores_json(const StatsModel& row, const std::vector<SystemStats>& systems,
                                          const LengthBuckets& buckets);

// The "segments" object of the table without its "scores": ids (from `ids_path`,
// one a line, else line numbers), references and hypotheses.
nlohmann::ordered_json segment_texts_json(const std::vector<std::vector<std::string>>& hypotheses,
                                          const std::vector<std::vector<std::string>>& references,
                                          const std::string& ids_path);

// A metric's named statistics per segment, for --segments-out.
struct MetricRows {
  std::string name;  // "BLEU"
  std::vector<std::string> stat_names;
  const std::vector<SystemStats>* systems = nullptr;
};

enum class SegmentFormat { tsv, jsonl };
// From the file name's extension (.tsv, .jsonl); anything else is a usage error.
SegmentFormat segment_export_format(const std::string& path);

// --segments-out: one line per segment with columns id, ref (ref1, ref2, ...),
// hyp[SYSTEM], LABEL[SYSTEM] (each row's sentence score), METRIC.STAT[SYSTEM].
std::string segment_export(const nlohmann::ordered_json& table, const std::vector<MetricRows>& metrics,
                           SegmentFormat format);

}  // namespace evalcli::cli
