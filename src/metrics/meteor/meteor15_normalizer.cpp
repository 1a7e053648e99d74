// METEOR 1.5's Normalizer.normalizeLine: each Java regex replaceAll written as
// a left-to-right scan with the same leftmost, non-overlapping matches.
// Java's \s, \p{Digit} and \p{Lower} are ASCII-only here (no UNICODE flags).
#include <functional>

#include "meteor15_internal.hpp"

namespace evalcli::meteor15 {
namespace {

using Text = std::u32string;
using CharTest = std::function<bool(char32_t)>;

// Normalizer.alpha: "A-Za-zŠŽšžŸÀ-ÖØ-öø-ž" + "Ѐ-ӿԀ-ԧꙀ-ꙮ꙾-ꚗᴀ-ᵿ".
bool is_alpha(char32_t c) {
  return (c >= U'A' && c <= U'Z') || (c >= U'a' && c <= U'z') || c == 0x160 || c == 0x17D || c == 0x161 ||
         c == 0x17E || c == 0x178 || (c >= 0xC0 && c <= 0xD6) || (c >= 0xD8 && c <= 0xF6) ||
         (c >= 0xF8 && c <= 0x17E) || (c >= 0x400 && c <= 0x4FF) || (c >= 0x500 && c <= 0x527) ||
         (c >= 0xA640 && c <= 0xA66E) || (c >= 0xA67E && c <= 0xA697) || (c >= 0x1D00 && c <= 0x1D7F);
}
bool is_digit(char32_t c) { return c >= U'0' && c <= U'9'; }
bool is_alnum(char32_t c) { return is_digit(c) || is_alpha(c); }
bool is_java_space(char32_t c) { return c == U' ' || c == U'\t' || c == U'\n' || c == 0x0B || c == U'\f' || c == U'\r'; }

// r_white's class: space, U+2000-U+200A, U+202F, U+205F, U+3000, U+00A0.
bool is_white(char32_t c) {
  return c == U' ' || (c >= 0x2000 && c <= 0x200A) || c == 0x202F || c == 0x205F || c == 0x3000 || c == 0xA0;
}

// " " + line + " " (built by appending: GCC 12 warns falsely on operator+ here).
Text padded(std::u32string_view line) {
  Text s;
  s.reserve(line.size() + 2);
  s.push_back(U' ');
  s.append(line);
  s.push_back(U' ');
  return s;
}

// Replaces every match of [first][middle][last] (three single characters).
Text replace_triples(const Text& s, const CharTest& first, char32_t middle, const CharTest& last,
                     const std::function<Text(char32_t, char32_t)>& replacement) {
  Text out;
  out.reserve(s.size() + 8);
  std::size_t i = 0;
  while (i < s.size()) {
    if (i + 2 < s.size() && first(s[i]) && s[i + 1] == middle && last(s[i + 2])) {
      out += replacement(s[i], s[i + 2]);
      i += 3;
    } else {
      out.push_back(s[i++]);
    }
  }
  return out;
}

Text replace_literal(const Text& s, std::u32string_view from, std::u32string_view to) {
  Text out;
  std::size_t i = 0;
  while (true) {
    const std::size_t at = s.find(from, i);
    if (at == Text::npos) break;
    out.append(s, i, at - i);
    out.append(to);
    i = at + from.size();
  }
  out.append(s, i, Text::npos);
  return out;
}

// "$1 , $2" and friends.
Text spaced(char32_t a, std::u32string_view middle, char32_t b) {
  Text out(1, a);
  out += middle;
  out.push_back(b);
  return out;
}

Text separate_other_symbols(const Text& s) {
  // r_sep_other: ([^alnum\s\.\'\`\,\-\‘\’]) -> " $1 "
  Text out;
  out.reserve(s.size() * 2);
  for (char32_t c : s) {
    const bool kept = is_alnum(c) || is_java_space(c) || c == U'.' || c == U'\'' || c == U'`' || c == U',' ||
                      c == U'-' || c == 0x2018 || c == 0x2019;
    if (kept) {
      out.push_back(c);
    } else {
      out.push_back(U' ');
      out.push_back(c);
      out.push_back(U' ');
    }
  }
  return out;
}

Text mark_multi_dots(const Text& s) {
  // r_multi_dot: \.([\.]+) -> " DOTMULTI$1"
  Text out;
  std::size_t i = 0;
  while (i < s.size()) {
    if (s[i] == U'.' && i + 1 < s.size() && s[i + 1] == U'.') {
      std::size_t end = i + 1;
      while (end < s.size() && s[end] == U'.') ++end;
      out += U" DOTMULTI";
      out.append(s, i + 1, end - i - 1);
      i = end;
    } else {
      out.push_back(s[i++]);
    }
  }
  return out;
}

Text multi_dot_step(const Text& s) {
  // r_multi_dot2: DOTMULTI\.([^\.]) -> "DOTDOTMULTI $1"
  static const std::u32string_view marker = U"DOTMULTI.";
  Text out;
  std::size_t i = 0;
  while (i < s.size()) {
    if (s.compare(i, marker.size(), marker) == 0 && i + marker.size() < s.size() && s[i + marker.size()] != U'.') {
      out += U"DOTDOTMULTI ";
      out.push_back(s[i + marker.size()]);
      i += marker.size() + 1;
    } else {
      out.push_back(s[i++]);
    }
  }
  return out;
}

Text normalize_quotes(const Text& s) {
  // r_quote_norm: ([`‘’]) -> "'"; then r_quote_norm2: ([“”]|'') -> " \" "
  Text single;
  for (char32_t c : s) single.push_back(c == U'`' || c == 0x2018 || c == 0x2019 ? U'\'' : c);
  Text out;
  std::size_t i = 0;
  while (i < single.size()) {
    if (single[i] == 0x201C || single[i] == 0x201D) {
      out += U" \" ";
      ++i;
    } else if (single[i] == U'\'' && i + 1 < single.size() && single[i + 1] == U'\'') {
      out += U" \" ";
      i += 2;
    } else {
      out.push_back(single[i++]);
    }
  }
  return out;
}

Text split_contractions(Text s, NormalizerLanguage language) {
  const auto alpha = [](char32_t c) { return is_alpha(c); };
  const auto not_alpha = [](char32_t c) { return !is_alpha(c); };
  const auto spaced_quote = [](char32_t a, char32_t b) { return spaced(a, U" ' ", b); };
  if (language == NormalizerLanguage::english) {
    s = replace_triples(s, not_alpha, U'\'', not_alpha, spaced_quote);
    s = replace_triples(s, [](char32_t c) { return !is_alpha(c) && !is_digit(c); }, U'\'', alpha, spaced_quote);
    s = replace_triples(s, alpha, U'\'', not_alpha, spaced_quote);
    s = replace_triples(s, alpha, U'\'', alpha, [](char32_t a, char32_t b) { return spaced(a, U" '", b); });
    s = replace_triples(s, is_digit, U'\'', [](char32_t c) { return c == U's'; },
                        [](char32_t a, char32_t b) { return spaced(a, U" '", b); });
  } else if (language == NormalizerLanguage::french) {
    s = replace_triples(s, not_alpha, U'\'', not_alpha, spaced_quote);
    s = replace_triples(s, not_alpha, U'\'', alpha, spaced_quote);
    s = replace_triples(s, alpha, U'\'', not_alpha, spaced_quote);
    s = replace_triples(s, alpha, U'\'', alpha, [](char32_t a, char32_t b) { return spaced(a, U"' ", b); });
  } else {
    s = replace_literal(s, U"'", U" ' ");
  }
  return s;
}

// Final dots: kept on nonbreaking prefixes, dropped inside dotted
// abbreviations ("U.S." -> "US"), otherwise split off.
Text handle_final_dots(const std::vector<Text>& words, const NonbreakingPrefixes& prefixes) {
  Text out;
  for (std::size_t i = 0; i < words.size(); ++i) {
    const Text& word = words[i];
    if (java_length(word) > 1 && word.back() == U'.') {
      const Text prefix = word.substr(0, word.size() - 1);
      const auto found = prefixes.find(prefix);
      const int type = found == prefixes.end() ? 0 : found->second;
      const bool has_next = i + 1 < words.size();
      bool prefix_has_alpha = false;
      for (char32_t c : prefix) prefix_has_alpha = prefix_has_alpha || is_alpha(c);
      if (prefix.find(U'.') != Text::npos && prefix_has_alpha) {
        for (char32_t c : word) {
          if (c != U'.') out.push_back(c);
        }
      } else if (type == kNonbreakingAny || (has_next && words[i + 1][0] >= U'a' && words[i + 1][0] <= U'z')) {
        out += word;
      } else if (type == kNonbreakingNumericOnly && has_next && is_digit(words[i + 1][0])) {
        out += word;
      } else {
        out += prefix;
        out += U" .";
      }
    } else {
      out += word;
    }
    out.push_back(U' ');
  }
  return out;
}

Text collapse_white_and_trim(const Text& s) {
  Text out;
  std::size_t i = 0;
  while (i < s.size()) {
    if (is_white(s[i])) {
      while (i < s.size() && is_white(s[i])) ++i;
      out.push_back(U' ');
    } else {
      out.push_back(s[i++]);
    }
  }
  // Java String.trim(): code units <= U+0020 at both ends.
  std::size_t begin = 0, end = out.size();
  while (begin < end && out[begin] <= U' ') ++begin;
  while (end > begin && out[end - 1] <= U' ') --end;
  return out.substr(begin, end - begin);
}

Text restore_multi_dots(Text s) {
  while (s.find(U"DOTDOTMULTI") != Text::npos) s = replace_literal(s, U"DOTDOTMULTI", U"DOTMULTI.");
  return replace_literal(s, U"DOTMULTI", U".");
}

Text normalize_commas_and_dashes(Text s) {
  const auto digit = [](char32_t c) { return is_digit(c); };
  const auto not_digit = [](char32_t c) { return !is_digit(c); };
  const auto spaced_comma = [](char32_t a, char32_t b) { return spaced(a, U" , ", b); };
  s = replace_triples(s, not_digit, U',', not_digit, spaced_comma);
  s = replace_triples(s, digit, U',', not_digit, spaced_comma);
  s = replace_triples(s, not_digit, U',', digit, spaced_comma);
  s = normalize_quotes(s);
  s = replace_literal(s, U"\u2013", U"-");
  s = replace_literal(s, U"--", U"-");
  return s;
}

Text collapse_multi_dot_markers(Text s) {
  s = mark_multi_dots(s);
  while (s.find(U"DOTMULTI.") != Text::npos) {
    s = multi_dot_step(s);
    s = replace_literal(s, U"DOTMULTI.", U"DOTDOTMULTI");
  }
  return s;
}

// Normalizer.normalizeNonWestern (languages without a western tokenizer).
Text normalize_non_western(std::u32string_view line, bool keep_punctuation) {
  Text s = padded(line);
  s = collapse_multi_dot_markers(s);
  s = normalize_commas_and_dashes(s);
  const auto digit = [](char32_t c) { return is_digit(c); };
  const auto not_digit = [](char32_t c) { return !is_digit(c); };
  const auto spaced_dot = [](char32_t a, char32_t b) { return spaced(a, U" . ", b); };
  s = replace_triples(s, not_digit, U'.', not_digit, spaced_dot);
  s = replace_triples(s, digit, U'.', not_digit, spaced_dot);
  s = replace_triples(s, not_digit, U'.', digit, spaced_dot);
  // r_punct_nonwest: [!-+ \-/ :-@ [-` {-¿ U+060C]
  const auto punct = [](char32_t c) {
    return (c >= U'!' && c <= U'+') || c == U'-' || c == U'/' || (c >= U':' && c <= U'@') || (c >= U'[' && c <= U'`') ||
           (c >= U'{' && c <= 0xBF) || c == 0x060C;
  };
  Text separated;
  for (char32_t c : s) {
    if (punct(c)) {
      separated += U' ';
      separated.push_back(c);
      separated += U' ';
    } else {
      separated.push_back(c);
    }
  }
  s = separated;
  if (!keep_punctuation) {
    for (auto& c : s) {
      if (punct(c)) c = U' ';
    }
    s = replace_literal(s, U".", U" ");
  }
  s = restore_multi_dots(s);
  return collapse_white_and_trim(s);
}

}  // namespace

std::int32_t java_hash(std::u32string_view word) {
  std::uint32_t h = 0;
  for (char32_t c : word) {
    if (c > 0xFFFF) {
      const char32_t v = c - 0x10000;
      h = 31 * h + static_cast<std::uint32_t>(0xD800 + (v >> 10));
      h = 31 * h + static_cast<std::uint32_t>(0xDC00 + (v & 0x3FF));
    } else {
      h = 31 * h + static_cast<std::uint32_t>(c);
    }
  }
  return static_cast<std::int32_t>(h);
}

std::size_t java_length(std::u32string_view word) {
  std::size_t n = 0;
  for (char32_t c : word) n += c > 0xFFFF ? 2 : 1;
  return n;
}

std::vector<std::u32string> string_tokenizer_split(std::u32string_view line) {
  const auto delimiter = [](char32_t c) { return c == U' ' || c == U'\t' || c == U'\n' || c == U'\r' || c == U'\f'; };
  std::vector<std::u32string> words;
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && delimiter(line[i])) ++i;
    const std::size_t start = i;
    while (i < line.size() && !delimiter(line[i])) ++i;
    if (i > start) words.emplace_back(line.substr(start, i - start));
  }
  return words;
}

std::u32string normalize_line(std::u32string_view line, NormalizerLanguage language,
                              const NonbreakingPrefixes& prefixes, bool keep_punctuation) {
  if (language == NormalizerLanguage::non_western) return normalize_non_western(line, keep_punctuation);
  Text s = padded(line);
  s = separate_other_symbols(s);
  s = collapse_multi_dot_markers(s);
  s = normalize_commas_and_dashes(s);
  // r_rm_dash: ([alnum\.])[\-]([alnum]) -> "$1 $2"
  s = replace_triples(s, [](char32_t c) { return is_alnum(c) || c == U'.'; }, U'-', is_alnum,
                      [](char32_t a, char32_t b) { return spaced(a, U" ", b); });
  s = split_contractions(s, language);
  s = handle_final_dots(string_tokenizer_split(s), prefixes);
  s = restore_multi_dots(s);
  if (!keep_punctuation) {
    for (auto& c : s) {
      if (!is_alnum(c)) c = U' ';
    }
  }
  return collapse_white_and_trim(s);
}

}  // namespace evalcli::meteor15
