#pragma once
// BERTScore as bert_score 0.3.13 computes it (docs/bertscore.md), from a local
// Hugging Face model folder (config.json, tokenizer files, model.safetensors).
//
//   BertScoreScorer: the model folder loaded; token ids of sentences, and the
//                    P/R/F of candidates against their references (bert_score's
//                    batches, idf, multi-reference maximum, baseline rescaling).
//   BertScore:       the statistics model of the rows [P, R, F, 1]: corpus
//                    scores are the means (F first, then P and R as score
//                    components), named by a signature that carries the
//                    weights' and tokenizer's hashes.
#include <array>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "evalcli/metrics/definition.hpp"
#include "evalcli/metrics/metric.hpp"

namespace evalcli {

namespace bertscore {
class ModelFolder;
}

struct BertScoreOptions {
  std::string model_dir;
  int num_layers = -1;  // -1: bert_score's default for the folder's name (model2layers), else required
  std::string lang;     // bert_score's lang ("": none); see docs/bertscore.md
  bool idf = false;
  std::string baseline_path;  // "": no rescaling
  std::size_t batch_size = 64;
  std::string encoder = "v2";  // evalcli's encoder version: "v2", or "v1" to reproduce earlier runs
};

// What the signature says of a run (everything that can change a number).
struct BertScoreIdentity {
  std::string model_type;      // "bert", "roberta", "xlm-roberta", "distilbert"
  std::string model_name;      // the folder's name, as bert_score's hash prints it
  std::string weights;         // "sha256.<16 hex>" of model.safetensors
  std::string tokenizer;       // "wordpiece-v1.sha256.<16 hex>" of the tokenizer's files
  int layer = 0;
  std::string lang;            // set when the folder is bert_score's model for it (score(lang=L)), else ""
  bool idf = false;
  std::string rescale = "no";  // or "sha256.<16 hex>" of the baseline file
  std::size_t batch_size = 64;
  std::string encoder = "v2";  // evalcli's encoder version
};

// P, R and F of one candidate.
using BertScorePrf = std::array<double, 3>;

class BertScoreScorer {
 public:
  explicit BertScoreScorer(const BertScoreOptions& options);
  ~BertScoreScorer();

  // bert_score's sent_encode: the sentence's token ids with the special tokens.
  std::vector<int> encode(std::u32string_view sentence) const;

  // The scores of each candidate against its references (refs[i]: the token
  // ids of candidate i's references, at least one). idf weights come from all
  // the references given. `warnings` receives bert_score's warnings about
  // empty sentences (once each).
  std::vector<BertScorePrf> score(const std::vector<std::vector<int>>& cands,
                                  const std::vector<std::vector<std::vector<int>>>& refs,
                                  std::vector<std::string>& warnings) const;

  const BertScoreIdentity& identity() const { return identity_; }
  // Notes about how the options were read (a --lang that changes nothing), for standard error.
  const std::vector<std::string>& notes() const { return notes_; }

 private:
  BertScoreOptions options_;
  std::vector<std::string> notes_;
  std::unique_ptr<bertscore::ModelFolder> folder_;
  BertScoreIdentity identity_;
  std::array<double, 3> baseline_{};
};

// bert_score's hash string of a run: "<model>_L<layer>_<idf|no-idf>_version=0.3.12(hug_trans=4.29.2)[-custom-rescaled]".
std::string bert_score_hash(const BertScoreIdentity& identity);

// bert_score's model2layers default, or -1 when the name is not in its table
// ("scibert_scivocab_uncased" finds "allenai/scibert_scivocab_uncased").
int bert_score_default_layers(std::string_view model_name);

// bert_score's lang2model: the model it loads for a language (lower case).
std::string bert_score_lang_model(std::string_view lang);

class BertScore : public StatsModel {
 public:
  explicit BertScore(BertScoreIdentity identity) : identity_(std::move(identity)) {}
  std::string name() const override { return "BERTScore"; }
  std::vector<std::string> stat_names() const override { return {"P", "R", "F", "segments"}; }
  StatDomain stat_domain() const override;
  double score(std::span<const Stat> stats) const override;  // mean F
  bool corpus_score_is_mean() const override { return true; }
  std::string signature() const override;
  nlohmann::json details(std::span<const Stat> stats) const override;
  std::vector<std::string> score_components() const override { return {"F", "P", "R"}; }
  std::unique_ptr<StatsModel> score_component(std::size_t k) const override;
  const BertScoreIdentity& identity() const { return identity_; }

 private:
  BertScoreIdentity identity_;
};

const MetricDefinition& bertscore_definition();

}  // namespace evalcli
