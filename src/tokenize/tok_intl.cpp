// mteval-v14 "international" tokenization as SacreBLEU's TokenizerV14International:
// punctuation next to a non-number and every symbol are separated
// (Unicode general categories from ICU, Unicode 15 like python3-regex).
#include "evalcli/text/unicode.hpp"
#include "evalcli/tokenize/builtin_tokenizers.hpp"

namespace evalcli::tokenizers {
namespace {

class TokenizerIntl : public Tokenizer {
 public:
  std::string name() const override { return "intl"; }
  std::string sacrebleu_name() const override { return "intl"; }

  std::u32string tokenize(std::u32string_view line) const override {
    // (\P{N})(\p{P}) -> "\1 \2 "
    std::u32string a = scan(line, [](char32_t x, char32_t y) {
      return !text::is_number(x) && text::is_punctuation(y);
    }, false);
    // (\p{P})(\P{N}) -> " \1 \2"
    std::u32string b = scan(a, [](char32_t x, char32_t y) {
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

 private:
  // Left-to-right, non-overlapping replacement of a two-character pattern.
  template <typename Match>
  static std::u32string scan(std::u32string_view s, Match match, bool space_first) {
    std::u32string out;
    out.reserve(s.size() + s.size() / 4);
    std::size_t i = 0;
    while (i < s.size()) {
      if (i + 1 < s.size() && match(s[i], s[i + 1])) {
        if (space_first) out.push_back(U' ');
        out.push_back(s[i]);
        out.push_back(U' ');
        out.push_back(s[i + 1]);
        if (!space_first) out.push_back(U' ');
        i += 2;
      } else {
        out.push_back(s[i++]);
      }
    }
    return out;
  }
};

}  // namespace

std::unique_ptr<Tokenizer> make_intl() { return std::make_unique<TokenizerIntl>(); }

}  // namespace evalcli::tokenizers
