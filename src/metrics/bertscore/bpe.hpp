#pragma once
// transformers' slow RobertaTokenizer (4.29) as bert_score calls it: a space
// put before the sentence (add_prefix_space), special-token strings cut out,
// GPT-2's pre-tokenisation regex
//   's|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+
// on the rest, each piece's UTF-8 bytes mapped to GPT-2's printable byte
// characters, then byte-level BPE with merges.txt's ranks and vocab.json's ids.
#include <map>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "metrics/bertscore/special_tokens.hpp"
#include "metrics/bertscore/tokenizer.hpp"

namespace evalcli::bertscore {

struct BpeSettings {
  std::size_t model_max_length = 512;
  std::string bos = "<s>", eos = "</s>", unk = "<unk>";
  std::vector<SpecialToken> specials;  // every special token with its strip flags
};

class BpeTokenizer : public SentenceTokenizer {
 public:
  BpeTokenizer(const std::string& vocab_json, const std::string& merges_txt, BpeSettings settings);

  std::vector<int> encode(std::u32string_view sentence) const override;
  int cls_id() const override { return bos_id_; }
  int sep_id() const override { return eos_id_; }
  std::vector<std::string> files() const override { return files_; }
  std::string id() const override { return "bpe-v1"; }
  void set_files(std::vector<std::string> files) { files_ = std::move(files); }

  // The BPE tokens of a sentence (after the prefix space), before ids.
  std::vector<std::u32string> tokenize(std::u32string_view text) const;

 private:
  void bpe(const std::u32string& word, std::vector<std::u32string>& out) const;

  BpeSettings settings_;
  std::unordered_map<std::u32string, int> vocab_;
  std::map<std::pair<std::u32string, std::u32string>, int> ranks_;
  int bos_id_ = 0, eos_id_ = 2, unk_id_ = 3;
  std::vector<std::string> files_;
};

// GPT-2's pre-tokenisation of `text` (the regex above).
std::vector<std::u32string> gpt2_pretokenize(std::u32string_view text);
// GPT-2's bytes_to_unicode: each byte's printable stand-in.
char32_t gpt2_byte_char(unsigned char byte);

}  // namespace evalcli::bertscore
