#include "evalcli/stats/shard.hpp"

#include <fmt/format.h>

#include <nlohmann/json.hpp>
#include <algorithm>
#include <cmath>
#include <sstream>

#include "evalcli/core/error.hpp"
#include "evalcli/core/signature.hpp"
#include "evalcli/core/summation.hpp"
#include "evalcli/io/read_file.hpp"
#include "evalcli/metrics/registry.hpp"

namespace evalcli::stats {

ShardPosition shard_position(std::size_t index, std::size_t count, std::size_t total) {
  if (count == 0 || index == 0 || index > count) {
    throw usage_error(fmt::format("--shard {}/{}: K/N needs 1 <= K <= N", index, count));
  }
  if (count > total) {
    throw usage_error(fmt::format("--shard {}/{}: the test set has {} segment{}; use at most {} shards", index, count,
                                  total, total == 1 ? "" : "s", total));
  }
  const auto start = [&](std::size_t k) { return static_cast<std::size_t>((static_cast<unsigned __int128>(k) * total) / count); };
  return ShardPosition{index, count, start(index - 1) + 1, start(index) - start(index - 1), total};
}

std::pair<std::size_t, std::size_t> parse_shard_option(const std::string& text) {
  const auto slash = text.find('/');
  const auto whole = [](std::string_view digits) -> std::optional<std::size_t> {
    if (digits.empty() || digits.size() > 7 || digits.find_first_not_of("0123456789") != std::string_view::npos) {
      return std::nullopt;
    }
    return std::stoul(std::string(digits));
  };
  const auto index = slash == std::string::npos ? std::nullopt : whole(std::string_view(text).substr(0, slash));
  const auto count = slash == std::string::npos ? std::nullopt : whole(std::string_view(text).substr(slash + 1));
  if (!index || !count || *index == 0 || *index > *count) {
    throw usage_error(fmt::format("--shard: '{}' is not K/N with whole numbers 1 <= K <= N (such as 2/8)", text));
  }
  return {*index, *count};
}

std::string shard_json(const StatsModel& metric, const std::string& signature, std::size_t nrefs,
                       const std::vector<SystemStats>& systems, const ShardPosition* position,
                       const std::string& test_set) {
  nlohmann::ordered_json header;
  header["schema"] = kShardSchema;
  header["metric"] = metric.name();
  header["signature"] = signature;
  header["nrefs"] = nrefs;
  header["stat_names"] = metric.stat_names();
  if (position != nullptr) {
    header["position"] = {{"shard", position->index},
                          {"of", position->count},
                          {"first_line", position->first_line},
                          {"lines", position->lines},
                          {"total_lines", position->total_lines}};
  }
  if (!test_set.empty()) header["test_set"] = nlohmann::ordered_json::parse(test_set);
  std::string head = header.dump(1);
  head.pop_back();  // the closing brace: systems follow
  while (!head.empty() && (head.back() == '\n' || head.back() == ' ')) head.pop_back();
  std::string out = head + ",\n \"systems\": [";
  for (std::size_t s = 0; s < systems.size(); ++s) {
    const auto& system = systems[s];
    out += s == 0 ? "\n  {" : ",\n  {";
    out += fmt::format("\"system\": {}, \"segments\": {}, \"totals\": {},\n   \"rows\": [",
                       nlohmann::json(system.system).dump(), system.segments, nlohmann::json(system.totals).dump());
    for (std::size_t r = 0; r < system.rows.size(); ++r) {
      out += (r == 0 ? "\n    " : ",\n    ") + nlohmann::json(system.rows[r]).dump();
    }
    out += "]}";
  }
  return out + "\n ]\n}\n";
}

namespace {

[[noreturn]] void bad_shard(const std::string& path, const std::string& what) {
  throw input_error(fmt::format("{}: not an evalcli statistics shard: {}", path, what));
}

// A count of the shard: a JSON whole number, else the shard is refused naming the field.
std::size_t shard_count(const nlohmann::json& object, const char* field, const std::string& path) {
  const auto count = json_whole_number(object.at(field));
  if (!count) bad_shard(path, fmt::format("{} must be a whole number >= 0", field));
  return static_cast<std::size_t>(*count);
}

StatRow number_row(const nlohmann::json& value, std::size_t expected, const std::string& path, const char* what) {
  if (!value.is_array() || value.size() != expected) {
    bad_shard(path, fmt::format("{} must be an array of {} numbers", what, expected));
  }
  StatRow row;
  row.reserve(expected);
  for (const auto& number : value) {
    if (!number.is_number()) bad_shard(path, fmt::format("{} holds a non-number", what));
    row.push_back(number.get<double>());
  }
  return row;
}

// "row 3" or "totals", for messages.
std::string row_name(std::size_t row) { return row == 0 ? "totals" : fmt::format("row {}", row); }

// One row (or the totals) against the metric's statistics domain.
void check_stat_values(const StatRow& values, const StatDomain& domain, const std::vector<std::string>& names,
                       const std::string& where) {
  constexpr double kLargestCount = 9007199254740992.0;  // 2^53: every whole number below is exact
  for (std::size_t i = 0; i < values.size(); ++i) {
    const double value = values[i];
    const StatKind kind = i < domain.kinds.size() ? domain.kinds[i] : StatKind::real;
    const bool ok = std::isfinite(value) &&
                    (kind == StatKind::real || value >= 0) &&
                    (kind != StatKind::count || (value == std::floor(value) && value <= kLargestCount));
    if (!ok) {
      throw input_error(fmt::format("{}: {} = {} is not {}", where, names[i], value,
                                    kind == StatKind::count         ? "a whole number from 0 to 2^53"
                                    : kind == StatKind::nonnegative ? "a finite number >= 0"
                                                                    : "a finite number"));
    }
  }
  for (const auto& [part, whole] : domain.at_most) {
    if (values[part] > values[whole]) {
      throw input_error(fmt::format("{}: {} = {} is more than {} = {}", where, names[part], values[part], names[whole],
                                    values[whole]));
    }
  }
}

// A shard as its metric wrote it: statistic names, nrefs and every value in
// the metric's domain, totals equal to the sum of the rows (merge sums the
// rows, check reads the totals: both must be the same numbers).
void check_shard_statistics(const Shard& shard) {
  const auto metric = metric_from_signature(shard.metric, shard.signature);
  if (shard.stat_names != metric->stat_names()) {
    bad_shard(shard.path, fmt::format("stat_names are not those of {} with this signature", shard.metric));
  }
  const auto nrefs = find_field(parse_signature(shard.signature), "nrefs");
  if (nrefs && *nrefs != "var" && *nrefs != std::to_string(shard.nrefs)) {
    throw input_error(fmt::format("{}: nrefs {} contradicts the signature's nrefs:{}", shard.path, shard.nrefs, *nrefs));
  }
  const StatDomain domain = metric->stat_domain();
  for (const auto& system : shard.systems) {
    const std::string where = fmt::format("{}: system '{}'", shard.path, system.system);
    StatRow sums(system.totals.size(), 0.0);
    for (std::size_t r = 0; r < system.rows.size(); ++r) {
      check_stat_values(system.rows[r], domain, shard.stat_names, where + ", " + row_name(r + 1));
      add_stats(sums, system.rows[r]);
    }
    check_stat_values(system.totals, domain, shard.stat_names, where + ", " + row_name(0));
    for (std::size_t i = 0; i < sums.size(); ++i) {
      // Row sums in another order (exact sums, threads) differ in the last bits only.
      if (std::fabs(sums[i] - system.totals[i]) > 1e-9 * std::max(1.0, std::fabs(sums[i]))) {
        throw input_error(fmt::format("{}: totals {} = {} differs from the sum of its rows, {}", where,
                                      shard.stat_names[i], system.totals[i], sums[i]));
      }
    }
  }
}

}  // namespace

std::optional<std::uint64_t> json_whole_number(const nlohmann::json& value, std::uint64_t max) {
  if (!value.is_number_unsigned()) return std::nullopt;  // non-negative integers parse as unsigned
  const auto number = value.get<std::uint64_t>();
  if (number > max) return std::nullopt;
  return number;
}

std::uint64_t json_whole_number_or_error(const nlohmann::json& value, const std::string& where, const std::string& field,
                                         std::uint64_t max) {
  const auto number = json_whole_number(value, max);
  if (!number) throw input_error(fmt::format("{}: {} must be a whole number from 0 to {}", where, field, max));
  return *number;
}

void check_report_statistics(const std::string& path, const std::string& metric_name, const std::string& signature,
                             const std::string& system, const nlohmann::json& stats, double score) {
  const auto metric = metric_from_signature(metric_name, signature);
  const std::vector<std::string> names = metric->stat_names();
  const std::string where = fmt::format("{}: system '{}', stats", path, system);
  if (!stats.is_object() || stats.size() != names.size()) {
    throw input_error(fmt::format("{}: not the {} statistics of {} with this signature", where, names.size(), metric_name));
  }
  StatRow values;
  for (const auto& name : names) {
    const auto found = stats.find(name);
    if (found == stats.end() || !found->is_number()) {
      throw input_error(fmt::format("{}: no number for {} (the statistics of {} with this signature)", where, name,
                                    metric_name));
    }
    values.push_back(found->get<double>());
  }
  check_stat_values(values, metric->stat_domain(), names, where);
  const double recomputed = metric->score(values);
  const bool both_nan = std::isnan(recomputed) && std::isnan(score);  // perplexity of nothing
  if (!both_nan && !(std::fabs(recomputed - score) <= 1e-9 * std::max(1.0, std::fabs(recomputed)))) {
    throw input_error(fmt::format("{}: system '{}': score {} is not the score of its statistics, {}", path, system,
                                  score, recomputed));
  }
}

namespace {

// The "position" object of a --shard K/N shard, checked against itself.
ShardPosition read_position(const nlohmann::json& value, const std::string& path) {
  ShardPosition position;
  position.index = shard_count(value, "shard", path);
  position.count = shard_count(value, "of", path);
  position.first_line = shard_count(value, "first_line", path);
  position.lines = shard_count(value, "lines", path);
  position.total_lines = shard_count(value, "total_lines", path);
  bool consistent = position.count <= position.total_lines;
  if (consistent) {
    try {
      const ShardPosition expected = shard_position(position.index, position.count, position.total_lines);
      consistent = expected.first_line == position.first_line && expected.lines == position.lines;
    } catch (const Error&) {
      consistent = false;
    }
  }
  if (!consistent) {
    bad_shard(path, fmt::format("position (shard {} of {}, lines {} from {} of {}) is not one --shard writes",
                                position.index, position.count, position.lines, position.first_line,
                                position.total_lines));
  }
  return position;
}

// A test_set by content: segments and file hashes, not file names (shards
// scored on other hosts see the same files under other paths).
std::string test_set_contents(const std::string& test_set) {
  if (test_set.empty()) return "";
  nlohmann::json doc = nlohmann::json::parse(test_set);
  for (const char* list : {"references", "hypotheses"}) {
    if (!doc.contains(list) || !doc[list].is_array()) continue;
    for (auto& file : doc[list]) {
      if (file.is_object()) file.erase("file");
    }
  }
  return doc.dump();
}

std::string shard_name(const ShardPosition& position) { return fmt::format("{}/{}", position.index, position.count); }

// Shards written with --shard K/N: all N of one test set, each once, in order.
void check_positions(const std::vector<Shard>& shards) {
  const Shard& first =
      *std::find_if(shards.begin(), shards.end(), [](const Shard& shard) { return shard.position.has_value(); });
  const std::string first_contents = test_set_contents(first.test_set);
  for (const auto& shard : shards) {
    if (!shard.position) {
      throw usage_error(fmt::format("{} has no --shard position but {} has: merge shards of one kind", shard.path,
                                    first.path));
    }
    if (shard.position->count != first.position->count) {
      throw usage_error(fmt::format("{} is shard {} but {} is shard {}: not parts of one split", shard.path,
                                    shard_name(*shard.position), first.path, shard_name(*first.position)));
    }
    if (test_set_contents(shard.test_set) != first_contents) {
      throw usage_error(fmt::format("{} and {} are shards of different test sets (their test_set differs)",
                                    first.path, shard.path));
    }
  }
  const std::size_t count = first.position->count;
  std::vector<const Shard*> by_index(count + 1, nullptr);
  for (const auto& shard : shards) {
    const Shard*& seen = by_index[shard.position->index];
    if (seen != nullptr) {
      throw usage_error(fmt::format("shard {} is given twice: {} and {}", shard_name(*shard.position), seen->path,
                                    shard.path));
    }
    seen = &shard;
  }
  for (std::size_t k = 1; k <= count; ++k) {
    if (by_index[k] == nullptr) throw usage_error(fmt::format("shard {}/{} is missing", k, count));
  }
  for (std::size_t i = 0; i < shards.size(); ++i) {
    if (shards[i].position->index != i + 1) {
      throw usage_error(fmt::format("shards are out of order: {} (shard {}) is given in place {}; give them as 1/{} .. {}/{}",
                                    shards[i].path, shard_name(*shards[i].position), i + 1, count, count, count));
    }
  }
}

// Shards of pieces split by hand: nothing says where they sit, but the same
// files twice are surely a mistake.
void check_no_repeated_piece(const std::vector<Shard>& shards) {
  std::vector<std::string> contents;  // each parsed once, not once per pair
  for (const Shard& shard : shards) contents.push_back(test_set_contents(shard.test_set));
  for (std::size_t i = 0; i < shards.size(); ++i) {
    for (std::size_t j = 0; j < i; ++j) {
      if (!contents[i].empty() && contents[i] == contents[j]) {
        throw usage_error(fmt::format("{} repeats {}: both scored the same hypotheses and references (equal SHA-256)",
                                      shards[i].path, shards[j].path));
      }
    }
  }
}

}  // namespace

std::string json_schema(const nlohmann::json& doc) {
  if (!doc.is_object()) return "";
  const auto schema = doc.find("schema");
  return schema != doc.end() && schema->is_string() ? schema->get<std::string>() : "";
}

Shard read_shard(const std::string& path) { return parse_shard(io::read_whole_file(path), path); }

Shard parse_shard(const std::string& text, const std::string& path) {
  nlohmann::json doc;
  try {
    doc = nlohmann::json::parse(text);
  } catch (const nlohmann::json::exception& e) {  // parse_error, or out_of_range: a number beyond double
    bad_shard(path, fmt::format("invalid JSON ({})", e.what()));
  }
  if (json_schema(doc) != kShardSchema) {
    bad_shard(path, fmt::format("schema must be \"{}\"", kShardSchema));
  }
  Shard shard;
  shard.path = path;
  try {
    shard.metric = doc.at("metric").get<std::string>();
    shard.signature = doc.at("signature").get<std::string>();
    shard.nrefs = shard_count(doc, "nrefs", path);
    shard.stat_names = doc.at("stat_names").get<std::vector<std::string>>();
    for (const auto& entry : doc.at("systems")) {
      SystemStats system;
      system.system = entry.at("system").get<std::string>();
      system.segments = shard_count(entry, "segments", path);
      system.totals = number_row(entry.at("totals"), shard.stat_names.size(), path, "totals");
      for (const auto& row : entry.at("rows")) {
        system.rows.push_back(number_row(row, shard.stat_names.size(), path, "a row"));
      }
      if (system.rows.size() != system.segments) bad_shard(path, "segments differs from the number of rows");
      shard.systems.push_back(std::move(system));
    }
    if (doc.contains("position")) shard.position = read_position(doc.at("position"), path);
    if (doc.contains("test_set")) {
      if (!doc.at("test_set").is_object()) bad_shard(path, "test_set must be an object");
      shard.test_set = doc.at("test_set").dump();
    }
  } catch (const nlohmann::json::exception& e) {
    bad_shard(path, e.what());
  }
  if (shard.systems.empty()) bad_shard(path, "no systems");
  if (shard.position && shard.systems.front().segments != shard.position->lines) {
    bad_shard(path, fmt::format("position says {} lines, the rows are {}", shard.position->lines,
                                shard.systems.front().segments));
  }
  check_shard_statistics(shard);
  return shard;
}

std::string signature_difference(const std::string& a, const std::string& b) {
  const auto fields_a = parse_signature(a), fields_b = parse_signature(b);
  for (const auto& field : fields_a) {
    const auto other = find_field(fields_b, field.key);
    if (!other) return fmt::format("{}: '{}' vs (absent)", field.key, field.value);
    if (*other != field.value) return fmt::format("{}: '{}' vs '{}'", field.key, field.value, *other);
  }
  for (const auto& field : fields_b) {
    if (!find_field(fields_a, field.key)) return fmt::format("{}: (absent) vs '{}'", field.key, field.value);
  }
  return a == b ? "" : "field order";
}

void total_rows_exactly(Shard& shard) {
  for (auto& system : shard.systems) {
    std::vector<ExactSum> sums(system.totals.size());
    for (const auto& row : system.rows) {
      for (std::size_t k = 0; k < sums.size(); ++k) sums[k].add(row[k]);
    }
    for (std::size_t k = 0; k < sums.size(); ++k) system.totals[k] = sums[k].value();
  }
}

Shard merge_shards(const std::vector<Shard>& shards) {
  if (shards.empty()) throw usage_error("merge needs at least one statistics shard");
  const Shard& first = shards.front();
  Shard merged;
  merged.path = first.path;
  merged.metric = first.metric;
  merged.signature = first.signature;
  merged.nrefs = first.nrefs;
  merged.stat_names = first.stat_names;
  for (const auto& system : first.systems) {
    SystemStats empty;
    empty.system = system.system;
    empty.totals.assign(first.stat_names.size(), 0.0);
    merged.systems.push_back(std::move(empty));
  }
  for (const auto& shard : shards) {
    auto refuse = [&](const std::string& what) {
      throw usage_error(fmt::format("{} and {} cannot be merged: {}", first.path, shard.path, what));
    };
    if (shard.metric != first.metric) refuse(fmt::format("metric '{}' vs '{}'", first.metric, shard.metric));
    if (shard.signature != first.signature) {
      refuse(fmt::format("signatures differ in {}", signature_difference(first.signature, shard.signature)));
    }
    if (shard.stat_names != first.stat_names) refuse("statistics names differ");
    if (shard.systems.size() != first.systems.size()) {
      refuse(fmt::format("{} vs {} systems", first.systems.size(), shard.systems.size()));
    }
    for (std::size_t s = 0; s < shard.systems.size(); ++s) {
      SystemStats& target = merged.systems[s];
      for (const auto& row : shard.systems[s].rows) {
        add_stats(target.totals, row);  // the same additions, in the same order, as one run
        target.rows.push_back(row);
      }
      target.segments += shard.systems[s].segments;
    }
  }
  // Once they are known to be shards of one run: do they cover the test set once?
  if (std::any_of(shards.begin(), shards.end(), [](const Shard& shard) { return shard.position.has_value(); })) {
    check_positions(shards);
    merged.test_set = first.test_set;  // each piece's is the whole test set's: the one run's report records it
  } else {
    check_no_repeated_piece(shards);
  }
  return merged;
}

}  // namespace evalcli::stats
