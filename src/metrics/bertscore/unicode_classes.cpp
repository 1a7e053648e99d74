#include "metrics/bertscore/unicode_classes.hpp"

#include <unicode/normalizer2.h>
#include <unicode/uchar.h>
#include <unicode/unistr.h>

#include "evalcli/core/error.hpp"

namespace evalcli::bertscore {
namespace {

std::u32string normalize(std::u32string_view s, const icu::Normalizer2* (*instance)(UErrorCode&)) {
  UErrorCode status = U_ZERO_ERROR;
  const icu::Normalizer2* normalizer = instance(status);
  const icu::UnicodeString source =
      icu::UnicodeString::fromUTF32(reinterpret_cast<const UChar32*>(s.data()), static_cast<int32_t>(s.size()));
  const icu::UnicodeString result = normalizer->normalize(source, status);
  if (U_FAILURE(status)) throw Error(ExitCode::internal, "ICU normalisation failed");
  std::u32string out;
  for (int32_t i = 0; i < result.length(); i = result.moveIndex32(i, 1)) out.push_back(static_cast<char32_t>(result.char32At(i)));
  return out;
}

}  // namespace

char major_category(char32_t c) {
  switch (u_charType(static_cast<UChar32>(c))) {
    case U_UPPERCASE_LETTER: case U_LOWERCASE_LETTER: case U_TITLECASE_LETTER: case U_MODIFIER_LETTER:
    case U_OTHER_LETTER: return 'L';
    case U_NON_SPACING_MARK: case U_ENCLOSING_MARK: case U_COMBINING_SPACING_MARK: return 'M';
    case U_DECIMAL_DIGIT_NUMBER: case U_LETTER_NUMBER: case U_OTHER_NUMBER: return 'N';
    case U_SPACE_SEPARATOR: case U_LINE_SEPARATOR: case U_PARAGRAPH_SEPARATOR: return 'Z';
    case U_DASH_PUNCTUATION: case U_START_PUNCTUATION: case U_END_PUNCTUATION: case U_CONNECTOR_PUNCTUATION:
    case U_OTHER_PUNCTUATION: case U_INITIAL_PUNCTUATION: case U_FINAL_PUNCTUATION: return 'P';
    case U_MATH_SYMBOL: case U_CURRENCY_SYMBOL: case U_MODIFIER_SYMBOL: case U_OTHER_SYMBOL: return 'S';
    default: return 'C';  // Cc, Cf, Cs, Co, Cn
  }
}

bool is_nonspacing_mark(char32_t c) { return u_charType(static_cast<UChar32>(c)) == U_NON_SPACING_MARK; }
bool is_space_separator(char32_t c) { return u_charType(static_cast<UChar32>(c)) == U_SPACE_SEPARATOR; }

bool is_python_space(char32_t c) {
  if ((c >= 0x09 && c <= 0x0d) || (c >= 0x1c && c <= 0x1f) || c == 0x85) return true;
  const int8_t type = u_charType(static_cast<UChar32>(c));
  return type == U_SPACE_SEPARATOR || type == U_LINE_SEPARATOR || type == U_PARAGRAPH_SEPARATOR;
}

std::u32string_view python_strip(std::u32string_view s) {
  while (!s.empty() && is_python_space(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_python_space(s.back())) s.remove_suffix(1);
  return s;
}

std::u32string nfc(std::u32string_view s) { return normalize(s, icu::Normalizer2::getNFCInstance); }
std::u32string nfd(std::u32string_view s) { return normalize(s, icu::Normalizer2::getNFDInstance); }

}  // namespace evalcli::bertscore
