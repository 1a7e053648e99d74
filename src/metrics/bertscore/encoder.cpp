#include "metrics/bertscore/encoder.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "evalcli/core/error.hpp"
#include "metrics/bertscore/blas.hpp"
#include "metrics/bertscore/kernels.hpp"
#include "metrics/bertscore/safetensors.hpp"

namespace evalcli::bertscore {

const char* encoder_version_name(EncoderVersion version) { return version == EncoderVersion::v1 ? "v1" : "v2"; }

const TensorNames& tensor_names(Architecture architecture) {
  static const TensorNames bert = {
      "bert.", "embeddings.word_embeddings", "embeddings.position_embeddings", "embeddings.token_type_embeddings",
      "embeddings.LayerNorm", "encoder.layer.{}.attention.self.query", "encoder.layer.{}.attention.self.key",
      "encoder.layer.{}.attention.self.value", "encoder.layer.{}.attention.output.dense",
      "encoder.layer.{}.attention.output.LayerNorm", "encoder.layer.{}.intermediate.dense",
      "encoder.layer.{}.output.dense", "encoder.layer.{}.output.LayerNorm"};
  static const TensorNames roberta = [] {
    TensorNames names = bert;
    names.hub_prefix = "roberta.";  // XLMRobertaModel's base_model_prefix too
    return names;
  }();
  // modeling_distilbert.py: Embeddings, TransformerBlock (attention.{q,k,v,out}_lin, sa_layer_norm, ffn.lin1/lin2,
  // output_layer_norm); no token types.
  static const TensorNames distilbert = {
      "distilbert.", "embeddings.word_embeddings", "embeddings.position_embeddings", "", "embeddings.LayerNorm",
      "transformer.layer.{}.attention.q_lin", "transformer.layer.{}.attention.k_lin",
      "transformer.layer.{}.attention.v_lin", "transformer.layer.{}.attention.out_lin",
      "transformer.layer.{}.sa_layer_norm", "transformer.layer.{}.ffn.lin1", "transformer.layer.{}.ffn.lin2",
      "transformer.layer.{}.output_layer_norm"};
  switch (architecture) {
    case Architecture::bert:
      return bert;
    case Architecture::roberta:
    case Architecture::xlm_roberta:
      return roberta;
    case Architecture::distilbert:
      return distilbert;
  }
  return bert;
}

// Finds a tensor under the names transformers accepts for it.
class Encoder::Loader {
 public:
  Loader(const SafetensorsFile& weights, const ModelConfig& config)
      : weights_(weights), prefix_(tensor_names(config.architecture).hub_prefix) {}

  // The first of `names` (each also with the hub's prefix) in the file.
  FloatTensor tensor(const std::vector<std::string>& names, std::size_t expected_size) const {
    for (const std::string& plain : names) {
      for (const std::string& candidate : {plain, prefix_ + plain}) {
        if (weights_.find(candidate) == nullptr) continue;
        FloatTensor values = weights_.float32_tensor(candidate);
        if (values.size() != expected_size) {
          throw Error(ExitCode::missing_resource, fmt::format("{}: tensor {} has {} values, config.json implies {}",
                                                              weights_.path(), candidate, values.size(), expected_size));
        }
        return values;
      }
    }
    throw Error(ExitCode::missing_resource,
                fmt::format("{}: no tensor {} (nor {}{})", weights_.path(), names.front(), prefix_, names.front()));
  }
  FloatTensor embedding(const std::string& name, std::size_t expected_size) const {
    return tensor({name + ".weight"}, expected_size);
  }
  Linear linear(const std::string& name, int in, int out) const {
    Linear l;
    l.in = in;
    l.out = out;
    l.weight = tensor({name + ".weight"}, static_cast<std::size_t>(in) * out);
    l.bias = tensor({name + ".bias"}, out);
    return l;
  }
  // Older checkpoints call a norm's weight and bias "gamma" and "beta" (transformers renames them at load).
  Norm norm(const std::string& name, int width) const {
    return {tensor({name + ".weight", name + ".gamma"}, width), tensor({name + ".bias", name + ".beta"}, width)};
  }

