// The regex post-processing shared by the 13a and zh tokenizers
// (SacreBLEU's TokenizerRegexp), written as linear scanners.
#include "evalcli/text/unicode.hpp"
#include "evalcli/tokenize/builtin_tokenizers.hpp"

namespace evalcli::tokenizers {
namespace {

// `[\{-\~\[-\` -\&\(-\+\:-\@\/]`: ASCII symbols padded with spaces.
constexpr bool is_13a_symbol(char32_t c) {
  return (c >= 0x7B && c <= 0x7E) || (c >= 0x5B && c <= 0x60) || (c >= 0x20 && c <= 0x26) ||
         (c >= 0x28 && c <= 0x2B) || (c >= 0x3A && c <= 0x40) || c == 0x2F;
}

constexpr bool is_period_or_comma(char32_t c) { return c == U'.' || c == U','; }

// re.sub of a two-character pattern (first in class A, second in class B):
// matches are found left to right and never overlap. `space_before`/`after`
// say where the replacement puts spaces around the second character,
// giving "\1 \2 " (before=true, after=true) or " \1 \2" (handled separately).
template <typename First, typename Second>
std::u32string replace_pairs(std::u32string_view s, First first, Second second,
                             bool split_before_first) {
  std::u32string out;
  out.reserve(s.size() + s.size() / 4);
  std::size_t i = 0;
  while (i < s.size()) {
    if (i + 1 < s.size() && first(s[i]) && second(s[i + 1])) {
      if (split_before_first) {  // " \1 \2"
        out.push_back(U' ');
        out.push_back(s[i]);
        out.push_back(U' ');
        out.push_back(s[i + 1]);
      } else {  // "\1 \2 "
        out.push_back(s[i]);
        out.push_back(U' ');
        out.push_back(s[i + 1]);
        out.push_back(U' ');
      }
      i += 2;
    } else {
      out.push_back(s[i]);
      ++i;
    }
  }
  return out;
}

}  // namespace

std::u32string apply_13a_rules(std::u32string_view text) {
  std::u32string padded;
  padded.reserve(text.size() + text.size() / 4);
  for (char32_t c : text) {
    if (is_13a_symbol(c)) {
      padded.push_back(U' ');
      padded.push_back(c);
      padded.push_back(U' ');
    } else {
      padded.push_back(c);
    }
  }
  auto not_digit = [](char32_t c) { return !text::is_ascii_digit(c); };
  auto digit = [](char32_t c) { return text::is_ascii_digit(c); };
  auto dash = [](char32_t c) { return c == U'-'; };
  std::u32string s = replace_pairs(padded, not_digit, is_period_or_comma, false);
  s = replace_pairs(s, is_period_or_comma, not_digit, true);
  s = replace_pairs(s, digit, dash, false);
  return text::squeeze_spaces(s);
}

}  // namespace evalcli::tokenizers
