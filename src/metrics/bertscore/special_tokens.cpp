#include "metrics/bertscore/special_tokens.hpp"

#include <algorithm>

#include "metrics/bertscore/unicode_classes.hpp"

namespace evalcli::bertscore {
namespace {

// Python's str.lstrip() / str.rstrip().
void strip_left(std::u32string& s) {
  std::size_t i = 0;
  while (i < s.size() && is_python_space(s[i])) ++i;
  s.erase(0, i);
}
void strip_right(std::u32string& s) {
  while (!s.empty() && is_python_space(s.back())) s.pop_back();
}

}  // namespace

std::vector<TextPiece> split_special_tokens(std::u32string_view text, const std::vector<SpecialToken>& specials) {
  std::vector<const SpecialToken*> longest_first;
  for (const auto& s : specials) {
    if (!s.text.empty()) longest_first.push_back(&s);
  }
  std::stable_sort(longest_first.begin(), longest_first.end(),
                   [](const auto* a, const auto* b) { return a->text.size() > b->text.size(); });
  std::vector<TextPiece> pieces;
  std::vector<const SpecialToken*> tokens;  // per piece: its special token, or null
  std::size_t start = 0;
  for (std::size_t i = 0; i < text.size();) {
    const auto match = std::find_if(longest_first.begin(), longest_first.end(),
                                    [&](const SpecialToken* s) { return text.compare(i, s->text.size(), s->text) == 0; });
    if (match == longest_first.end()) {
      ++i;
      continue;
    }
    if (i > start) {
      pieces.push_back({std::u32string(text.substr(start, i - start)), false});
      tokens.push_back(nullptr);
    }
    pieces.push_back({(*match)->text, true});
    tokens.push_back(*match);
    i += (*match)->text.size();
    start = i;
  }
  if (start < text.size()) {
    pieces.push_back({std::u32string(text.substr(start)), false});
    tokens.push_back(nullptr);
  }
  for (std::size_t k = 0; k < pieces.size(); ++k) {
    if (tokens[k] == nullptr) continue;
    if (tokens[k]->rstrip && k + 1 < pieces.size() && !pieces[k + 1].special) strip_left(pieces[k + 1].text);
    if (tokens[k]->lstrip && k > 0 && !pieces[k - 1].special) strip_right(pieces[k - 1].text);
  }
  std::erase_if(pieces, [](const TextPiece& p) { return p.text.empty(); });
  return pieces;
}

}  // namespace evalcli::bertscore
