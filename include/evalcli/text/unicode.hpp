#pragma once
// Python `str` semantics over code points: isspace(), split(), strip(),
// lower(). Every metric that reproduces a Python tool goes through these.
#include <string>
#include <string_view>
#include <vector>

namespace evalcli::text {

// Python str.isspace() (Unicode 14): 29 code points, see docs/text-pipeline.md.
// Printable ASCII (and 0x7F-0x84) leaves at the first test; the rest below
// U+0085 is one bit of a mask, without a branch on which of them it is.
// (In a loop over a word, the first test's branch is the loop's own exit.)
constexpr bool is_space(char32_t c) {
  if (c - 0x21 < 0x85 - 0x21) return false;
  if (c < 0x85) {
    constexpr unsigned long long kAsciiSpaces = 0x1F0003E00ULL;  // 0x09-0x0D and 0x1C-0x20
    return ((kAsciiSpaces >> (c & 63)) & static_cast<unsigned long long>(c < 64)) != 0;
  }
  return c == 0x85 || c == 0xA0 || c == 0x1680 || (c >= 0x2000 && c <= 0x200A) || c == 0x2028 ||
         c == 0x2029 || c == 0x202F || c == 0x205F || c == 0x3000;
}

// ASCII punctuation as Python's string.punctuation.
constexpr bool is_ascii_punct(char32_t c) {
  return (c >= 0x21 && c <= 0x2F) || (c >= 0x3A && c <= 0x40) || (c >= 0x5B && c <= 0x60) ||
         (c >= 0x7B && c <= 0x7E);
}

constexpr bool is_ascii_digit(char32_t c) { return c >= U'0' && c <= U'9'; }

std::u32string_view rstrip(std::u32string_view s);
std::u32string_view strip(std::u32string_view s);

// Python str.split() without arguments: runs of whitespace separate, no empties.
std::vector<std::u32string_view> split(std::u32string_view s);

// split()'s words handed to `visit` one at a time, left to right, without a
// vector (for loops that intern or count words as they come).
template <class Visit>
void for_each_split(std::u32string_view s, Visit&& visit) {
  std::size_t i = 0;
  const std::size_t n = s.size();
  while (i < n) {
    while (i < n && is_space(s[i])) ++i;
    if (i == n) break;
    const std::size_t start = i;
    while (i < n && !is_space(s[i])) ++i;
    visit(s.substr(start, i - start));
  }
}

// split() joined by single spaces (the canonical tokenizer output form).
std::u32string squeeze_spaces(std::u32string_view s);

// Python str.lower(): full case mapping incl. final sigma and U+0130 (ICU root locale).
std::u32string lower(std::u32string_view s);

// Unicode general category tests (ICU tables, Unicode 15 like python3-regex).
bool is_number(char32_t c);       // \p{N}
bool is_punctuation(char32_t c);  // \p{P}
bool is_symbol(char32_t c);       // \p{S}

}  // namespace evalcli::text
