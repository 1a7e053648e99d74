#pragma once
// The shared text pipeline every metric uses:
//   line -> normalizers (in order) -> lowercase (optional) -> tokenizer.
#include <memory>
#include <string>
#include <vector>

#include "evalcli/text/normalizer.hpp"
#include "evalcli/tokenize/tokenizer.hpp"

namespace evalcli {

struct PipelineOptions {
  std::vector<std::string> normalizers;  // registry names, applied in order
  bool lowercase = false;
  std::string tokenizer = "13a";
  TokenizerOptions tokenizer_options;  // --jieba-hmm, --jieba-dict, ...
};

class TextPipeline {
 public:
  explicit TextPipeline(const PipelineOptions& options);
  TextPipeline(std::vector<std::unique_ptr<Normalizer>> normalizers, bool lowercase,
               std::unique_ptr<Tokenizer> tokenizer);

  // Normalized, lowercased (if asked) and tokenized: tokens joined by one space.
  std::u32string process(std::u32string_view line) const;
  // The same into `out` (content replaced; buffer reused). `line` must not view `out`.
  void process_into(std::u32string_view line, std::u32string& out) const;
  // The same with the tokens located (Tokenizer::tokenize_located_into).
  void process_into(std::u32string_view line, TokenizedText& out) const;
  // Each line processed in place, the lines read as consecutive lines of one
  // text (Tokenizer::tokenize_lines: ptb's look-ahead sees the next line),
  // followed by the raw line `following` when given (context only: a piece of
  // a longer text processes as within the whole). A line process() would
  // leave as it is is not copied.
  void process_lines(std::vector<std::u32string>& lines, const std::u32string* following = nullptr) const;
  // True when a line's result can depend on the line after it (the tokenizer's).
  bool looks_past_line_end() const { return tokenizer_->looks_past_line_end(); }
  // Normalizers and lowercasing only (metrics that tokenize on their own).
  std::u32string normalize(std::u32string_view line) const;

  const Tokenizer& tokenizer() const { return *tokenizer_; }
  bool lowercase() const { return lowercase_; }
  bool has_normalizers() const { return !normalizers_.empty(); }
  // Whether process(line) is known to return `line` as it is (so a caller may
  // skip the copy): `none` without normalizers or lowercasing, on a line that
  // is already split() joined by single spaces. False when not known.
  bool leaves_unchanged(std::u32string_view line) const;
  // Whether the pipeline is the `none` tokenizer alone: process() is
  // text::squeeze_spaces() (split()'s words joined by single spaces).
  bool squeezes_spaces_only() const { return only_squeezes_spaces_; }
  // "nfkc-v1+fullwidth-v1", or "none".
  std::string normalizer_chain_id() const;

 private:
  bool is_none_alone() const;

  std::vector<std::unique_ptr<Normalizer>> normalizers_;
  bool lowercase_;
  std::unique_ptr<Tokenizer> tokenizer_;
  bool only_squeezes_spaces_ = false;  // is_none_alone(), asked once
};

}  // namespace evalcli
