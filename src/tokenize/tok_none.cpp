// The `none` tokenizer: the line's Python-whitespace split, nothing else.
#include "evalcli/text/unicode.hpp"
#include "evalcli/tokenize/builtin_tokenizers.hpp"

namespace evalcli::tokenizers {
namespace {

class TokenizerNone : public Tokenizer {
 public:
  std::string name() const override { return "none"; }
  std::string sacrebleu_name() const override { return "none"; }
  std::u32string tokenize(std::u32string_view line) const override {
    return text::squeeze_spaces(line);
  }
};

}  // namespace

std::unique_ptr<Tokenizer> make_none() { return std::make_unique<TokenizerNone>(); }

}  // namespace evalcli::tokenizers
