#pragma once
// Splitting text on one separator character, and finding one.
#include <cstddef>
#include <cwchar>
#include <string_view>
#include <vector>

namespace evalcli {

// The first `c` in `text` at or after `start`, else text.size(), by the C
// library's vectorised wmemchr (wchar_t holds code points, as char32_t):
// u32string_view::find tests one character per loop step.
inline std::size_t find_code_point(std::u32string_view text, char32_t c, std::size_t start = 0) {
  static_assert(sizeof(wchar_t) == sizeof(char32_t), "wmemchr searches 32-bit characters");
  if (start >= text.size()) return text.size();
  const auto* const begin = reinterpret_cast<const wchar_t*>(text.data());
  const wchar_t* const found = std::wmemchr(begin + start, static_cast<wchar_t>(c), text.size() - start);
  return found == nullptr ? text.size() : static_cast<std::size_t>(found - begin);
}

inline constexpr std::size_t kUnlimitedSplits = static_cast<std::size_t>(-1);

// The pieces between separators, as Python's str.split(separator, max_splits):
// n separators give n + 1 pieces (empty ones included: "" gives one empty
// piece, "a,,b" three); after `max_splits` splits the rest is the last piece.
// The pieces view `text`.
template <typename Char>
std::vector<std::basic_string_view<Char>> split(std::basic_string_view<Char> text, Char separator,
                                               std::size_t max_splits = kUnlimitedSplits) {
  std::vector<std::basic_string_view<Char>> pieces;
  std::size_t start = 0;
  for (std::size_t at; pieces.size() < max_splits && (at = text.find(separator, start)) != text.npos; start = at + 1) {
    pieces.push_back(text.substr(start, at - start));
  }
  pieces.push_back(text.substr(start));
  return pieces;
}

// Overloads that take std::string, literals and other views of bytes or code points.
inline std::vector<std::string_view> split(std::string_view text, char separator,
                                           std::size_t max_splits = kUnlimitedSplits) {
  return split<char>(text, separator, max_splits);
}
inline std::vector<std::u32string_view> split(std::u32string_view text, char32_t separator,
                                              std::size_t max_splits = kUnlimitedSplits) {
  return split<char32_t>(text, separator, max_splits);
}

}  // namespace evalcli
