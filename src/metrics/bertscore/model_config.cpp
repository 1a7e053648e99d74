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
  throw config_error(path, fmt::format("model_type \"{}\" is not supported (bert, roberta, xlm-roberta)", model_type));
}

// transformers' ACT2FN names: "gelu" is the exact erf form.
Activation activation_of(const std::string& name, const std::string& path) {
  if (name == "gelu") return Activation::gelu_erf;
  if (name == "gelu_new" || name == "gelu_pytorch_tanh") return Activation::gelu_tanh;
  if (name == "relu") return Activation::relu;
  throw config_error(path, fmt::format("hidden_act \"{}\" is not supported (gelu, gelu_new, relu)", name));
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
    c.hidden_size = size("hidden_size");
    c.num_hidden_layers = size("num_hidden_layers");
    c.num_attention_heads = size("num_attention_heads");
    c.intermediate_size = size("intermediate_size");
    c.max_position_embeddings = size("max_position_embeddings");
    c.type_vocab_size = json.value("type_vocab_size", 2);
    c.vocab_size = size("vocab_size");
    c.pad_token_id = json.value("pad_token_id", c.architecture == Architecture::bert ? 0 : 1);
    c.layer_norm_eps = json.value("layer_norm_eps", 1e-12);
    c.activation = activation_of(json.value("hidden_act", std::string("gelu")), path);
  } catch (const nlohmann::json::exception& e) {
    throw config_error(path, e.what());
  }
  if (c.hidden_size <= 0 || c.num_attention_heads <= 0 || c.hidden_size % c.num_attention_heads != 0 ||
      c.num_hidden_layers < 0 || c.intermediate_size <= 0 || c.max_position_embeddings <= 0 || c.vocab_size <= 0) {
    throw config_error(path, "hidden_size, num_attention_heads, intermediate_size or max_position_embeddings out of range");
  }
  return c;
}

}  // namespace evalcli::bertscore
