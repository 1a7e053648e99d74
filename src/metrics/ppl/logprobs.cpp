// Log-probability files: one JSON document per line with natural-log
// per-token log-probabilities; metrics with lm-evaluation-harness's definitions
// (lm_eval/api/metrics.py: weighted_perplexity, bits_per_byte) and its word count.
#include <fmt/format.h>

#include <cmath>

#include "evalcli/core/error.hpp"
#include "evalcli/metrics/ppl.hpp"
#include "evalcli/text/unicode.hpp"
#include "evalcli/text/utf8.hpp"

namespace evalcli::ppl {

LogBase parse_log_base(std::string_view text) {
  if (text == "e") return LogBase::e;
  if (text == "10") return LogBase::ten;
  if (text == "2") return LogBase::two;
  throw usage_error(fmt::format("--logprob-base must be e, 10 or 2, not '{}'", text));
}

std::string_view log_base_name(LogBase base) {
  switch (base) {
    case LogBase::ten: return "10";
    case LogBase::two: return "2";
    case LogBase::e: break;
  }
  return "e";
}

std::uint64_t lm_eval_word_count(std::u32string_view text) {
  std::uint64_t runs = 0;
  bool in_space = false;
  for (const char32_t c : text) {
    const bool space = text::is_space(c);
    if (space && !in_space) ++runs;
    in_space = space;
  }
  return runs + 1;
}

namespace {

[[noreturn]] void invalid(const std::string& where, const std::string& what) {
  throw input_error(fmt::format("{}: {}", where, what));
}

}  // namespace

DocumentScore score_document(std::string_view json_line, LogBase base, const std::string& where,
                             std::vector<std::string>& warnings) {
  // nlohmann::json reads a NUL as the end of the text: what follows it would be ignored.
  if (const auto nul = json_line.find('\0'); nul != std::string_view::npos) {
    invalid(where, fmt::format("not valid JSON: NUL byte at byte {}", nul + 1));
  }
  nlohmann::json doc;
  try {
    doc = nlohmann::json::parse(json_line);
  } catch (const nlohmann::json::exception& e) {  // syntax errors, number overflow
    invalid(where, fmt::format("not valid JSON: {}", e.what()));
  }
  if (!doc.is_object()) invalid(where, "expected a JSON object {\"text\": ..., \"logprobs\": [...]}");
  DocumentScore result;
  if (auto id = doc.find("id"); id != doc.end()) result.id = *id;
  const auto logprobs = doc.find("logprobs");
  if (logprobs == doc.end()) invalid(where, "field \"logprobs\" is missing");
  if (!logprobs->is_array()) invalid(where, "field \"logprobs\" must be an array of numbers or null");
  const auto tokens = doc.find("tokens");
  if (tokens != doc.end()) {
    if (!tokens->is_array()) invalid(where, "field \"tokens\" must be an array of strings");
    if (tokens->size() != logprobs->size()) {
      invalid(where, fmt::format("fields \"tokens\" and \"logprobs\" have different lengths ({} vs {})",
                                 tokens->size(), logprobs->size()));
    }
  }
  // Conversion to natural log, in double, before summing (spec 3.1).
  const double to_nats = base == LogBase::ten ? std::log(10.0) : base == LogBase::two ? std::log(2.0) : 1.0;
  LogprobStats& stats = result.stats;
  stats.docs = 1;
  double sum = 0.0;
  for (std::size_t i = 0; i < logprobs->size(); ++i) {
    const auto& value = (*logprobs)[i];
    if (value.is_null()) continue;
    if (!value.is_number()) invalid(where, fmt::format("field \"logprobs\"[{}] must be a number or null", i));
    double lp = value.get<double>();
    if (!std::isfinite(lp)) invalid(where, fmt::format("field \"logprobs\"[{}] is not a finite number", i));
    if (lp > 0) {
      warnings.push_back(fmt::format("{}: field \"logprobs\"[{}] is positive ({}): a log-probability cannot be; "
                                     "used as given",
                                     where, i, lp));
    }
    if (base != LogBase::e) lp *= to_nats;
    sum += lp;
    ++stats.scored_tokens;
  }
  stats.logprob_sum = sum;
  // The text the probabilities are about: `text`, else the concatenated tokens.
  std::string text;
  bool has_text = true;
  if (auto t = doc.find("text"); t != doc.end() && !t->is_null()) {
    if (!t->is_string()) invalid(where, "field \"text\" must be a string");
    text = t->get<std::string>();
  } else if (tokens != doc.end()) {
    for (std::size_t i = 0; i < tokens->size(); ++i) {
      if (!(*tokens)[i].is_string()) invalid(where, fmt::format("field \"tokens\"[{}] must be a string", i));
      text += (*tokens)[i].get<std::string>();
    }
  } else {
    has_text = false;
  }
  if (has_text) {
    std::u32string decoded;
    if (utf8::decode(text, decoded) != utf8::npos) invalid(where, "field \"text\" is not valid UTF-8");
    stats.chars = decoded.size();
    stats.bytes = text.size();
    stats.words = lm_eval_word_count(decoded);
  } else {
    stats.docs_without_text = 1;
  }
  return result;
}

LogprobStats& LogprobStats::operator+=(const LogprobStats& other) {
  logprob_sum += other.logprob_sum;
  docs += other.docs;
  scored_tokens += other.scored_tokens;
  chars += other.chars;
  bytes += other.bytes;
  words += other.words;
  docs_without_text += other.docs_without_text;
  return *this;
}

nlohmann::ordered_json LogprobStats::to_json() const {
  const double ln2 = std::log(2.0);
  const double s = logprob_sum;
  const bool text_known = docs_without_text == 0;
  const auto per = [&](std::uint64_t count, auto formula) -> nlohmann::json {
    if (count == 0) return nullptr;
    return formula(static_cast<double>(count));
  };
  const auto text_per = [&](std::uint64_t count, auto formula) -> nlohmann::json {
    if (!text_known) return nullptr;
    return per(count, formula);
  };
  nlohmann::ordered_json j;
  j["docs"] = docs;
  j["scored_tokens"] = scored_tokens;
  j["chars"] = text_known ? nlohmann::json(chars) : nlohmann::json(nullptr);
  j["bytes"] = text_known ? nlohmann::json(bytes) : nlohmann::json(nullptr);
  j["words_lm_eval"] = text_known ? nlohmann::json(words) : nlohmann::json(nullptr);
  j["logprob_sum_nats"] = s;
  j["nll_sum_nats"] = 0.0 - s;  // not -s: nothing scored gives 0, not -0.0
  j["nll_per_token_nats"] = per(scored_tokens, [&](double n) { return -(s / n); });
  j["ppl_token"] = per(scored_tokens, [&](double n) { return std::exp(-(s / n)); });
  j["bits_per_token"] = per(scored_tokens, [&](double n) { return -(s / n) / ln2; });
  j["bpc"] = text_per(chars, [&](double c) { return -(s / c) / ln2; });
  j["bpb"] = text_per(bytes, [&](double b) { return -(s / b) / ln2; });
  j["char_perplexity"] = text_per(chars, [&](double c) { return std::exp(-(s / c)); });
  j["byte_perplexity"] = text_per(bytes, [&](double b) { return std::exp(-(s / b)); });
  j["word_perplexity"] = text_per(words, [&](double w) { return std::exp(-(s / w)); });
  return j;
}

}  // namespace evalcli::ppl
