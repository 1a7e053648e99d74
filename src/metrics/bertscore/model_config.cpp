#include "metrics/bertscore/model_config.hpp"

#include <fmt/format.h>

#include <climits>
#include <cstdint>

#include <fstream>
#include <nlohmann/json.hpp>

#include "evalcli/core/error.hpp"

namespace evalcli::bertscore {
namespace {

Error config_error(const std::string& path, const std::string& what) {
  return Error(ExitCode::missing_resource, fmt::format("{}: {}", path, what));
}

Architecture architecture_of(const std::string& model_type, const std::string& path) {
  if (model_type == "bert") return Architecture::bert;
  if (model_type == "roberta") return Architecture::roberta;
  if (model_type == "xlm-roberta") return Architecture::xlm_roberta;
  if (model_type == "distilbert") return Architecture::distilbert;
  throw config_error(path,
                     fmt::format("model_type \"{}\" is not supported (bert, roberta, xlm-roberta, distilbert)", model_type));
}

// config.json's names of the sizes: DistilBertConfig keeps its own (dim, n_layers, ...).
struct SizeKeys {
  const char *hidden, *layers, *heads, *intermediate, *activation;
};
constexpr SizeKeys kBertKeys = {"hidden_size", "num_hidden_layers", "num_attention_heads", "intermediate_size", "hidden_act"};
constexpr SizeKeys kDistilbertKeys = {"dim", "n_layers", "n_heads", "hidden_dim", "activation"};

// transformers' ACT2FN names: "gelu" is the exact erf form.
Activation activation_of(const std::string& name, const char* key, const std::string& path) {
  if (name == "gelu") return Activation::gelu_erf;
  if (name == "gelu_new" || name == "gelu_pytorch_tanh") return Activation::gelu_tanh;
  if (name == "relu") return Activation::relu;
  throw config_error(path, fmt::format("{} \"{}\" is not supported (gelu, gelu_new, relu)", key, name));
}

}  // namespace

ModelConfig read_model_config(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw config_error(path, "cannot read the model's config.json");
  nlohmann::json json;
  try {
    json = nlohmann::json::parse(in);
  } catch (const nlohmann::json::exception& e) {
    throw config_error(path, fmt::format("not valid JSON: {}", e.what()));
  }
  ModelConfig c;
  const auto field = [&](const char* name) -> const nlohmann::json& {
    if (!json.contains(name)) throw config_error(path, fmt::format("no field \"{}\"", name));
    return json[name];
  };
  // A size of the model: a JSON whole number (get<int>() would convert 1e300 or -1 unchecked).
  const auto size = [&](const char* name) -> int {
    const nlohmann::json& value = field(name);
    if (!value.is_number_unsigned() || value.get<std::uint64_t>() > static_cast<std::uint64_t>(INT_MAX)) {
      throw config_error(path, fmt::format("\"{}\" must be a whole number from 0 to {}", name, INT_MAX));
    }
    return static_cast<int>(value.get<std::uint64_t>());
  };
  try {
    c.model_type = field("model_type").get<std::string>();
    c.architecture = architecture_of(c.model_type, path);
    const bool distilbert = c.architecture == Architecture::distilbert;
    const SizeKeys& keys = distilbert ? kDistilbertKeys : kBertKeys;
    c.hidden_size = size(keys.hidden);
    c.num_hidden_layers = size(keys.layers);
    c.num_attention_heads = size(keys.heads);
    c.intermediate_size = size(keys.intermediate);
    c.max_position_embeddings = size("max_position_embeddings");
    c.type_vocab_size = distilbert ? 0 : json.value("type_vocab_size", 2);
    c.vocab_size = size("vocab_size");
    const bool roberta = c.architecture == Architecture::roberta || c.architecture == Architecture::xlm_roberta;
    c.pad_token_id = json.value("pad_token_id", roberta ? 1 : 0);
    // transformers' DistilBERT builds its LayerNorms with eps=1e-12 whatever config.json says.
    c.layer_norm_eps = distilbert ? 1e-12 : json.value("layer_norm_eps", 1e-12);
    c.activation = activation_of(json.value(keys.activation, std::string("gelu")), keys.activation, path);
  } catch (const nlohmann::json::exception& e) {
    throw config_error(path, e.what());
  }
  if (c.hidden_size <= 0 || c.num_attention_heads <= 0 || c.hidden_size % c.num_attention_heads != 0 ||
      c.num_hidden_layers < 0 || c.intermediate_size <= 0 || c.max_position_embeddings <= 0 || c.vocab_size <= 0) {
    throw config_error(path, "hidden_size, num_attention_heads, intermediate_size (DistilBERT: dim, n_heads, hidden_dim) or "
                             "max_position_embeddings out of range");
  }
  return c;
}

}  // namespace evalcli::bertscore
