#include "evalcli/metrics/text_options.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "evalcli/core/error.hpp"
#include "evalcli/core/strings.hpp"
#include "evalcli/text/normalizer.hpp"
#include "evalcli/tokenize/text_scan.hpp"
#include "evalcli/tokenize/tokenizer.hpp"

namespace evalcli {
namespace {

constexpr const char* kTokenizerFields = "signature-tokenizer-fields";  // "dict:..." from a signature

void add_tokenizer_field(const std::string& key, const std::string& value, OptionValues& values) {
  auto fields = values.list(kTokenizerFields);
  fields.push_back(key + ":" + value);
  values.set_list(kTokenizerFields, std::move(fields));
}

// A printer of one text field from the metric's pipeline.
FieldPrinter pipeline_printer(const PipelineOf& pipeline_of,
                              std::function<std::optional<std::string>(const TextPipeline&)> print) {
  if (!pipeline_of) return nullptr;
  return [pipeline_of, print = std::move(print)](const StatsModel& model) -> std::optional<std::string> {
    const TextPipeline* pipeline = pipeline_of(model);
    if (pipeline == nullptr) return std::nullopt;
    return print(*pipeline);
  };
}

}  // namespace

std::optional<std::string> tokenizer_field(const Tokenizer& tokenizer, std::string_view key) {
  const std::string fields = tokenizer.signature_fields();
  for (const std::string_view field : split(std::string_view(fields), '|')) {
    if (field.size() > key.size() && field.substr(0, key.size()) == key && field[key.size()] == ':') {
      return std::string(field.substr(key.size() + 1));
    }
  }
  return std::nullopt;
}

std::vector<OptionSpec> text_option_specs(const TextOptionSpecs& specs) {
  std::vector<OptionSpec> options = {
      {.name = "tokenize", .help = specs.tokenize_help, .sacrebleu_alias = "-tok"},
      {.name = "normalize", .kind = OptionKind::list, .help = "normalizers applied before tokenizing, in order"},
  };
  if (specs.lowercase) {
    options.push_back({.name = "lowercase",
                       .kind = OptionKind::flag,
                       .help = "lowercase before tokenizing (-lc)",
                       .sacrebleu_alias = "-lc",
                       .signature_key = specs.case_key,
                       .signature_short_key = specs.case_key.empty() ? "" : "c",
                       .flag_words = {"lc", "mixed"},
                       .print = pipeline_printer(specs.pipeline, [mixed = specs.case_when_mixed](const TextPipeline& p)
                                                     -> std::optional<std::string> {
                         if (!p.lowercase() && !mixed) return std::nullopt;
                         return flag_value(p.lowercase());
                       })});
  }
  if (specs.language) {
    options.push_back({.name = "language-pair",
                       .help = "SRC-TGT languages, as SacreBLEU's -l: the target picks SacreBLEU's tokenizer for it "
                               "(zh: zh, ja: ja-mecab; ko: ko-mecab is not available); --tokenize overrides it",
                       .short_flag = "-l",
                       .aliases = specs.language_alias.empty() ? std::vector<std::string>{}
                                                               : std::vector<std::string>{specs.language_alias}});
  }
  if (!specs.jieba) return options;
  options.push_back({.name = "jieba-hmm",
                     .help = "zh-jieba: HMM for unknown words, as jieba.cut(HMM=...) (default on)",
                     .choices = {"on", "off"}});
  options.push_back({.name = "jieba-dict",
                     .help = "zh-jieba: dictionary replacing python3-jieba's dict.txt (same format)",
                     .role = OptionRole::resource});
  options.push_back({.name = "mecab-dict",
                     .help = "ja-mecab: compiled MeCab dictionary folder (sys.dic) replacing Debian's IPA one "
                             "(default: EVALCLI_MECAB_DICDIR, else Debian's)",
                     .role = OptionRole::resource});
  return options;
}

std::vector<SignatureKey> text_signature_keys(const TextOptionSpecs& specs) {
  std::vector<SignatureKey> keys = {
      {specs.norm_key, "",
       [](const std::string& value, OptionValues& values) {
         values.set_list("normalize", normalizer_names_from_chain(value));
       },
       pipeline_printer(specs.pipeline, [none = specs.norm_when_none](const TextPipeline& p) -> std::optional<std::string> {
         if (!p.has_normalizers() && !none) return std::nullopt;
         return p.normalizer_chain_id();
       })}};
  if (specs.tok_key) {
    keys.push_back({"tok", "",
                    [](const std::string& value, OptionValues& values) {
                      // The version must be one this build reproduces; SacreBLEU's names map to theirs.
                      values.set("tokenize", tokenizer_from_signature(value, tokenizer_options(values))->name());
                    },
                    pipeline_printer(specs.pipeline, [](const TextPipeline& p) -> std::optional<std::string> {
                      return p.tokenizer().id();
                    })});
  }
  // A metric that reads tok: itself (ROUGE) still prints a tokenizer's dict:/icu:.
  if (specs.tok_key || specs.jieba) {
    for (const char* key : {"dict", "icu"}) {
      keys.push_back({key, "",
                      [key](const std::string& value, OptionValues& values) { add_tokenizer_field(key, value, values); },
                      pipeline_printer(specs.pipeline, [key](const TextPipeline& p) {
                        return tokenizer_field(p.tokenizer(), key);
                      })});
    }
  }
  return keys;
}

TokenizerOptions tokenizer_options(const OptionValues& values) {
  TokenizerOptions options;
  options.jieba_hmm = values.text("jieba-hmm", "on") == "on";
  options.jieba_dict = values.text("jieba-dict");
  options.mecab_dict = values.text("mecab-dict");
  return options;
}

std::string target_language(const OptionValues& values) {
  const std::string pair = values.text("language-pair");
  if (pair.empty()) return {};
  const std::string target = target_language(pair);
  const auto lower = [](char c) { return c >= 'a' && c <= 'z'; };
  const bool well_formed = !target.empty() && target.size() <= 8 && std::all_of(target.begin(), target.end(), lower);
  if (!well_formed) {
    throw usage_error(fmt::format("--language-pair '{}': expected SRC-TGT language codes such as en-zh", pair));
  }
  return target;
}

std::string chosen_tokenizer(const OptionValues& values, const std::string& fallback) {
  if (values.has("tokenize")) return values.text("tokenize");
  const std::string language = target_language(values);
  const std::string tokenizer = sacrebleu_tokenizer_for_language(language, fallback);
  const auto known = tokenizer_names();
  if (tokenizer != fallback && std::find(known.begin(), known.end(), tokenizer) == known.end()) {
    throw usage_error(fmt::format(
        "--language-pair {}: SacreBLEU tokenizes '{}' with {}, which this evalcli does not have (no Korean MeCab "
        "dictionary is packaged); choose a tokenizer with --tokenize (e.g. char or 13a)",
        values.text("language-pair"), language, tokenizer));
  }
  return tokenizer;
}

PipelineOptions pipeline_options(const OptionValues& values, const std::string& default_tokenizer) {
  PipelineOptions options;
  options.normalizers = values.list("normalize");
  options.lowercase = values.flag("lowercase");
  options.tokenizer = chosen_tokenizer(values, default_tokenizer);
  options.tokenizer_options = tokenizer_options(values);
  return options;
}

bool has_signature_tokenizer_fields(const OptionValues& values) { return values.has(kTokenizerFields); }

void check_signature_tokenizer_fields(const OptionValues& values, const Tokenizer& tokenizer) {
  if (!values.from_signature()) return;  // command-line runs print what they use
  std::vector<std::pair<std::string, std::string>> fields;
  for (const auto& field : values.list(kTokenizerFields)) {
    const auto colon = field.find(':');
    fields.emplace_back(field.substr(0, colon), field.substr(colon + 1));
  }
  check_tokenizer_fields(tokenizer, fields);
}

std::vector<std::string> normalizer_names_from_chain(const std::string& chain) {
  std::vector<std::string> names;
  if (chain == "none" || chain.empty()) return names;
  for (std::size_t start = 0, plus = 0; plus != std::string::npos; start = plus + 1) {
    plus = chain.find('+', start);
    names.push_back(normalizer_from_id(chain.substr(start, plus == std::string::npos ? plus : plus - start))->name());
  }
  return names;
}

}  // namespace evalcli
