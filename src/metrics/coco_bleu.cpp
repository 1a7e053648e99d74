// Bleu_1..4 exactly as pycocoevalcap's bleu/bleu_scorer.py (docs/coco.md).
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <compare>
#include <cstdint>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <string_view>
#include <unordered_map>

#include "evalcli/core/error.hpp"
#include "evalcli/metrics/coco.hpp"
#include "evalcli/metrics/text_options.hpp"
#include "evalcli/text/unicode.hpp"

namespace evalcli {
namespace {

constexpr int kOrders = CocoBleu::kMaxOrder;
// compute_score's constants: tiny keeps a zero match count from a zero product's
// log, small keeps a zero guess count from dividing by zero.
constexpr double kTiny = 1e-15;
constexpr double kSmall = 1e-9;

// Statistic positions: [testlen, reflen, guess_1..4, correct_1..4].
constexpr std::size_t kTestLen = 0;
constexpr std::size_t kRefLen = 1;
constexpr std::size_t kGuess = 2;
constexpr std::size_t kCorrect = kGuess + kOrders;
constexpr std::size_t kNumStats = kCorrect + kOrders;

// Word ids of one image's sentences: equal words get equal ids (from 1), so
// that n-grams compare as integers.
using WordIds = std::unordered_map<std::u32string_view, std::uint32_t>;

// An n-gram of up to 4 words as their ids, 0 where there is no word (so
// n-grams of different orders never compare equal).
struct NgramKey {
  std::uint64_t high = 0, low = 0;
  auto operator<=>(const NgramKey&) const = default;
};

// The words of a sentence (Python's str.split()) as ids.
struct Words {
  std::vector<std::uint32_t> ids;

