// Every registered tokenizer (make_tokenizer over tokenizer_names()) on any
// valid UTF-8 line: no crash, and the output keeps the Tokenizer contract
// (tokens joined by single spaces, none leading or trailing). The first byte
// picks the tokenizer; the rest is the line (decoded up to its first invalid byte).
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <vector>

#include "evalcli/core/error.hpp"
#include "evalcli/text/utf8.hpp"
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
    return list;
  }();
  return all;
}

void check_joined_by_single_spaces(const std::u32string& tokens) {
  if (tokens.empty()) return;
  if (tokens.front() == U' ' || tokens.back() == U' ') std::abort();
  if (tokens.find(U"  ") != std::u32string::npos) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0 || tokenizers().empty()) return 0;
  const auto& tokenizer = tokenizers()[data[0] % tokenizers().size()];
  std::u32string line;
  evalcli::utf8::decode(evalcli::fuzz::as_text(data + 1, size - 1), line);
  check_joined_by_single_spaces(tokenizer->tokenize(line));
  return 0;
}
