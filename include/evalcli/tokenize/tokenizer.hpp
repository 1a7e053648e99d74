#pragma once
// A tokenizer maps one line (code points) to its tokens joined by single
// spaces. Each has a name and a version: the version changes whenever the
// output for some input could change (docs/text-pipeline.md), and both go
// into every signature.
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "evalcli/tokenize/tokenized_text.hpp"

namespace evalcli {

// Settings of tokenizers that have some (only zh-jieba so far). Every
// tokenizer receives them through the one registry; the rest ignore them.
struct TokenizerOptions {
  bool jieba_hmm = true;   // zh-jieba: HMM for unknown runs (jieba.cut(HMM=...))
  std::string jieba_dict;  // zh-jieba: dictionary replacing Debian's dict.txt ("" = default)
  // ja-mecab: a compiled MeCab dictionary folder (with sys.dic) replacing Debian's
  // IPA one ("" = EVALCLI_MECAB_DICDIR, else Debian's).
  std::string mecab_dict;
};

class Tokenizer {
 public:
  virtual ~Tokenizer() = default;
  // Registry name, e.g. "13a", "zh", "ja-mecab".
  virtual std::string name() const = 0;
  virtual int version() const { return 1; }
  // Versioned identity used by evalcli's own signatures: "13a-v1".
  std::string id() const { return name() + "-v" + std::to_string(version()); }
  // The value SacreBLEU prints as `tok:` for this tokenizer (e.g. "ja-mecab-0.996-IPA"),
  // or empty when SacreBLEU has no such tokenizer.
  virtual std::string sacrebleu_name() const { return {}; }
  // Extra signature fields naming data the output depends on ("dict:jieba-0.42.1-sha256.…",
  // "icu:72.1"), joined by '|'; empty for self-contained tokenizers.
  virtual std::string signature_fields() const { return {}; }
  // Tokens of `line`, joined by single spaces, no leading/trailing space.
  virtual std::u32string tokenize(std::u32string_view line) const = 0;
  // The same tokens written into `out` (its content replaced), so that a caller
  // scoring many lines can reuse one buffer. `line` must not view `out`.
  virtual void tokenize_into(std::u32string_view line, std::u32string& out) const { out = tokenize(line); }
  // The same text into `out.text`, with its tokens located in `out.tokens`.
  // By default tokenize_into() and then TokenizedText::locate_tokens(); a
  // tokenizer that can find the tokens in its own pass overrides this (13a).
  virtual void tokenize_located_into(std::u32string_view line, TokenizedText& out) const;
  // Each line replaced by its tokens, the lines read as consecutive lines of
  // one text, followed by the line `following` when given (read as context,
  // not tokenized; null: the text ends after `lines`). By default line by
  // line; a tokenizer whose rules look past a line's end overrides this (ptb:
  // the next caption is PTBTokenizer's look-ahead, as pycocoevalcap runs it
  // on '\n'-joined captions).
  virtual void tokenize_lines(std::vector<std::u32string>& lines, const std::u32string* following) const;
  // True when a line's tokens can depend on the line after it (ptb): callers
  // that tokenize a text in pieces must then give each piece its `following` line.
  virtual bool looks_past_line_end() const { return false; }
};

// Creates a tokenizer by registry name; throws a usage error naming the valid ones.
std::unique_ptr<Tokenizer> make_tokenizer(std::string_view name, const TokenizerOptions& options = {});
std::vector<std::string> tokenizer_names();

// Finds the tokenizer whose `id()` ("13a-v1") or SacreBLEU name ("13a",
// "ja-mecab-0.996-IPA") equals `signature_value`; throws a usage error if none does,
// e.g. for a version this build cannot reproduce.
std::unique_ptr<Tokenizer> tokenizer_from_signature(std::string_view signature_value,
                                                    const TokenizerOptions& options = {});

// Checks that the extra fields a signature gives with its `tok:` (e.g. `dict:`, `icu:`)
// are exactly the ones `tokenizer` would print; throws a usage error naming the first
// difference (another dictionary, ICU version, ...).
void check_tokenizer_fields(const Tokenizer& tokenizer,
                            const std::vector<std::pair<std::string, std::string>>& fields);
// True for the keys tokenizers add to signatures (dict, icu).
bool is_tokenizer_field(std::string_view key);

}  // namespace evalcli
