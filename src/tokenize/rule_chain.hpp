#pragma once
// The stages of a tokenizer written as a chain of re.sub calls and a final
// ' '.join(line.split()) (SacreBLEU's 13a, zh and intl tokenizers; none and
// char are the join alone), as one streaming pass. Each two-character rule is a left-to-right scan with
// non-overlapping matches, so it is a small transducer holding at most one
// pending character; chaining the transducers gives exactly the composed
// substitutions without building the intermediate strings. Each stage has
// put(c) and finish(), and passes its output to the next one.
#include <cstdint>
#include <string>
#include <vector>

#include "evalcli/text/detail/string_interner.hpp"
#include "evalcli/text/unicode.hpp"
#include "evalcli/tokenize/tokenized_text.hpp"

// The stages run per character and are tiny: inlining the whole chain into one
// loop is what makes the streaming pass fast.
#define EVALCLI_CHAIN_INLINE [[gnu::always_inline]] inline

namespace evalcli::tokenizers::rule_chain {

// What the joins below drop: Python's str.split() whitespace.
EVALCLI_CHAIN_INLINE bool splits_tokens(char32_t c) {
  return (c <= 0x20 || c >= 0x85) && text::is_space(c);  // printable ASCII first: the common case
}

// Last stage, ' '.join(line.split()): drops whitespace, joins tokens with one
// space. Writes through a raw pointer into a buffer sized by the caller.
class JoinTokens {
 public:
  explicit JoinTokens(char32_t* out) : begin_(out), out_(out) {}
  EVALCLI_CHAIN_INLINE void put(char32_t c) {
    if (splits_tokens(c)) {
      blank();
    } else {
      put_word_char(c);
    }
  }
  // put() of a character known to be whitespace, or known not to be.
  EVALCLI_CHAIN_INLINE void blank() { in_token_ = false; }
  EVALCLI_CHAIN_INLINE void put_word_char(char32_t c) {
    if (!in_token_ && out_ != begin_) *out_++ = U' ';
    in_token_ = true;
    *out_++ = c;
  }
  // put_word_char() of *first and of the characters after it while
  // is_word(c); returns the end of that run.
  template <class IsWord>
  EVALCLI_CHAIN_INLINE const char32_t* put_word_run(const char32_t* first, const char32_t* end, IsWord is_word) {
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
  EVALCLI_CHAIN_INLINE void put(char32_t c) {
    if (splits_tokens(c)) {
      blank();
    } else {
      put_word_char(c);
    }
  }
  // put() of a character known to be whitespace, or known not to be.
  EVALCLI_CHAIN_INLINE void blank() { in_token_ = false; }
  EVALCLI_CHAIN_INLINE void put_word_char(char32_t c) {
    if (!in_token_) start_token();
    in_token_ = true;
    *out_++ = c;
    hash_.add(c);
  }
  // put_word_char() of *first and of the characters after it while
  // is_word(c); returns the end of that run.
  template <class IsWord>
  EVALCLI_CHAIN_INLINE const char32_t* put_word_run(const char32_t* first, const char32_t* end, IsWord is_word) {
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
  EVALCLI_CHAIN_INLINE void start_token() {
    if (out_ != begin_) {
      end_token();
      *out_++ = U' ';
    }
    token_start_ = out_;
    hash_ = text::TextHash();
  }
  EVALCLI_CHAIN_INLINE void end_token() {
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
// start a match, whether a pair matches, and emits the replacement. After a
// match both characters are consumed, so the next match can only start at the
// character after them.
template <class Rule, class Next>
class PairRule {
 public:
  explicit PairRule(Next& next) : next_(next) {}
  EVALCLI_CHAIN_INLINE void put(char32_t c) {
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
  EVALCLI_CHAIN_INLINE static void emit(Next& next, char32_t a, char32_t b) {
    next.put(a);
    next.put(U' ');
    next.put(b);
    next.put(U' ');
  }
};
struct SpaceBeforeEach {
  template <class Next>
  EVALCLI_CHAIN_INLINE static void emit(Next& next, char32_t a, char32_t b) {
    next.put(U' ');
    next.put(a);
    next.put(U' ');
    next.put(b);
  }
};

// A rule that pads each character `IsPadded` accepts with spaces: " c ".
template <class IsPadded, class Next>
class PadEach {
 public:
  PadEach(Next& next, IsPadded is_padded) : next_(next), is_padded_(is_padded) {}
  EVALCLI_CHAIN_INLINE void put(char32_t c) {
    if (is_padded_(c)) {
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
  [[no_unique_address]] IsPadded is_padded_;
};

// Tokenizer::tokenize_into and tokenize_located_into for a tokenizer that
// writes its output through a join: write(join) puts the line's characters
// into a chain ending in `join` (a JoinTokens, or a JoinAndLocateTokens) and
// finishes the chain. `max_size` bounds the output's length.
template <class Write>
void write_joined(std::size_t max_size, std::u32string& out, Write write) {
  out.resize(max_size);
  JoinTokens join(out.data());
  write(join);
  out.resize(join.size());
}
template <class Write>
void write_located(std::size_t max_size, TokenizedText& out, Write write) {
  out.text.resize(max_size);
  out.tokens.clear();
  JoinAndLocateTokens join(out.text.data(), out.tokens);
  write(join);
  out.text.resize(join.size());
}

}  // namespace evalcli::tokenizers::rule_chain

#undef EVALCLI_CHAIN_INLINE
