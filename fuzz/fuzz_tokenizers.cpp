// Every registered tokenizer (make_tokenizer over tokenizer_names()), TER's
// Tercom tokenizer in its 16 option combinations, and rouge-score's tokenizer
// (with and without the Porter stemmer) on any valid UTF-8 line: no crash, and
// the output keeps the Tokenizer contract (tokens joined by single spaces,
// none leading or trailing). The first byte picks the tokenizer; the rest is
// the line (decoded up to its first invalid byte; rstripped for Tercom, which
// expects it so).
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <vector>

#include "evalcli/core/error.hpp"
#include "evalcli/metrics/rouge.hpp"
#include "evalcli/text/porter_stemmer.hpp"
#include "evalcli/text/unicode.hpp"
#include "evalcli/text/utf8.hpp"
#include "evalcli/tokenize/tercom.hpp"
#include "evalcli/tokenize/tokenizer.hpp"
#include "fuzz_support.hpp"

namespace {

// Built once: some tokenizers load dictionaries. A tokenizer whose resource is
// missing on this machine (exit 4) is left out.
const std::vector<std::unique_ptr<evalcli::Tokenizer>>& tokenizers() {
  static const auto all = [] {
    std::vector<std::unique_ptr<evalcli::Tokenizer>> list;
    for (const auto& name : evalcli::tokenizer_names()) {
      try {
        list.push_back(evalcli::make_tokenizer(name));
      } catch (const evalcli::Error&) {
      }
    }
    for (int flags = 0; flags < 16; ++flags) {
      list.push_back(std::make_unique<evalcli::TercomTokenizer>(
          evalcli::TercomOptions{(flags & 1) != 0, (flags & 2) != 0, (flags & 4) != 0, (flags & 8) != 0}));
    }
    return list;
  }();
  return all;
}

void check_rouge_tokens(const evalcli::RougeTokens& tokens) {
  for (const auto& token : tokens) {
    if (token.empty()) std::abort();
  }
}

void check_joined_by_single_spaces(const std::u32string& tokens) {
  if (tokens.empty()) return;
  if (tokens.front() == U' ' || tokens.back() == U' ') std::abort();
  if (tokens.find(U"  ") != std::u32string::npos) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0 || tokenizers().empty()) return 0;
  std::u32string line;
  evalcli::utf8::decode(evalcli::fuzz::as_text(data + 1, size - 1), line);
  const std::size_t choice = data[0] % (tokenizers().size() + 2);
  if (choice >= tokenizers().size()) {
    static const evalcli::text::PorterStemmer stemmer;
    check_rouge_tokens(evalcli::rouge_score_tokenize(line, choice == tokenizers().size() ? nullptr : &stemmer));
    return 0;
  }
  const auto& tokenizer = tokenizers()[choice];
  if (tokenizer->name() == "tercom") line = std::u32string(evalcli::text::rstrip(line));
  check_joined_by_single_spaces(tokenizer->tokenize(line));
  return 0;
}
