#pragma once
// String rewrites that several tokenizers reproduce from Python: str.replace,
// the HTML entities mteval unescapes, and re.sub of a two-character pattern.
#include <string>
#include <string_view>

namespace evalcli::tokenizers {

// Python's str.replace(from, to): every occurrence, left to right.
inline void replace_all(std::u32string& s, std::u32string_view from, std::u32string_view to) {
  std::size_t pos = 0;
  while ((pos = s.find(from, pos)) != std::u32string::npos) {
    s.replace(pos, from.size(), to);
    pos += to.size();
  }
}

// mteval's entity unescaping: four sequential literal replacements, in this order
// (so "&amp;quot;" becomes "&quot;", not '"').
inline void unescape_mteval_entities(std::u32string& s) {
  if (s.find(U'&') == std::u32string::npos) return;
  replace_all(s, U"&quot;", U"\"");
  replace_all(s, U"&amp;", U"&");
  replace_all(s, U"&lt;", U"<");
  replace_all(s, U"&gt;", U">");
}

// re.sub of a pattern matching two characters x, y (`match(x, y)`): matches
// found left to right, never overlapping. The replacement is "x y " or, with
// space_first, " x y".
template <typename Match>
std::u32string replace_pairs(std::u32string_view s, Match match, bool space_first) {
  std::u32string out;
  out.reserve(s.size() + s.size() / 4);
  std::size_t i = 0;
  while (i < s.size()) {
    if (i + 1 < s.size() && match(s[i], s[i + 1])) {
      if (space_first) out.push_back(U' ');
      out.push_back(s[i]);
      out.push_back(U' ');
      out.push_back(s[i + 1]);
      if (!space_first) out.push_back(U' ');
      i += 2;
    } else {
      out.push_back(s[i++]);
    }
  }
  return out;
}

}  // namespace evalcli::tokenizers
