#include <fmt/format.h>

#include <functional>
#include <map>

#include "evalcli/core/error.hpp"
#include "evalcli/core/strings.hpp"
#include "evalcli/tokenize/builtin_tokenizers.hpp"
#include "evalcli/tokenize/tokenizer.hpp"

namespace evalcli {
namespace {

// A tokenizer factory: either `make_x()` or, for tokenizers with settings,
// `make_x(const TokenizerOptions&)`; both fit in one registry line.
class Factory {
 public:
  Factory(std::unique_ptr<Tokenizer> (*plain)())
      : make_([plain](const TokenizerOptions&) { return plain(); }) {}
  Factory(std::unique_ptr<Tokenizer> (*with_options)(const TokenizerOptions&)) : make_(with_options) {}
  std::unique_ptr<Tokenizer> operator()(const TokenizerOptions& options) const { return make_(options); }

 private:
  std::function<std::unique_ptr<Tokenizer>(const TokenizerOptions&)> make_;
};

// Every tokenizer evalcli knows, by registry name. Add new ones here.
const std::map<std::string, Factory, std::less<>>& registry() {
  static const std::map<std::string, Factory, std::less<>> factories = {
      {"none", tokenizers::make_none},   {"13a", tokenizers::make_13a},
      {"intl", tokenizers::make_intl},   {"zh", tokenizers::make_zh},
      {"char", tokenizers::make_char},   {"ja-mecab", tokenizers::make_ja_mecab},
      {"zh-jieba", tokenizers::make_zh_jieba},
      {"zh-jieba-nohmm", tokenizers::make_zh_jieba_nohmm},
      {"zh-icu", tokenizers::make_zh_icu},
      {"zh-char", tokenizers::make_zh_char},
      {"ja-icu", tokenizers::make_ja_icu},
      {"ptb", tokenizers::make_ptb},
      {"nltk-word", tokenizers::make_nltk_word},
  };
  return factories;
}

}  // namespace

std::vector<std::string> tokenizer_names() {
  std::vector<std::string> names;
  for (const auto& [name, factory] : registry()) names.push_back(name);
  return names;
}

std::unique_ptr<Tokenizer> make_tokenizer(std::string_view name, const TokenizerOptions& options) {
  const auto& factories = registry();
  auto it = factories.find(name);
  if (it == factories.end()) {
    throw usage_error(fmt::format("unknown tokenizer '{}' (known: {})", name,
                                  fmt::join(tokenizer_names(), ", ")));
  }
  return it->second(options);
}

std::unique_ptr<Tokenizer> tokenizer_from_signature(std::string_view value, const TokenizerOptions& options) {
  // An evalcli id "name-vN" names its registry entry exactly: try that first, so
  // that "zh-jieba-nohmm-v1" does not construct (and load a dictionary for) zh-jieba.
  if (const auto dash = value.rfind("-v"); dash != std::string_view::npos) {
    if (auto it = registry().find(value.substr(0, dash)); it != registry().end()) {
      auto tokenizer = it->second(options);
      if (tokenizer->id() == value) return tokenizer;
    }
  }
  for (const auto& [name, factory] : registry()) {
    // Matching by name prefix first avoids constructing (and loading
    // dictionaries for) every tokenizer.
    if (value.substr(0, name.size()) != name) continue;
    auto tokenizer = factory(options);
    if (tokenizer->id() == value || tokenizer->sacrebleu_name() == value) return tokenizer;
  }
  throw usage_error(fmt::format(
      "signature names tokenizer '{}', which this evalcli cannot reproduce (known: {})", value,
      fmt::join(tokenizer_names(), ", ")));
}

bool is_tokenizer_field(std::string_view key) { return key == "dict" || key == "icu"; }

void check_tokenizer_fields(const Tokenizer& tokenizer,
                            const std::vector<std::pair<std::string, std::string>>& fields) {
  std::vector<std::pair<std::string, std::string>> own;
  const std::string text = tokenizer.signature_fields();
  if (!text.empty()) {  // no fields, not one empty field
    for (auto field : split(text, '|')) {
      const auto colon = field.find(':');
      own.emplace_back(field.substr(0, colon), colon == field.npos ? "" : field.substr(colon + 1));
    }
  }
  // Lambdas capture `name`, not a structured binding: clang 14 (the sanitizer
  // and fuzz build) cannot capture those yet.
  for (const auto& [key, value] : fields) {
    const std::string& name = key;
    auto it = std::find_if(own.begin(), own.end(), [&](const auto& f) { return f.first == name; });
    if (it == own.end()) {
      throw usage_error(fmt::format("signature field '{}:{}' does not apply to tokenizer {} as this run has it "
                                    "(it prints no {}: field: was the signature made with another dictionary, such as "
                                    "--mecab-dict or EVALCLI_MECAB_DICDIR for ja-mecab?)",
                                    key, value, tokenizer.id(), key));
    }
    if (it->second != value) {
      throw usage_error(fmt::format("signature has {}:{} but this evalcli's {} uses {}:{}", key, value,
                                    tokenizer.id(), key, it->second));
    }
  }
  for (const auto& [key, value] : own) {
    const std::string& name = key;
    auto it = std::find_if(fields.begin(), fields.end(), [&](const auto& f) { return f.first == name; });
    if (it == fields.end()) {
      throw usage_error(fmt::format("signature lacks the {}: field that tokenizer {} needs (this evalcli: {}:{})",
                                    key, tokenizer.id(), key, value));
    }
  }
}

}  // namespace evalcli
