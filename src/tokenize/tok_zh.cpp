// SacreBLEU's `zh` tokenizer: every "Chinese" character is isolated, then the
// 13a rules apply (without 13a's padding and entity handling).
#include "evalcli/text/unicode.hpp"
#include "evalcli/tokenize/builtin_tokenizers.hpp"

namespace evalcli::tokenizers {
namespace {

// The effective ranges of SacreBLEU's table, including its documented bug:
// two 5-hex-digit escapes turn one entry into U+2001..U+2A6D and drop
// CJK Extension B and the compatibility supplement (upstream issue #298).
constexpr bool is_sacrebleu_chinese(char32_t c) {
  constexpr char32_t ranges[][2] = {
      {0x2001, 0x2A6D}, {0x2E80, 0x2FDF}, {0x2FF0, 0x303F}, {0x3100, 0x312F}, {0x31A0, 0x31EF},
      {0x3200, 0x4DB5}, {0x4E00, 0x9FBB}, {0xF900, 0xFA2D}, {0xFA30, 0xFA6A}, {0xFA70, 0xFAD9},
      {0xFE10, 0xFE1F}, {0xFE30, 0xFE4F}, {0xFF00, 0xFFEF},
  };
  if (c < 0x2001 || c > 0xFFEF) return false;
  for (const auto& range : ranges) {
    if (c >= range[0] && c <= range[1]) return true;
  }
  return false;
}

class TokenizerZh : public Tokenizer {
 public:
  std::string name() const override { return "zh"; }
  std::string sacrebleu_name() const override { return "zh"; }

  std::u32string tokenize(std::u32string_view line) const override {
    const std::u32string_view stripped = text::strip(line);
    std::u32string spaced;
    spaced.reserve(stripped.size() * 3);
    for (char32_t c : stripped) {
      if (is_sacrebleu_chinese(c)) {
        spaced.push_back(U' ');
        spaced.push_back(c);
        spaced.push_back(U' ');
      } else {
        spaced.push_back(c);
      }
    }
    return apply_13a_rules(spaced);
  }
};

}  // namespace

std::unique_ptr<Tokenizer> make_zh() { return std::make_unique<TokenizerZh>(); }

}  // namespace evalcli::tokenizers
