// evalcli bertscore: the scorer over a model folder, the statistics model of
// its rows [P, R, F, 1], and the metric's definition (options and signature).
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "evalcli/core/error.hpp"
#include "evalcli/core/sha256.hpp"
#include "evalcli/core/signature.hpp"
#include "evalcli/metrics/bertscore.hpp"
#include "metrics/bertscore/model_folder.hpp"
#include "metrics/bertscore/scorer.hpp"

namespace evalcli {
namespace {

std::string short_sha256(const std::string& hex) { return "sha256." + hex.substr(0, 16); }

std::string folder_name(const std::string& path) {
  std::filesystem::path p(path);
  if (p.filename().empty()) p = p.parent_path();  // "models/roberta-large/"
  return p.filename().string();
}

// bert_score's model2layers entries for the architectures evalcli runs
// (BERT with WordPiece, RoBERTa, XLM-R, DistilBERT).
constexpr std::pair<std::string_view, int> kDefaultLayers[] = {
    {"bert-base-uncased", 9},       {"bert-large-uncased", 18},       {"bert-base-cased-finetuned-mrpc", 9},
    {"bert-base-multilingual-cased", 9}, {"bert-base-chinese", 8},    {"roberta-base", 10},
    {"roberta-large", 17},          {"roberta-large-mnli", 19},       {"roberta-base-openai-detector", 7},
    {"roberta-large-openai-detector", 15}, {"xlm-roberta-base", 9},   {"xlm-roberta-large", 17},
    {"allenai/scibert_scivocab_uncased", 8}, {"allenai/scibert_scivocab_cased", 9},
    {"nfliu/scibert_basevocab_uncased", 9}, {"distilroberta-base", 5},  {"distilbert-base-uncased", 5},
    {"distilbert-base-uncased-distilled-squad", 4}, {"distilbert-base-multilingual-cased", 5},
    {"dbmdz/distilbert-base-turkish-cased", 4},
};

// "allenai/scibert_scivocab_uncased" -> "scibert_scivocab_uncased": a folder
// holds one model, named without the hub's organisation.
std::string_view last_component(std::string_view name) {
  const std::size_t slash = name.rfind('/');
  return slash == std::string_view::npos ? name : name.substr(slash + 1);
}

// The names a model folder goes by, to find it in bert_score's tables: its
// own name; the model's of a Hugging Face cache snapshot
// (models--google-bert--bert-base-chinese/snapshots/<commit>); config.json's
// _name_or_path (save_pretrained writes where the model came from).
std::vector<std::string> folder_model_names(const std::string& dir) {
  namespace fs = std::filesystem;
  std::vector<std::string> names = {folder_name(dir)};
  fs::path path(dir);
  if (path.filename().empty()) path = path.parent_path();
  const std::string repo = path.parent_path().parent_path().filename().string();
  if (path.parent_path().filename() == "snapshots" && repo.rfind("models--", 0) == 0) {
    names.push_back(std::string(last_component(repo.substr(repo.rfind("--") + 2))));
  }
  std::ifstream config(path / "config.json");
  const nlohmann::json json = nlohmann::json::parse(config, nullptr, false);  // errors are the loader's, later
  if (json.is_object() && json.contains("_name_or_path") && json["_name_or_path"].is_string()) {
    const std::string origin = json["_name_or_path"];
    if (!origin.empty()) names.push_back(fs::path(origin).filename().empty() ? fs::path(origin).parent_path().filename().string()
                                                                             : fs::path(origin).filename().string());
  }
  return names;
}

// The first of the folder's names bert_score has a default layer for, or "".
std::string known_model(const std::vector<std::string>& names) {
  for (const std::string& name : names) {
    if (bert_score_default_layers(name) >= 0) return name;
  }
  return "";
}

bool goes_by(const std::vector<std::string>& names, std::string_view model) {
  return std::find(names.begin(), names.end(), last_component(model)) != names.end();
}

// The layer of a run, and the language whose model the folder is (bert_score's
// score(lang=L) without model_type: the hash names that model), or "".
struct ModelChoice {
  int layer = -1;
  std::string lang;
};

ModelChoice choose_model(const BertScoreOptions& options, std::vector<std::string>& notes) {
  const std::vector<std::string> names = folder_model_names(options.model_dir);
  const std::string folder = folder_name(options.model_dir);
  if (!options.lang.empty()) {
    const std::string lang_model = bert_score_lang_model(options.lang);
    if (goes_by(names, lang_model)) {
      const int layer = options.num_layers >= 0 ? options.num_layers : bert_score_default_layers(lang_model);
      if (layer < 0) {
        throw usage_error(fmt::format("--lang {}: bert_score has no default layer for its model {}: give --num-layers",
                                      options.lang, lang_model));
      }
      return {layer, options.lang};
    }
    const int own = bert_score_default_layers(known_model(names));
    if (options.num_layers < 0 && own < 0) {
      throw usage_error(fmt::format(
          "--lang {}: bert_score's model for {} is {} (layer {}), and the folder \"{}\" is not recognised as it (by its "
          "name, its Hugging Face cache name or config.json's _name_or_path): give --num-layers for this folder, or "
          "--model a {} folder",
          options.lang, options.lang, lang_model, bert_score_default_layers(lang_model), folder, last_component(lang_model)));
    }
    notes.push_back(fmt::format("note: --lang {} changes nothing here: the folder is not {} (bert_score's model for {}), "
                                "so it is scored as bert_score's model_type=<folder>",
                                options.lang, lang_model, options.lang));
  }
  if (options.num_layers >= 0) return {options.num_layers, ""};
  const std::string known = known_model(names);
  if (known.empty()) {
    throw usage_error(fmt::format("--num-layers is required: bert_score has no default layer for a model named \"{}\"", folder));
  }
  return {bert_score_default_layers(known), ""};
}

bertscore::EncoderVersion encoder_version(const std::string& name) {
  if (name == "v1") return bertscore::EncoderVersion::v1;
  if (name == "v2") return bertscore::EncoderVersion::v2;
  throw usage_error(fmt::format("--encoder {}: evalcli's encoder versions are v1 and v2", name));
}

// bert_score lower-cases lang; it becomes a signature field, so only letters,
// digits, '-' and '_' ("en-sci").
std::string checked_lang(std::string lang) {
  for (char& c : lang) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_') {
      throw usage_error(fmt::format("--lang {}: a language code has letters, digits, '-' and '_' only", lang));
    }
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  return lang;
}

}  // namespace

