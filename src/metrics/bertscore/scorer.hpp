#pragma once
// bert_score 0.3.13's scoring (score() and bert_cos_score_idf), pair batch by
// pair batch:
//  - every token's embedding (the requested layer's hidden state) divided by
//    its L2 norm; similarities are their dot products;
//  - P: the best similarity of each candidate token, R: of each reference
//    token, averaged with weights (idf, or 1 and 0 for [CLS]/[SEP]); F = 2PR/(P+R);
//  - in a batch, sentences are padded to the batch's longest and padded
//    similarities are 0, not masked: a token whose similarities are all
//    negative gets 0 when its pair is shorter than the batch's longest;
//  - an empty candidate or reference ([CLS][SEP] alone) scores 0, F's NaN is 0;
//  - several references: the maximum of P, R and F separately;
//  - a baseline row b rescales each to (x - b) / (1 - b).
#include <array>
#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace evalcli::bertscore {

class Encoder;

using TokenIds = std::vector<int>;
using Prf = std::array<double, 3>;  // P, R, F

// Token weights: idf over the references (idf = ln((M+1)/(df+1)), unseen ln(M+1)) or uniform.
class TokenWeights {
 public:
  // Uniform weights: 1, and 0 for the two special ids.
  TokenWeights(int cls_id, int sep_id);
  // idf from `references` (each counted once per reference), specials 0.
  TokenWeights(const std::vector<TokenIds>& references, int cls_id, int sep_id);
  // As bert_score holds them: float32 values.
  double weight(int id) const;
  bool idf() const { return idf_; }

 private:
  bool idf_ = false;
  int cls_id_, sep_id_;
  double unseen_ = 1;
  std::unordered_map<int, double> table_;
};

struct ScoringOptions {
  std::size_t batch_size = 64;
  std::optional<Prf> baseline;  // rescale with this row
};

// What happened that bert_score warns about.
struct ScoringNotes {
  bool empty_candidate = false;
  bool empty_reference = false;
};

// The scores of pairs (cands[i], refs[i]) in bert_score's order, then grouped
// (group_sizes: consecutive pairs of one candidate, max per column) and rescaled.
std::vector<Prf> score_pairs(const Encoder& encoder, const std::vector<TokenIds>& cands,
                             const std::vector<TokenIds>& refs, const TokenWeights& weights,
                             const ScoringOptions& options, const std::vector<std::size_t>& group_sizes,
                             ScoringNotes& notes);

// bert_score's baseline file (LAYER,P,R,F with a header): row `layer` as
// bert_score reads it (the row's position, values rounded to float32).
Prf read_baseline(const std::string& path, int layer);

}  // namespace evalcli::bertscore
