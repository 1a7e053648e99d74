#include "metrics/bertscore/model_folder.hpp"

#include <fmt/format.h>

#include <filesystem>

#include "evalcli/core/error.hpp"
#include "evalcli/core/sha256.hpp"
#include "metrics/bertscore/safetensors.hpp"

namespace evalcli::bertscore {
namespace {

namespace fs = std::filesystem;

std::string weights_path(const fs::path& folder) {
  const fs::path safetensors = folder / "model.safetensors";
  if (fs::exists(safetensors)) return safetensors.string();
  if (fs::exists(folder / "pytorch_model.bin")) {
    throw Error(ExitCode::missing_resource,
                fmt::format("{}: only pytorch_model.bin, no model.safetensors (evalcli does not read PyTorch pickles)",
                            folder.string()),
                "hint: convert it once with Python: transformers.AutoModel.from_pretrained(DIR)"
                ".save_pretrained(DIR, safe_serialization=True)");
  }
  throw Error(ExitCode::missing_resource, fmt::format("{}: no model.safetensors", folder.string()));
}

}  // namespace

ModelFolder::ModelFolder(const std::string& folder, int num_layers, EncoderVersion version) : path_(folder) {
  if (!fs::is_directory(folder)) throw Error(ExitCode::missing_resource, fmt::format("{}: not a model folder", folder));
  config_ = read_model_config((fs::path(folder) / "config.json").string());
  if (num_layers < 0) num_layers = config_.num_hidden_layers;
  if (num_layers > config_.num_hidden_layers) {
    throw usage_error(fmt::format("--num-layers {}: the model has {} layers", num_layers, config_.num_hidden_layers));
  }
  tokenizer_ = load_tokenizer(folder, config_.model_type, config_.max_position_embeddings - config_.first_position());
  weights_ = std::make_unique<SafetensorsFile>(weights_path(folder));
  weights_sha256_ = weights_->content_sha256();  // releases the pages it read: the encoder reads in only those it uses
  encoder_ = std::make_unique<Encoder>(config_, *weights_, num_layers, version);
}

ModelFolder::~ModelFolder() = default;

std::string ModelFolder::tokenizer_sha256() const {
  std::string all;
  for (const std::string& name : tokenizer_->files()) {
    all += name + '\n' + sha256_file_hex((fs::path(path_) / name).string()) + '\n';
  }
  return sha256_hex(all);
}

}  // namespace evalcli::bertscore
