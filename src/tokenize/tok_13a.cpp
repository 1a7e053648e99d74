// mteval-v13a tokenization as SacreBLEU's Tokenizer13a (the WMT default).
#include "evalcli/tokenize/builtin_tokenizers.hpp"
#include "tokenize/rewrite.hpp"

namespace evalcli::tokenizers {
namespace {

class Tokenizer13a : public Tokenizer {
 public:
  std::string name() const override { return "13a"; }
  std::string sacrebleu_name() const override { return "13a"; }

  std::u32string tokenize(std::u32string_view line) const override {
    std::u32string out;
    tokenize_into(line, out);
    return out;
  }

  void tokenize_into(std::u32string_view line, std::u32string& out) const override {
    // Most lines have none of the characters the replacements look for.
    if (!apply_13a_rules_unless_replacements(line, out)) out = with_replacements(line);
  }

  void tokenize_located_into(std::u32string_view line, TokenizedText& out) const override {
    if (apply_13a_rules_unless_replacements(line, out)) return;
    out.text = with_replacements(line);
    out.locate_tokens();
  }

 private:
  static std::u32string with_replacements(std::u32string_view line) {
    std::u32string s(line);
    if (s.find(U"<skipped>") != std::u32string::npos) replace_all(s, U"<skipped>", U"");
    if (s.find(U'\n') != std::u32string::npos) {
      replace_all(s, U"-\n", U"");
      replace_all(s, U"\n", U" ");
    }
    unescape_mteval_entities(s);
    return apply_13a_rules(s, true);  // SacreBLEU passes f' {line} '
  }
};

}  // namespace

std::unique_ptr<Tokenizer> make_13a() { return std::make_unique<Tokenizer13a>(); }

}  // namespace evalcli::tokenizers
