#pragma once
// The encoder forward pass of BERT, RoBERTa, XLM-R and DistilBERT (transformers'
// BertModel/RobertaModel/DistilBertModel in eval mode): embeddings (word +
// position + token type 0, which DistilBERT has not; LayerNorm), then post-LN
// blocks of multi-head self-attention and a GELU feed-forward. Weights are float32 (float16/bfloat16 widened at load);
// every matrix product goes through BLAS (cblas_sgemm).
#include <string>
#include <vector>

#include "metrics/bertscore/model_config.hpp"
#include "metrics/bertscore/safetensors.hpp"

namespace evalcli::bertscore {

// Where a checkpoint keeps the encoder's tensors (transformers' module names):
// linear layers and norms without ".weight"/".bias", block tensors with "{}"
// for the layer's number; names may also carry the hub's `hub_prefix`.
struct TensorNames {
  std::string hub_prefix;  // "bert.", "roberta.", "distilbert."
  std::string word, position, token_type, embedding_norm;  // token_type "": none (DistilBERT)
  std::string query, key, value, attention_out, attention_norm, intermediate, output, output_norm;
};
const TensorNames& tensor_names(Architecture architecture);

// evalcli's encoder versions (the signature's `encoder:` field): v1 computes
// GELU in double through libm, v2 in float, vectorised, and sums LayerNorm's
// moments in interleaved partial sums (kernels.hpp); nothing else differs.
// Scores of v2 differ from v1's in the last digits only.
enum class EncoderVersion { v1, v2 };
inline constexpr EncoderVersion kLatestEncoder = EncoderVersion::v2;
const char* encoder_version_name(EncoderVersion version);  // "v1", "v2"

// A sentence's hidden states: rows × hidden_size floats, row-major.
struct HiddenStates {
  int rows = 0;
  int width = 0;
  std::vector<float> values;
  const float* row(int i) const { return values.data() + static_cast<std::size_t>(i) * width; }
};

class Encoder {
 public:
  // Loads the embeddings and the first `num_layers` blocks from `weights`
  // (tensor_names(), with or without the hub's prefix, norms' "gamma"/"beta"
  // or "weight"/"bias"). Throws Error(missing_resource) naming the file and a
  // missing tensor. Float32 weights are read in place: `weights` must outlive the encoder.
  Encoder(const ModelConfig& config, const SafetensorsFile& weights, int num_layers,
          EncoderVersion version = kLatestEncoder);

  // The output of block `num_layers` (0: the embeddings) for each sentence's
  // token ids, which must be shorter than max_position_embeddings and below vocab_size.
  std::vector<HiddenStates> forward(const std::vector<std::vector<int>>& sentences) const;

  int num_layers() const { return static_cast<int>(layers_.size()); }
  const ModelConfig& config() const { return config_; }
  EncoderVersion version() const { return version_; }

 private:
  struct Linear {
    FloatTensor weight;  // out × in, row-major (torch's layout)
    FloatTensor bias;
    int in = 0, out = 0;
  };
  struct Norm {
    FloatTensor gamma, beta;
  };
  struct Block {
    Linear query, key, value, attention_out, intermediate, output;
    Norm attention_norm, output_norm;
  };
  class Loader;
  // The activations of one forward pass, kept from block to block and from
  // batch to batch (per thread): a new vector per product was a new mapping
  // of rows × 3072 floats each time, its pages faulted in and zeroed (base-sized
  // BERT: 23% of the CPU on 50 pairs, 9% on 200).
  struct Scratch {
    std::vector<float> q, k, v, scores, context, y, hidden;
  };

  // x (rows × in) -> rows × out.
  static void apply_linear(const Linear& linear, const std::vector<float>& x, int rows, std::vector<float>& y);
  void layer_norm(const Norm& norm, std::vector<float>& x, int rows) const;
  void activate(std::vector<float>& x) const;
  void attention(const Block& block, const std::vector<float>& x, const std::vector<int>& starts,
                 Scratch& scratch) const;
  void run_block(const Block& block, std::vector<float>& x, const std::vector<int>& starts, Scratch& scratch) const;

  ModelConfig config_;
  EncoderVersion version_;
  FloatTensor word_embeddings_, position_embeddings_, token_type_embeddings_;
  Norm embedding_norm_;
  std::vector<Block> layers_;
};

}  // namespace evalcli::bertscore
