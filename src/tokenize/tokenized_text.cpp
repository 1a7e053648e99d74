#include "evalcli/tokenize/tokenized_text.hpp"

#include "evalcli/text/detail/string_interner.hpp"
#include "evalcli/tokenize/tokenizer.hpp"

namespace evalcli {

void TokenizedText::locate_tokens() {
  tokens.clear();
  const char32_t* const begin = text.data();
  const char32_t* const end = begin + text.size();
  const char32_t* p = begin;
  while (p != end) {
    const char32_t* const start = p;
    text::TextHash hash;
    for (; p != end && *p != U' '; ++p) hash.add(*p);
    if (p != start) {
      tokens.push_back({static_cast<std::uint32_t>(start - begin), static_cast<std::uint32_t>(p - start), hash.value()});
    }
    if (p != end) ++p;
  }
}

void Tokenizer::tokenize_located_into(std::u32string_view line, TokenizedText& out) const {
  tokenize_into(line, out.text);
  out.locate_tokens();
}

void Tokenizer::tokenize_lines(std::vector<std::u32string>& lines, const std::u32string*) const {
  for (auto& line : lines) line = tokenize(line);
}

}  // namespace evalcli
