#include "metrics/bertscore/tokenizer.hpp"

#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "evalcli/core/error.hpp"
#include "evalcli/text/utf8.hpp"
#include "metrics/bertscore/bpe.hpp"
#include "metrics/bertscore/sentencepiece.hpp"
#include "metrics/bertscore/wordpiece.hpp"

namespace evalcli::bertscore {
namespace {

namespace fs = std::filesystem;

nlohmann::json read_json_if_present(const fs::path& path) {
  std::ifstream in(path);
  if (!in) return nlohmann::json::object();
  try {
    return nlohmann::json::parse(in);
  } catch (const nlohmann::json::exception& e) {
    throw Error(ExitCode::missing_resource, fmt::format("{}: not valid JSON: {}", path.string(), e.what()));
  }
}

// A special token as tokenizer_config.json writes it: a string, or an AddedToken object.
std::string token_text(const nlohmann::json& config, const char* name, const std::string& fallback) {
  if (!config.contains(name) || config[name].is_null()) return fallback;
  const nlohmann::json& value = config[name];
  if (value.is_string()) return value.get<std::string>();
  if (value.is_object() && value.contains("content")) return value["content"].get<std::string>();
  return fallback;
}

std::size_t max_length(const nlohmann::json& config, int max_positions) {
  // Without model_max_length transformers does not truncate; the model then
  // cannot take more than its position embeddings.
  if (config.contains("model_max_length") && config["model_max_length"].is_number()) {
    const double n = config["model_max_length"].get<double>();
    if (n >= 2 && n < 1e9) return static_cast<std::size_t>(n);
  }
  return static_cast<std::size_t>(max_positions);
}

nlohmann::json tokenizer_settings(const fs::path& folder) {
  nlohmann::json config = read_json_if_present(folder / "special_tokens_map.json");
  const nlohmann::json tokenizer_config = read_json_if_present(folder / "tokenizer_config.json");
  for (const auto& [key, value] : tokenizer_config.items()) config[key] = value;
  return config;
}

std::unique_ptr<SentenceTokenizer> load_wordpiece(const fs::path& folder, const nlohmann::json& config,
                                                  int max_positions) {
  WordpieceSettings s;
  s.do_lower_case = config.value("do_lower_case", true);
  s.tokenize_chinese_chars = config.value("tokenize_chinese_chars", true);
  if (config.contains("strip_accents") && config["strip_accents"].is_boolean()) {
    s.strip_accents = config["strip_accents"].get<bool>() ? 1 : 0;
  }
  s.model_max_length = max_length(config, max_positions);
  s.unk = token_text(config, "unk_token", s.unk);
  s.sep = token_text(config, "sep_token", s.sep);
  s.pad = token_text(config, "pad_token", s.pad);
  s.cls = token_text(config, "cls_token", s.cls);
  s.mask = token_text(config, "mask_token", s.mask);
  if (config.contains("additional_special_tokens") && config["additional_special_tokens"].is_array()) {
    for (const auto& token : config["additional_special_tokens"]) {
      if (token.is_string()) s.extra_special.push_back(token.get<std::string>());
      if (token.is_object() && token.contains("content")) s.extra_special.push_back(token["content"].get<std::string>());
    }
  }
  const fs::path vocab = folder / "vocab.txt";
  if (!fs::exists(vocab)) {
    throw Error(ExitCode::missing_resource, fmt::format("{}: no vocab.txt (a BERT model's WordPiece vocabulary)", folder.string()));
  }
  auto tokenizer = std::make_unique<WordpieceTokenizer>(vocab.string(), s);
  std::vector<std::string> files = {"vocab.txt"};
  for (const char* name : {"tokenizer_config.json", "special_tokens_map.json"}) {
    if (fs::exists(folder / name)) files.emplace_back(name);
  }
  tokenizer->set_files(files);
  return tokenizer;
}

// The special tokens in all_special_tokens_extended's order, each once: a plain
// string strips the text on both sides, an AddedToken as its flags say.
std::vector<SpecialToken> special_tokens(const nlohmann::json& config) {
  std::vector<SpecialToken> out;
  const auto add = [&](const nlohmann::json& value) {
    SpecialToken token;
    if (value.is_string()) {
      token.text = utf8::decode_or_throw(value.get<std::string>(), "tokenizer_config.json");
    } else if (value.is_object() && value.contains("content")) {
      token.text = utf8::decode_or_throw(value["content"].get<std::string>(), "tokenizer_config.json");
      token.lstrip = value.value("lstrip", false);
      token.rstrip = value.value("rstrip", false);
    } else {
      return;
    }
    for (const SpecialToken& seen : out) {
      if (seen.text == token.text) return;
    }
    out.push_back(token);
  };
  for (const char* key : {"bos_token", "eos_token", "unk_token", "sep_token", "pad_token", "cls_token", "mask_token"}) {
    if (config.contains(key)) add(config[key]);
  }
  if (config.contains("additional_special_tokens") && config["additional_special_tokens"].is_array()) {
    for (const auto& token : config["additional_special_tokens"]) add(token);
  }
  return out;
}

std::vector<std::string> present(const fs::path& folder, std::vector<std::string> required,
                                 std::initializer_list<const char*> optional) {
  for (const std::string& name : required) {
    if (!fs::exists(folder / name)) {
      throw Error(ExitCode::missing_resource, fmt::format("{}: no {} (the model's tokenizer)", folder.string(), name));
    }
  }
  for (const char* name : optional) {
    if (fs::exists(folder / name)) required.emplace_back(name);
  }
  return required;
}

std::unique_ptr<SentenceTokenizer> load_bpe(const fs::path& folder, const nlohmann::json& config, int max_positions) {
  BpeSettings s;
  s.model_max_length = max_length(config, max_positions);
  s.bos = token_text(config, "bos_token", s.bos);
  s.eos = token_text(config, "eos_token", s.eos);
  s.unk = token_text(config, "unk_token", s.unk);
  s.specials = special_tokens(config);
  const auto files = present(folder, {"vocab.json", "merges.txt"}, {"tokenizer_config.json", "special_tokens_map.json"});
  auto tokenizer = std::make_unique<BpeTokenizer>((folder / "vocab.json").string(), (folder / "merges.txt").string(), s);
  tokenizer->set_files(files);
  return tokenizer;
}

std::unique_ptr<SentenceTokenizer> load_sentencepiece(const fs::path& folder, const nlohmann::json& config,
                                                     int max_positions) {
  SentencepieceSettings s;
  s.model_max_length = max_length(config, max_positions);
  s.specials = special_tokens(config);
  const auto files = present(folder, {"sentencepiece.bpe.model"}, {"tokenizer_config.json", "special_tokens_map.json"});
  auto tokenizer = std::make_unique<SentencepieceTokenizer>((folder / "sentencepiece.bpe.model").string(), s);
  tokenizer->set_files(files);
  return tokenizer;
}

}  // namespace

std::unique_ptr<SentenceTokenizer> load_tokenizer(const std::string& folder, const std::string& model_type,
                                                  int max_positions) {
  const nlohmann::json config = tokenizer_settings(folder);
  // DistilBertTokenizer is BertTokenizer's code under another name.
  if (model_type == "bert" || model_type == "distilbert") return load_wordpiece(folder, config, max_positions);
  if (model_type == "roberta") return load_bpe(folder, config, max_positions);
  if (model_type == "xlm-roberta") return load_sentencepiece(folder, config, max_positions);
  throw Error(ExitCode::missing_resource, fmt::format("{}: no tokenizer for model_type {}", folder, model_type));
}

}  // namespace evalcli::bertscore
