#pragma once
// A tokenizer's output with its tokens already located, for metrics that look
// tokens up by hash (BLEU): the tokens joined by single spaces, as
// Tokenizer::tokenize returns them, and where each token sits in that text
// with its text::TextHash. A tokenizer that finds the tokens in its own pass
// (13a) saves the caller a second pass that splits the text and hashes each
// token.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace evalcli {

struct TokenSpan {
  std::uint32_t start = 0;   // offset in TokenizedText::text
  std::uint32_t length = 0;  // code points
  std::uint64_t hash = 0;    // text::TextHash of the token
};

struct TokenizedText {
  std::u32string text;            // tokens joined by single spaces
  std::vector<TokenSpan> tokens;  // in order

  std::size_t size() const { return tokens.size(); }
  std::u32string_view token(std::size_t i) const {
    return std::u32string_view(text).substr(tokens[i].start, tokens[i].length);
  }
  // Sets `tokens` by splitting `text` on spaces and hashing each token: the
  // generic path, for tokenizers that do not locate their tokens themselves.
  void locate_tokens();
};

}  // namespace evalcli