int bert_score_default_layers(std::string_view model_name) {
  for (const auto& [name, layers] : kDefaultLayers) {
    if (name == model_name || last_component(name) == model_name) return layers;
  }
  return -1;
}

std::string bert_score_lang_model(std::string_view lang) {
  if (lang == "en") return "roberta-large";
  if (lang == "zh") return "bert-base-chinese";
  if (lang == "tr") return "dbmdz/bert-base-turkish-cased";
  if (lang == "en-sci") return "allenai/scibert_scivocab_uncased";
  return "bert-base-multilingual-cased";
}

std::string bert_score_hash(const BertScoreIdentity& identity) {
  // With lang, bert_score loads its model for the language by name and prints that name.
  const std::string model = identity.lang.empty() ? identity.model_name : bert_score_lang_model(identity.lang);
  std::string hash = fmt::format("{}_L{}_{}_version=0.3.12(hug_trans=4.29.2)", model, identity.layer,
                                 identity.idf ? "idf" : "no-idf");
  if (identity.rescale != "no") hash += "-custom-rescaled";
  return hash;
}

// ---------------------------------------------------------------- scorer

BertScoreScorer::BertScoreScorer(const BertScoreOptions& options) : options_(options) {
  options_.lang = checked_lang(options.lang);
  const ModelChoice choice = choose_model(options_, notes_);
  const int layers = choice.layer;
  folder_ = std::make_unique<bertscore::ModelFolder>(options.model_dir, layers, encoder_version(options.encoder));
  identity_.model_type = folder_->config().model_type;
  identity_.model_name = folder_name(options.model_dir);
  identity_.weights = short_sha256(folder_->weights_sha256());
  identity_.tokenizer = folder_->tokenizer().id() + "." + short_sha256(folder_->tokenizer_sha256());
  identity_.layer = layers;
  identity_.lang = choice.lang;
  identity_.idf = options.idf;
  identity_.batch_size = options.batch_size;
  identity_.encoder = options.encoder;
  if (!options.baseline_path.empty()) {
    baseline_ = bertscore::read_baseline(options.baseline_path, layers);
    identity_.rescale = short_sha256(sha256_file_hex(options.baseline_path));
  }
}

