// `zh-char`: the character-level Chinese tokenizer used with rouge-score
// (docs/rouge.md): lowercase (Python str.lower), then every Han character
// (Script=Han) is a token and every maximal run of other letters, digits and
// combining marks (\p{L}\p{N}\p{M}) is one token; everything else separates.
#include <unicode/uchar.h>
#include <unicode/uscript.h>

#include "evalcli/text/unicode.hpp"
#include "evalcli/tokenize/builtin_tokenizers.hpp"

namespace evalcli::tokenizers {
namespace {

bool is_han(char32_t c) {
  UErrorCode status = U_ZERO_ERROR;
  return uscript_getScript(static_cast<UChar32>(c), &status) == USCRIPT_HAN && U_SUCCESS(status);
}

bool is_letter_number_mark(char32_t c) {
  return (U_GET_GC_MASK(static_cast<UChar32>(c)) & (U_GC_L_MASK | U_GC_N_MASK | U_GC_M_MASK)) != 0;
}

class TokenizerZhChar : public Tokenizer {
 public:
  std::string name() const override { return "zh-char"; }

  std::u32string tokenize(std::u32string_view line) const override {
    const std::u32string lowered = text::lower(line);
    std::u32string out;
    bool in_run = false;  // inside a run of non-Han letters/digits/marks
    for (char32_t c : lowered) {
      if (is_han(c)) {
        if (!out.empty()) out.push_back(U' ');
        out.push_back(c);
        in_run = false;
      } else if (is_letter_number_mark(c)) {
        if (!in_run && !out.empty()) out.push_back(U' ');
        out.push_back(c);
        in_run = true;
      } else {
        in_run = false;
      }
    }
    return out;
  }
};

}  // namespace

std::unique_ptr<Tokenizer> make_zh_char() { return std::make_unique<TokenizerZhChar>(); }

}  // namespace evalcli::tokenizers
