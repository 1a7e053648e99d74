#pragma once
// What the encoder needs of a Hugging Face config.json.
#include <string>

namespace evalcli::bertscore {

enum class Architecture { bert, roberta, xlm_roberta, distilbert };
enum class Activation { gelu_erf, gelu_tanh, relu };

struct ModelConfig {
  Architecture architecture = Architecture::bert;
  std::string model_type;  // as config.json names it: "bert", "roberta", "xlm-roberta", "distilbert"
  int hidden_size = 0;
  int num_hidden_layers = 0;
  int num_attention_heads = 0;
  int intermediate_size = 0;
  int max_position_embeddings = 0;
  int type_vocab_size = 0;  // 0: no token-type embeddings (DistilBERT)
  int vocab_size = 0;
  int pad_token_id = 0;
  double layer_norm_eps = 1e-12;
  Activation activation = Activation::gelu_erf;

  // RoBERTa and XLM-R number positions from pad_token_id + 1 (transformers'
  // create_position_ids_from_input_ids), BERT and DistilBERT from 0.
  int first_position() const {
    return architecture == Architecture::bert || architecture == Architecture::distilbert ? 0 : pad_token_id + 1;
  }
};

// Reads `path`; throws Error(missing_resource) naming the file and the field
// when it is unreadable, misses a field or names an architecture or
// activation evalcli does not implement.
ModelConfig read_model_config(const std::string& path);

}  // namespace evalcli::bertscore
