// METEOR 1.5's system score from summed statistics, shared by a run and by a
// merge of shards: a merge rebuilds the scorer from the signature's eval id
// (parameters and module weights), without the resources that only aligning
// text needs.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

#include "evalcli/core/error.hpp"
#include "evalcli/core/format.hpp"
#include "evalcli/core/signature.hpp"
#include "evalcli/core/strings.hpp"
#include "evalcli/metrics/meteor15.hpp"
#include "meteor15_internal.hpp"

namespace evalcli {
namespace meteor15 {
namespace {

constexpr std::size_t kMaxModules = Meteor15::kMaxModules;
constexpr std::size_t kNumStats = Meteor15::kNumStats;

}  // namespace

std::vector<std::string> stat_names() {
  std::vector<std::string> names = {"test_len", "ref_len", "test_function_words", "ref_function_words"};
  for (std::size_t k = 1; k <= kMaxModules; ++k) {
    for (const char* part : {"test_content", "ref_content", "test_function", "ref_function"}) {
      names.push_back(fmt::format("stage{}_{}", k, part));
    }
  }
  names.insert(names.end(), {"chunks", "test_word_matches", "ref_word_matches"});
  return names;
}

StatDomain stat_domain() {
  StatDomain domain{std::vector<StatKind>(stat_names().size(), StatKind::count), {}};
  // test_len 0, ref_len 1, test/ref function words 2, 3; per stage its test/ref content and
  // function matches 4+4k..7+4k; chunks 20, test/ref word matches 21, 22.
  domain.at_most = {{2, 0}, {3, 1}, {21, 0}, {22, 1}, {20, 21}};
  for (std::size_t k = 0; k < kMaxModules; ++k) {
    const std::size_t base = 4 + 4 * k;
    domain.at_most.insert(domain.at_most.end(), {{base, 0}, {base + 1, 1}, {base + 2, 2}, {base + 3, 3}});
  }
  return domain;
}

// Java's Double.toString equals Python's repr for the short decimals METEOR's parameters use.
std::string join_doubles(const std::vector<double>& values) {
  std::vector<std::string> parts;
  for (double v : values) parts.push_back(python_float_repr(v));
  return fmt::format("{}", fmt::join(parts, "_"));
}

// MeteorScorer.computeMetrics on (summed) statistics.
Numbers compute_numbers(std::span<const double> st, const std::array<double, 4>& p, const std::vector<double>& weights) {
  const double alpha = p[0], beta = p[1], gamma = p[2], delta = p[3];
  Numbers n;
  const double test_len = st[0], ref_len = st[1], test_fn = st[2], ref_fn = st[3];
  const double test_weighted_length = (delta * (test_len - test_fn)) + ((1.0 - delta) * test_fn);
  const double ref_weighted_length = (delta * (ref_len - ref_fn)) + ((1.0 - delta) * ref_fn);
  double test_weighted = 0, ref_weighted = 0;
  for (std::size_t i = 0; i < weights.size(); ++i) test_weighted += st[4 + 4 * i] * weights[i] * delta;
  for (std::size_t i = 0; i < weights.size(); ++i) ref_weighted += st[5 + 4 * i] * weights[i] * delta;
  for (std::size_t i = 0; i < weights.size(); ++i) test_weighted += st[6 + 4 * i] * weights[i] * (1.0 - delta);
  for (std::size_t i = 0; i < weights.size(); ++i) ref_weighted += st[7 + 4 * i] * weights[i] * (1.0 - delta);
  double test_total = 0, ref_total = 0;
  for (std::size_t i = 0; i < kMaxModules; ++i) {
    test_total += st[4 + 4 * i];
    test_total += st[6 + 4 * i];
    ref_total += st[5 + 4 * i];
    ref_total += st[7 + 4 * i];
  }
  const double chunks = st[kNumStats - 3];
  const double test_word_matches = st[kNumStats - 2];
  const double ref_word_matches = st[kNumStats - 1];
  n.precision = test_weighted / test_weighted_length;
  n.recall = ref_weighted / ref_weighted_length;
  n.f1 = (2 * n.precision * n.recall) / (n.precision + n.recall);
  n.fmean = 1.0 / (((1.0 - alpha) / n.precision) + (alpha / n.recall));
  double frag;
  if (test_total == test_len && ref_total == ref_len && chunks == 1) {
    frag = 0;
  } else {
    frag = chunks / ((test_word_matches + ref_word_matches) / 2);
  }
  n.frag_penalty = gamma * std::pow(frag, beta);
  const double score = n.fmean * (1.0 - n.frag_penalty);
  n.score = std::isnan(score) ? 0 : std::max(score, 0.0);
  return n;
}


nlohmann::json details(const Numbers& n, const std::string& eval_id) {
  return {{"compat", "meteor15"},
          {"aggregate", "system score from summed statistics (METEOR 1.5)"},
          {"eval_id", eval_id},
          {"precision", n.precision},
          {"recall", n.recall},
          {"f1", n.f1},
          {"fmean", n.fmean},
          {"frag_penalty", n.frag_penalty}};
}

namespace {

std::vector<double> numbers_of(std::string_view joined) {
  std::vector<double> numbers;
  for (auto part : split(joined, '_')) numbers.push_back(signature_double("eval-id", part));
  return numbers;
}

// METEOR 1.5 statistics summed elsewhere (shards), scored with the parameters
// and weights of the eval id: the statistics model alone (scoring text needs
// the resources, see Meteor15).
class Meteor15FromSignature : public StatsModel {
 public:
  Meteor15FromSignature(std::string fields, std::string eval_id, const std::array<double, 4>& parameters,
                        std::vector<double> weights)
      : fields_(std::move(fields)), eval_id_(std::move(eval_id)), parameters_(parameters), weights_(std::move(weights)) {}

