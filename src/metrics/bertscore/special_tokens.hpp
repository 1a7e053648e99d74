#pragma once
// Special-token strings in the text (transformers' PreTrainedTokenizer.tokenize
// in 4.29): they are cut out first and stay tokens of their own; the text
// beside one loses its spaces on the sides the token's lstrip/rstrip say (a
// plain-string special token strips both, an AddedToken as flagged: RoBERTa's
// <mask> has lstrip and so takes the space before it).
#include <string>
#include <string_view>
#include <vector>

namespace evalcli::bertscore {

struct SpecialToken {
  std::u32string text;
  bool lstrip = true;  // strip the spaces before it
  bool rstrip = true;  // strip the spaces after it
};

struct TextPiece {
  std::u32string text;
  bool special = false;
};

// The pieces of `text` (leftmost, longest special token first; empty pieces dropped).
std::vector<TextPiece> split_special_tokens(std::u32string_view text, const std::vector<SpecialToken>& specials);

}  // namespace evalcli::bertscore
