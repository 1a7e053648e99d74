// BLEU configured from a printed signature (SacreBLEU 1.x/2.x or evalcli's):
// used by `evalcli bleu --signature`, `evalcli merge` and `evalcli check`.
#include <fmt/format.h>

#include "evalcli/core/error.hpp"
#include "evalcli/core/signature.hpp"
#include "evalcli/metrics/bleu.hpp"

namespace evalcli {
namespace {

// Reads "floor[0.10]" / "add-k[1.00]" / "exp" into method and value.
void apply_smooth_field(const std::string& value, BleuOptions& bleu) {
  const auto bracket = value.find('[');
  bleu.smoothing = parse_bleu_smoothing(value.substr(0, bracket));
  if (bracket != std::string::npos) {
    if (value.back() != ']') throw usage_error(fmt::format("signature: bad smooth value '{}'", value));
    bleu.smooth_value = signature_double("smooth", value.substr(bracket + 1, value.size() - bracket - 2));
  }
}

}  // namespace

// Configures BLEU from a SacreBLEU 1.x/2.x or evalcli signature.
// `tokenizer_options` supplies what a signature cannot carry (a --jieba-dict path);
// the tokenizer's own fields (dict:, icu:) must then match the signature's.
std::unique_ptr<Bleu> bleu_from_signature(const std::string& text, std::optional<std::size_t> given_refs,
                                          const TokenizerOptions& tokenizer_options, bool sentence_level) {
  BleuOptions bleu;
  std::unique_ptr<Tokenizer> tokenizer = make_tokenizer("13a");
  std::vector<std::unique_ptr<Normalizer>> normalizers;
  std::vector<std::pair<std::string, std::string>> tokenizer_fields;
  for (const auto& field : parse_signature(text)) {
    const auto& [key, value] = field;
    if (key == "metric") {
      if (value != "BLEU") throw usage_error(fmt::format("signature is for {}, not BLEU", value));
    } else if (key == "nrefs" || key == "#") {
      check_signature_nrefs(value, given_refs);
    } else if (key == "case" || key == "c") {
      bleu.text.lowercase = signature_lowercase(value);
    } else if (key == "eff" || key == "e") {
      if (value != "yes" && value != "no") throw usage_error(fmt::format("signature: unknown eff '{}'", value));
      bleu.effective_order = value == "yes";
    } else if (key == "tok") {
      tokenizer = tokenizer_from_signature(value, tokenizer_options);
    } else if (key == "smooth" || key == "s") {
      apply_smooth_field(value, bleu);
    } else if (key == "order") {
      bleu.max_ngram_order = signature_int("order", value);
      if (bleu.max_ngram_order < 1 || bleu.max_ngram_order > 16) {
        throw usage_error(fmt::format("signature: order:{} is outside 1..16", value));
      }
    } else if (key == "norm") {
      if (value != "none") {
        std::size_t start = 0;
        while (start <= value.size()) {
          const auto plus = value.find('+', start);
          normalizers.push_back(normalizer_from_id(value.substr(start, plus - start)));
          if (plus == std::string::npos) break;
          start = plus + 1;
        }
      }
    } else if (is_tokenizer_field(key)) {
      tokenizer_fields.emplace_back(key, value);
    } else if (key == "version" || key == "v" || key == "test" || key == "t" || key == "lang" ||
               key == "l" || key == "origlang" || key == "o" || key == "subset" || key == "S") {
      // Informational: they do not change how given files are scored.
    } else {
      throw usage_error(fmt::format("signature field '{}:{}' is not a BLEU option evalcli knows", key, value));
    }
  }
  check_tokenizer_fields(*tokenizer, tokenizer_fields);
  bleu.text.tokenizer = tokenizer->name();
  // As SacreBLEU: effective order for sentence-level scores.
  if (sentence_level) bleu.effective_order = true;
  auto pipeline = std::make_unique<TextPipeline>(std::move(normalizers), bleu.text.lowercase, std::move(tokenizer));
  return std::make_unique<Bleu>(bleu, std::move(pipeline));
}

}  // namespace evalcli
