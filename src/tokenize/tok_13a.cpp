// mteval-v13a tokenization as SacreBLEU's Tokenizer13a (the WMT default).
#include "evalcli/tokenize/builtin_tokenizers.hpp"

namespace evalcli::tokenizers {
namespace {

void replace_all(std::u32string& s, std::u32string_view from, std::u32string_view to) {
  std::size_t pos = 0;
  while ((pos = s.find(from, pos)) != std::u32string::npos) {
    s.replace(pos, from.size(), to);
    pos += to.size();
  }
}

class Tokenizer13a : public Tokenizer {
 public:
  std::string name() const override { return "13a"; }
  std::string sacrebleu_name() const override { return "13a"; }

  std::u32string tokenize(std::u32string_view line) const override {
    // Most lines have none of the characters the replacements look for.
    bool needs_replacements = false;
    for (char32_t c : line) needs_replacements |= c == U'<' || c == U'&' || c == U'\n';
    if (!needs_replacements) return apply_13a_rules(line, true);
    std::u32string s(line);
    if (s.find(U"<skipped>") != std::u32string::npos) replace_all(s, U"<skipped>", U"");
    if (s.find(U'\n') != std::u32string::npos) {
      replace_all(s, U"-\n", U"");
      replace_all(s, U"\n", U" ");
    }
    if (s.find(U'&') != std::u32string::npos) {
      // Sequential literal replacements, in SacreBLEU's order.
      replace_all(s, U"&quot;", U"\"");
      replace_all(s, U"&amp;", U"&");
      replace_all(s, U"&lt;", U"<");
      replace_all(s, U"&gt;", U">");
    }
    return apply_13a_rules(s, true);  // SacreBLEU passes f' {line} '
  }
};

}  // namespace

std::unique_ptr<Tokenizer> make_13a() { return std::make_unique<Tokenizer13a>(); }

}  // namespace evalcli::tokenizers
