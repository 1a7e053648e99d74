// SacreBLEU's `char` tokenizer: every non-whitespace code point is a token.
#include "evalcli/text/unicode.hpp"
#include "evalcli/tokenize/builtin_tokenizers.hpp"

namespace evalcli::tokenizers {
namespace {

class TokenizerChar : public Tokenizer {
 public:
  std::string name() const override { return "char"; }
  std::string sacrebleu_name() const override { return "char"; }

  std::u32string tokenize(std::u32string_view line) const override {
    std::u32string out;
    out.reserve(line.size() * 2);
    for (char32_t c : line) {
      if (text::is_space(c)) continue;
      if (!out.empty()) out.push_back(U' ');
      out.push_back(c);
    }
    return out;
  }
};

}  // namespace

std::unique_ptr<Tokenizer> make_char() { return std::make_unique<TokenizerChar>(); }

}  // namespace evalcli::tokenizers
