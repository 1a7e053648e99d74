// SacreBLEU's TercomTokenizer (../shared/specs/sacrebleu.md §5.1). Each regex
// step is reproduced literally, whitespace included, because later two-character
// patterns see the spaces earlier steps inserted.
#include "evalcli/tokenize/tercom.hpp"

#include "evalcli/text/unicode.hpp"
#include "tokenize/rewrite.hpp"

namespace evalcli {
namespace {

using tokenizers::replace_all;
using tokenizers::replace_pairs;
using tokenizers::unescape_mteval_entities;

// `[{-~[-` -&(-+:-@/]`: the same ASCII set as mteval-v13a.
constexpr bool is_tercom_symbol(char32_t c) {
  return (c >= 0x7B && c <= 0x7E) || (c >= 0x5B && c <= 0x60) || (c >= 0x20 && c <= 0x26) ||
         (c >= 0x28 && c <= 0x2B) || (c >= 0x3A && c <= 0x40) || c == 0x2F;
}

constexpr bool is_period_or_comma(char32_t c) { return c == U'.' || c == U','; }
constexpr bool is_digit(char32_t c) { return text::is_ascii_digit(c); }
constexpr bool is_not_digit(char32_t c) { return !text::is_ascii_digit(c); }
constexpr bool is_dash(char32_t c) { return c == U'-'; }

// Characters the asian-support normalisation isolates: the CJK blocks of
// _normalize_asian (applied one after another; overlaps only add spaces).
constexpr bool is_cjk_isolated(char32_t c) {
  return (c >= 0x4E00 && c <= 0x9FFF) || (c >= 0x3400 && c <= 0x4DBF) || (c >= 0x31C0 && c <= 0x31EF) ||
         (c >= 0x2E80 && c <= 0x2EFF) || (c >= 0x3300 && c <= 0x33FF) || (c >= 0xF900 && c <= 0xFAFF) ||
         (c >= 0xFE30 && c <= 0xFE4F) || (c >= 0x3200 && c <= 0x3F22);
}

// TercomTokenizer.ASIAN_PUNCT
constexpr bool is_asian_punct(char32_t c) {
  return c == 0x3001 || c == 0x3002 || (c >= 0x3008 && c <= 0x3011) || (c >= 0x3014 && c <= 0x301F) ||
         (c >= 0xFF61 && c <= 0xFF65) || c == 0x30FB;
}

// TercomTokenizer.FULL_WIDTH_PUNCT
constexpr bool is_full_width_punct(char32_t c) {
  switch (c) {
    case 0xFF0E: case 0xFF0C: case 0xFF1F: case 0xFF1A: case 0xFF1B:
    case 0xFF01: case 0xFF02: case 0xFF08: case 0xFF09:
      return true;
    default:
      return false;
  }
}

// _remove_punct: `[\.,\?:;!\"\(\)]`
constexpr bool is_removed_punct(char32_t c) {
  switch (c) {
    case U'.': case U',': case U'?': case U':': case U';': case U'!': case U'"': case U'(': case U')':
      return true;
    default:
      return false;
  }
}

template <typename Pred>
std::u32string isolate(std::u32string_view s, Pred pred) {
  std::u32string out;
  out.reserve(s.size() + s.size() / 2);
  for (char32_t c : s) {
    if (pred(c)) {
      out.push_back(U' ');
      out.push_back(c);
      out.push_back(U' ');
    } else {
      out.push_back(c);
    }
  }
  return out;
}

// _normalize_general_and_western
std::u32string normalize_western(std::u32string s) {
  if (s.find(U'\n') != std::u32string::npos) {
    replace_all(s, U"\n-", U"");
    replace_all(s, U"\n", U" ");
  }
  unescape_mteval_entities(s);
  std::u32string padded;
  padded.reserve(s.size() + 2);
  padded.push_back(U' ');
  padded += s;
  padded.push_back(U' ');
  std::u32string t = isolate(padded, is_tercom_symbol);
  // Possessives: "'s " -> " 's " (global); "'s" at the very end -> " 's".
  if (t.find(U'\'') != std::u32string::npos) {
    replace_all(t, U"'s ", U" 's ");
    if (t.size() >= 2 && t.compare(t.size() - 2, 2, U"'s") == 0) t.insert(t.size() - 2, 1, U' ');
  }
  t = replace_pairs(t, [](char32_t x, char32_t y) { return is_not_digit(x) && is_period_or_comma(y); }, false);
  t = replace_pairs(t, [](char32_t x, char32_t y) { return is_period_or_comma(x) && is_not_digit(y); }, true);
  return replace_pairs(t, [](char32_t x, char32_t y) { return is_digit(x) && is_dash(y); }, false);
}

// _normalize_asian. Its three kana rules only fire when the whole string is
// one kana run, which cannot happen after the western step's space padding.
std::u32string normalize_asian(std::u32string_view s) {
  return isolate(s, [](char32_t c) { return is_cjk_isolated(c) || is_asian_punct(c) || is_full_width_punct(c); });
}

}  // namespace

std::u32string TercomTokenizer::tokenize(std::u32string_view line) const {
  if (line.empty()) return {};
  std::u32string s = options_.case_sensitive ? std::u32string(line) : text::lower(line);
  if (options_.normalized) {
    s = normalize_western(std::move(s));
    if (options_.asian_support) s = normalize_asian(s);
  }
  if (options_.no_punct) {
    std::erase_if(s, [this](char32_t c) {
      return is_removed_punct(c) || (options_.asian_support && (is_asian_punct(c) || is_full_width_punct(c)));
    });
  }
  return text::squeeze_spaces(s);
}

}  // namespace evalcli
