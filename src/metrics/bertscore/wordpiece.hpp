#pragma once
// transformers' slow BertTokenizer (4.29): special-token strings split out
// first, then BERT's basic tokenizer (control and zero-width characters
// deleted, CJK characters and punctuation split, NFC, lower-casing and accent
// stripping as tokenizer_config.json says), then greedy longest-match WordPiece
// with "##" continuations; a word over 100 characters is [UNK].
#include <string>
#include <unordered_map>
#include <vector>

#include "metrics/bertscore/special_tokens.hpp"
#include "metrics/bertscore/tokenizer.hpp"

namespace evalcli::bertscore {

struct WordpieceSettings {
  bool do_lower_case = true;
  bool tokenize_chinese_chars = true;
  int strip_accents = -1;  // tokenizer_config's null (-1: follow do_lower_case), false (0) or true (1)
  std::size_t model_max_length = 512;
  std::string unk = "[UNK]", sep = "[SEP]", pad = "[PAD]", cls = "[CLS]", mask = "[MASK]";
  std::vector<std::string> extra_special;  // additional_special_tokens
};

class WordpieceTokenizer : public SentenceTokenizer {
 public:
  // vocab.txt: one token a line, its id the line number.
  WordpieceTokenizer(const std::string& vocab_path, WordpieceSettings settings);

  std::vector<int> encode(std::u32string_view sentence) const override;
  int cls_id() const override { return cls_id_; }
  int sep_id() const override { return sep_id_; }
  std::vector<std::string> files() const override { return files_; }
  std::string id() const override { return "wordpiece-v1"; }
  void set_files(std::vector<std::string> files) { files_ = std::move(files); }

  // The tokens of a sentence before ids and special tokens (transformers' tokenize()).
  std::vector<std::u32string> tokenize(std::u32string_view text) const;

 private:
  std::vector<std::u32string> basic_tokenize(std::u32string_view text) const;
  void wordpiece(const std::u32string& word, std::vector<std::u32string>& out) const;
  int id_of(const std::u32string& token) const;

  WordpieceSettings settings_;
  std::unordered_map<std::u32string, int> vocab_;
  std::vector<SpecialToken> specials_;
  std::u32string unk_;
  int cls_id_ = 0, sep_id_ = 0, unk_id_ = 0;
  std::vector<std::string> files_;
};

}  // namespace evalcli::bertscore
