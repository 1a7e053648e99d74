// chrF configured from a printed signature (SacreBLEU 1.x/2.x or evalcli's):
// used by `evalcli chrf --signature`, `evalcli merge` and `evalcli check`.
#include <fmt/format.h>

#include <cctype>

#include "evalcli/core/error.hpp"
#include "evalcli/core/signature.hpp"
#include "evalcli/metrics/chrf.hpp"
#include "evalcli/text/normalizer.hpp"
#include "evalcli/tokenize/tokenizer.hpp"

namespace evalcli {
namespace {

int int_value(const std::string& key, const std::string& value) {
  try {
    std::size_t used = 0;
    const int number = std::stoi(value, &used);
    if (used == value.size()) return number;
  } catch (const std::exception&) {
  }
  throw usage_error(fmt::format("signature: {} must be an integer, not '{}'", key, value));
}

// "chrF2++" -> beta 2, word order 2 (SacreBLEU prints beta only in the name).
void apply_metric_name(const std::string& name, ChrfOptions& chrf) {
  if (name.rfind("chrF", 0) != 0) throw usage_error(fmt::format("signature is for {}, not chrF", name));
  std::size_t pos = 4, digits = 0;
  while (pos + digits < name.size() && std::isdigit(static_cast<unsigned char>(name[pos + digits]))) ++digits;
  if (digits > 0) chrf.beta = std::stoi(name.substr(pos, digits));
  const std::string plus = name.substr(pos + digits);
  if (plus.find_first_not_of('+') != std::string::npos) {
    throw usage_error(fmt::format("signature: unknown metric name '{}'", name));
  }
  if (!plus.empty()) chrf.word_order = static_cast<int>(plus.size());
}

}  // namespace

// `tokenizer_options` supplies what a signature cannot carry (a --jieba-dict
// path); the tokenizer's own fields (dict:, icu:) must then match the signature's.
ChrfOptions chrf_options_from_signature(const std::string& text, std::optional<std::size_t> given_refs,
                                        const TokenizerOptions& tokenizer_options) {
  ChrfOptions chrf;
  chrf.tokenizer_options = tokenizer_options;
  std::unique_ptr<Tokenizer> tokenizer;
  std::vector<std::pair<std::string, std::string>> tokenizer_fields;
  bool tokenized_text = false;  // the ngrams:tok-text-v1 field
  for (const auto& [key, value] : parse_signature(text)) {
    if (key == "metric") {
      apply_metric_name(value, chrf);
    } else if (key == "nrefs" || key == "#") {
      check_signature_nrefs(value, given_refs);
    } else if (key == "case" || key == "c") {
      chrf.lowercase = signature_lowercase(value);
    } else if (key == "eff" || key == "e") {
      chrf.eps_smoothing = !signature_yes_no(key, value);
    } else if (key == "nc" || key == "n") {
      chrf.char_order = int_value(key, value);
    } else if (key == "nw") {
      chrf.word_order = int_value(key, value);
    } else if (key == "space" || key == "s") {
      chrf.whitespace = signature_yes_no(key, value);
    } else if (key == "beta") {
      chrf.beta = int_value(key, value);
    } else if (key == "tok") {
      // The tokenizer version must be one this build reproduces.
      tokenizer = tokenizer_from_signature(value, tokenizer_options);
      chrf.tokenizer = tokenizer->name();
    } else if (key == kChrfTokenizedField) {
      if (value != kChrfTokenizedValue) {
        throw usage_error(fmt::format("signature: unknown {} value '{}'", key, value));
      }
      tokenized_text = true;
    } else if (is_tokenizer_field(key)) {
      tokenizer_fields.emplace_back(key, value);
    } else if (key == "norm") {
      if (value != "none") {
        std::size_t start = 0;
        while (start <= value.size()) {
          const auto plus = value.find('+', start);
          const std::string id = value.substr(start, plus - start);
          auto normalizer = normalizer_from_id(id);
          chrf.normalizers.push_back(normalizer->name());
          if (plus == std::string::npos) break;
          start = plus + 1;
        }
      }
    } else if (key == "version" || key == "v" || key == "test" || key == "t" || key == "lang" || key == "l" ||
               key == "origlang" || key == "o" || key == "subset" || key == "S") {
      // Informational: they do not change how given files are scored.
    } else {
      throw usage_error(fmt::format("signature field '{}:{}' is not a chrF option evalcli knows", key, value));
    }
  }
  if (tokenizer) {
    if (!tokenized_text) {
      throw usage_error(fmt::format("signature has tok: without {}:{} (an older evalcli chrF that took the tokens "
                                    "as words); this evalcli cannot reproduce it",
                                    kChrfTokenizedField, kChrfTokenizedValue));
    }
    check_tokenizer_fields(*tokenizer, tokenizer_fields);
  } else if (tokenized_text || !tokenizer_fields.empty()) {
    throw usage_error("signature has tokenizer fields but no tok: field");
  }
  return chrf;
}


}  // namespace evalcli
