// The regex post-processing shared by the 13a and zh tokenizers
// (SacreBLEU's TokenizerRegexp), as one streaming pass.
//
// SacreBLEU applies four re.sub calls one after another, then ' '.join(split()):
// a chain of the stages of tokenize/rule_chain.hpp, with a fast path for the
// characters no rule reacts to. tests/unit/rules_13a_test.cpp checks the chain
// against std::regex_replace on random text.
#include <cstdint>

#include "evalcli/text/detail/string_interner.hpp"
#include "evalcli/text/unicode.hpp"
#include "evalcli/tokenize/builtin_tokenizers.hpp"
#include "tokenize/rule_chain.hpp"

namespace evalcli::tokenizers {
namespace {

using rule_chain::JoinAndLocateTokens;
using rule_chain::JoinTokens;
using rule_chain::PairRule;
using rule_chain::SpaceAfterEach;
using rule_chain::SpaceBeforeEach;

// `[\{-\~\[-\` -\&\(-\+\:-\@\/]`: ASCII symbols padded with spaces.
constexpr bool is_13a_symbol_slow(char32_t c) {
  return (c >= 0x7B && c <= 0x7E) || (c >= 0x5B && c <= 0x60) || (c >= 0x20 && c <= 0x26) ||
         (c >= 0x28 && c <= 0x2B) || (c >= 0x3A && c <= 0x40) || c == 0x2F;
}

// The same set as a 128-bit mask (this test runs on every character).
struct AsciiMask {
  std::uint64_t low = 0, high = 0;
  constexpr explicit AsciiMask(bool (*member)(char32_t)) {
    for (char32_t c = 0; c < 64; ++c) low |= static_cast<std::uint64_t>(member(c)) << c;
    for (char32_t c = 64; c < 128; ++c) high |= static_cast<std::uint64_t>(member(c)) << (c - 64);
  }
  constexpr bool contains(char32_t c) const {
    return c < 64 ? (low >> c) & 1 : c < 128 ? (high >> (c - 64)) & 1 : false;
  }
};
constexpr AsciiMask kSymbols(is_13a_symbol_slow);

constexpr bool is_period_or_comma(char32_t c) { return c == U'.' || c == U','; }
constexpr bool is_digit(char32_t c) { return text::is_ascii_digit(c); }

// The rules below run per character: inlined into run_rules' loop.
#define EVALCLI_INLINE [[gnu::always_inline]] inline

// `([^0-9])([\.,])` -> r'\1 \2 '
struct PeriodCommaAfterNonDigit : SpaceAfterEach {
  EVALCLI_INLINE static bool can_start(char32_t a) { return !is_digit(a); }
  EVALCLI_INLINE static bool matches(char32_t a, char32_t b) { return is_period_or_comma(b) && !is_digit(a); }
};

// `([\.,])([^0-9])` -> r' \1 \2'
struct PeriodCommaBeforeNonDigit : SpaceBeforeEach {
  EVALCLI_INLINE static bool can_start(char32_t a) { return is_period_or_comma(a); }
  EVALCLI_INLINE static bool matches(char32_t a, char32_t b) { return is_period_or_comma(a) && !is_digit(b); }
};

// `([0-9])(-)` -> r'\1 \2 '
struct DashAfterDigit : SpaceAfterEach {
  EVALCLI_INLINE static bool can_start(char32_t a) { return is_digit(a); }
  EVALCLI_INLINE static bool matches(char32_t a, char32_t b) { return b == U'-' && is_digit(a); }
};

// What the fast path of run_rules does with a character (see there).
//  - word: no rule reacts to it (not padded, not a digit, '.' or ','), and
//    str.split() keeps it;
//  - blank: whitespace no rule reacts to, and ' ' (padding it only adds blanks);
//  - symbol: padded with spaces (every symbol but ' ');
//  - other: the fast path stops: digits, '.', ',', and '\n' (so that the
//    tokenizer can stop at it: it needs the line's replacements), and with
//    kStopAtReplacements '<' and '&' as well.
enum class FastKind : unsigned char { word, blank, symbol, other };
template <bool kStopAtReplacements>
constexpr FastKind fast_kind_slow(char32_t c) {
  if (is_digit(c) || is_period_or_comma(c) || c == U'\n') return FastKind::other;
  if (kStopAtReplacements && (c == U'<' || c == U'&')) return FastKind::other;
  if (text::is_space(c)) return FastKind::blank;
  return kSymbols.contains(c) ? FastKind::symbol : FastKind::word;
}
template <bool kStopAtReplacements>
struct FastKindTable {
  FastKind kinds[128] = {};
  constexpr FastKindTable() {
    for (char32_t c = 0; c < 128; ++c) kinds[c] = fast_kind_slow<kStopAtReplacements>(c);
  }
};
template <bool kStopAtReplacements>
constexpr FastKindTable<kStopAtReplacements> kFastKinds;
template <bool kStopAtReplacements>
EVALCLI_INLINE FastKind fast_kind(char32_t c) {
  if (c < 0x80) return kFastKinds<kStopAtReplacements>.kinds[c];
  return c >= 0x85 && text::is_space(c) ? FastKind::blank : FastKind::word;
}

#undef EVALCLI_INLINE

// The chain over `text` (with a space before and after if `surround_with_spaces`),
// written to `out` (room for 2 * text.size() + 1 characters); returns the output
// length. With kStopAtReplacements, returns kStopped at the first character
// 13a's replacements look for ('<', '&', '\n') instead.
constexpr std::size_t kStopped = static_cast<std::size_t>(-1);

// `join` is a JoinTokens or a JoinAndLocateTokens, made by the caller.
template <bool kStopAtReplacements, class Join>
std::size_t run_rules(std::u32string_view text, bool surround_with_spaces, Join& join) {
  PairRule<DashAfterDigit, Join> dash(join);
  PairRule<PeriodCommaBeforeNonDigit, decltype(dash)> before(dash);
  PairRule<PeriodCommaAfterNonDigit, decltype(before)> after(before);
  // First rule: each ASCII symbol becomes " c ".
  const auto is_symbol = [](char32_t c) { return kSymbols.contains(c); };
  rule_chain::PadEach<decltype(is_symbol), decltype(after)> pad(after, is_symbol);
  if (surround_with_spaces) pad.put(U' ');
  const char32_t* p = text.data();
  const char32_t* const end = p + text.size();
  while (p != end) {
    // Fast path, for the state in which only the first pair rule holds a
    // character h, and h is neither '.' nor ',' (nor a digit: that rule never
    // holds one). Up to the next character of kind `other`, no rule reacts to
    // anything: h goes out first (pad.put() of the next character would pass
    // it on unchanged), then each word character and blank goes straight to
    // the join, and each symbol padded with spaces. (The first rule would
    // hold each character until the next one came; it can leave them at
    // once, as none is a '.' or ',' that a next character could pair with.)
    if (after.has_pending() && !before.has_pending() && !dash.has_pending() &&
        !is_period_or_comma(after.pending())) {
      Join fast_join = join;  // a local copy: its state stays in registers
      fast_join.put(after.pending());
      after.clear_pending();
      while (p != end) {
        const char32_t c = *p;
        const FastKind kind = fast_kind<kStopAtReplacements>(c);
        if (kind == FastKind::word) {
          p = fast_join.put_word_run(
              p, end, [](char32_t next) { return fast_kind<kStopAtReplacements>(next) == FastKind::word; });
        } else if (kind == FastKind::blank) {
          fast_join.blank();
          ++p;
        } else if (kind == FastKind::symbol) {
          fast_join.blank();
          fast_join.put_word_char(c);
          fast_join.blank();
          ++p;
        } else {
          break;
        }
      }
      join = fast_join;
      if (p == end) break;
      // A '.' or ',' after the character that went out last (never a digit)
      // is the first rule's match: that character, then " c ", went on to
      // the next rule.
      if (is_period_or_comma(*p)) {
        before.put(U' ');
        before.put(*p++);
        before.put(U' ');
        continue;
      }
    }
    const char32_t c = *p++;
    if constexpr (kStopAtReplacements) {
      if (c == U'<' || c == U'&' || c == U'\n') return kStopped;
    }
    pad.put(c);
  }
  if (surround_with_spaces) pad.put(U' ');
  pad.finish();
  return join.size();
}

}  // namespace

std::u32string apply_13a_rules(std::u32string_view text, bool surround_with_spaces) {
  // Output holds every non-space input character once plus one space between
  // tokens: at most twice the input.
  std::u32string out(2 * text.size() + 1, U'\0');
  JoinTokens join(out.data());
  out.resize(run_rules<false>(text, surround_with_spaces, join));
  return out;
}

bool apply_13a_rules_unless_replacements(std::u32string_view text, std::u32string& out) {
  out.resize(2 * text.size() + 1);
  JoinTokens join(out.data());
  const std::size_t size = run_rules<true>(text, true, join);
  if (size == kStopped) return false;
  out.resize(size);
  return true;
}

bool apply_13a_rules_unless_replacements(std::u32string_view text, TokenizedText& out) {
  out.text.resize(2 * text.size() + 1);
  out.tokens.clear();
  out.tokens.reserve(text.size() + 1);  // tokens are separated: at most one per two output characters
  JoinAndLocateTokens join(out.text.data(), out.tokens);
  const std::size_t size = run_rules<true>(text, true, join);
  if (size == kStopped) return false;
  out.text.resize(size);
  return true;
}

}  // namespace evalcli::tokenizers
