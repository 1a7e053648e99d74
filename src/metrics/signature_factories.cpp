// Metrics rebuilt from the fields their own signature() prints (METEOR, ROUGE,
// CIDEr): the inverse of each signature(), used by `evalcli merge` and
// `evalcli check` through the registry (src/metrics/registry.cpp). Every field
// is applied or rejected: the rebuilt metric's signature must come out equal,
// which merge and check verify.
#include "evalcli/metrics/signature_factories.hpp"

#include <fmt/format.h>

#include <cstdlib>

#include "evalcli/core/error.hpp"
#include "evalcli/core/signature.hpp"
#include "evalcli/metrics/cider.hpp"
#include "evalcli/metrics/meteor.hpp"
#include "evalcli/metrics/meteor15.hpp"
#include "evalcli/metrics/rouge.hpp"
#include "evalcli/text/normalizer.hpp"
#include "evalcli/text/utf8.hpp"
#include "evalcli/tokenize/tokenizer.hpp"

namespace evalcli {
namespace {

[[noreturn]] void unknown_field(const char* metric, const SignatureField& field) {
  throw usage_error(fmt::format("signature field '{}:{}' is not a {} option evalcli knows", field.key, field.value, metric));
}

bool informational(const std::string& key) { return key == "nrefs" || key == "version"; }

// "none" or "nfkc-v1+punct-v1" -> registry names of the normalizers.
std::vector<std::string> normalizer_names(const std::string& chain) {
  std::vector<std::string> names;
  if (chain == "none" || chain.empty()) return names;
  std::size_t start = 0;
  while (start <= chain.size()) {
    const auto plus = chain.find('+', start);
    names.push_back(normalizer_from_id(chain.substr(start, plus - start))->name());
    if (plus == std::string::npos) break;
    start = plus + 1;
  }
  return names;
}

std::string tokenizer_name(const std::string& id) { return tokenizer_from_signature(id)->name(); }

// "none" / "tab" / "newline" / "lit[<n>]" as printed by the ROUGE signatures.
std::pair<std::u32string, std::string> sentence_separator(const std::string& label) {
  if (label == "none") return {U"", label};
  if (label == "tab") return {U"\t", label};
  if (label == "newline") return {U"\n", label};
  if (label.starts_with("lit[") && label.ends_with("]")) {
    return {utf8::decode_or_throw(label.substr(4, label.size() - 5), "signature sent:"), label};
  }
  throw usage_error(fmt::format("signature: unknown sentence separator 'sent:{}'", label));
}

std::vector<std::string> split_on(const std::string& text, char separator) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  while (start <= text.size()) {
    const auto at = text.find(separator, start);
    parts.push_back(text.substr(start, at - start));
    if (at == std::string::npos) break;
    start = at + 1;
  }
  return parts;
}

}  // namespace

std::unique_ptr<StatsModel> rouge_from_signature(const std::string& signature) {
  return std::make_unique<RougeScoreMetric>(rouge_score_options_from_signature(signature));
}

RougeScoreOptions rouge_score_options_from_signature(const std::string& signature) {
  RougeScoreOptions options;
  for (const auto& field : parse_signature(signature)) {
    const auto& [key, value] = field;
    if (key == "compat") {
      if (value != "rouge-score-0.1.2") throw usage_error(fmt::format("signature: unknown ROUGE compat '{}'", value));
    } else if (key == "types") {
      for (const auto& type : split_on(value, '+')) options.types.push_back(parse_rouge_score_type(type));
    } else if (key == "tok") {
      if (value != "rouge-ascii-v1") options.tokenizer = tokenizer_name(value);
    } else if (key == "stem") {
      options.stem = value != "no";
    } else if (key == "sent") {
      std::tie(options.sentence_separator, options.sentence_separator_label) = sentence_separator(value);
    } else if (key == "norm") {
      options.normalizers = normalizer_names(value);
    } else if (key == "multiref") {
      if (value != "max-f") throw usage_error(fmt::format("signature: unknown multiref '{}'", value));
    } else if (!informational(key)) {
      unknown_field("ROUGE", field);
    }
  }
  return options;
}

std::unique_ptr<StatsModel> rouge155_from_signature(const std::string& signature) {
  Rouge155Options options = rouge155_options_from_signature(signature);
  // As `evalcli rouge --compat rouge155` without --rouge155-data.
  if (const char* home = std::getenv("ROUGE_EVAL_HOME")) options.data_dir = home;
  return std::make_unique<Rouge155Metric>(options);
}

Rouge155Options rouge155_options_from_signature(const std::string& signature) {
  Rouge155Options options;
  for (const auto& field : parse_signature(signature)) {
    const auto& [key, value] = field;
    if (key == "compat") {
      if (value != "rouge155") throw usage_error(fmt::format("signature: unknown ROUGE compat '{}'", value));
    } else if (key == "flags") {
      parse_rouge155_flags(value, options);
    } else if (key == "tok") {
      if (value.ends_with("+hexids")) options.tokenizer = tokenizer_name(value.substr(0, value.size() - 7));
      else if (value != "rouge155-bytes-v1") throw usage_error(fmt::format("signature: unknown ROUGE-1.5.5 tok '{}'", value));
    } else if (key == "stem") {
      options.stem = value != "no";  // also given by -m in flags
    } else if (key == "sent") {
      std::tie(options.sentence_separator, options.sentence_separator_label) = sentence_separator(value);
    } else if (key == "norm") {
      options.normalizers = normalizer_names(value);
    } else if (!informational(key)) {
      unknown_field("ROUGE-1.5.5", field);
    }
  }
  return options;
}

}  // namespace evalcli
