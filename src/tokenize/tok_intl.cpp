// mteval-v14 "international" tokenization as SacreBLEU's TokenizerV14International:
// punctuation next to a non-number and every symbol are separated
// (Unicode general categories from ICU, Unicode 15 like python3-regex).
#include "evalcli/text/unicode.hpp"
#include "evalcli/tokenize/builtin_tokenizers.hpp"
#include "tokenize/rewrite.hpp"

namespace evalcli::tokenizers {
namespace {

class TokenizerIntl : public Tokenizer {
 public:
  std::string name() const override { return "intl"; }
  std::string sacrebleu_name() const override { return "intl"; }

  std::u32string tokenize(std::u32string_view line) const override {
    // (\P{N})(\p{P}) -> "\1 \2 "
    std::u32string a = replace_pairs(line, [](char32_t x, char32_t y) {
      return !text::is_number(x) && text::is_punctuation(y);
    }, false);
    // (\p{P})(\P{N}) -> " \1 \2"
    std::u32string b = replace_pairs(a, [](char32_t x, char32_t y) {
      return text::is_punctuation(x) && !text::is_number(y);
    }, true);
    // (\p{S}) -> " \1 "
    std::u32string c;
    c.reserve(b.size() + 8);
    for (char32_t ch : b) {
      if (text::is_symbol(ch)) {
        c.push_back(U' ');
        c.push_back(ch);
        c.push_back(U' ');
      } else {
        c.push_back(ch);
      }
    }
    return text::squeeze_spaces(c);
  }
};

}  // namespace

std::unique_ptr<Tokenizer> make_intl() { return std::make_unique<TokenizerIntl>(); }

}  // namespace evalcli::tokenizers
