#pragma once
// The text options every metric shares, declared once (docs/text-pipeline.md):
// --tokenize (-tok), --normalize, --lowercase (-lc), --jieba-hmm, --jieba-dict, --mecab-dict,
// and the signature fields that carry them (tok:, norm:, case:, dict:, icu:).
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "evalcli/metrics/definition.hpp"
#include "evalcli/tokenize/pipeline.hpp"

namespace evalcli {

// The text pipeline of a built metric, for the printers of the text fields (null: none).
using PipelineOf = std::function<const TextPipeline*(const StatsModel&)>;

// The pipeline() of a metric of class Model.
template <class Model>
PipelineOf pipeline_of() {
  return [](const StatsModel& model) -> const TextPipeline* {
    const auto* own = dynamic_cast<const Model*>(&model);
    return own == nullptr ? nullptr : &own->pipeline();
  };
}

struct TextOptionSpecs {
  std::string tokenize_help;      // what --tokenize does for this metric and its default
  bool lowercase = true;          // offer --lowercase (-lc), printed as case:lc|mixed
  std::string case_key = "case";  // its signature key ("" = the metric reads case: itself)
  std::string norm_key = "norm";  // signature key of the normalizer chain (TER: prenorm)
  bool tok_key = true;            // read tok: (+ dict:, icu:) as a registry tokenizer
  bool jieba = true;              // offer --jieba-hmm, --jieba-dict and --mecab-dict
  // Offer -l/--language-pair SRC-TGT (SacreBLEU's -l): the target language picks
  // the tokenizer SacreBLEU would (chosen_tokenizer); `language_alias` is a
  // further flag for single-language metrics ("--lang", which takes a bare TGT too).
  bool language = false;
  std::string language_alias;
  // Printing: the pipeline the fields describe (null: the metric prints them itself).
  PipelineOf pipeline;
  bool case_when_mixed = true;   // print case:mixed too (else case: only when lowercased)
  bool norm_when_none = false;   // print norm:none too (else norm: only with normalizers)
};

// The value of the tokenizer's own `key` field ("dict", "icu"; Tokenizer::signature_fields), or nullopt.
std::optional<std::string> tokenizer_field(const Tokenizer& tokenizer, std::string_view key);

// The option specs and the signature keys of the shared text options.
std::vector<OptionSpec> text_option_specs(const TextOptionSpecs& specs);
std::vector<SignatureKey> text_signature_keys(const TextOptionSpecs& specs);

// The pipeline options the values stand for; chosen_tokenizer(values, default_tokenizer).
PipelineOptions pipeline_options(const OptionValues& values, const std::string& default_tokenizer);

// --tokenize's value; else the tokenizer SacreBLEU picks for -l's target
// language (zh -> zh, ja -> ja-mecab); else `fallback`. A target whose
// tokenizer this build lacks (ko -> ko-mecab) is a usage error saying so.
std::string chosen_tokenizer(const OptionValues& values, const std::string& fallback);
// The target language of -l/--language-pair ("" when not given).
std::string target_language(const OptionValues& values);
TokenizerOptions tokenizer_options(const OptionValues& values);

// A signature's dict:/icu: fields must be what the tokenizer prints (another
// dictionary, another ICU): a usage error naming the first difference.
void check_signature_tokenizer_fields(const OptionValues& values, const Tokenizer& tokenizer);
bool has_signature_tokenizer_fields(const OptionValues& values);

// "nfkc-v1+punct-v1" or "none" -> the normalizers' registry names.
std::vector<std::string> normalizer_names_from_chain(const std::string& chain);

}  // namespace evalcli
