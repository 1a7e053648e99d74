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
    std::u32string s;
    s.reserve(line.size() + 2);
    s.push_back(U' ');
    s.append(line);
    s.push_back(U' ');
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
    return apply_13a_rules(s);
  }
};

}  // namespace

std::unique_ptr<Tokenizer> make_13a() { return std::make_unique<Tokenizer13a>(); }

}  // namespace evalcli::tokenizers
