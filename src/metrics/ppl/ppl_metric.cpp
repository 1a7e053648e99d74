#include "evalcli/metrics/ppl_metric.hpp"

#include <fmt/format.h>

#include <cmath>
#include <limits>

#include "evalcli/core/error.hpp"
#include "evalcli/core/signature.hpp"

namespace evalcli::ppl {
namespace {

std::uint64_t count(double value) { return static_cast<std::uint64_t>(value); }

double number_or_nan(const nlohmann::json& value) {
  return value.is_number() ? value.get<double>() : std::numeric_limits<double>::quiet_NaN();
}

}  // namespace

StatRow to_row(const PplStats& s) {
  return {s.log10_total, s.oov_log10_total, static_cast<double>(s.tokens), static_cast<double>(s.oovs),
          static_cast<double>(s.words), static_cast<double>(s.lines), static_cast<double>(s.chars),
          static_cast<double>(s.bytes)};
}

PplStats arpa_stats(std::span<const Stat> r) {
  PplStats s;
  s.log10_total = r[0];
  s.oov_log10_total = r[1];
  s.tokens = count(r[2]);
  s.oovs = count(r[3]);
  s.words = count(r[4]);
  s.lines = count(r[5]);
  s.chars = count(r[6]);
  s.bytes = count(r[7]);
  return s;
}

StatRow to_row(const LogprobStats& s) {
  return {s.logprob_sum, static_cast<double>(s.docs), static_cast<double>(s.scored_tokens),
          static_cast<double>(s.chars), static_cast<double>(s.bytes), static_cast<double>(s.words),
          static_cast<double>(s.docs_without_text)};
}

LogprobStats logprob_stats(std::span<const Stat> r) {
  LogprobStats s;
  s.logprob_sum = r[0];
  s.docs = count(r[1]);
  s.scored_tokens = count(r[2]);
  s.chars = count(r[3]);
  s.bytes = count(r[4]);
  s.words = count(r[5]);
  s.docs_without_text = count(r[6]);
  return s;
}

nlohmann::ordered_json arpa_stats_json(const PplStats& corpus) {
  nlohmann::ordered_json stats;
  stats["log10_total"] = corpus.log10_total;
  stats["oov_log10_total"] = corpus.oov_log10_total;
  stats["tokens"] = corpus.tokens;
  stats["oovs"] = corpus.oovs;
  stats["words"] = corpus.words;
  stats["lines"] = corpus.lines;
  stats["chars"] = corpus.chars;
  stats["bytes"] = corpus.bytes;
  return stats;
}

nlohmann::ordered_json logprob_stats_json(const LogprobStats& corpus) {
  nlohmann::ordered_json stats;
  stats["logprob_sum_nats"] = corpus.logprob_sum;
  stats["docs"] = corpus.docs;
  stats["scored_tokens"] = corpus.scored_tokens;
  stats["chars"] = corpus.chars;
  stats["bytes"] = corpus.bytes;
  stats["words_lm_eval"] = corpus.words;
  stats["docs_without_text"] = corpus.docs_without_text;
  return stats;
}

std::vector<std::string> PplMetric::stat_names() const {
  if (mode_ == Mode::arpa) return {"log10_total", "oov_log10_total", "tokens", "oovs", "words", "lines", "chars", "bytes"};
  return {"logprob_sum_nats", "docs", "scored_tokens", "chars", "bytes", "words_lm_eval", "docs_without_text"};
}

nlohmann::json PplMetric::details(std::span<const Stat> stats) const {
  return mode_ == Mode::arpa ? nlohmann::json(arpa_stats(stats).to_json()) : nlohmann::json(logprob_stats(stats).to_json());
}

double PplMetric::score(std::span<const Stat> stats) const {
  if (mode_ == Mode::arpa) {
    const PplStats s = arpa_stats(stats);
    return s.tokens == 0 ? std::numeric_limits<double>::quiet_NaN() : s.ppl_including_oovs();
  }
  return number_or_nan(logprob_stats(stats).to_json()["ppl_token"]);
}

std::unique_ptr<StatsModel> ppl_from_signature(const std::string& signature) {
  // The fields are what `evalcli ppl` wrote; the model itself is not needed to
  // combine statistics, and its md5 stays in the signature.
  const auto fields = parse_signature(signature);
  const auto mode = find_field(fields, "mode");
  if (!mode || (*mode != "arpa" && *mode != "logprobs")) {
    throw usage_error("signature: PPL needs mode:arpa or mode:logprobs");
  }
  std::string metric_fields;
  for (const auto& field : fields) {
    if (field.key == "nrefs" || field.key == "version") continue;
    metric_fields += (metric_fields.empty() ? "" : "|") + field.key + ":" + field.value;
  }
  return std::make_unique<PplMetric>(*mode == "arpa" ? PplMetric::Mode::arpa : PplMetric::Mode::logprobs,
                                     metric_fields);
}

}  // namespace evalcli::ppl
