#include "evalcli/metrics/external_scores.hpp"

#include <fmt/format.h>

#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>

#include "evalcli/core/error.hpp"
#include "evalcli/core/numbers.hpp"
#include "evalcli/core/summation.hpp"
#include "evalcli/io/line_reader.hpp"
#include "evalcli/text/utf8.hpp"

namespace evalcli {
namespace {

double plain_score(const std::string& text, const std::string& where) {
  double value = 0;
  if (parse_finite_double(text, value) != NumberProblem::ok) {
    throw input_error(fmt::format("{}: '{}' is not a finite number", where, text));
  }
  return value;
}

double json_field_score(const std::string& text, const std::string& field, const std::string& where) {
  const auto object = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (!object.is_object()) throw input_error(fmt::format("{}: not a JSON object", where));
  const auto it = object.find(field);
  if (it == object.end()) throw input_error(fmt::format("{}: no field \"{}\"", where, field));
  if (!it->is_number()) throw input_error(fmt::format("{}: field \"{}\" is not a number", where, field));
  const double value = it->get<double>();
  if (!std::isfinite(value)) throw input_error(fmt::format("{}: field \"{}\" is not finite", where, field));
  return value;
}

}  // namespace

std::vector<double> read_segment_scores(const std::string& path, const std::string& field) {
  io::check_readable_file(path);
  const auto lines = io::read_lines(path);
  std::vector<double> scores;
  scores.reserve(lines.size());
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const std::string where = fmt::format("{}:{}", path, i + 1);
    std::string text = utf8::encode(lines[i]);
    const auto first = text.find_first_not_of(" \t");
    text = first == std::string::npos ? "" : text.substr(first);
    if (text.empty()) throw input_error(fmt::format("{}: an empty line, not a score", where));
    scores.push_back(field.empty() ? plain_score(text, where) : json_field_score(text, field, where));
  }
  if (scores.empty()) throw input_error(fmt::format("{}: no scores", path));
  return scores;
}

ExternalScores::ExternalScores(std::string label, std::vector<std::string> file_hashes, std::string field)
    : label_(std::move(label)), file_hashes_(std::move(file_hashes)), field_(std::move(field)) {}

double ExternalScores::score(std::span<const Stat> stats) const {
  return stats[1] > 0 ? stats[0] / stats[1] : std::numeric_limits<double>::quiet_NaN();
}

double ExternalScores::corpus_score(const SystemStats& system) const {
  if (system.rows.empty()) return score(system.totals);
  std::vector<double> scores;
  scores.reserve(system.rows.size());
  for (const auto& row : system.rows) scores.push_back(row[0]);
  return stats::exact_mean(scores);
}

std::string ExternalScores::signature() const {
  std::vector<std::string> short_hashes;
  for (const auto& hash : file_hashes_) short_hashes.push_back(hash.substr(0, 16));
  std::string sig = "scores:" + label_;
  if (!field_.empty()) sig += "|field:" + field_;
  return sig + fmt::format("|sha256:{}|agg:mean", fmt::join(short_hashes, "+"));
}

SystemStats ExternalScores::system_stats(const std::string& system, const std::vector<double>& scores) {
  SystemStats stats;
  stats.system = system;
  stats.segments = scores.size();
  stats.totals = {0, 0};
  stats.rows.reserve(scores.size());
  for (const double value : scores) {
    stats.rows.push_back({value, 1});
    stats.totals[0] += value;
    stats.totals[1] += 1;
  }
  return stats;
}

void check_score_label(const std::string& label) {
  if (label.empty()) throw usage_error("--scores: an empty label (give NAME=FILE)");
  for (const char c : label) {
    if (c == '|' || c == ':' || c == '=' || c == ',' || static_cast<unsigned char>(c) < 0x20) {
      throw usage_error(fmt::format("--scores: the label '{}' has '{}', which a signature cannot carry", label, c));
    }
  }
}

}  // namespace evalcli
