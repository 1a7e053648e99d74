#pragma once
// The text options every metric shares, declared once (docs/text-pipeline.md):
// --tokenize (-tok), --normalize, --lowercase (-lc), --jieba-hmm, --jieba-dict,
// and the signature fields that carry them (tok:, norm:, case:, dict:, icu:).
#include <memory>
#include <string>
#include <vector>

#include "evalcli/metrics/definition.hpp"
#include "evalcli/tokenize/pipeline.hpp"

namespace evalcli {

struct TextOptionSpecs {
  std::string tokenize_help;      // what --tokenize does for this metric and its default
  bool lowercase = true;          // offer --lowercase (-lc), printed as case:lc|mixed
  std::string case_key = "case";  // its signature key ("" = the metric reads case: itself)
  std::string norm_key = "norm";  // signature key of the normalizer chain (TER: prenorm)
  bool tok_key = true;            // read tok: (+ dict:, icu:) as a registry tokenizer
  bool jieba = true;              // offer --jieba-hmm and --jieba-dict
};

// The option specs and the signature keys of the shared text options.
std::vector<OptionSpec> text_option_specs(const TextOptionSpecs& specs);
std::vector<SignatureKey> text_signature_keys(const TextOptionSpecs& specs);

// The pipeline options the values stand for; `default_tokenizer` when --tokenize is not given.
PipelineOptions pipeline_options(const OptionValues& values, const std::string& default_tokenizer);
TokenizerOptions tokenizer_options(const OptionValues& values);

// A signature's dict:/icu: fields must be what the tokenizer prints (another
// dictionary, another ICU): a usage error naming the first difference.
void check_signature_tokenizer_fields(const OptionValues& values, const Tokenizer& tokenizer);
bool has_signature_tokenizer_fields(const OptionValues& values);

// "nfkc-v1+punct-v1" or "none" -> the normalizers' registry names.
std::vector<std::string> normalizer_names_from_chain(const std::string& chain);

}  // namespace evalcli