BertScoreScorer::~BertScoreScorer() = default;

std::vector<int> BertScoreScorer::encode(std::u32string_view sentence) const { return folder_->tokenizer().encode(sentence); }

std::vector<BertScorePrf> BertScoreScorer::score(const std::vector<std::vector<int>>& cands,
                                                 const std::vector<std::vector<std::vector<int>>>& refs,
                                                 std::vector<std::string>& warnings) const {
  // bert_score's order: each candidate repeated once per reference, its references in order.
  std::vector<bertscore::TokenIds> flat_cands, flat_refs;
  std::vector<std::size_t> group_sizes;
  for (std::size_t i = 0; i < cands.size(); ++i) {
    for (const auto& ref : refs.at(i)) {
      flat_cands.push_back(cands[i]);
      flat_refs.push_back(ref);
    }
    group_sizes.push_back(refs[i].size());
  }
  const bertscore::SentenceTokenizer& tokenizer = folder_->tokenizer();
  const bertscore::TokenWeights weights = options_.idf
                                              ? bertscore::TokenWeights(flat_refs, tokenizer.cls_id(), tokenizer.sep_id())
                                              : bertscore::TokenWeights(tokenizer.cls_id(), tokenizer.sep_id());
  bertscore::ScoringOptions scoring;
  scoring.batch_size = options_.batch_size;
  if (!options_.baseline_path.empty()) scoring.baseline = baseline_;
  bertscore::ScoringNotes notes;
  auto rows = bertscore::score_pairs(folder_->encoder(), flat_cands, flat_refs, weights, scoring, group_sizes, notes);
  if (notes.empty_candidate) warnings.emplace_back("Warning: Empty candidate sentence detected; setting raw BERTscores to 0.");
  if (notes.empty_reference) warnings.emplace_back("Warning: Empty reference sentence detected; setting raw BERTScores to 0.");
  return rows;
}

// ---------------------------------------------------------------- statistics model

StatDomain BertScore::stat_domain() const {
  return {{StatKind::real, StatKind::real, StatKind::real, StatKind::count}, {}};
}

double BertScore::score(std::span<const Stat> stats) const { return stats[3] == 0 ? 0.0 : stats[2] / stats[3]; }

std::string BertScore::signature() const { return print_signature(bertscore_definition(), *this); }

nlohmann::json BertScore::details(std::span<const Stat> stats) const {
  const double n = stats[3];
  return {{"P", n == 0 ? 0.0 : stats[0] / n},
          {"R", n == 0 ? 0.0 : stats[1] / n},
          {"F", n == 0 ? 0.0 : stats[2] / n},
          {"bert_score_hash", bert_score_hash(identity_)}};
}

std::unique_ptr<StatsModel> BertScore::score_component(std::size_t k) const {
  static constexpr std::size_t kColumn[] = {2, 0, 1};  // F, P, R
  const std::size_t column = kColumn[k];
  return std::make_unique<ComponentModel>(*this, score_components().at(k), [column](std::span<const Stat> stats) {
    return stats[3] == 0 ? 0.0 : stats[column] / stats[3];
  });
}

// ---------------------------------------------------------------- definition

