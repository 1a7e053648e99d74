// The regex post-processing shared by the 13a and zh tokenizers
// (SacreBLEU's TokenizerRegexp), as one streaming pass.
//
// SacreBLEU applies four re.sub calls one after another, then ' '.join(split()).
// Each two-character rule is a left-to-right scan with non-overlapping matches,
// so it is a small transducer holding at most one pending character; chaining
// the transducers gives exactly the composed substitutions without building
// the intermediate strings. tests/unit/rules_13a_test.cpp checks the chain
// against std::regex_replace on random text.
#include <cstdint>

#include "evalcli/text/detail/string_interner.hpp"
#include "evalcli/text/unicode.hpp"
#include "evalcli/tokenize/builtin_tokenizers.hpp"

namespace evalcli::tokenizers {
namespace {

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

// The stages below run per character and are tiny: inlining the whole chain
// into one loop is what makes the streaming pass fast.
#define EVALCLI_INLINE [[gnu::always_inline]] inline

// What the joins below drop: Python's str.split() whitespace.
EVALCLI_INLINE bool splits_tokens(char32_t c) {
  return (c <= 0x20 || c >= 0x85) && text::is_space(c);  // printable ASCII first: the common case
}

// Last stage, ' '.join(line.split()): drops whitespace, joins tokens with one
// space. Writes through a raw pointer into a buffer sized by the caller.
class JoinTokens {
 public:
  explicit JoinTokens(char32_t* out) : begin_(out), out_(out) {}
  EVALCLI_INLINE void put(char32_t c) {
    if (splits_tokens(c)) {
      blank();
    } else {
      put_word_char(c);
    }
  }
  // put() of a character known to be whitespace, or known not to be.
  EVALCLI_INLINE void blank() { in_token_ = false; }
  EVALCLI_INLINE void put_word_char(char32_t c) {
    if (!in_token_ && out_ != begin_) *out_++ = U' ';
    in_token_ = true;
    *out_++ = c;
  }
  // put_word_char() of *first and of the characters after it while
  // is_word(c); returns the end of that run.
  template <class IsWord>
  EVALCLI_INLINE const char32_t* put_word_run(const char32_t* first, const char32_t* end, IsWord is_word) {
    put_word_char(*first);
    char32_t* out = out_;
    for (++first; first != end && is_word(*first); ++first) *out++ = *first;
    out_ = out;
    return first;
  }
  void finish() {}
  std::size_t size() const { return static_cast<std::size_t>(out_ - begin_); }

 private:
  char32_t* begin_;
  char32_t* out_;
  bool in_token_ = false;
};

// JoinTokens that also records each token's place and TextHash as it writes
// it, so that the caller needs no second pass to split and hash the output.
// A token is recorded when the next one starts, or at finish(). Its state is
// a few words, all inlined: run_rules' fast path works on a copy of it held in
// registers.
class JoinAndLocateTokens {
 public:
  JoinAndLocateTokens(char32_t* out, std::vector<TokenSpan>& tokens) : begin_(out), out_(out), tokens_(&tokens) {}
  EVALCLI_INLINE void put(char32_t c) {
    if (splits_tokens(c)) {
      blank();
    } else {
      put_word_char(c);
    }
  }
  // put() of a character known to be whitespace, or known not to be.
  EVALCLI_INLINE void blank() { in_token_ = false; }
  EVALCLI_INLINE void put_word_char(char32_t c) {
    if (!in_token_) start_token();
    in_token_ = true;
    *out_++ = c;
    hash_.add(c);
  }
  // put_word_char() of *first and of the characters after it while
  // is_word(c); returns the end of that run.
  template <class IsWord>
  EVALCLI_INLINE const char32_t* put_word_run(const char32_t* first, const char32_t* end, IsWord is_word) {
    put_word_char(*first);
    text::TextHash hash = hash_;
    char32_t* out = out_;
    for (++first; first != end && is_word(*first); ++first) {
      *out++ = *first;
      hash.add(*first);
    }
    out_ = out;
    hash_ = hash;
    return first;
  }
  void finish() {
    if (out_ != begin_) end_token();
  }
  std::size_t size() const { return static_cast<std::size_t>(out_ - begin_); }

 private:
  EVALCLI_INLINE void start_token() {
    if (out_ != begin_) {
      end_token();
      *out_++ = U' ';
    }
    token_start_ = out_;
    hash_ = text::TextHash();
  }
  EVALCLI_INLINE void end_token() {
    tokens_->push_back({static_cast<std::uint32_t>(token_start_ - begin_),
                        static_cast<std::uint32_t>(out_ - token_start_), hash_.value()});
  }

  char32_t* begin_;
  char32_t* out_;
  char32_t* token_start_ = nullptr;
  text::TextHash hash_;
  std::vector<TokenSpan>* tokens_;
  bool in_token_ = false;
};

// One re.sub of a two-character pattern (first, second) whose replacement
// keeps both characters and adds spaces. `Rule` says which characters can
// start a match, whether a pair matches, and emits the replacement. After a match both characters are consumed, so the
// next match can only start at the character after them.
template <class Rule, class Next>
class PairRule {
 public:
  explicit PairRule(Next& next) : next_(next) {}
  EVALCLI_INLINE void put(char32_t c) {
    if (has_pending_) {
      if (Rule::matches(pending_, c)) {
        Rule::emit(next_, pending_, c);
        has_pending_ = false;
        return;
      }
      next_.put(pending_);
      has_pending_ = false;
    }
    // A character that cannot start a match is passed on at once (holding it
    // until the next character would emit the same text in the same order).
    if (Rule::can_start(c)) {
      pending_ = c;
      has_pending_ = true;
    } else {
      next_.put(c);
    }
  }
  void finish() {
    if (has_pending_) next_.put(pending_);
    has_pending_ = false;
    next_.finish();
  }
  bool has_pending() const { return has_pending_; }
  char32_t pending() const { return pending_; }
  void clear_pending() { has_pending_ = false; }

 private:
  Next& next_;
  char32_t pending_ = 0;
  bool has_pending_ = false;
};

// The two replacements: r'\1 \2 ' and r' \1 \2'.
struct SpaceAfterEach {
  template <class Next>
  EVALCLI_INLINE static void emit(Next& next, char32_t a, char32_t b) {
    next.put(a);
    next.put(U' ');
    next.put(b);
    next.put(U' ');
  }
};
struct SpaceBeforeEach {
  template <class Next>
  EVALCLI_INLINE static void emit(Next& next, char32_t a, char32_t b) {
    next.put(U' ');
    next.put(a);
    next.put(U' ');
    next.put(b);
  }
};

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

// First rule: each ASCII symbol becomes " c ".
template <class Next>
class PadSymbols {
 public:
  explicit PadSymbols(Next& next) : next_(next) {}
  EVALCLI_INLINE void put(char32_t c) {
    if (kSymbols.contains(c)) {
      next_.put(U' ');
      next_.put(c);
      next_.put(U' ');
    } else {
      next_.put(c);
    }
  }
  void finish() { next_.finish(); }

 private:
  Next& next_;
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
  PadSymbols<decltype(after)> pad(after);
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
