// TER configured from a printed signature (SacreBLEU 1.x/2.x or evalcli's):
// used by `evalcli ter --signature`, `evalcli merge` and `evalcli check`.
#include <fmt/format.h>

#include "evalcli/core/error.hpp"
#include "evalcli/core/signature.hpp"
#include "evalcli/metrics/ter.hpp"
#include "evalcli/text/normalizer.hpp"
#include "evalcli/tokenize/tokenizer.hpp"

namespace evalcli {
namespace {

// SacreBLEU 1.x: tok.tercom-nonorm-punct-noasian-uncased
void apply_legacy_tok(const std::string& value, TercomOptions& tercom) {
  std::size_t start = 0;
  bool first = true;
  while (start <= value.size()) {
    const auto dash = value.find('-', start);
    const std::string part = value.substr(start, dash - start);
    if (first) {
      if (part != "tercom") throw usage_error(fmt::format("signature: unknown TER tokenizer '{}'", value));
    } else if (part == "norm" || part == "nonorm") {
      tercom.normalized = part == "norm";
    } else if (part == "punct" || part == "nopunct") {
      tercom.no_punct = part == "nopunct";
    } else if (part == "asian" || part == "noasian") {
      tercom.asian_support = part == "asian";
    } else if (part == "cased" || part == "uncased") {
      tercom.case_sensitive = part == "cased";
    } else {
      throw usage_error(fmt::format("signature: unknown TER tokenizer part '{}' in '{}'", part, value));
    }
    first = false;
    if (dash == std::string::npos) break;
    start = dash + 1;
  }
}

// Configures TER from a SacreBLEU 1.x/2.x or evalcli signature.
}  // namespace

TerOptions ter_options_from_signature(const std::string& text, std::optional<std::size_t> given_refs) {
  TerOptions ter;
  auto& tercom = ter.tercom;
  for (const auto& [key, value] : parse_signature(text)) {
    if (key == "metric") {
      if (value != "TER") throw usage_error(fmt::format("signature is for {}, not TER", value));
    } else if (key == "nrefs" || key == "#") {
      check_signature_nrefs(value, given_refs);
    } else if (key == "case" || key == "c") {
      tercom.case_sensitive = !signature_lowercase(value);
    } else if (key == "tok" || key == "t") {
      if (value == "tercom" || value == "tercom-v1") {
        // SacreBLEU 2.x / evalcli: options come in their own fields
      } else if (value.rfind("tercom-", 0) == 0) {
        apply_legacy_tok(value, tercom);
      } else {
        const auto dash_v = value.rfind("-v");
        ter.tokenizer = value.substr(0, dash_v);
        if (make_tokenizer(ter.tokenizer)->id() != value) {
          throw usage_error(fmt::format("signature names tokenizer '{}', which this evalcli cannot reproduce", value));
        }
      }
    } else if (key == "norm" || key == "nr") {
      tercom.normalized = signature_yes_no(key, value);
    } else if (key == "punct" || key == "pn") {
      tercom.no_punct = !signature_yes_no(key, value);
    } else if (key == "asian" || key == "as") {
      tercom.asian_support = signature_yes_no(key, value);
    } else if (key == "prenorm") {
      if (value != "none") {
        std::size_t start = 0;
        while (start <= value.size()) {
          const auto plus = value.find('+', start);
          ter.normalizers.push_back(normalizer_from_id(value.substr(start, plus - start))->name());
          if (plus == std::string::npos) break;
          start = plus + 1;
        }
      }
    } else if (key == "version" || key == "v" || key == "test" || key == "lang" || key == "l" ||
               key == "origlang" || key == "o" || key == "subset" || key == "S") {
      // Informational: they do not change how given files are scored.
    } else {
      throw usage_error(fmt::format("signature field '{}:{}' is not a TER option evalcli knows", key, value));
    }
  }
  return ter;
}


}  // namespace evalcli
