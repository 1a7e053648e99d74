#pragma once
// transformers' slow XLMRobertaTokenizer (4.29): special-token strings cut
// out, the rest through SentencePiece (Debian's libsentencepiece, the library
// transformers' sentencepiece module wraps); ids are fairseq's: <s> 0, <pad> 1,
// </s> 2, <unk> 3, every other piece its SentencePiece id + 1 (SentencePiece's
// own <unk>, id 0, is <unk>), <mask> after the last piece.
//
// libsentencepiece is C++: evalcli reaches it through libevalcli_spm.so
// (src/spm_shim/, a C interface), loaded by dlopen at the first XLM-R model so
// that no other command loads either library.
#include <memory>
#include <string>
#include <vector>

#include "metrics/bertscore/special_tokens.hpp"
#include "metrics/bertscore/tokenizer.hpp"

namespace evalcli::bertscore {

struct SentencepieceSettings {
  std::size_t model_max_length = 512;
  std::vector<SpecialToken> specials;  // <s>, </s>, <unk>, <pad>, <mask> with their strip flags
};

class SentencepieceTokenizer : public SentenceTokenizer {
 public:
  // Throws Error(missing_resource) when libevalcli_spm.so, libsentencepiece or the model cannot be loaded.
  SentencepieceTokenizer(const std::string& model_path, SentencepieceSettings settings);
  ~SentencepieceTokenizer() override;

  std::vector<int> encode(std::u32string_view sentence) const override;
  int cls_id() const override { return 0; }
  int sep_id() const override { return 2; }
  std::vector<std::string> files() const override { return files_; }
  std::string id() const override { return "spm-v1"; }
  void set_files(std::vector<std::string> files) { files_ = std::move(files); }

 private:
  struct Model;
  int special_id(const std::u32string& token) const;
  void append_pieces(const std::u32string& text, std::vector<int>& ids) const;

  SentencepieceSettings settings_;
  std::unique_ptr<Model> model_;
  std::vector<std::string> files_;
};

}  // namespace evalcli::bertscore
