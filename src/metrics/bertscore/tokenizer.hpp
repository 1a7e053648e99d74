#pragma once
// What bert_score needs of a tokenizer (its sent_encode): a sentence's token
// ids with the model's special tokens around them, truncated to the
// tokenizer's model_max_length, and which ids are those special tokens.
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace evalcli::bertscore {

class SentenceTokenizer {
 public:
  virtual ~SentenceTokenizer() = default;
  // bert_score's sent_encode: the stripped sentence's ids with [CLS]/[SEP]
  // (<s>/</s>); an empty sentence is the two special tokens alone.
  virtual std::vector<int> encode(std::u32string_view sentence) const = 0;
  // The ids bert_score weighs 0 ([CLS] and [SEP], or <s> and </s>).
  virtual int cls_id() const = 0;
  virtual int sep_id() const = 0;
  // The files this tokenizer reads, in the folder (named in the signature by hash).
  virtual std::vector<std::string> files() const = 0;
  // "wordpiece-v1", "bpe-v1", "spm-v1": changes whenever its ids could change.
  virtual std::string id() const = 0;
};

// The tokenizer of a Hugging Face model folder, chosen by its files and
// tokenizer_config.json; throws Error(missing_resource) when a file is missing.
std::unique_ptr<SentenceTokenizer> load_tokenizer(const std::string& folder, const std::string& model_type,
                                                  int max_positions);

}  // namespace evalcli::bertscore