  std::string name() const override { return "METEOR"; }
  std::vector<std::string> stat_names() const override { return meteor15::stat_names(); }
  StatDomain stat_domain() const override { return meteor15::stat_domain(); }
  double score(std::span<const Stat> stats) const override { return compute_numbers(stats, parameters_, weights_).score; }
  std::string signature() const override { return fields_; }
  nlohmann::json details(std::span<const Stat> stats) const override {
    return meteor15::details(compute_numbers(stats, parameters_, weights_), eval_id_);
  }

 private:
  std::string fields_;  // the signature's metric fields, as the run printed them
  std::string eval_id_;
  std::array<double, 4> parameters_;
  std::vector<double> weights_;
};

}  // namespace

EvalId parse_eval_id(const std::string& eval_id) {
  // meteor-1.5-wo-LANG-NORM-ALPHA_BETA_GAMMA_DELTA-MODULES-WEIGHTS
  const auto parts = split(eval_id, '-');
  if (parts.size() != 8 || parts[0] != "meteor" || parts[1] != "1.5" || parts[2] != "wo") {
    throw usage_error(fmt::format("signature: METEOR 1.5 needs an eval-id field like "
                                  "meteor-1.5-wo-en-norm-0.85_0.2_0.6_0.75-ex_st_sy-1.0_0.6_0.8, got '{}'",
                                  eval_id));
  }
  EvalId id;
  id.language = parts[3];
  id.normalization = parts[4];
  const auto parameters = numbers_of(parts[5]);
  const auto modules = split(parts[6], '_');
  id.modules.assign(modules.begin(), modules.end());
  id.weights = numbers_of(parts[7]);
  // The numbers must read back as printed, one weight per module.
  if (parameters.size() != 4 || id.weights.size() != id.modules.size() || id.weights.size() > kMaxModules ||
      join_doubles(parameters) != parts[5] || join_doubles(id.weights) != parts[7]) {
    throw usage_error(fmt::format("signature: unparsable METEOR 1.5 eval-id '{}'", eval_id));
  }
  std::copy(parameters.begin(), parameters.end(), id.parameters.begin());
  return id;
}

}  // namespace meteor15

std::unique_ptr<StatsModel> meteor15_from_signature(const std::string& signature) {
  std::vector<std::string> fields;
  std::optional<std::string> eval_id;
  for (const auto& [key, value] : parse_signature(signature)) {
    if (key == "nrefs" || key == "version") continue;  // the front end adds these
    if (key == "eval-id") eval_id = value;
    fields.push_back(key + ":" + value);
  }
  const meteor15::EvalId id = meteor15::parse_eval_id(eval_id.value_or(""));
  return std::make_unique<meteor15::Meteor15FromSignature>(fmt::format("{}", fmt::join(fields, "|")), *eval_id,
                                                           id.parameters, id.weights);
}

}  // namespace evalcli
