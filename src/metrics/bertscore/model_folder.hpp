#pragma once
// A Hugging Face model folder as evalcli bertscore reads it: config.json, the
// tokenizer's files and model.safetensors (never downloaded, never converted).
#include <memory>
#include <string>

#include "metrics/bertscore/encoder.hpp"
#include "metrics/bertscore/model_config.hpp"
#include "metrics/bertscore/tokenizer.hpp"

namespace evalcli::bertscore {

class ModelFolder {
 public:
  // Loads the folder with the first `num_layers` blocks of its encoder
  // (-1: all), run as encoder `version`. Errors are Error(missing_resource)
  // naming the file; a folder with pytorch_model.bin alone is told how to convert it.
  ModelFolder(const std::string& folder, int num_layers, EncoderVersion version = kLatestEncoder);
  ~ModelFolder();

  const ModelConfig& config() const { return config_; }
  const Encoder& encoder() const { return *encoder_; }
  const SentenceTokenizer& tokenizer() const { return *tokenizer_; }
  const std::string& path() const { return path_; }
  // sha256 of model.safetensors, and of the tokenizer's files (their names and bytes, in order).
  const std::string& weights_sha256() const { return weights_sha256_; }
  std::string tokenizer_sha256() const;

 private:
  std::string path_;
  std::string weights_sha256_;
  ModelConfig config_;
  std::unique_ptr<SafetensorsFile> weights_;  // before encoder_, which reads its float32 tensors in place
  std::unique_ptr<Encoder> encoder_;
  std::unique_ptr<SentenceTokenizer> tokenizer_;
};

}  // namespace evalcli::bertscore
