// `fullwidth`: full-width ASCII and CJK punctuation to their half-width (ASCII)
// forms, by the fixed table in docs/segmentation.md (any change to the table is a
// new version). Everything else is left as it is; unlike NFKC this does not
// touch compatibility ideographs, ligatures, superscripts or half-width kana.
#include "text/builtin_normalizers.hpp"

namespace evalcli::normalizers {
namespace {

// The replacement of `c`, or nullptr to keep it (docs/segmentation.md, v1).
const char32_t* replacement(char32_t c) {
  switch (c) {
    case 0x3000: return U" ";    // IDEOGRAPHIC SPACE
    case 0x3001: return U",";    // 、 IDEOGRAPHIC COMMA
    case 0x3002: return U".";    // 。 IDEOGRAPHIC FULL STOP
    case 0x3008: return U"<";    // 〈
    case 0x3009: return U">";    // 〉
    case 0x300A: return U"<";    // 《
    case 0x300B: return U">";    // 》
    case 0x300C: return U"\"";   // 「
    case 0x300D: return U"\"";   // 」
    case 0x300E: return U"\"";   // 『
    case 0x300F: return U"\"";   // 』
    case 0x3010: return U"[";    // 【
    case 0x3011: return U"]";    // 】
    case 0x3014: return U"[";    // 〔
    case 0x3015: return U"]";    // 〕
    case 0x3016: return U"[";    // 〖
    case 0x3017: return U"]";    // 〗
    case 0x3018: return U"[";    // 〘
    case 0x3019: return U"]";    // 〙
    case 0x301A: return U"[";    // 〚
    case 0x301B: return U"]";    // 〛
    case 0x301C: return U"~";    // 〜 WAVE DASH
    case 0x2018: return U"'";    // ‘ (full width in CJK text)
    case 0x2019: return U"'";    // ’
    case 0x201C: return U"\"";   // “
    case 0x201D: return U"\"";   // ”
    case 0x2026: return U"...";  // … HORIZONTAL ELLIPSIS
    case 0xFF5F: return U"\u2985";  // ｟ -> ⦅
    case 0xFF60: return U"\u2986";  // ｠ -> ⦆
    case 0xFF61: return U".";    // ｡ HALFWIDTH IDEOGRAPHIC FULL STOP
    case 0xFF62: return U"\"";   // ｢
    case 0xFF63: return U"\"";   // ｣
    case 0xFF64: return U",";    // ､
    case 0xFFE0: return U"\u00A2";  // ￠ -> ¢
    case 0xFFE1: return U"\u00A3";  // ￡ -> £
    case 0xFFE2: return U"\u00AC";  // ￢ -> ¬
    case 0xFFE3: return U"\u00AF";  // ￣ -> ¯
    case 0xFFE4: return U"\u00A6";  // ￤ -> ¦
    case 0xFFE5: return U"\u00A5";  // ￥ -> ¥
    case 0xFFE6: return U"\u20A9";  // ￦ -> ₩
    default: return nullptr;
  }
}

class NormalizerFullwidth : public Normalizer {
 public:
  std::string name() const override { return "fullwidth"; }
  std::u32string apply(std::u32string_view line) const override {
    std::u32string out;
    out.reserve(line.size());
    for (char32_t c : line) {
      if (c >= 0xFF01 && c <= 0xFF5E) {
        out.push_back(c - 0xFF01 + 0x21);  // ！..～ -> !..~
      } else if (const char32_t* to = replacement(c)) {
        out += to;
      } else {
        out.push_back(c);
      }
    }
    return out;
  }
};

}  // namespace

std::unique_ptr<Normalizer> make_fullwidth() { return std::make_unique<NormalizerFullwidth>(); }

}  // namespace evalcli::normalizers
