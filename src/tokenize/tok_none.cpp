// The `none` tokenizer: the line's Python-whitespace split, nothing else.
#include "evalcli/tokenize/builtin_tokenizers.hpp"
#include "tokenize/rule_chain.hpp"

namespace evalcli::tokenizers {
namespace {

class TokenizerNone : public Tokenizer {
 public:
  std::string name() const override { return "none"; }
  std::string sacrebleu_name() const override { return "none"; }

  std::u32string tokenize(std::u32string_view line) const override {
    std::u32string out;
    tokenize_into(line, out);
    return out;
  }
  // The join alone: tokens joined by one space, never longer than the line.
  void tokenize_into(std::u32string_view line, std::u32string& out) const override {
    rule_chain::write_joined(line.size(), out, [line](auto& join) { split(line, join); });
  }
  void tokenize_located_into(std::u32string_view line, TokenizedText& out) const override {
    rule_chain::write_located(line.size(), out, [line](auto& join) { split(line, join); });
  }

 private:
  template <class Join>
  static void split(std::u32string_view line, Join& join) {
    for (const char32_t c : line) join.put(c);
    join.finish();
  }
};

}  // namespace

std::unique_ptr<Tokenizer> make_none() { return std::make_unique<TokenizerNone>(); }

}  // namespace evalcli::tokenizers
