// SacreBLEU's `char` tokenizer: every non-whitespace code point is a token.
#include "evalcli/tokenize/builtin_tokenizers.hpp"
#include "tokenize/rule_chain.hpp"

namespace evalcli::tokenizers {
namespace {

class TokenizerChar : public Tokenizer {
 public:
  std::string name() const override { return "char"; }
  std::string sacrebleu_name() const override { return "char"; }

  std::u32string tokenize(std::u32string_view line) const override {
    std::u32string out;
    tokenize_into(line, out);
    return out;
  }
  // Each character, and a space before it at most.
  void tokenize_into(std::u32string_view line, std::u32string& out) const override {
    rule_chain::write_joined(2 * line.size(), out, [line](auto& join) { split(line, join); });
  }
  void tokenize_located_into(std::u32string_view line, TokenizedText& out) const override {
    rule_chain::write_located(2 * line.size(), out, [line](auto& join) { split(line, join); });
  }

 private:
  template <class Join>
  static void split(std::u32string_view line, Join& join) {
    for (const char32_t c : line) {
      join.put(c);    // whitespace ends a token, any other character starts one...
      join.blank();  // ...that ends at once
    }
    join.finish();
  }
};

}  // namespace

std::unique_ptr<Tokenizer> make_char() { return std::make_unique<TokenizerChar>(); }

}  // namespace evalcli::tokenizers
