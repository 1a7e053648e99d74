#include "cli/run_signature.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "evalcli/core/error.hpp"

namespace evalcli::cli {
namespace {

// Short keys that name the same field as a long key in every SacreBLEU metric
// (metric-specific short keys such as BLEU's s = smooth are the metric's).
std::string canonical_key(const std::string& key) {
  static const std::map<std::string, std::string> kLongKeys = {
      {"#", "nrefs"}, {"c", "case"}, {"e", "eff"}, {"v", "version"},
      {"l", "lang"},  {"o", "origlang"}, {"S", "subset"}, {"rs", "seed"}};
  const auto found = kLongKeys.find(key);
  return found == kLongKeys.end() ? key : found->second;
}

// "... = 51.6 85.4/62.2/..." -> "51.6" (the first word after " = "), if any.
std::optional<std::string> pasted_score(const std::string& text) {
  const auto eq = text.find(" = ");
  if (eq == std::string::npos) return std::nullopt;
  const auto start = text.find_first_not_of(' ', eq + 3);
  if (start == std::string::npos) return std::nullopt;
  const auto end = text.find_first_of(" \n", start);
  return text.substr(start, end == std::string::npos ? std::string::npos : end - start);
}

int resample_count(const SignatureField& field) {
  const int n = signature_int(field.key, field.value);
  if (n < 1) throw usage_error(fmt::format("signature field '{}:{}' must be at least 1", field.key, field.value));
  return n;
}

// An option of the command line that the signature also sets must agree with it.
void refuse_contradiction(const CLI::App& cmd, const char* option, const std::string& given, const std::string& field) {
  if (cmd.count(option) > 0 && given != field) {
    throw usage_error(fmt::format("--signature has {} but {} {} was given", field, option, given));
  }
}

void apply_resampling(const SignatureField& field, OutputOptions& output, const CLI::App& cmd) {
  if (field.key == "seed") {
    if (cmd.count("--seed") > 0 && output.seed && *output.seed != field.value) {
      throw usage_error(fmt::format("--signature has seed:{} but --seed {} was given", field.value, *output.seed));
    }
    output.seed = field.value;
  } else if (field.key == "bs") {
    const int n = resample_count(field);
    if (output.paired_bs) {
      refuse_contradiction(cmd, "--paired-bs-n", std::to_string(output.paired_bs_n), "bs:" + field.value);
      output.paired_bs_n = n;
    } else {
      refuse_contradiction(cmd, "--confidence-n", std::to_string(output.confidence_n), "bs:" + field.value);
      output.confidence = true;
      output.confidence_n = n;
    }
  } else {  // ar
    refuse_contradiction(cmd, "--paired-ar-n", std::to_string(output.paired_ar_n), "ar:" + field.value);
    output.paired_ar = true;
    output.paired_ar_n = resample_count(field);
  }
}

std::string join_fields(const std::vector<SignatureField>& fields) {
  std::string text;
  for (const auto& field : fields) text += (text.empty() ? "" : "|") + field.key + ":" + field.value;
  return text;
}

}  // namespace

std::string RunSignature::metric_text() const { return join_fields(metric_fields); }

std::optional<std::string> RunSignature::take(const std::string& key) {
  const auto found = std::find_if(metric_fields.begin(), metric_fields.end(),
                                  [&](const SignatureField& field) { return field.key == key; });
  if (found == metric_fields.end()) return std::nullopt;
  std::string value = found->value;
  metric_fields.erase(found);
  return value;
}

void add_signature_option(CLI::App* cmd, std::string& signature) {
  cmd->add_option("--signature", signature,
                  "configure from a printed signature (evalcli's, or SacreBLEU 1.x/2.x for bleu/chrf/ter); "
                  "a pasted ' = SCORE' is checked")
      ->check(CLI::Validator(
          [](std::string& value) { return value.empty() ? std::string("an empty signature") : std::string(); }, ""));
}

RunSignature read_run_signature(const std::string& text, std::optional<std::size_t> given_refs,
                                OutputOptions& output, const CLI::App& cmd) {
  RunSignature run;
  std::map<std::string, std::string> seen;  // canonical key -> field as given
  for (const auto& field : parse_signature(text)) {
    const std::string key = canonical_key(field.key);
    const std::string as_given = field.key + ":" + field.value;
    if (const auto [at, fresh] = seen.emplace(key, as_given); !fresh) {
      throw usage_error(fmt::format("signature gives '{}' twice: '{}' and '{}'", key, at->second, as_given));
    }
    if (key == "nrefs") {
      check_signature_nrefs(field.value, given_refs);
    } else if (key == "bs" || key == "ar" || key == "seed") {
      apply_resampling({key, field.value}, output, cmd);
    } else if (key == "version") {
      run.evalcli_form = field.value.starts_with("evalcli-");
      // Kept for the metrics whose readers accept SacreBLEU's version field.
      run.metric_fields.push_back({key, field.value});
    } else {
      run.metric_fields.push_back({key, field.value});
    }
  }
  output.expected_score = pasted_score(text);
  return run;
}

void check_rebuilt_signature(const RunSignature& given, const StatsModel& metric) {
  check_rebuilt_signature(given, metric.name(), metric.signature());
}

void check_rebuilt_signature(const RunSignature& given, const std::string& name, const std::string& fields) {
  check_rebuilt_signature(given, name, fields, {});
}

void check_rebuilt_signature(const RunSignature& given, const std::string& name, const std::string& fields,
                             const std::vector<FieldAddedLater>& added_later) {
  if (!given.evalcli_form) return;
  std::map<std::string, std::string> rebuilt;
  for (const auto& field : parse_signature(fields)) rebuilt.emplace(field.key, field.value);
  for (const auto& field : given.metric_fields) {
    if (field.key == "version" || field.key == "metric") continue;
    const auto found = rebuilt.find(field.key);
    if (found == rebuilt.end()) {
      throw usage_error(fmt::format("signature field '{}:{}' is not a {} field of this run (its fields: {})", field.key,
                                    field.value, name, fields));
    }
    if (found->second != field.value) {
      throw usage_error(fmt::format("signature has '{}:{}' but this run has '{}:{}'", field.key, field.value,
                                    field.key, found->second));
    }
    rebuilt.erase(found);
  }
  for (const auto& later : added_later) {
    const auto absent = rebuilt.find(later.key);
    if (absent == rebuilt.end()) continue;
    if (later.why_absent_differs) {
      throw usage_error(fmt::format("signature has no '{}' field (this run has {}:{}), and {}", later.key, later.key,
                                    absent->second, *later.why_absent_differs));
    }
    rebuilt.erase(absent);
  }
  if (!rebuilt.empty()) {
    const auto& [key, value] = *rebuilt.begin();
    throw usage_error(fmt::format("signature has no '{}' field (this run has {}:{})", key, key, value));
  }
}

}  // namespace evalcli::cli
