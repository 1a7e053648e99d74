#include "evalcli/tokenize/pipeline.hpp"

#include <optional>

#include "evalcli/text/unicode.hpp"

namespace evalcli {

TextPipeline::TextPipeline(const PipelineOptions& options)
    : lowercase_(options.lowercase), tokenizer_(make_tokenizer(options.tokenizer, options.tokenizer_options)) {
  for (const auto& name : options.normalizers) normalizers_.push_back(make_normalizer(name));
  only_squeezes_spaces_ = squeezes_spaces_only();
}

TextPipeline::TextPipeline(std::vector<std::unique_ptr<Normalizer>> normalizers, bool lowercase,
                           std::unique_ptr<Tokenizer> tokenizer)
    : normalizers_(std::move(normalizers)), lowercase_(lowercase), tokenizer_(std::move(tokenizer)) {
  only_squeezes_spaces_ = squeezes_spaces_only();
}

bool TextPipeline::squeezes_spaces_only() const {
  return normalizers_.empty() && !lowercase_ && tokenizer_->name() == "none";
}

std::u32string TextPipeline::normalize(std::u32string_view line) const {
  std::u32string text(line);
  for (const auto& normalizer : normalizers_) text = normalizer->apply(text);
  if (lowercase_) text = text::lower(text);
  return text;
}

std::u32string TextPipeline::process(std::u32string_view line) const {
  if (normalizers_.empty() && !lowercase_) return tokenizer_->tokenize(line);
  return tokenizer_->tokenize(normalize(line));
}

void TextPipeline::process_into(std::u32string_view line, std::u32string& out) const {
  if (normalizers_.empty() && !lowercase_) {
    tokenizer_->tokenize_into(line, out);
  } else {
    tokenizer_->tokenize_into(normalize(line), out);
  }
}

namespace {

// Whether `line` is split() joined by single spaces, code point by code point
// (any line).
bool single_spaced_exactly(std::u32string_view line) {
  for (std::size_t i = 0; i < line.size(); ++i) {
    if (!text::is_space(line[i])) continue;
    if (line[i] != U' ' || i == 0 || i + 1 == line.size() || text::is_space(line[i + 1])) return false;
  }
  return true;
}

// The same for an ASCII line, without a branch per character (the loops
// vectorize): no ASCII space but U+0020, no U+0020 at either end or next to
// another. nullopt when the line is not ASCII.
std::optional<bool> single_spaced_ascii(std::u32string_view line) {
  const std::size_t n = line.size();
  if (n == 0) return true;
  bool non_ascii = false, other_space = false, double_space = false;
  for (const char32_t c : line) {
    non_ascii |= c >= 0x80;
    other_space |= (c - 0x09u <= 0x0Du - 0x09u) | (c - 0x1Cu <= 0x1Fu - 0x1Cu);  // \t..\r, FS..US
  }
  if (non_ascii) return std::nullopt;
  for (std::size_t i = 0; i + 1 < n; ++i) double_space |= (line[i] == U' ') & (line[i + 1] == U' ');
  return !other_space && !double_space && line.front() != U' ' && line.back() != U' ';
}

}  // namespace

bool TextPipeline::leaves_unchanged(std::u32string_view line) const {
  if (!only_squeezes_spaces_) return false;
  // `none` is squeeze_spaces(): unchanged when only single U+0020 separate words.
  const std::optional<bool> ascii = single_spaced_ascii(line);
  return ascii ? *ascii : single_spaced_exactly(line);
}

std::string TextPipeline::normalizer_chain_id() const {
  if (normalizers_.empty()) return "none";
  std::string chain;
  for (const auto& normalizer : normalizers_) {
    if (!chain.empty()) chain += '+';
    chain += normalizer->id();
  }
  return chain;
}

}  // namespace evalcli
