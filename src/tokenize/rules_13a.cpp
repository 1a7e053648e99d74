// The regex post-processing shared by the 13a and zh tokenizers
// (SacreBLEU's TokenizerRegexp), written as linear scanners.
#include <cstdint>

#include "evalcli/text/unicode.hpp"
#include "evalcli/tokenize/builtin_tokenizers.hpp"

namespace evalcli::tokenizers {
namespace {

// `[\{-\~\[-\` -\&\(-\+\:-\@\/]`: ASCII symbols padded with spaces.
constexpr bool is_13a_symbol_slow(char32_t c) {
  return (c >= 0x7B && c <= 0x7E) || (c >= 0x5B && c <= 0x60) || (c >= 0x20 && c <= 0x26) ||
         (c >= 0x28 && c <= 0x2B) || (c >= 0x3A && c <= 0x40) || c == 0x2F;
}

// The same set as a 128-bit mask (this test runs on every character).
struct AsciiMask {
  std::uint64_t low = 0, high = 0;
  constexpr explicit AsciiMask(bool (*member)(char32_t)) {
    for (char32_t c = 0; c < 64; ++c) low |= static_cast<std::uint64_t>(member(c)) << c;
    for (char32_t c = 64; c < 128; ++c) high |= static_cast<std::uint64_t>(member(c)) << (c - 64);
  }
  constexpr bool contains(char32_t c) const {
    return c < 64 ? (low >> c) & 1 : c < 128 ? (high >> (c - 64)) & 1 : false;
  }
};
constexpr AsciiMask kSymbols(is_13a_symbol_slow);

constexpr bool is_13a_symbol(char32_t c) { return kSymbols.contains(c); }

constexpr bool is_period_or_comma(char32_t c) { return c == U'.' || c == U','; }

// The three two-character rules of SacreBLEU's TokenizerRegexp as re.sub
// does them: matches found left to right, never overlapping, each rule
// applied to the previous rule's output. Text between the rare trigger
// characters ('.', ',', '-') is copied in bulk.

// `([^0-9])([.,])` -> "\1 \2 "
std::u32string split_period_comma_after_non_digit(std::u32string_view s) {
  std::u32string out;
  out.reserve(s.size() + s.size() / 8);
  std::size_t copied = 0;  // s[copied..] not yet emitted; also the first unconsumed position
  for (std::size_t j = 1; j < s.size(); ++j) {
    if (!is_period_or_comma(s[j]) || j - 1 < copied || text::is_ascii_digit(s[j - 1])) continue;
    out.append(s.substr(copied, j - copied));
    out.push_back(U' ');
    out.push_back(s[j]);
    out.push_back(U' ');
    copied = j + 1;
  }
  out.append(s.substr(copied));
  return out;
}

// `([.,])([^0-9])` -> " \1 \2"
std::u32string split_period_comma_before_non_digit(std::u32string_view s) {
  std::u32string out;
  out.reserve(s.size() + s.size() / 8);
  std::size_t copied = 0;
  for (std::size_t k = 0; k + 1 < s.size(); ++k) {
    if (k < copied || !is_period_or_comma(s[k]) || text::is_ascii_digit(s[k + 1])) continue;
    out.append(s.substr(copied, k - copied));
    out.push_back(U' ');
    out.push_back(s[k]);
    out.push_back(U' ');
    out.push_back(s[k + 1]);
    copied = k + 2;
  }
  out.append(s.substr(copied));
  return out;
}

// `([0-9])(-)` -> "\1 \2 "
std::u32string split_dash_after_digit(std::u32string_view s) {
  std::u32string out;
  out.reserve(s.size() + 8);
  std::size_t copied = 0;
  for (std::size_t j = 1; j < s.size(); ++j) {
    if (s[j] != U'-' || j - 1 < copied || !text::is_ascii_digit(s[j - 1])) continue;
    out.append(s.substr(copied, j - copied));
    out.push_back(U' ');
    out.push_back(U'-');
    out.push_back(U' ');
    copied = j + 1;
  }
  out.append(s.substr(copied));
  return out;
}

}  // namespace

std::u32string apply_13a_rules(std::u32string_view text) {
  // Written through a raw pointer: this loop runs over every character.
  std::u32string padded(text.size() * 3, U' ');
  char32_t* out = padded.data();
  for (char32_t c : text) {
    if (is_13a_symbol(c)) {
      out[1] = c;  // " c ": the spaces are already there
      out += 3;
    } else {
      *out++ = c;
    }
  }
  padded.resize(static_cast<std::size_t>(out - padded.data()));
  std::u32string s = split_period_comma_after_non_digit(padded);
  s = split_period_comma_before_non_digit(s);
  if (s.find(U'-') != std::u32string::npos) s = split_dash_after_digit(s);
  return text::squeeze_spaces(s);
}

}  // namespace evalcli::tokenizers