namespace {

// Signature fields that name what was loaded, kept as hidden values so that
// a statistics model rebuilt from a signature prints them back.
struct IdentityField {
  const char* key;
  const char* hidden;  // the value's name in OptionValues
  std::string BertScoreIdentity::*member;
};
const IdentityField kIdentityFields[] = {
    {"type", "signature-type", &BertScoreIdentity::model_type},
    {"model", "signature-model", &BertScoreIdentity::model_name},
    {"weights", "signature-weights", &BertScoreIdentity::weights},
    {"tok", "signature-tok", &BertScoreIdentity::tokenizer},
    {"rescale", "signature-rescale", &BertScoreIdentity::rescale},
};

// A printer of one identity value.
template <class Get>
FieldPrinter identity_printer(Get get) {
  return field_printer<BertScore>([get](const BertScore& b) { return get(b.identity()); });
}

// idf weights come from all references of a run: rows of shards scored
// separately used different weights, so they are not parts of one run.
std::string bertscore_shard_problem(const std::string& signature) {
  if (find_field(parse_signature(signature), "idf").value_or("no") != "yes") return "";
  return "BERTScore shards scored with idf:yes weigh tokens by the idf of their own references and cannot be merged: "
         "score the whole test set in one run";
}

std::unique_ptr<StatsModel> build_bertscore(const OptionValues& values, const BuildContext&) {
  if (!values.from_signature()) throw usage_error("bertscore is scored by its own command (evalcli bertscore --model DIR ...)");
  BertScoreIdentity identity;
  identity.model_type = values.text("signature-type");
  identity.model_name = values.text("signature-model");
  identity.weights = values.text("signature-weights");
  identity.tokenizer = values.text("signature-tok");
  identity.rescale = values.text("signature-rescale", "no");
  identity.encoder = values.text("encoder", "v2");
  identity.layer = values.integer("num-layers", 0);
  identity.lang = checked_lang(values.text("lang"));
  identity.idf = values.flag("idf");
  identity.batch_size = static_cast<std::size_t>(values.integer("batch-size", 64));
  return std::make_unique<BertScore>(identity);
}

MetricDefinition make_bertscore_definition() {
  MetricDefinition d;
  d.command = "bertscore";
  d.summary = "BERTScore (bert_score 0.3.13) from a local BERT/RoBERTa/XLM-R/DistilBERT model folder";
  d.names = {"BERTScore"};
  d.default_width = 4;
  d.score_scale = 1;
  d.options = {
      {.name = "model", .help = "Hugging Face model folder (config.json, tokenizer files, model.safetensors)",
       .role = OptionRole::resource},
      {.name = "num-layers", .kind = OptionKind::integer,
       .help = "use the output of this layer (0: embeddings); default bert_score's for the folder's name",
       .min = 0, .max = 1000, .signature_key = "layer",
       .print = identity_printer([](const BertScoreIdentity& i) { return std::to_string(i.layer); })},
      {.name = "lang",
       .help = "bert_score's lang: with a folder of its model for the language (zh: bert-base-chinese, en: "
               "roberta-large, others: bert-base-multilingual-cased), that model's default layer and name in the hash",
       .signature_key = "lang",
       .print = field_printer<BertScore>([](const BertScore& b) -> std::optional<std::string> {
         if (b.identity().lang.empty()) return std::nullopt;  // not bert_score's lang= run: no field
         return b.identity().lang;
       })},
      {.name = "idf", .kind = OptionKind::flag, .help = "weigh tokens by idf over the references",
       .signature_key = "idf", .flag_words = {"yes", "no"},
       .print = identity_printer([](const BertScoreIdentity& i) { return flag_value(i.idf); })},
      {.name = "baseline", .help = "rescale with bert_score's baseline FILE (LAYER,P,R,F rows)",
       .role = OptionRole::resource},
      {.name = "batch-size", .kind = OptionKind::integer,
       .help = "pairs per batch (bert_score's results depend on it: padding counts as similarity 0)",
       .default_text = "64", .min = 1, .max = 1 << 20, .signature_key = "batch",
       .print = identity_printer([](const BertScoreIdentity& i) { return std::to_string(i.batch_size); })},
      {.name = "encoder",
       .help = "evalcli's encoder version: v2 (GELU, LayerNorm and softmax vectorised), or v1 (the encoder before "
               "2026-12-05) to reproduce a signature with encoder:v1 (scores differ in the last digits)",
       .default_text = "v2", .choices = {"v1", "v2"}, .signature_key = "encoder",
       .print = identity_printer([](const BertScoreIdentity& i) { return i.encoder; })},
  };
  for (const auto& [key, hidden, member] : kIdentityFields) {
    d.signature_keys.push_back({key, "",
                                [hidden = std::string(hidden)](const std::string& value, OptionValues& values) {
                                  values.set(hidden, value);
                                },
                                identity_printer([member = member](const BertScoreIdentity& i) { return i.*member; })});
  }
  d.signature_layout = {"type", "model", "lang", "weights", "tok", "layer", "idf", "rescale", "batch", "encoder"};
  d.signature_keys.push_back({"metric", "", [](const std::string& value, OptionValues&) {
                                if (value != "BERTScore") throw usage_error(fmt::format("signature is for {}, not BERTScore", value));
                              }});
  d.build = build_bertscore;
  d.shard_problem = bertscore_shard_problem;
  d.segments_alone = false;
  return d;
}

}  // namespace

const MetricDefinition& bertscore_definition() {
  static const MetricDefinition definition = make_bertscore_definition();
  return definition;
}

}  // namespace evalcli
