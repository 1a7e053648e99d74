#include "cli/report_segments.hpp"

#include <fmt/format.h>

#include <cmath>

#include "evalcli/core/error.hpp"
#include "evalcli/core/format.hpp"
#include "evalcli/io/line_reader.hpp"
#include "evalcli/text/utf8.hpp"

namespace evalcli::cli {
namespace {

using Json = nlohmann::ordered_json;

// compare-mt's default length buckets: below 10 words, then tens, then 60 and more.
constexpr std::size_t kBucketEdges[] = {10, 20, 30, 40, 50, 60};

std::size_t word_count(const std::string& text) {
  std::size_t words = 0;
  bool in_word = false;
  for (const char c : text) {
    const bool space = c == ' ' || c == '\t';
    if (!space && !in_word) ++words;
    in_word = !space;
  }
  return words;
}

Json score_or_null(double value) { return std::isfinite(value) ? Json(value) : Json(); }

std::vector<std::string> read_ids(const std::string& path, std::size_t segments) {
  std::vector<std::string> ids;
  if (path.empty()) {
    for (std::size_t i = 1; i <= segments; ++i) ids.push_back(std::to_string(i));
    return ids;
  }
  io::check_readable_file(path);
  for (const auto& line : io::read_lines(path)) ids.push_back(utf8::encode(line));
  if (ids.size() != segments) throw input_error(fmt::format("{}: {} ids for {} segments", path, ids.size(), segments));
  return ids;
}

// A TSV field as pandas reads it back (quotechar '"', doublequote): quoted when
// it holds a tab, a newline or a quote, or starts or ends with a space.
std::string tsv_field(const std::string& text) {
  const bool quote = text.find_first_of("\t\n\r\"") != std::string::npos ||
                     (!text.empty() && (text.front() == ' ' || text.back() == ' '));
  if (!quote) return text;
  std::string out = "\"";
  for (const char c : text) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

std::string number_text(const Json& value) { return value.is_null() ? "" : python_float_repr(value.get<double>()); }

// The columns of --segments-out, in order, and each one's value for segment i.
struct Column {
  std::string name;
  std::function<Json(std::size_t)> value;  // a string or a number (null: empty)
};

std::vector<Column> export_columns(const Json& table, const std::vector<MetricRows>& metrics) {
  const Json& segments = table["segments"];
  const auto systems = table["systems"].get<std::vector<std::string>>();
  std::vector<Column> columns;
  columns.push_back({"id", [&segments](std::size_t i) { return segments["ids"][i]; }});
  const std::size_t refs = segments["references"].empty() ? 0 : segments["references"][0].size();
  for (std::size_t r = 0; r < refs; ++r) {
    columns.push_back({refs == 1 ? "ref" : fmt::format("ref{}", r + 1),
                       [&segments, r](std::size_t i) { return segments["references"][i][r]; }});
  }
  for (std::size_t s = 0; s < systems.size(); ++s) {
    columns.push_back({"hyp[" + systems[s] + "]", [&segments, s](std::size_t i) { return segments["hypotheses"][i][s]; }});
  }
  const Json& rows = table["rows"];
  for (std::size_t row = 0; row < rows.size(); ++row) {
    for (std::size_t s = 0; s < systems.size(); ++s) {
      columns.push_back({rows[row]["label"].get<std::string>() + "[" + systems[s] + "]",
                         [&segments, row, s](std::size_t i) { return segments["scores"][row][i][s]; }});
    }
  }
  for (const auto& metric : metrics) {
    for (std::size_t k = 0; k < metric.stat_names.size(); ++k) {
      for (std::size_t s = 0; s < systems.size(); ++s) {
        columns.push_back({metric.name + "." + metric.stat_names[k] + "[" + systems[s] + "]",
                           [&metric, k, s](std::size_t i) { return Json((*metric.systems)[s].rows[i][k]); }});
      }
    }
  }
  return columns;
}

std::string tsv_export(const std::vector<Column>& columns, std::size_t segments) {
  std::string out;
  for (std::size_t c = 0; c < columns.size(); ++c) out += (c > 0 ? "\t" : "") + tsv_field(columns[c].name);
  out += '\n';
  for (std::size_t i = 0; i < segments; ++i) {
    for (std::size_t c = 0; c < columns.size(); ++c) {
      const Json value = columns[c].value(i);
      out += c > 0 ? "\t" : "";
      out += value.is_string() ? tsv_field(value.get<std::string>()) : number_text(value);
    }
    out += '\n';
  }
  return out;
}

std::string jsonl_export(const std::vector<Column>& columns, std::size_t segments) {
  std::string out;
  for (std::size_t i = 0; i < segments; ++i) {
    Json line;
    for (const auto& column : columns) line[column.name] = column.value(i);
    out += line.dump(-1, ' ', false, nlohmann::json::error_handler_t::strict) + "\n";
  }
  return out;
}

}  // namespace

LengthBuckets length_buckets(const std::vector<std::vector<std::string>>& references) {
  LengthBuckets buckets;
  buckets.labels.push_back(fmt::format("<{}", kBucketEdges[0]));
  for (std::size_t b = 1; b < std::size(kBucketEdges); ++b) {
    buckets.labels.push_back(fmt::format("{}-{}", kBucketEdges[b - 1], kBucketEdges[b] - 1));
  }
  buckets.labels.push_back(fmt::format(">={}", kBucketEdges[std::size(kBucketEdges) - 1]));
  for (const auto& refs : references) {
    const std::size_t words = refs.empty() ? 0 : word_count(refs[0]);
    std::size_t bucket = 0;
    while (bucket < std::size(kBucketEdges) && words >= kBucketEdges[bucket]) ++bucket;
    buckets.bucket_of.push_back(bucket);
  }
  return buckets;
}

Json segment_scores_json(const StatsModel& row, const std::vector<SystemStats>& systems) {
  Json scores = Json::array();
  const std::size_t segments = systems.empty() ? 0 : systems[0].rows.size();
  for (std::size_t i = 0; i < segments; ++i) {
    Json per_system = Json::array();
    for (const auto& system : systems) per_system.push_back(score_or_null(row.score(system.rows[i])));
    scores.push_back(per_system);
  }
  return scores;
}

Json bucket_scores_json(const StatsModel& row, const std::vector<SystemStats>& systems, const LengthBuckets& buckets) {
  Json out = Json::array();
  for (std::size_t b = 0; b < buckets.labels.size(); ++b) {
    std::size_t count = 0;
    Json scores = Json::array();
    for (const auto& system : systems) {
      StatRow totals(row.num_stats(), 0.0);
      count = 0;
      for (std::size_t i = 0; i < system.rows.size() && i < buckets.bucket_of.size(); ++i) {
        if (buckets.bucket_of[i] != b) continue;
        add_stats(totals, system.rows[i]);
        ++count;
      }
      scores.push_back(count > 0 ? score_or_null(row.score(totals)) : Json());
    }
    if (count > 0) out.push_back({{"label", buckets.labels[b]}, {"segments", count}, {"scores", scores}});
  }
  return out;
}

Json segment_texts_json(const std::vector<std::vector<std::string>>& hypotheses,
                        const std::vector<std::vector<std::string>>& references, const std::string& ids_path) {
  Json segments;
  segments["ids"] = read_ids(ids_path, hypotheses.size());
  segments["references"] = references;
  segments["hypotheses"] = hypotheses;
  segments["scores"] = Json::array();
  return segments;
}

SegmentFormat segment_export_format(const std::string& path) {
  if (path.ends_with(".tsv")) return SegmentFormat::tsv;
  if (path.ends_with(".jsonl")) return SegmentFormat::jsonl;
  throw usage_error(fmt::format("--segments-out {}: name a .tsv or a .jsonl file", path));
}

std::string segment_export(const Json& table, const std::vector<MetricRows>& metrics, SegmentFormat format) {
  const auto columns = export_columns(table, metrics);
  const std::size_t segments = table["segments"]["ids"].size();
  return format == SegmentFormat::tsv ? tsv_export(columns, segments) : jsonl_export(columns, segments);
}

}  // namespace evalcli::cli
