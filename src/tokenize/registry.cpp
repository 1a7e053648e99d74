#include <fmt/format.h>

#include <functional>
#include <map>

#include "evalcli/core/error.hpp"
#include "evalcli/tokenize/builtin_tokenizers.hpp"
#include "evalcli/tokenize/tokenizer.hpp"

namespace evalcli {
namespace {

using Factory = std::function<std::unique_ptr<Tokenizer>()>;

// Every tokenizer evalcli knows, by registry name. Add new ones here.
const std::map<std::string, Factory, std::less<>>& registry() {
  static const std::map<std::string, Factory, std::less<>> factories = {
      {"none", tokenizers::make_none},   {"13a", tokenizers::make_13a},
      {"intl", tokenizers::make_intl},   {"zh", tokenizers::make_zh},
      {"char", tokenizers::make_char},   {"ja-mecab", tokenizers::make_ja_mecab},
  };
  return factories;
}

}  // namespace

std::vector<std::string> tokenizer_names() {
  std::vector<std::string> names;
  for (const auto& [name, factory] : registry()) names.push_back(name);
  return names;
}

std::unique_ptr<Tokenizer> make_tokenizer(std::string_view name) {
  const auto& factories = registry();
  auto it = factories.find(name);
  if (it == factories.end()) {
    throw usage_error(fmt::format("unknown tokenizer '{}' (known: {})", name,
                                  fmt::join(tokenizer_names(), ", ")));
  }
  return it->second();
}

std::unique_ptr<Tokenizer> tokenizer_from_signature(std::string_view value) {
  for (const auto& [name, factory] : registry()) {
    // Matching by name prefix first avoids constructing (and loading
    // dictionaries for) every tokenizer.
    if (value.substr(0, name.size()) != name) continue;
    auto tokenizer = factory();
    if (tokenizer->id() == value || tokenizer->sacrebleu_name() == value) return tokenizer;
  }
  throw usage_error(fmt::format(
      "signature names tokenizer '{}', which this evalcli cannot reproduce (known: {})", value,
      fmt::join(tokenizer_names(), ", ")));
}

}  // namespace evalcli
