#pragma once
// Splitting text on one separator character.
#include <cstddef>
#include <string_view>
#include <vector>

namespace evalcli {

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
