// The `ptb` tokenizer: what pycocoevalcap's PTBTokenizer produces for a caption
// (../shared/specs/cider.md §1): Stanford PTBTokenizer 3.4.1 with
// `-preserveLines -lowerCase`, then removal of pycocoevalcap's punctuation tokens.
//
// The lexer below re-implements the behaviour of PTBLexer's rules that can fire
// on caption text, as a longest-match scanner: at each position every rule
// reports how many characters it would match (trailing context included, as in
// JFlex) and how many it consumes; the longest match wins, ties go to the rule
// listed first. Rules are written as small matchers over code points.
//
// Known differences (docs/cider.md): HTML-style letter entities (&eacute;) are
// not letters here; a caption containing a line break character (\r, U+2028,
// U+2029, U+000B, U+000C) stays one caption (Java shifts all later captions).
#include <unicode/uchar.h>

#include <algorithm>
#include <array>
#include <cassert>
#include <string>
#include <vector>

#include "evalcli/text/unicode.hpp"
#include "evalcli/tokenize/builtin_tokenizers.hpp"
#include "tokenize/tok_ptb_detail.hpp"

namespace evalcli::tokenizers {
namespace {

constexpr char32_t kEnd = 0x110000;  // beyond the text

struct Range {
  char32_t first, last;
};

bool in_ranges(char32_t c, const Range* ranges, std::size_t count) {
  for (std::size_t i = 0; i < count; ++i) {
    if (c >= ranges[i].first && c <= ranges[i].last) return true;
  }
  return false;
}

// Characters PTBLexer counts as letters besides Java's letters (combining marks etc.).
constexpr Range kExtraLetters[] = {
    {0xAD, 0xAD},     {0x237, 0x24F},   {0x2C2, 0x2C5},   {0x2D2, 0x2DF},   {0x2E5, 0x2FF},   {0x300, 0x36F},
    {0x370, 0x37D},   {0x384, 0x385},   {0x3CF, 0x3CF},   {0x3F6, 0x3F6},   {0x3FC, 0x3FF},   {0x483, 0x487},
    {0x4CF, 0x4CF},   {0x4F6, 0x4FF},   {0x510, 0x525},   {0x55A, 0x55F},   {0x591, 0x5BD},   {0x5BF, 0x5BF},
    {0x5C1, 0x5C2},   {0x5C4, 0x5C5},   {0x5C7, 0x5C7},   {0x615, 0x61A},   {0x63B, 0x63F},   {0x64B, 0x65E},
    {0x670, 0x670},   {0x6D6, 0x6EF},   {0x6FA, 0x6FF},   {0x70F, 0x70F},   {0x711, 0x711},   {0x730, 0x74F},
    {0x750, 0x77F},   {0x7A6, 0x7B1},   {0x7CA, 0x7F5},   {0x7FA, 0x7FA},   {0x900, 0x903},   {0x93C, 0x93C},
    {0x93E, 0x94E},   {0x951, 0x955},   {0x962, 0x963},   {0x981, 0x983},   {0x9BC, 0x9C4},   {0x9C7, 0x9C8},
    {0x9CB, 0x9CD},   {0x9D7, 0x9D7},   {0x9E2, 0x9E3},   {0xA01, 0xA03},   {0xA3C, 0xA3C},   {0xA3E, 0xA4F},
    {0xA81, 0xA83},   {0xABC, 0xACF},   {0xB82, 0xB82},   {0xBBE, 0xBC2},   {0xBC6, 0xBC8},   {0xBCA, 0xBCD},
    {0xC01, 0xC03},   {0xC3E, 0xC56},   {0xD3E, 0xD44},   {0xD46, 0xD48},   {0xE30, 0xE3A},   {0xE47, 0xE4E},
    {0xEB1, 0xEBC},   {0xEC8, 0xECD},
};

// Stand-alone symbols (one token each).
constexpr Range kMiscSymbols[] = {
    {'+', '+'},       {'%', '%'},       {'&', '&'},       {'~', '~'},       {'^', '^'},       {'|', '|'},
    {'\\', '\\'},     {0xA6, 0xA7},     {0xA8, 0xA9},     {0xAC, 0xAC},     {0xAE, 0xAF},     {0xB0, 0xBA},
    {0xD7, 0xD7},     {0xF7, 0xF7},     {0x387, 0x387},   {0x5BE, 0x5BE},   {0x5C0, 0x5C0},   {0x5C3, 0x5C3},
    {0x5C6, 0x5C6},   {0x5F3, 0x5F4},   {0x600, 0x603},   {0x606, 0x60A},   {0x60C, 0x60C},   {0x614, 0x614},
    {0x61B, 0x61B},   {0x61E, 0x61E},   {0x66A, 0x66A},   {0x66D, 0x66D},   {0x703, 0x70D},   {0x7F6, 0x7F8},
    {0x964, 0x965},   {0xE4F, 0xE4F},   {0x1FBD, 0x1FBD}, {0x2016, 0x2017}, {0x2020, 0x2023}, {0x2030, 0x2038},
    {0x203B, 0x203B}, {0x203E, 0x2042}, {0x2044, 0x2044}, {0x207A, 0x207F}, {0x208A, 0x208E}, {0x2100, 0x214F},
    {0x2190, 0x21FF}, {0x2200, 0x2BFF}, {0x3012, 0x3012}, {0x30FB, 0x30FB}, {0xFF01, 0xFF0F}, {0xFF1A, 0xFF20},
    {0xFF3B, 0xFF40}, {0xFF5B, 0xFF65},
};

bool is_bmp(char32_t c) { return c <= 0xFFFF; }

bool is_letter(char32_t c) {
  if (!is_bmp(c)) return false;
  if (c < 0x80) return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
  const auto type = u_charType(static_cast<UChar32>(c));
  if (type == U_UPPERCASE_LETTER || type == U_LOWERCASE_LETTER || type == U_TITLECASE_LETTER ||
      type == U_MODIFIER_LETTER || type == U_OTHER_LETTER) {
    return true;
  }
  return in_ranges(c, kExtraLetters, std::size(kExtraLetters));
}
bool is_java_letter(char32_t c) {  // [:letter:] without PTBLexer's extras
  if (!is_bmp(c)) return false;
  if (c < 0x80) return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
  const auto type = u_charType(static_cast<UChar32>(c));
  return type == U_UPPERCASE_LETTER || type == U_LOWERCASE_LETTER || type == U_TITLECASE_LETTER ||
         type == U_MODIFIER_LETTER || type == U_OTHER_LETTER;
}
bool is_digit(char32_t c) {
  if (!is_bmp(c)) return false;
  if (c < 0x80) return c >= '0' && c <= '9';
  return u_charType(static_cast<UChar32>(c)) == U_DECIMAL_DIGIT_NUMBER || (c >= 0x7C0 && c <= 0x7C9);
}
bool is_uppercase(char32_t c) { return is_bmp(c) && u_charType(static_cast<UChar32>(c)) == U_UPPERCASE_LETTER; }
bool is_ascii_digit(char32_t c) { return c >= '0' && c <= '9'; }
bool is_ascii_alpha(char32_t c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool is_ascii_upper(char32_t c) { return c >= 'A' && c <= 'Z'; }
bool is_ascii_alnum(char32_t c) { return is_ascii_alpha(c) || is_ascii_digit(c); }
bool is_space_char(char32_t c) {
  return c == ' ' || c == '\t' || c == 0xA0 || (c >= 0x2000 && c <= 0x200A) || c == 0x3000;
}
// Branch-free, so that loops over whole texts vectorize.
char32_t ascii_lower(char32_t c) { return c + (c - U'A' < 26u ? 32u : 0u); }
bool one_of(char32_t c, std::u32string_view set) { return set.find(c) != std::u32string_view::npos; }
// The same for a literal set: its members compared one by one, unrolled
// (a search through a u32string_view is a loop and a call, at every position).
template <std::size_t N>
constexpr bool one_of(char32_t c, const char32_t (&set)[N]) {
  bool found = false;
  for (std::size_t k = 0; k + 1 < N; ++k) found |= c == set[k];
  return found;
}

// pred(c) for every ASCII character, as a table.
template <class Predicate>
std::array<bool, 128> ascii_table(Predicate pred) {
  std::array<bool, 128> table{};
  for (char32_t c = 0; c < 128; ++c) table[c] = pred(c);
  return table;
}

bool is_misc_symbol(char32_t c) {
  if (c < 0x80) return one_of(c, U"+%&~^|\\");  // the ASCII entries of kMiscSymbols (checked at every position)
  return is_bmp(c) && in_ranges(c, kMiscSymbols, std::size(kMiscSymbols));
}

// Characters that end URLs and e-mail addresses.
constexpr std::u32string_view kUrlStop = U" \t\n\f\r\"<>|(){}";
constexpr char32_t kUrlEndStop[] = U" \t\n\f\r\"<>|.!?(){},-";

// Which rule matched (the actions differ).
enum class Rule {
  literal,          // token = matched text
  pushback,         // token = first `consume` chars (cannot, gonna, ...)
  sgml,             // spaces -> NBSP
  dash,             // "--"
  amp,              // &amp; -> &
  soft_hyphen,      // remove U+00AD
  quote_right,      // handleQuotes(probablyLeft=false)
  quote_left,       // handleQuotes(probablyLeft=true)
  frac,             // space -> NBSP
  frac2,            // ½ -> 1/2
  currency,         // ¢ -> cents, £ -> #, € -> $
  abbrev_period,    // token = text incl. period; the period is lexed again
  paren_normalize,  // ( ) -> -LRB- -RRB- inside the token
  fixed,            // token = fixed text
  hyphens,          // 3-4 hyphens -> "--"
  ellipsis,         // "..."
  skip,             // whitespace, zero-width characters
  untokenizable,    // deleted
};

struct Match {
  std::size_t total = 0;    // matched length including trailing context
  std::size_t consume = 0;  // characters consumed by the token
  Rule rule = Rule::literal;
  std::u32string fixed;     // for Rule::fixed
};

using namespace std::string_view_literals;

// Lower-case ASCII words grouped by first letter ('a'..'z'), each group in the words' order: a
// word list is tried only on the group of the text's first letter (lit() would stop at the
// first character of any other word).
template <std::size_t N>
std::array<std::vector<std::u32string_view>, 26> words_by_first_letter(const std::u32string_view (&words)[N]) {
  std::array<std::vector<std::u32string_view>, 26> groups;
  for (std::u32string_view w : words) groups[w[0] - 'a'].push_back(w);
  return groups;
}

class PtbLexer {
 public:
  // `shortcuts`: is_plain_word() and is_word_before_final_period() take the runs
  // they can (off only to test them).
  explicit PtbLexer(bool shortcuts = true) : shortcuts_(shortcuts) {}

  // Lexes text[0, line_end) (what follows is look-ahead only) and calls
  // on_token(token) for each token in turn; the view lasts until the next call.
  template <class OnToken>
  void run(std::u32string_view text, std::size_t line_end, OnToken&& on_token) {
    padded_.assign(text);
    padded_.append(kPadding, kEnd);
    s_ = std::u32string_view(padded_.data(), text.size());
    lowered_.resize(padded_.size());
    std::transform(padded_.begin(), padded_.end(), lowered_.begin(), ascii_lower);
    std::size_t pos = 0;
    while (pos < line_end) {
      if (shortcuts_) {  // most tokens of a caption: no rule to try
        if (at(pos) == ' ') {  // what best_match() does at a plain space: skip the run of spaces
          while (is_space_char(at(pos))) ++pos;
          continue;
        }
        const std::size_t end = plain_letters_end(pos);
        if (is_plain_word(pos, end)) {
          on_token(s_.substr(pos, end - pos));
          pos = end;
          continue;
        }
        if (is_word_before_final_period(pos, end)) {
          on_token(s_.substr(pos, end - pos));
          on_token(s_.substr(end, 1));
          pos = end + 1;
          continue;
        }
      }
      const Match m = best_match(pos);
      if (emit(pos, m, token_)) on_token(std::u32string_view(token_));
      pos += std::max<std::size_t>(m.consume, 1);
    }
  }

 private:
  std::vector<std::size_t> acro_ends_;     // best_match()'s acro() ends, kept across positions
  std::vector<std::size_t> abbrev4_ends_;  // and abbrev4_words()' ends
  // The text and kPadding kEnd characters after it, so that at() needs no
  // bounds check: the rules look at most a few characters past the first kEnd
  // (every scan stops there; none was seen to look past it at all).
  static constexpr std::size_t kPadding = 32;
  std::u32string padded_;
  std::u32string lowered_;  // padded_ with ASCII letters in lower case: the literals' comparisons
  std::u32string_view s_;   // the text in padded_
  Match best_;
  std::u32string token_;  // emit()'s, kept across tokens and captions
  bool shortcuts_;

  char32_t at(std::size_t i) const {
    assert(i < padded_.size());
    return padded_[i];
  }
  char32_t lower_at(std::size_t i) const {  // ascii_lower(at(i))
    assert(i < lowered_.size());
    return lowered_[i];
  }

  // Case-insensitive (ASCII) literal at i; returns its length or 0.
  std::size_t lit(std::size_t i, std::u32string_view word) const {
    for (std::size_t k = 0; k < word.size(); ++k) {
      if (lower_at(i + k) != word[k]) return 0;
    }
    return word.size();
  }
  // The same for a literal, its length known at compile time (a char32_t
  // literal's length is otherwise counted on every call).
  template <std::size_t N>
  std::size_t lit(std::size_t i, const char32_t (&word)[N]) const {
    return lit(i, std::u32string_view(word, N - 1));
  }
  // `(&|&amp;)` at i (the entity caseless, as the lexer's %caseless makes
  // literals): 5 for the entity, 1 for a bare '&', 0 otherwise. Where both
  // match, the entity is the longer way through the rules that use it.
  std::size_t ampersand(std::size_t i) const {
    if (lit(i, U"&amp;")) return 5;
    return at(i) == '&' ? 1 : 0;
  }
  // The longest of several literals.
  template <std::size_t... N>
  std::size_t lit_any(std::size_t i, const char32_t (&... words)[N]) const {
    std::size_t best = 0;
    ((best = std::max(best, lit(i, words))), ...);
    return best;
  }

  std::size_t apos(std::size_t i) const {
    const char32_t c = at(i);
    if (c == '\'' || c == 0x92 || c == 0x2019) return 1;
    return lit(i, U"&apos;");
  }
  std::size_t apos_etc(std::size_t i) const {
    const char32_t c = at(i);
    if (c == '`' || c == 0x91 || c == 0x2018 || c == 0x201B) return 1;
    return apos(i);
  }
  std::size_t newline(std::size_t i) const {
    const char32_t c = at(i);
    if (c == '\r') return at(i + 1) == '\n' ? 2 : 1;
    if (c == '\n' || c == 0x2028 || c == 0x2029 || c == 0x0B || c == 0x0C || c == 0x85) return 1;
    return 0;
  }
  std::size_t space_nl(std::size_t i) const { return is_space_char(at(i)) ? 1 : newline(i); }
  bool letter_or_digit(std::size_t i) const { return is_letter(at(i)) || is_digit(at(i)); }
  bool java_letter_or_digit(std::size_t i) const { return is_java_letter(at(i)) || is_digit(at(i)); }
  std::size_t run_of(std::size_t i, bool (*pred)(char32_t)) const {
    std::size_t j = i;
    while (pred(at(j))) ++j;
    return j - i;
  }

  void offer(std::size_t total, std::size_t consume, Rule rule, std::u32string fixed = {}) {
    if (total > best_.total) best_ = Match{total, consume, rule, std::move(fixed)};
  }

  // ---- the rules, in PTBLexer's order (ties go to the earlier offer) ----

  std::size_t word(std::size_t i) const {
    if (!is_letter(at(i))) return 0;
    std::size_t j = i + 1;
    for (;;) {
      while (letter_or_digit(j)) ++j;
      const char32_t c = at(j);
      if ((c == '.' || c == '!' || c == '?') && is_letter(at(j + 1))) {
        j += 2;
        continue;
      }
      return j - i;
    }
  }

  std::size_t redaux(std::size_t i) const {
    const std::size_t a = apos(i);
    if (a == 0) return 0;
    const char32_t c = lower_at(i + a);
    if (c == 'm' || c == 's' || c == 'd') return a + 1;
    const std::size_t two = lit_any(i + a, U"re", U"ve", U"ll");
    return two ? a + two : 0;
  }
  std::size_t sredaux(std::size_t i) const {
    if (lower_at(i) != 'n') return 0;
    const std::size_t a = apos_etc(i + 1);
    if (a == 0 || lower_at(i + 1 + a) != 't') return 0;
    return a + 2;
  }

  // SWORD/SREDAUX: "do" + "n't". Longest split of an ASCII-letter run before n't.
  void sword_sredaux(std::size_t i) {
    auto sword_char = [](char32_t c) { return is_ascii_alpha(c) || c == 0xAD; };
    std::size_t run_end = i;
    while (sword_char(at(run_end))) ++run_end;
    for (std::size_t p = run_end; p > i; --p) {
      if (p <= run_end) {
        const std::size_t tail = sredaux(p);
        if (tail == 0) continue;
        // The last letter before p (ignoring soft hyphens) must not be n.
        std::size_t q = p;
        while (q > i && at(q - 1) == 0xAD) --q;
        if (q == i) continue;
        const char32_t last = at(q - 1);
        if (!is_ascii_alpha(last) || ascii_lower(last) == 'n') continue;
        offer(p - i + tail, p - i, Rule::soft_hyphen);
        return;
      }
    }
  }

  std::size_t apoword(std::size_t i) const {
    // Every alternative has its apostrophe (one of apos_etc()'s first characters) at i or right
    // after the run of letters starting at i: without one there, nothing matches.
    auto starts_apostrophe = [](char32_t ch) {
      return ch == '\'' || ch == '`' || ch == '&' || ch == 0x91 || ch == 0x92 || ch == 0x2018 || ch == 0x2019 ||
             ch == 0x201B;
    };
    if (!starts_apostrophe(at(i))) {
      std::size_t run_end = i;
      while (is_java_letter(at(run_end))) ++run_end;
      if (!starts_apostrophe(at(run_end))) return 0;
    }
    std::size_t best = 0;
    const char32_t c = at(i);
    if (std::size_t a = apos(i)) {
      if (lower_at(i + a) == 'n') best = std::max(best, a + 1 + apos(i + a + 1));
      best = std::max(best, lit(i + a, U"em") ? a + 2 : 0);
      if (at(i + a) >= '2' && at(i + a) <= '9' && at(i + a + 1) == '0' && lower_at(i + a + 2) == 's') {
        best = std::max(best, a + 3);
      }
      if (lit(i + a, U"til")) best = std::max(best, a + 3 + (lower_at(i + a + 3) == 'l' ? 1 : 0));
      if (lit(i + a, U"cause")) best = std::max(best, a + 5);
    }
    if (one_of(c, U"lLdDjJ")) {
      if (std::size_t a = apos(i + 1)) best = std::max(best, 1 + a);
    }
    static constexpr std::u32string_view kStems[] = {U"dunkin", U"somethin", U"ol"};
    for (std::u32string_view stem : kStems) {
      if (lit(i, stem)) {
        if (std::size_t a = apos(i + stem.size())) best = std::max(best, stem.size() + a);
      }
    }
    // [A-HJ-XZn]{APOSETCETERA}[:letter:]{2,}
    if ((c >= 'A' && c <= 'H') || (c >= 'J' && c <= 'X') || c == 'Z' || c == 'n') {
      if (std::size_t a = apos_etc(i + 1)) {
        std::size_t j = i + 1 + a;
        std::size_t letters = 0;
        while (is_java_letter(at(j))) ++j, ++letters;
        if (letters >= 2) best = std::max(best, j - i);
      }
    }
    // [:letter:]+[aeiouy]{APOSETCETERA}[aeiouA-Z][:letter:]*
    {
      std::size_t j = i;
      while (is_java_letter(at(j))) ++j;
      if (j >= i + 2 && one_of(at(j - 1), U"aeiouyAEIOUY")) {
        if (std::size_t a = apos_etc(j)) {
          const char32_t v = at(j + a);
          if (one_of(v, U"aeiou") || is_ascii_upper(v)) {
            std::size_t k = j + a + 1;
            while (is_java_letter(at(k))) ++k;
            best = std::max(best, k - i);
          }
        }
      }
    }
    if (std::size_t n = lit(i, U"cont'd")) best = std::max(best, n + (at(i + n) == '.' ? 1 : 0));
    best = std::max(best, lit_any(i, U"'twas", U"nor'easter", U"c'mon", U"e'er", U"s'mores", U"ev'ry", U"li'l",
                                      U"nat'l"));
    if (ascii_lower(c) == 'o') {
      if (std::size_t a = apos_etc(i + 1)) {
        if (lower_at(i + 1 + a) == 'o') best = std::max(best, a + 2);
      }
    }
    return best;
  }

  // The longest end > start+1 of a URL tail: chars outside kUrlStop, last outside kUrlEndStop.
  std::size_t url_tail(std::size_t start, std::u32string_view stop) const {
    std::size_t j = start;
    while (at(j) != kEnd && !one_of(at(j), stop)) ++j;
    while (j >= start + 2) {
      if (!one_of(at(j - 1), kUrlEndStop)) return j;
      --j;
    }
    return 0;
  }

  std::size_t full_url(std::size_t i) const {
    std::size_t n = lit(i, U"http");
    if (!n) return 0;
    if (lower_at(i + n) == 's') ++n;
    if (!lit(i + n, U"://")) return 0;
    const std::size_t end = url_tail(i + n + 3, kUrlStop);
    return end ? end - i : 0;
  }

  std::size_t likely_url(std::size_t i) const {
    // Label characters, as tables for ASCII (these run over every word); any other character is one
    // (kEnd excepted).
    static const auto kLabel1 = ascii_table([](char32_t c) { return !one_of(c, U" \t\n\f\r\"<>|.!?(){},"); });
    static const auto kLabel2 = ascii_table(
        [](char32_t c) { return !one_of(c, U" \t\n\f\r\"`'<>|.!?(){}$") && !(c >= 0x2C && c <= 0x5F); });
    auto label1 = [](char32_t c) { return c < 0x80 ? kLabel1[c] : c != kEnd; };
    auto label2 = [](char32_t c) { return c < 0x80 ? kLabel2[c] : c != kEnd; };
    std::vector<std::size_t> ends;
    if (std::size_t w = lit(i, U"www.")) {
      std::size_t p = i + w;
      for (;;) {
        std::size_t q = p;
        while (label1(at(q))) ++q;
        if (q == p || at(q) != '.') break;
        p = q + 1;
        std::size_t letters = 0;
        while (letters < 4 && is_ascii_alpha(at(p + letters))) ++letters;
        if (letters >= 2) ends.push_back(p + letters);
      }
    }
    {
      std::size_t p = i;
      for (;;) {
        std::size_t q = p;
        while (label2(at(q))) ++q;
        if (q == p || at(q) != '.') break;
        p = q + 1;
        if (lit_any(p, U"com", U"net", U"org", U"edu")) ends.push_back(p + 3);
      }
    }
    std::size_t best = 0;
    for (std::size_t end : ends) {
      best = std::max(best, end - i);
      if (at(end) == '/') {
        const std::size_t tail = url_tail(end + 1, U" \t\n\f\r\"<>|()");
        if (tail) best = std::max(best, tail - i);
      }
    }
    return best;
  }

  std::size_t email(std::size_t i) const {
    std::size_t start = i;
    if (at(i) == '<') {
      start = i + 1;
    } else if (std::size_t n = lit(i, U"&lt;")) {
      start = i + n;
    }
    std::size_t best = 0;
    auto try_from = [&](std::size_t from) {
      if (!is_ascii_alnum(at(from))) return;
      static constexpr char32_t stop[] = U" \t\n\f\r\"<>|(){}\u00A0";
      std::size_t run_end = from + 1;
      while (at(run_end) != kEnd && !one_of(at(run_end), stop)) ++run_end;
      for (std::size_t a = from + 1; a < run_end; ++a) {
        if (at(a) != '@') continue;
        // Domain: no leading/trailing dot, no empty label.
        for (std::size_t e = run_end; e >= a + 2; --e) {
          bool ok = at(a + 1) != '.' && at(e - 1) != '.';
          for (std::size_t k = a + 1; ok && k + 1 < e; ++k) ok = !(at(k) == '.' && at(k + 1) == '.');
          if (!ok) continue;
          std::size_t total = e - i;
          if (at(e) == '>') {
            total += 1;
          } else if (std::size_t g = lit(e, U"&gt;")) {
            total += g;
          }
          best = std::max(best, total);
          break;
        }
      }
    };
    try_from(i);
    if (start != i) try_from(start);
    return best;
  }

  std::size_t twitter(std::size_t i) const {
    if (at(i) == '@' && (is_ascii_alpha(at(i + 1)) || at(i + 1) == '_')) {
      std::size_t j = i + 2;
      while (is_ascii_alnum(at(j)) || at(j) == '_') ++j;
      return j - i;
    }
    if (at(i) == '#' && is_letter(at(i + 1))) {
      std::size_t j = i + 1;
      while (is_letter(at(j))) ++j;
      return j - i;
    }
    return 0;
  }

  // Ends of `count` (lo..hi) digits from each start.
  std::vector<std::size_t> digits(const std::vector<std::size_t>& starts, std::size_t lo, std::size_t hi,
                                  bool ascii_only = false) const {
    std::vector<std::size_t> out;
    for (std::size_t p : starts) {
      std::size_t k = 0;
      while (k < hi && (ascii_only ? is_ascii_digit(at(p + k)) : is_digit(at(p + k)))) {
        ++k;
        if (k >= lo) out.push_back(p + k);
      }
    }
    return out;
  }
  std::vector<std::size_t> one_char(const std::vector<std::size_t>& starts, std::u32string_view set,
                                    bool optional = false) const {
    std::vector<std::size_t> out;
    for (std::size_t p : starts) {
      if (optional) out.push_back(p);
      if (one_of(at(p), set)) out.push_back(p + 1);
    }
    return out;
  }
  static std::size_t longest(const std::vector<std::size_t>& ends, std::size_t i) {
    std::size_t best = 0;
    for (std::size_t e : ends) best = std::max(best, e - i);
    return best;
  }

  std::size_t date(std::size_t i) const {
    if (!is_digit(at(i))) return 0;  // (no lists built for the common case)
    auto ends = digits({i}, 1, 2);
    ends = one_char(ends, U"-/");
    ends = digits(ends, 1, 2);
    ends = one_char(ends, U"-/");
    return longest(digits(ends, 2, 4), i);
  }

  std::size_t number(std::size_t i) const {
    std::size_t j = i;
    if (at(j) == '-' || at(j) == '+') ++j;
    const std::size_t digits_start = j;
    while (is_digit(at(j))) ++j;
    std::size_t end = j > digits_start ? j : 0;
    for (;;) {
      const char32_t c = at(j);
      if ((c == '.' || c == ':' || c == ',' || c == 0xAD || c == 0x66B || c == 0x66C) && is_digit(at(j + 1))) {
        j += 1;
        while (is_digit(at(j))) ++j;
        end = j;
        continue;
      }
      break;
    }
    return end ? end - i : 0;
  }

  std::size_t subsupnum(std::size_t i) const {
    std::size_t j = i;
    if (one_of(at(j), U"\u207A\u207B\u208A\u208B")) ++j;
    auto sup = [](char32_t c) { return c == 0x2070 || c == 0xB9 || c == 0xB2 || c == 0xB3 || (c >= 0x2074 && c <= 0x2079); };
    auto sub = [](char32_t c) { return c >= 0x2080 && c <= 0x2089; };
    std::size_t k = j;
    if (sup(at(k))) {
      while (sup(at(k))) ++k;
    } else {
      while (sub(at(k))) ++k;
    }
    return k > j ? k - i : 0;
  }

  std::size_t frac(std::size_t i) const {
    auto slash = [&](const std::vector<std::size_t>& starts) {
      std::vector<std::size_t> out;
      for (std::size_t p : starts) {
        if (at(p) == '/' || at(p) == 0x2044) out.push_back(p + 1);
        if (at(p) == '\\' && at(p + 1) == '/') out.push_back(p + 2);
      }
      return out;
    };
    if (!is_digit(at(i))) return 0;  // every alternative starts with a digit
    auto whole = digits({i}, 1, 4);
    auto with_prefix = digits(one_char(whole, U"- \u00A0"), 1, 4);
    with_prefix.insert(with_prefix.end(), whole.begin(), whole.end());
    return longest(digits(slash(with_prefix), 1, 4), i);
  }

  std::size_t tbspec(std::size_t i) const {
    std::size_t best = 0;
    if (at(i) == '-') {
      static constexpr std::u32string_view kTags[] = {U"rrb", U"lrb", U"rcb", U"lcb", U"rsb", U"lsb"};
      for (std::u32string_view tag : kTags) {
        if (lit(i + 1, tag) && at(i + 4) == '-') best = 5;
      }
    }
    best = std::max(best, lit_any(i, U"c.d.s", U"pro-", U"anti-"));
    if (lower_at(i) == 's') {
      std::size_t amp = ampersand(i + 1);
      if (amp) {
        if (std::size_t n = lit(i + 1 + amp, U"p-500")) best = std::max(best, 1 + amp + n);
        if (std::size_t n = lit(i + 1 + amp, U"ls")) best = std::max(best, 1 + amp + n);
      }
    }
    if (std::size_t n = lit(i, U"cap")) {
      if (std::size_t a = apos(i + n)) {
        if (lower_at(i + n + a) == 'n') best = std::max(best, n + a + 1);
      }
    }
    if (lower_at(i) == 'c') {
      if (std::size_t a = apos(i + 1)) {
        if (lit(i + 1 + a, U"est")) best = std::max(best, 1 + a + 3);
      }
    }
    return best;
  }

  // [A-Za-z0-9]+(-[A-Za-z]+){0,2}: all end positions (at most three).
  struct SegmentEnds {
    std::array<std::size_t, 3> ends{};
    std::size_t count = 0;
    const std::size_t* begin() const { return ends.data(); }
    const std::size_t* end() const { return ends.data() + count; }
  };
  SegmentEnds thing3_segment(std::size_t p) const {
    SegmentEnds out;
    std::size_t j = p;
    while (is_ascii_alnum(at(j))) ++j;
    if (j == p) return out;
    out.ends[out.count++] = j;
    for (int hyphen = 0; hyphen < 2; ++hyphen) {
      if (at(j) != '-' || !is_ascii_alpha(at(j + 1))) break;
      j += 1;
      while (is_ascii_alpha(at(j))) ++j;
      out.ends[out.count++] = j;
    }
    return out;
  }
  // Where a "/" or "\\/" after `e` ends, or 0.
  std::size_t after_slash(std::size_t e) const {
    if (at(e) == '/') return e + 1;
    if (at(e) == '\\' && at(e + 1) == '/') return e + 2;
    return 0;
  }
  std::size_t thing3(std::size_t i) const {
    if (!is_ascii_alnum(at(i))) return 0;  // thing3_segment(i) is empty
    const SegmentEnds first = thing3_segment(i);
    // Every match goes on past a slash after a first segment: no lists built for the common case.
    if (std::none_of(first.begin(), first.end(), [&](std::size_t e) { return after_slash(e) != 0; })) return 0;
    std::size_t best = 0;
    std::vector<std::size_t> frontier(first.begin(), first.end());
    for (int group = 0; group < 2; ++group) {
      std::vector<std::size_t> next;
      for (std::size_t e : frontier) {
        const std::size_t after = after_slash(e);
        if (!after) continue;
        for (std::size_t end : thing3_segment(after)) next.push_back(end);
      }
      best = std::max(best, longest(next, i));
      frontier = std::move(next);
    }
    return best;
  }

  // ACRO = [A-Za-z](\.[A-Za-z])* | (Canada|Sino|Korean|EU|Japan|non)-U\.S | U\.S\.-(U\.K|U\.S\.S\.R): all ends.
  std::vector<std::size_t> acro(std::size_t i, bool at_least_two) const {
    std::vector<std::size_t> ends;
    acro(i, at_least_two, ends);
    return ends;
  }
  // The same into `ends` (cleared first), so that a caller can keep its buffer.
  void acro(std::size_t i, bool at_least_two, std::vector<std::size_t>& ends) const {
    ends.clear();
    if (!is_ascii_alpha(at(i))) return;  // every alternative starts with an ASCII letter
    if (is_ascii_alpha(at(i))) {
      std::size_t j = i + 1;
      if (!at_least_two) ends.push_back(j);
      while (at(j) == '.' && is_ascii_alpha(at(j + 1))) {
        j += 2;
        ends.push_back(j);
      }
    }
    static constexpr std::u32string_view kPrefixes[] = {U"canada", U"sino", U"korean", U"eu", U"japan", U"non"};
    static const auto kPrefixesByFirstLetter = words_by_first_letter(kPrefixes);
    for (std::u32string_view prefix : kPrefixesByFirstLetter[lower_at(i) - 'a']) {
      if (std::size_t n = lit(i, prefix)) {
        if (std::size_t m = lit(i + n, U"-u.s")) ends.push_back(i + n + m);
      }
    }
    if (std::size_t n = lit(i, U"u.s.-")) {
      if (std::size_t m = lit_any(i + n, U"u.k", U"u.s.s.r")) {
        if (lit(i + n, U"u.s.s.r")) ends.push_back(i + n + 7);
        if (lit(i + n, U"u.k")) ends.push_back(i + n + 3);
        (void)m;
      }
    }
  }

  std::size_t sgml(std::size_t i) const {
    if (at(i) != '<') return 0;
    std::size_t j = i + 1;
    if ((at(j) == '!' || at(j) == '?') && (is_ascii_alpha(at(j + 1)) || at(j + 1) == '-')) {
      j += 2;
      while (at(j) != kEnd && at(j) != '>' && at(j) != '\r' && at(j) != '\n') ++j;
      return at(j) == '>' ? j + 1 - i : 0;
    }
    if (at(j) == '/') ++j;
    if (!is_ascii_alpha(at(j))) return 0;
    ++j;
    while (is_ascii_alnum(at(j)) || at(j) == ':' || at(j) == '.' || at(j) == '-') ++j;
    while (at(j) == ' ') ++j;
    return at(j) == '>' ? j + 1 - i : 0;
  }

  // Words after which an acronym's period ends the sentence.
  std::size_t sentence_start_word(std::size_t i) const {
    static const std::u32string_view words[] = {
        U"About", U"According", U"Additionally", U"After", U"An", U"A", U"As", U"At", U"But", U"Earlier",
        U"He", U"Her", U"Here", U"However", U"If", U"In", U"It", U"Last", U"Many", U"More", U"Mr.", U"Ms.",
        U"Now", U"Once", U"One", U"Other", U"Our", U"She", U"Since", U"So", U"Some", U"Such", U"That", U"The",
        U"Their", U"Then", U"There", U"These", U"They", U"This", U"We", U"When", U"While", U"What", U"Yet",
        U"You"};
    std::size_t best = 0;
    for (auto w : words) {
      if (at(i) != w[0]) continue;  // the capital is a character class: case-sensitive
      std::u32string rest;
      for (std::size_t k = 1; k < w.size(); ++k) rest += ascii_lower(w[k]);
      if (lit(i + 1, rest) == rest.size() && (rest.empty() || lit(i + 1, rest))) best = std::max(best, w.size());
    }
    return std::max(best, sgml(i));
  }

  void acronym_rule(std::size_t i, const std::vector<std::size_t>& acro_ends) {
    for (std::size_t end : acro_ends) {
      if (at(end) != '.') continue;
      std::size_t j = end + 1;
      std::size_t spaces = 0;
      while (std::size_t n = space_nl(j)) j += n, ++spaces;
      if (!spaces) continue;
      // The trailing-context regex is greedy on spaces but the word must follow.
      const std::size_t w = sentence_start_word(j);
      if (!w) continue;
      const std::size_t after = space_nl(j + w);
      if (!after) continue;
      // "I." gives "I" then "."; longer acronyms give "U.S." then "." again.
      const std::size_t len = end + 1 - i;
      offer(j + w + after - i, len == 2 ? 1 : len - 1, len == 2 ? Rule::literal : Rule::abbrev_period);
    }
  }

  std::size_t abbrev3(std::size_t i) const {
    std::size_t best = 0;
    static constexpr std::u32string_view kWords[] = {U"ca",  U"fig", U"figs", U"prop", U"no",
                                                     U"nos", U"art", U"bldg", U"pp",   U"op"};
    static const auto kWordsByFirstLetter = words_by_first_letter(kWords);
    if (!is_ascii_alpha(at(i))) return 0;  // every word starts with an ASCII letter
    for (std::u32string_view w : kWordsByFirstLetter[lower_at(i) - 'a']) {
      if (std::size_t n = lit(i, w)) {
        if (at(i + n) == '.') best = std::max(best, n + 1);
      }
    }
    return best;
  }

  // ABBREV1 without its period: the longest abbreviation followed by '.'.
  std::size_t abbrev1(std::size_t i) const {
    static const std::u32string_view caseless[] = {
        U"jan", U"feb", U"mar", U"apr", U"jun", U"jul", U"aug", U"sep", U"sept", U"oct", U"nov", U"dec", U"mon",
        U"tue", U"tues", U"wed", U"thu", U"thurs", U"fri", U"ala", U"ariz", U"calif", U"colo", U"conn", U"ct",
        U"dak", U"fla", U"ga", U"ind", U"kan", U"kans", U"ky", U"md", U"mich", U"minn", U"mo", U"mont", U"neb",
        U"nev", U"okla", U"penn", U"tenn", U"va", U"vt", U"wis", U"wisc", U"wyo", U"inc", U"co", U"cos", U"corp",
        U"ltd", U"plc", U"rt", U"bancorp", U"bhd", U"assn", U"univ", U"intl", U"sys", U"tel", U"est", U"ext",
        U"sq", U"jr", U"sr", U"bros", U"ed.d", U"ph.d", U"blvd", U"rd", U"esq", U"etc", U"al", U"seq", U"bldg"};
    // First letter is a case-sensitive character class in these.
    static const std::u32string_view capital[] = {U"Az", U"Ark", U"Del", U"Ill", U"La", U"Mass", U"Miss",
                                                  U"Ore", U"Pa", U"Tex", U"Wash"};
    if (!is_ascii_alpha(at(i))) return 0;  // every alternative starts with an ASCII letter
    // Every match is a word of at most kLongest characters followed by '.': none if no '.' is that close.
    static const std::size_t kLongest = [] {
      std::size_t n = 5;  // Pp?t[ye]s?
      for (auto w : caseless) n = std::max(n, w.size());
      for (auto w : capital) n = std::max(n, w.size());
      return n;
    }();
    std::size_t period = 1;
    while (period <= kLongest && at(i + period) != '.' && at(i + period) != kEnd) ++period;
    if (period > kLongest || at(i + period) == kEnd) return 0;
    std::size_t best = 0;
    auto consider = [&](std::size_t n) {
      if (n && at(i + n) == '.') best = std::max(best, n + 1);
    };
    static const auto kCaselessByFirstLetter = words_by_first_letter(caseless);
    for (auto w : kCaselessByFirstLetter[lower_at(i) - 'a']) consider(lit(i, w));
    for (auto w : capital) {
      if (at(i) != w[0]) continue;
      if (lit(i + 1, w.substr(1))) consider(w.size());  // (the rest of each word is lower case already)
    }
    // Pp?t[ye]s? (the [ye] class is lower-case only)
    if (lower_at(i) == 'p') {
      std::size_t j = i + 1;
      for (int optional_p = 0; optional_p < 2; ++optional_p) {
        std::size_t k = optional_p ? j + 1 : j;
        if (optional_p && lower_at(j) != 'p') continue;
        if (lower_at(k) != 't' || !one_of(at(k + 1), U"ye")) continue;
        consider(k + 2 - i);
        if (lower_at(k + 2) == 's') consider(k + 3 - i);
      }
    }
    return best;
  }

  // ABBREV4 (without period): the ends of its words, into `ends` (cleared first);
  // ABBREV4's ACRO alternative is acro(i, false).
  void abbrev4_words(std::size_t i, std::vector<std::size_t>& ends) const {
    static constexpr std::u32string_view caseless[] = {
        U"mr", U"mrs", U"ms", U"dr", U"drs", U"prof", U"profs", U"sen", U"sens", U"rep", U"reps", U"atty",
        U"attys", U"lt", U"col", U"gen", U"messrs", U"gov", U"govs", U"adm", U"rev", U"maj", U"sgt", U"cpl",
        U"pvt", U"capt", U"st", U"ste", U"ave", U"pres", U"lieut", U"hon", U"brig", U"cmdr", U"comdr", U"pfc",
        U"spc", U"supt", U"supts", U"det", U"mt", U"ft", U"adj", U"adv", U"asst", U"assoc", U"ens", U"insp",
        U"mlle", U"mme", U"msgr", U"sfc", U"vs", U"alex", U"wm", U"jos", U"cie", U"a.k.a", U"cf", U"treas",
        U"ph", U"invt", U"elec", U"natl", U"dept"};
    // The words by first letter, in the list's order (lit() would stop at any other first letter).
    static const auto kByFirstLetter = words_by_first_letter(caseless);
    ends.clear();
    if (!is_ascii_alpha(at(i))) return;  // every word and M... start with an ASCII letter
    for (auto w : kByFirstLetter[lower_at(i) - 'a']) {
      if (std::size_t n = lit(i, w)) ends.push_back(i + n);
    }
    if (at(i) == 'M' && lit(i + 1, U"iss")) ends.push_back(i + 4);  // [M]iss
    if (lower_at(i) == 'm' && (at(i + 1) == 'f' || at(i + 1) == 't') && lower_at(i + 2) == 'g') {
      ends.push_back(i + 3);  // M[ft]g
    }
  }

  std::size_t filename(std::size_t i) const {
    static const std::u32string_view extensions[] = {
        U"bat", U"bmp", U"c", U"class", U"cgi", U"cpp", U"dll", U"doc", U"docx", U"exe", U"gif", U"gz",
        U"h", U"htm", U"html", U"jar", U"java", U"jpeg", U"jpg", U"mov", U"mp3", U"pdf", U"php", U"pl",
        U"png", U"ppt", U"ps", U"py", U"sql", U"tar", U"txt", U"wav", U"x", U"xml", U"zip"};
    std::size_t j = i;
    while (letter_or_digit(j)) ++j;
    if (j == i) return 0;
    std::size_t best = 0;
    while (at(j) == '.' && letter_or_digit(j + 1)) {
      const std::size_t seg_start = j + 1;
      std::size_t k = seg_start;
      while (letter_or_digit(k)) ++k;
      for (auto ext : extensions) {
        if (k - seg_start == ext.size() && lit(seg_start, ext)) {
          const std::size_t after = one_of(at(k), U".?!,") ? 1 : space_nl(k);
          if (after) best = std::max(best, k + after - i);
        }
      }
      j = k;
    }
    return best;
  }

  std::size_t phone(std::size_t i) const {
    if (at(i) != '(' && at(i) != '+' && !is_ascii_digit(at(i))) return 0;  // where every alternative starts
    std::vector<std::size_t> heads;
    // \([0-9]{2,3}\)[ \u00A0]?
    if (at(i) == '(') {
      for (std::size_t p : digits({i + 1}, 2, 3, true)) {
        if (at(p) == ')') {
          heads.push_back(p + 1);
          if (at(p + 1) == ' ' || at(p + 1) == 0xA0) heads.push_back(p + 2);
        }
      }
    }
    // (\+\+?)?([0-9]{2,4}[\- \u00A0])?[0-9]{2,4}[\- \u00A0]
    std::vector<std::size_t> plus = {i};
    if (at(i) == '+') {
      plus.push_back(i + 1);
      if (at(i + 1) == '+') plus.push_back(i + 2);
    }
    auto group = one_char(digits(plus, 2, 4, true), U"- \u00A0");
    auto starts = plus;
    starts.insert(starts.end(), group.begin(), group.end());
    auto second = one_char(digits(starts, 2, 4, true), U"- \u00A0");
    heads.insert(heads.end(), second.begin(), second.end());
    auto ends = digits(one_char(digits(heads, 3, 4, true), U"- \u00A0", true), 3, 5, true);
    std::size_t best = longest(ends, i);
    // ((\+\+?)?[0-9]{2,4}\.)?[0-9]{2,4}\.[0-9]{3,4}\.[0-9]{3,5}
    auto dotted_prefix = one_char(digits(plus, 2, 4, true), U".");
    std::vector<std::size_t> dotted = {i};
    dotted.insert(dotted.end(), dotted_prefix.begin(), dotted_prefix.end());
    auto dotted_ends = digits(one_char(digits(one_char(digits(dotted, 2, 4, true), U"."), 3, 4, true), U"."), 3, 5, true);
    return std::max(best, longest(dotted_ends, i));
  }

  std::size_t smiley(std::size_t i) const {
    std::size_t j = i;
    if (at(j) == '<' || at(j) == '>') ++j;
    if (!one_of(at(j), U":;=")) return 0;
    ++j;
    if (one_of(at(j), U"-o*'") && one_of(at(j + 1), U"()DPdpO\\{@|[]")) ++j;
    if (!one_of(at(j), U"()DPdpO\\{@|[]")) return 0;
    ++j;
    const char32_t next = at(j);
    if (next == kEnd || is_ascii_alnum(next)) return 0;
    return j + 1 - i;  // includes the trailing context character
  }

  std::size_t asian_smiley(std::size_t i) const {
    static constexpr char32_t face[] = U"-^x=~<>'";
    std::size_t best = 0;
    if (one_of(at(i), face) && at(i + 1) == '_' && one_of(at(i + 2), face)) best = 3;
    if (at(i) == '(' && one_of(at(i + 1), face)) {
      std::size_t j = i + 2;
      if (at(j) == '_' || at(j) == '.') {
        if (one_of(at(j + 1), face) && at(j + 2) == ')') best = std::max<std::size_t>(best, j + 3 - i);
      }
      if (one_of(at(j), face) && at(j + 1) == ')') best = std::max<std::size_t>(best, j + 2 - i);
      if (one_of(at(i + 1), U"^x=~<>'") && at(i + 2) == '-' && one_of(at(i + 3), U"^x=~<>'`") && at(i + 4) == ')') {
        best = std::max<std::size_t>(best, 5);
      }
    }
    return best;
  }

  // HTHING = [A-Za-z0-9][A-Za-z0-9.,\u00AD]*(-([A-Za-z0-9\u00AD]+|{ACRO2}\.))+ : longest end.
  std::size_t hthing(std::size_t i) const {
    if (!is_ascii_alnum(at(i))) return 0;
    std::size_t j = i + 1;
    while (is_ascii_alnum(at(j)) || at(j) == '.' || at(j) == ',' || at(j) == 0xAD) ++j;
    if (at(j) != '-') return 0;  // every end is past a hyphen (no list built for the common case)
    std::size_t best = 0;
    std::vector<std::size_t> frontier = {j};
    while (!frontier.empty()) {
      std::vector<std::size_t> next;
      for (std::size_t p : frontier) {
        if (at(p) != '-') continue;
        std::size_t k = p + 1;
        while (is_ascii_alnum(at(k)) || at(k) == 0xAD) ++k;
        if (k > p + 1) next.push_back(k);
        for (std::size_t e : acro(p + 1, true)) {
          if (at(e) == '.') next.push_back(e + 1);
        }
      }
      std::sort(next.begin(), next.end());
      next.erase(std::unique(next.begin(), next.end()), next.end());
      best = std::max(best, longest(next, i));
      frontier = std::move(next);
    }
    return best;
  }

  // THING: segments of letters/digits (optionally d'/o'/l' prefixed) joined by hyphens.
  std::size_t thing_segment(std::size_t p) const {
    std::size_t best = 0;
    if (one_of(at(p), U"dDoOlL")) {
      if (std::size_t a = apos_etc(p + 1)) {
        if (java_letter_or_digit(p + 1 + a)) {
          std::size_t k = p + 2 + a;
          while (java_letter_or_digit(k)) ++k;
          if (k > p + 2 + a) best = k;
        }
      }
    }
    std::size_t k = p;
    while (java_letter_or_digit(k)) ++k;
    if (k > p) best = std::max(best, k);
    return best;
  }
  std::size_t thing(std::size_t i) const {
    std::size_t end = thing_segment(i);
    if (!end) return 0;
    for (;;) {
      const char32_t c = at(end);
      if (!(c == '-' || c == '_' || c == 0x58A || c == 0x2010 || c == 0x2011)) break;
      const std::size_t next = thing_segment(end + 1);
      if (!next) break;
      end = next;
    }
    return end - i;
  }

  std::size_t thinga(std::size_t i) const {
    std::size_t j = i;
    while (is_ascii_upper(at(j))) ++j;
    if (j == i) return 0;
    std::size_t end = 0;
    for (;;) {
      std::size_t joiner = ampersand(j);
      if (joiner == 5 && !is_ascii_upper(at(j + joiner))) joiner = 1;  // "&AMP" then a letter run
      if (at(j) == '+') joiner = 1;
      if (!joiner || !is_ascii_upper(at(j + joiner))) break;
      j += joiner;
      while (is_ascii_upper(at(j))) ++j;
      end = j;
    }
    return end ? end - i : 0;
  }

  std::size_t quotes(std::size_t i) const {
    std::size_t best = apos(i);
    if (at(i) == '\'' && at(i + 1) == '\'') best = std::max<std::size_t>(best, 2);
    static constexpr char32_t cls[] = U"`\u2018\u2019\u201A\u201B\u201C\u201D\u0091\u0092\u0093\u0094\u201E\u201F\u2039\u203A\u00AB\u00BB";
    if (one_of(at(i), cls)) best = std::max<std::size_t>(best, one_of(at(i + 1), cls) ? 2 : 1);
    return best;
  }

  // A letter of PTBLexer's beyond ASCII, soft hyphens excepted (out of line: rare in captions).
  [[gnu::noinline]] static bool is_plain_letter_beyond_ascii(char32_t c) { return c != 0xAD && is_letter(c); }
  // The end of the run of letters (PTBLexer's, soft hyphens excepted) at i; i if there is none.
  std::size_t plain_letters_end(std::size_t i) const {
    std::size_t j = i;
    for (;;) {  // ASCII letters, then (rarely) one other letter, and again
      while (is_ascii_alpha(at(j))) ++j;
      if (at(j) < 0x80 || !is_plain_letter_beyond_ascii(at(j))) break;
      ++j;
    }
    return j;
  }
  // Whether the text at i starts with a word the lexer splits (in any case).
  bool starts_split_word(std::size_t i) const {
    return lit_any(i, U"cannot", U"gonna", U"gotta", U"lemme", U"gimme", U"wanna") != 0;
  }

  // Whether the run of letters [i, end) followed by a plain space is a token
  // as it is, unless it starts with a word the lexer splits (cannot, gonna, ...).
  // Every rule that matches at such a run consumes exactly the run and gives
  // it unchanged as the token (WORD, THING, and ABBREV4/ACRO with the space
  // as trailing context); the others need a character no such run and space
  // have: a digit, an apostrophe, '.', '-', '/', '@', '&', '+', '#', '$',
  // '_', '<', ':' (the full argument is in docs/cider.md, "Speed"). So
  // best_match() need not try them all.
  bool is_plain_word(std::size_t i, std::size_t end) const {
    return end != i && at(end) == ' ' && !starts_split_word(i);
  }

  // Whether the run of letters [i, end) is followed by the caption's final
  // period (then the line break before the next caption, or the end of the
  // text), and the run and the period are two tokens as they are: most
  // captions' last word. Here the rules that could take more than the run
  // are those with a period in or after a word: ACRO (a single letter and
  // '.'), ABBREV1 (with the next caption as trailing context; its words
  // include co, pte and pty, which also take a next caption's `ltd`), ABBREV3
  // (a digit after), ABBREV4's words, and the split words (cannot, gonna,
  // ...); a run of two or more letters none of these take is WORD's token
  // (WORD, FILENAME, the URL and THING rules need a letter or digit after a
  // period). The period before a line break or the end is then a
  // one-character token (only LDOTS, a number, or a period before `,;:`
  // would take more). The unit test compares both shortcuts with every rule
  // tried, and fails without any one of these exclusions.
  bool is_word_before_final_period(std::size_t i, std::size_t end) {
    if (end - i < 2 || at(end) != '.' || (at(end + 1) != '\n' && at(end + 1) != kEnd)) return false;
    if (starts_split_word(i) || abbrev1(i) != 0 || abbrev3(i) != 0) return false;
    abbrev4_words(i, abbrev4_ends_);
    return std::find(abbrev4_ends_.begin(), abbrev4_ends_.end(), end) == abbrev4_ends_.end();
  }

  // The lexer's hot loop (a third of raw-caption CIDEr's CPU): aligned so that
  // its speed does not depend on where unrelated edits place it (up to 3% seen).
  [[gnu::aligned(64)]] Match best_match(std::size_t i) {
    best_ = Match{};
    const char32_t c = at(i);
    if (c == ' ') {  // half of all positions; of the rules below only SPACE can match at a plain space
      std::size_t n = 0;
      while (is_space_char(at(i + n))) ++n;
      offer(n, n, Rule::skip);
      return best_;
    }

    if (lit(i, U"c++")) offer(3, 3, Rule::literal);
    if ((ascii_lower(c) == 'c' || ascii_lower(c) == 'f') && at(i + 1) == '#') offer(2, 2, Rule::literal);
    if (lit(i, U"cannot")) offer(6, 3, Rule::pushback);
    if (lit(i, U"'twas")) offer(5, 2, Rule::pushback);
    if (lit(i, U"'tis")) offer(4, 2, Rule::pushback);
    if (std::size_t n = lit_any(i, U"gonna", U"gotta", U"lemme", U"gimme", U"wanna")) offer(n, 3, Rule::pushback);
    if (std::size_t n = sgml(i)) offer(n, n, Rule::sgml);
    if (c == 0x96 || c == 0x97 || c == 0x2013 || c == 0x2014 || c == 0x2015) offer(1, 1, Rule::dash);
    if (c == '&') {
      if (std::size_t n = lit_any(i, U"&md;", U"&mdash;", U"&ndash;")) offer(n, n, Rule::dash);
      if (std::size_t n = lit(i, U"&amp;")) offer(n, n, Rule::amp);
      if (std::size_t n = lit_any(i, U"&ht;", U"&tl;", U"&ur;", U"&lr;", U"&qc;", U"&ql;", U"&qr;", U"&odq;", U"&cdq;")) {
        offer(n, n, Rule::literal);
      }
      if (at(i + 1) == '#' && is_ascii_digit(at(i + 2))) {
        std::size_t j = i + 2;
        while (is_ascii_digit(at(j))) ++j;
        if (at(j) == ';') offer(j + 1 - i, j + 1 - i, Rule::literal);
      }
    }
    const std::size_t w = word(i);
    if (w) {
      if (std::size_t r = redaux(i + w)) offer(w + r, w, Rule::soft_hyphen);
    }
    sword_sredaux(i);
    if (w) offer(w, w, Rule::soft_hyphen);
    if (std::size_t n = apoword(i)) offer(n, n, Rule::literal);
    if (ascii_lower(c) == 'y') {
      if (std::size_t a = apos(i + 1)) {
        if (is_java_letter(at(i + 1 + a))) offer(2 + a, 1 + a, Rule::literal);
      }
    }
    if (std::size_t n = full_url(i)) offer(n, n, Rule::literal);
    if (std::size_t n = likely_url(i)) offer(n, n, Rule::literal);
    if (std::size_t n = email(i)) offer(n, n, Rule::literal);
    if (std::size_t n = twitter(i)) offer(n, n, Rule::literal);
    if (std::size_t r = redaux(i)) {
      if (at(i + r) != kEnd && !is_ascii_alpha(at(i + r))) offer(r + 1, r, Rule::quote_right);
    }
    if (std::size_t r = sredaux(i)) {
      if (at(i + r) != kEnd && !is_ascii_alpha(at(i + r))) offer(r + 1, r, Rule::quote_right);
    }
    if (std::size_t n = date(i)) offer(n, n, Rule::literal);
    if (std::size_t n = number(i)) offer(n, n, Rule::soft_hyphen);
    if (std::size_t n = subsupnum(i)) offer(n, n, Rule::literal);
    if (std::size_t n = frac(i)) offer(n, n, Rule::frac);
    if ((c >= 0xBC && c <= 0xBE) || (c >= 0x2153 && c <= 0x215E)) offer(1, 1, Rule::frac2);
    if (std::size_t n = tbspec(i)) offer(n, n, Rule::amp);
    if (std::size_t n = thing3(i)) offer(n, n, Rule::literal);
    {  // DOLSIGN = [A-Z]*\$ | #
      std::size_t j = i;
      while (is_ascii_upper(at(j))) ++j;
      if (at(j) == '$') offer(j + 1 - i, j + 1 - i, Rule::literal);
      if (c == '#') offer(1, 1, Rule::literal);
    }
    if (one_of(c, U"\u00A2\u00A3\u00A4\u00A5\u0080\u20A0\u20AC\u060B\u0E3F\u20A4\uFFE0\uFFE1\uFFE5\uFFE6")) {
      offer(1, 1, Rule::currency);
    }
    acro(i, false, acro_ends_);  // used by three rules
    const std::vector<std::size_t>& acro_ends = acro_ends_;
    acronym_rule(i, acro_ends);
    if (std::size_t n = abbrev3(i)) {
      const std::size_t gap = space_nl(i + n);
      if (is_digit(at(i + n + gap))) offer(n + gap + 1, n, Rule::literal);
    }
    if (std::size_t n = lit_any(i, U"pte.", U"pty.", U"co.")) {
      if (is_space_char(at(i + n)) && lit_any(i + n + 1, U"ltd", U"lim")) offer(n + 4, n, Rule::literal);
    }
    if (std::size_t n = abbrev1(i)) {
      // ABBREV1/SENTEND, ABBREV1/[^][^], ABBREV1 (in that order).
      if (std::size_t sp = space_nl(i + n)) {
        const std::size_t p = i + n + sp;
        std::size_t more = space_nl(p);
        if (!more && is_uppercase(at(p))) more = 1;
        more = std::max(more, sgml(p));
        if (more) offer(n + sp + more, n - 1, Rule::abbrev_period);
      }
      if (at(i + n) != kEnd && at(i + n + 1) != kEnd) offer(n + 2, n, Rule::literal);
      offer(n, n - 1, Rule::abbrev_period);
    }
    // ABBREV4's ends: its ACRO alternative's, then its words' (the order of the offers).
    abbrev4_words(i, abbrev4_ends_);
    const std::vector<std::size_t>& abbrev4_ends = abbrev4_ends_;
    for (const auto* ends : {&acro_ends, &abbrev4_ends}) {
      for (std::size_t e : *ends) {
        if (at(e) == '.') offer(e + 1 - i, e + 1 - i, Rule::literal);
      }
    }
    for (const auto* ends : {&acro_ends, &abbrev4_ends}) {
      for (std::size_t e : *ends) {
        if (is_space_char(at(e))) offer(e + 1 - i, e - i, Rule::literal);
      }
    }
    for (std::size_t e : acro_ends) {
      if (std::size_t sp = space_nl(e)) offer(e + sp - i, e - i, Rule::literal);
    }
    if (std::size_t a = apos(i)) {  // TBSPEC2/SPACENL
      if (is_ascii_digit(at(i + a)) && is_ascii_digit(at(i + a + 1))) {
        if (std::size_t sp = space_nl(i + a + 2)) offer(a + 2 + sp, a + 2, Rule::literal);
      }
    }
    if (std::size_t n = filename(i)) offer(n, n - space_or_punct_len(i, n), Rule::literal);
    if (w && at(i + w) == '.' && one_of(at(i + w + 1), U",;:\u3001")) offer(w + 2, w + 1, Rule::soft_hyphen);
    if (std::size_t n = phone(i)) offer(n, n, Rule::frac);  // spaces -> NBSP (and parentheses, below)
    if (c == '"' || lit(i, U"&quot;")) {
      const std::size_t n = c == '"' ? 1 : 6;
      const char32_t next = at(i + n);
      if (is_ascii_alnum(next) || next == '$') offer(n + 1, n, Rule::quote_left);
      offer(n, n, Rule::quote_right);
    }
    if (c == 0x7F) offer(1, 1, Rule::skip);
    if (c == '<') offer(1, 1, Rule::fixed, U"<");
    if (std::size_t n = lit(i, U"&lt;")) offer(n, n, Rule::fixed, U"<");
    if (c == '>') offer(1, 1, Rule::fixed, U">");
    if (std::size_t n = lit(i, U"&gt;")) offer(n, n, Rule::fixed, U">");
    if (std::size_t n = smiley(i)) offer(n, n - 1, Rule::paren_normalize);
    if (std::size_t n = asian_smiley(i)) offer(n, n, Rule::paren_normalize);
    if (c == '{') offer(1, 1, Rule::fixed, U"-LCB-");
    if (c == '}') offer(1, 1, Rule::fixed, U"-RCB-");
    if (c == '[') offer(1, 1, Rule::fixed, U"-LSB-");
    if (c == ']') offer(1, 1, Rule::fixed, U"-RSB-");
    if (c == '(') offer(1, 1, Rule::fixed, U"-LRB-");
    if (c == ')') offer(1, 1, Rule::fixed, U"-RRB-");
    if (c == '-') {
      std::size_t n = 0;
      while (at(i + n) == '-') ++n;
      offer(n, n, Rule::hyphens);
    }
    {  // LDOTS
      std::size_t dots = 0;
      while (dots < 5 && at(i + dots) == '.') ++dots;
      if (dots >= 3) offer(dots, dots, Rule::ellipsis);
      std::size_t pairs = 0;
      while (pairs < 4 && at(i + 2 * pairs) == '.' && (at(i + 2 * pairs + 1) == ' ' || at(i + 2 * pairs + 1) == 0xA0)) {
        ++pairs;
        if (pairs >= 2 && at(i + 2 * pairs) == '.') offer(2 * pairs + 1, 2 * pairs + 1, Rule::ellipsis);
      }
      if (c == 0x85 || c == 0x2026) offer(1, 1, Rule::ellipsis);
    }
    if (c == '@' || c == '#' || c == '_') {
      std::size_t n = 0;
      while (at(i + n) == c) ++n;
      offer(n, n, Rule::literal);
    }
    if (c == '*') {
      std::size_t n = 0;
      while (at(i + n) == '*') ++n;
      offer(n, n, Rule::literal);
    }
    if (c == '\\' && at(i + 1) == '*') {
      std::size_t n = 0;
      while (n < 6 && at(i + n) == '\\' && at(i + n + 1) == '*') n += 2;
      offer(n, n, Rule::literal);
    }
    if (one_of(c, U",;:\u3001")) offer(1, 1, Rule::literal);
    if (c == '?' || c == '!') {
      std::size_t n = 0;
      while (at(i + n) == '?' || at(i + n) == '!') ++n;
      offer(n, n, Rule::literal);
    }
    if (one_of(c, U".\u00A1\u00BF\u037E\u0589\u061F\u06D4\u0700\u0701\u0702\u07FA\u3002")) offer(1, 1, Rule::literal);
    if (c == '=' || c == '/') offer(1, 1, Rule::literal);
    const std::size_t h = hthing(i);
    if (h && at(i + h) == '.' && one_of(at(i + h + 1), U",;:\u3001")) offer(h + 2, h + 1, Rule::soft_hyphen);
    if (h) offer(h, h, Rule::soft_hyphen);
    const std::size_t t = thing(i);
    if (t && at(i + t) == '.' && one_of(at(i + t + 1), U",;:\u3001")) offer(t + 2, t + 1, Rule::literal);
    if (t) offer(t, t, Rule::literal);
    const std::size_t ta = thinga(i);
    if (ta && at(i + ta) == '.' && one_of(at(i + ta + 1), U",;:\u3001")) offer(ta + 2, ta + 1, Rule::amp);
    if (ta) offer(ta, ta, Rule::amp);
    if (c == '\'' && is_ascii_alpha(at(i + 1))) {
      const char32_t next = at(i + 2);
      if (next != kEnd && next != ' ' && next != '\t' && next != '\n' && next != '\r' && next != 0xA0) {
        offer(3, 1, Rule::quote_left);
      }
    }
    if (std::size_t r = redaux(i)) offer(r, r, Rule::quote_right);
    if (std::size_t r = sredaux(i)) offer(r, r, Rule::quote_right);
    if (std::size_t q = quotes(i)) offer(q, q, Rule::quote_right);
    if ((c == '<' && at(i + 1) == '<') || (c == '>' && at(i + 1) == '>')) offer(2, 2, Rule::literal);
    if (is_misc_symbol(c)) offer(1, 1, Rule::literal);
    if (c == 0 || is_space_char(c) || c == 0x200B || c == 0x200E || c == 0x200F || c == 0xFEFF) {
      std::size_t n = 0;
      while (is_space_char(at(i + n))) ++n;
      offer(std::max<std::size_t>(n, 1), std::max<std::size_t>(n, 1), Rule::skip);
    }
    // Line breaks inside a caption: treated as spaces (see the file comment).
    if (std::size_t n = newline(i)) offer(n, n, Rule::skip);
    if (std::size_t n = lit(i, U"&nbsp;")) offer(n, n, Rule::skip);
    offer(1, 1, Rule::untokenizable);
    return best_;
  }

  std::size_t space_or_punct_len(std::size_t i, std::size_t total) const {
    // FILENAME's trailing context is one punctuation character or one SPACENL.
    const std::size_t end = i + total;
    if (end >= 2 && at(end - 2) == '\r' && at(end - 1) == '\n') return 2;
    return 1;
  }

  static std::u32string replace_parens(std::u32string text) {
    std::u32string out;
    for (char32_t ch : text) {
      if (ch == '(') {
        out += U"-LRB-";
      } else if (ch == ')') {
        out += U"-RRB-";
      } else {
        out += ch;
      }
    }
    return out;
  }

  static std::u32string latex_quotes(std::u32string_view token, bool probably_left) {
    std::u32string out;
    for (std::size_t k = 0; k < token.size(); ++k) {
      const char32_t ch = token[k];
      if (ch == '&' && token.substr(k, 6) == U"&apos;") {
        out += probably_left ? U"`" : U"'";
        k += 5;
      } else if (ch == '&' && token.substr(k, 6) == U"&quot;") {
        out += probably_left ? U"``" : U"''";
        k += 5;
      } else if (ch == '\'') {
        out += probably_left ? U"`" : U"'";
      } else if (ch == '"') {
        out += probably_left ? U"``" : U"''";
      } else if (ch == 0x91 || ch == 0x2018 || ch == 0x201B || ch == 0x2039) {
        out += U"`";
      } else if (ch == 0x92 || ch == 0x2019 || ch == 0x203A) {
        out += U"'";
      } else if (ch == 0x93 || ch == 0x201C || ch == 0xAB) {
        out += U"``";
      } else if (ch == 0x94 || ch == 0x201D || ch == 0xBB) {
        out += U"''";
      } else {
        out += ch;
      }
    }
    return out;
  }

  // The token of match `m` at i into `token`; false if the match makes none.
  bool emit(std::size_t i, const Match& m, std::u32string& token) const {
    const std::u32string_view text = s_.substr(i, m.consume);
    token.clear();
    switch (m.rule) {
      case Rule::skip:
      case Rule::untokenizable:
        return false;
      case Rule::literal:
      case Rule::pushback:
      case Rule::abbrev_period:
        token = text;
        if (m.rule == Rule::abbrev_period) token = s_.substr(i, m.consume + 1);
        break;
      case Rule::sgml:
      case Rule::frac:
        token = text;
        for (auto& ch : token) {
          if (ch == ' ') ch = 0xA0;
        }
        if (m.rule == Rule::frac) token = replace_parens(token);
        break;
      case Rule::dash:
        token = U"--";
        break;
      case Rule::hyphens:
        token = (m.consume == 3 || m.consume == 4) ? std::u32string(U"--") : std::u32string(text);
        break;
      case Rule::ellipsis:
        token = U"...";
        break;
      case Rule::amp:
        for (std::size_t k = 0; k < text.size(); ++k) {
          if (text[k] == '&' && k + 5 <= text.size() && ascii_lower(text[k + 1]) == 'a' &&
              ascii_lower(text[k + 2]) == 'm' && ascii_lower(text[k + 3]) == 'p' && text[k + 4] == ';') {
            token += U'&';
            k += 4;
          } else {
            token += text[k];
          }
        }
        break;
      case Rule::soft_hyphen:
        for (char32_t ch : text) {
          if (ch != 0xAD) token += ch;
        }
        if (token.empty()) token = U"-";
        break;
      case Rule::quote_right:
      case Rule::quote_left:
        token = latex_quotes(text, m.rule == Rule::quote_left);
        break;
      case Rule::frac2:
        switch (text[0]) {
          case 0xBC: token = U"1/4"; break;
          case 0xBD: token = U"1/2"; break;
          case 0xBE: token = U"3/4"; break;
          case 0x2153: token = U"1/3"; break;
          case 0x2154: token = U"2/3"; break;
          default: token = text;
        }
        break;
      case Rule::currency:
        if (text[0] == 0xA2) {
          token = U"cents";
        } else if (text[0] == 0xA3) {
          token = U"#";
        } else if (text[0] == 0x80 || text[0] == 0xA4 || text[0] == 0x20A0 || text[0] == 0x20AC) {
          token = U"$";
        } else {
          token = text;
        }
        break;
      case Rule::paren_normalize:
        token = replace_parens(std::u32string(text));
        break;
      case Rule::fixed:
        token = m.fixed;
        break;
    }
    return true;
  }
};

// pycocoevalcap's PUNCTUATIONS, compared after PTB's lower-casing (so the
// upper-case bracket tokens in the list never match).
bool is_removed_punctuation(std::u32string_view token) {
  // Every entry starts with one of these (most tokens are words: one test).
  if (token.empty() || !one_of(token[0], U"'`-.?!,:;")) return false;
  static const std::u32string_view removed[] = {U"''", U"'", U"``", U"`", U"-LRB-", U"-RRB-", U"-LCB-", U"-RCB-", U".",
                                                U"?", U"!", U",", U":", U"-", U"--", U"...", U";"};
  for (auto r : removed) {
    if (token == r) return true;
  }
  return false;
}

// text::lower(token) appended to `out`: ASCII tokens (nearly all) in place.
void append_lower(std::u32string_view token, std::u32string& out) {
  const std::size_t at = out.size();
  out.append(token);
  char32_t any_bits = 0;  // an OR of the token's characters: below 0x80 when all are ASCII
  for (auto it = out.begin() + static_cast<std::ptrdiff_t>(at); it != out.end(); ++it) {
    any_bits |= *it;
    *it = ascii_lower(*it);
  }
  if (any_bits >= 0x80) {
    out.resize(at);
    out += text::lower(token);
  }
}

// One caption, assigned to `out`: `lexer` and `line` are scratch, kept across captions.
void tokenize_caption(std::u32string_view text, std::size_t line_end, PtbLexer& lexer, std::u32string& line,
                      std::u32string& out) {
  // PTBTokenizer -lowerCase, the '\n'-joined output line, then pycocoevalcap's
  // line.rstrip().split(' ') minus PUNCTUATIONS: the kept tokens are moved to
  // the front of `line` in place, and the caption is one string of that size.
  line.clear();
  lexer.run(text, line_end, [&line](std::u32string_view token) {
    if (!line.empty()) line += U' ';
    append_lower(token, line);
  });
  const std::size_t stripped_size = text::rstrip(line).size();
  std::size_t kept = 0;  // line[0, kept): the kept tokens so far, space-separated
  std::size_t start = 0;
  while (start <= stripped_size) {
    std::size_t end = line.find(U' ', start);
    if (end == std::u32string::npos || end > stripped_size) end = stripped_size;
    const std::u32string_view token(line.data() + start, end - start);
    if (!is_removed_punctuation(token)) {
      // kept < start once a token is kept (a space precedes start), so
      // nothing is written over text not yet read.
      if (kept != 0) line[kept++] = U' ';
      std::char_traits<char32_t>::move(line.data() + kept, token.data(), token.size());
      kept += token.size();
    }
    start = end + 1;
  }
  out.assign(line.data(), kept);
}

// pycocoevalcap replaces '\n' inside a caption by a space before joining:
// `caption` so changed, appended to `out`.
void append_caption_line(std::u32string_view caption, std::u32string& out) {
  const std::size_t at = out.size();
  out.append(caption);
  // A select over a plain array, not a branch: the loop vectorizes (a caption seldom holds a '\n').
  char32_t* const appended = out.data() + at;
  for (std::size_t k = 0; k < caption.size(); ++k) appended[k] = appended[k] == U'\n' ? U' ' : appended[k];
}

class TokenizerPtb : public Tokenizer {
 public:
  std::string name() const override { return "ptb"; }
  // 2: `&amp;` inside upper-case runs (AT&amp;T, S&amp;P-500) kept whole, as PTBLexer's THINGA/TBSPEC.
  int version() const override { return 2; }
  std::u32string tokenize(std::u32string_view line) const override {
    std::vector<std::u32string> lines{std::u32string(line)};  // a batch of one: no look-ahead
    ptb_tokenize_batch_in_place(lines, nullptr);
    return std::move(lines.front());
  }
  void tokenize_lines(std::vector<std::u32string>& lines, const std::u32string* following) const override {
    ptb_tokenize_batch_in_place(lines, following);
  }
  bool looks_past_line_end() const override { return true; }
};

}  // namespace

std::unique_ptr<Tokenizer> make_ptb() { return std::make_unique<TokenizerPtb>(); }

namespace {

// Each caption replaced by its tokens, in order: caption i + 1 is still raw
// when caption i reads it as context, and caption i's string is reused. The
// last caption reads `following` (null: the text's end).
void tokenize_batch_in_place(std::vector<std::u32string>& lines, const std::u32string* following, bool shortcuts) {
  std::u32string text, scratch;
  PtbLexer lexer(shortcuts);
  for (std::size_t i = 0; i < lines.size(); ++i) {
    // PTB reads the captions '\n'-joined: the next caption is look-ahead context.
    text.clear();
    append_caption_line(lines[i], text);
    const std::size_t line_end = text.size();
    const std::u32string* const next = i + 1 < lines.size() ? &lines[i + 1] : following;
    if (next) {
      text += U'\n';
      append_caption_line(std::u32string_view(*next).substr(0, 64), text);
    }
    tokenize_caption(text, line_end, lexer, scratch, lines[i]);
  }
}

}  // namespace

void ptb_tokenize_batch_in_place(std::vector<std::u32string>& lines, const std::u32string* following) {
  tokenize_batch_in_place(lines, following, true);
}

std::vector<std::u32string> ptb_tokenize_batch(const std::vector<std::u32string>& lines) {
  std::vector<std::u32string> out = lines;
  tokenize_batch_in_place(out, nullptr, true);
  return out;
}

std::vector<std::u32string> detail::ptb_tokenize_batch_trying_every_rule(const std::vector<std::u32string>& lines) {
  std::vector<std::u32string> out = lines;
  tokenize_batch_in_place(out, nullptr, false);
  return out;
}

}  // namespace evalcli::tokenizers