 private:
  const SafetensorsFile& weights_;
  std::string prefix_;
};

Encoder::Encoder(const ModelConfig& config, const SafetensorsFile& weights, int num_layers, EncoderVersion version)
    : config_(config), version_(version) {
  const Loader load(weights, config);
  const TensorNames& names = tensor_names(config.architecture);
  const int h = config.hidden_size;
  const std::size_t width = static_cast<std::size_t>(h);
  word_embeddings_ = load.embedding(names.word, width * config.vocab_size);
  position_embeddings_ = load.embedding(names.position, width * config.max_position_embeddings);
  // Without token types (DistilBERT) a zero row: adding it changes no value.
  token_type_embeddings_ = names.token_type.empty() ? FloatTensor(std::vector<float>(width, 0.0f))
                                                    : load.embedding(names.token_type, width * config.type_vocab_size);
  embedding_norm_ = load.norm(names.embedding_norm, h);
  for (int l = 0; l < num_layers; ++l) {
    const auto at = [l](const std::string& pattern) { return fmt::format(fmt::runtime(pattern), l); };
    Block b;
    b.query = load.linear(at(names.query), h, h);
    b.key = load.linear(at(names.key), h, h);
    b.value = load.linear(at(names.value), h, h);
    b.attention_out = load.linear(at(names.attention_out), h, h);
    b.attention_norm = load.norm(at(names.attention_norm), h);
    b.intermediate = load.linear(at(names.intermediate), h, config.intermediate_size);
    b.output = load.linear(at(names.output), config.intermediate_size, h);
    b.output_norm = load.norm(at(names.output_norm), h);
    layers_.push_back(std::move(b));
  }
}

void Encoder::apply_linear(const Linear& linear, const std::vector<float>& x, int rows, std::vector<float>& y) {
  y.resize(static_cast<std::size_t>(rows) * linear.out);
  for (int r = 0; r < rows; ++r) std::copy(linear.bias.begin(), linear.bias.end(), y.begin() + static_cast<std::size_t>(r) * linear.out);
  sgemm(CblasNoTrans, CblasTrans, rows, linear.out, linear.in, 1.0f, x.data(), linear.in,
              linear.weight.data(), linear.in, 1.0f, y.data(), linear.out);
}

// Mean and variance in double: the float32 rounding of torch's own kernel is
// not reproduced, only its result to float precision.
void Encoder::layer_norm(const Norm& norm, std::vector<float>& x, int rows) const {
  const int h = config_.hidden_size;
  const std::span<float> all(x.data(), static_cast<std::size_t>(rows) * h);
  const LayerNormWeights weights{norm.gamma, norm.beta, config_.layer_norm_eps};
  if (version_ == EncoderVersion::v1) {
    layer_norm_v1(all, h, weights);
  } else {
    layer_norm_v2(all, h, weights);
  }
}

void Encoder::activate(std::vector<float>& x) const {
  switch (config_.activation) {
    case Activation::gelu_erf:
      if (version_ == EncoderVersion::v1) {
        gelu_erf_v1(x);
      } else {
        gelu_erf_v2(x);
      }
      break;
    case Activation::gelu_tanh: {
      const double c = std::sqrt(2.0 / M_PI);
      for (float& v : x) v = static_cast<float>(0.5 * v * (1.0 + std::tanh(c * (v + 0.044715 * v * v * v))));
      break;
    }
    case Activation::relu:
      for (float& v : x) v = std::max(v, 0.0f);
      break;
  }
}

// Self-attention of each sentence (rows starts[s]..starts[s+1]) on its own:
// sentences are packed without padding, so no mask is needed.
void Encoder::attention(const Block& block, const std::vector<float>& x, const std::vector<int>& starts,
                        Scratch& scratch) const {
  const int h = config_.hidden_size, heads = config_.num_attention_heads, dh = h / heads;
  const int rows = starts.back();
  std::vector<float>&q = scratch.q, &k = scratch.k, &v = scratch.v, &scores = scratch.scores;
  apply_linear(block.query, x, rows, q);
  apply_linear(block.key, x, rows, k);
  apply_linear(block.value, x, rows, v);
  // Every element is written below (each sentence's rows, each head's columns; beta 0).
  scratch.context.resize(static_cast<std::size_t>(rows) * h);
  const float scale = 1.0f / std::sqrt(static_cast<float>(dh));
  for (std::size_t s = 0; s + 1 < starts.size(); ++s) {
    const int t = starts[s + 1] - starts[s];
    const std::size_t base = static_cast<std::size_t>(starts[s]) * h;
    scores.resize(static_cast<std::size_t>(t) * t);
    for (int head = 0; head < heads; ++head) {
      const std::size_t off = base + static_cast<std::size_t>(head) * dh;
      sgemm(CblasNoTrans, CblasTrans, t, t, dh, scale, q.data() + off, h, k.data() + off, h,
                  0.0f, scores.data(), t);
      if (version_ == EncoderVersion::v1) {
        softmax_rows_v1(scores, t);
      } else {
        softmax_rows_v2(scores, t);
      }
      sgemm(CblasNoTrans, CblasNoTrans, t, dh, t, 1.0f, scores.data(), t, v.data() + off, h,
                  0.0f, scratch.context.data() + off, h);
    }
  }
}

void Encoder::run_block(const Block& block, std::vector<float>& x, const std::vector<int>& starts,
                        Scratch& scratch) const {
  const int rows = starts.back();
  std::vector<float>&y = scratch.y, &hidden = scratch.hidden;
  attention(block, x, starts, scratch);
  apply_linear(block.attention_out, scratch.context, rows, y);
  for (std::size_t i = 0; i < y.size(); ++i) y[i] += x[i];
  layer_norm(block.attention_norm, y, rows);
  apply_linear(block.intermediate, y, rows, hidden);
  activate(hidden);
  apply_linear(block.output, hidden, rows, x);
  for (std::size_t i = 0; i < x.size(); ++i) x[i] += y[i];
  layer_norm(block.output_norm, x, rows);
}

std::vector<HiddenStates> Encoder::forward(const std::vector<std::vector<int>>& sentences) const {
  const int h = config_.hidden_size;
  std::vector<int> starts = {0};
  for (const auto& ids : sentences) starts.push_back(starts.back() + static_cast<int>(ids.size()));
  const int rows = starts.back();
  std::vector<float> x(static_cast<std::size_t>(rows) * h);
  for (std::size_t s = 0; s < sentences.size(); ++s) {
    for (std::size_t i = 0; i < sentences[s].size(); ++i) {
      const int id = sentences[s][i];
      const int position = config_.first_position() + static_cast<int>(i);
      if (id < 0 || id >= config_.vocab_size || position >= config_.max_position_embeddings) {
        throw Error(ExitCode::internal, fmt::format("token id {} at position {} outside the model", id, position));
      }
      float* out = x.data() + (static_cast<std::size_t>(starts[s]) + i) * h;
      const float* word = word_embeddings_.data() + static_cast<std::size_t>(id) * h;
      const float* pos = position_embeddings_.data() + static_cast<std::size_t>(position) * h;
      for (int j = 0; j < h; ++j) out[j] = word[j] + pos[j] + token_type_embeddings_[j];
    }
  }
  layer_norm(embedding_norm_, x, rows);
  thread_local Scratch scratch;
  for (const Block& block : layers_) run_block(block, x, starts, scratch);
  std::vector<HiddenStates> out(sentences.size());
  for (std::size_t s = 0; s < sentences.size(); ++s) {
    const int t = starts[s + 1] - starts[s];
    out[s].rows = t;
    out[s].width = h;
    out[s].values.assign(x.begin() + static_cast<std::size_t>(starts[s]) * h, x.begin() + static_cast<std::size_t>(starts[s + 1]) * h);
  }
  return out;
}

}  // namespace evalcli::bertscore
