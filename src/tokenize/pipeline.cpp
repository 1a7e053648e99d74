#include "evalcli/tokenize/pipeline.hpp"

#include "evalcli/text/unicode.hpp"

namespace evalcli {

TextPipeline::TextPipeline(const PipelineOptions& options)
    : lowercase_(options.lowercase), tokenizer_(make_tokenizer(options.tokenizer, options.tokenizer_options)) {
  for (const auto& name : options.normalizers) normalizers_.push_back(make_normalizer(name));
  only_squeezes_spaces_ = is_none_alone();
}

TextPipeline::TextPipeline(std::vector<std::unique_ptr<Normalizer>> normalizers, bool lowercase,
                           std::unique_ptr<Tokenizer> tokenizer)
    : normalizers_(std::move(normalizers)), lowercase_(lowercase), tokenizer_(std::move(tokenizer)) {
  only_squeezes_spaces_ = is_none_alone();
}

bool TextPipeline::is_none_alone() const {
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

void TextPipeline::process_into(std::u32string_view line, TokenizedText& out) const {
  if (normalizers_.empty() && !lowercase_) {
    tokenizer_->tokenize_located_into(line, out);
  } else {
    tokenizer_->tokenize_located_into(normalize(line), out);
  }
}

void TextPipeline::process_lines(std::vector<std::u32string>& lines, const std::u32string* following) const {
  if (only_squeezes_spaces_) {  // pre-tokenized text is mostly left as it is: not copied
    for (auto& line : lines) {
      if (!leaves_unchanged(line)) line = process(line);
    }
    return;
  }
  if (!normalizers_.empty() || lowercase_) {
    for (auto& line : lines) line = normalize(line);
    if (following && tokenizer_->looks_past_line_end()) {
      const std::u32string normalized_following = normalize(*following);
      tokenizer_->tokenize_lines(lines, &normalized_following);
      return;
    }
  }
  tokenizer_->tokenize_lines(lines, following);
}

bool TextPipeline::leaves_unchanged(std::u32string_view line) const {
  if (!only_squeezes_spaces_) return false;
  // `none` is squeeze_spaces(): unchanged when only single U+0020 separate words.
  for (std::size_t i = 0; i < line.size(); ++i) {
    if (!text::is_space(line[i])) continue;
    if (line[i] != U' ' || i == 0 || i + 1 == line.size() || text::is_space(line[i + 1])) return false;
  }
  return true;
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