  Words(std::u32string_view tokenized, WordIds& word_ids) {
    for (const auto word : text::split(tokenized)) {
      ids.push_back(word_ids.try_emplace(word, static_cast<std::uint32_t>(word_ids.size() + 1)).first->second);
    }
  }
  std::size_t size() const { return ids.size(); }
  NgramKey ngram(std::size_t first, std::size_t order) const {
    std::array<std::uint64_t, kOrders> words{};
    for (std::size_t i = 0; i < order; ++i) words[i] = ids[first + i];
    return {words[0] << 32 | words[1], words[2] << 32 | words[3]};
  }
};

// The n-grams of one order with their counts, sorted by n-gram (sorted
// vectors: a caption has a few dozen n-grams).
using NgramCounts = std::vector<std::pair<NgramKey, int>>;

// Sorts `pairs` by n-gram and merges equal n-grams into one, keeping the
// sum of their counts (`sum`) or the largest one.
void merge_equal(NgramCounts& pairs, bool sum) {
  std::sort(pairs.begin(), pairs.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::size_t kept = 0;
  for (std::size_t i = 0; i < pairs.size(); ++i) {
    if (kept > 0 && pairs[kept - 1].first == pairs[i].first) {
      int& count = pairs[kept - 1].second;
      count = sum ? count + pairs[i].second : std::max(count, pairs[i].second);
    } else {
      pairs[kept++] = pairs[i];
    }
  }
  pairs.resize(kept);
}

// precook() for one order: appends every n-gram of `words` with count 1.
void append_ngrams(const Words& words, std::size_t order, NgramCounts& out) {
  for (std::size_t i = 0; i + order <= words.size(); ++i) out.emplace_back(words.ngram(i, order), 1);
}

// cook_test()'s "closest": the reference length nearest the test length, the
// shorter on a tie (min over (abs(l - testlen), l)).
std::size_t closest_length(const std::vector<Words>& refs, std::size_t testlen) {
  auto distance = [testlen](std::size_t l) { return l > testlen ? l - testlen : testlen - l; };
  std::size_t best = refs.front().size();
  for (const auto& ref : refs) {
    const std::size_t l = ref.size();
    if (distance(l) < distance(best) || (distance(l) == distance(best) && l < best)) best = l;
  }
  return best;
}

}  // namespace

CocoBleu::CocoBleu(int max_order, std::unique_ptr<TextPipeline> pipeline)
    : max_order_(max_order), pipeline_(std::move(pipeline)) {
  if (max_order_ < 1 || max_order_ > kMaxOrder) throw usage_error("Bleu: n-gram order must be 1 to 4");
}

std::string CocoBleu::name() const { return fmt::format("Bleu_{}", max_order_); }

std::vector<std::string> CocoBleu::stat_names() const {
  std::vector<std::string> names = {"testlen", "reflen"};
  for (int k = 1; k <= kOrders; ++k) names.push_back(fmt::format("guess_{}", k));
  for (int k = 1; k <= kOrders; ++k) names.push_back(fmt::format("correct_{}", k));
  return names;
}

StatDomain CocoBleu::stat_domain() const {
  StatDomain domain{std::vector<StatKind>(kNumStats, StatKind::count), {}};
  for (std::size_t k = 0; k < kOrders; ++k) domain.at_most.emplace_back(kCorrect + k, kGuess + k);
  return domain;
}

void CocoBleu::segment_stats(std::u32string_view hyp, std::span<const std::u32string> refs, Stat* out) const {
  std::vector<std::u32string> tokenized_refs;
  tokenized_refs.reserve(refs.size());
  for (const auto& ref : refs) tokenized_refs.push_back(pipeline_->process(ref));
  tokenized_stats(pipeline_->process(hyp), tokenized_refs, out);
}

void CocoBleu::tokenized_stats(std::u32string_view hyp, std::span<const std::u32string> refs, Stat* out) const {
  if (refs.empty()) throw input_error("Bleu: an image has no references");
  WordIds word_ids;
  std::vector<Words> ref_words;
  ref_words.reserve(refs.size());
  for (const auto& ref : refs) ref_words.emplace_back(ref, word_ids);
  const Words test(hyp, word_ids);
  out[kTestLen] = static_cast<Stat>(test.size());
  out[kRefLen] = static_cast<Stat>(closest_length(ref_words, test.size()));
  NgramCounts max_counts, counts;
  for (std::size_t k = 0; k < kOrders; ++k) {
    // cook_refs(): per n-gram the largest count in any one reference.
    max_counts.clear();
    for (const auto& ref : ref_words) {
      counts.clear();
      append_ngrams(ref, k + 1, counts);
      merge_equal(counts, true);
      max_counts.insert(max_counts.end(), counts.begin(), counts.end());
    }
    merge_equal(max_counts, false);
    // cook_test(): clipped matches and the number of n-grams of this order.
    counts.clear();
    append_ngrams(test, k + 1, counts);
    merge_equal(counts, true);
    int correct = 0;
    for (const auto& [ngram, count] : counts) {
      const auto found = std::lower_bound(max_counts.begin(), max_counts.end(), ngram,
                                          [](const auto& pair, const NgramKey& key) { return pair.first < key; });
      if (found != max_counts.end() && found->first == ngram) correct += std::min(found->second, count);
    }
    out[kGuess + k] = test.size() >= k + 1 ? static_cast<Stat>(test.size() - k) : 0.0;
    out[kCorrect + k] = correct;
  }
}

std::vector<double> CocoBleu::scores(std::span<const Stat> stats) const {
  // compute_score(): the running product of the precisions, its k-th root, and
  // the brevity penalty when the test is shorter than the references.
  std::vector<double> bleus;
  double product = 1.0;
  for (int k = 0; k < max_order_; ++k) {
    product *= (stats[kCorrect + k] + kTiny) / (stats[kGuess + k] + kSmall);
    bleus.push_back(std::pow(product, 1.0 / (k + 1)));
  }
  const double ratio = (stats[kTestLen] + kTiny) / (stats[kRefLen] + kSmall);
  if (ratio < 1) {
    for (double& bleu : bleus) bleu *= std::exp(1 - 1 / ratio);
  }
  return bleus;
}

double CocoBleu::score(std::span<const Stat> stats) const { return scores(stats).back(); }

std::string CocoBleu::signature() const { return print_signature(coco_bleu_definition(), *this); }

nlohmann::json CocoBleu::details(std::span<const Stat> stats) const {
  nlohmann::json out = nlohmann::json::object();
  const std::vector<double> bleus = scores(stats);
  for (std::size_t k = 0; k < bleus.size(); ++k) out[fmt::format("Bleu_{}", k + 1)] = bleus[k];
  out["testlen"] = stats[kTestLen];
  out["reflen"] = stats[kRefLen];
  return out;
}

// ---------------------------------------------------------------- definition

namespace {

std::unique_ptr<StatsModel> build_coco_bleu(const OptionValues& values, const BuildContext&) {
  auto pipeline = std::make_unique<TextPipeline>(pipeline_options(values, "ptb"));
  check_signature_tokenizer_fields(values, pipeline->tokenizer());
  return std::make_unique<CocoBleu>(values.integer("bleu-order", CocoBleu::kMaxOrder), std::move(pipeline));
}

MetricDefinition make_coco_bleu_definition() {
  const TextOptionSpecs text{.tokenize_help = "tokenizer (-tok): ptb (default, as pycocoevalcap), none, ...",
                             .pipeline = pipeline_of<CocoBleu>(),
                             .case_when_mixed = false};
  MetricDefinition d;
  d.command = "coco-bleu";
  d.summary = "Bleu_1..4 of pycocoevalcap (COCO captions; not SacreBLEU's BLEU)";
  d.names = {"Bleu_"};
  d.default_width = 4;
  d.score_scale = 1;
  d.options = {{.name = "bleu-order",
                .kind = OptionKind::integer,
                .help = "the score is Bleu_N (Bleu_1..N in the JSON report)",
                .default_text = "4",
                .min = 1,
                .max = CocoBleu::kMaxOrder,
                .signature_key = "n",
                .print = field_printer<CocoBleu>([](const CocoBleu& b) { return std::to_string(b.max_order()); })}};
  const auto shared = text_option_specs(text);
  d.options.insert(d.options.end(), shared.begin(), shared.end());
  d.signature_keys = text_signature_keys(text);
  d.signature_keys.push_back(fixed_signature_key("Bleu", "compat", "pycocoevalcap-1.2"));
  d.signature_keys.push_back(fixed_signature_key("Bleu", "reflen", "closest"));
  d.signature_keys.push_back({"metric", "", [](const std::string& value, OptionValues&) {
                                if (value.rfind("Bleu_", 0) != 0) {
                                  throw usage_error(fmt::format("signature is for {}, not pycocoevalcap's Bleu", value));
                                }
                              }});
  d.signature_layout = {"compat", "n", "reflen", "tok", "dict", "icu", "case", "norm"};
  d.build = build_coco_bleu;
  d.word_tokenizer = [](const OptionValues& values) { return chosen_tokenizer(values, "ptb"); };
  return d;
}

}  // namespace

const MetricDefinition& coco_bleu_definition() {
  static const MetricDefinition definition = make_coco_bleu_definition();
  return definition;
}

}  // namespace evalcli
