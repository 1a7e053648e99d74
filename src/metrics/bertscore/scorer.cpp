#include "metrics/bertscore/scorer.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <limits>
#include <map>
#include <set>
#include <sstream>

#include "evalcli/core/error.hpp"
#include "metrics/bertscore/blas.hpp"
#include "metrics/bertscore/encoder.hpp"

namespace evalcli::bertscore {
namespace {

// A sentence's token embeddings divided by their norms, in double.
struct UnitRows {
  int rows = 0, width = 0;
  std::vector<double> values;
};

UnitRows unit_rows(const HiddenStates& states) {
  UnitRows out{states.rows, states.width, std::vector<double>(states.values.begin(), states.values.end())};
  for (int r = 0; r < out.rows; ++r) {
    double* row = out.values.data() + static_cast<std::size_t>(r) * out.width;
    double norm = 0;
    for (int i = 0; i < out.width; ++i) norm += row[i] * row[i];
    norm = std::sqrt(norm);
    for (int i = 0; i < out.width; ++i) row[i] /= norm;
  }
  return out;
}

double weighted_mean(const std::vector<double>& best, const TokenIds& ids, const TokenWeights& weights) {
  double total = 0;
  for (const int id : ids) total += weights.weight(id);
  double sum = 0;
  for (std::size_t i = 0; i < ids.size(); ++i) sum += best[i] * (weights.weight(ids[i]) / total);
  return sum;  // 0/0 (NaN) when every weight is 0, as bert_score
}

struct BatchShape {
  std::size_t longest_cand = 0, longest_ref = 0;
};

Prf score_pair(const UnitRows& cand, const UnitRows& ref, const TokenIds& cand_ids, const TokenIds& ref_ids,
               const TokenWeights& weights, const BatchShape& shape) {
  std::vector<double> sim(static_cast<std::size_t>(cand.rows) * ref.rows);
  dgemm(CblasNoTrans, CblasTrans, cand.rows, ref.rows, cand.width, 1.0, cand.values.data(),
              cand.width, ref.values.data(), ref.width, 0.0, sim.data(), ref.rows);
  // Padding adds similarities of 0 to the maxima (bert_score multiplies by the mask).
  const double floor_p = ref_ids.size() < shape.longest_ref ? 0.0 : -std::numeric_limits<double>::infinity();
  const double floor_r = cand_ids.size() < shape.longest_cand ? 0.0 : -std::numeric_limits<double>::infinity();
  std::vector<double> best_p(cand.rows, floor_p), best_r(ref.rows, floor_r);
  for (int i = 0; i < cand.rows; ++i) {
    for (int j = 0; j < ref.rows; ++j) {
      const double s = sim[static_cast<std::size_t>(i) * ref.rows + j];
      best_p[i] = std::max(best_p[i], s);
      best_r[j] = std::max(best_r[j], s);
    }
  }
  double p = weighted_mean(best_p, cand_ids, weights);
  double r = weighted_mean(best_r, ref_ids, weights);
  double f = 2 * p * r / (p + r);
  if (cand_ids.size() == 2 || ref_ids.size() == 2) p = r = 0;  // [CLS][SEP] alone: an empty sentence
  if (std::isnan(f)) f = 0;
  return {p, r, f};
}

// The embeddings of a batch's distinct sentences, in one forward pass.
std::map<TokenIds, UnitRows> embed(const Encoder& encoder, const std::vector<const TokenIds*>& sentences) {
  std::set<TokenIds> distinct;
  for (const TokenIds* ids : sentences) distinct.insert(*ids);
  const std::vector<TokenIds> list(distinct.begin(), distinct.end());
  const std::vector<HiddenStates> states = encoder.forward(list);
  std::map<TokenIds, UnitRows> out;
  for (std::size_t i = 0; i < list.size(); ++i) out.emplace(list[i], unit_rows(states[i]));
  return out;
}

}  // namespace

TokenWeights::TokenWeights(int cls_id, int sep_id) : cls_id_(cls_id), sep_id_(sep_id) {}

TokenWeights::TokenWeights(const std::vector<TokenIds>& references, int cls_id, int sep_id)
    : idf_(true), cls_id_(cls_id), sep_id_(sep_id) {
  std::unordered_map<int, std::size_t> df;
  for (const TokenIds& ids : references) {
    for (const int id : std::set<int>(ids.begin(), ids.end())) ++df[id];
  }
  const double m = static_cast<double>(references.size());
  unseen_ = std::log(m + 1);
  for (const auto& [id, count] : df) table_[id] = std::log((m + 1) / (static_cast<double>(count) + 1));
}

double TokenWeights::weight(int id) const {
  if (id == cls_id_ || id == sep_id_) return 0;
  if (!idf_) return 1;
  const auto it = table_.find(id);
  return static_cast<float>(it == table_.end() ? unseen_ : it->second);
}

std::vector<Prf> score_pairs(const Encoder& encoder, const std::vector<TokenIds>& cands,
                             const std::vector<TokenIds>& refs, const TokenWeights& weights,
                             const ScoringOptions& options, const std::vector<std::size_t>& group_sizes,
                             ScoringNotes& notes) {
  std::vector<Prf> pairs(cands.size());
  const std::size_t batch = std::max<std::size_t>(options.batch_size, 1);
  for (std::size_t start = 0; start < cands.size(); start += batch) {
    const std::size_t end = std::min(cands.size(), start + batch);
    BatchShape shape;
    std::vector<const TokenIds*> sentences;
    for (std::size_t i = start; i < end; ++i) {
      shape.longest_cand = std::max(shape.longest_cand, cands[i].size());
      shape.longest_ref = std::max(shape.longest_ref, refs[i].size());
      sentences.push_back(&cands[i]);
      sentences.push_back(&refs[i]);
      notes.empty_candidate = notes.empty_candidate || cands[i].size() == 2;
      notes.empty_reference = notes.empty_reference || refs[i].size() == 2;
    }
    const auto embeddings = embed(encoder, sentences);
    for (std::size_t i = start; i < end; ++i) {
      pairs[i] = score_pair(embeddings.at(cands[i]), embeddings.at(refs[i]), cands[i], refs[i], weights, shape);
    }
  }
  std::vector<Prf> out;
  std::size_t next = 0;
  for (const std::size_t size : group_sizes) {
    Prf best = pairs.at(next);
    for (std::size_t k = 1; k < size; ++k) {
      for (int c = 0; c < 3; ++c) best[c] = std::max(best[c], pairs.at(next + k)[c]);
    }
    next += size;
    out.push_back(best);
  }
  if (options.baseline) {
    const Prf& b = *options.baseline;
    for (Prf& row : out) {
      for (int c = 0; c < 3; ++c) row[c] = (row[c] - b[c]) / (1 - b[c]);
    }
  }
  return out;
}

Prf read_baseline(const std::string& path, int layer) {
  std::ifstream in(path);
  if (!in) throw Error(ExitCode::missing_resource, fmt::format("{}: cannot read the baseline file", path));
  std::string line;
  std::getline(in, line);  // the header (LAYER,P,R,F)
  for (int row = 0; std::getline(in, line); ++row) {
    if (row != layer) continue;
    std::vector<std::string> cells;
    std::stringstream fields(line);
    for (std::string cell; std::getline(fields, cell, ',');) cells.push_back(cell);
    if (cells.size() != 4) break;
    Prf b;
    try {
      for (int c = 0; c < 3; ++c) b[c] = static_cast<float>(std::stod(cells[c + 1]));  // bert_score's .float()
    } catch (const std::exception&) {
      throw Error(ExitCode::input_data, fmt::format("{}:{}: not a number in a baseline row", path, row + 2));
    }
    return b;
  }
  throw Error(ExitCode::input_data, fmt::format("{}: no baseline row {} (LAYER,P,R,F rows from layer 0)", path, layer));
}

}  // namespace evalcli::bertscore
